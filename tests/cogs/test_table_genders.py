"""A table's own names agree too (issue 10): a Karmic character whose sheet says `gender: f`, and a
Carnevale model a player named, which agrees as its profile does, read in the feminine in Italian and
Spanish wherever the framework's presenter words the game (its `meta["genders"]`)."""
from __future__ import annotations

import pytest

from rules.common import Event
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
