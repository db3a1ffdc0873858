"""A whole Carnevale game through the cogs in English, Italian and Spanish: every word the table
reads (the narration of each roll and blow, the prompts, the buttons) comes from the server's
language catalogue. Seeded so that a melee attack fumbles and its target takes the free Attack of
Opportunity the Fumble grants (digest §3.1)."""
from __future__ import annotations

import random
import re

import pytest

import i18n
from bench.messages import Tally, drive, random_policy
from i18n import present
from i18n.present import Presenter
from rules.carnevale import ENGINE
from rules.carnevale.tables import AGENDAS

from .test_carnevale import call, cog_of

SEED = 4           # the seed of the game and of the clicks: a Fumble, then its Attack of Opportunity
# a model's id is shown only as its label's tag, "Pulcinella (a3)" (two Pulcinellas are told apart by it)
RAW = re.compile(r"\{[a-z_]+\}|\b(?:events|terms|prompts|options|errors)\.[a-z_]+|\{'term'|(?<!\()\b[ab]\d{1,2}\b(?!\))")


@pytest.mark.parametrize("locale,words", [("en", ("End activation", "AP left", "Attack of Opportunity")),
                                          ("it", ("Fine attivazione", "ne ha ancora", "Attacco di Opportunità")),
                                          ("es", ("Terminar la activación", "ahora tiene", "Ataque de Oportunidad"))])
async def test_a_whole_game_speaks_the_servers_language(bot, world, monkeypatch, locale, words):
    await bot.store.update_settings(1, locale=locale)
    monkeypatch.setattr("cogs.host.gamehost.secrets.randbits", lambda bits: SEED)
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


async def test_an_opposed_roll_on_an_italian_server_is_italian_throughout(bot, world, monkeypatch):
    """The adjustments, the tie rule and a pool over the cap were the rules' English ("first side's
    Critical removes an Ace from the second", "the escaping model wins ties", "12 = 10d10 (2 over the
    cap lost)") on every server; now they are codes worded in the server's language."""
    from cogs.carnevale import squads as carnevale_squads
    from rules.carnevale.dice import build_pool, compare, result_from_dice
    first = result_from_dice([10, 7, 2, 2, 2, 2, 2, 2, 2, 2], 7, build_pool(12))    # Critical, 2 Aces
    second = result_from_dice([1, 9, 3], 7, build_pool(3))                          # Destiny 1: one Ace discarded
    monkeypatch.setattr(carnevale_squads, "opposed_roll", lambda *args: compare(first, second, "escaper"))
    world.locale = "it"
    with i18n.watch() as notes:
        interaction = world.interaction(world.users[2], world.channels[10])
        interaction.guild_locale = "it"
        await cog_of(bot).opposed.callback(cog_of(bot), interaction, opponent=world.users[3], pool=12, their_pool=3,
                                           tie_rule="escaper")
    text = world.last("channel:10").content
    assert "12 = 10d10 (2 oltre il limite persi) a difficoltà 7" in text
    assert "Dopo le correzioni: 2 contro 0 (il Critico di <@2> toglie un Successo a <@3>)." in text
    assert "**Vince <@2>** di 2." in text
    assert "over the cap" not in text and "side" not in text
    assert [n for n in notes if n.fallback] == []


async def test_a_tie_rule_is_named_in_the_servers_language(bot, world, monkeypatch):
    from cogs.carnevale import squads as carnevale_squads
    from rules.carnevale.dice import compare, result_from_dice
    tie = compare(result_from_dice([7, 2], 7), result_from_dice([8, 3], 7), "escaper")
    monkeypatch.setattr(carnevale_squads, "opposed_roll", lambda *args: tie)
    interaction = world.interaction(world.users[2], world.channels[10])
    interaction.guild_locale = "es"
    await cog_of(bot).opposed.callback(cog_of(bot), interaction, opponent=world.users[3], pool=2, their_pool=2,
                                       tie_rule="escaper")
    assert "**<@2> gana** el empate (los empates son para el modelo que escapa)." in world.last("channel:10").content


