"""Channel writes per click (issue 40): the fake world's log of writes counts right on a known
sequence, the buckets and their replay give the waits they should, and a seeded whole game of each
system makes at most two channel writes for any click, at most one per interaction on average, and
no edit that repeats its message's content or leaves it as it was (docs/benchmarks.md, "Channel
writes per interaction"). The figures are exact for seed 7: a change that moves them says so here."""
import asyncio
import io
from types import SimpleNamespace

import discord
import pytest

from bench.messages import run_one
from tests.support.fakes import World, click
from tests.support.writes import (Buckets, WriteLog, assert_no_repeated_edits, assert_writes_per_click, handling,
                                  percentile, replay)


def tiny_world():
    world = World(SimpleNamespace())
    return world, world.channel(10), world.user(2, "Alice"), world.user(3, "Bruno")


def png(data: bytes) -> discord.File:
    return discord.File(io.BytesIO(data), filename="board.png")


async def test_the_log_counts_each_kind_of_write_with_its_cause_bytes_and_no_op_edits():
    world, channel, alice, bruno = tiny_world()
    command = world.interaction(alice, channel)
    await command.response.defer(thinking=True)
    board = await channel.send("board", file=png(b"x" * 100))
    await command.followup.send("started")
    await bruno.send("your hand")                                    # a DM

    prompt = await channel.send("pick one")
    clicked = world.interaction(bruno, channel, message=prompt, data={"custom_id": "bauta:b:1:pick.0:a"})
    with handling(clicked):
        await clicked.response.edit_message(content="pick one\n✅ Bruno: a", view=None)
        partial = channel.get_partial_message(board.id)
        await partial.edit(content="board")                          # nothing changed: a no-op
        await partial.edit(content="board 2", attachments=[png(b"x" * 100)])   # the same bytes again
        await partial.edit(content="board 2", attachments=[png(b"y" * 50)])    # same content, new image
        await channel.get_partial_message(prompt.id).delete()
        await channel.send("next prompt")

    log: WriteLog = world.writes
    assert [w.kind for w in log] == ["defer", "post", "followup", "post", "post",
                                     "update", "edit", "edit", "edit", "delete", "post"]
    assert [w.cause for w in log] == [command] * 5 + [clicked] * 6
    assert log.channel_writes_per_cause() == {command: 2, clicked: 5}
    assert log.worst() == (clicked, 5)
    assert [w.dm for w in log].count(True) == 1 and sum(w.channel for w in log) == 7
    assert [w.bytes for w in log if w.bytes] == [100, 100, 50] and log.uploaded() == 250
    assert [(w.noop, w.same_content, w.reupload) for w in log.of("edit")] == [
        (True, True, False), (False, False, True), (False, True, False)]
    assert log.reuploaded() == 100 and len(log.noops()) == 1 and len(log.repeats()) == 2
    assert clicked.updated and not command.updated
    assert sum(w.response for w in log) == 2 and sum(w.followup for w in log) == 1

    assert_writes_per_click(world, 5)
    with pytest.raises(AssertionError, match="more than 4 channel writes"):
        assert_writes_per_click(world, 4)
    with pytest.raises(AssertionError, match="2 edit"):
        assert_no_repeated_edits(world)
    assert_no_repeated_edits(world, since=log[-2].seq)                 # after the repeats


def test_a_leaky_bucket_lets_five_through_then_one_a_second_and_a_window_resets_after_five_seconds():
    leaky, window = Buckets(kind="leaky"), Buckets(kind="window")
    assert [leaky.take("c", 0.0) for _ in range(7)] == [0, 0, 0, 0, 0, 1, 2]
    assert leaky.take("other", 0.0) == 0                            # one bucket per channel
    assert [window.take("c", 0.0) for _ in range(7)] == [0, 0, 0, 0, 0, 5, 5]
    assert window.take("c", 10.5) == 10.5                            # a fresh window
    assert percentile([1, 2, 3, 4], 50) == 2 and percentile([1, 2, 3, 4], 90) == 4 and percentile([], 50) == 0


