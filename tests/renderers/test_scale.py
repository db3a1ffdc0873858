"""Pictures drawn larger (`renderers.common.scaled`, for the web companion): exactly `scale` times the
size, drawn sharp rather than resized, and scale 1 untouched by having drawn at another."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from renderers.common import scaled
from tests.renderers.scenes import pictures


def _families() -> dict[str, object]:
    """The first picture of each family ("klash arena", "cz board", "carnevale roll"...), in English."""
    first: dict[str, object] = {}
    for name, draw in pictures("en"):
        first.setdefault(" ".join(name.split()[:2]), draw)
    return first


FAMILIES = _families()


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _difference(a: Image.Image, b: Image.Image) -> float:
    return ImageStat.Stat(ImageChops.difference(a, b).convert("L")).mean[0]


def _detail(image: Image.Image, half: tuple[int, int]) -> float:
    """The detail finer than a picture of size `half` can hold: what is lost going down to it and back."""
    return _difference(image, image.resize(half, Image.Resampling.BOX).resize(image.size, Image.Resampling.LANCZOS))


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_picture_at_scale_2_is_twice_as_large_and_drawn_not_upscaled(family):
    draw = FAMILIES[family]
    one = _image(draw())
    with scaled(2):
        two = _image(draw())
    assert two.size == (2 * one.width, 2 * one.height)
    upscaled = one.resize(two.size, Image.Resampling.LANCZOS)
    assert _difference(two, upscaled) > 1 and _difference(two, one.resize(two.size, Image.Resampling.NEAREST)) > 1
    # drawn at its size, its edges carry twice the fine detail (or more) that an upscale interpolates
    assert _detail(two, one.size) > 2 * _detail(upscaled, one.size)
    assert _image(draw()).tobytes() == one.tobytes()      # scale 1 again, the layer caches kept apart


def test_a_float_scale_and_the_default():
    draw = FAMILIES["klash arena"]
    one = _image(draw())
    with scaled(1.5):
        wide = _image(draw())
    assert wide.size == (round(1.5 * one.width), round(1.5 * one.height))
    with scaled(1):
        assert draw() == FAMILIES["klash arena"]()
    with pytest.raises(ValueError), scaled(0):
        pass


def test_the_games_render_entry_points_take_the_scale():
    """What the web calls: a System's `render(view)`, inside `scaled`."""
    from cogs.klash.board import render
    from rules.common import PUBLIC
    from rules.klash import ENGINE
    from tests.rules.klash.helpers import SAMPLE, A, B
    view = ENGINE.view_for(ENGINE.new_game([A, B], SAMPLE, seed=1), PUBLIC)
    with scaled(3):
        assert _image(render(view)).size == (2700, 1680)
