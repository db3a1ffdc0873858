"""Smoke tests for the Carnevale squad sheet and roll images."""
import io

from PIL import Image

from renderers import carnevale as R
from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.carnevale.dice import result_from_dice
from rules.carnevale.squad import Squad, SquadMember
from rules.common import PUBLIC, Actor


def _state():
    a = Squad("Bravi", "The Guild", 250, [SquadMember("Capodecime", leader=True),
                                         SquadMember("Harlot", equipment=["Devil's Mask"]), SquadMember("Butcher")])
    b = Squad("Deep Ones", "The Rashaar", 250, [SquadMember("Magi-Rashaar", leader=True, spells=["Blessing"]),
                                               SquadMember("Ugdru-Rashaar")])
    s = ENGINE.new_game(["1", "2"], {"squads": {"1": a.to_dict(), "2": b.to_dict()}, "deploy_all": True}, seed=2)
    s = ENGINE.apply(s, A.Damage("a3", 8, ignore_protection=True), Actor("gm", gm=True)).state
    return s


def test_squad_sheet_png():
    s = _state()
    png = R.squad_sheet(ENGINE.view_for(s, "1"), "1")
    img = Image.open(io.BytesIO(png))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and img.size[0] == 784 and img.size[1] > 400
    assert R.squad_sheet(ENGINE.view_for(s, PUBLIC), "1") != png      # the magic item is hidden publicly
    assert R.squad_sheet(ENGINE.view_for(s, PUBLIC)) [:4] == b"\x89PNG"


def test_roll_image_png():
    r = result_from_dice([10, 7, 2, 1], 7).to_public()
    png = R.roll_image(r)
    assert Image.open(io.BytesIO(png)).size == (420, 120)
    assert R.roll_image({"dice": [], "aces": 0})[:4] == b"\x89PNG"


def test_game_sheet_puts_the_squads_side_by_side():
    s = _state()
    png = R.game_sheet(ENGINE.view_for(s, PUBLIC))
    img = Image.open(io.BytesIO(png))
    one = Image.open(io.BytesIO(R.squad_sheet(ENGINE.view_for(s, PUBLIC), "1")))
    assert img.size == (2 * 784 + 12, one.size[1])          # Bravi (3 models) is the taller column
    from rules.carnevale import load_sample_pack, squad_view
    pack = load_sample_pack()
    single = squad_view(pack, Squad("Bravi", "The Guild", 250, [SquadMember("Capodecime", leader=True)]), "u1")
    assert Image.open(io.BytesIO(R.game_sheet(single))).size[0] == 784


def test_a_squad_sheet_outside_a_game_shows_no_round():
    from rules.carnevale import load_sample_pack, squad_view
    squad = Squad("Bravi", "The Guild", 250, [SquadMember("Capodecime", leader=True)])
    img = Image.open(io.BytesIO(R.squad_sheet(squad_view(load_sample_pack(), squad)))).convert("L")
    corner = img.crop((img.width - 160, 8, img.width - R.MARGIN, 34))      # where a game's "Round 2/5" goes
    assert corner.getextrema()[0] == corner.getextrema()[1]                 # one colour: nothing drawn
    in_game = Image.open(io.BytesIO(R.squad_sheet(ENGINE.view_for(_state(), "1"), "1"))).convert("L")
    corner = in_game.crop((in_game.width - 160, 8, in_game.width - R.MARGIN, 34))
    assert corner.getextrema()[0] != corner.getextrema()[1]
