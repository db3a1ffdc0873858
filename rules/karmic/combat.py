"""Compound-action melee combat (digest §2–§4): initiative, face-down declarations in registers,
resolve-immediately interruptions, register-by-register resolution, damage and range."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction, Option, Prompt

from .base import cards_text, deck_of, discard, draw, load_character, name, owner_audience, signed
from .cards import is_face, is_joker, label, value
from .character import Character, Weapon
from .state import Combat, Decl, Engagement, Fighter, KarmicState, Play, Register, Turn
from .tables import (H2H_STRIKING, LOCATION_NAMES, LOCATIONS, MANEUVERS, WRESTLING, WRESTLING_ONLY,
                     BLOCK, DODGE, PARRY, location_mod)

STRIKE_KINDS = ("strike", "disarm", "takedown", "hold")
STEP_ATTACKS = ("atk", "lng", "darm")


def rng_text(r: int) -> str:
    return "wrestling range" if r == WRESTLING else f"range {r}"


# --- setup ---------------------------------------------------------------------------------------
def setup_combat(state: KarmicState, options: dict, pack: dict | None) -> list[Event]:
    events: list[Event] = []
    specs = options.get("combatants") or []
    if len(specs) < 2:
        raise IllegalAction("A combat needs at least two combatants.")
    cb = Combat(show_down=bool(options.get("show_down")))
    for i, spec in enumerate(specs):
        key = f"c{i + 1}"
        player = spec.get("player", GM)
        state.characters[key] = load_character(spec["character"], pack, player, state.rng, key)
        state.characters[key].fatigue_effect = int(state.house_rules["fatigue_card_effect"])
        if state.characters[key].deck is not None:
            state.characters[key].deck.mode = state.house_rules["reshuffle_mode"]
        state.controllers[key] = player
        side = spec.get("side") or ("npcs" if player == GM else "players")
        cb.fighters[key] = Fighter(key, side=side, dodge_hand=bool(spec.get("dodge_only")),
                                   multitask=spec.get("multitask") or "")
    keys = list(cb.fighters)
    pairs = options.get("engagements")
    if pairs:
        pairs = [[_key(keys, a), _key(keys, b)] for a, b in pairs]
    else:
        pairs = [[a, b] for i, a in enumerate(keys) for b in keys[i + 1:]
                 if cb.fighters[a].side != cb.fighters[b].side]
    if not pairs:       # everybody on one side (e.g. two members duelling): each against each
        pairs = [[a, b] for i, a in enumerate(keys) for b in keys[i + 1:]]
    for a, b in pairs:
        r = options.get("range")
        if r is None:
            r = max([w.range for k in (a, b) for w in state.characters[k].wielded() if not w.ranged] or [0])
        cb.engagements.append(Engagement(a, b, int(r)))
    for key, cards in (options.get("stack") or {}).items():
        deck_of(state, key).stack(list(cards))
    state.combat = cb
    events.append(Event("combat_start", "Combat: " + "; ".join(
        f"{name(state, e.a)} vs {name(state, e.b)} at {rng_text(e.range)}" for e in cb.engagements) + ".",
        PUBLIC, {"engagements": [[e.a, e.b, e.range] for e in cb.engagements]}))
    charge = options.get("charge")
    surprise = options.get("surprise")
    if surprise:
        _setup_surprise(state, surprise, events)
    elif charge is not None and charge != "":
        _setup_charge(state, _key(keys, charge), events)
        _start_round(state, events)
    else:
        _init_begin(state, cb.engagements, events)
    return events


def _key(keys: list[str], ref) -> str:
    if isinstance(ref, int):
        return keys[ref]
    if ref in keys:
        return ref
    raise IllegalAction(f"Unknown combatant '{ref}'.")


def _setup_charge(state: KarmicState, charger: str, events: list[Event]) -> None:
    cb = state.combat
    cb.charge = charger
    ch = state.characters[charger]
    reach = max([w.range for w in ch.wielded()] or [0])
    for e in cb.engagements:
        if not e.has(charger):
            continue
        foe = e.other(charger)
        foe_reach = max([w.range for w in state.characters[foe].wielded()] or [0])
        e.init = foe if foe_reach > reach else charger
    others = [e for e in cb.engagements if not e.has(charger)]
    if others:
        _initiative(state, others, events)
    events.append(Event("charge", f"{ch.name} charges! Each side makes exactly one maneuver this turn; "
                                  f"+1 maximum damage for the charger.", PUBLIC, {"who": charger}))


def _setup_surprise(state: KarmicState, spec: dict, events: list[Event]) -> None:
    cb = state.combat
    keys = list(cb.fighters)
    att, tgt = _key(keys, spec["attacker"]), _key(keys, spec["target"])
    char = state.characters[tgt]
    surprised = True
    if char.skill("combat_training") > 0:
        opposed = state.house_rules["surprise_mode"] == "opposed"
        mod = 0 if opposed else (-5 if spec.get("totally_unaware") else -3)
        hand = draw(state, tgt, char.hand_for("combat_training"), events)
        best = max(hand, key=lambda c: (is_joker(c), value(c)))
        mt = value(best) + char.attr(state.house_rules["initiative_attr"]) + mod
        against = 0
        if opposed:       # A20 variant: against the ambusher's stealth + finesse
            amb = state.characters[att]
            ahand = draw(state, att, amb.hand_for("stealth"), events)
            abest = max(ahand, key=lambda c: (is_joker(c), value(c)))
            against = value(abest) + amb.attr("finesse")
            discard(state, att, ahand)
        ok = is_joker(best) or mt > against
        discard(state, tgt, hand)
        events.append(Event("surprise_check", f"{char.name} tries to avoid surprise: {label(best)} "
                                              f"{signed(mod)} … total {mt} → {'not surprised' if ok else 'surprised'}.",
                            GM, {"who": tgt, "mt": mt, "avoided": ok}))
        surprised = not ok
    if surprised:
        cb.surprise = {"attacker": att, "target": tgt, "active": True}
        for e in cb.engagements:
            if e.has(att) and e.has(tgt):
                e.init = att
        others = [e for e in cb.engagements if not (e.has(att) and e.has(tgt))]
        if others:
            _initiative(state, others, events)
        events.append(Event("surprise", f"{char.name} is caught by surprise: {name(state, att)} gets one "
                                        f"attack that cannot be defended.", PUBLIC, {"attacker": att, "target": tgt}))
        _start_round(state, events)
    else:
        events.append(Event("surprise_failed", "The ambush is noticed in time.", PUBLIC, {}))
        _init_begin(state, cb.engagements, events)


def _init_begin(state: KarmicState, engagements: list[Engagement], events: list[Event]) -> None:
    """Initiative by prompts: each fighter draws his combat-training (fast-draw) hand and plays one
    card (hits allowed); a single plain card is played for him. Then the first round starts."""
    cb = state.combat
    cb.init_engs = [cb.engagements.index(e) for e in engagements]
    cb.init_mts = {}
    cb.init_try = 0
    state.phase = "initiative"
    _init_draw(state, sorted({k for e in engagements for k in (e.a, e.b) if not cb.fighters[k].out}), events)
    _init_continue(state, events)


def _init_draw(state: KarmicState, keys: list[str], events: list[Event]) -> None:
    cb = state.combat
    skill = "fast_draw" if cb.show_down else "combat_training"
    cb.init_try += 1
    for k in keys:
        hand = draw(state, k, state.characters[k].hand_for(skill), events)
        cb.init_hands[k] = hand
        cb.init_plays.pop(k, None)
        if len(hand) == 1 and not is_face(hand[0]):
            cb.init_plays[k] = Play(hand[0], [], False)
        else:
            events.append(Event("initiative_hand", f"Initiative ({skill.replace('_', ' ')}): your cards are "
                                                   f"{cards_text(hand)}.", owner_audience(state, k),
                                {"who": k, "cards": list(hand)}))


def init_play(state: KarmicState, key: str, card: str, events: list[Event]) -> None:
    cb = state.combat
    if key not in cb.init_hands or key in cb.init_plays:
        raise IllegalAction("No initiative card is owed.")
    if card not in cb.init_hands[key]:
        raise IllegalAction("That card is not in your hand.")
    cb.init_plays[key] = Play(card, [], is_face(card))
    events.append(Event("initiative_chosen", f"{name(state, key)} has chosen an initiative card.", PUBLIC,
                        {"who": key}))
    _init_continue(state, events)


def init_hit(state: KarmicState, key: str, do_hit: bool, events: list[Event]) -> None:
    play = state.combat.init_plays.get(key)
    if play is None or not play.open:
        raise IllegalAction("No hit decision is owed.")
    if do_hit:
        card = draw(state, key, 1, events)[0]
        play.chain.append(card)
        play.open = is_face(card)
        events.append(Event("initiative_hit", f"{name(state, key)} hits for initiative: {label(card)}.",
                            owner_audience(state, key), {"who": key, "card": card}))
    else:
        play.open = False
    _init_continue(state, events)


def _init_continue(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    if any(k not in cb.init_plays or cb.init_plays[k].open for k in cb.init_hands):
        return
    jr = state.house_rules["joker_initiative"]
    if jr == "gm" and any(p.joker and k not in cb.init_rulings for k, p in cb.init_plays.items()):
        return          # waiting for the GM's ruling
    attr = state.house_rules["initiative_attr"]
    for k, hand in cb.init_hands.items():
        char = state.characters[k]
        play = cb.init_plays[k]
        if play.joker:
            mt = 99 if cb.init_rulings.get(k, jr) == "win" else -99
        else:
            mt = play.total + char.attr(attr) + char.wound_penalty(int(state.house_rules["wound_row_penalty"]))
        cb.init_mts[k] = mt
        cb.fighters[k].init_mt = mt
        discard(state, k, hand + play.chain)
        text = f"Initiative: {char.name} plays {' + '.join(label(c) for c in play.cards())} " \
               f"{signed(char.attr(attr))} {attr} = {mt}."
        if state.controllers[k] == GM:
            events.append(Event("initiative_card", text + f" (hand {cards_text(hand)})", GM, {"who": k}))
            events.append(Event("initiative", f"Initiative: {char.name} totals {mt}.", PUBLIC, {"who": k, "mt": mt}))
        else:
            events.append(Event("initiative", text, PUBLIC, {"who": k, "mt": mt, "card": play.card,
                                                             "chain": list(play.chain)}))
    cb.init_hands, cb.init_plays, cb.init_rulings = {}, {}, {}
    engs = [cb.engagements[i] for i in cb.init_engs]
    mts = cb.init_mts
    ties = {k for e in engs for k in (e.a, e.b) if mts.get(e.a) == mts.get(e.b)}
    if ties and state.house_rules["initiative_ties"] == "redraw" and cb.init_try < 10:
        for k in ties:
            mts.pop(k, None)
        events.append(Event("initiative_tie", "Tied initiative: both draw again.", PUBLIC, {}))
        _init_draw(state, sorted(ties), events)
        _init_continue(state, events)
        return
    _assign_initiative(state, engs, mts, events)
    cb.init_mts, cb.init_engs = {}, []
    _start_round(state, events)


def _assign_initiative(state: KarmicState, engagements: list[Engagement], mts: dict, events: list[Event]) -> None:
    holders: set[str] = set()
    for e in sorted(engagements, key=lambda e: -max(mts.get(e.a, 0), mts.get(e.b, 0))):
        first, second = (e.a, e.b) if mts.get(e.a, 0) >= mts.get(e.b, 0) else (e.b, e.a)
        e.init = second if first in holders and second not in holders else first
        holders.add(e.init)
        events.append(Event("initiative_holder", f"{name(state, e.init)} has the initiative over "
                                                 f"{name(state, e.other(e.init))}.", PUBLIC,
                            {"holder": e.init, "over": e.other(e.init)}))


def _initiative(state: KarmicState, engagements: list[Engagement], events: list[Event]) -> None:
    """Automatic initiative (after a tackle, and for the other pairs of a charge or surprise):
    combat training (fast draw in a show down) + Will, the best card played; highest total holds it."""
    cb = state.combat
    skill = "fast_draw" if cb.show_down else "combat_training"
    attr = state.house_rules["initiative_attr"]
    who = sorted({k for e in engagements for k in (e.a, e.b) if not cb.fighters[k].out})
    mts: dict[str, int] = {}
    for _attempt in range(10):
        pending = [k for k in who if k not in mts]
        for k in pending:
            char = state.characters[k]
            hand = draw(state, k, char.hand_for(skill), events)
            best = max(hand, key=lambda c: (is_joker(c), value(c)))
            joker = is_joker(best)
            mt = (-99 if state.house_rules["joker_initiative"] == "lose" else 99) if joker \
                else value(best) + char.attr(attr) + char.wound_penalty(int(state.house_rules["wound_row_penalty"]))
            mts[k] = mt
            cb.fighters[k].init_mt = mt
            discard(state, k, hand)
            shown = label(best)
            text = f"Initiative: {char.name} plays {shown} {signed(char.attr(attr))} {attr} = {mt}."
            if state.controllers[k] == GM:
                events.append(Event("initiative_card", text + f" (hand {cards_text(hand)})", GM, {"who": k}))
                events.append(Event("initiative", f"Initiative: {char.name} totals {mt}.", PUBLIC,
                                    {"who": k, "mt": mt}))
            else:
                events.append(Event("initiative", text, PUBLIC, {"who": k, "mt": mt, "card": best}))
        ties = {k for e in engagements for k in (e.a, e.b) if mts[e.a] == mts[e.b]}
        if not ties or state.house_rules["initiative_ties"] != "redraw":
            break
        for k in ties:
            mts.pop(k)
        events.append(Event("initiative_tie", "Tied initiative: both draw again.", PUBLIC, {}))
    _assign_initiative(state, engagements, mts, events)


# --- rounds and hands -----------------------------------------------------------------------------
def hand_size(state: KarmicState, f: Fighter) -> int:
    n = _hand_size(state, f)
    if f.multitask and n:
        n = min(n, state.characters[f.id].hand_for(f.multitask))
    return n


def _hand_size(state: KarmicState, f: Fighter) -> int:
    char = state.characters[f.id]
    cb = state.combat
    if cb.surprise.get("active") and f.id == cb.surprise.get("target"):
        return 0
    if f.dodge_hand:
        return char.hand_for("dodge")
    wielded = [w for w in char.wielded() if not w.ranged]
    if not wielded:
        return char.hand_for("brawling")
    if f.changed_round == cb.round - 1:
        return min(char.hand_for(wielded[0].skill), char.hand_for("fast_draw"))
    sizes = [char.hand_for(w.skill) for w in wielded]
    n = min(sizes)
    if len(wielded) > 1 and state.house_rules["offhand_rules"] == "skilllist":
        n += 1
    return n


def caps(state: KarmicState, f: Fighter) -> tuple[int | None, dict[int, int]]:
    """(total maneuvers allowed this round or None, per-weapon maximum) for the wielded weapons."""
    char = state.characters[f.id]
    per = {i: max(1, int(char.weapons[i].max_maneuvers)) for i in char.wielding
           if 0 <= i < len(char.weapons) and not char.weapons[i].ranged}
    if not per:
        return None, per
    total = max(per.values())
    if len(per) > 1:
        if state.house_rules["offhand_rules"] == "combat":
            total += 1
        elif any(char.weapons[i].shield for i in per):
            total += 1
    return total, per


def _start_round(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    cb.round += 1
    cb.registers = []
    for f in cb.fighters.values():
        f.hand, f.used, f.played, f.counted = [], {}, 0, 0
        f.dodged = f.bashed = f.done = False
        f.max_round = 0
        f.charged = False
    if cb.charge and cb.round == 1:
        for e in cb.engagements:
            if e.has(cb.charge):
                cb.fighters[e.a].max_round = cb.fighters[e.b].max_round = 1
        cb.fighters[cb.charge].charged = True
    if cb.surprise.get("active"):
        cb.fighters[cb.surprise["attacker"]].max_round = 1
    sizes = []
    for f in cb.fighters.values():
        if f.out or not _live_engagements(state, f.id):
            continue
        n = hand_size(state, f)
        f.hand = draw(state, f.id, n, events) if n else []
        sizes.append(f"{name(state, f.id)} {len(f.hand)}")
        events.append(Event("hand", f"Round {cb.round}: your hand is {cards_text(f.hand)}.",
                            owner_audience(state, f.id), {"who": f.id, "cards": list(f.hand), "round": cb.round}))
    events.append(Event("round_start", f"Round {cb.round}. Hands: " + ", ".join(sizes) + ".", PUBLIC,
                        {"round": cb.round}))
    state.phase = "declare"
    _begin_register(state, 1, events)


def _live_engagements(state: KarmicState, who: str) -> list[Engagement]:
    return [e for e in state.combat.engagements if e.live and e.has(who)]


def engagement(state: KarmicState, a: str, b: str) -> Engagement | None:
    for e in state.combat.engagements:
        if e.live and e.has(a) and e.has(b):
            return e
    return None


def init_engagement(state: KarmicState, who: str) -> Engagement | None:
    for e in _live_engagements(state, who):
        if e.init == who:
            return e
    return None


def _register(state: KarmicState, n: int) -> Register:
    cb = state.combat
    while len(cb.registers) < n:
        cb.registers.append(Register(len(cb.registers) + 1))
    return cb.registers[n - 1]


def _begin_register(state: KarmicState, n: int, events: list[Event]) -> None:
    cb = state.combat
    cb.reg = n
    _register(state, n)
    cb.acted = []
    cb.stage = "attack"
    cb.turn = None
    cb.queue = [[k, "attack", -1] for k in _attackers(state)]
    _advance(state, events)


def _attackers(state: KarmicState) -> list[str]:
    cb = state.combat
    out = []
    for f in sorted(cb.fighters.values(), key=lambda f: -f.init_mt):
        if f.out or f.done or not f.hand:
            continue
        if init_engagement(state, f.id) is not None:
            out.append(f.id)
    return out


def _can_continue(state: KarmicState) -> bool:
    cb = state.combat
    for k in _attackers(state):
        f = cb.fighters[k]
        if f.max_round and f.played >= f.max_round:
            continue
        return True
    return False


def _advance(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    while cb.turn is None and state.phase == "declare":
        if cb.queue:
            who, stage, answers = cb.queue.pop(0)
            f = cb.fighters[who]
            if f.out or not f.hand:
                continue
            if stage == "attack":
                if who in cb.acted or f.done or init_engagement(state, who) is None:
                    continue
                if f.max_round and f.played >= f.max_round:
                    continue
            else:
                if who in cb.acted or (f.max_round and f.played >= f.max_round):
                    continue
                if cb.surprise.get("active") and who == cb.surprise.get("target"):
                    continue
            cb.turn = Turn(who, stage, answers)
            return
        if cb.stage == "attack":
            cb.stage = "defense"
            reg = _register(state, cb.reg)
            for i, d in enumerate(reg.decls):
                m = MANEUVERS[d.man]
                if d.owner not in cb.acted or m.kind in ("defense", "change", "stand"):
                    continue
                for t in [d.target] + d.extra:
                    if t and t not in cb.acted:
                        cb.queue.append([t, "defense", i])
            continue
        _end_register_declarations(state, events)
        return


def _end_register_declarations(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    reg = _register(state, cb.reg)
    ri = any(MANEUVERS[d.man].ri for d in reg.decls)
    more = _can_continue(state)
    if ri or not more:
        cb.resolve_to = cb.reg
        state.phase = "resolve"
        if ri:
            events.append(Event("interrupt", f"A resolve-immediately maneuver: registers up to {cb.reg} "
                                             f"are resolved now.", PUBLIC, {"register": cb.reg}))
        _continue_resolution(state, events)
    else:
        _begin_register(state, cb.reg + 1, events)


# --- legality -----------------------------------------------------------------------------------------
def _weapon(state: KarmicState, who: str, w: int) -> Weapon | None:
    char = state.characters[who]
    return char.weapons[w] if 0 <= w < len(char.weapons) else None


def _size_class(state: KarmicState, who: str, target: str) -> str:
    a, t = state.characters[who].size, state.characters[target].size
    if t >= 2 * a:
        return "large"
    if t < a / 2:
        return "small"
    return "same"


def why_illegal(state: KarmicState, who: str, man_id: str, w: int, stage: str, answers: int,
                nostep: bool = False, loc: str = "torso") -> str | None:
    """Why this declaration is not allowed now (a sentence), or None if it is legal."""
    cb = state.combat
    f = cb.fighters[who]
    char = state.characters[who]
    if man_id not in MANEUVERS:
        return f"There is no maneuver called '{man_id}'."
    m = MANEUVERS[man_id]
    if not f.hand:
        return f"You have no card left for register {cb.reg}."
    if f.done:
        return "You cannot declare anything more this round."
    if f.max_round and f.played >= f.max_round:
        return "Only one maneuver is allowed this turn."
    incoming = None
    if stage == "defense":
        incoming = _register(state, cb.reg).decls[answers]
        target = incoming.owner
    else:
        e0 = init_engagement(state, who)
        if e0 is None:
            return f"{m.name} needs the initiative."
        target = e0.other(who)
    if stage == "attack" and m.kind == "defense":
        return f"{m.name} is a defense: it answers an opponent's maneuver."
    if stage == "defense" and m.kind == "defense":
        fam = m.family
        if fam not in MANEUVERS[incoming.man].stopped_by:
            return f"{m.name} cannot stop {MANEUVERS[incoming.man].name}."
    e = engagement(state, who, target)
    if e is None:
        return f"You are not engaged with {name(state, target)}."
    needs_init = m.init
    if man_id in ("hatk", "latk", "hbutt", "tdown") and state.house_rules["h2h_defender_may_strike"]:
        needs_init = False
    if needs_init and e.init != who:
        return f"{m.name} needs the initiative."
    r = e.range
    tf = cb.fighters[target]
    tchar = state.characters[target]
    weapon = _weapon(state, who, w)
    if f.dodge_hand and man_id != "dg":
        return "With a hand drawn from Dodge you may only dodge."
    if man_id == "dg" and not f.dodge_hand:
        return "Dodge (whole hand) needs a hand drawn from the Dodge skill; use Melee Dodge."
    if man_id in WRESTLING_ONLY and r != WRESTLING:
        return f"{m.name} can only be used at wrestling range (the range is {r})."
    if man_id in H2H_STRIKING and r not in (0, WRESTLING):
        return f"{m.name} needs close range (0) or wrestling range; the range is {r}."
    if man_id == "hlng" and r != 1:
        return f"{m.name} attacks an opponent at range 1; the range is {rng_text(r)}."
    if man_id == "tckl" and r not in (0, 1):
        return f"Tackle works from range 0 or 1; the range is {rng_text(r)}."
    if man_id == "bgrab" and r != 0:
        return "Block Grab works at close range (0)."
    armed = m.cat in ("armed", "shield", "small") or man_id in ("flank", "cling", "chop") and weapon is not None
    if m.cat in ("armed", "shield", "small") and man_id not in ("mdg",):
        if weapon is None:
            return f"{m.name} needs a weapon in hand."
        if w not in char.wielding:
            return f"You are not holding your {weapon.name} (change weapons first)."
        if weapon.ranged:
            return f"{weapon.name} is a ranged weapon: shoot with a ranged check."
        if r == WRESTLING:
            return "Weapons cannot be used at wrestling range."
    if armed and weapon is not None:
        if weapon.shield and man_id in ("atk", "lng", "darm", "odis", "par", "pars", "swipe", "smash", "swat"):
            return f"A shield blocks and bashes; it cannot be used for {m.name}."
    clinging = f.cling == target
    if man_id in ("atk", "darm", "odis", "swipe", "smash", "swat") and not clinging:
        if weapon.range != r:
            return f"Your {weapon.name} (reach {weapon.range}) cannot reach at {rng_text(r)}."
    if man_id == "lng" and not clinging and weapon.range not in (r, r - 1):
        return f"Even lunging, your {weapon.name} (reach {weapon.range}) cannot reach at {rng_text(r)}."
    if man_id in ("par", "pars"):
        reach = _reach(state, incoming)
        inside = state.house_rules["range_parry_inside_reach"]
        lunge_ok = incoming is not None and incoming.man == "lng" and weapon.range == r - 1
        if not (weapon.range == r or reach > weapon.range or lunge_ok or (inside and r < weapon.range)):
            return f"Your {weapon.name} (reach {weapon.range}) cannot parry at {rng_text(r)}."
    if man_id == "blk" and not weapon.shield:
        return "Block needs a shield."
    if man_id == "blk" and f.bashed:
        return "Your shield bashed this round and cannot block."
    if man_id == "sbash":
        if not weapon.small_shield:
            return "Only a small shield can bash."
        if r != 0:
            return f"Shield Bash works at range 0; the range is {rng_text(r)}."
        if f.bashed:
            return "Only one Shield Bash per round."
    if man_id == "mdg" and f.dodged:
        return "Melee Dodge can be used only once per round."
    if man_id == "cls" and r <= 0:
        return "You are already at close range: use Tackle or Block Grab to wrestle."
    if man_id == "ret":
        if r == WRESTLING:
            return "At wrestling range use Escape."
        longest = max([x.range for k in (who, target) for x in state.characters[k].wielded()] or [0])
        if r + 1 > longest:
            return f"You cannot retreat beyond the reach of the longest weapon in the fight ({longest})."
    if man_id == "psh" and r != 0:
        return f"Push works only at range 0; the range is {rng_text(r)}."
    if man_id == "esc" and r != WRESTLING:
        return "Escape works only at wrestling range."
    if man_id in ("darm", "hdis") and not tchar.wielded():
        return f"{tchar.name} holds no weapon to disarm."
    if man_id == "smash" and not weapon.impact:
        return "Only impact weapons (clubs, maces) can smash."
    if m.cat == "small" and _size_class(state, who, target) != "small":
        return f"{m.name} works only against small creatures (less than half your size)."
    if m.cat == "large" and _size_class(state, who, target) != "large":
        return f"{m.name} works only against a large creature (at least twice your size)."
    if man_id == "buck" and incoming.man != "cling" and cb.fighters[incoming.owner].cling != who:
        return "Buck throws off a clinging foe."
    if f.flanked_by.get(target, -1) >= cb.round and (m.kind in STRIKE_KINDS or m.family == DODGE):
        return f"{tchar.name} has flanked you: you cannot attack or dodge him."
    if tf.cling == who and m.kind in STRIKE_KINDS:
        if f.flanked_by.get(target, -1) >= cb.round:
            return f"{tchar.name} clings to you after flanking: you cannot attack him."
        if weapon is not None and weapon.range > 0:
            return f"{tchar.name} clings to you: only range-0 attacks reach him."
    if f.prone and state.house_rules["prone_must_stand"] and m.kind in STRIKE_KINDS + ("move",) \
            and man_id != "esc":
        return "You are on the ground: Stand Up first."
    if man_id == "stand" and not f.prone:
        return "You are not on the ground."
    if man_id == "chw":
        return None
    if m.kind in STRIKE_KINDS and loc != "torso":
        if man_id in ("sbash", "hbutt"):
            return f"{m.name} always goes to the head; it cannot be aimed elsewhere."
        try:
            location_mod(loc, _size_class(state, who, target))
        except IllegalAction as exc:
            return str(exc)
    if nostep and man_id not in ("atk", "par", "blk", "pars"):
        return f"{m.name} has no step to hold back."
    # maneuver caps
    exempt = incoming is not None and incoming.man in ("darm", "hdis")
    if m.counts and weapon is not None and m.cat in ("armed", "shield", "small", "large") and not exempt:
        total, per = caps(state, f)
        cap = per.get(w, 1)
        if f.used.get(w, 0) >= cap:
            return f"Your {weapon.name} has already made its {cap} maneuver(s) this round."
        if total is not None and f.counted >= total:
            return f"You have used all {total} of your maneuvers this round."
    return None


def _reach(state: KarmicState, decl: Decl | None) -> int:
    if decl is None:
        return 0
    w = _weapon(state, decl.owner, decl.weapon)
    return w.range if w is not None else 0


def options_for(state: KarmicState, turn: Turn) -> list[tuple[str, str, dict]]:
    """(option id, label, spec) for every declaration legal for this turn."""
    cb = state.combat
    who, stage, answers = turn.who, turn.stage, turn.answers
    char = state.characters[who]
    f = cb.fighters[who]
    out: list[tuple[str, str, dict]] = []
    wielded = [i for i in char.wielding if 0 <= i < len(char.weapons) and not char.weapons[i].ranged]
    multi = len(wielded) > 1

    def add(man_id, w, nostep=False, called=False):
        if why_illegal(state, who, man_id, w, stage, answers, nostep) is not None:
            return
        m = MANEUVERS[man_id]
        oid = f"{man_id}.{w if w >= 0 else 'h'}" + (".n" if nostep else "") + (".c" if called else "")
        lab = m.name
        if w >= 0 and (multi or m.cat in ("large", "small")):
            lab += f" ({char.weapons[w].name})"
        if nostep:
            lab += " — no step forward (−2)" if man_id == "atk" else " — stand ground (−2)"
        if called:
            lab += " — called shot…"
        out.append((oid, lab, {"man": man_id, "weapon": w, "nostep": nostep, "called": called}))

    for man_id, m in MANEUVERS.items():
        if man_id == "chw":
            continue
        if stage == "attack" and m.kind == "defense":
            continue
        if stage == "defense" and m.kind != "defense" and (m.init and not (
                man_id in ("hatk", "latk", "hbutt", "tdown") and state.house_rules["h2h_defender_may_strike"])):
            continue
        ws = wielded if m.cat in ("armed", "shield", "small") and man_id != "mdg" else \
            (wielded or [-1]) if m.cat == "large" else [-1]
        if man_id == "mdg":
            ws = [wielded[0]] if wielded else [-1]
        for w in ws:
            add(man_id, w)
            if man_id in ("atk", "par", "blk", "pars"):
                add(man_id, w, nostep=True)
            if man_id in ("atk", "lng", "hatk", "latk", "darm"):
                if why_illegal(state, who, man_id, w, stage, answers) is None:
                    add(man_id, w, called=True)
    # change weapon: to another carried melee weapon, or to bare hands
    if f.hand and not f.done and not (f.max_round and f.played >= f.max_round):
        for i, wpn in enumerate(char.weapons):
            if i not in char.wielding and not wpn.ranged:
                out.append((f"chw.{i}", f"Change weapon → {wpn.name}", {"man": "chw", "weapon": i}))
        if wielded:
            out.append(("chw.x", "Change weapon → drop to bare hands", {"man": "chw", "weapon": -1}))
    if stage == "attack":
        e = init_engagement(state, who)
        first = f.played == 0 and e is not None and e.hesitations == 0 and cb.reg == 1
        out.append(("hes", "Yield the initiative" if first else "Hesitate (give up the initiative)",
                    {"man": "hes"}))
        if f.played > 0 or not any(s.get("man") not in ("hes",) for _, _, s in out):
            out.append(("stop", "Stop declaring this round", {"man": "stop"}))
    else:
        out.append(("pass", "No response (keep the card)", {"man": "pass"}))
    return out


# --- declaring ----------------------------------------------------------------------------------------------
def declare(state: KarmicState, spec: dict, card: str, loc: str, events: list[Event]) -> None:
    cb = state.combat
    turn = cb.turn
    who = turn.who
    f = cb.fighters[who]
    man_id = spec["man"]
    if man_id == "stop":
        if turn.stage != "attack":
            raise IllegalAction("Only the initiative holder stops declaring.")
        f.done = True
        cb.acted.append(who)
        events.append(Event("stop", f"{name(state, who)} declares nothing more this round.", PUBLIC, {"who": who}))
        cb.turn = None
        _advance(state, events)
        return
    if man_id == "pass":
        if turn.stage != "defense":
            raise IllegalAction("Only a defender may pass.")
        events.append(Event("pass", f"{name(state, who)} does not answer "
                                    f"{MANEUVERS[_register(state, cb.reg).decls[turn.answers].man].name} "
                                    f"in register {cb.reg}.", PUBLIC, {"who": who, "register": cb.reg}))
        cb.turn = None
        _advance(state, events)
        return
    if man_id == "hes":
        if turn.stage != "attack":
            raise IllegalAction("Only the initiative holder may hesitate.")
        _hesitate(state, who, events)
        return
    w = spec.get("weapon", -1)
    if man_id == "chw":
        if not f.hand:
            raise IllegalAction(f"You have no card left for register {cb.reg}.")
        if f.max_round and f.played >= f.max_round:
            raise IllegalAction("Only one maneuver is allowed this turn.")
    else:
        reason = why_illegal(state, who, man_id, w, turn.stage, turn.answers, spec.get("nostep", False), loc)
        if reason:
            raise IllegalAction(reason)
    if card not in f.hand:
        raise IllegalAction("That card is not in your hand.")
    m = MANEUVERS[man_id]
    if turn.stage == "defense":
        target = _register(state, cb.reg).decls[turn.answers].owner
    else:
        target = init_engagement(state, who).other(who)
    extra = []
    if man_id == "swipe":
        extra = [e.other(who) for e in _live_engagements(state, who)
                 if e.other(who) != target and _size_class(state, who, e.other(who)) == "small"]
    f.hand.remove(card)
    decl = Decl(who, man_id, card, target, extra, w, loc, bool(spec.get("nostep")),
                turn.answers if turn.stage == "defense" else -1)
    reg = _register(state, cb.reg)
    reg.decls.append(decl)
    f.played += 1
    if m.counts and w >= 0 and m.cat in ("armed", "shield", "small", "large"):
        f.used[w] = f.used.get(w, 0) + 1
        f.counted += 1
    if man_id == "mdg":
        f.dodged = True
    if man_id == "sbash":
        f.bashed = True
    if man_id in ("chw", "smash"):
        f.done = True
    for e in _live_engagements(state, who):
        e.hesitations = 0
    if turn.stage == "attack":
        cb.acted.append(who)
    events.append(Event("declare", declaration_text(state, decl, cb.reg), PUBLIC,
                        {"who": who, "maneuver": man_id, "register": cb.reg, "target": target,
                         "answers": decl.answers, "location": loc}))
    # (no private line "you put X face down": the answered prompt already shows the card chosen,
    # and a DM less per declaration keeps a round within its message budget)
    cb.turn = None
    _advance(state, events)


def declaration_text(state: KarmicState, d: Decl, n: int) -> str:
    m = MANEUVERS[d.man]
    what = m.name
    if d.man == "chw":
        char = state.characters[d.owner]
        what += f" → {char.weapons[d.weapon].name}" if d.weapon >= 0 else " → bare hands"
    if d.loc != "torso":
        what += f" ({LOCATION_NAMES[d.loc]})"
    if d.nostep:
        what += " (no step)"
    vs = ""
    if d.answers >= 0:
        att = state.combat.registers[n - 1].decls[d.answers]
        vs = f" answering {name(state, att.owner)}'s {MANEUVERS[att.man].name}"
    elif d.target and m.kind not in ("change", "stand"):
        vs = f" vs {name(state, d.target)}"
    return f"{name(state, d.owner)} — {what}{vs} — register {n} — face down"


def _hesitate(state: KarmicState, who: str, events: list[Event]) -> None:
    cb = state.combat
    e = init_engagement(state, who)
    other = e.other(who)
    e.init = other
    e.hesitations += 1
    events.append(Event("hesitate", f"{name(state, who)} gives the initiative to {name(state, other)}.", PUBLIC,
                        {"who": who, "to": other}))
    cb.turn = None
    if e.hesitations >= 2:
        e.live = False
        events.append(Event("engagement_end", f"Both hesitate: {name(state, e.a)} and {name(state, e.b)} "
                                              f"stop fighting.", PUBLIC, {"a": e.a, "b": e.b}))
        if _check_over(state, events):
            return
    elif other not in cb.acted:
        cb.queue.insert(0, [other, "attack", -1])
    if cb.stage == "defense":
        pass
    _advance(state, events)


# --- resolution -----------------------------------------------------------------------------------------------
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
    if _can_continue(state) and cb.reg < 99:
        _begin_register(state, cb.reg + 1, events)
    else:
        _end_round(state, events)


def _joker_question(state: KarmicState, reg_n: int, d: Decl) -> str:
    """What the GM rules on, and what each answer does (A3): a joker played, or drawn while hitting
    (then the whole maneuver becomes a joker outcome); success strikes with the maximum damage."""
    m = MANEUVERS[d.man]
    target = f" against {name(state, d.target)}" if d.target else ""
    if is_joker(d.card):
        how = f"{name(state, d.owner)} played a joker for {m.name}{target} in register {reg_n}"
    else:
        cards = " → ".join(label(c) for c in [d.card] + d.chain)
        how = (f"{name(state, d.owner)}'s hit chain for {m.name}{target} in register {reg_n} drew a joker "
               f"({cards}): the whole maneuver is a joker outcome")
    if m.kind == "strike":
        maxd, _ = damage_of(state, d, joker=True)
        effect = f"success: it lands, whatever the defense, for the maximum damage ({maxd})"
    else:
        effect = "success: it works, whatever the defense"
    return f"{how}. Rule it — {effect}; failure: it fails."


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
    if d.man == "chop":
        return sign * tc.attr("fortitude")
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
        _initiative(state, [cb.engagements[ei]], events)
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
    if m.kind == "swat":
        n, _ = damage_of(state, a, joker)
        return f"; {tn} is swatted {n} feet away"
    if m.kind == "strike":
        n, text = damage_of(state, a, joker)
        damage.append((t, n))
        out = f"; {text}: {tn} takes {n}"
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
        return "; the entangling limb is chopped free"
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
    from .views import public_track
    events.append(Event("round_end", f"Round {cb.round} ends.", PUBLIC,
                        {"round": cb.round, "track": public_track(state)}))
    cb.offers = [k for k in cb.fighters if state.characters[k].deck is not None and state.characters[k].deck.offer]
    if cb.offers:
        state.phase = "offers"          # each offer is its player's prompt (no separate notice)
    else:
        _next_round(state, events)


def _next_round(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    if cb.need_init:
        cb.need_init = False
        _init_begin(state, [e for e in cb.engagements if e.live], events)
    else:
        _start_round(state, events)


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


# --- prompts -------------------------------------------------------------------------------------------
PAGE = 23


def combat_prompts(state: KarmicState) -> list[tuple[Prompt, dict]]:
    cb = state.combat
    out: list[tuple[Prompt, dict]] = []
    if state.phase == "declare" and cb.turn is not None:
        t = cb.turn
        who = t.who
        ctl = state.controllers[who]
        base = f"d{cb.round}.{cb.reg}.{who}.{t.stage[0]}{t.answers}"
        f = cb.fighters[who]
        total, _ = caps(state, f)
        left = "" if total is None else f", {max(0, total - f.counted)} maneuver(s) left"
        if t.stage == "attack":
            head = f"{name(state, who)} — register {cb.reg}: declare a maneuver ({len(f.hand)} card(s){left})."
        else:
            inc = _register(state, cb.reg).decls[t.answers]
            head = f"{name(state, who)} — register {cb.reg}: answer {name(state, inc.owner)}'s " \
                   f"{MANEUVERS[inc.man].name} ({len(f.hand)} card(s){left})."
        meta = {"key": who, "kind": "declare"}
        if t.step == "man":
            opts = [Option(oid, lab[:80]) for oid, lab, _ in options_for(state, t)]
            if len(opts) > PAGE + 1:
                pages = [opts[i:i + PAGE] for i in range(0, len(opts), PAGE)]
                page = pages[min(t.page, len(pages) - 1)]
                opts = page + [Option("more", "More maneuvers…")]
            out.append((Prompt(f"{base}.m{t.page}", ctl, head, tuple(opts), private=True), meta))
        elif t.step == "loc":
            foe = init_engagement(state, who).other(who) if t.stage == "attack" else \
                _register(state, cb.reg).decls[t.answers].owner
            size = _size_class(state, who, foe)
            opts = []
            for loc in LOCATIONS:
                if loc == "torso":
                    continue
                try:
                    mod = location_mod(loc, size)
                except IllegalAction:
                    continue
                opts.append(Option(loc, f"{LOCATION_NAMES[loc]} ({signed(mod)})"))
            opts.append(Option("back", "← back"))
            out.append((Prompt(f"{base}.l", ctl, head + f" {MANEUVERS[t.man].name}: called shot where?",
                               tuple(opts), private=True), meta))
        else:
            opts = [Option(c, label(c)) for c in f.hand] + [Option("back", "← back")]
            out.append((Prompt(f"{base}.c", ctl, head + f" {MANEUVERS[t.man].name}: which card, face down?",
                               tuple(opts), private=True), meta))
    elif state.phase == "resolve":
        pending = [r for r in cb.registers if not r.resolved and r.n <= cb.resolve_to]
        if pending:
            reg = pending[0]
            i = next_hit(state, reg)
            if i >= 0:
                d = reg.decls[i]
                total = sum(value(c) for c in [d.card] + d.chain)
                last = (d.chain or [d.card])[-1]
                out.append((Prompt(f"h{cb.round}.{reg.n}.{i}.{len(d.chain)}", state.controllers[d.owner],
                                   f"{name(state, d.owner)}: {label(last)} for {MANEUVERS[d.man].name} in register "
                                   f"{reg.n} — hit or stand? (value {signed(total)})",
                                   (Option("hit", "Hit"), Option("stand", "Stand")), private=True),
                            {"key": d.owner, "kind": "hit", "reg": reg.n, "i": i}))
            else:
                for i, d in enumerate(reg.decls):
                    if _joker(d) and not d.ruling:
                        out.append((Prompt(f"j{cb.round}.{reg.n}.{i}", GM, _joker_question(state, reg.n, d),
                                           (Option("success", f"Success ({state.house_rules['joker_default']} "
                                                              f"is the default)"[:80]),
                                            Option("failure", "Failure")), private=True),
                                    {"key": d.owner, "kind": "ruling", "reg": reg.n, "i": i}))
                        break
    elif state.phase == "initiative":
        for k in sorted(cb.init_hands):
            ctl = state.controllers[k]
            if k not in cb.init_plays:
                out.append((Prompt(f"ini{cb.round}.{cb.init_try}.{k}", ctl,
                                   f"{name(state, k)} — initiative: play one card "
                                   f"({'fast draw' if cb.show_down else 'combat training'} + "
                                   f"{state.house_rules['initiative_attr']}).",
                                   tuple(Option(c, label(c)) for c in cb.init_hands[k]), private=True),
                            {"key": k, "kind": "iniplay"}))
            elif cb.init_plays[k].joker and not cb.init_plays[k].open and k not in cb.init_rulings \
                    and state.house_rules["joker_initiative"] == "gm" \
                    and all(x in cb.init_plays and not cb.init_plays[x].open for x in cb.init_hands):
                out.append((Prompt(f"inij{cb.round}.{cb.init_try}.{k}", GM,
                                   f"{name(state, k)} played a joker for initiative: rule it.",
                                   (Option("win", "Wins the initiative"), Option("lose", "Loses it")),
                                   private=True), {"key": k, "kind": "iniruling"}))
            elif cb.init_plays[k].open:
                play = cb.init_plays[k]
                out.append((Prompt(f"inih{cb.round}.{cb.init_try}.{k}.{len(play.chain)}", ctl,
                                   f"{name(state, k)} — initiative: {label(play.last)}, hit or stand? "
                                   f"(value {signed(play.total)})",
                                   (Option("hit", "Hit"), Option("stand", "Stand")), private=True),
                            {"key": k, "kind": "inihit"}))
    elif state.phase == "hold":
        for i, h in enumerate(cb.holds):
            if h.get("active"):
                t = h["target"]
                what = "choke hold" if h["kind"] == "suf" else "pin"
                out.append((Prompt(f"hold{i}.{h.get('rounds', 0)}", state.controllers[t],
                                   f"{name(state, t)} is held in a {what} by {name(state, h['holder'])}: struggle "
                                   f"(might check above {h['card_value']})?",
                                   (Option("struggle", "Struggle to break free"),), private=False),
                            {"key": t, "kind": "hold", "i": i}))
    elif state.phase == "offers":
        from .checks import offer_prompt
        for k in cb.offers:
            out.append((offer_prompt(state, k, f"rs{cb.round}.{k}"), {"key": k, "kind": "offer"}))
    return out


def choose(state: KarmicState, meta: dict, option: str, events: list[Event]) -> None:
    cb = state.combat
    kind = meta["kind"]
    if kind == "declare":
        t = cb.turn
        if t.step == "man":
            if option == "more":
                t.page += 1
                n = len(options_for(state, t))
                if t.page * PAGE >= n:
                    t.page = 0
                return
            spec = {oid: s for oid, _, s in options_for(state, t)}[option]
            if spec["man"] in ("stop", "pass", "hes"):
                declare(state, spec, "", "torso", events)
                return
            t.man, t.weapon, t.nostep = spec["man"], spec.get("weapon", -1), spec.get("nostep", False)
            t.step = "loc" if spec.get("called") else "card"
        elif t.step == "loc":
            if option == "back":
                t.step, t.man = "man", ""
                return
            t.loc = option
            t.step = "card"
        else:
            if option == "back":
                t.step, t.man, t.loc = "man", "", "torso"
                return
            spec = {"man": t.man, "weapon": t.weapon, "nostep": t.nostep}
            declare(state, spec, option, t.loc, events)
    elif kind == "hit":
        hit(state, meta["reg"], meta["i"], option == "hit", events)
    elif kind == "ruling":
        rule_joker(state, meta["reg"], meta["i"], option, events)
    elif kind == "offer":
        answer_offer(state, meta["key"], option == "yes", events)
    elif kind == "hold":
        struggle(state, meta["i"], events)
    elif kind == "iniplay":
        init_play(state, meta["key"], option, events)
    elif kind == "inihit":
        init_hit(state, meta["key"], option == "hit", events)
    elif kind == "iniruling":
        state.combat.init_rulings[meta["key"]] = option
        events.append(Event("ruling", f"The GM rules {name(state, meta['key'])}'s joker: {option}s the initiative.",
                            PUBLIC, {"who": meta["key"], "outcome": option}))
        _init_continue(state, events)


def declare_action(state: KarmicState, action, events: list[Event]) -> None:
    """The rich `Declare` action: same checks as the prompts."""
    cb = state.combat
    t = cb.turn
    char = state.characters[t.who]
    man = action.maneuver
    if man in ("stop", "pass", "hes", "hesitate", "yield"):
        declare(state, {"man": {"hesitate": "hes", "yield": "hes"}.get(man, man)}, "", "torso", events)
        return
    if man not in MANEUVERS:
        raise IllegalAction(f"There is no maneuver called '{man}'.")
    m = MANEUVERS[man]
    if man == "chw":
        w = char.weapon_index(action.weapon) if action.weapon else -1
        if w in char.wielding:
            raise IllegalAction("You already hold that weapon.")
    elif action.weapon:
        w = char.weapon_index(action.weapon)
    elif m.cat in ("h2h", "wrestle", "special", "dodgehand") or man == "buck":
        w = -1
    else:
        melee = [i for i in char.wielding if not char.weapons[i].ranged]
        if man in ("blk", "sbash"):
            melee = [i for i in melee if char.weapons[i].shield] or melee
        else:
            melee = [i for i in melee if not char.weapons[i].shield] or melee
        w = melee[0] if melee else -1
    if not action.card:
        if not cb.fighters[t.who].hand:
            raise IllegalAction(f"You have no card left for register {cb.reg}.")
        raise IllegalAction("Choose a card to put face down.")
    t.man, t.weapon = man, w
    declare(state, {"man": man, "weapon": w, "nostep": action.nostep}, action.card, action.location, events)


def characters_out(state: KarmicState) -> dict[str, Character]:
    return dict(state.characters)
