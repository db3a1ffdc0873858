"""The outbox through the framework: an action committed by a process that died before its
messages went out is published by the next sweep, once."""
import asyncio
from collections import Counter

import pytest

from cogs.host import systems
from rules.common import Actor, Choose
from tests.cogs.test_framework import start_duel, start_prompt
from tests.conftest import make_bot, make_config
from tests.support.fakes import World, click
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


async def test_an_action_overtaken_by_a_later_one_sends_its_events_late_and_not_its_prompts(bot, world):
    game = await start_duel(world)
    record, _, _ = await bot.host.commit(game, Choose("start", ("me",)), Actor("2"))
    before = len(world.sent)
    engine = systems.get("duel").engine
    prompt = next(p for p in engine.pending(engine.load_state(record.state)) if p.player == "2")
    await bot.host.commit(record, Choose(prompt.id, (prompt.options[0].id,)), Actor("2"))
    await bot.store.mark_published(game.id, record.version + 1)   # the later action was published
    assert await bot.host.deliver_outbox() == 1
    # "Alice plays first" was owed and is told (late), appended to the narrative above the table as
    # its publish would have; its prompt (Alice's card) was answered since: no message is new
    assert world.sent[before:] == [] and world.said() == "<@2> plays first."
    assert await bot.store.outbox_pending(game.id) == []
    assert await bot.host.deliver_outbox() == 0 and len(world.sent) == before
    assert world.said() == "<@2> plays first."        # and told once


def narrative(world) -> str:
    """Everything the channel's messages say, in their order."""
    return "\n".join(m.content or "" for m in world.sent if m.where == "channel:10" and not m.deleted)


async def test_an_overtaken_action_is_narrated_before_the_action_that_overtook_it(bot, world):
    """After a restart the sweep owes Alice's "I play first"; her card click (on a DM shown
    before the crash) commits meanwhile. Its publish waits for the older one: the table reads
    the story in the order it happened."""
    game = await start_duel(world)
    first, _, _ = await bot.host.commit(game, Choose("start", ("me",)), Actor("2"))   # then the process dies
    second = await restart(bot, world)
    try:
        engine = systems.get("duel").engine
        prompt = next(p for p in engine.pending(engine.load_state(first.state)) if p.player == "2")
        card = prompt.options[0].id
        held, go = asyncio.Event(), asyncio.Event()
        action = second.store.action

        async def slow(*args):              # the sweep has claimed the action, not yet published it
            held.set()
            await go.wait()
            return await action(*args)

        second.store.action = slow
        sweep = asyncio.create_task(second.host.deliver_outbox())
        await held.wait()
        new, outcome, before = await second.host.commit(first, Choose(prompt.id, (card,)), Actor("2"))
        clicked = asyncio.create_task(second.host.publish(None, new, outcome.state, outcome.events, before))
        await asyncio.sleep(0.05)           # (the click's publish would have gone first)
        go.set()
        assert await sweep == 1
        await clicked
        told = narrative(world)
        assert told.count("<@2> plays first.") == 1 and told.count(f"<@2> plays {card}.") == 1
        assert told.index("<@2> plays first.") < told.index(f"<@2> plays {card}.")
        assert await second.store.outbox_pending(game.id) == []
    finally:
        await second.close()


async def test_a_game_started_just_before_a_crash_is_opened_after_the_restart(bot, world):
    """`host.start` owes its opening like an action (seq 0): the process dies at its first send."""
    crash_at_send(world, 1)
    with pytest.raises(Crash):
        await start_duel(world)
    world.record = World.record.__get__(world)
    assert not any(m.where == "channel:10" for m in world.sent)
    game = await bot.store.active_game(1, 10)
    second = await restart(bot, world)
    try:
        assert await second.host.deliver_outbox() == 1
        assert f"game #{game.id} starts" in narrative(world)
        assert "Who plays first" in world.table().content and world.table().view is not None
        assert await second.store.outbox_pending(game.id) == []
        sent = len(world.sent)
        assert await second.host.deliver_outbox() == 0 and len(world.sent) == sent
    finally:
        await second.close()


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


