"""A table's own names agree too (issue 10): a Karmic character whose sheet says `gender: f`, and a
Carnevale model a player named, which agrees as its profile does, read in the feminine in Italian and
Spanish wherever the framework's presenter words the game (its `meta["genders"]`)."""
from __future__ import annotations

import pytest

from rules.carnevale import ENGINE
from rules.common import Choose, Event
from tests.cogs.test_carnevale import GUILD, RASHAAR, build, call
from tests.cogs.test_carnevale import cog_of as carnevale
from tests.cogs.test_karmic import DEVON_YAML, active_game, cog_of, import_sheet, table_text

LUCIA_YAML = DEVON_YAML.replace("name: Devon", "name: Lucia\ngender: f")


# ---------------------------------------------------------------------------- Karmic
@pytest.mark.parametrize("locale,text", [
    ("it", "Lucia è colta di sorpresa: Devon ha un attacco che non si può difendere."),
    ("es", "Lucia es tomada por sorpresa: Devon tiene un ataque que no se puede defender."),
])
async def test_a_sheet_character_who_is_a_woman_is_surprised_in_the_feminine(bot, world, seed, locale, text):
    world.locale = locale
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, gm)
    await import_sheet(bot, world, alice, LUCIA_YAML, "lucia.yaml")
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(gm, world.channels[10]), opponent=alice,
                                    opponent_character="Lucia", surprised="Lucia")
    game = await active_game(bot)
    assert game.meta["genders"] == {"Lucia": "f"}
    assert text in table_text(world)


@pytest.mark.parametrize("yaml,reply", [
    (LUCIA_YAML, "✅ **Lucia** è tua su questo server"),
    (DEVON_YAML, "✅ **Devon** è tuo su questo server"),
])
async def test_the_import_reply_agrees_with_the_sheets_gender(bot, world, yaml, reply):
    world.locale = "it"
    await import_sheet(bot, world, world.users[2], yaml, "sheet.yaml")
    assert world.ephemeral(world.users[2])[-1].content.startswith(reply)


async def test_a_gm_sheet_says_a_gender_per_language_for_a_word_of_two_genders(bot, world, seed):
    """ "Guardia" is feminine in Italian and a man in Spanish ("el guardia")."""
    gm = world.users[1]
    await import_sheet(bot, world, gm)
    await import_sheet(bot, world, gm, "name: {en: Guard, it: Guardia, es: Guardia}\nnpc: true\n"
                       "gender: {it: f, es: m}\nskills: {dagger: 1}\nweapons: [Dagger]\n", "guard.yaml", gm_sheet=True)
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(gm, world.channels[10]), opponents="Guard",
                                    surprised="Guard", bot_plays_npcs=True)
    game = await active_game(bot)
    surprise = Event("surprise", {"name": {"text": {"en": "Guard", "it": "Guardia", "es": "Guardia"}}, "by": "Devon"})
    assert [bot.host.presenter(game, lang).event(surprise).split(":")[0] for lang in ("it", "es")] == [
        "Guardia è colta di sorpresa", "Guardia es tomado por sorpresa"]


@pytest.mark.parametrize("yaml,locale,line", [
    (LUCIA_YAML, "it", "Genere (nei testi in italiano e spagnolo): femminile"),
    (LUCIA_YAML, "en", "Gender (Italian and Spanish text): feminine"),
    (DEVON_YAML, "es", "Género (en los textos en italiano y español): masculino; `gender: f` en la hoja lo hace femenino"),
    (LUCIA_YAML.replace("gender: f", "gender: {it: f, es: m}"), "es",
     "Género (en los textos en italiano y español): femenino en italiano, masculino en español"),
])
async def test_character_show_says_which_gender_the_text_agrees_with(bot, world, yaml, locale, line):
    """So a GM reading "Lucia è colto" sees why, and what to put on the sheet."""
    world.locale = locale
    alice = world.users[2]
    await import_sheet(bot, world, alice, yaml, "sheet.yaml")
    cog = cog_of(bot)
    await cog.character_show.callback(cog, world.interaction(alice, world.channels[10]))
    assert line in world.ephemeral(alice)[-1].content.splitlines()


# ---------------------------------------------------------------------------- Carnevale
LUCREZIAS_GUILD = [(p, {**extra, "name": "Lucrezia"} if p == "Harlot" else extra) for p, extra in GUILD]


async def lucrezias_game(world, monkeypatch) -> None:
    """An Italian game: the Rashaar (2) against the Guild (3), whose Harlot her player named Lucrezia (b4)."""
    world.locale = "it"
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", LUCREZIAS_GUILD)
    monkeypatch.setattr("cogs.host.gamehost.secrets.randbits", lambda bits: 7)
    await call(world, carnevale(world.bot).game_start, 2, opponent=world.users[3], my_squad="Rashaar",
               their_squad="Guild", deploy_all=True)


def lucrezia(**status) -> dict:
    return {"uid": "b4", "owner": "3", "name": "Lucrezia", "profile": "Harlot", **status}


