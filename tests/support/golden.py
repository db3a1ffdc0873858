"""Compare a rendered PNG with its golden file, within a small tolerance (FreeType versions
anti-alias text slightly differently). Regenerate goldens on purpose with BAUTA_GOLDEN=1."""
from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

CHANNEL_TOLERANCE = 40      # per-pixel difference that still counts as "the same"
AREA_TOLERANCE = 0.01       # share of pixels allowed to differ more than that


def assert_matches_golden(png: bytes, path: Path) -> None:
    if os.environ.get("BAUTA_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
    assert path.exists(), f"no golden image {path.name}: run with BAUTA_GOLDEN=1 to create it, then look at it"
    got = Image.open(io.BytesIO(png)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size, f"{path.name}: size {got.size} != golden {want.size}"
    diff = ImageChops.difference(got, want).convert("L")
    changed = diff.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0).histogram()[255]
    assert changed <= AREA_TOLERANCE * got.size[0] * got.size[1], f"{path.name}: {changed} pixels differ"
