"""The table (cogs/host/table.py): one live message per game near the foot of the channel, the steps
told at its top, prompts that lose their buttons once answered or superseded, decisions with
one legal option applied without a click, and private decisions for a player with closed DMs."""
from __future__ import annotations

import io

import pytest

from cogs.host import systems
from rules.common import Choose
from tests.support.duel import Concede
from tests.support.fakes import click


async def start_duel(world, by=None, **options):
    alice, bruno = world.users[2], world.users[3]
    interaction = world.interaction(by or alice, world.channels[10])
    await interaction.response.defer(thinking=True)
    return await world.bot.host.start(interaction, "duel", [str(alice.id), str(bruno.id)], seed=7, options=options)


def kept_as_record(message) -> bool:
    """A table message that moved: kept where it was with its narration only (no board, no buttons)."""
    return (not message.deleted and message.view is None and message.file is None
            and message.content == message.said)


def live(world, game_id: int) -> list:
    """Messages nobody deleted whose components still answer a prompt of the game."""
    return [m for m in world.sent if not m.deleted and any(f":{game_id}:" in c for c in m.custom_ids())]


async def play(world, user) -> None:
    dm = world.last(f"dm:{user.id}", with_view=True)
    await click(world, dm, user, index=0)


async def test_a_quiet_table_costs_no_new_message_per_step(bot, world):
    game = await start_duel(world)
    alice, bruno = world.users[2], world.users[3]
    await click(world, world.table(), alice, index=0)            # Alice starts
    posted = len(world.public())
    for _ in range(2):
        await play(world, alice)
        await play(world, bruno)
    # four plays told in the same narrative message, edited; no public prompt left to carry
    assert len(world.public()) == posted
    assert world.said().startswith("<@3> plays ") and "<@2> plays " in world.public_text()
    assert (await bot.store.game(game.id)).version == 5


async def test_the_table_moves_to_the_foot_when_others_wrote_below_it(bot, world):
    game = await start_duel(world, fixed_start=False)
    table = world.table()
    world.record("channel:10", "lol, who starts?")               # a player chats in the channel
    game = await bot.host.live_message(game, "board", "Scores 0–0")
    assert world.table() is table and table.edits == 1           # a line of chat leaves it in view
    world.record("channel:10", "me!")
    world.record("channel:10", "no, me")                         # three below it: scrolled away
    await bot.host.live_message(game, "board", "Scores 0–0")
    moved = world.table()
    assert moved is not table and world.sent[-1] is moved
    assert kept_as_record(table) and table.content.startswith("**Duel (test game)** — game #1 starts.")
    assert moved.content == "<@2> — Who plays first?\n\nScores 0–0" and len(moved.custom_ids()) == 2
    # only one clickable copy of the prompt, after /game status too
    status = bot.get_cog("GameCog")
    await status.status.callback(status, world.interaction(world.users[3], world.channels[10]))
    assert len(live(world, game.id)) == 1 and world.table() is not moved and world.table().content == moved.content


async def test_without_the_gateways_cache_the_channels_history_tells_whether_the_table_is_in_view(bot, world):
    """After a restart the gateway's cache holds none of the channel's messages: the table asks the
    channel's history (a read, outside the channel's writes) instead of moving at once."""
    game = await start_duel(world, fixed_start=False)
    table = world.table()
    bot.host.courier.seen = lambda channel_id: iter(())     # nothing cached
    world.record("channel:10", "back, who plays?")
    game = await bot.host.live_message(game, "board", "Scores 0–0")
    assert world.table() is table and table.edits == 1 and world.reads == 1
    world.record("channel:10", "me")
    world.record("channel:10", "no, me")
    await bot.host.live_message(game, "board", "Scores 0–1")
    assert world.table() is not table and kept_as_record(table) and world.reads == 2


async def test_the_turn_passing_pings_its_player_once(bot, world):
    game = await start_duel(world, by=world.users[1])          # the GM starts it for Alice and Bruno
    table = world.table()
    assert [u.id for u in table.allowed_mentions.users] == [2]
    game = await bot.host.live_message(game, "board", "Scores 0–0")
    assert world.table() is table and table.edits == 1        # same player: edited, nobody pinged again


