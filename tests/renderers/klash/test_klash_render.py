"""Smoke tests: the Klash! images render from views and show nothing beyond the view."""
import io

import pytest

from PIL import Image

from rules.common import PUBLIC
from rules.klash import ENGINE
from renderers.klash import arena_png, draft_png, hand_png
from tests.rules.klash.helpers import SAMPLE, A, B, random_game, skirmish


def _img(data):
    return Image.open(io.BytesIO(data))


def test_draft_image():
    state = ENGINE.new_game([A, B], SAMPLE, seed=1)
    img = _img(draft_png(ENGINE.view_for(state, PUBLIC)))
    assert img.size == (900, 560)


def test_arena_image_from_a_public_view_mid_match():
    state = skirmish([("orc", 30, 30), ("wolf", 40, 40)], [("dwarf", 90, 90)])
    state.model("m3").stunned = True
    img = _img(arena_png(ENGINE.view_for(state, PUBLIC), active="m1"))
    assert img.width > img.height > 600


def test_hand_image_and_finished_game():
    state, _, _ = random_game(3)
    assert _img(arena_png(ENGINE.view_for(state, PUBLIC))).format == "PNG"
    assert _img(hand_png(ENGINE.view_for(state, A))).format == "PNG"
    assert _img(hand_png(ENGINE.view_for(state, PUBLIC))).format == "PNG"  # no hand in a public view


def test_pictures_are_encoded_on_the_fixed_palette_with_its_exact_team_colours():
    """One byte a pixel (the RGB encode was over half an arena picture's cost), and the pure colours
    stay exact on the palette: a team's disc is its colour, not a near shade."""
    from renderers.klash import TEAM
    state = skirmish([("orc", 30, 30)], [("dwarf", 90, 90)])
    arena = _img(arena_png(ENGINE.view_for(state, PUBLIC)))
    assert arena.mode == "P"
    disc = arena.convert("RGB").getpixel((int(20 + 30 * 5) - 6, int(20 + (120 - 30) * 5)))
    assert disc == TEAM[0]
    assert _img(draft_png(ENGINE.view_for(ENGINE.new_game([A, B], SAMPLE, seed=1), PUBLIC))).mode == "P"
    assert _img(hand_png(ENGINE.view_for(state, A))).mode == "P"


def test_arena_image_does_not_depend_on_secret_hands():
    state = skirmish([("orc", 30, 30)], [("dwarf", 90, 90)])
    other = ENGINE.load_state(ENGINE.dump_state(state))
    state.hands = {A: ["roar", "omen"], B: ["sand", "sand"]}
    other.hands = {A: ["water", "drill"], B: ["roar", "blessing"]}
    assert arena_png(ENGINE.view_for(state, PUBLIC)) == arena_png(ENGINE.view_for(other, PUBLIC))


@pytest.mark.parametrize("lang", ["it", "es"])
def test_the_words_in_the_pictures_come_from_the_catalogue(lang):
    """Every word drawn (the Altar, the Gates, Hourglass, phases, Turn, Winner, the auction's labels,
    card types and qualities, Event Card timings) is a catalogue entry in the reader's language."""
    from i18n import present
    from i18n.present import Presenter
    say = Presenter(lang, game="klash", names={A: "Alice", B: "Bruno"})
    game = ENGINE.new_game([A, B], SAMPLE, seed=1)
    mid = skirmish([("orc", 30, 30), ("wolf", 40, 40)], [("dwarf", 90, 90)])
    mid.hands = {A: ["roar", "sand"], B: []}
    over, _, _ = random_game(3)
    with present.watch() as notes:
        draft_png(ENGINE.view_for(game, PUBLIC), say)
        arena_png(ENGINE.view_for(mid, PUBLIC), say=say)
        arena_png(ENGINE.view_for(over, PUBLIC), say=say)
        hand_png(ENGINE.view_for(mid, A), say)
    drawn = {n.key for n in notes}
    assert [n for n in notes if n.fallback] == []
    assert {"words.img_altar", "words.img_gate", "words.img_hourglass", "words.img_stage_action",
            "words.img_winner", "words.img_auction", "words.img_picking", "words.img_timing_own_turn",
            "terms.type_gregario", "words.img_legend"} <= drawn
    assert all(n.language == lang for n in notes)
