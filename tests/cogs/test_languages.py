"""/gm language, /gm rules and /help in the reader's language, driven through the cogs."""

import pytest
from discord import app_commands

from cogs.host import systems
from tests.cogs.test_framework import start_duel
from tests.support.fakes import click


async def test_gm_language_sets_the_servers_language_and_public_messages_follow_it(bot, world):
    gm = bot.get_cog("GMCog")
    owner = world.users[1]
    await gm.language.callback(gm, world.interaction(owner, world.channels[10]), language="it")
    assert (await bot.store.settings(1)).locale == "it"
    reply = world.ephemeral(owner)[-1].content
    assert reply.startswith("I messaggi pubblici e le immagini delle partite su questo server ora sono in Italiano.")
    # Public messages of a game follow the server's language, whoever clicks: Alice's client is English.
    # (Bruno's DMs are closed and Alice lets him start: the table is told; a clicker with closed DMs
    # would get the decision with her private reply instead)
    world.users[3].dm_closed = True
    await start_duel(world)
    await click(world, next(m for m in world.public() if m.view), world.users[2], index=1)
    notice = world.said().split("\n")[-1]
    assert notice == ("<@3>: non sono riuscito a scriverti in DM. La tua mano e le tue decisioni private sono "
                      "in `/mano` (lo vedi solo tu).")


async def test_gm_language_server_default_follows_the_guild_locale(bot, world):
    gm = bot.get_cog("GMCog")
    await bot.store.update_settings(1, locale="it")
    interaction = world.interaction(world.users[1], world.channels[10])
    interaction.guild_locale = "es-ES"
    await gm.language.callback(gm, interaction, language="default")
    assert (await bot.store.settings(1)).locale is None
    assert world.ephemeral(world.users[1])[-1].content.startswith(
        "Los mensajes públicos de las partidas ahora siguen el idioma del servidor (su ajuste de Discord, ahora Español).")


async def test_gm_language_is_for_gms_only_and_offers_four_choices(bot, world):
    gm = bot.get_cog("GMCog")
    with pytest.raises(app_commands.AppCommandError):
        await gm.language.callback(gm, world.interaction(world.users[2], world.channels[10]), language="es")
    assert (await bot.store.settings(1)).locale is None
    choices = gm.language._params["language"].choices
    assert [(c.name, c.value) for c in choices] == [("English", "en"), ("Italiano", "it"), ("Español", "es"),
                                                    ("server default", "default")]


@pytest.mark.parametrize("locale, header, default_word, sample", [
    ("en-US", "House rules for **Carnival Zombie 2nd Edition**", "default",
     "• `barghest_bonus_mode` = `\"once\"` (default `\"once\"`): The Barghest's bonus: once"),
    ("it", "Regole della casa per **Carnival Zombie 2ª Edizione**", "predefinito",
     "• `barghest_bonus_mode` = `\"once\"` (predefinito `\"once\"`): Il bonus del Barghest: once"),
    ("es-419", "Reglas de la casa de **Carnival Zombie 2ª Edición**", "por defecto",
     "• `barghest_bonus_mode` = `\"once\"` (por defecto `\"once\"`): El bonificador del Barghest: once"),
])
async def test_gm_rules_explains_every_house_rule_in_the_readers_language(bot, world, locale, header, default_word,
                                                                          sample):
    gm = bot.get_cog("GMCog")
    await bot.store.set_house_rule(1, "carnival_zombie", "battle_focus", True)
    await gm.rules.callback(gm, world.interaction(world.users[2], world.channels[10], locale=locale),
                            game="carnival_zombie")
    text = "\n".join(m.content for m in world.ephemeral(world.users[2]))
    lines = text.split("\n")
    assert lines[0].startswith(header)
    rules = systems.SYSTEMS["carnival_zombie"].house_rules
    assert len(lines) == 1 + len(rules) == 16     # 13 of the game's, three of the table's
    assert any(line.startswith(sample) for line in lines)
    assert f"• `battle_focus` = `true` ({default_word} `false`): " in text   # the server's value, then the default
    for line in lines[1:]:
        assert line.split("): ", 1)[1]                                    # an explanation after every value


