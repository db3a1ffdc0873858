"""Entangling limbs, Chop and Swat (rulebook seed 004 L56 and L68; digest §3.5, A13).

- **Entangling limbs** (L56: "creatures will have some way of entangling its victims"). The way is
  the creature's data: a weapon with `entangles: true` and the limb's `vitality`. PROPOSAL (the
  rulebook says only that victims get entangled): a successful strike with that limb entangles its
  target. What being entangled does besides waiting to be freed is the GM's ruling.
- **Chop** (L56): "a successful chop maneuver will free someone entangled by a limb. The modifier is
  equal to the vitality of the entangling appendage" (read as −vitality, A13: house rule
  `flank_chop_sign`). It is aimed at the creature and frees the chopper himself if the creature holds
  him, otherwise the first other fighter it holds; it is refused when the creature holds nobody.
- **Swat** (L68): no damage; the target is pushed back a number of feet equal to the damage the
  weapon would have done. The fight's ranges are counted in yards (weapon reach), so the push opens
  the range by whole yards: feet // 3 (PROPOSAL: a push shorter than a yard leaves the range).
"""
from __future__ import annotations

from rules.common import IllegalAction

from ..base import name
from ..character import Weapon
from ..state import KarmicState

FEET_PER_YARD = 3


def holds(state: KarmicState, creature: str) -> list[str]:
    """The fighters an entangling limb of `creature` holds, in the fighters' order."""
    return [k for k, f in state.combat.fighters.items() if creature in f.entangled_by and not f.out]


def freed_by_chop(state: KarmicState, chopper: str, creature: str) -> str | None:
    held = holds(state, creature)
    if chopper in held:
        return chopper
    return held[0] if held else None


def chop_refusal(state: KarmicState, chopper: str, creature: str) -> IllegalAction | None:
    if freed_by_chop(state, chopper, creature) is None:
        return IllegalAction("nobody_entangled", target=name(state, creature))
    return None


def chop_vitality(state: KarmicState, chopper: str, creature: str) -> int:
    """The vitality of the limb the chop cuts; a creature holding nobody (a chop that the legality
    refuses) is read by its own Fortitude, as before limbs were data."""
    victim = freed_by_chop(state, chopper, creature)
    if victim is None:
        return state.characters[creature].attr("fortitude")
    return state.combat.fighters[victim].entangled_by[creature]


def chop(state: KarmicState, chopper: str, creature: str) -> str | None:
    """A successful chop: the victim is free of that creature's limb. Returns who was freed."""
    victim = freed_by_chop(state, chopper, creature)
    if victim is not None:
        del state.combat.fighters[victim].entangled_by[creature]
    return victim


def entangle(state: KarmicState, creature: str, weapon: Weapon | None, target: str) -> bool:
    """After a successful strike: an entangling limb holds its target (PROPOSAL, see above)."""
    if weapon is None or not weapon.entangles:
        return False
    state.combat.fighters[target].entangled_by[creature] = int(weapon.vitality)
    return True


def swat_yards(feet: int) -> int:
    return max(0, feet) // FEET_PER_YARD
