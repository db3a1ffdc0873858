"""Fatigue (rulebook seed 004, L771 and L773; digest §4.4 and A40).

RIDING (L773): whoever rides a whole day makes a riding check at its end; a failure gives him
"one card of fatigue for the next 12 hours". The rulebook gives fatigue no mechanics of its own;
the digest's reading (A40, house rule `fatigue_card_effect`) is that each fatigue card is one card
fewer on every draw, never fewer than one (`Character.hand_for`). ENDURANCE (L771) may replace a
health check against fatigue: the check names the endurance skill instead of none.

The rules have no clock: the twelve hours are the table's time, so the fatigue count stays on the
sheet (`fatigue:`) until the GM takes it off (`recover`), after the hours have passed in the story.
"""
from __future__ import annotations

from rules.common import IllegalAction

from .character import Character

FATIGUE_HOURS = 12          # L773: "for the next 12 hours"
DAY_RIDE = "day_ride"       # the riding situation (skill_tables) that the day's check names


def take_fatigue(character: Character, cards: int = 1) -> int:
    """A failed day's ride: one more fatigue card. Returns the character's fatigue now."""
    character.fatigue += cards
    return character.fatigue


def recover(character: Character, cards: int | None = None) -> int:
    """The hours have passed: take `cards` fatigue cards off (all of them by default)."""
    if cards is not None and cards < 0:
        raise IllegalAction("fatigue_negative", cards=cards)
    character.fatigue = 0 if cards is None else max(0, character.fatigue - cards)
    return character.fatigue


def day_ride_failed(skill: str, situations: list[str], success: bool) -> bool:
    """Whether this check was the day's riding check, failed (the cost is a fatigue card)."""
    return skill == "riding" and DAY_RIDE in situations and not success
