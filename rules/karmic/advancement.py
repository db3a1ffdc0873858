"""Advancement between adventures (digest §6.3, §6.4, §6.8) as engine actions.

A Karmic game in mode "advance" is an advancement session at a table: it holds the characters the
GM (or, for a distinction, the owner) is advancing, with the RNG in the state, so each step is
stored, logged and undone like any other action (`/game undo`), and replays exactly. Each action
names its character by `who` (a key the cog chooses) and, the first time, brings the character in
(`character`, its `to_dict()`, and `player`, who owns it). What the cog may not decide, this
module does: who may do what, the effort's skill checks, that a skill improves at most once in
one adventure, the improvement draws, the distinction already on the sheet and the GM's cap on
negative distinctions, the payment in cards. The session ends with `CloseAdvancement` (or
`/game end`); the cog writes the characters back after every step.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.common import GM, Actor, Event, IllegalAction, NotYourTurn, Serial

from .condition import Condition, apply_condition
from .cards import is_joker, rank, suit, SUIT_SYMBOL
from .character import (EFFORT_CHECKS, Character, Distinction, allocate_skill_checks, check_distinction_cap,
                        improvement_draw, karma_award, pay_distinction)
from .names import matches
from .tables import ATTRIBUTES, skill_key, skill_word


@dataclass(frozen=True)
class KarmaAward(Serial):
    """GM: a karma award (+N) or penalty (−N), paid in cards between deck and sideboard (§1.3)."""

    who: str
    amount: int
    cards: tuple[str, ...]
    how: str
    character: Any = None
    player: str = ""
    type: ClassVar[str] = "karma_award"


@dataclass(frozen=True)
class Effort(Serial):
    """GM: the adventure's skill checks by effort (§6.8); naming the skills is the GM's approval.
    `attribute`: spend 8 checks on one attempt at it first."""

    who: str
    effort: str
    skills: tuple[str, ...] = ()
    attribute: str = ""
    character: Any = None
    player: str = ""
    type: ClassVar[str] = "effort"


@dataclass(frozen=True)
class Improve(Serial):
    """GM: one improvement draw (a month of training); `teacher`: the teacher's check succeeded,
    draw two and keep the best."""

    who: str
    target: str
    teacher: bool = False
    character: Any = None
    player: str = ""
    type: ClassVar[str] = "improve"


@dataclass(frozen=True)
class TakeDistinction(Serial):
    """The owner (or the GM): take a distinction from the pack (the cog looks its entry up),
    paid in cards adding up exactly to its karma value (§6.4)."""

    who: str
    name: str
    karma_value: int
    cards: tuple[str, ...]
    how: str
    description: str = ""
    character: Any = None
    player: str = ""
    names: Any = None           # the pack entry's name per language ({lang: text}), when it gives several
    type: ClassVar[str] = "take_distinction"


@dataclass(frozen=True)
class CloseAdvancement(Serial):
    """GM: close the session (the sheets are already written back)."""

    type: ClassVar[str] = "close_advancement"


ACTIONS = {c.type: c for c in (KarmaAward, Effort, Improve, TakeDistinction, CloseAdvancement, Condition)}
GM_ONLY = (KarmaAward, Effort, Improve, CloseAdvancement, Condition)


def card_text(card: str) -> str | dict:
    """A card as data: rank and suit symbol ("5♠", "K♥"), the same in every language; a joker is a
    word of the game (`terms.joker`)."""
    return {"term": "joker"} if is_joker(card) else f"{rank(card)}{SUIT_SYMBOL[suit(card)]}"


def cards_data(cards) -> list:
    return [card_text(c) for c in cards]


def setup_advance(state, options: dict) -> list[Event]:
    state.phase = "advance"
    return []


def advance(state, action: Any, actor: Actor) -> list[Event]:
    """Apply one advancement action to `state` (mode "advance"); the events say what happened."""
    if state.mode != "advance":
        raise IllegalAction("not_advancing")
    if isinstance(action, GM_ONLY) and not (actor.gm or actor.id == GM):
        raise NotYourTurn("gm_only")
    if isinstance(action, CloseAdvancement):
        state.over = True
        return [Event("advance_closed", {"names": [c.shown for c in state.characters.values()]})]
    events: list[Event] = []
    char = _seat(state, action, actor)
    if isinstance(action, KarmaAward):
        cards = [c.upper() for c in action.cards]
        karma_award(char, int(action.amount), cards, action.how)
        # the cards paid tell what is left in a deck, which only its owner (and the GM) may know
        events.append(Event("advance_karma", {"name": char.shown, "amount": int(action.amount),
                                              "cards": cards_data(cards), **_deck(char)},
                            audience=state.controllers.get(action.who, GM)))
    elif isinstance(action, Effort):
        events += _effort(state, char, action)
    elif isinstance(action, Improve):
        target = action.target.strip().lower()
        target = target if target in ATTRIBUTES else skill_key(target)
        r = improvement_draw(char, target, state.rng, teacher_bonus=bool(action.teacher))
        # a teacher's extra card: the table reads both cards, the best one counts
        events.append(_draw_event("advance_improve_taught" if len(r["cards"]) > 1 else "advance_improve",
                                  char, target, r))
    elif isinstance(action, TakeDistinction):
        events += _distinction(state, char, action)
    elif isinstance(action, Condition):            # fatigue over, bleeding (condition.py)
        events.append(apply_condition(char, action))
    else:
        raise IllegalAction("unknown_action", action=type(action).__name__)
    return events


def _seat(state, action: Any, actor: Actor) -> Character:
    """The character the action is about, brought into the session the first time."""
    char = state.characters.get(action.who)
    if char is None:
        if not isinstance(action.character, dict):
            raise IllegalAction("not_in_advancement", who=action.who)
        # a copy: the action is logged as given, and decoding shares its lists
        char = Character.from_dict(copy.deepcopy(action.character))
        player = action.player or GM
        state.characters[action.who] = char
        state.controllers[action.who] = player
        if player.isdigit() and player not in state.seats:
            state.seats.append(player)
    if char.deck is None:
        raise IllegalAction("no_karma_deck", name=char.shown)
    # the GM steps are the GM's whoever owns the sheet; a distinction is its owner's choice (or the GM's)
    if not (actor.gm or actor.may_act_for(state.controllers.get(action.who, GM))):
        raise NotYourTurn("not_your_character", name=char.shown)
    return char


def _deck(char: Character) -> dict:
    deck = char.deck
    if deck is None:                       # `_seat` refuses a character without a deck of its own
        raise IllegalAction("no_karma_deck", name=char.shown)
    return {"deck": len(deck.cards), "sideboard": len(deck.sideboard)}


def _draw_event(kind: str, char: Character, target: str, r: dict) -> Event:
    """One improvement draw as data: the chain drawn, the other card of a teacher's pair, the total
    against the level and the level after."""
    best = r["chain"][0]
    others = list(r["cards"])
    others.remove(best)
    return Event(kind, {"name": char.shown, "what": _what(target), "chain": cards_data(r["chain"]),
                        "others": cards_data(others), "total": r["total"], "level": r["level"],
                        "new_level": r["new_level"], "success": r["success"],
                        "result": {"term": "improves" if r["success"] else "stays"}})


def _what(target: str) -> str | dict:
    """An attribute is a word of the game; so is a skill of the rulebook (else the sheet's own name)."""
    return {"term": f"attribute.{target}"} if target in ATTRIBUTES else skill_word(target)


def _effort(state, char: Character, action: Effort) -> list[Event]:
    if action.effort not in EFFORT_CHECKS:
        raise IllegalAction("unknown_effort", effort=action.effort)
    attribute = action.attribute.strip().lower()
    if attribute and attribute not in ATTRIBUTES:
        raise IllegalAction("unknown_attribute", attribute=attribute)
    wanted = [skill_key(s) for s in action.skills if s.strip()]
    requests: list[dict] = [{"skill": s, "reason": "used"} for s in wanted]
    if attribute:
        requests.insert(0, {"attribute": True})
    # the GM names the skills: that is the approval the rules ask for (§6.8)
    spent = allocate_skill_checks(char, action.effort, requests, gm_approved=set(wanted))
    events = [Event("advance_effort", {"name": char.shown, "effort": {"term": f"effort.{action.effort}"},
                                       "n": EFFORT_CHECKS[action.effort]})]
    if attribute:
        events.append(_draw_event("advance_draw", char, attribute, improvement_draw(char, attribute, state.rng)))
    improved: set[str] = set()
    for skill in spent["spent"]:
        if skill in improved:
            # listed again for another try, but a skill improves at most once per adventure
            events.append(Event("advance_once", {"name": char.shown, "what": _what(skill)}))
            continue
        r = improvement_draw(char, skill, state.rng)
        if r["success"]:
            improved.add(skill)
        events.append(_draw_event("advance_draw", char, skill, r))
    events.append(Event("advance_saved", {"name": char.shown, "n": spent["saved"]}))
    return events


def _distinction(state, char: Character, action: TakeDistinction) -> list[Event]:
    taken = Distinction(action.name, int(action.karma_value), action.description, dict(action.names or {}))
    if any(matches(d.name, taken.name, taken.names) for d in char.distinctions):
        raise IllegalAction("has_distinction", name=char.shown, distinction=taken.shown)
    value = taken.karma_value
    char.distinctions.append(taken)
    cap = state.house_rules.get("distinction_cap")
    check_distinction_cap(char, None if cap in (None, "", "none") else int(cap))
    cards = [c.upper() for c in action.cards]
    pay_distinction(char, value, cards, action.how)
    return [Event("advance_distinction", {"name": char.shown, "distinction": taken.shown, "value": value,
                                          "cards": cards_data(cards), **_deck(char)})]
