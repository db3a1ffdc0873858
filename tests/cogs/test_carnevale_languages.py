"""A whole Carnevale game through the cogs in English, Italian and Spanish: every word the table
reads (the narration of each roll and blow, the prompts, the buttons) comes from the server's
language catalogue. Seeded so that a melee attack fumbles and its target takes the free Attack of
Opportunity the Fumble grants (digest §3.1)."""
from __future__ import annotations

import random
import re

import pytest

from bench.messages import Tally, drive, random_policy
from i18n import present

SEED = 4           # the seed of the game and of the clicks: a Fumble, then its Attack of Opportunity
# a model's id is shown only as its label's tag, "Pulcinella (a3)" (two Pulcinellas are told apart by it)
RAW = re.compile(r"\{[a-z_]+\}|\b(?:events|terms|prompts|options|errors)\.[a-z_]+|\{'term'|(?<!\()\b[ab]\d{1,2}\b(?!\))")


@pytest.mark.parametrize("locale,words", [("en", ("End activation", "AP left", "Attack of Opportunity")),
                                          ("it", ("Fine attivazione", "ne ha ancora", "Attacco di Opportunità")),
                                          ("es", ("Terminar la activación", "ahora tiene", "Ataque de Oportunidad"))])
async def test_a_whole_game_speaks_the_servers_language(bot, world, monkeypatch, locale, words):
    await bot.store.update_settings(1, locale=locale)
    monkeypatch.setattr("cogs.framework.secrets.randbits", lambda bits: SEED)
    cog = bot.get_cog("CarnevaleCog")
    rnd = random.Random(SEED)
    taken: list[str] = []

    def policy(prompt):
        if prompt.kind == "opportunity":        # the Fumble's free attack is always taken
            taken.append(prompt.id)
            return ["take"]
        return random_policy(rnd, prompt)

    tally = Tally("carnevale")
    with present.watch() as notes:
        await cog.game_start.callback(cog, world.interaction(world.users[2], world.channels[10]),
                                      opponent=world.users[3], my_faction="The Guild",
                                      their_faction="Doctors of the Ospedale", rounds=2)
        game = await bot.store.active_game(1, 10)
        state = await drive(bot, world, game.id, policy, tally, lambda s: f"round {s.round}", lambda s: False)
    assert state.over and len(taken) == 1
    kinds = {n.key for n in notes if n.game == "carnevale"}
    assert {"events.opportunity", "events.opportunity_attack", "events.roll", "events.attack", "events.action",
            "events.initiative", "events.game_over", "prompts.opportunity", "options.opportunity_take"} <= kinds
    # zero fallbacks: no English in place of the reader's language, no legacy text, no missing key,
    # no unfilled placeholder, no player without a name
    assert sorted({(n.source, n.key) for n in notes if n.fallback}) == []
    # (a DM is worded in its reader's own language: the Agendas reach these English-speaking users in English)
    # zero raw ids in what the table reads: no model uid, no catalogue key, no placeholder
    public = [m for m in world.sent if m.public and m.content]
    assert public and [m.content for m in public if RAW.search(m.content)] == []
    read = " ".join(m.content for m in world.sent if m.content) + " ".join(n.text for n in notes)
    assert [w for w in words if w not in read] == []
    # within the framework's budget: at most one public message for two decisions
    assert sum(1 for m in world.sent if m.public) <= tally.decisions // 2
