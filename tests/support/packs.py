"""Pack refusals as data in tests: the problems a loader raised, and one problem's essentials."""
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
