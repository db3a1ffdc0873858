"""No text overprints another: every picture of every game (tests/renderers/scenes.py: seeded states
in several phases, won and lost games) in every language, at scale 1 and 2, with the box of every
text stamped recorded (`renderers.common.recording`). Two inked boxes may touch or share a pixel's
width of anti-aliasing (1 px a scale unit), no more. A text drawn inside a shape is fine; a shape
filled over a text hides it (a highlighted box drawn again over the plain one)."""
from __future__ import annotations

import pytest

from renderers.common import recording, scaled

from tests.renderers.scenes import LANGUAGES, pictures

Box = tuple[int, int, int, int]


def overprinted(texts: list[tuple[Box, str]], tolerance: float) -> list[tuple[str, str]]:
    """The pairs of texts whose inked boxes share more than `tolerance` pixels both ways."""
    found = []
    for i, (a, text_a) in enumerate(texts):
        for b, text_b in texts[i + 1:]:
            across = min(a[2], b[2]) - max(a[0], b[0]) + 1
            down = min(a[3], b[3]) - max(a[1], b[1]) + 1
            if across > tolerance and down > tolerance:
                found.append((text_a, text_b))
    return found


def test_overprinted_finds_words_over_words_and_lets_neighbours_touch():
    assert overprinted([((0, 0, 20, 10), "Victory!"), ((15, 2, 40, 12), "Abyss: 145")], 1) == [("Victory!", "Abyss: 145")]
    assert overprinted([((0, 0, 20, 10), "a"), ((20, 0, 30, 10), "b"), ((0, 11, 20, 20), "c")], 1) == []


@pytest.mark.parametrize("scale", [1, 2])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_overprints_another(language, scale):
    found = []
    for name, draw in pictures(language):
        with scaled(scale), recording() as drawn:
            draw()
        found += [f"{name}: {a!r} over {b!r}" for a, b in overprinted(drawn[-1], scale)]
    assert not found, f"{len(found)} overprints:\n" + "\n".join(found)
