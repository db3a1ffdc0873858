"""Initiative (digest §2.11–§2.13): a fighter's draw, the totals and who holds each engagement's
initiative, and the automatic initiative after a tackle or beside a charge or surprise.

Below the flow (`rounds`) and the resolution (`resolve`), which both take initiative anew; the
initiative by prompts is the flow's, as it starts the round when it is done."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event

from ..base import cards_term, cards_text, chain, discard, draw, name, owner_audience
from ..cards import is_face, is_joker, value
from ..state import Engagement, KarmicState, Play


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
