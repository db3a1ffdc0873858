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


ACTIONS = {Choose.type: Choose, FocusPenalty.type: FocusPenalty}

__all__ = ["ACTIONS", "Choose", "FocusPenalty"]
