"""A guild pack's profile says its grammatical gender (issue 10): the catalogues know only the sample
pack's words, so a Carnevale pack's `gender: f` (or one per language) is how its Strega reads "Stordita"."""
from __future__ import annotations

import pytest

from cogs.carnevale.base import named_genders
from i18n.present import Presenter
from rules.carnevale import load_pack_text
from rules.common import PackError
from tests.cogs.test_carnevale import call, cog_of

COVEN = """
factions:
  - name: Coven
    classes:
      - name: Strega
        gender: f
        cost: 30
        ap: 3
        command: 2
        attributes: {MOV: 4, COM: 3, DEX: 4, SHO: 3, MIN: 6, PRO: 3}
        life_track: [0, -1, -2]
      - name: Guardia
        gender: {it: f, es: m}
        cost: 20
        ap: 3
        attributes: {MOV: 4, COM: 4, DEX: 4, SHO: 3, MIN: 4, PRO: 3}
        life_track: [0, -1]
      - name: Bravo
        cost: 15
        ap: 3
        attributes: {MOV: 4, COM: 3, DEX: 4, SHO: 3, MIN: 4, PRO: 2}
        life_track: [0, -1]
"""


def test_a_pack_profile_says_its_gender_in_every_language_or_one_per_language():
    pack = load_pack_text(COVEN, "coven.yaml")
    assert pack.genders == {"Strega": "f", "Guardia": {"it": "f", "es": "m"}}


def test_a_gender_that_is_neither_f_nor_m_is_refused():
    with pytest.raises(PackError):
        load_pack_text(COVEN.replace("gender: f", "gender: x"), "coven.yaml")


def test_a_named_model_agrees_as_its_pack_profile_says():
    genders = named_genders([("Morgana", "Strega"), ("Beppe", "Bravo"), ("Pia", "Guardia")],
                            {"Strega": "f", "Guardia": {"it": "f", "es": "m"}})
    assert genders == {"Strega": "f", "Guardia": {"it": "f", "es": "m"}, "Morgana": {"it": "f", "es": "f"},
                       "Beppe": {"it": "m", "es": "m"}, "Pia": {"it": "f", "es": "m"}}
    it, es = (Presenter(lang, "carnevale", genders=genders) for lang in ("it", "es"))
    assert [it.gender(w) for w in ("Strega", "Guardia", "Morgana", "Bravo")] == ["f", "f", "f", "m"]
    assert [es.gender(w) for w in ("Strega", "Guardia", "Pia")] == ["f", "m", "m"]


async def test_a_game_of_a_guild_pack_keeps_its_profiles_genders(bot, world):
    await bot.store.save_pack(1, "carnevale", "coven", COVEN, 1)
    cog = cog_of(bot)
    for user, squad in ((2, "Witches"), (3, "Others")):
        await call(world, cog.squad_create, user, name=squad, faction="Coven", points=100, pack="coven")
        await call(world, cog.squad_add, user, squad=squad, profile="Strega", leader=True,
                   **({"name": "Morgana"} if user == 2 else {}))
        await call(world, cog.squad_add, user, squad=squad, profile="Guardia")
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Witches", their_squad="Others",
               deploy_all=True)
    game = await bot.store.active_game(1, 10)
    assert game is not None, world.ephemeral(world.users[2])[-1].content
    assert game.meta["genders"] == {"Strega": "f", "Guardia": {"it": "f", "es": "m"},
                                    "Morgana": {"it": "f", "es": "f"}}
    assert [bot.host.presenter(game, "it").gender(w) for w in ("Strega", "Morgana", "Guardia")] == ["f", "f", "f"]


async def test_the_campaign_ledger_agrees_as_the_squads_pack_says(bot, world):
    """The ledger's lines, like a game's, know a guild pack's profile genders (kept when the campaign
    started): the catalogues alone would make an unnamed Strega masculine."""
    await bot.store.save_pack(1, "carnevale", "coven", COVEN, 1)
    cog = cog_of(bot)
    await call(world, cog.squad_create, 2, name="Witches", faction="Coven", points=100, pack="coven")
    await call(world, cog.squad_add, 2, squad="Witches", profile="Strega", leader=True)
    await call(world, cog.squad_add, 2, squad="Witches", profile="Bravo")
    await call(world, cog.campaign_start, 2, squad="Witches")
    data = await bot.store.character(1, 2, "carnevale", "Witches")
    assert data["genders"] == {"Strega": "f", "Guardia": {"it": "f", "es": "m"}}
    world.locale = "it"
    await call(world, cog.campaign_promote, 2, squad="Witches", member="Strega")
    await call(world, cog.campaign_promote, 2, squad="Witches", member="Bravo")
    assert world.public_text().splitlines()[1::2] == [
        "• Strega è promossa: +2 Comando (4).", "• Bravo è promosso: ottiene Comando (3) e diventa Capo (+10 punti)."]
    await call(world, cog.campaign_show, 2, squad="Witches")
    shown = world.ephemeral(world.users[2])[-1].content
    assert "· Strega è promossa: +2 Comando (4)." in shown, shown
