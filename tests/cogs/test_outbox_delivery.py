"""The outbox through the framework: an action committed by a process that died before its
messages went out is published by the next sweep, once."""
import pytest

from cogs import systems
from rules.common import Actor, Choose
from tests.cogs.test_framework import start_duel, start_prompt
from tests.conftest import make_bot
from tests.support.fakes import click
from tests.support.stores import BACKENDS


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


async def test_a_published_action_leaves_nothing_to_deliver(bot, world):
    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=0)
    assert await bot.store.outbox_pending(game.id) == []
    assert await bot.host.deliver_outbox() == 0


async def test_messages_lost_in_a_crash_are_delivered_once_by_the_next_process(bot, world):
    game = await start_duel(world)
    # The click is committed, then the process dies before publishing (no DM, no prompt yet).
    await bot.host.commit(game, Choose("start", ("me",)), Actor("2"))
    assert not any(m.where == "dm:2" and m.view for m in world.sent)
    await bot.close()
    second = await make_bot(bot.config)
    try:
        world.attach(second)
        assert await second.host.deliver_outbox() == 1          # at start-up
        dm = world.last("dm:2", with_view=True)
        assert "Play a card" in dm.content
        sent = len(world.sent)
        assert await second.host.deliver_outbox() == 0          # once: nothing sent again
        assert len(world.sent) == sent and await second.store.outbox_pending(game.id) == []
        await click(world, dm, world.users[2], index=0)          # and the game goes on from there
        assert (await second.store.game(game.id)).version == 2
    finally:
        await second.close()


async def test_an_action_overtaken_by_a_later_one_is_not_published_late(bot, world):
    game = await start_duel(world)
    record, _, _ = await bot.host.commit(game, Choose("start", ("me",)), Actor("2"))
    before = len(world.sent)
    engine = systems.get("duel").engine
    prompt = next(p for p in engine.pending(engine.load_state(record.state)) if p.player == "2")
    await bot.host.commit(record, Choose(prompt.id, (prompt.options[0].id,)), Actor("2"))
    await bot.store.mark_published(game.id, record.version + 1)   # the later action was published
    assert await bot.host.deliver_outbox() == 0
    assert len(world.sent) == before and await bot.store.outbox_pending(game.id) == []


async def test_the_bot_sweeps_its_own_shards_and_late_the_shards_of_others(bot, world):
    game = await start_duel(world)                         # guild 1: shard 0 of 2
    await bot.host.commit(game, Choose("start", ("me",)), Actor("2"))
    bot.shard_ids, bot.shard_count = [1], 2                 # this process runs shard 1 only
    assert await bot.sweep_outbox(startup=True) == 0        # not its guild, and not a minute old
    await bot.store._write(("UPDATE outbox SET created_at = ?", ("2020-01-01T00:00:00+00:00",)))
    assert await bot.sweep_outbox() == 1                    # shard 0's process is down: swept once
    assert "Play a card" in world.last("dm:2", with_view=True).content
    bot.shard_ids, bot.shard_count = None, 1
    assert await bot.sweep_outbox(startup=True) == 0
