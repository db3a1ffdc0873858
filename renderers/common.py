"""Shared drawing helpers: bundled fonts (never system fonts, so images match everywhere),
text stamped from cached glyph masks, PNG encoding (plain or on a fixed palette) and a small palette."""
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


@lru_cache(maxsize=4096)
def glyphs(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A text's anti-aliased coverage, rendered once: (mask, left, top) from the anchor point. Pictures
    repeat the same few words and numbers step after step, and FreeType's rendering is most of a
    text's cost."""
    f = font(size, bold)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))    # whole pixels
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=f, anchor=anchor)
    return mask, left, top


def stamp(draw: ImageDraw.ImageDraw, xy, text, size: int, fill, bold: bool = False, anchor: str = "la") -> None:
    """Draw `text` at `xy` through its cached coverage (the same pixels as `draw.text`)."""
    mask, left, top = glyphs(str(text), size, bold, anchor)
    draw.bitmap((round(xy[0]) + left, round(xy[1]) + top), mask, fill=fill)


@lru_cache(maxsize=8)
def fixed_palette(pure: tuple, grounds: tuple) -> Image.Image:
    """256 colours: the pure ones (weighted, so they stay exact) and every one blended over every
    ground in eighths (text and line edges), reduced by median cut. Made once per picture family."""
    pixels = [c for c in pure for _ in range(200)]
    pixels += [tuple(round(k / 8 * f + (1 - k / 8) * b) for f, b in zip(fg, bg))
               for fg in pure for bg in grounds for k in range(1, 8)]
    swatch = Image.new("RGB", (len(pixels), 1))
    swatch.putdata(pixels)
    return swatch.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def palette_png(image: Image.Image, pure: tuple, grounds: tuple) -> bytes:
    """PNG bytes one byte a pixel, on the fixed palette of `pure` over `grounds`: an RGB encode of a
    board costs four to five times more (Pillow tries five row filters on every busy row)."""
    return png_bytes(image if image.mode == "P" else on_palette(image, fixed_palette(pure, grounds)))


def on_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """`image` mapped onto a fixed palette, one byte a pixel (no dithering: every colour drawn is in
    it, each edge within a few shades). Images on the same palette paste into each other as they are."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)
