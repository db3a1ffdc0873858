"""The framework words every game through the presenter: the server's language in the channel,
each reader's own in DMs and ephemeral replies (Duel, the data-only test engine)."""
import pytest

from i18n import present
from rules.common import BautaError
from tests.support.fakes import click


def labels(message):
    return [getattr(getattr(item, "item", item), "label", None) for item in message.view.children]


async def start_duel(world, locale):
    interaction = world.interaction(world.users[2], world.channels[10], locale=locale)
    await interaction.response.defer(thinking=True)
    return await world.bot.host.start(interaction, "duel", ["2", "3"], seed=7)


async def test_public_prompts_and_events_follow_the_servers_language(bot, world):
    await start_duel(world, "it")
    prompt = world.last("channel:10", with_view=True)
    assert world.body(prompt) == "<@2> — Chi gioca per primo?"
    assert labels(prompt) == ["Inizia Alice", "Inizia Bruno"]          # names, not ids: labels show no mentions
    # Alice reads Spanish; the server is Italian: the table says it in Italian, her DM in Spanish
    await click(world, prompt, world.users[2], index=0, locale="es-ES", guild_locale="it")
    assert "Inizia <@2>." in world.public_text()
    dm = world.last("dm:2", with_view=True)
    assert dm.content.endswith("\nJuega una carta de tu mano.")
    assert sorted(labels(dm)) == sorted(f"Carta {c}" for c in (await bot.store.game(1)).state["hands"]["2"])


@pytest.mark.parametrize("locale, language, final", [("es-419", "es", "Puntuación final "),
                                                     ("it", "it", "Punteggio finale ")])
async def test_a_whole_duel_in_italian_or_spanish_never_falls_back(bot, world, locale, language, final):
    """Everything the bot says in a whole Duel, the framework's lines (t()) and the presenter's
    (the Duel's catalogue, the common one), comes from the players' language's catalogue."""
    with present.watch() as notes:
        await start_duel(world, locale)
        await click(world, world.last("channel:10", with_view=True), world.users[2], index=1,
                    locale=locale)                                     # Bruno starts
        for _ in range(8):
            record = await bot.store.game(1)
            if not record.active:
                break
            player = "3" if record.state["turn"] % 2 else "2"
            await click(world, world.last(f"dm:{player}", with_view=True), world.users[int(player)], index=0,
                        locale=locale)
    assert not (await bot.store.game(1)).active
    # no legacy text, no missing key, no unfilled placeholder, no player without a name, no English
    assert [(n.source, n.key) for n in notes if n.fallback] == []
    assert {n.language for n in notes} == {language}
    worded = {n.key for n in notes if n.game == "duel"}     # the presenter's, as opposed to t()'s
    assert worded >= {"prompts.start", "options.starts", "events.first", "prompts.play", "options.card",
                      "events.play", "events.end", "events.game_started"}
    assert final in world.public_text()


async def test_a_database_written_by_the_old_main_keeps_working(tmp_path):
    """`tests/support/data/main-474ae93.sqlite` was written by main at 474ae93 (before events were
    data): a Duel three actions in, its events stored as English text. They are shown as they were;
    the game goes on under the new protocol."""
    import shutil
    from pathlib import Path

    from tests.conftest import make_bot
    from tests.support.fakes import World

    path = tmp_path / "old.sqlite3"
    shutil.copy(Path(__file__).parents[1] / "support" / "data" / "main-474ae93.sqlite", path)
    bot = await make_bot(path)
    try:
        world = World(bot)
        world.channel(10, "table")
        alice = world.user(2, "Alice")
        world.user(3, "Bruno")
        cog = bot.get_cog("GameCog")
        with present.watch() as notes:
            await cog.log.callback(cog, world.interaction(alice, world.channels[10]), n=10)
        log = world.ephemeral(alice)[-1].content
        assert "`#1` <@2>: <@2> plays first." in log and "`#2` <@2>: <@2> plays 4." in log
        assert {n.source for n in notes if n.key.startswith("events.")} == {present.LEGACY}
        await bot.get_cog("HandCog").hand.callback(bot.get_cog("HandCog"), world.interaction(alice, world.channels[10]))
        assert "• You draw the 5." in "\n".join(m.content or "" for m in world.ephemeral(alice))
        # the decision waiting since then is asked again in the new words, and answering it works
        hand_prompt = world.last("ephemeral:2", with_view=True)
        assert hand_prompt.content == "Play a card from your hand."
        await click(world, hand_prompt, alice, index=0)
        record = await bot.store.game(1)
        assert record.version == 4 and record.state["played"] == {"2": 2, "3": 1}
    finally:
        await bot.close()


