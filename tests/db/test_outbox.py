"""The outbox: messages recorded with their action, claimed once, marked sent, dropped by undo."""
import asyncio

import pytest

from db.store import VersionConflict, shard_of


async def test_messages_are_recorded_in_the_actions_transaction(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    game = await store.commit_action(game, "2", {}, {"n": 1}, [], outbox=[{"to": "channel", "text": "a"},
                                                                            {"to": "dm:2", "text": "b"}])
    pending = await store.outbox_pending(game.id)
    assert [(m.seq, m.position, m.payload["text"]) for m in pending] == [(1, 0, "a"), (1, 1, "b")]
    # A refused action records nothing: the messages belong to the action, not to the attempt.
    stale = game.__class__(**{**game.__dict__, "version": 0})
    with pytest.raises(VersionConflict):
        await store.commit_action(stale, "2", {}, {"n": 9}, [], outbox=[{"text": "never"}])
    assert len(await store.outbox_pending(game.id)) == 2
    await store.mark_sent([pending[0].id])
    assert [m.payload["text"] for m in await store.outbox_pending(game.id, seq=1)] == ["b"]


async def test_a_sweep_claims_each_message_once_across_processes(database, store):
    other = await database.open()
    try:
        game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
        for n in range(1, 11):
            game = await store.commit_action(game, "2", {}, {"n": n}, [], outbox=[{"n": n}])
        first, second = await asyncio.gather(store.claim_outbox(limit=6), other.claim_outbox(limit=6))
        claimed = [m.payload["n"] for m in first + second]
        assert sorted(claimed) == list(range(1, 11))          # each once, none twice
        assert await store.claim_outbox() == []                # all leased now
        await store.mark_sent(m.id for m in first)
        # A claimer that died: its lease runs out and the messages it never sent come back.
        again = await other.claim_outbox(lease_seconds=0)
        assert again == []
        await store._write(("UPDATE outbox SET claimed_until = ? WHERE status = 'pending'", ("2000-01-01",)))
        assert sorted(m.payload["n"] for m in await other.claim_outbox()) == sorted(m.payload["n"] for m in second)
    finally:
        await other.close()


async def test_each_process_sweeps_its_own_shards(store):
    guilds = [(n << 22) + 7 for n in range(8)]        # guild n is on shard n % shard_count
    for guild in guilds:
        game = await store.create_game(guild, 10, "duel", ["2"], {}, 2)
        await store.commit_action(game, "2", {}, {"a": 1}, [], outbox=[{"g": guild}])
    mine = await store.claim_outbox(shard_ids=[0, 1], shard_count=4)
    assert sorted(m.guild_id for m in mine) == [guilds[0], guilds[1], guilds[4], guilds[5]]
    assert all(shard_of(m.guild_id, 4) in (0, 1) for m in mine)
    assert await store.claim_outbox(shard_ids=[], shard_count=4) == []
    assert await store.claim_outbox(older_than="2000-01-01T00:00:00+00:00") == []
    assert len(await store.claim_outbox()) == 4


async def test_undo_drops_the_undone_actions_undelivered_messages(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    game = await store.commit_action(game, "2", {}, {"n": 1}, [], outbox=[{"n": 1}])
    game = await store.commit_action(game, "2", {}, {"n": 2}, [], outbox=[{"n": 2}])
    game, _ = await store.undo(game)
    assert [m.payload for m in await store.outbox_pending(game.id)] == [{"n": 1}]
    assert [m.payload for m in await store.claim_outbox()] == [{"n": 1}]


async def test_purge_guild_forgets_its_outbox(store):
    for guild in (1, 2):
        game = await store.create_game(guild, 10, "duel", ["2"], {}, 2)
        await store.commit_action(game, "2", {}, {"a": 1}, [], outbox=[{"g": guild}])
    await store.purge_guild(1)
    assert [m.payload for m in await store.claim_outbox()] == [{"g": 2}]


async def test_a_finished_publish_marks_its_actions_messages_sent(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    game = await store.commit_action(game, "2", {"a": 1}, {"n": 1}, [{"text": "x"}], outbox=[{"m": 1}, {"m": 2}])
    later = await store.commit_action(game, "2", {"a": 2}, {"n": 2}, [], outbox=[{"m": 3}])
    await store.mark_published(game.id, 1)
    assert [m.payload for m in await store.outbox_pending(game.id)] == [{"m": 3}]
    assert (await store.action(game.id, 1)).events == [{"text": "x"}]
    assert (await store.action(later.id, 2)).action == {"a": 2} and await store.action(game.id, 9) is None


async def test_each_message_of_a_publish_is_recorded_once_by_its_slot(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    game = await store.commit_action(game, "2", {}, {"n": 1}, [], outbox=[{"publish": True}])
    assert await store.sent_slots(game.id, 1) == {}
    await store.record_sent(1, game.id, 1, "c10#0", 555)
    await store.record_sent(1, game.id, 1, "u2#0", None)
    await store.record_sent(1, game.id, 1, "c10#0", 999)      # a second record of a slot changes nothing
    assert await store.sent_slots(game.id, 1) == {"c10#0": 555, "u2#0": None}
    assert await store.sent_slots(game.id, 2) == {}
    # The publish ended: nothing will publish the action again, so its record goes.
    await store.mark_published(game.id, 1)
    assert await store.sent_slots(game.id, 1) == {}


async def test_a_swept_actions_slots_go_with_it_and_undo_drops_them(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    game = await store.commit_action(game, "2", {}, {"n": 1}, [], outbox=[{"publish": True}])
    game = await store.commit_action(game, "2", {}, {"n": 2}, [], outbox=[{"publish": True}])
    await store.record_sent(1, game.id, 1, "c10#0", 1)
    await store.record_sent(1, game.id, 2, "c10#0", 2)
    first = (await store.outbox_pending(game.id, seq=1))[0]
    await store.mark_sent([first.id])
    assert await store.sent_slots(game.id, 1) == {} and await store.sent_slots(game.id, 2) == {"c10#0": 2}
    game, _ = await store.undo(game)
    assert await store.sent_slots(game.id, 2) == {}


async def test_purge_guild_forgets_its_sent_slots(store):
    for guild in (1, 2):
        game = await store.create_game(guild, 10, "duel", ["2"], {}, 2)
        await store.commit_action(game, "2", {}, {"a": 1}, [], outbox=[{"g": guild}])
        await store.record_sent(guild, game.id, 1, "c10#0", guild)
    await store.purge_guild(1)
    rows = await store._all("SELECT guild_id FROM outbox_sent")
    assert [r["guild_id"] for r in rows] == [2]


async def test_the_deployment_salt_is_chosen_once(database, store):
    salt = await store.deployment_salt()
    assert len(salt) == 16
    other = await database.open()
    try:
        assert await other.deployment_salt() == salt
    finally:
        await other.close()


async def test_the_successor_is_the_next_game_opened_in_the_same_channel(store):
    lobby = await store.create_game(1, 10, "lobby", ["2"], {"n": 0}, 2)
    elsewhere = await store.create_game(1, 11, "duel", ["2"], {}, 2)
    assert await store.successor(lobby) is None
    lobby, opened = await store.commit_and_create(lobby, "2", {}, {"n": 1}, [], "duel", ["2", "3"], {"s": 1}, 2)
    assert (await store.successor(lobby)).id == opened.id and opened.id > elsewhere.id
    assert await store.successor(opened) is None


async def test_a_released_claim_can_be_claimed_again_at_once(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    await store.commit_action(game, "2", {}, {"n": 1}, [], outbox=[{"n": 1}])
    claimed = await store.claim_outbox()
    assert await store.claim_outbox() == []
    await store.release_outbox(m.id for m in claimed)
    assert [m.payload for m in await store.claim_outbox()] == [{"n": 1}]


async def test_a_start_up_over_a_lone_file_takes_the_claims_of_the_dead_process(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    await store.commit_action(game, "2", {}, {"n": 1}, [], outbox=[{"n": 1}])
    assert len(await store.claim_outbox()) == 1             # claimed, then the claimer died
    assert await store.claim_outbox() == []
    assert [m.payload for m in await store.claim_outbox(abandoned=True)] == [{"n": 1}]
    assert store.single_process == (store.dialect == "sqlite")


async def test_a_claim_of_a_process_that_died_is_taken_over_at_once(database, store):
    other = await database.open()
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    await store.commit_action(game, "2", {}, {"n": 1}, [], outbox=[{"n": 1}])
    assert len(await other.claim_outbox()) == 1
    assert await store.claim_outbox() == []                # its claimer lives: the lease holds
    await other.close()                                    # and dies
    # PostgreSQL knows (the claimer's lock went with its session); one SQLite process takes
    # every claim at its start-up instead (test above)
    assert len(await store.claim_outbox()) == (0 if store.single_process else 1)
