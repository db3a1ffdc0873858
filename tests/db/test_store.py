import asyncio
import sqlite3

import pytest

from db.store import MIGRATIONS, ChannelBusy, StoreError, VersionConflict

LATEST = max(int(script.name.split("_", 1)[0]) for script in MIGRATIONS.glob("*.sql"))


async def test_migrations_and_reopen(database, store):
    assert await store.schema_version() == LATEST
    again = await database.open()               # idempotent
    assert await again.schema_version() == LATEST
    await again.close()


async def test_sqlite_is_wal_in_a_created_folder(tmp_path):
    from db.store import Store
    path = tmp_path / "nested" / "bauta.sqlite3"
    store = await Store.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_one_active_game_per_channel_and_version_check(store):
    game = await store.create_game(1, 10, "duel", ["2", "3"], {"n": 0}, 2)
    with pytest.raises(ChannelBusy):
        await store.create_game(1, 10, "duel", ["2", "3"], {"n": 0}, 2)
    moved = await store.commit_action(game, "2", {"type": "x"}, {"n": 1}, [{"text": "hi", "audience": "public"}])
    with pytest.raises(VersionConflict):
        await store.commit_action(game, "3", {"type": "y"}, {"n": 2}, [])
    assert (await store.game(game.id)).state == {"n": 1} and moved.version == 1
    assert [a.action for a in await store.actions(game.id)] == [{"type": "x"}]


async def test_two_processes_racing_on_one_game_apply_once(database, store):
    """Twenty clicks from two stores (two bot processes) on the same version: exactly one lands."""
    other = await database.open()
    try:
        game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
        attempts = [(store if i % 2 else other).commit_action(game, "2", {"i": i}, {"n": i}, [])
                    for i in range(20)]
        results = await asyncio.gather(*attempts, return_exceptions=True)
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert all(isinstance(r, VersionConflict) for r in results if isinstance(r, Exception))
        assert (await store.game(game.id)).version == 1 and len(await other.actions(game.id)) == 1
    finally:
        await other.close()


async def test_acknowledged_actions_survive_a_crash(database, store):
    """Whatever commit_action returned is stored: a new process (here a new connection) sees it."""
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    for n in range(1, 6):
        game = await store.commit_action(game, "2", {"n": n}, {"n": n}, [])
    # no close() before the second open: simulate the process dying here
    other = await database.open()
    assert (await other.game(game.id)).state == {"n": 5}
    assert len(await other.actions(game.id)) == 5
    await other.close()


async def test_undo_restores_the_exact_state_and_keeps_the_history(store):
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0, "rng": [1, 2]}, 2)
    states = [game.state]
    for n in range(1, 5):
        game = await store.commit_action(game, "2", {"n": n}, {"n": n, "rng": [n, n * 7]}, [])
        states.append(game.state)
    game, undone = await store.undo(game, 2)
    assert undone == 2 and game.state == states[2] and game.version == 5
    stale = game
    game = await store.commit_action(game, "2", {"n": 9}, {"n": 9}, [])
    with pytest.raises(VersionConflict):
        await store.undo(stale)                 # someone acted since: the undo is refused
    assert len(await store.actions(game.id, include_undone=True)) == 5
    game, undone = await store.undo(game, 10)
    assert undone == 3 and game.state == states[0]
    with pytest.raises(StoreError):
        await store.undo(game)


async def test_purge_guild_removes_everything_of_that_guild_only(database, store):
    for guild in (1, 2):
        game = await store.create_game(guild, 10, "duel", ["2"], {}, 2)
        await store.commit_action(game, "2", {}, {"a": 1}, [])
        await store.update_settings(guild, gm_role_id=5)
        await store.set_house_rule(guild, "duel", "rounds", 3)
        await store.save_character(guild, 2, "karmic", "Devon", {"x": 1})
        await store.save_pack(guild, "klash", "mine", "a: 1", 2)
        await store.log_roll(guild, 10, 2, "1d6", 3)
        await store.mark_dm_closed(guild, 2)
        await store.remember_gm(guild, 3)
    await store.purge_guild(1)
    assert await store.games(1) == [] and await store.characters(1, "karmic") == []
    assert (await store.settings(1)).gm_role_id is None and await store.packs(1) == []
    assert (await store.roll_stats(1, 2)).rolls == 0 and await store.dm_closed_since(1, 2) is None
    assert len(await store.games(2)) == 1 and (await store.settings(2)).gm_role_id == 5
    assert await store.known_gms(1) == set() and await store.known_gms(2) == {3}
    other = await database.open()                           # the purge is in the database, not only in caches
    assert await other.known_gms(1) == set() and await other.known_gms(2) == {3}
    await other.close()


