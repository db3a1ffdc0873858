"""Golden images for the Carnival Zombie renderers (regenerate: BAUTA_GOLDEN=1 pytest this file)."""
from __future__ import annotations

from pathlib import Path

import pytest

from renderers import carnival_zombie as R
from rules.carnival_zombie import ENGINE
from rules.carnival_zombie.state import BossSlot
from rules.common import PUBLIC, Actor, Choose
from tests.support.golden import assert_matches_golden

GOLDEN = Path(__file__).parent / "golden"


def _day_view():
    s = ENGINE.new_game(["a", "b"], {"quick": True, "auto_start": True, "location": 7}, 11)
    s.sunken = [4, 9]
    s.forced_dir = ""
    return ENGINE.view_for(s, PUBLIC)


def _night_view():
    s = ENGINE.new_game(["a"], {"quick_night": True, "auto_start": True, "location": 8,
                                "house_rules": {"pile_mode": "off"}}, 11)
    for _ in range(40):
        p = ENGINE.pending(s)[0]
        if p.id.startswith("act"):
            break
        ids = [o.id for o in p.options]
        s = ENGINE.apply(s, Choose(p.id, ("N" if "N" in ids else ids[0],)), Actor("a")).state
    s.boss_area[5] = BossSlot(boss="doge", wounds=1, cubes=1, pos="W2.2")
    s.boss_deck.remove("doge")
    s.supply["W"] -= 1
    return ENGINE.view_for(s, PUBLIC)


CASES = {"venice": lambda: R.venice_map(_day_view()), "tactical": lambda: R.tactical_map(_night_view()),
         "strip": lambda: R.strip(_night_view())}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_golden(name):
    assert_matches_golden(CASES[name](), GOLDEN / f"{name}.png")
