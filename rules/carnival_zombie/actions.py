"""Actions the Carnival Zombie engine accepts.

Every decision is a prompt answered with the generic `Choose(prompt_id, (option_id, ...))`.
`FocusPenalty` is the Battle Focus rule's penalty (a player talked out of turn at Night): the
GM (or any player, owning up) applies it and 3 cubes from the Abyss go into a random Cave.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.common import Choose, Serial


@dataclass(frozen=True)
class FocusPenalty(Serial):
    reason: str = ""

    type: ClassVar[str] = "focus_penalty"


@dataclass(frozen=True)
class Sabotage(Serial):
    """Just a Matter of Time: the traitor secretly adds 2 cubes to a Cave's next Entrance (once per Night)."""

    cave: str = ""

    type: ClassVar[str] = "sabotage"


@dataclass(frozen=True)
class Unmask(Serial):
    """Just a Matter of Time: the traitor reveals themself; the next attack on a Character cannot be
    cancelled (no Barricade, Item or Survivor stops it). Once per game."""

    type: ClassVar[str] = "unmask"


@dataclass(frozen=True)
class PileTiming(Choose):
    """Pile of Corpses, reaction mode (§10.4): the click on "Drop!" carrying how long the dropper took,
    in milliseconds from the prompt's appearance to the click, measured by the host from Discord's
    timestamps (the engine gets the time as data: `rules/` has no clock); -1 when it could not be
    measured. One action: the drop and its timing are decided by the same click. (A timing with no
    `prompt` answers a drop clicked before this was one action, left waiting for its timing.)"""

    prompt: str = ""
    options: tuple[str, ...] = ("drop",)
    ms: int = -1

    type: ClassVar[str] = "pile_timing"


ACTIONS = {Choose.type: Choose, FocusPenalty.type: FocusPenalty, Sabotage.type: Sabotage, Unmask.type: Unmask,
           PileTiming.type: PileTiming}

__all__ = ["ACTIONS", "Choose", "FocusPenalty", "PileTiming", "Sabotage", "Unmask"]
