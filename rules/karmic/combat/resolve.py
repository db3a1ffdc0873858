"""Resolution register by register: reveals, hit chains, jokers, totals, damage and effects, the end
of a round and of the combat (digest §2.10, §3, §4)."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction

from ..base import cards_term, discard, draw, name, signed
from ..cards import is_face, is_joker, label, value
from ..state import Decl, Engagement, KarmicState, Register
from ..tables import (LOCATION_NAMES, MANEUVERS, WRESTLING, BLOCK, DODGE, PARRY, location_mod)

from .. import views
from .common import STEP_ATTACKS, _size_class, _weapon, engagement, rng_text
# The flow loops (a round ends and the next begins, resolution ends the declaring): sibling
# modules on that loop are imported as modules, their functions looked up when called.
from . import rounds, setup
from . import unusual_foes


def _order_key(state: KarmicState, d: Decl) -> int:
    e = engagement(state, d.owner, d.target) if d.target else None
    return 0 if e is not None and e.init == d.owner else 1


def _continue_resolution(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    while state.phase == "resolve":
        pending = [r for r in cb.registers if not r.resolved and r.n <= cb.resolve_to]
        if not pending:
            break
        reg = pending[0]
        if not reg.revealed:
            _reveal(state, reg, events)
        if any(d.open for d in reg.decls) or any(_joker(d) and not d.ruling for d in reg.decls):
            return          # waiting for a hit decision or a GM ruling
        _resolve_register(state, reg, events)
        reg.resolved = True
        if _check_over(state, events):
            return
    if state.phase != "resolve":
        return
    state.phase = "declare"
    if rounds._can_continue(state) and cb.reg < 99:
        rounds._begin_register(state, cb.reg + 1, events)
    else:
        _end_round(state, events)


def joker_prompt(state: KarmicState, reg_n: int, d: Decl) -> tuple[str, dict]:
    """What the GM rules on, and what each answer does (A3): a joker played, or drawn while hitting
    (then the whole maneuver becomes a joker outcome); success strikes with the maximum damage.
    (prompt kind, args)"""
    m = MANEUVERS[d.man]
    args: dict = {"name": name(state, d.owner), "maneuver": {"term": f"maneuver.{d.man}"}, "register": reg_n,
                  "target": {"term": "against", "name": name(state, d.target)} if d.target else {"term": "nothing"},
                  "cards": cards_term([d.card] + d.chain)}
    if m.kind == "strike":
        maxd, _ = damage_of(state, d, joker=True)
        args["effect"] = {"term": "joker_effect_strike", "max": maxd}
    else:
        args["effect"] = {"term": "joker_effect"}
    return ("combat_joker" if is_joker(d.card) else "combat_joker_drawn"), args


def _joker(d: Decl) -> bool:
    return any(is_joker(c) for c in [d.card] + d.chain)


def _reveal(state: KarmicState, reg: Register, events: list[Event]) -> None:
    reg.revealed = True
    parts = []
    for d in reg.decls:
        d.revealed = True
        d.open = is_face(d.card) and MANEUVERS[d.man].kind != "change"
        parts.append(f"{name(state, d.owner)} {MANEUVERS[d.man].name}: {label(d.card)}")
    if parts:
        events.append(Event("reveal", f"Register {reg.n} revealed — " + "; ".join(parts) + ".", PUBLIC,
                            {"register": reg.n, "cards": [[d.owner, d.man, d.card] for d in reg.decls]}))


def next_hit(state: KarmicState, reg: Register) -> int:
    order = sorted(range(len(reg.decls)), key=lambda i: (_order_key(state, reg.decls[i]), i))
    for i in order:
        if reg.decls[i].open:
            return i
    return -1


def hit(state: KarmicState, reg_n: int, i: int, do_hit: bool, events: list[Event]) -> None:
    reg = state.combat.registers[reg_n - 1]
    d = reg.decls[i]
    if not d.open or next_hit(state, reg) != i:
        raise IllegalAction("No hit decision is owed for that card now.")
    if do_hit:
        card = draw(state, d.owner, 1, events)[0]
        d.chain.append(card)
        d.open = is_face(card)
        total = sum(value(c) for c in [d.card] + d.chain)
        events.append(Event("hit", f"{name(state, d.owner)} hits: {label(card)} (value now {signed(total)}).",
                            PUBLIC, {"who": d.owner, "card": card, "total": total, "register": reg_n}))
    else:
        d.open = False
        last = d.card if not d.chain else d.chain[-1]
        events.append(Event("stand", f"{name(state, d.owner)} stands on {label(last)}.",
                            PUBLIC, {"who": d.owner, "register": reg_n, "card": last}))
    _continue_resolution(state, events)


def rule_joker(state: KarmicState, reg_n: int, i: int, outcome: str, events: list[Event]) -> None:
    if outcome not in ("success", "failure"):
        raise IllegalAction("Rule 'success' or 'failure'.")
    d = state.combat.registers[reg_n - 1].decls[i]
    d.ruling = outcome
    events.append(Event("ruling", f"The GM rules {name(state, d.owner)}'s joker: {outcome}.", PUBLIC,
                        {"who": d.owner, "outcome": outcome, "register": reg_n}))
    _continue_resolution(state, events)


def maneuver_mod(state: KarmicState, d: Decl, target: str) -> int:
    m = MANEUVERS[d.man]
    me, tc = state.characters[d.owner], state.characters[target]
    sign = int(state.house_rules["flank_chop_sign"])
    if d.man == "tdown":
        return -tc.attr("finesse")
    if d.man == "tckl":
        e = engagement(state, d.owner, target)
        charged = state.combat.fighters[d.owner].charged
        return -5 if (e is not None and e.range == 1) or charged else -3
    if d.man == "hblk":
        return 1 if me.attr("might") > tc.attr("might") else -1
    if d.man == "bgrab":
        return -4 if me.attr("might") > tc.attr("might") else -6
    if d.man == "gouge":
        return -2 - tc.attr("fortitude") - tc.skill("self_discipline")
    if d.man == "flank":
        return sign * tc.attr("finesse")
    if d.man == "chop":                # L56: the entangling limb's vitality
        return sign * unusual_foes.chop_vitality(state, d.owner, target)
    if d.man == "swipe":
        return -(1 + len(d.extra))
    return m.mod


def decl_mt(state: KarmicState, d: Decl, target: str) -> tuple[int, str]:
    """Maneuver total and its arithmetic as text."""
    m = MANEUVERS[d.man]
    char = state.characters[d.owner]
    card_total = sum(value(c) for c in [d.card] + d.chain)
    weapon = _weapon(state, d.owner, d.weapon)
    no_force = d.man in ("mdg", "dg") or m.cat in ("h2h", "wrestle") or weapon is None
    cmod = char.finesse_armored + (0 if no_force else weapon.force)
    mm = maneuver_mod(state, d, target)
    mt = card_total + cmod + mm
    parts = [signed(card_total), f"{signed(cmod)} combat", f"{signed(mm)} {m.name.lower()}"]
    if d.loc != "torso" and d.man not in ("hbutt", "sbash"):
        lm = location_mod(d.loc, _size_class(state, d.owner, target))
        mt += lm
        parts.append(f"{signed(lm)} {LOCATION_NAMES[d.loc]}")
    if d.nostep:
        mt -= 2
        parts.append("−2 no step")
    wp = char.wound_penalty(int(state.house_rules["wound_row_penalty"]))
    if wp:
        mt += wp
        parts.append(f"{signed(wp)} wounds")
    f = state.combat.fighters.get(d.owner)
    if f is not None and f.gm_mod:
        mt += f.gm_mod
        parts.append(f"{signed(f.gm_mod)} GM")
    if f is not None and f.gm_hidden:
        mt += f.gm_hidden                  # the table reads the arithmetic without it, and no total
        return mt, " ".join(parts) + " + hidden GM modifier = ?"
    return mt, " ".join(parts) + f" = {mt}"


def hidden_total(state: KarmicState, key: str) -> bool:
    f = state.combat.fighters.get(key)
    return f is not None and bool(f.gm_hidden)


def gm_modifier(state: KarmicState, index: int, val: int, hidden: bool, events: list[Event]) -> None:
    """A standing GM modifier on every maneuver total of one fighter (index in the combatants'
    order), until the GM changes it; a hidden one is seen by the GM only (digest §1.7, §9.3)."""
    keys = list(state.combat.fighters)
    if not 0 <= index < len(keys):
        raise IllegalAction(f"No fighter number {index + 1} in this combat.")
    f = state.combat.fighters[keys[index]]
    if hidden:
        f.gm_hidden += val
        events.append(Event("gm_modifier", f"Hidden modifier {signed(val)} on {name(state, f.id)}'s maneuver "
                                           f"totals (now {signed(f.gm_hidden)}).", GM,
                            {"side": f.id, "value": val, "total": f.gm_hidden}))
    else:
        f.gm_mod += val
        events.append(Event("modifier", f"The GM sets a modifier of {signed(val)} on {name(state, f.id)}'s "
                                        f"maneuver totals.", PUBLIC, {"side": f.id, "value": val}))


def damage_of(state: KarmicState, d: Decl, joker: bool = False) -> tuple[int, str]:
    m = MANEUVERS[d.man]
    char = state.characters[d.owner]
    weapon = _weapon(state, d.owner, d.weapon)
    card_total = sum(value(c) for c in [d.card] + d.chain)
    edge = m.edge if m.edge is not None else (weapon.edge if weapon else 0)
    maxd = m.max_dmg if m.max_dmg is not None else (weapon.max_damage if weapon else 1)
    might = char.might_armored(state.house_rules["damage_attr"])
    if d.man == "lng":
        might += 2
        maxd += 1
    if state.combat.fighters[d.owner].charged:
        maxd += 1
    if d.loc in ("head", "head_vitals", "torso_vitals") and d.man not in ("sbash",):
        maxd += int(state.house_rules["location_max_damage_bonus"])
    total = card_total + might + edge
    dealt = maxd if joker else max(0, min(total, maxd))
    if joker:
        # A3: a joker ruled a success deals the maneuver's maximum; the cards' sum does not count
        text = f"damage: joker ruled a success → the maximum, {maxd}"
    else:
        text = f"damage {signed(card_total)} card {signed(might)} {state.house_rules['damage_attr']} " \
               f"{signed(edge)} edge = {total}" + (f", capped at max {maxd}" if total > maxd else "") + f" → {dealt}"
    if d.man == "smash":
        dealt *= 3
        text += f" ×3 = {dealt}"
    return dealt, text


def _resolve_register(state: KarmicState, reg: Register, events: list[Event]) -> None:
    cb = state.combat
    hr = state.house_rules
    damage: list[tuple[str, int]] = []
    range_delta: dict[int, int] = {}
    range_set: dict[int, int] = {}
    init_to: dict[int, str] = {}
    end_eng: set[int] = set()
    reinit: set[int] = set()
    lines = []
    outcomes: list[dict] = []
    answered = {d.answers for d in reg.decls if d.answers >= 0}
    for i, a in enumerate(reg.decls):
        m = MANEUVERS[a.man]
        af = cb.fighters[a.owner]
        if af.out:
            continue
        if m.kind == "change":
            char = state.characters[a.owner]
            char.wielding = [a.weapon] if a.weapon >= 0 else []
            af.changed_round = cb.round
            lines.append(f"{char.name} changes weapons: now " +
                         (char.weapons[a.weapon].name if a.weapon >= 0 else "bare hands") + ".")
            continue
        if m.kind == "stand":
            af.prone = False
            lines.append(f"{name(state, a.owner)} gets back up.")
            continue
        if m.kind == "defense":
            if i not in answered and a.answers < 0:
                lines.append(f"{name(state, a.owner)}'s {m.name} answers nothing.")
            continue
        for t in [a.target] + a.extra:
            e = engagement(state, a.owner, t)
            if e is None or cb.fighters[t].out:
                continue
            ei = cb.engagements.index(e)
            defense = next((d for d in reg.decls if d.answers == i and d.owner == t), None)
            amt, atext = decl_mt(state, a, t)
            o = {"attacker": a.owner, "maneuver": a.man, "target": t, "mt": amt, "card_total":
                 sum(value(c) for c in [a.card] + a.chain), "defense": defense.man if defense else None,
                 "defense_mt": None, "total": None, "unopposed": False, "damage": 0}
            line = f"{name(state, a.owner)} {m.name} ({atext})"
            a_joker = _joker(a)
            stops = defense is not None and MANEUVERS[defense.man].family in m.stopped_by
            d_joker = defense is not None and _joker(defense)
            if a_joker:
                success = a.ruling == "success"
                line += f" — joker, GM rules {a.ruling}"
            elif stops and not (d_joker and defense.ruling == "failure"):
                if d_joker:
                    success = False
                    line += f" vs {name(state, t)} {MANEUVERS[defense.man].name} (joker, GM rules it holds)"
                else:
                    dmt, dtext = decl_mt(state, defense, a.owner)
                    total = amt - max(0, dmt)
                    success = total > 0
                    o["defense_mt"], o["total"] = dmt, total
                    if hidden_total(state, a.owner) or hidden_total(state, t):
                        line += f" vs {name(state, t)} {MANEUVERS[defense.man].name} ({dtext})"
                    else:
                        line += f" vs {name(state, t)} {MANEUVERS[defense.man].name} ({dtext}): " \
                                f"{amt} − {max(0, dmt)} = {total}"
            else:
                need_pos = a.man in ("darm", "hdis") or hr["unopposed_needs_positive_total"]
                if defense is not None and not hr["unstoppable_defense_is_unopposed"] and not d_joker:
                    dmt, _ = decl_mt(state, defense, a.owner)
                    success = amt - max(0, dmt) > 0
                else:
                    success = amt > 0 if need_pos else True
                o["unopposed"] = True
                o["total"] = amt
                line += " — unopposed" + (" (needs a total above 0)" if need_pos else "")
            line += " → " + ("SUCCESS" if success else "fails")
            # step rules (armed attacks against parry/block/dodge)
            if a.man in STEP_ATTACKS and defense is not None and e.range >= 0 and \
                    MANEUVERS[defense.man].family in (PARRY, BLOCK, DODGE):
                fwd, back = not a.nostep, not defense.nostep
                if fwd and not back:
                    range_delta[ei] = range_delta.get(ei, 0) - 1
                elif back and not fwd:
                    range_delta[ei] = range_delta.get(ei, 0) + 1
            o["success"] = success
            if success:
                before = len(damage)
                line += _effects(state, a, t, e, ei, a_joker, damage, range_delta, range_set, init_to,
                                 end_eng, reinit)
                o["damage"] = sum(n for k, n in damage[before:] if k == t)
            elif defense is not None and stops:
                dm = MANEUVERS[defense.man]
                if dm.seize:
                    init_to[ei] = t
                    line += f"; {name(state, t)} seizes the initiative"
                if defense.man == "bgrab":
                    range_set[ei] = WRESTLING
                    line += "; they go to wrestling range"
                if a.man == "cling":
                    line += "; bucked off"
            if a.man == "hlng":
                init_to[ei] = t
                line += f"; {name(state, t)} gains the initiative after the lunge"
            if a.man == "smash":
                init_to[ei] = t
            lines.append(line + ".")
            outcomes.append(o)
    # apply effects together
    for who, n in damage:
        char = state.characters[who]
        char.hp_marked = min(char.hp_max, char.hp_marked + n)
    for ei, delta in range_delta.items():
        e = cb.engagements[ei]
        if ei in range_set or e.range == WRESTLING:
            continue
        e.range = max(0, e.range + delta)
    for ei, r in range_set.items():
        cb.engagements[ei].range = r
    for ei, who in init_to.items():
        _give_initiative(state, cb.engagements[ei], who)
    for ei in reinit:
        setup._initiative(state, [cb.engagements[ei]], events)
    for ei in end_eng:
        cb.engagements[ei].live = False
    for f in cb.fighters.values():
        char = state.characters[f.id]
        if not f.out and char.incapacitated:
            f.out = True
            lines.append(f"{char.name} is incapacitated.")
            for e in cb.engagements:
                if e.has(f.id):
                    e.live = False
    ranges = "; ".join(f"{name(state, e.a)}–{name(state, e.b)} {rng_text(e.range)}"
                       for e in cb.engagements if e.live)
    secret = [o for o in outcomes if hidden_total(state, o["attacker"]) or hidden_total(state, o["target"])]
    if secret:
        events.append(Event("resolve_gm", f"GM: register {reg.n} totals: " + "; ".join(
            f"{name(state, o['attacker'])} {o['mt']}" + (f" vs {name(state, o['target'])} {o['defense_mt']}"
                                                         if o["defense_mt"] is not None else "")
            for o in secret) + ".", GM, {"register": reg.n, "outcomes": [dict(o) for o in secret]}))
        outcomes = [dict(o, mt=None if hidden_total(state, o["attacker"]) else o["mt"],
                         defense_mt=None if hidden_total(state, o["target"]) else o["defense_mt"], total=None)
                    if o in secret else o for o in outcomes]
    events.append(Event("resolve", f"Register {reg.n}: " + " ".join(lines) + (f" Range: {ranges}." if ranges else ""),
                        PUBLIC, {"register": reg.n, "lines": lines, "outcomes": outcomes,
                                 "ranges": [[e.a, e.b, e.range] for e in cb.engagements if e.live],
                                 "hp": {k: state.characters[k].hp_marked for k in cb.fighters}}))
    spent = []
    for d in reg.decls:
        discard(state, d.owner, [d.card] + d.chain)
        spent.append(d.owner)


def _give_initiative(state: KarmicState, e: Engagement, who: str) -> None:
    """Take the initiative in e; holding it over another foe is yielded there (one at a time)."""
    e.init = who
    for other in state.combat.engagements:
        if other is not e and other.live and other.init == who:
            other.init = other.other(who)


def _effects(state, a: Decl, t: str, e: Engagement, ei: int, joker: bool, damage, range_delta, range_set,
             init_to, end_eng, reinit) -> str:
    cb = state.combat
    m = MANEUVERS[a.man]
    tn = name(state, t)
    if m.kind == "swat":               # L68: no damage, pushed back the damage's number of feet
        n, _ = damage_of(state, a, joker)
        yards = unusual_foes.swat_yards(n)
        if yards:
            range_delta[ei] = range_delta.get(ei, 0) + yards
        return f"; {tn} is swatted {n} feet away" + (f" (range +{yards})" if yards else "")
    if m.kind == "strike":
        n, text = damage_of(state, a, joker)
        damage.append((t, n))
        out = f"; {text}: {tn} takes {n}"
        if unusual_foes.entangle(state, a.owner, _weapon(state, a.owner, a.weapon), t):
            out += f"; {tn} is entangled"
        if a.man == "hbutt" and n // 2:
            damage.append((a.owner, n // 2))
            out += f", {name(state, a.owner)} takes {n // 2}"
        return out
    if m.kind == "disarm":
        tc = state.characters[t]
        if tc.wielding:
            lost = tc.weapons[tc.wielding.pop(0)].name
            return f"; {tn} is disarmed — the {lost} flies off (the GM places it)"
        return ""
    if m.kind == "takedown":
        cb.fighters[t].prone = True
        return f"; {tn} goes down (prone)"
    if m.kind == "flank":
        cb.fighters[t].flanked_by[a.owner] = cb.round + 1
        return f"; {tn} cannot attack or dodge {name(state, a.owner)} until the end of next round"
    if m.kind == "cling":
        cb.fighters[a.owner].cling = t
        return f"; {name(state, a.owner)} clings to {tn}"
    if m.kind == "chop":
        freed = unusual_foes.chop(state, a.owner, t)
        return "; the entangling limb is chopped" + (f": {name(state, freed)} is free" if freed else "")
    if m.kind == "hold":
        value_ = sum(value(c) for c in [a.card] + a.chain)
        cb.holds.append({"holder": a.owner, "target": t, "kind": a.man, "card_value": value_, "active": True,
                         "rounds": 0})
        end_eng.add(ei)
        what = "a choke hold" if a.man == "suf" else "a pin"
        return f"; {tn} is caught in {what} (break free: might check above {value_})"
    if m.kind == "move":
        if a.man == "cls":
            range_delta[ei] = range_delta.get(ei, 0) - 1
            return "; the range closes by 1"
        if a.man == "ret":
            range_delta[ei] = range_delta.get(ei, 0) + 1
            return "; the range opens by 1"
        if a.man == "psh":
            range_delta[ei] = range_delta.get(ei, 0) + 1
            return f"; {tn} is pushed back (range +1)"
        if a.man in ("odis", "dis"):
            range_delta[ei] = range_delta.get(ei, 0) + (2 if a.man == "odis" else 0)
            end_eng.add(ei)
            return "; they break apart and the fight ends"
        if a.man == "tckl":
            range_set[ei] = WRESTLING
            reinit.add(ei)
            return "; both go down to wrestling range and initiative is drawn again"
        if a.man == "esc":
            range_set[ei] = 0
            return "; back to close range (0)"
    return ""


def _check_over(state: KarmicState, events: list[Event]) -> bool:
    cb = state.combat
    if any(e.live for e in cb.engagements):
        return False
    return_cards(state)
    cb.turn = None
    if any(h.get("active") for h in cb.holds) and state.phase != "over_forced":
        state.phase = "hold"
        events.append(Event("hold_start", "Normal combat ends; the hold goes on: each round the held "
                                          "fighter may struggle to break free.", PUBLIC, {"holds": list(cb.holds)}))
        return True
    _finish(state, events)
    return True


def _finish(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    state.phase = "over"
    state.over = True
    cb.ended = cb.ended or "The fight is over."
    events.append(Event("combat_end", "The combat is over.", PUBLIC,
                        {"holds": list(cb.holds), "hp": {k: state.characters[k].hp_marked for k in cb.fighters}}))


def struggle(state: KarmicState, idx: int, events: list[Event]) -> None:
    """One round of a hold: a might check against the original card value to break free; in a
    choke hold a failed struggle is followed by Fortitude checks (A32: one per round) or he passes out."""
    cb = state.combat
    h = cb.holds[idx]
    if not h.get("active"):
        raise IllegalAction("That hold is over.")
    t = h["target"]
    char = state.characters[t]
    hr = state.house_rules
    wp = char.wound_penalty(int(hr["wound_row_penalty"]))
    card = draw(state, t, 1, events)[0]
    discard(state, t, [card])
    mt = value(card) + char.attr("might") + wp
    h["rounds"] = h.get("rounds", 0) + 1
    if is_joker(card) or mt > h["card_value"]:
        h["active"] = False
        events.append(Event("hold_break", f"{char.name} struggles ({label(card)} {signed(char.attr('might'))} "
                                          f"might = {mt} vs {h['card_value']}) and breaks free.", PUBLIC,
                            {"who": t, "mt": mt, "card": card}))
    else:
        events.append(Event("hold_struggle", f"{char.name} struggles ({label(card)} {signed(char.attr('might'))} "
                                             f"might = {mt} vs {h['card_value']}) but is still held.", PUBLIC,
                            {"who": t, "mt": mt, "card": card}))
        if h["kind"] == "suf":
            for _ in range(int(hr["hold_checks_per_round"])):
                c2 = draw(state, t, 1, events)[0]
                discard(state, t, [c2])
                fmt = value(c2) + char.attr("fortitude") + wp
                ok = is_joker(c2) or fmt > 0
                events.append(Event("choke_check", f"{char.name} fights for air: {label(c2)} "
                                                   f"{signed(char.attr('fortitude'))} fortitude = {fmt} → "
                                                   f"{'still conscious' if ok else 'passes out'}.", PUBLIC,
                                    {"who": t, "mt": fmt, "card": c2, "conscious": ok}))
                if not ok:
                    cb.fighters[t].out = True
                    h["active"] = False
                    break
    if not any(x.get("active") for x in cb.holds):
        _finish(state, events)


def return_cards(state: KarmicState) -> None:
    """Every card still in play (hands, face-down registers, initiative hands and their hits) goes
    to its owner's discard pile: for a fight ended by the GM or by force, no card is lost."""
    cb = state.combat
    for f in cb.fighters.values():
        if f.hand:
            discard(state, f.id, f.hand)
            f.hand = []
    for r in cb.registers:
        if not r.resolved:
            for d in r.decls:
                discard(state, d.owner, [d.card] + d.chain)
            r.resolved = True
    for k, hand in cb.init_hands.items():
        play = cb.init_plays.get(k)
        discard(state, k, list(hand) + (list(play.chain) if play else []))
    cb.init_hands, cb.init_plays, cb.init_rulings = {}, {}, {}


