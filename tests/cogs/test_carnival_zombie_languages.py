"""Carnival Zombie through the cogs in Italian and in Spanish: every word from the catalogues.

The server's language is set with the guild settings (`/gm language`), the players' clients speak
the same language; the presenter and `t()` report every string they make (`present.watch()`).
A seeded practice Night, its Dawn and the next Day are played by clicking the prompts.
"""
from __future__ import annotations

import random
import re
import string
from collections import Counter

import pytest
import yaml

from content import sample_text
from i18n import HERE, _flatten, present
from rules.carnival_zombie import ENGINE
from rules.carnival_zombie.content import TRANSLATED
from tests.cogs.test_carnival_zombie import TABLE, prompt_message, state_of
from tests.rules.carnival_zombie.policies import sensible_policy
from tests.support.fakes import click
from tests.support.reading import said_parts

SEED = 2              # a seed whose Night the sensible Group survives, so the Day after it is played too
RAW_ID = re.compile(r"<@!?\d+>")
LEFTOVER = re.compile(r"\{[a-z_]+(:[^}]*)?\}")


def _placeholders(text: str) -> set[str]:
    """The parameters a text shows (not one only chosen by, as `{boss_name:distrutto|distrutta}` agrees)."""
    return {name for _, name, spec, _ in string.Formatter().parse(text) if name is not None and "|" not in (spec or "")}


@pytest.mark.parametrize("language", ["it", "es"])
def test_the_catalogue_says_everything_english_says_with_the_same_placeholders(language):
    # a language's `genders` are its own words' (i18n/present.py), not a translation of the English
    english, other = ({k: v for k, v in _flatten(yaml.safe_load((HERE / f"{lang}.carnival_zombie.yaml").read_text(
        encoding="utf-8"))).items() if not k.startswith("genders.")} for lang in ("en", language))
    assert sorted(set(english) - set(other)) == [] and sorted(set(other) - set(english)) == []
    assert {k: (_placeholders(english[k]), _placeholders(other[k])) for k in english
            if _placeholders(english[k]) != _placeholders(other[k])} == {}


def _english_only_names(locale: str) -> dict[str, str]:
    """The sample pack's names given in several languages, English -> `locale`'s, where they differ."""
    doc = yaml.safe_load(sample_text("carnival_zombie"))
    named = [e["name"] for kind in TRANSLATED for e in doc[kind]] + [c["firearm"].get("name") for c in doc["characters"]]
    return {n["en"]: n[locale] for n in named if isinstance(n, dict) and n["en"] != n[locale]}


def _speaks_the_packs_names(texts: list[str], locale: str, expected: tuple[str, ...]) -> None:
    """Every Boss, Item, weapon, event, Finale and Scenario the table names is in its language."""
    said = "\n".join(texts)
    english = [name for name in _english_only_names(locale) if re.search(rf"\b{re.escape(name)}\b", said)]
    assert english == [], english
    assert [name for name in expected if name not in said] == []


async def _open(bot, world, players, locale):
    """`/cz start` for a practice Night (straight to Sunset), everyone joins, the host starts: the
    lobby's buttons are Join, Leave, Start (by position: their words are the server's language)."""
    cog = bot.get_cog("CarnivalZombieCog")
    await cog.start.callback(cog, world.interaction(players[0], world.channels[10], locale=locale),
                             difficulty="easy", quick="night")
    for player in players[1:]:
        await click(world, world.last(TABLE, with_view=True), player, index=0, locale=locale)
    await click(world, world.last(TABLE, with_view=True), players[0], index=2, locale=locale)
    return await bot.store.active_game(1, 10)


async def _answer(world, prompt, option, locale):
    message = prompt_message(world, prompt.id)
    index = [o.id for o in prompt.options].index(option)
    user = world.users[int(prompt.player)]
    if message.custom_ids()[0].startswith("bauta:s:"):
        await click(world, message, user, index=0, values=[f"#{index}"], locale=locale)
    else:
        await click(world, message, user, index=index, locale=locale)


@pytest.mark.parametrize("locale,words", [("it", ("Notte", "Alba", "Barricate", "Giorno")),
                                          ("es", ("Noche", "Alba", "Barricadas", "Día"))])
async def test_a_night_and_a_day_speak_the_servers_language(bot, world, seed, locale, words):
    await bot.store.update_settings(1, locale=locale)
    seed(SEED)
    rnd = random.Random(SEED)
    policy = sensible_policy(rnd)
    players = [world.users[2], world.users[3]]
    with present.watch() as notes:
        game = await _open(bot, world, players, locale)
        for _ in range(600):
            record, state = await state_of(bot, game.id)
            # a Night, its Dawn, then the next Day up to its Sunset (or the end of the game)
            if not record.active or (state.ticket >= 2 and state.phase == "sunset"):
                break
            prompt = ENGINE.pending(state)[0]
            option = policy(state, prompt)
            await _answer(world, prompt, option, locale)
        cog = bot.get_cog("CarnivalZombieCog")
        await cog.status.callback(cog, world.interaction(world.users[2], world.channels[10], locale=locale))
    assert state.ticket >= 2 or state.over
    fallbacks = Counter((n.source, n.key, n.game) for n in notes if n.fallback)
    assert sorted(fallbacks.items()) == [], sorted(fallbacks.items())
    assert sorted({n.key for n in notes if n.language != locale}) == []      # nothing in English
    kinds = {n.key for n in notes if n.game == "carnival_zombie"}
    assert {"events.hour", "events.entrance", "events.movement", "prompts.act", "prompts.enter",
            "options.pass", "events.dawn", "events.day", "prompts.move", "prompts.dayact", "words.board_storage", "words.board_night"} <= kinds, sorted(kinds)
    texts = said_parts(world)
    assert [x for _, x in texts if LEFTOVER.search(x)] == []                  # no {placeholder} left
    assert [x for kind, x in texts if kind != "text" and RAW_ID.search(x)] == []   # labels, files: names
    assert [x for kind, x in texts if kind != "text" and any(f"{u.id}" == x.strip() for u in players)] == []
    public = "\n".join(x for _, x in texts)
    assert all(w in public for w in words), [w for w in words if w not in public]
    _speaks_the_packs_names([x for _, x in texts], locale, ())