async def test_a_player_who_just_played_is_shown_their_turn_not_pinged(bot, world, fake_clock):
    await start_duel(world)                     # Alice starts the game: the first decision is hers
    table = world.table()
    assert world.body(table).startswith("<@2> — Who plays first?") and table.allowed_mentions.users == []
    # "just played" is five minutes: after that the turn passing to her pings her again
    seated = bot.host.table
    fake_clock.advance(seconds=299)
    assert await seated._present(1, "2") and not await seated._present(1, "3")
    fake_clock.advance(seconds=1)
    assert not await seated._present(1, "2")
    await click(world, table, world.users[3], index=0)          # Bruno tries Alice's decision: refused,
    assert await seated._present(1, "3")                         # but he is at the table
    # after a restart the game's log tells: her click "Alice starts" is her last action
    await click(world, table, world.users[2], index=0)
    seated._seen.clear()
    fake_clock.advance(seconds=299)
    assert await seated._present(1, "2") and not await seated._present(1, "3")     # (his click is no action)
    fake_clock.advance(seconds=1)
    assert not await seated._present(1, "2")


async def test_a_single_legal_option_is_applied_without_a_click_and_told(bot, world):
    game = await start_duel(world, fixed_start=True)
    record = await bot.store.game(game.id)
    assert record.state["phase"] == "play" and record.state["turn"] == 0
    assert "⏩ <@2> — Who plays first? → Alice starts (the only choice)." in world.public_text()
    assert "<@2> plays first." in world.public_text()
    assert not [m for m in world.public() if m.view is not None]     # no button waits for a click
    # the private play prompt is still asked (answering it at once would tell what the hand holds)
    assert world.last("dm:2", with_view=True).content.endswith("Play a card from your hand.")


async def test_a_server_can_keep_the_confirmation_of_a_single_choice(bot, world):
    await bot.store.set_house_rule(1, "duel", "confirm_single_choice", True)
    game = await start_duel(world, fixed_start=True)
    assert (await bot.store.game(game.id)).state["phase"] == "start"
    assert len(world.table().custom_ids()) == 1
    await click(world, world.table(), world.users[2], index=0)
    assert (await bot.store.game(game.id)).state["phase"] == "play"


async def test_a_dm_prompt_answered_another_way_loses_its_buttons(bot, world):
    game = await start_duel(world)
    alice = world.users[2]
    await click(world, world.table(), alice, index=0)            # Alice starts: her hand by DM
    dm = world.last("dm:2", with_view=True)
    await bot.host.act(world.interaction(alice, world.channels[10]), Concede(), system="duel")
    assert dm.view is None and live(world, game.id) == []
    assert not (await bot.store.game(game.id)).active


async def test_a_dm_prompt_answered_for_the_player_loses_its_buttons_and_the_next_is_a_new_dm(bot, world):
    game = await start_duel(world)
    alice = world.users[2]
    await click(world, world.table(), alice, index=0)
    dm = world.last("dm:2", with_view=True)
    # the GM answers Alice's prompt for her, by command: her DM asks nothing any more
    record = await bot.store.game(game.id)
    prompt_id = dm.custom_ids()[0].split(":")[3]
    card = record.state["hands"]["2"][0]
    await bot.host.act(world.interaction(world.users[1], world.channels[10]), Choose(prompt_id, (card,)), system="duel")
    assert dm.view is None and world.said().startswith(f"<@2> plays {card}.")
    await play(world, world.users[3])                  # Bruno plays: Alice's next decision notifies her
    again = world.last("dm:2", with_view=True)
    assert again is not dm and again.content.endswith("Play a card from your hand.")


async def asked_anew(bot, world):
    """Alice holds her DM prompt; the same decision is then asked anew under another id (as when a
    hand changes under it, or a click leaves her a further step of her turn): (record, state, dm)."""
    game = await start_duel(world)
    await click(world, world.table(), world.users[2], index=0)
    dm = world.last("dm:2", with_view=True)
    record = await bot.store.game(game.id)
    state = systems.get("duel").engine.load_state(record.state)
    state.played["2"] = 1
    return record, state, dm


async def test_a_superseded_dm_prompt_is_edited_in_place(bot, world):
    record, state, dm = await asked_anew(bot, world)
    dms = len(world.dms(world.users[2]))
    await bot.host.publish(None, record, state, [], before=set())
    assert len(world.dms(world.users[2])) == dms and dm.view is not None and dm.edits == 1
    assert dm.custom_ids()[0].split(":")[3] == systems.get("duel").engine.pending(state)[0].id


