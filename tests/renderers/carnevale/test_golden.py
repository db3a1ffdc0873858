"""Golden images for the Carnevale renderers (regenerate: CARNEVALE_GOLDEN=1 pytest this file)."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from renderers import carnevale as R
from rules.carnevale import ENGINE
from rules.carnevale.dice import result_from_dice
from rules.common import PUBLIC

from .test_render import _state

GOLDEN = Path(__file__).parent / "golden"

CASES = {"sheet_owner": lambda: R.squad_sheet(ENGINE.view_for(_state(), "1"), "1"),
         "sheet_public": lambda: R.squad_sheet(ENGINE.view_for(_state(), PUBLIC), "2"),
         "game_public": lambda: R.game_sheet(ENGINE.view_for(_state(), PUBLIC)),
         "roll": lambda: R.roll_image(result_from_dice([10, 7, 2, 1, 8], 7).to_public())}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_golden(name):
    data = CASES[name]()
    path = GOLDEN / f"{name}.png"
    if os.environ.get("CARNEVALE_GOLDEN") or not path.exists():
        path.write_bytes(data)
    got = Image.open(io.BytesIO(data)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L")
    changed = diff.point(lambda v: 255 if v > 40 else 0).histogram()[255]
    assert changed <= 0.01 * got.size[0] * got.size[1], f"{name}: {changed} pixels differ"