async def test_values_come_back_with_the_same_types_on_both_backends(store):
    """Discord ids need 64 bits; sums are ints; names match without case; upserts replace."""
    big = 1_234_567_890_123_456_789
    await store.update_settings(big, gm_role_id=big - 1, deadline_minutes=1.5)
    store._settings.clear()
    settings = await store.settings(big)
    assert (settings.gm_role_id, settings.deadline_minutes) == (big - 1, 1.5)
    await store.save_character(big, big, "karmic", "Devon", {"x": 1})
    await store.save_character(big, big, "karmic", "Devon", {"x": 2})
    assert await store.character(big, big, "karmic", "dEVON") == {"x": 2}
    for total in (3, 4, 5):
        await store.log_roll(big, None, big, "1d6", total, expected=3.5, variance=35 / 12, secret=total == 5)
    stats = await store.roll_stats(big, big)
    assert (stats.rolls, stats.secret, stats.plain) == (3, 1, 3) and type(stats.secret) is int
    assert stats.mean_offset == pytest.approx(0.5) and stats.by_expression == [("1d6", 3)]
    await store.mark_dm_closed(big, big)
    await store.mark_dm_closed(big, big)
    assert await store.dm_closed_since(big, big) is not None
    await store.set_meta_value("k", "a")
    await store.set_meta_value("k", "b")
    assert await store.get_meta("k") == "b"
    await store.save_pack(big, "klash", "mine", "é: 1", big)
    assert [(p["name"], p["size"]) for p in await store.packs(big)] == [("mine", 4)]


async def test_the_idle_bot_and_deadline_settings_are_kept(database, store):
    assert (await store.settings(1)).idle_bot is None                   # off by default
    await store.update_settings(1, deadline_minutes=120, idle_bot="normal")
    await store.update_settings(1, locale="it")                         # other settings keep them
    reopened = await database.open()
    try:
        kept = await reopened.settings(1)
        assert (kept.idle_bot, kept.deadline_minutes, kept.locale, kept.archive_days) == ("normal", 120, "it", None)
    finally:
        await reopened.close()
    await store.update_settings(1, idle_bot=None)
    assert (await store.settings(1)).idle_bot is None


async def test_known_gms_are_remembered_and_forgotten(database, store):
    await store.remember_gm(1, 3)
    await store.remember_gm(1, 4)
    await store.remember_gm(1, 3)                              # seen again: still one entry
    await store.forget_gm(1, 4)
    assert await store.known_gms(1) == {3}
    other = await database.open()
    assert await other.known_gms(1) == {3} and await other.known_gms(2) == set()
    await other.close()


async def test_a_version_1_database_is_upgraded_in_place(tmp_path):
    from db.store import MIGRATIONS, Store, _split_sql

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statement in _split_sql((MIGRATIONS / "001_initial.sql").read_text()):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (1)")
        conn.execute("INSERT INTO guild_settings (guild_id, gm_role_id, updated_at) VALUES (1, 5, 'x')")
    store = await Store.open(path)
    assert await store.schema_version() == LATEST
    settings = await store.settings(1)
    assert settings.gm_role_id == 5 and settings.deadline_minutes is None
    await store.close()


async def test_deployment_lock_is_held_by_one_process_at_a_time(database, store):
    other = await database.open()
    try:
        async with store.lock("sweep") as first:
            async with other.lock("sweep") as second:
                assert first is True
                # SQLite is one process: its lock is always held. PostgreSQL: one holder.
                assert second is (database.backend == "sqlite")
        async with other.lock("sweep") as again:
            assert again is True
    finally:
        await other.close()


@pytest.mark.parametrize("backend", ["postgres"])       # SQLite's lock is the process itself
async def test_a_lock_whose_unlock_failed_is_not_handed_on_with_its_pooled_connection(database, store, monkeypatch):
    """PostgreSQL: pooled connections are released without asyncpg's full reset (a round trip less
    on each of ~7 releases an action); so a session lock that could not be unlocked must end with
    its session."""
    other = await database.open()
    try:
        lock = store.lock("sweep")
        assert await lock.__aenter__() is True

        async def broken(*args, **kwargs):
            raise ConnectionError("lost while unlocking")
        monkeypatch.setattr(type(lock.conn), "execute", broken)
        with pytest.raises(ConnectionError):
            await lock.__aexit__(None, None, None)
        monkeypatch.undo()
        # the session that held it is gone: PostgreSQL lets it go once that backend has exited,
        # which it does shortly after the connection is terminated (a loaded machine: some ms)
        for _attempt in range(100):
            async with other.lock("sweep") as again:
                if again:
                    break
            await asyncio.sleep(0.05)
        assert again is True
        # and the pool still serves (the terminated connection is replaced)
        assert await store.settings(1) is not None
    finally:
        await other.close()


