"""Acknowledge only what is committed; a lobby starts its game in one transaction; simultaneous Joins
all count; a GM holding a seat answers only for that seat."""
import asyncio

import pytest
from discord import app_commands

from cogs.host import systems
from rules.common import IllegalAction
from tests.cogs.test_framework import start_duel, start_prompt
from tests.support.duel import Concede
from tests.support.fakes import FakeResponse, FakeRole, click

LOBBY_JOIN, LOBBY_START = 0, 2


@pytest.fixture
def timeline(bot, monkeypatch):
    """The order of transactions ("commit") and interaction responses ("ack") as they happen."""
    seen: list[str] = []
    claim = FakeResponse._claim

    def acknowledged(response):
        claim(response)
        seen.append("ack")

    monkeypatch.setattr(FakeResponse, "_claim", acknowledged)
    for name in ("commit_action", "create_game", "end_game", "commit_and_create"):
        real = getattr(bot.store, name, None)
        if real is None:
            continue

        async def spy(*args, _real=real, **kwargs):
            result = await _real(*args, **kwargs)
            seen.append("commit")
            return result

        monkeypatch.setattr(bot.store, name, spy)
    return seen


async def refuse(bot, interaction, exc):
    """What the tree's global error handler does with an exception from a command."""
    await bot.tree.on_error(interaction, app_commands.CommandInvokeError(bot.tree.get_command("hand"), exc))


async def make_gm(bot, user):
    await bot.store.update_settings(1, gm_role_id=77)
    user.roles = [FakeRole(77)]


# ---------------------------------------------------------------------------- ack after commit
async def test_a_click_is_acknowledged_after_its_commit_by_closing_the_prompt(bot, world, timeline):
    game = await start_duel(world)
    message = start_prompt(world)
    timeline.clear()
    interaction = await click(world, message, world.users[2], index=0)            # "Alice starts"
    assert timeline == ["commit", "ack"]
    # a click on the table is answered once, after the commit, by its own response carrying the
    # table's next state: its buttons gone, its narration telling the answer
    assert interaction.response.deferred is None
    [answer] = interaction.edits
    assert answer["view"] is None and answer["content"] == message.content and world.said() == "<@2> plays first."
    assert (await bot.store.game(game.id)).version == 1
    # a click elsewhere (a DM prompt) is answered by marking its message: buttons gone, the choice shown
    dm = world.last("dm:2", with_view=True)
    played = await click(world, dm, world.users[2], index=0)
    assert played.edits[0]["view"] is None and "\n✅ Alice: " in played.edits[0]["content"]


async def test_a_refused_click_is_answered_privately_and_leaves_the_prompt_live(bot, world, timeline):
    game = await start_duel(world)
    message = start_prompt(world)
    timeline.clear()
    interaction = await click(world, message, world.users[3], index=0)            # Alice's decision
    assert timeline == ["ack"] and interaction.response.deferred is None
    assert "not yours" in world.ephemeral(world.users[3])[-1].content
    assert message.view is not None and (await bot.store.game(game.id)).version == 0


async def test_a_slash_action_is_acknowledged_after_its_commit(bot, world, timeline):
    game = await start_duel(world)
    timeline.clear()
    bruno = world.users[3]
    interaction = world.interaction(bruno, world.channels[10])
    await bot.host.act(interaction, Concede(), system="duel")
    assert timeline == ["commit", "ack"]
    assert interaction.response.deferred is None                                  # no "thinking…" at all
    assert world.ephemeral(bruno)[-1].content == "✓ Done."
    assert world.said().startswith("<@3> concedes.")
    assert not (await bot.store.game(game.id)).active


async def test_a_refused_slash_action_leaves_no_thinking_and_nothing_public(bot, world, timeline):
    await start_duel(world)
    timeline.clear()
    carla = world.users[4]
    interaction = world.interaction(carla, world.channels[10])
    with pytest.raises(IllegalAction) as refused:
        await bot.host.act(interaction, Concede(), system="duel")
    await refuse(bot, interaction, refused.value)
    assert timeline == ["ack"] and interaction.response.deferred is None
    assert world.ephemeral(carla)[-1].content == "Only a player can concede."
    assert "concede" not in world.public_text().lower()


async def test_a_slash_start_is_acknowledged_after_the_game_is_stored(bot, world, timeline):
    alice = world.users[2]
    interaction = world.interaction(alice, world.channels[10])
    game = await bot.host.start(interaction, "duel", ["2", "3"], seed=7)
    assert timeline == ["commit", "ack"] and interaction.response.deferred is None
    assert world.ephemeral(alice)[-1].content == "✓ Done."
    assert "Who plays first" in world.last("channel:10", with_view=True).content
    assert (await bot.store.game(game.id)).active


async def test_slow_work_before_the_commit_defers_privately_just_before_the_deadline(bot, world, monkeypatch):
    monkeypatch.setattr(bot.host, "ACK_DEADLINE", 0.05)
    bruno = world.users[3]
    interaction = world.interaction(bruno, world.channels[10])
    await bot.host.begin(interaction)
    assert not interaction.response.is_done()                 # nothing is promised yet
    await asyncio.sleep(0.2)                                  # a cog's slow work (reading a pack…)
    assert interaction.response.deferred.ephemeral and interaction.response.deferred.thinking
    await start_duel(world)
    await bot.host.act(interaction, Concede(), system="duel")
    assert world.ephemeral(bruno)[-1].content == "✓ Done."