async def test_the_secret_agenda_in_hand_reads_in_the_readers_language(bot, world):
    """/hand was English whatever the reader's language (the describer ignored the reader /hand sets),
    and named the Agenda from the rules' English table; now the view carries terms, worded in Italian."""
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_faction="The Guild",
               their_faction="The Rashaar", deploy_all=True)
    state = ENGINE.load_state((await bot.store.active_game(1, 10)).state)
    n = state.players["3"].agenda
    assert ENGINE.view_for(state, "3")["players"]["3"]["agenda"] == {
        "roll": n, "name": {"term": f"agenda_{n}"}, "condition": {"term": f"agenda_{n}_condition"},
        "vp": AGENDAS[n][1]}
    italian = Presenter("it", "carnevale")
    name, condition = italian.text(f"terms.agenda_{n}"), italian.text(f"terms.agenda_{n}_condition")
    world.locale = "it"
    hand_cog = bot.get_cog("HandCog")
    with i18n.watch() as notes:
        await hand_cog.hand.callback(hand_cog, world.interaction(world.users[3], world.channels[10]))
    hand = "\n".join(m.content or "" for m in world.ephemeral(world.users[3]))
    assert f"**{name}** ({condition}; +{AGENDAS[n][1]}" in hand and AGENDAS[n][0] not in hand
    assert "**Round 1 di 5** · ordine di gioco" in hand
    assert [note for note in notes if note.fallback] == []


@pytest.mark.parametrize("locale,sample,bot_squad", [
    ("it", "**Alice** — squadra d'esempio (The Rashaar) · 0 punti vittoria", "**Bauta** — squadra di Bauta (The Guild)"),
    ("es-ES", "**Alice** — banda de ejemplo (The Rashaar) · 0 puntos de victoria", "**Bauta** — banda de Bauta (The Guild)"),
    ("en-US", "**Alice** — sample squad (The Rashaar) · 0 VP", "**Bauta** — Bauta's squad (The Guild)")])
async def test_game_status_names_the_sample_and_the_bots_squads_in_the_servers_language(
        bot, world, bauta, locale, sample, bot_squad):
    """A squad nobody named is named by who built it, in the reader's words (main read
    "The Rashaar (sample) (The Rashaar)" and "The Guild (Bauta) (The Guild)" in every language)."""
    world.locale = locale
    await bot.store.update_settings(1, locale=locale)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, vs_bot=True, level="easy", points=150, rounds=3,
               my_faction="The Rashaar", their_faction="The Guild")
    seen = len(world.sent)
    games = bot.get_cog("GameCog")
    await games.status.callback(games, world.interaction(world.users[2], world.channels[10]))
    lines = "\n".join(m.content or "" for m in world.sent[seen:]).splitlines()
    assert any(line.startswith(sample) for line in lines), lines
    assert any(line.startswith(bot_squad) for line in lines), lines
    assert "(sample)" not in "\n".join(lines) and "(Bauta)" not in "\n".join(lines)


async def test_the_autocompletes_read_in_the_typers_language(bot, world):
    """Suggestions were English whatever the reader ("a1 — … 9/9 LP", "(melee)", "pts", "walk (1 AP)")."""
    from .test_carnevale import RASHAAR, build
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", their_faction="The Guild",
               deploy_all=True)
    world.locale = "it"
    interaction = world.interaction(world.users[2], world.channels[10])
    models = await cog.model_autocomplete(interaction, "")
    assert models[0].value == "a1" and models[0].name.startswith("a1 — Magi-Rashaar (") and " PV " in models[0].name
    interaction.namespace = type("NS", (), {"model": "a1"})()
    weapons = {c.name for c in await cog.weapon_autocomplete(interaction, "")}
    assert any(w.startswith("Dagger (") for w in weapons) and all(w.endswith(("(corpo a corpo)", "(a distanza)"))
                                                                  for w in weapons), weapons
    interaction.namespace = type("NS", (), {"squad": "Rashaar"})()
    hybrid = next(c for c in await cog.profile_autocomplete(interaction, "") if c.value == "Hybrid")
    assert hybrid.name.startswith("Hybrid — The Rashaar, ") and hybrid.name.endswith(" punti")
    actions = await cog.ap_action_autocomplete(interaction, "corri")
    assert [(c.value, c.name) for c in actions][:1] == [("run", "Corri (1 PA, tiro di DES)")]
    assert [c.value for c in await cog.ap_action_autocomplete(interaction, "walk")][:1] == ["walk"]   # by its id too
