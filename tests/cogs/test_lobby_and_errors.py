import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from discord import app_commands

from rules.common import IllegalAction
from tests.support.fakes import click

ROOT = Path(__file__).resolve().parents[2]


async def test_lobby_join_leave_start_opens_the_game(bot, world):
    alice, bruno, carla = world.users[2], world.users[3], world.users[4]
    interaction = world.interaction(alice, world.channels[10])
    await interaction.response.defer(thinking=True)
    lobby = await bot.host.open_lobby(interaction, "duel", min_players=2, max_players=2)
    board = world.last("channel:10", with_view=True)
    assert "Join" in board.texts() and "Start" in board.texts()
    await click(world, board, alice, index=2)                          # start alone: refused
    assert "at least 2" in world.ephemeral(alice)[-1].content
    await click(world, board, bruno, index=0)                          # Bruno joins
    board = world.last("channel:10", with_view=True)
    await click(world, board, carla, index=0)                          # full
    assert "full" in world.ephemeral(carla)[-1].content
    board = world.last("channel:10", with_view=True)
    await click(world, board, bruno, index=2)                          # not the host
    assert "Only the host" in world.ephemeral(bruno)[-1].content
    await click(world, world.last("channel:10", with_view=True), alice, index=2)
    assert not (await bot.store.game(lobby.id)).active
    game = await bot.store.active_game(1, 10)
    assert game.system == "duel" and game.seats == ["2", "3"]
    assert "Who plays first" in world.last("channel:10", with_view=True).content


async def test_tree_error_handler_turns_errors_into_ephemeral_replies(bot, world):
    interaction = world.interaction(world.users[2], world.channels[10])
    error = app_commands.CommandInvokeError(bot.tree.get_command("hand"), IllegalAction("No card left for register 3."))
    await bot.tree.on_error(interaction, error)
    assert world.ephemeral(world.users[2])[-1].content == "No card left for register 3."


async def test_forget_needs_admin_and_the_server_name(bot, world):
    await bot.store.update_settings(1, gm_channel_id=11)
    cog = bot.get_cog("GMCog")
    await cog.forget.callback(cog, world.interaction(world.users[1], world.channels[10]), confirm="nope")
    assert (await bot.store.settings(1)).gm_channel_id == 11
    await cog.forget.callback(cog, world.interaction(world.users[1], world.channels[10]), confirm="Test Server")
    assert (await bot.store.settings(1)).gm_channel_id is None


def test_kill_9_between_actions_loses_nothing_acknowledged(tmp_path):
    """A child process commits actions and prints each acknowledgement; we SIGKILL it mid-run and
    check every acknowledged action is in the file."""
    script = textwrap.dedent(f"""
        import asyncio, sys
        sys.path.insert(0, {str(ROOT)!r})
        from db.store import Store
        async def main():
            store = await Store.open({str(tmp_path / 'b.sqlite3')!r})
            game = await store.create_game(1, 10, "duel", ["2"], {{"n": 0}}, 2)
            n = 0
            while True:
                n += 1
                game = await store.commit_action(game, "2", {{"n": n}}, {{"n": n}}, [])
                print(n, flush=True)
        asyncio.run(main())
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    acknowledged = 0
    for line in child.stdout:
        acknowledged = int(line)
        if acknowledged >= 200:
            os.kill(child.pid, signal.SIGKILL)
            break
    child.wait()
    import sqlite3
    with sqlite3.connect(tmp_path / "b.sqlite3") as conn:
        version, = conn.execute("SELECT version FROM games").fetchone()
        logged, = conn.execute("SELECT COUNT(*) FROM game_actions").fetchone()
    assert version >= acknowledged and logged == version


async def test_the_board_rides_on_the_table_message_edited_in_place_and_reposted_when_gone(bot, world):
    from tests.cogs.test_framework import start_duel

    game = await start_duel(world)
    table = world.table()
    assert world.body(table) == "<@2> — Who plays first?" and len(table.custom_ids()) == 2
    game = await bot.host.live_message(game, "board", "v1", round=1)
    # the board and the pending public prompt share one message, edited in place
    assert world.body(table) == "<@2> — Who plays first?\n\nv1" and table.edits == 1
    assert game.meta["board"]["message"] == table.id and len(table.custom_ids()) == 2
    game = await bot.host.live_message(game, "board", "v2", round=2)
    assert table.content.endswith("\n\nv2") and table.edits == 2 and game.meta["board"]["round"] == 2
    table.deleted = True                                       # someone deleted it
    game = await bot.host.live_message(game, "board", "v3")
    again = world.table()
    assert again.id != table.id and again.content == "<@2> — Who plays first?\n\nv3"
    assert again.custom_ids() == table.custom_ids() and game.meta["board"]["message"] == again.id


async def test_help_overview_and_per_game_lists(bot, world):
    cog = bot.get_cog("HelpCog")
    user = world.users[2]
    await cog.help.callback(cog, world.interaction(user, world.channels[10]), game=None)
    overview = "\n".join(m.content for m in world.ephemeral(user))
    assert "/roll" in overview and "/game undo" in overview and all(len(m.content) <= 2000 for m in world.ephemeral(user))
    world.sent.clear()
    await cog.help.callback(cog, world.interaction(user, world.channels[10]), game="carnevale")
    listing = "\n".join(m.content for m in world.ephemeral(user))
    assert "/carnevale odds" in listing and "/roll " not in listing


async def test_host_acknowledges_privately_so_refusals_stay_private(bot, world):
    """A cog that leaves acknowledging to the host: public events go to the channel, a refusal only
    to its sender, and no "thinking…" is shown (the answer follows the commit within milliseconds)."""
    from tests.cogs.test_framework import start_duel
    from tests.support.duel import Concede

    game = await start_duel(world)
    carla = world.users[4]
    interaction = world.interaction(carla, world.channels[10])
    try:
        await bot.host.act(interaction, Concede(), system="duel")
    except IllegalAction as exc:
        await bot.tree.on_error(interaction, app_commands.CommandInvokeError(bot.tree.get_command("hand"), exc))
    assert interaction.response.deferred is None
    assert world.ephemeral(carla)[-1].content == "Only a player can concede."
    assert "concede" not in world.public_text().lower()
    bruno = world.users[3]
    interaction = world.interaction(bruno, world.channels[10])
    await bot.host.act(interaction, Concede(), system="duel")
    assert world.said().startswith("<@3> concedes.")
    assert world.ephemeral(bruno)[-1].content == "✓ Done."
    assert not (await bot.store.game(game.id)).active
