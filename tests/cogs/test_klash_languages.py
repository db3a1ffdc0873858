"""A whole Klash! match through the cogs in Italian and in Spanish: every word from the catalogues.

The server's language is set with the guild settings (`/gm language`), the players' clients speak
the same language; the presenter and `t()` report every string they make (`present.watch()`).
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from content import sample_pack
from i18n import present
from rules.klash import ENGINE
from tests.cogs.test_klash import play_match
from tests.support.reading import said

RAW_MODEL = re.compile(r"\bm\d+\b")


@pytest.mark.parametrize("locale,words", [("it", ("Clessidra", "Asta dei Gladiatori")),
                                          ("es", ("Reloj de arena", "Subasta de Gladiadores")),
                                          ("en", ("Hourglass", "Gladiator Auction"))])
async def test_a_whole_match_speaks_the_servers_language(bot, world, seed, locale, words):
    await bot.store.update_settings(1, locale=locale)
    rnd = random.Random(7)
    with present.watch() as notes:
        _, state = await play_match(bot, world, seed, rnd, locale=locale)
    assert state.over
    fallbacks = Counter((n.source, n.key, n.game) for n in notes if n.fallback)
    assert sorted(fallbacks.items()) == [], sorted(fallbacks.items())
    # every line the presenter and t() made is in the server's language, none in English
    assert sorted({n.key for n in notes if n.language != locale}) == []
    kinds = {n.key for n in notes if n.game == "klash"}
    assert {"events.hourglass", "events.roll", "prompts.act", "options.assault", "events.game_over"} <= kinds
    texts = said(world)
    assert not [x for x in texts if RAW_MODEL.search(x)]                       # no model id anywhere
    assert not [x for x in texts if "<@" in x and x not in [m.content for m in world.sent]]   # labels: names
    public = world.public_text()
    assert all(w in public for w in words)


@pytest.mark.parametrize("locale,words", [("it", ("Clessidra 1/8", "Orco Furente 1", "Stordito")),
                                          ("es", ("Reloj de arena 1/8", "Orco Furioso 1", "Aturdido"))])
async def test_game_status_and_hand_draw_and_say_the_klash_table_in_the_readers_language(bot, world, locale, words):
    """`/game status` (public: the server's language) draws the arena with its words and models'
    names in that language and says the table in it; `/hand` (private) in the reader's own."""
    await bot.store.update_settings(1, locale=locale)
    state = ENGINE.new_skirmish(["2", "3"], {"2": [("orc", 20, 60)], "3": [("dwarf", 100, 60)]}, seed=3,
                                options={"pack": sample_pack("klash")})
    state.model("m2").stunned = True
    await bot.store.create_game(1, 10, "klash", ["2", "3"], ENGINE.dump_state(state), 2)
    cog = bot.get_cog("GameCog")
    with present.watch() as notes:
        await cog.status.callback(cog, world.interaction(world.users[3], world.channels[10]))   # client in English
        public = world.public_text()
        await bot.get_cog("HandCog").hand.callback(bot.get_cog("HandCog"), world.interaction(world.users[2], world.channels[10], locale=locale))
    drawn = {n.key for n in notes if n.key.startswith(("words.img_", "terms.model"))}
    assert {"words.img_legend", "words.img_hourglass", "terms.model_numbered"} <= drawn, drawn
    assert sorted((n.source, n.key) for n in notes if n.fallback) == []
    assert sorted({n.key for n in notes if n.language != locale}) == []
    assert all(w in public for w in words), public