@pytest.mark.parametrize("lang,harlot,butcher", [
    ("it", " · attiva: Lucrezia (b4)", " · attivo: Beppe (b4)"),
    ("es", " · activa: Lucrezia (b4)", " · activo: Beppe (b4)"),
    ("en", " · active: Lucrezia (b4)", " · active: Beppe (b4)"),
])
def test_the_status_names_the_active_model_in_its_profiles_gender(lang, harlot, butcher):
    from cogs.carnevale import describe
    view = {"phase": "activation", "round": 1, "max_rounds": 5, "turn_player": "3", "active": "b4",
            "models": [lucrezia()], "players": {}}
    beppe = {**view, "models": [{**lucrezia(), "name": "Beppe", "profile": "Butcher"}]}
    assert (describe(view, "3", lang).split("\n")[0].endswith(harlot),
            describe(beppe, "3", lang).split("\n")[0].endswith(butcher)) == (True, True)


@pytest.mark.parametrize("lang,status", [("it", "caduta, stordita"), ("es", "caída, aturdida")])
def test_a_named_models_status_words_agree_with_its_profile(lang, status):
    from cogs.carnevale import _status_words
    assert ", ".join(_status_words(lucrezia(fallen=True, stunned=True), lang)) == status


async def test_a_harlot_her_player_named_lucrezia_is_stunned_in_the_feminine(bot, world, monkeypatch):
    """The engine's events carry only the name: the cog keeps each named model's profile gender in the
    game's meta when the squads are built, and the table reads "Lucrezia è Stordita"."""
    await lucrezias_game(world, monkeypatch)
    game = await bot.store.active_game(1, 10)
    assert game.meta["genders"] == {"Lucrezia": {"it": "f", "es": "f"}}
    stun = Event("stun", {"model": "b4", "name": "Lucrezia", "source": "x", "why": {"term": "stun_melee_critical"}})
    assert [bot.host.presenter(game, lang).event(stun) for lang in ("it", "es")] == [
        "Lucrezia è Stordita (critico in corpo a corpo).", "Lucrezia queda Aturdida (crítico cuerpo a cuerpo)."]
    world.sent.clear()
    await call(world, carnevale(bot).stun, 3, model="b4", source="Low Blow")
    assert "Lucrezia è Stordita" in world.public_text(), world.public_text()
    await call(world, carnevale(bot).damage, 3, model="b4", amount=20)
    choices = await carnevale(bot).model_autocomplete(world.interaction(world.users[3], world.channels[10]), "b4")
    assert [c.name.rpartition(", ")[2] for c in choices] == ["caduta"], [c.name for c in choices]


@pytest.mark.parametrize("lang,line", [
    ("it", "· Lucrezia non è morta: catturata, ora è l'ostaggio di Salvataggio del Prigioniero (senza equipaggiamento)."),
    ("es", "· Lucrezia no ha muerto: capturada, ahora es la rehén de Rescate del Prisionero (sin equipo)."),
])
def test_a_campaign_member_her_player_named_is_taken_hostage_in_the_feminine(lang, line):
    from cogs.carnevale.campaign import campaign_lines
    from rules.carnevale import CampaignRecord
    from rules.carnevale.campaign import CampaignMember, LedgerEntry
    hostage = {"kind": "campaign_hostage", "data": {"member": "Lucrezia"}, "audience": "public"}
    rec = CampaignRecord(player="3", squad="Guild", faction="The Guild",
                         members=[CampaignMember(name="Lucrezia", profile="Harlot")],
                         ledger=[LedgerEntry(number=1, action={}, events=[hostage])])
    assert campaign_lines(rec, {}, lang)[-1] == line


@pytest.mark.parametrize("yaml,reply", [(LUCIA_YAML, "🗑️ Lucia eliminata."), (DEVON_YAML, "🗑️ Devon eliminato.")])
async def test_the_delete_reply_agrees_with_the_sheets_gender(bot, world, yaml, reply):
    world.locale = "it"
    alice = world.users[2]
    await import_sheet(bot, world, alice, yaml, "sheet.yaml")
    name = reply.split()[1]
    cog = cog_of(bot)
    await cog.character_delete.callback(cog, world.interaction(alice, world.channels[10]), name=name.lower())
    assert world.ephemeral(alice)[-1].content == reply.replace(name, name.lower())


async def test_a_refusal_naming_a_model_her_player_named_agrees_with_her(bot, world, monkeypatch):
    await lucrezias_game(world, monkeypatch)
    await call(world, carnevale(bot).damage, 3, model="b4", amount=20)
    state = ENGINE.load_state((await bot.store.active_game(1, 10)).state)
    winner = state.initiative["winner"]                # Guild (3) plays first: her player's Turn
    await bot.host.act(world.interaction(world.users[int(winner)], world.channels[10]),
                       Choose("order-r1", ("me" if winner == "3" else "opponent",)), system="carnevale")
    await call(world, carnevale(bot).activate, 3, model="b4")
    assert world.ephemeral(world.users[3])[-1].content == \
        "Lucrezia non può attivarsi ora (già attivata, caduta o fuori dal tavolo)."


async def test_a_campaign_refusal_naming_a_member_her_player_named_agrees_with_her(bot, world):
    world.locale = "it"
    await build(world, 3, "Guild", "The Guild", LUCREZIAS_GUILD)
    await call(world, carnevale(bot).campaign_start, 3, squad="Guild")
    data = await bot.store.character(1, 3, "carnevale", "Guild")
    for member in data["campaign"]["members"]:
        member["dead"] = member["name"] == "Lucrezia"
    await bot.store.save_character(1, 3, "carnevale", "Guild", data)
    await call(world, carnevale(bot).campaign_injury, 3, squad="Guild", member="Lucrezia")
    assert world.ephemeral(world.users[3])[-1].content == "Lucrezia è morta e ha lasciato la campagna."
