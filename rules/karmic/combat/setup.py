"""Setting a combat up: fighters, engagements, a charge or a surprise (digest §2.1, §2.12, §2.13); then
the first round starts, or the initiative by prompts (`rounds`) before it."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction

from ..base import card_term, deck_of, discard, draw, load_character, name
from ..cards import is_joker, value
from ..state import Combat, Engagement, Fighter, KarmicState

from .common import rng_text
from .initiative import _initiative
from .rounds import _init_begin, _start_round


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
        _start_round(state, events)
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
        _start_round(state, events)
    else:
        events.append(Event("surprise_failed", {}, PUBLIC))
        _init_begin(state, cb.engagements, events)
