"""SQLite statements run on the event loop's own thread (db/store.py `_call`); what may take long
does not: a checkpoint fsyncs the database, so it runs on aiosqlite's worker thread."""
import re
import threading

import pytest

from db.store import CHECKPOINT_EVERY, Store


async def test_the_loops_connection_never_checkpoints_and_the_worker_does_every_checkpoint_every(tmp_path):
    store = await Store.open(tmp_path / "bauta.sqlite3")
    try:
        assert store.raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        on_loop: list[str] = []
        on_worker: list[tuple[int, str]] = []
        store.raw.set_trace_callback(on_loop.append)
        await store._threaded(lambda raw: raw.set_trace_callback(
            lambda sql: on_worker.append((threading.get_ident(), sql))))
        for _round in range(2):
            for i in range(CHECKPOINT_EVERY):
                await store.set_meta_value("k", str(i))
            assert store._checkpoint is not None        # scheduled at the CHECKPOINT_EVERY-th write
            await store._checkpoint
        store.raw.set_trace_callback(None)
    finally:
        await store.close()
    assert [sql for sql in on_loop if "checkpoint" in sql.lower()] == []
    assert len([sql for sql in on_loop if sql == "BEGIN IMMEDIATE"]) == 2 * CHECKPOINT_EVERY
    checkpoints = [(thread, sql) for thread, sql in on_worker if "checkpoint" in sql.lower()]
    assert [sql for _, sql in checkpoints] == ["PRAGMA wal_checkpoint(PASSIVE)"] * 2
    assert threading.get_ident() not in {thread for thread, _ in checkpoints}


async def test_a_long_read_goes_through_the_worker_thread_and_sees_every_commit(tmp_path):
    store = await Store.open(tmp_path / "bauta.sqlite3")
    try:
        game = await store.create_game(1, 10, "duel", ["2", "3"], {"n": 0}, 2)
        for n in range(3):
            game = await store.commit_action(game, "2", {"n": n}, {"n": n + 1}, [])
        on_loop: list[str] = []
        store.raw.set_trace_callback(on_loop.append)
        logged = await store.actions(game.id, limit=10_000, include_undone=True)     # /game export's read
        store.raw.set_trace_callback(None)
    finally:
        await store.close()
    assert [a.action for a in logged] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert on_loop == []


async def test_a_write_lock_held_by_another_process_is_waited_for_without_stopping_the_loop(tmp_path):
    """Shards sharing the file: the loop's connection does not sleep on the other's lock (it held
    every guild's clicks meanwhile); refused writes wait while the loop goes on, then land in the
    order they were refused, every statement on the loop's own connection."""
    import asyncio
    import sqlite3

    store = await Store.open(tmp_path / "bauta.sqlite3")
    other = sqlite3.connect(tmp_path / "bauta.sqlite3", isolation_level=None)
    on_worker: list[str] = []
    await store._threaded(lambda raw: raw.set_trace_callback(on_worker.append))
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO meta (key, value) VALUES ('first', 'other')")
        loop = asyncio.get_running_loop()
        writes = [loop.create_task(store.set_meta_value("order", str(n))) for n in range(3)]
        ticks = 0
        while ticks < 5:                # the loop goes on while the writes wait
            await asyncio.sleep(0.01)
            ticks += 1
        assert not any(w.done() for w in writes)
        assert len(store._refused) == 3
        on_loop: list[str] = []
        store.raw.set_trace_callback(on_loop.append)
        other.execute("COMMIT")
        await asyncio.gather(*writes)
        store.raw.set_trace_callback(None)
        assert (await store.get_meta("first"), await store.get_meta("order")) == ("other", "2")
        # in the order they were refused, each once, on the loop's connection
        assert re.findall(r"VALUES \('order', '(\d)'\)", "\n".join(on_loop)) == ["0", "1", "2"]
        assert not store._refused and store._retry is None
    finally:
        other.close()
        await store.close()
    assert [sql for sql in on_worker if "meta" in sql] == []


async def test_a_write_refused_for_longer_than_busy_wait_fails_and_a_cancelled_one_is_not_run(tmp_path, monkeypatch):
    import asyncio
    import sqlite3

    import db.store

    monkeypatch.setattr(db.store, "BUSY_WAIT", 0.05)
    store = await Store.open(tmp_path / "bauta.sqlite3")
    other = sqlite3.connect(tmp_path / "bauta.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        cancelled = asyncio.get_running_loop().create_task(store.set_meta_value("cancelled", "yes"))
        await asyncio.sleep(0.01)
        cancelled.cancel()
        with pytest.raises(sqlite3.OperationalError) as refused:
            await store.set_meta_value("late", "yes")
        assert refused.value.sqlite_errorcode == sqlite3.SQLITE_BUSY
        other.execute("ROLLBACK")
        await store.set_meta_value("after", "yes")      # the lock free again: a write lands at once
        assert (await store.get_meta("cancelled"), await store.get_meta("late"),
                await store.get_meta("after")) == (None, None, "yes")
        assert cancelled.cancelled() and not store._refused
    finally:
        other.close()
        await store.close()
