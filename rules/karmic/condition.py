"""The GM's rulings on a character's condition that the rules cannot time or start by themselves:
fatigue cards taken off once their 12 hours are over in the story (L773: the rules have no clock),
and a bleeding started or stopped (the rulebook has first aid stop one, L780, but nothing that
starts one). One action of the advancement session (`advancement.py`), so it is stored, logged and
undone (`/game undo`) like the other steps, and written back to the sheet at once."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.common import Event, IllegalAction, Serial

from .character import Character
from .fatigue import recover

BLEEDING = ("", "start", "stop")


@dataclass(frozen=True)
class Condition(Serial):
    """GM: take `fatigue_off` fatigue cards off (-1: all of them); `bleeding` "start", "stop" or ""."""

    who: str
    fatigue_off: int = 0
    bleeding: str = ""
    character: Any = None
    player: str = ""
    type: ClassVar[str] = "condition"


def apply_condition(char: Character, action: Condition) -> Event:
    if action.bleeding not in BLEEDING:
        raise IllegalAction("unknown_bleeding", bleeding=str(action.bleeding)[:20])
    if action.fatigue_off < -1:
        raise IllegalAction("fatigue_negative", cards=action.fatigue_off)
    if action.fatigue_off == 0 and not action.bleeding:
        raise IllegalAction("condition_unchanged", name=char.shown)
    before = char.fatigue
    if action.fatigue_off:
        recover(char, None if action.fatigue_off == -1 else action.fatigue_off)
    if action.bleeding:
        char.bleeding = action.bleeding == "start"
    return Event("advance_condition", {"name": char.shown, "fatigue": char.fatigue, "rested": before - char.fatigue,
                                       "bleeding": {"term": "bleeding_now" if char.bleeding else "not_bleeding"},
                                       "is_bleeding": char.bleeding})