class Crash(BaseException):
    """The process dies here (not an Exception: no handler of the bot's catches it)."""


def crash_at_send(world, n: int) -> None:
    """The process dies as it makes its n-th send from now, before Discord has it."""
    record, calls = world.record, []

    def dying(where, content=None, **kwargs):
        calls.append(where)
        if len(calls) == n:
            raise Crash()
        return record(where, content, **kwargs)

    world.record = dying


async def play_click(world):
    """Alice starts and the game waits on her private card: the click on it sends two messages,
    her draw, then Bruno's prompt, by DM (the public line is the table's narrative)."""
    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=0)
    return game, world.last("dm:2", with_view=True)


async def restart(bot, world):
    await bot.close()
    second = await make_bot(bot.config)
    world.attach(second)
    return second


def dms(world, since: int) -> Counter:
    return Counter(m.where for m in world.sent[since:] if m.where.startswith("dm:"))


async def test_a_publish_cut_short_sends_only_its_missing_messages_after_a_restart(bot, world):
    game, card = await play_click(world)
    since = len(world.sent)
    crash_at_send(world, 2)             # Alice's draw went out, Bruno's prompt did not
    with pytest.raises(Crash):
        await click(world, card, world.users[2], index=0)
    world.record = World.record.__get__(world)
    assert [m.where for m in world.sent[since:]] == ["dm:2"]
    attempts = world.users[2].dm_attempts
    second = await restart(bot, world)
    try:
        assert await second.host.deliver_outbox() == 1
        assert dms(world, since) == Counter({"dm:2": 1, "dm:3": 1})       # each once, none doubled
        assert "Play a card" in world.last("dm:3", with_view=True).content
        # known sent: not even tried again (a nonce would stop a second copy only for minutes)
        assert world.users[2].dm_attempts == attempts
        assert await second.store.outbox_pending(game.id) == []
        assert await second.store.sent_slots(game.id, 2) == {}   # the publish ended: its record went
    finally:
        await second.close()


