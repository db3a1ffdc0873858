"""A Karmic check with a helper and an advancement, a three-round combat, and the cog's own
refusals, through the cogs in Italian, Spanish and English: every word from the catalogues (the
server's language set with the guild settings, the players' clients in the same language;
`present.watch()` records where each string came from), with zero fallbacks.
"""
from __future__ import annotations

import re
from collections import Counter

import discord
import pytest

from i18n import present
from rules.common import GM
from rules.karmic import ENGINE
from tests.cogs.test_karmic import ENRIS_YAML, Attachment, stack_deck
from tests.cogs.test_klash import prompt_message
from tests.support.fakes import click
from tests.support.reading import said


@pytest.mark.parametrize("locale,words", [("it", ("Percezione", "SUCCESSO", "aiuta e offre una carta")),
                                          ("es", ("Percepción", "ÉXITO", "ayuda y ofrece una carta")),
                                          ("en", ("Awareness", "SUCCESS", "helps and offers a card"))])
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
    assert "<@" not in " ".join(said(world, ["label"]))


async def _three_rounds(bot, world, game_id, users, locale, rounds=3, steps=400):
    """Answer every pending decision (members by DM, the GM in the GM room) until `rounds` rounds
    have been played or the fight ends; the options are the test suite's usual picks."""
    from tests.cogs.test_karmic import GM_ROOM, answer_prompt, choose_option
    for _ in range(steps):
        state = ENGINE.load_state((await bot.store.game(game_id)).state)
        if state.over or state.combat.round > rounds:
            return state
        prompt = ENGINE.pending(state)[0]
        option = choose_option(prompt, False)
        if prompt.player == GM:
            await answer_prompt(world, world.last(GM_ROOM, with_view=True), world.users[1], prompt, option,
                                channel=world.channels[11], in_dm=False, locale=locale)
        else:
            user = users[prompt.player]
            await answer_prompt(world, world.last(f"dm:{user.id}", with_view=True), user, prompt, option,
                                locale=locale)
    raise AssertionError("the fight did not get through its rounds")


@pytest.mark.parametrize("npcs", ["gm", "bot"])
@pytest.mark.parametrize("locale,words,pack_words", [
    ("it", ("Registro", "scoperto", "Combattimento"), ("Soldato", "Ascia media")),
    ("es", ("Registro", "descubierto", "Combate"), ("Soldado", "Hacha mediana")),
    ("en", ("Register", "revealed", "Combat"), ("Soldier", "Medium Axe"))])
async def test_a_three_round_combat_speaks_the_servers_language(bot, world, seed, locale, words, pack_words, npcs,
                                                                monkeypatch):
    """Two members and an NPC (GM-played through the GM room, or bot-played), three rounds through
    the cogs: every word, label, option, image word and file name from the reader's catalogue, and
    the sample pack's names (the NPC typed and read as its reader names it, Mara's Medium Axe) in the
    reader's language, with no English pack name left."""
    from tests.cogs.test_karmic_pack_names import english_left
    npc, axe = pack_words
    import cogs.karmic as K
    drawn: list[str] = []
    real = K.R.words_of

    def spy(say=None):
        w = real(say)
        return lambda *a, **kw: drawn.append(w(*a, **kw)) or drawn[-1]
    monkeypatch.setattr(K.R, "words_of", spy)
    await bot.store.update_settings(1, locale=locale, gm_channel_id=11)
    alice, bruno = world.users[2], world.users[3]
    cog = bot.get_cog("KarmicCog")
    await cog.character_import.callback(cog, world.interaction(alice, world.channels[10], locale=locale),
                                        file=Attachment("devon.yaml", ENRIS_YAML.replace("Enris", "Devon")))
    world.sent.clear()
    with present.watch() as notes:
        await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10], locale=locale),
                                        opponents=npc, ally=bruno, ally_character="Mara",
                                        bot_plays_npcs=npcs == "bot")
        game = await bot.store.active_game(1, 10)
        final = await _three_rounds(bot, world, game.id, {"2": alice, "3": bruno}, locale)
        await cog.combat_board.callback(cog, world.interaction(alice, world.channels[10], locale=locale))
    assert final.combat.round > 3 and not final.over, (final.combat.round, final.over)      # three whole rounds
    fallbacks = Counter((n.source, n.key, n.language) for n in notes if n.fallback)
    assert sorted(fallbacks.items()) == [], sorted(fallbacks.items())
    assert sorted({n.key for n in notes if n.language != locale}) == []
    kinds = {n.key for n in notes if n.game == "karmic"}
    assert {"events.combat_start", "events.initiative", "events.declare", "events.reveal", "events.resolve",
            "events.round_end", "prompts.declare", "options.maneuver", "words.img_title"} <= kinds
    public = world.public_text()
    assert all(w in public for w in words), public
    said_ = said(world)
    assert not [s for s in said_ if "{" in s or "karmic." in s or "terms." in s or "events." in s]
    assert not [s for s in said_ if any(f"c{i}" in s.split() for i in range(1, 4))]          # no fighter key shown
    assert not re.search(r"· (declare|resolve|initiative|offers|hold|play|round_over)\b", public), public  # no phase id
    assert drawn and not [w for w in drawn if "img_" in w or "terms." in w]
    assert npc in public and any(axe in s for s in said_), (npc, axe)
    assert english_left(said_ + drawn, locale) == []


