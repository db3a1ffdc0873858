"""Golden images for the Carnival Zombie renderers (regenerate: CZ_GOLDEN=1 pytest this file)."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from renderers import carnival_zombie as R
from rules.carnival_zombie import ENGINE
from rules.carnival_zombie.state import BossSlot
from rules.common import PUBLIC, Actor, Choose

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
    data = CASES[name]()
    path = GOLDEN / f"{name}.png"
    if os.environ.get("CZ_GOLDEN") or not path.exists():
        path.write_bytes(data)
    got = Image.open(io.BytesIO(data)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L")
    changed = diff.point(lambda v: 255 if v > 40 else 0).histogram()[255]
    assert changed <= 0.01 * got.size[0] * got.size[1], f"{name}: {changed} pixels differ"
