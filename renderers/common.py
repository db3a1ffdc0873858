"""Shared drawing helpers: bundled fonts (never system fonts, so images match everywhere),
text stamped from cached glyph masks, PNG encoding (plain or on a fixed palette) and a small palette.

Scale. The renderers lay their pictures out in *layout units* (a pixel at scale 1, what Discord
gets). `with scaled(2): png = render(view)` draws the same picture twice as large and sharp (a web
page on a dense screen), not an upscaled bitmap: `canvas` and `blank` make images of the scaled size,
and the `Pen` they hand out multiplies every coordinate, line width, radius and font size, so the
renderers' layout code is the same at every scale. Any scale > 0 works (2, 3, 1.5); the default 1
draws exactly what it always did. Layers a renderer keeps (backgrounds, cards) are cached with
`per_scale`, one copy per scale; `paste` and `size_of` speak layout units too.

Texts. Inside `with recording() as pictures:` every text stamped is remembered with its inked box
(in the image's pixels), and each picture encoded appends its list of `(box, text)` to `pictures`:
what tests/renderers/test_text_overlap.py reads to find words printed over words. Off otherwise.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

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


# How many image pixels a layout unit is while a picture is drawn (see the module's docstring).
SCALE: ContextVar[float] = ContextVar("renderers_scale", default=1)
# The pictures encoded while `recording()` is on, each its texts' boxes; None when off.
_RECORDED: ContextVar[list | None] = ContextVar("renderers_recorded", default=None)
TEXTS = "bauta.texts"        # the image's `info` entry holding its texts' boxes while recording


@contextmanager
def scaled(scale: float) -> Iterator[None]:
    """Draw every picture made inside at `scale` (the web companion's entry point): `with scaled(2):
    png = system.render(view)` is the same picture twice as wide and high, drawn, not resized."""
    if not scale > 0:
        raise ValueError(f"a scale is a positive number, not {scale!r}")
    token = SCALE.set(scale)
    try:
        yield
    finally:
        SCALE.reset(token)


@contextmanager
def recording() -> Iterator[list[list[tuple[tuple[int, int, int, int], str]]]]:
    """Remember the texts of every picture encoded inside: one list of (inked box, text) a picture."""
    pictures: list = []
    token = _RECORDED.set(pictures)
    try:
        yield pictures
    finally:
        _RECORDED.reset(token)


def _pixels(v: float) -> int:
    return round(v * SCALE.get())


class Pen:
    """`ImageDraw.Draw` in layout units: coordinates, widths and radii are multiplied by the scale the
    pen was made at. A layout pixel covers `scale` image pixels, so a box's far edge is that pixel's
    far side and a point (a line's end, a text's anchor) is its centre: shapes keep their proportions
    and stay centred on each other at any scale. At scale 1 every call passes through untouched."""

    def __init__(self, image: Image.Image):
        self.image = image
        self.scale = SCALE.get()
        self.draw = ImageDraw.Draw(image)

    def box(self, xy) -> Any:
        if self.scale == 1:
            return xy
        x0, y0, x1, y1 = _flat(xy)
        s = self.scale
        return [x0 * s, y0 * s, (x1 + 1) * s - 1, (y1 + 1) * s - 1]

    def point(self, xy) -> Any:
        if self.scale == 1:
            return xy
        flat = _flat(xy)
        half = (self.scale - 1) / 2
        return [v * self.scale + half for v in flat]

    def width(self, width: float) -> int:
        return round(width) if self.scale == 1 else round(width * self.scale)

    def _covers(self, xy, fill) -> None:
        if fill is not None and _RECORDED.get() is not None:
            cover(self.image, tuple(round(v) for v in _flat(self.box(xy))))

    def ellipse(self, xy, fill=None, outline=None, width: float = 1) -> None:
        self.draw.ellipse(self.box(xy), fill=fill, outline=outline, width=self.width(width))
        self._covers(xy, fill)

    def rectangle(self, xy, fill=None, outline=None, width: float = 1) -> None:
        self.draw.rectangle(self.box(xy), fill=fill, outline=outline, width=self.width(width))
        self._covers(xy, fill)

    def rounded_rectangle(self, xy, radius: float = 0, fill=None, outline=None, width: float = 1) -> None:
        self.draw.rounded_rectangle(self.box(xy), radius=radius * self.scale, fill=fill, outline=outline,
                                    width=self.width(width))
        self._covers(xy, fill)

    def line(self, xy, fill=None, width: float = 1) -> None:
        self.draw.line(self.point(xy), fill=fill, width=self.width(width))

    def dot(self, xy, fill=None) -> None:
        """One layout pixel (`ImageDraw.point`): a square of `scale` image pixels."""
        if self.scale == 1:
            self.draw.point(xy, fill=fill)
        else:
            self.rectangle([xy[0], xy[1], xy[0], xy[1]], fill=fill, width=0)


def _flat(xy) -> list[float]:
    """[x0, y0, x1, y1] or [(x0, y0), (x1, y1)] (any nesting of numbers) as one flat list."""
    out: list[float] = []
    for v in xy:
        if isinstance(v, (int, float)):
            out.append(v)
        else:
            out += _flat(v)
    return out


def canvas(width: int, height: int, colour=PAPER) -> tuple[Image.Image, Pen]:
    image = blank(width, height, colour)
    return image, Pen(image)


def blank(width: float, height: float, colour: Any = PAPER, mode: str = "RGB") -> Image.Image:
    """A new image `width` x `height` layout units large, at the scale of the moment."""
    return Image.new(mode, (_pixels(width), _pixels(height)), colour)


def size_of(image: Image.Image) -> tuple[int, int]:
    """An image's size in layout units."""
    s = SCALE.get()
    return (image.width, image.height) if s == 1 else (round(image.width / s), round(image.height / s))


def paste(image: Image.Image, piece: Image.Image, xy: tuple[float, float], mask: Image.Image | None = None) -> None:
    """`image.paste(piece, xy, mask)` at layout position `xy`; recorded texts follow the piece (the
    mask's own are not drawn), and those it covers are gone."""
    at = (_pixels(xy[0]), _pixels(xy[1]))
    image.paste(piece, at, mask)
    if _RECORDED.get() is not None:
        if mask is None:
            cover(image, (at[0], at[1], at[0] + piece.width - 1, at[1] + piece.height - 1))
        moved = tuple(((x0 + at[0], y0 + at[1], x1 + at[0], y1 + at[1]), text)
                      for (x0, y0, x1, y1), text in piece.info.get(TEXTS, ()))
        image.info[TEXTS] = image.info.get(TEXTS, ()) + moved


def cover(image: Image.Image, box: tuple) -> None:
    """Forget the recorded texts wholly under `box` (pixels): a shape filled over them hides them
    (a highlighted box drawn again over the plain one, with its own words)."""
    x0, y0, x1, y1 = box
    image.info[TEXTS] = tuple(t for t in image.info.get(TEXTS, ())
                              if not (x0 <= t[0][0] and y0 <= t[0][1] and t[0][2] <= x1 and t[0][3] <= y1))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How long `text` is in layout units, measured at the scale of the moment (a line fitted to a
    width fits it at every scale)."""
    s = SCALE.get()
    return font(size * s if s != 1 else size, bold).getlength(text) / s


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """`text` as it is when it fits in `width` layout units, else cut at the longest prefix that fits
    with an ellipsis marking the cut (measured in the font, not counted in characters)."""
    if text_width(text, size, bold) <= width:
        return text
    low, high = 0, len(text)           # the longest prefix that fits: text_width grows with the prefix
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size, bold) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


class per_scale:
    """`lru_cache` for a drawn layer: one entry per scale (and apart while recording, whose layers
    remember their texts) as well as per arguments. Keeps `cache_info` and `cache_clear`."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize

    def __call__(self, draw: Callable) -> Any:
        return _Layered(draw, self.maxsize)


class _Layered:
    def __init__(self, draw: Callable, maxsize: int) -> None:
        self.__doc__ = draw.__doc__
        self.cached = lru_cache(maxsize=maxsize)(lambda _scale, _recording, *args: draw(*args))
        self.cache_info = self.cached.cache_info
        self.cache_clear = self.cached.cache_clear

    def __call__(self, *args: Any) -> Any:
        return self.cached(SCALE.get(), _RECORDED.get() is not None, *args)


def png_bytes(image: Image.Image) -> bytes:
    # compress_level 1: a tenth of the default encode time for a slightly larger file,
    # which matters more inside Discord's 3-second window than a few kilobytes.
    recorded = _RECORDED.get()
    if recorded is not None:
        recorded.append(list(image.info.get(TEXTS, ())))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


@lru_cache(maxsize=4096)
def glyphs(text: str, size: float, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A text's anti-aliased coverage, rendered once: (mask, left, top) from the anchor point. Pictures
    repeat the same few words and numbers step after step, and FreeType's rendering is most of a
    text's cost. `size` is in image pixels (the scaled size: each scale has its own masks)."""
    f = font(size, bold)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))    # whole pixels
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=f, anchor=anchor)
    return mask, left, top


def stamp(draw: Pen, xy, text, size: float, fill, bold: bool = False, anchor: str = "la") -> None:
    """Draw `text` at `xy` through its cached coverage (the same pixels as `draw.text`), at the pen's scale."""
    s = draw.scale
    x, y = draw.point(xy) if s != 1 else xy
    mask, left, top = glyphs(str(text), size * s if s != 1 else size, bold, anchor)
    at = (round(x) + left, round(y) + top)
    draw.draw.bitmap(at, mask, fill=fill)
    if _RECORDED.get() is not None:
        inked = mask.getbbox()
        if inked:
            box = (at[0] + inked[0], at[1] + inked[1], at[0] + inked[2] - 1, at[1] + inked[3] - 1)
            draw.image.info[TEXTS] = draw.image.info.get(TEXTS, ()) + ((box, str(text)),)


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