async def test_game_log_and_export_speak_the_readers_language(bot, world):
    import json

    await start_duel(world, "en-US")
    await click(world, world.last("channel:10", with_view=True), world.users[2], index=0)   # Alice starts
    await click(world, world.last("dm:2", with_view=True), world.users[2], index=0)
    cog = bot.get_cog("GameCog")
    bruno = world.users[3]
    await cog.log.callback(cog, world.interaction(bruno, world.channels[10], locale="it"), n=10)
    log = world.ephemeral(bruno)[-1].content
    assert "`#1` <@2>: Inizia <@2>." in log and "`#2` <@2>: <@2> gioca il " in log
    await cog.export.callback(cog, world.interaction(bruno, world.channels[10], locale="es-ES"))
    document = json.loads(world.ephemeral(bruno)[-1].file.fp.getvalue())
    said = [e["said"] for a in document["log"] for e in a["events"]]
    assert said[0] == "Empieza Alice." and said[1].startswith("Alice juega el ")
    assert document["names"] == {"2": "Alice", "3": "Bruno"}
    assert not any("<@" in text for text in said)


async def test_undo_is_told_as_data(bot, world):
    await start_duel(world, "en-US")
    await click(world, world.last("channel:10", with_view=True), world.users[2], index=0)
    cog = bot.get_cog("GameCog")
    with present.watch() as notes:
        await cog.undo.callback(cog, world.interaction(world.users[1], world.channels[10]), steps=1)
    assert "↩️ <@1> undid 1 action. The game is back exactly where it was." in world.public_text()
    assert ("catalogue", "events.game_undone") in {(n.source, n.key) for n in notes}


async def test_framework_refusals_are_codes_worded_for_their_reader(bot, world):
    cog = bot.get_cog("HandCog")
    interaction = world.interaction(world.users[2], world.channels[10], locale="it")
    with pytest.raises(BautaError) as refused:
        await cog.hand.callback(cog, interaction)
    assert (refused.value.code, refused.value.params) == ("no_game_here", {})
    await bot.tree.on_error(interaction, refused.value)        # the tree's error handler words it
    assert world.ephemeral(world.users[2])[-1].content == "In questo canale non c'è nessuna partita in corso."


async def test_a_table_hands_its_players_names_and_languages_to_its_game(bot, world):
    """Bruno joins in Italian; in the game the table opens, his DMs stay Italian though Alice (in
    English) is the one clicking, and the buttons name both players."""
    alice, bruno = world.users[2], world.users[3]
    world.bot.get_user = lambda uid: None            # nothing cached: names come from the table's meta
    interaction = world.interaction(alice, world.channels[10])
    await bot.host.open_lobby(interaction, "duel", min_players=2, max_players=2)
    await click(world, world.last("channel:10", with_view=True), bruno, index=0, locale="it", guild_locale="en-US")
    await click(world, world.last("channel:10", with_view=True), alice, index=2)             # Start
    game = await bot.store.active_game(1, 10)
    assert game.system == "duel" and game.meta["names"] == {"2": "Alice", "3": "Bruno"}
    assert game.meta["locales"] == {"2": "en-US", "3": "it"}
    start = world.last("channel:10", with_view=True)
    assert labels(start) == ["Alice starts", "Bruno starts"]
    await click(world, start, alice, index=1)                                               # Bruno starts
    assert world.last("dm:3", with_view=True).content.endswith("\nGioca una carta dalla tua mano.")


async def test_gm_language_sets_the_tables_language(bot, world):
    """`/gm language` wins over the server's Discord locale for what the channel reads; a player's
    own replies stay in their language."""
    gm = bot.get_cog("GMCog")
    await gm.language.callback(gm, world.interaction(world.users[1], world.channels[10]), language="es")
    await start_duel(world, "en-US")
    prompt = world.last("channel:10", with_view=True)
    assert world.body(prompt) == "<@2> — ¿Quién juega primero?" and labels(prompt) == ["Empieza Alice", "Empieza Bruno"]
    await click(world, prompt, world.users[3], index=0, locale="it")             # not Bruno's to make
    assert world.ephemeral(world.users[3])[-1].content == "Questa scelta non spetta a te."
