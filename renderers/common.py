"""Shared drawing helpers: bundled fonts (never system fonts, so images match everywhere),
PNG encoding and a small palette."""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"

INK = (30, 30, 36)
PAPER = (245, 240, 228)
RED = (178, 34, 34)
BLUE = (40, 80, 170)
GREEN = (46, 125, 50)
GREY = (150, 150, 150)
GOLD = (200, 160, 40)


@lru_cache(maxsize=32)
def font(size: int = 14, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def canvas(width: int, height: int, colour=PAPER) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def png_bytes(image: Image.Image) -> bytes:
    # compress_level 1: a tenth of the default encode time for a slightly larger file,
    # which matters more inside Discord's 3-second window than a few kilobytes.
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
