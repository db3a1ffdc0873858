"""Pack refusals as data in tests: the problems a loader raised, one problem's essentials, and the
small broken packs several tests upload."""
from __future__ import annotations

from typing import Any

import pytest

from rules.common import PackError, Problem


def problems(call, *args: Any, **kwargs: Any) -> tuple[Problem, ...]:
    """The problems of the PackError `call(*args)` raises (the test fails if it raises none)."""
    with pytest.raises(PackError) as err:
        call(*args, **kwargs)
    assert err.value.problems, f"a PackError without problems: {err.value!s}"
    return err.value.problems


def brief(problem: Problem) -> tuple:
    """(code, file, entry, entry name, field) of a problem: where it is and what, without params."""
    where = problem.where
    return problem.code, where.file, where.entry, where.name, where.field


def carnevale_pack(cost: str = "10", equipment: str | None = None) -> str:
    """A Carnevale guild pack of one faction (Mine) with one class (Bravo), as YAML: `cost` as written
    ("ten" for a wrong type), `equipment` an item the sample tables may lack ("Laser")."""
    text = f"""
factions:
  - name: Mine
    classes:
      - name: Bravo
        cost: {cost}
        ap: 3
        attributes: {{MOV: 4, COM: 2, DEX: 5, SHO: 5, MIN: 6, PRO: 2}}
        life_track: [0, -1]
"""
    return text + (f"        equipment: [{equipment}]\n" if equipment else "")