@pytest.mark.parametrize("locale,language", [("it", "it"), ("es-ES", "es"), ("en-US", "en")])
async def test_the_cogs_own_refusals_speak_the_readers_language(bot, world, locale, language):
    """The Karmic cog's own refusals (a bad set-up, a missing character or helper) are codes of the
    Karmic catalogue, worded by the global error handler in the reader's language: no legacy
    sentence, no English fallback."""
    import yaml
    from pathlib import Path

    from cogs.host.errors import report_error
    from rules.common import BautaError
    alice, bruno = world.users[2], world.users[3]
    robot = world.user(5, "Robot")
    robot.bot = True
    cog = bot.get_cog("KarmicCog")
    tries = [
        ("no_opponent", alice, lambda i: cog.combat_start.callback(cog, i, character="Devon")),
        ("no_bots", alice, lambda i: cog.combat_start.callback(cog, i, character="Devon", opponent=robot)),
        ("fights_twice", alice, lambda i: cog.combat_start.callback(cog, i, character="Devon", opponent=alice)),
        ("no_npc", alice, lambda i: cog.combat_start.callback(cog, i, character="Devon", opponents="Dragon")),
        ("no_fighter_named", alice, lambda i: cog.combat_start.callback(cog, i, character="Devon", opponents="Soldier",
                                                                      pairs="Devon-Dragon")),
        ("helper_bad", alice, lambda i: cog.check.callback(cog, i, skill="tracking", character="Mara", helper=alice)),
        ("no_character", bruno, lambda i: cog.check.callback(cog, i, skill="tracking")),
        ("no_such_character", alice, lambda i: cog.character_show.callback(cog, i, name="Nobody")),
        ("shoot_defense_needs_target", alice, lambda i: cog.shoot.callback(
            cog, i, weapon="Thrown Spear", distance=10.0, character="Mara",
            defense=discord.app_commands.Choice(name="dodge", value="dodge"))),
    ]
    catalogue = yaml.safe_load((Path("i18n") / f"{language}.karmic.yaml").read_text(encoding="utf-8"))["errors"]
    for code, user, run in tries:
        interaction = world.interaction(user, world.channels[10], locale=locale)
        with present.watch() as notes:
            with pytest.raises(BautaError) as refusal:
                await run(interaction)
            assert (refusal.value.code, refusal.value.system) == (code, "karmic")
            await report_error(interaction, refusal.value)
        said = world.ephemeral(user)[-1].content
        assert [n for n in notes if n.fallback] == [], (code, said)
        assert [(n.key, n.language) for n in notes if n.game == "karmic"] == [(f"errors.{code}", language)]
        assert said.startswith(catalogue[code].split("{")[0]), (code, said)
    assert await bot.store.active_game(1, 10) is None


async def test_game_undo_of_an_advancement_reads_in_italian(bot, world, seed):
    """`/game undo` takes an advancement back (issue 12's "Done when"), and the table reads both in
    Italian: the effort's draw, then who undid how many actions, with zero fallbacks."""
    from tests.cogs.test_karmic import (DEVON_YAML, advance_cog, choice, game_cog, import_sheet, stack_deck,
                                        table_text)
    await bot.store.update_settings(1, locale="it")
    world.locale = "it"
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, alice, DEVON_YAML)
    await stack_deck(bot, alice.id, "Devon", ["5S"])
    before = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    world.sent.clear()
    with present.watch() as notes:
        cog = advance_cog(bot)
        await cog.advance_effort.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                          effort=choice("hard"), skills="tracking")
        assert (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["skills"]["tracking"] == 3
        await game_cog(bot).undo.callback(game_cog(bot), world.interaction(gm, world.channels[10]))
    assert (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"] == before
    assert [n for n in notes if n.fallback] == []
    assert sorted({n.language for n in notes}) == ["it"]
    table = table_text(world)
    assert "5♠" in table and "<@1> ha annullato 1 azione. La partita è tornata esattamente dov'era." in table, table
    assert {"events.advance_effort", "events.advance_draw", "events.game_undone"} <= {n.key for n in notes}, \
        sorted({n.key for n in notes})
