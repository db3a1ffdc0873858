"""Golden images of the Klash! pictures (regenerate on purpose: BAUTA_GOLDEN=1, then look at them).

The cases are what a table meets first: long display names, both teams holding the same card
(told apart by number and colour), a melee cluster, activated models keeping their team colour, and
the winner with the score inside the frame.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from renderers import klash as R
from rules.common import PUBLIC
from rules.klash import ENGINE
from tests.rules.klash.helpers import SAMPLE, A, B, skirmish
from tests.support.golden import assert_matches_golden

GOLDEN = Path(__file__).parent / "golden"
NAMES = {A: "Bartolomeo il Magnifico, Gran Lanista di Verona", B: "Esperanza de la Arena Roja y del Sol"}


def _cluster():
    """Three orcs a side, the same card on both teams, locked in one melee at the Altar's edge."""
    state = skirmish([("orc", 40, 60), ("orc", 44.5, 65), ("wolf", 20, 30)],
                     [("orc", 49, 60), ("orc", 44.5, 55), ("dwarf", 100, 90)])
    # named by card + number (the legend reads "Raging Orc 1", "Raging Orc 4" ... through the catalogue)
    state.model("m1").activated = True
    state.model("m4").activated = True
    state.model("m5").stunned = True
    return state


def _view(state):
    return {**ENGINE.view_for(state, PUBLIC), "names": NAMES}


def _over():
    state = _cluster()
    state.over, state.phase, state.winner, state.result = True, "over", B, "hourglass8"
    state.vp = {A: 17, B: 23}
    return state


CASES = {
    "arena_cluster": lambda: R.arena_png(_view(_cluster()), active="m2"),
    "arena_over": lambda: R.arena_png(_view(_over())),
    "draft_long_names": lambda: R.draft_png({**ENGINE.view_for(ENGINE.new_game([A, B], SAMPLE, seed=3), PUBLIC),
                                             "names": NAMES}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_golden(name):
    assert_matches_golden(CASES[name](), GOLDEN / f"klash_{name}.png")
