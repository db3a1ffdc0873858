"""A whole Carnevale game through the cogs in Italian and in Spanish: every question the table is
asked (prompts, buttons, select options) comes from the server's language catalogue.

The engine's narration (events) and most refusals are not converted yet: they still arrive as
English text, which the presenter counts as `legacy`; this test holds the converted part to zero
fallbacks and measures the rest (see the last assertion)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bench.messages import Tally, drive, random_policy
from i18n import present


@pytest.mark.parametrize("locale,words", [("it", ("Fine attivazione", "PA rimasti")),
                                          ("es", ("Terminar la activación", "le quedan"))])
async def test_a_whole_game_asks_in_the_servers_language(bot, world, monkeypatch, locale, words):
    await bot.store.update_settings(1, locale=locale)
    monkeypatch.setattr("cogs.framework.secrets.randbits", lambda bits: 7)
    cog = bot.get_cog("CarnevaleCog")
    rnd = random.Random(7)
    with present.watch() as notes:
        await cog.game_start.callback(cog, world.interaction(world.users[2], world.channels[10]),
                                      opponent=world.users[3], my_faction="The Guild",
                                      their_faction="Doctors of the Ospedale", rounds=2)
        game = await bot.store.active_game(1, 10)
        state = await drive(bot, world, game.id, lambda p: random_policy(rnd, p), Tally("carnevale"),
                            lambda s: f"round {s.round}", lambda s: False)
    assert state.over
    asked = [n for n in notes if n.game == "carnevale" and n.key.startswith(("prompts.", "options."))]
    assert {"prompts.order", "prompts.turn", "prompts.action", "options.action_end", "options.activate"} <= \
        {n.key for n in asked}
    assert sorted({(n.source, n.key) for n in asked if n.fallback or n.language != locale}) == []
    assert sorted({(n.source, n.key) for n in notes if n.source in ("missing", "unresolved", "no_name")}) == []
    labels = [n.text for n in asked if n.key.startswith("options.")]     # button and select labels
    assert labels and not [x for x in labels if "<@" in x]
    said = labels + [n.text for n in asked]
    assert [w for w in words if not any(w in x for x in said)] == []
    # what is left in English: the narration of a not yet converted engine, counted, never missing
    legacy = Counter(n.key.split(".")[0] for n in notes if n.source == "legacy")
    assert set(legacy) <= {"events", "errors"}
