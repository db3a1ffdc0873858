"""Klash! actions. ``Choose`` answers any prompt; the others are the slash-command forms.

Positions are in centimetres on the default arena (see ``arena``). ``double=True`` spends both actions
for the Increase (Move: twice the distance).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.common.engine import Choose
from rules.common.serial import Serial


@dataclass(frozen=True)
class Pick(Serial):
    """Auction: take the revealed card at this index (0-4)."""
    index: int
    type: ClassVar[str] = "pick"


@dataclass(frozen=True)
class SelectTeam(Serial):
    """Team building: indices (0-11) into your 12 drafted cards, at most 8."""
    indices: tuple[int, ...]
    type: ClassVar[str] = "select_team"


@dataclass(frozen=True)
class Deploy(Serial):
    model: str
    x: float
    y: float
    type: ClassVar[str] = "deploy"


@dataclass(frozen=True)
class Activate(Serial):
    model: str
    type: ClassVar[str] = "activate"


@dataclass(frozen=True)
class Move(Serial):
    model: str
    x: float
    y: float
    double: bool = False
    via: tuple[float, ...] = ()   # optional waypoints x1, y1, x2, y2, ...
    type: ClassVar[str] = "move"


@dataclass(frozen=True)
class Assault(Serial):
    model: str
    target: str
    double: bool = False
    type: ClassVar[str] = "assault"


@dataclass(frozen=True)
class Volley(Serial):
    model: str
    target: str
    double: bool = False
    type: ClassVar[str] = "volley"


@dataclass(frozen=True)
class Magic(Serial):
    model: str
    spell: str
    target: str = ""
    double: bool = False
    x: float = 0.0
    y: float = 0.0
    type: ClassVar[str] = "magic"


@dataclass(frozen=True)
class Charge(Serial):
    model: str
    target: str
    double: bool = False
    touch: bool = False        # Destructive Touch replaces the final Assault
    type: ClassVar[str] = "charge"


@dataclass(frozen=True)
class Disengage(Serial):
    model: str
    x: float
    y: float
    type: ClassVar[str] = "disengage"


@dataclass(frozen=True)
class Recover(Serial):
    model: str
    free: bool = False         # Regeneration: once per activation, no action, no test
    type: ClassVar[str] = "recover"


@dataclass(frozen=True)
class UseToken(Serial):
    """effect: "action" (extra action, during its activation), "activation" (after your activation:
    activate this model too), "reroll" (arm a re-roll of its next failed test or trial this turn)."""
    model: str
    effect: str
    type: ClassVar[str] = "use_token"


@dataclass(frozen=True)
class PlayEvent(Serial):
    card: str
    target: str = ""
    type: ClassVar[str] = "play_event"


@dataclass(frozen=True)
class PassEvent(Serial):
    """Decline to answer an Event Card; the stack then resolves, last played first."""
    type: ClassVar[str] = "pass_event"


@dataclass(frozen=True)
class EndActivation(Serial):
    model: str
    type: ClassVar[str] = "end_activation"


ACTIONS = {cls.type: cls for cls in (Choose, Pick, SelectTeam, Deploy, Activate, Move, Assault, Volley, Magic,
                                     Charge, Disengage, Recover, UseToken, PlayEvent, PassEvent, EndActivation)}