# ---------------------------------------------------------------------------- the lobby
async def open_duel_table(bot, world, max_players=2):
    interaction = world.interaction(world.users[2], world.channels[10])
    lobby = await bot.host.open_lobby(interaction, "duel", min_players=2, max_players=max_players)
    return lobby, world.last("channel:10", with_view=True)


async def test_start_ends_the_lobby_and_creates_the_game_in_one_transaction(bot, world, timeline):
    lobby, board = await open_duel_table(bot, world)
    await click(world, board, world.users[3], index=LOBBY_JOIN)
    timeline.clear()
    await click(world, board, world.users[2], index=LOBBY_START)
    assert timeline == ["commit", "ack"]
    assert not (await bot.store.game(lobby.id)).active
    game = await bot.store.active_game(1, 10)
    assert game.system == "duel" and game.seats == ["2", "3"]
    public = world.public_text()
    assert f"Game #{lobby.id} is over" not in public and f"#{game.id}" in public
    assert "Who plays first" in world.last("channel:10", with_view=True).content


async def test_a_failure_while_opening_the_game_leaves_the_table_open(bot, world, monkeypatch):
    lobby, board = await open_duel_table(bot, world)
    await click(world, board, world.users[3], index=LOBBY_JOIN)

    def broken(*args, **kwargs):
        raise RuntimeError("the process dies while setting the game up")

    monkeypatch.setattr(systems.get("duel").engine, "start", broken)
    await click(world, board, world.users[2], index=LOBBY_START)
    assert "Something went wrong" in world.ephemeral(world.users[2])[-1].content
    record = await bot.store.game(lobby.id)
    assert record.active and record.state["players"] == ["2", "3"] and not record.state["started"]
    assert (await bot.store.active_game(1, 10)).id == lobby.id
    monkeypatch.undo()
    await click(world, board, world.users[2], index=LOBBY_START)                  # the same button, again
    assert (await bot.store.active_game(1, 10)).system == "duel"


async def test_six_simultaneous_joins_are_all_seated(bot, world):
    joiners = [world.user(20 + n, f"Player {n}") for n in range(6)]
    lobby, board = await open_duel_table(bot, world, max_players=7)
    await asyncio.gather(*(click(world, board, user, index=LOBBY_JOIN) for user in joiners))
    state = (await bot.store.game(lobby.id)).state
    assert state["players"][0] == "2" and sorted(state["players"][1:]) == sorted(str(u.id) for u in joiners)
    assert [m for u in joiners for m in world.ephemeral(u)] == []                # nobody refused
    assert len(await bot.store.actions(lobby.id, limit=50)) == 6
    assert board.view is not None                                                 # the table stays open


async def test_simultaneous_joins_beyond_the_table_size_are_refused_as_full(bot, world):
    joiners = [world.user(20 + n, f"Player {n}") for n in range(6)]
    lobby, board = await open_duel_table(bot, world, max_players=4)
    await asyncio.gather(*(click(world, board, user, index=LOBBY_JOIN) for user in joiners))
    state = (await bot.store.game(lobby.id)).state
    assert len(state["players"]) == 4 and len(set(state["players"])) == 4
    refusals = [m.content for u in joiners for m in world.ephemeral(u)]
    assert len(refusals) == 3 and all("full (4 players)" in text for text in refusals)


# ---------------------------------------------------------------------------- a seated GM
async def test_a_seated_gm_cannot_answer_the_opponents_duel_prompt(bot, world):
    alice, owner = world.users[2], world.users[1]
    await make_gm(bot, alice)
    game = await start_duel(world)
    await click(world, start_prompt(world), alice, index=1)                        # Bruno plays first
    bruno_prompt = world.last("dm:3", with_view=True)
    await click(world, bruno_prompt, alice, index=0, in_dm=False)
    assert "not yours" in world.ephemeral(alice)[-1].content
    assert (await bot.store.game(game.id)).version == 1
    assert len(await bot.store.actions(game.id)) == 1
    # a GM without a seat (running the table) still may; and the seated GM's GM commands still work
    await click(world, bruno_prompt, owner, index=0, in_dm=False)
    assert (await bot.store.game(game.id)).version == 2
    cog = bot.get_cog("GameCog")
    await cog.undo.callback(cog, world.interaction(alice, world.channels[10]), steps=1)
    assert (await bot.store.game(game.id)).version == 3 and (await bot.store.game(game.id)).state["turn"] == 1


async def test_a_seated_gm_cannot_make_the_opponents_klash_draft_pick(bot, world, seed):
    from rules.klash import ENGINE
    from tests.cogs.test_klash import answer, start_draft, state_of

    alice = world.users[2]
    await make_gm(bot, alice)
    game = await start_draft(bot, world, seed)
    record, state = await state_of(bot, game.id)
    while ENGINE.pending(state)[0].player != "3":                                 # Alice picks until it is Bruno's turn
        prompt = ENGINE.pending(state)[0]
        await answer(world, game.id, prompt, [prompt.options[0].id])
        record, state = await state_of(bot, game.id)
    prompt = ENGINE.pending(state)[0]
    await answer(world, game.id, prompt, [prompt.options[0].id], user=alice)
    assert "not yours" in world.ephemeral(alice)[-1].content.lower()
    after, after_state = await state_of(bot, game.id)
    assert after.version == record.version and after_state.draft_log == state.draft_log
    await answer(world, game.id, prompt, [prompt.options[0].id])                  # Bruno's own click applies
    assert (await bot.store.game(game.id)).version == record.version + 1
