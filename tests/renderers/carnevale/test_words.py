"""The words inside the Carnevale pictures come from the presenter, in the reader's language: the
catalogues' `words.image_*` in en, it and es, the English one the renderer's own defaults."""
import copy
import string
from pathlib import Path

import pytest
import yaml

from i18n.present import Presenter
from renderers import carnevale as R
from rules.carnevale import ENGINE
from rules.common import PUBLIC

from .test_render import _state

I18N = Path(__file__).resolve().parents[3] / "i18n"


def image_words(lang: str) -> dict[str, str]:
    words = yaml.safe_load((I18N / f"{lang}.carnevale.yaml").read_text(encoding="utf-8"))["words"]
    out = {}
    for key, value in words.items():
        if not key.startswith("image_"):
            continue
        if isinstance(value, dict):          # plural forms: `one` is the renderer's `<key>_one`
            out[key[6:] + "_one"], out[key[6:]] = value["one"], value["other"]
        else:
            out[key[6:]] = value
    return out


def fields(text: str) -> list[str]:
    """The parameters a word shows (not one only chosen by, as `{name:CADUTO|CADUTA}` agrees with it)."""
    return sorted({name for _, name, spec, _ in string.Formatter().parse(text) if name and "|" not in (spec or "")})


def test_the_english_catalogue_is_the_renderers_english():
    assert image_words("en") == R.WORDS


@pytest.mark.parametrize("lang", ["it", "es"])
def test_italian_and_spanish_have_every_word_with_the_same_placeholders(lang):
    other = image_words(lang)
    assert sorted(other) == sorted(R.WORDS)
    assert {k: fields(v) for k, v in other.items()} == {k: fields(v) for k, v in R.WORDS.items()}


def _everything(view):
    """A view whose first card shows every badge, a weapon in each state, spells and a hidden item."""
    view = copy.deepcopy(view)
    m = view["models"][0]
    m.update(fallen=False, active=True, stunned=True, at_ready="shooting", hidden=True, drowning=True, fleeing=True,
             petrified=True, in_darkness=True, in_water=True, carrying="fragment", pain_penalty=2,
             spells=["Blessing"], cast_locked=True, magic_item="hidden")
    m["weapons"] = [dict(m["weapons"][0], name=name, **state) for name, state in (
        ("Sword", {"destroyed": True}), ("Pistol", {"jammed": True}), ("Musket", {"loaded": False}))]
    return view


@pytest.mark.parametrize("lang, life, fumble", [("it", "Vita", "0 Successi a difficoltà 7 — FALLIMENTO CRITICO"),
                                                ("es", "Vida", "0 Éxitos a dificultad 7 — PIFIA"),
                                                ("en", "Life", "0 Aces at difficulty 7 — FUMBLE")])
def test_the_pictures_speak_the_readers_language_with_no_fallback(lang, life, fumble):
    say = Presenter(lang, game="carnevale")
    words = R.presenter_words(say)
    view = _everything(ENGINE.view_for(_state(), PUBLIC))
    shown = R.card_face(view["models"][0], words)
    assert shown.life_label == life
    R.game_sheet(view, words)
    R.squad_sheet(view, "1", words)
    R.squad_sheet(ENGINE.view_for(_state(), "1"), "1", words)       # the owner sees the item's name
    R.roll_image({"dice": [1, 3], "ace_flags": [False, False], "aces": 0, "fumble": True}, words)
    R.roll_image({"dice": [10, 8], "ace_flags": [True, True], "aces": 2, "critical": True}, words)
    R.roll_image({"dice": [4, 8], "ace_flags": [False, True], "aces": 1}, words)
    R.roll_image({"dice": [], "aces": 0}, words)
    assert words("fumble", aces=words("aces", n=0, difficulty=7)) == fumble
    assert say.fallbacks == 0, say.counts


def test_the_italian_sheet_is_not_the_english_one():
    view = ENGINE.view_for(_state(), PUBLIC)
    italian = R.presenter_words(Presenter("it", game="carnevale"))
    assert R.game_sheet(view, italian) != R.game_sheet(view)
    face = R.card_face(view["models"][0], italian)
    assert (face.ap, face.attributes.split()[4], face.subtitle.split(" · ")[-1]) == ("PA 3/3", "DES", "Media")
    assert R.card_face(view["models"][0]).ap == "AP 3/3"


def test_a_roll_heading_explains_the_pool_above_the_dice():
    from io import BytesIO

    from PIL import Image
    roll = {"dice": [7, 3], "ace_flags": [True, False], "aces": 1}
    plain = Image.open(BytesIO(R.roll_image(roll)))
    explained = Image.open(BytesIO(R.roll_image(roll, heading="SHO 4 −1 range, −2 cover = 1d10")))
    assert (plain.size, explained.size) == ((420, 120), (420, 120 + R.HEADING_H))
    assert explained.convert("RGB").crop((0, R.HEADING_H, 420, 120 + R.HEADING_H)).tobytes() == \
        plain.convert("RGB").tobytes()                  # the same dice and result, moved down


async def test_game_status_draws_the_sheet_in_the_channels_language(bot):
    from cogs.host import systems
    from i18n import present

    render = systems.get("carnevale").render       # the loaded cog's (importing cogs.carnevale here would
    view = ENGINE.view_for(_state(), PUBLIC)        # leave a stale module behind for the cog tests' spies)
    reading = present.READER.set(Presenter("es", game="carnevale"))
    try:
        spanish = render(view)
    finally:
        present.READER.reset(reading)
    assert spanish == R.game_sheet(view, R.presenter_words(Presenter("es", game="carnevale")))
    assert render(view) == R.game_sheet(view) != spanish          # no reader: English


def test_pain_reads_as_dice_lost_in_every_language():
    m = dict(ENGINE.view_for(_state(), PUBLIC)["models"][0], pain_penalty=-2, life_left=4)
    said = {lang: R.card_face(m, R.presenter_words(Presenter(lang, game="carnevale"))).life_text
            for lang in ("en", "it", "es")}
    assert said == {"en": "4/9 LP   pain: −2 dice", "it": "4/9 PV   dolore: 2 dadi in meno",
                    "es": "4/9 PV   dolor: 2 dados menos"}
    assert R.card_face(dict(m, pain_penalty=-1)).life_text == "4/9 LP   pain: −1 die"