@pytest.mark.parametrize("backend", ["postgres"])       # PostgreSQL's pool only
async def test_a_pooled_connection_left_in_a_transaction_is_fully_reset(database, store):
    conn = await store.pool.acquire()
    await conn.execute("BEGIN")
    await conn.execute("SET LOCAL statement_timeout = 1234")
    await store.pool.release(conn)
    async with store.pool.acquire() as again:
        assert not again.is_in_transaction()
        assert await again.fetchval("SHOW statement_timeout") == "0"


async def test_an_action_can_end_its_game_or_hand_over_to_the_next_in_one_transaction(store):
    lobby = await store.create_game(1, 10, "lobby", ["2"], {"n": 0}, 2)
    ended, opened = await store.commit_and_create(lobby, "2", {"start": 1}, {"n": 1}, [], "duel", ["2", "3"],
                                                  {"hands": {}}, 2, outbox=[{"publish": True}])
    assert (ended.status, ended.version) == ("ended", 1) and (await store.game(lobby.id)).status == "ended"
    assert opened.id != lobby.id and (await store.active_game(1, 10)).id == opened.id
    assert [m.seq for m in await store.outbox_pending(lobby.id)] == [1]
    with pytest.raises(VersionConflict):                     # the lobby's Start applies once
        await store.commit_and_create(lobby, "2", {}, {"n": 2}, [], "duel", ["2"], {}, 2)
    last = await store.commit_action(opened, "2", {}, {"over": True}, [], end=True)
    assert last.status == "ended" and (await store.game(opened.id)).status == "ended"
    assert await store.active_game(1, 10) is None


async def test_a_meta_patch_keeps_what_others_wrote_meanwhile(store):
    """A publish writes only what it changed (a merge patch), in one transaction with the mark
    that its action was published: a GM's vote written meanwhile, and a prompt message recorded by
    another publish, both survive; a key the patch removes is gone."""
    from db.delta import merge_diff
    game = await store.create_game(1, 11, "duel", ["2", "3"], {"n": 0}, 2)
    game = await store.set_meta(game, {"table": {"message": 5, "narrative": 4}, "prompt_messages": {"a": {"m": 1}},
                                       "reminded": "x"})
    read = await store.game(game.id)
    # meanwhile: another hand writes a vote and records prompt "b"
    await store.set_meta(read, {**read.meta, "end_votes": ["2"],
                                "prompt_messages": {"a": {"m": 1}, "b": {"m": 2}}})
    changed = {**read.meta, "table": {"message": 9, "narrative": 4}, "prompt_messages": {"c": {"m": 3}}}
    changed.pop("reminded")
    written = await store.patch_meta(read, merge_diff(read.meta, changed), published=read.version)
    stored = (await store.game(game.id)).meta
    assert stored == written.meta == {"table": {"message": 9, "narrative": 4}, "end_votes": ["2"],
                                      "prompt_messages": {"b": {"m": 2}, "c": {"m": 3}}}
    assert await store.patch_meta(written, {}) is written       # nothing changed: no write at all


async def test_fresh_reads_the_meta_and_decodes_the_state_only_when_it_changed(store):
    game = await store.create_game(1, 11, "duel", ["2", "3"], {"n": 0}, 2)
    game = await store.commit_action(game, "2", {}, {"n": 1}, [])
    await store.set_meta(game, {"table": 55})                 # written meanwhile, by someone else
    same = await store.fresh(game)
    assert same is not None and same.meta == {"table": 55} and same.version == game.version
    assert same.state is game.state                           # not read, not decoded again
    newer = await store.commit_action(same, "3", {}, {"n": 2}, [])
    seen = await store.fresh(game)                            # `game` is one action behind now
    assert seen is not None and seen.version == newer.version and seen.state == {"n": 2}
    assert (await store.fresh(game)).status == "active"
    ended = await store.end_game(newer)
    assert (await store.fresh(ended)).status == "ended"


async def test_a_saved_record_is_replaced_only_while_it_is_as_it_was_read(store):
    """Compare-and-set for squads and campaigns: of two commands that read the same record, the
    second to write finds it changed and writes nothing."""
    await store.save_character(1, 2, "carnevale", "Rashaar", {"squad": {"name": "Rashaar"}, "bank": 12})
    first = await store.character(1, 2, "carnevale", "rashaar")
    second = await store.character(1, 2, "carnevale", "Rashaar")
    assert await store.replace_character(1, 2, "carnevale", "Rashaar", first, {**first, "bank": 7})
    assert not await store.replace_character(1, 2, "carnevale", "Rashaar", second, {**second, "bank": 9})
    assert await store.character(1, 2, "carnevale", "Rashaar") == {"squad": {"name": "Rashaar"}, "bank": 7}
    # another owner's record of the same name, or no record at all, is never written
    assert not await store.replace_character(1, 3, "carnevale", "Rashaar", first, {"bank": 0})
    assert await store.character(1, 3, "carnevale", "Rashaar") is None
