"""Actions. `Choose` answers any prompt; the others are richer forms for slash commands."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.common import Choose, Serial

from .advancement import ACTIONS as ADVANCEMENT


@dataclass(frozen=True)
class Declare(Serial):
    """Combat: declare a maneuver with a card from your hand for the current register.
    `weapon` is the weapon's name ('' = the main weapon, or bare hands for hand-to-hand moves);
    `location` a called shot; `nostep` = attack without stepping forward / parry standing ground.
    `maneuver` may also be 'stop' (end declaring) or 'hes' (hesitate/yield), with no card."""

    maneuver: str
    card: str = ""
    weapon: str = ""
    location: str = "torso"
    nostep: bool = False
    combatant: str = ""         # the fighter key; '' = whoever must declare now
    type: ClassVar[str] = "declare"


@dataclass(frozen=True)
class PlayCard(Serial):
    """Check: play this card from your drawn hand (or a helper's offered card)."""

    card: str
    combatant: str = ""
    type: ClassVar[str] = "play_card"


@dataclass(frozen=True)
class Hit(Serial):
    """Hit (turn the top card of your deck) or stand on a played hit card."""

    hit: bool
    combatant: str = ""
    type: ClassVar[str] = "hit"


@dataclass(frozen=True)
class GmModifier(Serial):
    """Check: the GM adds a modifier to one side; hidden ones are seen by the GM only."""

    value: int
    side: int = 0
    hidden: bool = True
    type: ClassVar[str] = "gm_modifier"


@dataclass(frozen=True)
class Ruling(Serial):
    """GM ruling on a joker: 'success' or 'failure'."""

    outcome: str
    type: ClassVar[str] = "ruling"


@dataclass(frozen=True)
class Reshuffle(Serial):
    """Accept or decline an open Rule-of-Fives reshuffle window."""

    accept: bool
    combatant: str = ""
    type: ClassVar[str] = "reshuffle"


@dataclass(frozen=True)
class EndCombat(Serial):
    """GM: end the combat now (incapacitation ruling, surrender, the scene moves on)."""

    reason: str = ""          # the GM's own words for the table; empty: the catalogue's "the GM ends the fight"
    type: ClassVar[str] = "end_combat"


@dataclass(frozen=True)
class NpcControl(Serial):
    """GM: who plays an NPC when the bot plays NPCs: ``bot=False`` takes it back (the GM answers its
    prompts), ``bot=True`` hands it to the bot again. ``combatant``: its key (``c2``) or name."""
    combatant: str
    bot: bool = False
    type: ClassVar[str] = "npc_control"


ACTIONS = {**{c.type: c for c in (Choose, Declare, PlayCard, Hit, GmModifier, Ruling, Reshuffle, EndCombat,
                                  NpcControl)}, **ADVANCEMENT}