async def test_gm_rules_for_karmic_fits_in_several_messages(bot, world):
    gm = bot.get_cog("GMCog")
    await gm.rules.callback(gm, world.interaction(world.users[2], world.channels[10], locale="it"), game="karmic")
    sent = world.ephemeral(world.users[2])
    assert len(sent) >= 2 and all(len(m.content) <= 2000 for m in sent)
    lines = "\n".join(m.content for m in sent).split("\n")
    assert len(lines) == 1 + 32                  # with languages_learned_in_play (L789, karmic-rules), deadline_default, web_spectators
    assert ("• `world_deck_size` = `42` (predefinito `42`): Carte del mazzo del mondo del GM: 42 "
            "(un mazzo karma senza jolly) o 52 (un mazzo completo).") in lines


@pytest.mark.parametrize("locale, opening, advance, header", [
    ("en-US", "**How Karmic is played here.**", "• /karmic-advance karma member amount cards how [character] — ",
     "Commands for **Karmic**:"),
    ("it", "**Come si gioca a Karmic qui.**", "• /karmic-progressi karma membro quantità carte come [personaggio] — ",
     "Comandi di **Karmic**:"),
    ("es-ES", "**Cómo se juega a Karmic aquí.**", "• /karmic-avance karma miembro cantidad cartas cómo [personaje] — ",
     "Comandos de **Karmic**:"),
])
async def test_help_for_a_game_opens_with_how_it_is_played_then_lists_every_command(bot, world, locale, opening,
                                                                                   advance, header):
    cog = bot.get_cog("HelpCog")
    await cog.help.callback(cog, world.interaction(world.users[2], world.channels[10], locale=locale), game="karmic")
    sent = world.ephemeral(world.users[2])
    assert all(len(m.content) <= 2000 for m in sent)
    lines = "\n".join(m.content for m in sent).split("\n")
    assert lines[0].startswith(opening)
    assert lines[5] == header                  # three lines on how it is played, two on the rulebook's
    commands = [line for line in lines if line.startswith("• /")]     # tables and the GM's rulings, then the commands
    assert len(commands) == 20                 # 15 /karmic commands and the 5 of /karmic-advance
    assert any(line.startswith(advance) for line in commands)


async def test_help_in_spanish_names_the_commands_as_a_spanish_client_shows_them(bot, world):
    cog = bot.get_cog("HelpCog")
    await cog.help.callback(cog, world.interaction(world.users[2], world.channels[10], locale="es-419"))
    text = "\n".join(m.content for m in world.ephemeral(world.users[2]))
    assert "• /mano — Tu vista privada de la partida de aquí: mano, decisiones secretas, mensajes" in text
    assert "• /gm idioma idioma — El idioma de los mensajes y las imágenes públicas" in text
    assert "`/ayuda juego:Klash! Sangue & Sabbia` los muestra." in text
    assert "/hand" not in text


async def test_gm_rules_setting_autocomplete_explains_each_rule_in_the_readers_language(bot, world):
    from types import SimpleNamespace

    from cogs.gm import setting_choices
    interaction = world.interaction(world.users[2], world.channels[10], locale="it")
    interaction.namespace = SimpleNamespace(game="klash")
    choices = await setting_choices(interaction, "")
    assert [c.value for c in choices] == sorted(systems.SYSTEMS["klash"].house_rules)
    once = next(c for c in choices if c.value == "once_per")
    assert once.name.startswith("once_per: Quando si azzerano i limiti \"una volta per Turno\"")
    assert all(len(c.name) <= 100 for c in choices)
    interaction.namespace = SimpleNamespace(game="karmic")
    assert [c.value for c in await setting_choices(interaction, "joker")] == ["joker_default", "joker_initiative"]
