"""Bleeding and first aid (rulebook seed 004 L780, L792; digest §4.4, §4.5, A39).

What the rulebook defines: "a successful first aid check will stop the loss of any more hitpoints
due to bleeding"; first aid restores no hit points; and, "like medicine", it takes a negative
modifier equal to the subject's hit points (A39: the boxes marked). So a character carries a
`bleeding` mark (on the sheet); a successful FIRST AID check takes it off. How many hit points a
bleeding character loses, and how often, is not in the rulebook: that stays the GM's ruling, as does
what starts a bleeding. The subject of the check is the character making it (tending someone else,
the GM types that one's marked boxes as the modifier).
"""
from __future__ import annotations

from .character import Character
from .tables import skill_key

FIRST_AID = "first_aid"
TENDING = {FIRST_AID, "medicine"}       # both take −(hit points marked), L780 "like medicine"


def tending_modifier(skill: str, subject: Character) -> int:
    """−(boxes marked) on a first aid or medicine check; 0 for other skills or an unhurt subject."""
    return -subject.hp_marked if skill and skill_key(skill) in TENDING else 0


def first_aid_stops_bleeding(skill: str, subject: Character, success: bool) -> bool:
    """A successful first aid check on a bleeding subject: the bleeding stops (returns True)."""
    if success and subject.bleeding and skill_key(skill or "-") == FIRST_AID:
        subject.bleeding = False
        return True
    return False
