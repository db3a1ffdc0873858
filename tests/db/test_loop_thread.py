"""SQLite statements run on the event loop's own thread (db/store.py `_call`); what may take long
does not: a checkpoint fsyncs the database, so it runs on aiosqlite's worker thread."""
import threading

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


async def test_a_write_lock_held_by_another_process_is_waited_for_off_the_loop(tmp_path):
    """Shards sharing the file: the loop's connection does not sleep on the other's lock (it held
    every guild's clicks meanwhile); the write waits on the worker thread and lands after it."""
    import asyncio
    import sqlite3

    store = await Store.open(tmp_path / "bauta.sqlite3")
    other = sqlite3.connect(tmp_path / "bauta.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO meta (key, value) VALUES ('first', 'other')")
        write = asyncio.get_running_loop().create_task(store.set_meta_value("second", "ours"))
        ticks = 0
        while ticks < 5:                # the loop goes on while the write waits
            await asyncio.sleep(0.01)
            ticks += 1
        assert not write.done()
        other.execute("COMMIT")
        await write
        assert (await store.get_meta("first"), await store.get_meta("second")) == ("other", "ours")
    finally:
        other.close()
        await store.close()
