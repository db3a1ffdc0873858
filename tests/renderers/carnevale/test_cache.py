"""The Carnevale pictures are drawn from cached cards: the cache is keyed by every value a card shows,
a step redraws only the cards that changed, and the words are the caller's."""
import copy
import io

import pytest
from PIL import Image

from renderers import carnevale as R
from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.common import PUBLIC, Actor

from .test_render import _state

GM = Actor("gm", gm=True)


def _cold(draw):
    """The same picture with every cache emptied first."""
    R._card.cache_clear()
    R._heading.cache_clear()
    R._die.cache_clear()
    R._roll_frame.cache_clear()
    return draw()


def test_one_more_wound_on_one_model_gives_another_sheet_the_same_as_a_fresh_drawing():
    s = _state()
    before = ENGINE.view_for(s, PUBLIC)
    after = ENGINE.view_for(ENGINE.apply(s, A.Damage("b2", 1, ignore_protection=True), GM).state, PUBLIC)
    assert [m["damage"] for m in after["models"] if m["uid"] == "b2"] == [1]
    first = R.game_sheet(before)                        # warms the cache with every card of `before`
    second = R.game_sheet(after)
    assert second != first
    assert second == _cold(lambda: R.game_sheet(after))
    assert R.game_sheet(before) == _cold(lambda: R.game_sheet(before))


def test_a_step_redraws_only_the_card_that_changed():
    s = _state()
    _cold(lambda: R.game_sheet(ENGINE.view_for(s, PUBLIC)))
    drawn = R._card.cache_info().misses
    assert drawn == 5                                   # 3 Bravi and 2 Deep Ones
    hit = ENGINE.apply(s, A.Damage("a1", 1, ignore_protection=True), GM).state
    R.game_sheet(ENGINE.view_for(hit, PUBLIC))
    assert R._card.cache_info().misses == drawn + 1


def _model():
    return next(m for m in ENGINE.view_for(_state(), "1")["models"] if m["uid"] == "a2")


# One change to each value a card draws (the Harlot carries her Devil's Mask).
CHANGES = {
    "name": lambda m: m.update(name="Rosa"),
    "leader": lambda m: m.update(leader=True),
    "profile": lambda m: m.update(profile="Butcher"),
    "size": lambda m: m.update(size="Large"),
    "attribute": lambda m: m["attributes"].update(DEX=m["attributes"]["DEX"] + 1),
    "ap": lambda m: m.update(ap=m["ap"] - 1),
    "ap_max": lambda m: m.update(ap_max=m["ap_max"] + 1),
    "karma": lambda m: m.update(karma=m["karma"] - 1),
    "karma_max": lambda m: m.update(karma_max=m["karma_max"] + 1),
    "command": lambda m: m.update(command=1, command_max=2),
    "damage": lambda m: m.update(damage=m["damage"] + 1),
    "life_left": lambda m: m.update(life_left=m["life_left"] - 1),
    "life_track": lambda m: m.update(life_track=[*m["life_track"], -3]),
    "threshold": lambda m: m.update(thresholds=[*m["thresholds"], 0]),
    "pain": lambda m: m.update(pain_penalty=1),
    "fallen": lambda m: m.update(fallen=True),
    "stunned": lambda m: m.update(stunned=True),
    "at_ready": lambda m: m.update(at_ready="melee"),
    "hidden": lambda m: m.update(hidden=True),
    "reserve": lambda m: m.update(on_table=False),
    "carrying": lambda m: m.update(carrying="fragment"),
    "weapon jammed": lambda m: m["weapons"][0].update(jammed=True),
    "weapon unloaded": lambda m: m["weapons"][0].update(loaded=False),
    "spells": lambda m: m.update(spells=["Blessing"]),
    "magic item hidden": lambda m: m.update(magic_item="hidden"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_drawn_value_is_in_the_card_key_and_changes_the_picture(change):
    plain = _model()
    assert plain["weapons"] and plain["magic_item"] == "Devil's Mask"
    changed = copy.deepcopy(plain)
    CHANGES[change](changed)
    assert R.card_face(changed) != R.card_face(plain)
    assert R._card(R.card_face(changed)).tobytes() != R._card(R.card_face(plain)).tobytes()


def test_the_words_are_the_callers_and_a_language_is_part_of_the_key():
    view = ENGINE.view_for(_state(), "1")

    def shouting(key, **params):
        return R.english(key, **params).upper()

    english = R.squad_sheet(view, "1")
    loud = R.squad_sheet(view, "1", words=shouting)
    assert loud != english
    assert R.card_face(view["models"][0], shouting).life_label == "LIFE"
    assert R.card_face(view["models"][0]).life_label == "Life"
    assert R.squad_sheet(view, "1") == english          # the shouted cards never come back in English


def test_the_pictures_are_one_byte_a_pixel_on_the_fixed_palette():
    view = ENGINE.view_for(_state(), PUBLIC)
    roll = {"dice": [10, 7, 2, 1, 8], "ace_flags": [True, True, False, False, True], "aces": 3, "critical": True}
    for png in (R.game_sheet(view), R.squad_sheet(view, "1"), R.roll_image(roll)):
        image = Image.open(io.BytesIO(png))
        assert image.mode == "P"
        assert image.getpalette() == R._palette().getpalette()


def test_a_roll_is_its_dice_whatever_was_drawn_before():
    seven = {"dice": [7, 3], "ace_flags": [True, False], "aces": 1}
    three = {"dice": [3, 7], "ace_flags": [False, True], "aces": 1}
    first = R.roll_image(seven)
    assert R.roll_image(three) != first
    assert R.roll_image(three) == _cold(lambda: R.roll_image(three))
