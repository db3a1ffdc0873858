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
class PileTiming(Serial):
    """Pile of Corpses, reaction mode (§10.4): how long the dropper took to press "Drop!", in
    milliseconds, measured by the host from Discord's timestamps; -1 when it could not be measured."""

    ms: int = -1

    type: ClassVar[str] = "pile_timing"


ACTIONS = {Choose.type: Choose, FocusPenalty.type: FocusPenalty, Sabotage.type: Sabotage, Unmask.type: Unmask,
           PileTiming.type: PileTiming}

__all__ = ["ACTIONS", "Choose", "FocusPenalty", "PileTiming", "Sabotage", "Unmask"]