async def test_a_message_sent_but_not_recorded_is_sent_again_with_the_same_nonce(bot, world, monkeypatch):
    game, card = await play_click(world)
    since = len(world.sent)
    record_sent, calls = bot.store.record_sent, []

    async def dying(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:             # Discord took Alice's DM; the process died before noting it
            raise Crash()
        await record_sent(*args, **kwargs)

    monkeypatch.setattr(bot.store, "record_sent", dying)
    with pytest.raises(Crash):
        await click(world, card, world.users[2], index=0)
    first = [m.nonce for m in world.sent[since:]]
    assert len(first) == 1 and isinstance(first[0], int) and 0 < first[0] and len(str(first[0])) <= 25
    attempts = world.users[2].dm_attempts
    second = await restart(bot, world)
    try:
        assert await second.host.deliver_outbox() == 1
        # Alice's DM went out again under its nonce, and Discord answered with the first one
        assert world.users[2].dm_attempts == attempts + 1
        assert dms(world, since) == Counter({"dm:2": 1, "dm:3": 1})
        assert len({m.nonce for m in world.sent[since:] if m.where.startswith("dm:")}) == 2
    finally:
        await second.close()


async def test_the_same_slot_gets_the_same_nonce_in_another_process_and_not_in_another_database(bot, world, tmp_path):
    from cogs.host.courier import Slots
    slots = Slots(1, 5, 2)
    nonce = await bot.host.courier.nonce(slots, "c10#0")
    assert nonce == await bot.host.courier.nonce(Slots(1, 5, 2), "c10#0")
    assert nonce != await bot.host.courier.nonce(slots, "c10#1") != await bot.host.courier.nonce(Slots(1, 5, 3), "c10#0")
    other = await make_bot(make_config(tmp_path / "other.sqlite3"))
    try:
        assert await other.host.courier.nonce(slots, "c10#0") != nonce
    finally:
        await other.close()


async def test_a_status_republish_after_the_action_was_published_sends_its_prompt_again(bot, world):
    game, card = await play_click(world)
    since = len(world.sent)
    await bot.host.republish(world.interaction(world.users[2], world.channels[10]), await bot.store.game(game.id))
    assert [m.where for m in world.sent[since:] if m.view] == ["dm:2"]


async def test_a_lobby_started_just_before_a_crash_opens_its_game_after_the_restart(bot, world):
    alice, bruno = world.users[2], world.users[3]
    lobby = await bot.host.open_lobby(world.interaction(alice, world.channels[10]), "duel", 2, 2)
    join = world.last("channel:10", with_view=True)
    await click(world, join, bruno, index=0)
    lobby = await bot.store.game(lobby.id)
    engine = systems.get("lobby").engine
    start = next(p for p in engine.pending(engine.load_state(lobby.state)))
    starts = "start"
    # Start is committed (the table ends, its game is created), then the process dies.
    ended, _, _ = await bot.host.commit(lobby, Choose(start.id, (starts,)), Actor(str(alice.id)))
    assert ended.status == "ended"
    since = len(world.sent)
    second = await restart(bot, world)
    try:
        assert await second.host.deliver_outbox() == 1
        duel = await second.store.active_game(1, 10)
        assert duel.system == "duel"
        texts = [m.content for m in world.sent[since:]]
        assert any(f"game #{duel.id} starts" in (t or "") for t in texts), texts
        assert "Who plays first" in world.last("channel:10", with_view=True).content
        assert not any("is over" in (t or "") for t in texts), texts
        assert await second.host.deliver_outbox() == 0
    finally:
        await second.close()


async def test_a_sweep_leaves_an_action_being_published_here_to_its_publish(bot, world):
    game, card = await play_click(world)
    engine = systems.get("duel").engine
    prompt = engine.pending(engine.load_state((await bot.store.game(game.id)).state))[0]
    record, _, _ = await bot.host.commit(await bot.store.game(game.id), Choose(prompt.id, (prompt.options[0].id,)),
                                         Actor("2"))
    bot.host._publishing.add((game.id, record.version))      # its publish has begun, here
    assert await bot.host.deliver_outbox() == 0
    bot.host._publishing.clear()
    # the claim was given back: the action is not stuck behind a lease
    assert len(await bot.store.claim_outbox()) == 1


async def test_a_restart_delivers_at_once_what_the_dead_process_had_claimed(bot, world):
    game = await start_duel(world)
    await bot.host.commit(game, Choose("start", ("me",)), Actor("2"))
    assert len(await bot.store.claim_outbox()) == 1         # a sweep claimed it, and the process died
    second = await restart(bot, world)
    try:
        # not after the claim's 60 s lease: SQLite's only process takes every claim at start-up,
        # and on PostgreSQL the dead claimer's lock is gone
        assert await second.sweep_outbox(startup=True) == 1
        assert "Play a card" in world.last("dm:2", with_view=True).content
    finally:
        await second.close()


async def test_no_action_commits_before_the_start_up_sweep_has_claimed_what_a_dead_process_left(bot, world,
                                                                                                monkeypatch):
    """A click right after a restart, before the sweep has run: it commits once the sweep knows the
    dead process's unpublished action, so its publish comes after that one's (before: it committed
    first, published its step, and the older action's lines came out after it)."""
    game = await start_duel(world)
    await bot.host.commit(game, Choose("start", ("me",)), Actor("2"))     # then the process dies
    second = await restart(bot, world)
    try:
        await second._async_setup_hook()
        second._ready.set()
        fresh = await second.store.game(game.id)
        engine = systems.get("duel").engine
        prompt = engine.pending(engine.load_state(fresh.state))[0]
        calls: list[str] = []
        for name in ("claim_outbox", "commit_action"):
            original = getattr(second.store, name)

            async def recorded(*args, _name=name, _original=original, **kwargs):
                calls.append(_name)
                return await _original(*args, **kwargs)
            monkeypatch.setattr(second.store, name, recorded)
        sweeping = asyncio.get_running_loop().create_task(second._sweep_outbox_forever())
        await second.host.commit(fresh, Choose(prompt.id, (prompt.options[0].id,)), Actor(prompt.player))
        sweeping.cancel()
        assert calls == ["claim_outbox", "commit_action"]
    finally:
        await second.close()
