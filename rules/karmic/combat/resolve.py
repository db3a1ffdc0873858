"""Resolution register by register: reveals, hit chains, jokers, totals, damage and effects, the end
of the combat (digest §2.10, §3, §4). Moving from register to register, to the end of a round and on
to the next, is the flow's (`rounds`), which calls these."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction

from ..base import card_term, cards_term, chain, discard, draw, name
from ..cards import is_face, is_joker, value
from ..state import Decl, Engagement, KarmicState, Register
from ..tables import (MANEUVERS, WRESTLING, BLOCK, DODGE, PARRY, location_mod)

from .common import STEP_ATTACKS, _size_class, _weapon, engagement, rng_text
from .initiative import _initiative
from . import unusual_foes


def _order_key(state: KarmicState, d: Decl) -> int:
    e = engagement(state, d.owner, d.target) if d.target else None
    return 0 if e is not None and e.init == d.owner else 1


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


def _man(man_id: str) -> dict:
    return {"term": f"maneuver.{man_id}"}


def _joker(d: Decl) -> bool:
    return any(is_joker(c) for c in [d.card] + d.chain)


def _reveal(state: KarmicState, reg: Register, events: list[Event]) -> None:
    reg.revealed = True
    parts = []
    for d in reg.decls:
        d.revealed = True
        d.open = is_face(d.card) and MANEUVERS[d.man].kind != "change"
        parts.append({"term": "reveal_part", "name": name(state, d.owner), "maneuver": _man(d.man),
                      "card": card_term(d.card)})
    if parts:
        events.append(Event("reveal", {"register": reg.n, "parts": parts,
                                       "cards": [[d.owner, d.man, d.card] for d in reg.decls]}, PUBLIC))


def next_hit(state: KarmicState, reg: Register) -> int:
    order = sorted(range(len(reg.decls)), key=lambda i: (_order_key(state, reg.decls[i]), i))
    for i in order:
        if reg.decls[i].open:
            return i
    return -1


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


def decl_mt(state: KarmicState, d: Decl, target: str) -> tuple[int, dict]:
    """Maneuver total and its arithmetic (as data: card, combat modifier, maneuver modifier, then
    each other modifier that applies, then the total or, hidden, a question mark)."""
    m = MANEUVERS[d.man]
    char = state.characters[d.owner]
    card_total = sum(value(c) for c in [d.card] + d.chain)
    weapon = _weapon(state, d.owner, d.weapon)
    no_force = d.man in ("mdg", "dg") or m.cat in ("h2h", "wrestle") or weapon is None
    cmod = char.finesse_armored + (0 if no_force else weapon.force)
    mm = maneuver_mod(state, d, target)
    mt = card_total + cmod + mm
    parts: list[dict] = []
    if d.loc != "torso" and d.man not in ("hbutt", "sbash"):
        lm = location_mod(d.loc, _size_class(state, d.owner, target))
        mt += lm
        parts.append({"term": "arith_location", "n": lm, "location": {"term": f"location.{d.loc}"}})
    if d.nostep:
        mt -= 2
        parts.append({"term": "arith_nostep", "n": -2})
    wp = char.wound_penalty(int(state.house_rules["wound_row_penalty"]))
    if wp:
        mt += wp
        parts.append({"term": "arith_wounds", "n": wp})
    f = state.combat.fighters.get(d.owner)
    if f is not None and f.gm_mod:
        mt += f.gm_mod
        parts.append({"term": "arith_gm", "n": f.gm_mod})
    hidden = f is not None and bool(f.gm_hidden)
    if hidden:
        mt += f.gm_hidden                  # the table reads the arithmetic without it, and no total
    parts.append({"term": "arith_hidden"} if hidden else {"term": "arith_total", "mt": mt})
    return mt, {"term": "arith", "card": card_total, "combat": cmod, "mod": mm, "maneuver": _man(d.man),
                "more": chain(parts, "seq")}


def hidden_total(state: KarmicState, key: str) -> bool:
    f = state.combat.fighters.get(key)
    return f is not None and bool(f.gm_hidden)


def gm_modifier(state: KarmicState, index: int, val: int, hidden: bool, events: list[Event]) -> None:
    """A standing GM modifier on every maneuver total of one fighter (index in the combatants'
    order), until the GM changes it; a hidden one is seen by the GM only (digest §1.7, §9.3)."""
    keys = list(state.combat.fighters)
    if not 0 <= index < len(keys):
        raise IllegalAction("no_fighter_number", n=index + 1)
    f = state.combat.fighters[keys[index]]
    if hidden:
        f.gm_hidden += val
        events.append(Event("gm_modifier", {"name": name(state, f.id), "side": f.id, "value": val,
                                            "total": f.gm_hidden}, GM))
    else:
        f.gm_mod += val
        events.append(Event("modifier", {"name": name(state, f.id), "side": f.id, "value": val}, PUBLIC))


def damage_of(state: KarmicState, d: Decl, joker: bool = False) -> tuple[int, dict]:
    """Damage dealt and its arithmetic (as data)."""
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
    smash: dict = {"term": "nothing"}
    if d.man == "smash":
        smash = {"term": "damage_smash", "dealt": dealt * 3}
    if joker:
        # A3: a joker ruled a success deals the maneuver's maximum; the cards' sum does not count
        text = {"term": "damage_joker", "max": maxd, "smash": smash}
    else:
        text = {"term": "damage", "card": card_total, "might": might,
                "attribute": {"term": f"attribute_word.{state.house_rules['damage_attr']}"}, "edge": edge, "total": total,
                "cap": {"term": "damage_cap", "max": maxd} if total > maxd else {"term": "nothing"},
                "dealt": dealt, "smash": smash}
    if d.man == "smash":
        dealt *= 3
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
    lines: list[dict] = []
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
            lines.append({"term": "line_change", "name": char.shown,
                          "weapon": char.weapons[a.weapon].shown if a.weapon >= 0 else {"term": "bare_hands"}})
            continue
        if m.kind == "stand":
            af.prone = False
            lines.append({"term": "line_stand", "name": name(state, a.owner)})
            continue
        if m.kind == "defense":
            if i not in answered and a.answers < 0:
                lines.append({"term": "line_answers_nothing", "name": name(state, a.owner), "maneuver": _man(a.man)})
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
            line = {"term": "line", "name": name(state, a.owner), "maneuver": _man(a.man), "arith": atext}
            after: list[dict] = []
            tn = name(state, t)
            a_joker = _joker(a)
            stops = defense is not None and MANEUVERS[defense.man].family in m.stopped_by
            d_joker = defense is not None and _joker(defense)
            if a_joker:
                success = a.ruling == "success"
                line["versus"] = {"term": "vs_joker", "ruling": {"term": f"ruled_{a.ruling}"}}
            elif stops and not (d_joker and defense.ruling == "failure"):
                if d_joker:
                    success = False
                    line["versus"] = {"term": "vs_joker_holds", "name": tn, "defense": _man(defense.man)}
                else:
                    dmt, dtext = decl_mt(state, defense, a.owner)
                    total = amt - max(0, dmt)
                    success = total > 0
                    o["defense_mt"], o["total"] = dmt, total
                    vs = {"name": tn, "defense": _man(defense.man), "arith": dtext}
                    if hidden_total(state, a.owner) or hidden_total(state, t):
                        line["versus"] = {"term": "vs_hidden", **vs}
                    else:
                        line["versus"] = {"term": "vs", **vs, "mt": amt, "defense_mt": max(0, dmt), "total": total}
            else:
                need_pos = a.man in ("darm", "hdis") or hr["unopposed_needs_positive_total"]
                if defense is not None and not hr["unstoppable_defense_is_unopposed"] and not d_joker:
                    dmt, _ = decl_mt(state, defense, a.owner)
                    success = amt - max(0, dmt) > 0
                else:
                    success = amt > 0 if need_pos else True
                o["unopposed"] = True
                o["total"] = amt
                line["versus"] = {"term": "unopposed_positive" if need_pos else "unopposed"}
            line["verdict"] = {"term": "line_success" if success else "line_fails"}
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
                effect = _effects(state, a, t, e, ei, a_joker, damage, range_delta, range_set, init_to,
                                  end_eng, reinit)
                if effect:
                    after.append(effect)
                o["damage"] = sum(n for k, n in damage[before:] if k == t)
            elif defense is not None and stops:
                dm = MANEUVERS[defense.man]
                if dm.seize:
                    init_to[ei] = t
                    after.append({"term": "fx_seize", "name": tn})
                if defense.man == "bgrab":
                    range_set[ei] = WRESTLING
                    after.append({"term": "fx_to_wrestling"})
                if a.man == "cling":
                    after.append({"term": "fx_bucked_off"})
            if a.man == "hlng":
                init_to[ei] = t
                after.append({"term": "fx_lunge_initiative", "name": tn})
            if a.man == "smash":
                init_to[ei] = t
            line["effects"] = chain(after, "seq")
            lines.append(line)
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
        _initiative(state, [cb.engagements[ei]], events)
    for ei in end_eng:
        cb.engagements[ei].live = False
    for f in cb.fighters.values():
        char = state.characters[f.id]
        if not f.out and char.incapacitated:
            f.out = True
            lines.append({"term": "line_out", "name": char.shown})
            for e in cb.engagements:
                if e.has(f.id):
                    e.live = False
    ranges = [{"term": "range_pair", "a": name(state, e.a), "b": name(state, e.b), "range": rng_text(e.range)}
              for e in cb.engagements if e.live]
    secret = [o for o in outcomes if hidden_total(state, o["attacker"]) or hidden_total(state, o["target"])]
    if secret:
        totals = [{"term": "gm_total_vs", "name": name(state, o["attacker"]), "mt": o["mt"],
                   "target": name(state, o["target"]), "defense_mt": o["defense_mt"]}
                  if o["defense_mt"] is not None else {"term": "gm_total", "name": name(state, o["attacker"]), "mt": o["mt"]}
                  for o in secret]
        events.append(Event("resolve_gm", {"register": reg.n, "totals": totals,
                                           "outcomes": [dict(o) for o in secret]}, GM))
        outcomes = [dict(o, mt=None if hidden_total(state, o["attacker"]) else o["mt"],
                         defense_mt=None if hidden_total(state, o["target"]) else o["defense_mt"], total=None)
                    if o in secret else o for o in outcomes]
    events.append(Event("resolve", {"register": reg.n, "lines": chain(lines) if lines else {"term": "no_lines"},
                                    "range": {"term": "ranges", "ranges": ranges} if ranges else {"term": "nothing"},
                                    "outcomes": outcomes,
                                    "ranges": [[e.a, e.b, e.range] for e in cb.engagements if e.live],
                                    "hp": {k: state.characters[k].hp_marked for k in cb.fighters}}, PUBLIC))
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
             init_to, end_eng, reinit) -> dict | None:
    """What a successful maneuver does to its target (as data), or None when nothing is to say."""
    cb = state.combat
    m = MANEUVERS[a.man]
    tn = name(state, t)
    if m.kind == "swat":               # L68: no damage, pushed back the damage's number of feet
        n, _ = damage_of(state, a, joker)
        yards = unusual_foes.swat_yards(n)
        if yards:
            range_delta[ei] = range_delta.get(ei, 0) + yards
        return {"term": "fx_swatted_back" if yards else "fx_swatted", "name": tn, "n": n, "yards": yards}
    if m.kind == "strike":
        n, text = damage_of(state, a, joker)
        damage.append((t, n))
        back: dict = {"term": "nothing"}
        if unusual_foes.entangle(state, a.owner, _weapon(state, a.owner, a.weapon), t):
            back = {"term": "fx_entangled", "name": tn}
        if a.man == "hbutt" and n // 2:
            damage.append((a.owner, n // 2))
            back = chain([back, {"term": "fx_takes_too", "name": name(state, a.owner), "n": n // 2}], "seq")
        return {"term": "fx_damage", "damage": text, "name": tn, "n": n, "also": back}
    if m.kind == "disarm":
        tc = state.characters[t]
        if tc.wielding:
            lost = tc.weapons[tc.wielding.pop(0)].shown
            return {"term": "fx_disarmed", "name": tn, "weapon": lost}
        return None
    if m.kind == "takedown":
        cb.fighters[t].prone = True
        return {"term": "fx_prone", "name": tn}
    if m.kind == "flank":
        cb.fighters[t].flanked_by[a.owner] = cb.round + 1
        return {"term": "fx_flanked", "name": tn, "by": name(state, a.owner)}
    if m.kind == "cling":
        cb.fighters[a.owner].cling = t
        return {"term": "fx_cling", "name": name(state, a.owner), "target": tn}
    if m.kind == "chop":
        freed = unusual_foes.chop(state, a.owner, t)
        return {"term": "fx_chopped_free", "name": name(state, freed)} if freed else {"term": "fx_chopped"}
    if m.kind == "hold":
        value_ = sum(value(c) for c in [a.card] + a.chain)
        cb.holds.append({"holder": a.owner, "target": t, "kind": a.man, "card_value": value_, "active": True,
                         "rounds": 0})
        end_eng.add(ei)
        return {"term": "fx_choke" if a.man == "suf" else "fx_pin", "name": tn, "value": value_}
    if m.kind == "move":
        if a.man == "cls":
            range_delta[ei] = range_delta.get(ei, 0) - 1
            return {"term": "fx_closes"}
        if a.man == "ret":
            range_delta[ei] = range_delta.get(ei, 0) + 1
            return {"term": "fx_opens"}
        if a.man == "psh":
            range_delta[ei] = range_delta.get(ei, 0) + 1
            return {"term": "fx_pushed", "name": tn}
        if a.man in ("odis", "dis"):
            range_delta[ei] = range_delta.get(ei, 0) + (2 if a.man == "odis" else 0)
            end_eng.add(ei)
            return {"term": "fx_break_apart"}
        if a.man == "tckl":
            range_set[ei] = WRESTLING
            reinit.add(ei)
            return {"term": "fx_tackled"}
        if a.man == "esc":
            range_set[ei] = 0
            return {"term": "fx_escaped"}
    return None


def _check_over(state: KarmicState, events: list[Event]) -> bool:
    cb = state.combat
    if any(e.live for e in cb.engagements):
        return False
    return_cards(state)
    cb.turn = None
    if any(h.get("active") for h in cb.holds) and state.phase != "over_forced":
        state.phase = "hold"
        events.append(Event("hold_start", {"holds": list(cb.holds)}, PUBLIC))
        return True
    _finish(state, events)
    return True


def _finish(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    state.phase = "over"
    state.over = True
    cb.ended = cb.ended or OVER
    events.append(Event("combat_end", {"holds": list(cb.holds),
                                       "hp": {k: state.characters[k].hp_marked for k in cb.fighters}}, PUBLIC))


def struggle(state: KarmicState, idx: int, events: list[Event]) -> None:
    """One round of a hold: a might check against the original card value to break free; in a
    choke hold a failed struggle is followed by Fortitude checks (A32: one per round) or he passes out."""
    cb = state.combat
    h = cb.holds[idx]
    if not h.get("active"):
        raise IllegalAction("hold_over")
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
        events.append(Event("hold_break", {"name": char.shown, "drawn": card_term(card), "might": char.attr("might"),
                                           "value": h["card_value"], "who": t, "mt": mt, "card": card}, PUBLIC))
    else:
        events.append(Event("hold_struggle", {"name": char.shown, "drawn": card_term(card), "might": char.attr("might"),
                                              "value": h["card_value"], "who": t, "mt": mt, "card": card}, PUBLIC))
        if h["kind"] == "suf":
            for _ in range(int(hr["hold_checks_per_round"])):
                c2 = draw(state, t, 1, events)[0]
                discard(state, t, [c2])
                fmt = value(c2) + char.attr("fortitude") + wp
                ok = is_joker(c2) or fmt > 0
                events.append(Event("choke_check", {"name": char.shown, "drawn": card_term(c2),
                                                    "fortitude": char.attr("fortitude"),
                                                    "verdict": {"term": "conscious" if ok else "passes_out"},
                                                    "who": t, "mt": fmt, "card": c2, "conscious": ok}, PUBLIC))
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


# Why a combat ended, when no GM's own words say it (`Combat.ended`): over by its rules, or the GM ended it.
OVER, GM_ENDED = "~over", "~gm"


def end_combat(state: KarmicState, reason: str, events: list[Event]) -> None:
    """The GM ends the fight; `reason`, the GM's own words (shown as typed), or empty."""
    for e in state.combat.engagements:
        e.live = False
    for h in state.combat.holds:
        h["active"] = False
    state.combat.ended = reason or GM_ENDED
    events.append(Event("gm_end", {"reason": {"term": "gm_reason", "text": reason} if reason
                                   else {"term": "gm_ends"}}, PUBLIC))
    _check_over(state, events)
