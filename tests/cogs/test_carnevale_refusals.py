"""Carnevale's refusals are codes worded by the catalogue (errors.*, the squad's reasons as terms.squad_*):
one of each group read in Italian, through the cogs where a player meets it, else through the presenter."""
import pytest

from i18n.present import Presenter
from rules.carnevale import campaign as C
from rules.carnevale import load_sample_pack
from rules.carnevale import tables
from rules.carnevale.squad import Squad, SquadMember, remove_member, sample_squad
from rules.common import IllegalAction

from .test_carnevale import RASHAAR, build, call, cog_of, last_private

IT = Presenter("it", "carnevale")


def italian(error: IllegalAction) -> str:
    return IT.error(error)


async def test_squad_refusals_reach_an_italian_player_in_italian(bot, world):
    world.locale = "it"
    cog = cog_of(bot)
    await build(world, 2, "Piccola", "The Rashaar", [("Magi-Rashaar", {"leader": True}), ("Ugdru-Rashaar", {}),
                                                     ("Hybrid", {}), ("Hybrid", {})], points=150)
    await call(world, cog.squad_add, 2, squad="Piccola", profile="Hybrid")
    assert last_private(world, 2) == ("Impossibile aggiungere Hybrid: la squadra costa 173 punti, oltre il limite "
                                      "di 150 di 23.")
    await call(world, cog.squad_add, 2, squad="Piccola", profile="Butcher")
    assert last_private(world, 2) == ("Impossibile aggiungere Butcher: Butcher appartiene a The Guild: le squadre "
                                      "sono di una sola affiliazione (The Rashaar), la squadra costa 177 punti, oltre "
                                      "il limite di 150 di 27.")
    # a squad not ready yet says why in the summary, in Italian too
    await build(world, 2, "Senza capo", "The Rashaar", [("Hybrid", {})])
    assert "Non ancora pronta a giocare: nomina esattamente un Capo (un modello con Comando)" in last_private(world, 2)
    # a game with a squad over its points is refused, naming whose squad
    data = await bot.store.character(1, 2, "carnevale", "Piccola")
    data["squad"]["points_limit"] = 100
    await bot.store.save_character(1, 2, "carnevale", "Piccola", data)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Piccola")
    assert last_private(world, 2) == ("La squadra di <@2> non può scendere in campo: la squadra costa 147 punti, "
                                      "oltre il limite di 100 di 47.")
    assert await bot.store.active_game(1, 10) is None


async def test_campaign_refusals_reach_an_italian_player_in_italian(bot, world):
    world.locale = "it"
    cog = cog_of(bot)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    await call(world, cog.campaign_record, 2, squad="Rashaar", vp=7, won=False)
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=50, what="un Moschetto")
    assert last_private(world, 2) == "un Moschetto costa 50 Punti Campagna; la banca ne ha 7."
    await call(world, cog.campaign_bonus, 2, squad="Rashaar", vp=5, members="Magi-Rashaar")
    assert last_private(world, 2) == "Magi-Rashaar è un Capo: il tiro bonus è per chi non è Capo."
    await call(world, cog.campaign_experience, 2, squad="Rashaar", member="Nessuno")
    assert last_private(world, 2) == "Non c'è nessun 'Nessuno' in Rashaar."


def test_the_other_refusals_read_in_italian():
    pack = load_sample_pack()
    with pytest.raises(IllegalAction) as refused:
        sample_squad(pack, "I Pirati")
    assert italian(refused.value).startswith("'I Pirati' non è una fazione di Carnevale SAMPLE pack: ")
    with pytest.raises(IllegalAction) as refused:
        remove_member(Squad("Bravi", "The Guild", members=[SquadMember("Harlot")]), 4)
    assert italian(refused.value) == "Non c'è un modello numero 4 in Bravi."
    with pytest.raises(IllegalAction) as refused:
        tables.cover_penalty("enorme", "light")
    assert italian(refused.value) == ("La copertura è nessuna, media o grande; la robustezza nessuna, leggera, "
                                      "robusta o pesante.")
    with pytest.raises(IllegalAction) as refused:
        tables.reinforcement_needed("paracadute")
    assert italian(refused.value) == "I rinforzi entrano per assalto, aggiramento o infiltrazione."
    with pytest.raises(IllegalAction) as refused:
        C.adventure("the_moon")
    assert italian(refused.value) == "Non esiste l'avventura 'the_moon'."