async def test_the_next_decision_of_a_turn_takes_the_place_of_the_dm_just_clicked(bot, world):
    record, state, dm = await asked_anew(bot, world)
    dms = len(world.dms(world.users[2]))
    clicked = world.interaction(world.users[2], in_dm=True, message=dm)
    await clicked.response.edit_message(content="✅", view=None)      # the click's acknowledgement
    await bot.host.publish(clicked, record, state, [], before=set())
    assert len(world.dms(world.users[2])) == dms and dm.view is not None
    assert dm.custom_ids()[0].split(":")[3] == systems.get("duel").engine.pending(state)[0].id


async def test_closed_dms_bring_the_next_private_decision_with_the_reply(bot, world):
    game = await start_duel(world)
    alice = world.users[2]
    alice.dm_closed = True
    interaction = await click(world, world.table(), alice, index=0)
    private = world.ephemeral(alice)
    hand = next(m for m in private if m.view is not None)
    assert hand.content == "Play a card from your hand." and len(hand.custom_ids()) == 3
    await click(world, hand, alice, index=0, in_dm=False)
    assert (await bot.store.game(game.id)).version == 2
    assert interaction is not None


async def test_the_table_keeps_its_picture_when_it_moves_after_a_restart(bot, world):
    """The board's image lives in memory and on Discord: a new process that moves the table
    takes the picture from the old table message before deleting it."""
    import discord
    from tests.conftest import make_bot
    game = await start_duel(world, fixed_start=False)
    picture = b"\x89PNG board of game one"
    await bot.host.live_message(game, "board", "Scores 0–0", file=discord.File(io.BytesIO(picture), "board.png"))
    before = world.table()
    await bot.close()
    second = await make_bot(bot.config)
    try:
        world.attach(second)
        status = second.get_cog("GameCog")
        await status.status.callback(status, world.interaction(world.users[3], world.channels[10]))
        moved = world.table()
        assert kept_as_record(before) and moved is not before
        assert moved.file is not None and moved.file.filename == "board.png"
        moved.file.fp.seek(0)
        assert moved.file.fp.read() == picture
    finally:
        await second.close()


@pytest.mark.parametrize("ending", ["by its rules", "by /game end"])
async def test_an_ended_game_keeps_nothing_of_its_table_in_memory(bot, world, ending):
    """A board's picture is kept to move its table; once the game ends, however it ends, it is let
    go (before, every game a process ever showed kept its last PNG for as long as it ran)."""
    import discord
    game = await start_duel(world)
    await bot.host.live_message(game, "board", "Scores 0–0", file=discord.File(io.BytesIO(b"\x89PNG one"), "board.png"))
    table = bot.host.table
    assert game.id in table._images and game.id in table.shown
    gm = world.interaction(world.users[1], world.channels[10])
    if ending == "by its rules":
        await bot.host.act(world.interaction(world.users[2], world.channels[10]), Concede(), system="duel")
    else:
        cog = bot.get_cog("GameCog")
        await cog.end.callback(cog, gm)
        assert world.sent[-2].content == f"Game #{game.id} was ended by <@1>."      # then its chronicle
    assert not (await bot.store.game(game.id)).active
    assert game.id not in table._images and game.id not in table.shown


async def test_a_game_whose_picture_was_let_go_takes_it_back_from_its_table_when_it_moves(bot, world, monkeypatch):
    """Only the newest games' pictures stay in memory (`IMAGES_KEPT`); an older game's table that
    moves gets its picture from the table message, as after a restart."""
    import discord
    from cogs.host import table as table_module
    monkeypatch.setattr(table_module, "IMAGES_KEPT", 1)
    first = await start_duel(world, fixed_start=False)
    await bot.host.live_message(first, "board", "Scores 0–0", file=discord.File(io.BytesIO(b"\x89PNG first"), "board.png"))
    before = world.table()
    world.channel(12, "other-table")
    interaction = world.interaction(world.users[4], world.channels[12])
    await interaction.response.defer(thinking=True)
    second = await bot.host.start(interaction, "duel", ["4", "1"], seed=8)
    await bot.host.live_message(second, "board", "Scores 0–0", file=discord.File(io.BytesIO(b"\x89PNG second"), "board.png"))
    assert list(bot.host.table._images) == [second.id]
    status = bot.get_cog("GameCog")
    await status.status.callback(status, world.interaction(world.users[3], world.channels[10]))
    moved = world.table()
    assert kept_as_record(before) and moved is not before and moved.file is not None
    moved.file.fp.seek(0)
    assert moved.file.fp.read() == b"\x89PNG first"
    assert list(bot.host.table._images) == [first.id]