CAMPAIGN_SEED = 2     # an Easy campaign the sensible Group of three wins on the Freedom Bridge, Night 3
NIGHT_BUDGET = 40     # public messages per Night (issue 10's framework budget)
CAMPAIGN_NAMES = {"it": ("Campagna", "Ponte della Libertà"), "es": ("Campaña", "Puente de la Libertad")}


@pytest.mark.parametrize("locale", ["en", "it", "es"])
async def test_a_whole_campaign_through_the_cogs_speaks_one_language_within_the_budget(bot, world, seed, locale):
    """Issue 13's test: a seeded whole campaign (lobby, the Story so far, three Days and three Nights, the
    Finale) clicked through the cogs, with zero fallbacks, zero raw ids and zero unresolved keys, and
    every Night within its budget of public messages."""
    await bot.store.update_settings(1, locale=locale)
    seed(CAMPAIGN_SEED)
    policy = sensible_policy(random.Random(CAMPAIGN_SEED))
    players = [world.users[2], world.users[3], world.users[4]]
    public: Counter = Counter()
    with present.watch() as notes:
        cog = bot.get_cog("CarnivalZombieCog")
        await cog.start.callback(cog, world.interaction(players[0], world.channels[10], locale=locale),
                                 difficulty="easy")
        for player in players[1:]:
            await click(world, world.last(TABLE, with_view=True), player, index=0, locale=locale)
        await click(world, world.last(TABLE, with_view=True), players[0], index=2, locale=locale)
        game = await bot.store.active_game(1, 10)
        seen = len(world.sent)
        for _ in range(1000):
            record, state = await state_of(bot, game.id)
            # what the last click posted counts where it led (as bench/messages.py counts)
            public[f"Night {state.ticket}" if state.night else "Day"] += sum(m.public for m in world.sent[seen:])
            seen = len(world.sent)
            if not record.active:
                break
            prompt = ENGINE.pending(state)[0]
            await _answer(world, prompt, policy(state, prompt), locale)
        await cog.status.callback(cog, world.interaction(world.users[2], world.channels[10], locale=locale))
    assert state.over and (state.result, state.reason, state.ticket) == ("win", "finale_won", 3)
    nights = {k: n for k, n in public.items() if k.startswith("Night")}
    assert sorted(nights) == ["Night 1", "Night 2", "Night 3"] and max(nights.values()) <= NIGHT_BUDGET, nights
    fallbacks = Counter((n.source, n.key, n.game) for n in notes if n.fallback)
    assert sorted(fallbacks.items()) == [], sorted(fallbacks.items())
    assert sorted({n.key for n in notes if n.language != locale}) == []
    assert {"prompts.story", "prompts.attack", "prompts.finale", "events.final_score", "events.over_finale_won",
            "prompts.dawn_exit"} <= {n.key for n in notes if n.game == "carnival_zombie"}
    texts = said_parts(world)
    assert [x for _, x in texts if LEFTOVER.search(x)] == []                  # no {placeholder} left
    assert [x for kind, x in texts if kind != "text" and RAW_ID.search(x)] == []   # labels, files: names
    if locale != "en":        # the sample pack names its Scenario, Finales, Bosses and Items in each language
        _speaks_the_packs_names([x for _, x in texts], locale, CAMPAIGN_NAMES[locale])


async def test_game_status_and_hand_describe_the_game_in_the_readers_language(bot, world, seed):
    """`/game status` reads the server's language, `/hand` the asker's (they were English only)."""
    await bot.store.update_settings(1, locale="es")
    players = [world.users[2], world.users[3]]
    await _open(bot, world, players, "es")
    game_cog = bot.get_cog("GameCog")
    before = len(world.sent)
    await game_cog.status.callback(game_cog, world.interaction(players[0], world.channels[10], locale="es"))
    status = "\n".join(m.content or "" for m in world.sent[before:])
    assert "Calendario: Billete 1" in status and "Personajes (Orden de Activación):" in status, status
    before = len(world.sent)
    await bot.get_cog("HandCog").hand.callback(bot.get_cog("HandCog"), world.interaction(players[1], world.channels[10], locale="it"))
    hand = "\n".join(m.content or "" for m in world.sent[before:])
    assert "Calendario: Biglietto 1" in hand and "Orologio:" in hand, hand
    assert "Calendar: Ticket" not in status + hand