async def test_a_replay_shows_each_next_prompt_after_its_channel_writes_have_waited_for_the_bucket():
    """Three clicks half a second apart, each answered by its response and followed by three channel
    writes (the prompt marked, the narration, the next prompt posted): the leaky bucket lets five
    through at once, then one a second, so the second click's next prompt shows half a second late
    and the third click's writes wait a second each."""
    world, channel, alice, _ = tiny_world()
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="go", custom_id="go:0"))
    prompt = await channel.send("prompt 0", view=view)
    clicks = []
    for n in range(3):
        clicked = world.interaction(alice, channel, message=prompt, data={"custom_id": f"go:{n}"})
        clicks.append(clicked)
        with handling(clicked):
            await clicked.response.edit_message(content="answered", view=None)
            await channel.get_partial_message(prompt.id).edit(content="answered ✅")
            await channel.send(f"narration {n}")
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="go", custom_id=f"go:{n + 1}"))
            prompt = await channel.send(f"prompt {n + 1}", view=view)
    assert world.interactions == clicks
    timeline = replay(world.writes, clicks, 0.5, buckets=Buckets(kind="leaky"))
    assert [t for _, t in timeline.clicks] == [0.0, 0.5, 1.0]
    assert [s for _, s in timeline.shown] == [0.0, 0.5]             # click -> its next prompt shown
    assert sorted(timeline.waits.values()) == [0.0] * 5 + [0.5, 1.0, 1.0, 1.0] and timeline.waited == 3.5
    assert timeline.waited_for(lambda i: i is clicks[1]) == 0.5
    slow = replay(world.writes, clicks, 0.5, round_trip=0.1, buckets=Buckets(kind="leaky"))
    assert [round(t, 2) for _, t in slow.clicks] == [0.0, 0.5, 1.2]   # no click before its prompt shows


# Seed 7 (bench/messages.py; exact, the same on every run of a seed): the most channel writes any
# one interaction made, and channel writes per interaction over the whole run. Before the narration
# rode on the table message: worst click 3, 4, 3, 3 and 1.19, 1.27, 1.71, 1.11 per interaction;
# before the table was edited through the click on it: 3, 4, 3, 4 and 2.08, 2.23, 1.71, 2.11.
NOW = {"klash": (2, 0.16), "carnival_zombie": (2, 0.12), "karmic": (2, 0.69), "carnevale": (1, 0.07)}


@pytest.mark.parametrize("game", sorted(NOW))
async def test_no_click_of_a_whole_game_makes_more_than_two_channel_writes_nor_one_on_average(game):
    most, per_interaction = NOW[game]
    tally, world = await run_one(game, 7)
    assert tally.unreachable == 0
    assert_writes_per_click(world, 2)                       # the ceiling, for every click
    assert world.writes.worst()[1] == most
    channel = sum(w.channel for w in world.writes)
    assert round(channel / len(world.interactions), 2) == per_interaction <= 1.0
    assert_no_repeated_edits(world)                         # no edit carries the content its message has
    assert world.writes.noops() == []                       # nor leaves a message as it was
    assert [w for w in world.writes if w.reupload] == []     # a picture shown already is kept, in DMs too
    clicks = [i for i in world.interactions if i.data.get("custom_id")]
    assert clicks and all(i.updated for i in clicks)     # every click is answered by editing its message
    assert all(sum(w.response for w in writes) <= 1 for writes in world.writes.by_cause().values())


@pytest.mark.parametrize("game", sorted(NOW))
async def test_another_seeded_game_keeps_the_same_ceilings(game):
    """Seed 11 (a longer Klash! match, a third Night): the ceilings hold on another game too."""
    _tally, world = await run_one(game, 11)
    assert_writes_per_click(world, 2)
    assert sum(w.channel for w in world.writes) <= len(world.interactions)
    assert_no_repeated_edits(world)
    assert world.writes.noops() == [] and [w for w in world.writes if w.reupload] == []


