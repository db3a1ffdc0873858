"""Setting a combat up: fighters, engagements, a charge or a surprise, and initiative (digest §2.1,
§2.11–§2.13)."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction

from ..base import card_term, cards_term, cards_text, chain, deck_of, discard, draw, load_character, name, owner_audience
from ..cards import is_face, is_joker, value
from ..state import Combat, Engagement, Fighter, KarmicState, Play

from .common import rng_text
# The flow loops (a round ends and the next begins, resolution ends the declaring): sibling
# modules on that loop are imported as modules, their functions looked up when called.
from . import rounds


def setup_combat(state: KarmicState, options: dict, pack: dict | None) -> list[Event]:
    events: list[Event] = []
    specs = options.get("combatants") or []
    if len(specs) < 2:
        raise IllegalAction("two_combatants")
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
    events.append(Event("combat_start", {
        "pairs": [{"term": "pair_at", "a": name(state, e.a), "b": name(state, e.b), "range": rng_text(e.range)}
                  for e in cb.engagements],
        "engagements": [[e.a, e.b, e.range] for e in cb.engagements]}, PUBLIC))
    charge = options.get("charge")
    surprise = options.get("surprise")
    if surprise:
        _setup_surprise(state, surprise, events)
    elif charge is not None and charge != "":
        _setup_charge(state, _key(keys, charge), events)
        rounds._start_round(state, events)
    else:
        _init_begin(state, cb.engagements, events)
    return events


def _key(keys: list[str], ref) -> str:
    if isinstance(ref, int):
        return keys[ref]
    if ref in keys:
        return ref
    raise IllegalAction("unknown_combatant", combatant=str(ref)[:60])


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
    events.append(Event("charge", {"name": ch.shown, "who": charger}, PUBLIC))


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
        events.append(Event("surprise_check", {"name": char.shown, "drawn": card_term(best), "mod": mod,
                                               "verdict": {"term": "not_surprised" if ok else "surprised"},
                                               "who": tgt, "mt": mt, "avoided": ok}, GM))
        surprised = not ok
    if surprised:
        cb.surprise = {"attacker": att, "target": tgt, "active": True}
        for e in cb.engagements:
            if e.has(att) and e.has(tgt):
                e.init = att
        others = [e for e in cb.engagements if not (e.has(att) and e.has(tgt))]
        if others:
            _initiative(state, others, events)
        events.append(Event("surprise", {"name": char.shown, "by": name(state, att), "attacker": att, "target": tgt},
                            PUBLIC))
        rounds._start_round(state, events)
    else:
        events.append(Event("surprise_failed", {}, PUBLIC))
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
            events.append(Event("initiative_hand", {"name": name(state, k), "skill": {"term": skill},
                                                    "hand": cards_text(hand), "who": k, "cards": list(hand)},
                                owner_audience(state, k)))


def init_play(state: KarmicState, key: str, card: str, events: list[Event]) -> None:
    cb = state.combat
    if key not in cb.init_hands or key in cb.init_plays:
        raise IllegalAction("no_initiative_owed")
    if card not in cb.init_hands[key]:
        raise IllegalAction("card_not_in_hand")
    cb.init_plays[key] = Play(card, [], is_face(card))
    events.append(Event("initiative_chosen", {"name": name(state, key), "who": key}, PUBLIC))
    _init_continue(state, events)


def init_hit(state: KarmicState, key: str, do_hit: bool, events: list[Event]) -> None:
    play = state.combat.init_plays.get(key)
    if play is None or not play.open:
        raise IllegalAction("no_hit_owed")
    if do_hit:
        card = draw(state, key, 1, events)[0]
        play.chain.append(card)
        play.open = is_face(card)
        events.append(Event("initiative_hit", {"name": name(state, key), "drawn": card_term(card), "who": key,
                                               "card": card}, owner_audience(state, key)))
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
        _initiative_events(state, k, play.cards(), hand, mt, events, chain=list(play.chain))
    cb.init_hands, cb.init_plays, cb.init_rulings = {}, {}, {}
    engs = [cb.engagements[i] for i in cb.init_engs]
    mts = cb.init_mts
    ties = {k for e in engs for k in (e.a, e.b) if mts.get(e.a) == mts.get(e.b)}
    if ties and state.house_rules["initiative_ties"] == "redraw" and cb.init_try < 10:
        for k in ties:
            mts.pop(k, None)
        events.append(Event("initiative_tie", {}, PUBLIC))
        _init_draw(state, sorted(ties), events)
        _init_continue(state, events)
        return
    _assign_initiative(state, engs, mts, events)
    cb.init_mts, cb.init_engs = {}, []
    rounds._start_round(state, events)


def _assign_initiative(state: KarmicState, engagements: list[Engagement], mts: dict, events: list[Event]) -> None:
    holders: set[str] = set()
    for e in sorted(engagements, key=lambda e: -max(mts.get(e.a, 0), mts.get(e.b, 0))):
        first, second = (e.a, e.b) if mts.get(e.a, 0) >= mts.get(e.b, 0) else (e.b, e.a)
        e.init = second if first in holders and second not in holders else first
        holders.add(e.init)
        events.append(Event("initiative_holder", {"name": name(state, e.init), "other": name(state, e.other(e.init)),
                                                  "holder": e.init, "over": e.other(e.init)}, PUBLIC))


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
            _initiative_events(state, k, [best], hand, mt, events)
        ties = {k for e in engagements for k in (e.a, e.b) if mts[e.a] == mts[e.b]}
        if not ties or state.house_rules["initiative_ties"] != "redraw":
            break
        for k in ties:
            mts.pop(k)
        events.append(Event("initiative_tie", {}, PUBLIC))
    _assign_initiative(state, engagements, mts, events)


def _initiative_events(state: KarmicState, k: str, played: list[str], hand: list[str], mt: int, events: list[Event],
                       **data) -> None:
    """An initiative total: with its cards for the table, or (an NPC's) the total alone, the cards
    and the hand to the GM."""
    char = state.characters[k]
    attr = state.house_rules["initiative_attr"]
    line = {"term": "initiative_played", "name": char.shown, "cards": chain(cards_term(played), "plus"),
            "n": char.attr(attr), "attribute": {"term": f"attribute.{attr}"}, "mt": mt}
    if state.controllers[k] == GM:
        events.append(Event("initiative_card", {"line": line, "hand": cards_text(hand), "who": k}, GM))
        events.append(Event("initiative", {"line": {"term": "initiative_total", "name": char.shown, "mt": mt},
                                           "who": k, "mt": mt}, PUBLIC))
    else:
        events.append(Event("initiative", {"line": line, "who": k, "mt": mt, "card": played[0], **data}, PUBLIC))
