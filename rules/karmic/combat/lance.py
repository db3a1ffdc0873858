"""The lance in a joust (rulebook seed 004 L846; digest §5.2): "a jousting character can only attack
one particular target once every 4 rounds". A lance is a weapon of the LANCE skill; an attack with it
(any maneuver that strikes, disarms, takes down or holds) on a target in round r marks that target,
and the next lance attack on the same target is legal from round r + 4. Other targets, and other
weapons against the same target, are not limited. (Its other half, "no modifier for distance", is the
ranged check's: `ranged.prepare`.)"""
from __future__ import annotations

from rules.common import IllegalAction

from ..base import name
from ..character import Weapon
from ..state import KarmicState
from ..tables import MANEUVERS, skill_key
from .common import STRIKE_KINDS

LANCE = "lance"
EVERY = 4          # rounds between two lance attacks on one target


def is_lance(weapon: Weapon | None) -> bool:
    return weapon is not None and skill_key(weapon.skill) == LANCE


def _lance_attack(man_id: str, weapon: Weapon | None) -> bool:
    return is_lance(weapon) and MANEUVERS[man_id].kind in STRIKE_KINDS


def refusal(state: KarmicState, who: str, man_id: str, weapon: Weapon | None, target: str) -> IllegalAction | None:
    """The typed refusal of a lance attack on a target attacked fewer than 4 rounds ago, or None."""
    if not _lance_attack(man_id, weapon):
        return None
    last = state.combat.fighters[who].lance_rounds.get(target)
    now = state.combat.round
    if last is None or now >= last + EVERY:
        return None
    return IllegalAction("lance_once_every_4_rounds", target=name(state, target), last=last, round=last + EVERY,
                         every=EVERY)


def mark(state: KarmicState, who: str, man_id: str, weapon: Weapon | None, target: str) -> None:
    """A lance attack declared on `target` this round."""
    if _lance_attack(man_id, weapon):
        state.combat.fighters[who].lance_rounds[target] = state.combat.round