def end_combat(state: KarmicState, reason: str, events: list[Event]) -> None:
    for e in state.combat.engagements:
        e.live = False
    for h in state.combat.holds:
        h["active"] = False
    state.combat.ended = reason
    events.append(Event("gm_end", reason, PUBLIC, {}))
    _check_over(state, events)


def _end_round(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    for f in cb.fighters.values():
        if f.hand:
            discard(state, f.id, f.hand)
            f.hand = []
    if cb.surprise.get("active"):
        cb.surprise["active"] = False
        cb.need_init = True
    events.append(Event("round_end", f"Round {cb.round} ends.", PUBLIC,
                        {"round": cb.round, "track": views.public_track(state)}))
    cb.offers = [k for k in cb.fighters if state.characters[k].deck is not None and state.characters[k].deck.offer]
    if cb.offers:
        state.phase = "offers"          # each offer is its player's prompt (no separate notice)
    else:
        _next_round(state, events)


def _next_round(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    if cb.need_init:
        cb.need_init = False
        setup._init_begin(state, [e for e in cb.engagements if e.live], events)
    else:
        rounds._start_round(state, events)


def answer_offer(state: KarmicState, key: str, accept: bool, events: list[Event]) -> None:
    cb = state.combat
    if key not in cb.offers:
        raise IllegalAction("No reshuffle is offered right now.")
    deck = state.characters[key].deck
    if accept:
        deck.reshuffle(state.rng)
        events.append(Event("reshuffle", f"{name(state, key)} reshuffles the karma deck.", PUBLIC, {"who": key}))
    else:
        deck.decline()
        events.append(Event("reshuffle_declined", f"{name(state, key)} keeps the deck as it is.", PUBLIC,
                            {"who": key}))
    cb.offers.remove(key)
    if not cb.offers:
        _next_round(state, events)
