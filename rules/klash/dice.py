"""The Klash! die ladder (digest §1.2).

A die stat is written like ``"0"``, ``"1"``, ``"d3"``, ``"d8"``, ``"2d8"`` or ``"d12+2"``. Internally it is
``(count, step)`` where step 0..7 walks ``0, 1, d3, d4, d6, d8, d10, d12`` and a step above 7 is a d12 plus
``step - 7``. Increases and Decreases are netted into one modifier and applied once, clamped at step 0.
Multi-die stats roll every die and keep the best; the above-d12 bonus is added once to the kept die.
"""
from __future__ import annotations

import re
from collections.abc import Callable

LADDER = ("0", "1", "d3", "d4", "d6", "d8", "d10", "d12")
SIDES = {2: 3, 3: 4, 4: 6, 5: 8, 6: 10, 7: 12}
_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:\+\s*(\d+))?\s*$")


def parse(text: str | int) -> tuple[int, int]:
    """``"2d8"`` -> (2, 5); ``"d12+2"`` -> (1, 9); ``"0"`` -> (1, 0); ``"1"`` -> (1, 1)."""
    s = str(text).strip().lower()
    if s in ("0", "1"):
        return 1, int(s)
    m = _RE.match(s)
    if not m:
        raise ValueError("not_a_die", text)      # packs are validated first: only a bug gets here
    count = int(m.group(1) or 1)
    sides = int(m.group(2))
    bonus = int(m.group(3) or 0)
    steps = {v: k for k, v in SIDES.items()}
    if sides not in steps or count < 1 or (bonus and sides != 12):
        raise ValueError("not_a_die", text)      # packs are validated first: only a bug gets here
    return count, steps[sides] + bonus


def label(count: int, step: int) -> str:
    if step <= 1:
        return LADDER[max(step, 0)]
    prefix = f"{count}" if count > 1 else ""
    if step <= 7:
        return f"{prefix}{LADDER[step]}"
    return f"{prefix}d12+{step - 7}"


def shift(text: str, net: int) -> str:
    """The die after a net number of Increases (positive) or Decreases (negative)."""
    count, step = parse(text)
    return label(count, max(0, step + net))


def usable(text: str) -> bool:
    """A stat printed as 0 means the model lacks the ability (no ranged attack, no magic)."""
    return parse(text)[1] > 0


def roll(text: str, net: int, die: Callable[[int], int], reroll_ones: bool = False) -> tuple[int, list[int]]:
    """Roll a die stat with a net modifier. Returns (result, faces rolled). ``die(sides)`` rolls one die."""
    count, step = parse(text)
    step = max(0, step + net)
    if step == 0:
        return 0, []
    if step == 1:
        return 1, []
    sides = SIDES[min(step, 7)]
    faces = []
    for _ in range(count):
        face = die(sides)
        if face == 1 and reroll_ones:
            face = die(sides)  # a re-rolled 1 stands, whatever it shows (digest §6.7)
        faces.append(face)
    return max(faces) + max(0, step - 7), faces
