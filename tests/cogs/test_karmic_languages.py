"""A Karmic check with a helper, and an advancement, through the cogs in Italian and in Spanish:
every word from the catalogues (the server's language set with the guild settings, the players'
clients in the same language; `present.watch()` records where each string came from).

Only the converted parts of Karmic are held to zero fallbacks here: checks and advancement. The
combat still speaks English sentences (see `rules/karmic/combat/`), so a combat round is not here.
"""
from __future__ import annotations

from collections import Counter

import discord
import pytest

from i18n import present
from rules.karmic import ENGINE
from tests.cogs.test_karmic import ENRIS_YAML, Attachment, stack_deck
from tests.cogs.test_klash import prompt_message
from tests.support.fakes import click


def _texts(world):
    for m in world.sent:
        yield m.content or ""
        for item in (m.view.children if m.view is not None else []):
            yield getattr(item, "label", None) or ""


@pytest.mark.parametrize("locale,words", [("it", ("Percezione", "SUCCESSO", "aiuta e offre una carta")),
                                          ("es", ("Percepción", "ÉXITO", "ayuda y ofrece una carta"))])
async def test_a_check_with_a_helper_speaks_the_servers_language(bot, world, seed, locale, words):
    await bot.store.update_settings(1, locale=locale)
    alice, bruno, gm = world.users[2], world.users[3], world.users[1]
    cog = bot.get_cog("KarmicCog")
    for user, text, name in ((alice, ENRIS_YAML, "enris.yaml"), (bruno, ENRIS_YAML.replace("Enris", "Devon"),
                                                                   "devon.yaml")):
        await cog.character_import.callback(cog, world.interaction(user, world.channels[10], locale=locale),
                                            file=Attachment(name, text))
    await stack_deck(bot, alice.id, "Enris", ["2S", "3H", "4H"])
    await stack_deck(bot, bruno.id, "Devon", ["9S", "3H", "KH"])
    world.sent.clear()
    with present.watch() as notes:
        await cog.check.callback(cog, world.interaction(alice, world.channels[10], locale=locale), skill="tracking",
                                 attribute=discord.app_commands.Choice(name="awareness", value="awareness"),
                                 helper=bruno)
        game = await bot.store.active_game(1, 10)
        prompt = ENGINE.pending(ENGINE.load_state(game.state))[0]
        message = prompt_message(world, game.id, prompt)
        await click(world, message, alice, index=[o.id for o in prompt.options].index("h1:9S"), locale=locale)
        # an advancement step in the same channel once the check is over
        advance = bot.get_cog("KarmicAdvanceCog")
        await advance.advance_effort.callback(
            advance, world.interaction(gm, world.channels[10], locale=locale), member=alice,
            effort=discord.app_commands.Choice(name="hard", value="hard"), skills="tracking, tracking")
    assert not (await bot.store.game(game.id)).active
    fallbacks = Counter((n.source, n.key, n.game) for n in notes if n.fallback)
    assert sorted(fallbacks.items()) == [], sorted(fallbacks.items())
    assert sorted({n.key for n in notes if n.language != locale}) == []
    kinds = {n.key for n in notes if n.game == "karmic"}
    assert {"events.check_opened", "events.helper", "events.check_total", "events.check_result", "prompts.play",
            "options.helper_card", "events.advance_effort", "events.advance_draw"} <= kinds
    public = world.public_text()
    assert all(w in public for w in words), public
    assert "<@" not in " ".join(t for m in world.sent for t in _texts_labels(m))


def _texts_labels(message):
    for item in (message.view.children if message.view is not None else []):
        yield getattr(item, "label", None) or ""