async def test_a_click_on_the_table_edits_it_through_the_click_and_keeps_its_picture(bot, world, seed):
    """A Klash! auction pick is clicked on the table message: the table's next state is that click's
    own response (outside the channel's bucket), not a channel edit; and the picture,
    when its bytes did not change, is not uploaded again."""
    from tests.cogs.test_klash import answer, start_draft, state_of
    from rules.klash import ENGINE

    game = await start_draft(bot, world, seed)
    while True:          # to a pick after which the same player picks again: the table stays put
        record, state = await state_of(bot, game.id)
        table = record.meta["table"]["message"]
        before = len(world.writes)
        prompt = ENGINE.pending(state)[0]
        clicked = await answer(world, game.id, prompt, [prompt.options[0].id])
        _, after = await state_of(bot, game.id)
        if ENGINE.pending(after)[0].player == prompt.player:
            break
    mine = [w for w in world.writes[before:] if w.message == table]
    assert [w.kind for w in mine] == ["update"]       # one write: the click's response is the next pick
    assert not [w for w in mine if w.channel]
    assert clicked.edits[-1]["content"] == world.sent.by_id[table].content       # the table's next pick,
    assert world.body(world.sent.by_id[table]).startswith(f"<@{prompt.player}> — ")   # under the picks told
    # no upload of the picture it shows already
    assert not [w for w in mine if w.reupload]


@pytest.mark.parametrize("game, stage", [("klash", "draft"), ("carnival_zombie", "sunset")])
async def test_every_prompt_of_a_fast_auction_and_of_a_sunset_shows_within_half_a_second(game, stage):
    """The issue's Done-when: players clicking every 300 ms (on the game's clock too: they are at
    the table), each click's request taking 100 ms, Discord's 5-per-5-s channel bucket emulated
    both ways: each next prompt shows within half a second of the click (p90), and an auction at a
    pick a second never waits on the bucket."""
    _tally, world = await run_one(game, 7, pace=0.3)

    def timed(interaction) -> bool:
        return getattr(interaction, "stage", None) == stage
    for kind in ("leaky", "window"):
        timeline = replay(world.writes, world.interactions, 0.3, round_trip=0.1, buckets=Buckets(kind=kind))
        shown = timeline.latencies(timed)
        assert len(shown) == {"klash": 24, "carnival_zombie": 14}[game]       # 24 picks; the Sunset's prompts
        assert percentile(shown, 90) <= 0.5 and timeline.waited_for(timed) == 0.0
        calm = replay(world.writes, world.interactions, 1.0, round_trip=0.1, buckets=Buckets(kind=kind))
        assert calm.waited_for(timed) == 0.0


async def test_a_click_on_the_table_whose_step_runs_long_is_marked_in_time_then_edited_through_it(bot, world, seed):
    """Discord answers a click within 3 s or shows it failed: past the host's deadline the held
    response gives the click its answered mark, and the table's next state follows through the
    click's webhook (still outside the channel's bucket)."""
    from tests.cogs.test_framework import start_duel, start_prompt

    await start_duel(world)
    table = start_prompt(world)
    bot.host.ACK_DEADLINE = 0.0
    show = bot.host.table.show

    async def slow_show(*args, **kwargs):       # the step's publish outlasts the deadline
        await asyncio.sleep(0.01)
        return await show(*args, **kwargs)
    bot.host.table.show = slow_show
    before = len(world.writes)
    clicked = await click(world, table, world.users[2], index=0)       # "Alice starts"
    assert [w.kind for w in world.writes[before:] if w.message == table.id] == ["update", "original"]
    assert clicked.edits[0]["content"].endswith("\n✅ Alice: Alice starts") and clicked.edits[0]["view"] is None
    assert world.said() == "<@2> plays first." and not [w for w in world.writes[before:] if w.channel]
