"""Smoke tests for the Carnival Zombie images: they draw from views, by Day and by Night."""
from __future__ import annotations

import io
import random

from PIL import Image

from renderers import carnival_zombie as R
from rules.carnival_zombie import ENGINE
from rules.common import PUBLIC, Actor, Choose


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def test_day_and_night_images():
    s = ENGINE.new_game(["a", "b"], {"quick": True, "auto_start": True}, 3)
    day = ENGINE.view_for(s, PUBLIC)
    assert _png(R.venice_map(day)).size == (760, 560)
    assert _png(R.board(day)).height > 560
    assert R.venice_map(day) == R.venice_map(day)          # deterministic
    rng = random.Random(1)
    while not s.night or not any(s.night.rings[sp] for sp in s.night.rings):
        p = ENGINE.pending(s)[0]
        ids = [o.id for o in p.options]
        pick = "stop" if "stop" in ids else rng.choice(ids)
        s = ENGINE.apply(s, Choose(p.id, (pick,)), Actor(p.player)).state
    night = ENGINE.view_for(s, PUBLIC)
    assert _png(R.tactical_map(night)).size == (640, 640)
    assert _png(R.strip(night)).width == 760
    assert _png(R.board(night)).height > 640
