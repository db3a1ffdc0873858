"""The store: numbered migrations, everything scoped by guild, one API over two engines.

`Store` is the embedded default (one SQLite file, WAL); `db.postgres.PostgresStore` runs the same
methods on PostgreSQL for deployments of several bot processes. The methods are written in the
SQL both engines share (`?` placeholders, upserts, RETURNING), one module per concern: the games
and their log (`db.games`), the outbox (`db.outbox`), a guild's other tables (`db.guild`). This
module is the SQLite side: the connections, the primitives (`_one`, `_all`, `_write`, ...), the
migration runner, checkpoints and the purge.

Nothing here knows a game's rules: states, actions and events are opaque JSON.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
import time
from collections import deque
from pathlib import Path
from typing import cast
from collections.abc import Iterable

import aiosqlite

from . import delta
from .clock import ClockTables
from .games import LONG_READ, SNAPSHOT_EVERY, GameTables  # noqa: F401 - SNAPSHOT_EVERY: re-exported
from .guild import GuildTables
from .jsontext import loads
from .outbox import OUTBOX_LEASE_SECONDS, OutboxTables  # noqa: F401 - re-exported
from .web import WebTables
from .records import (  # noqa: F401 - re-exported: callers import these from db.store
    ActionRecord, ChannelBusy, Duplicate, GameRecord, GuildSettings, OutboxMessage, RollStats, StoreError,
    VersionConflict, Written, _dumps, now, shard_of)

log = logging.getLogger("bauta.store")

MIGRATIONS = Path(__file__).parent / "migrations"

_GUILD_TABLES = ("guild_settings", "house_rules", "characters", "packs", "roll_log", "closed_dms", "outbox",
                 "outbox_sent", "known_gms", "awaiting", "game_setup", "web_links")

# The loop's connection never checkpoints by itself (a checkpoint fsyncs the database file: a
# pause of the whole loop); every this many write transactions a PASSIVE checkpoint runs on the
# worker thread's connection instead (about SQLite's own 1000-page default: an action writes ~5-10 pages).
CHECKPOINT_EVERY = 100
# A transaction another process's write lock refused is tried again in place for this many
# seconds, then once every as many while the loop goes on; and given up after BUSY_WAIT seconds.
BUSY_HOLD = 0.001
BUSY_WAIT = 5.0


class Store(GameTables, OutboxTables, GuildTables, ClockTables, WebTables):
    dialect = "sqlite"
    # One bot process per SQLite file (several processes share a PostgreSQL database instead):
    # at its start-up, whatever is claimed was claimed by a process that died.
    single_process = True
    _SKIP_LOCKED = ""     # SQLite has one writer at a time: nothing to skip
    _CLAIMER_DEAD = ""    # a claim whose process is known dead (SQLite: its start-up takes them all)

    def __init__(self, conn: aiosqlite.Connection, path: str, raw: sqlite3.Connection | None = None):
        self.conn = conn        # on aiosqlite's worker thread: migrations, long reads, checkpoints
        # on the event loop's own thread: every other statement (see `_call`); `open` sets it once migrated
        self.raw = cast(sqlite3.Connection, raw)
        self.path = path
        self._writes = 0                                # write transactions since the last checkpoint
        self._checkpoint: asyncio.Task | None = None
        # transactions another process's write lock refused, in order, with their futures (`_call`)
        self._refused: deque[tuple] = deque()
        self._retry: asyncio.Handle | None = None
        self._settings: dict[int, GuildSettings] = {}   # read on every action; changed rarely
        self._gms: dict[int, set[int]] = {}             # known GMs: read on every interaction
        self.process_key = secrets.randbits(62)         # who claims outbox messages (see claim_outbox)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, path: str | Path) -> Store:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        memory = str(path) == ":memory:"
        # check_same_thread off: an in-memory database has one connection, used from both sides
        conn = await aiosqlite.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across app crashes
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        store = cls(conn, str(path))
        await store.migrate()
        # a second connection for the loop's thread, opened once the schema is there
        store.raw = conn._conn if memory else _loop_connection(str(path))
        return store

    async def close(self) -> None:
        if self._checkpoint is not None:
            await self._checkpoint
        if self.raw is not None and self.raw is not self.conn._conn:
            self.raw.close()
        await self.conn.close()

    async def migrate(self) -> int:
        def run(raw: sqlite3.Connection) -> int:
            raw.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = raw.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0
            for script in sorted(MIGRATIONS.glob("*.sql")):
                number = int(script.name.split("_", 1)[0])
                if number <= current:
                    continue
                statements = _split_sql(script.read_text(encoding="utf-8"))
                _transaction(raw, [_statement(sql) for sql in statements] +
                             [_statement("INSERT INTO schema_version (version) VALUES (?)", (number,))])
                current = number
            return current
        return await self._threaded(run)

    async def schema_version(self) -> int:
        row = await self._one("SELECT MAX(version) FROM schema_version")
        return (row[0] if row else 0) or 0

    # ------------------------------------------------------------------ primitives
    async def _call(self, fn, *args):
        """Run `fn(sqlite3_connection, *args)` on the event loop's own thread, the loop's
        connection, to its end: nothing else runs meanwhile, so a function that BEGINs and
        COMMITs is atomic with respect to every other call, with no lock.

        A game's statements take microseconds (WAL, synchronous=NORMAL: a commit does not
        fsync), far less than handing them to a thread and waking the loop again for the answer:
        through aiosqlite's thread a click cost ~5.6 such round trips, and at 500 clicks a
        second the queue for them was most of its latency. What can take long goes through the
        worker thread instead (`_threaded`): migrations, checkpoints (they fsync), long reads.

        The loop's connection never sleeps on a lock (busy_timeout 0): when another process holds
        the write lock (shards sharing the file), the transaction, refused at its BEGIN with
        nothing done, is tried again (`_retry_refused`), the loop going on meanwhile.
        """
        try:
            result = fn(self.raw, *args)
        except sqlite3.OperationalError as exc:
            if not self._refused_at_begin(exc):
                raise
        else:
            if self._refused:       # the lock was free just now: those refused before, at once
                self._drain(0.0)
            return result
        # refused: after those refused before it, tried again at once for up to BUSY_HOLD (the
        # other shard's transaction is nearly always done by then), else later (`_retry_refused`)
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._refused.append((fn, args, future, time.perf_counter()))
        if not self._drain(BUSY_HOLD) and self._retry is None:
            self._retry = loop.call_later(BUSY_HOLD, self._retry_refused)
        return await future

    def _retry_refused(self) -> None:
        """The refused transactions again (`_drain`), every `BUSY_HOLD` seconds while they are
        refused: once each time, not held in place (a purge's TRUNCATE checkpoint holds the lock
        for its fsync, and the loop goes on meanwhile).

        All on the loop's thread. On the worker thread, as this once did, a transaction holds
        the write lock while it waits for the GIL between its statements, up to the 5 ms switch
        interval when the loop is busy, so the other shard's writes met it more often and waited
        on it in turn; and one at a time, so a burst of refusals queued there for seconds.
        Two shards at 250 clicks a second each (bench/run.py --processes 2), about 3,000
        transactions a shard: before, 400-770 refused BEGINs a shard, waited for 3.5-12 ms at
        the median and up to 140 ms; now 260-450, waited for 0.25-0.3 ms at the median, under
        1 ms at the 99th percentile and 8 ms at most (six runs)."""
        self._retry = None
        if not self._drain(0.0):
            self._retry = asyncio.get_running_loop().call_later(BUSY_HOLD, self._retry_refused)

    def _drain(self, hold: float) -> bool:
        """Run the refused transactions, oldest first, while the write lock can be had, trying
        again for up to `hold` seconds; one still refused after `BUSY_WAIT` seconds fails, as a
        busy_timeout would have it. Whether none is left."""
        start = time.perf_counter()
        while self._refused:
            fn, args, future, since = self._refused[0]
            if future.done():       # its caller gave up waiting (cancelled): not run
                self._refused.popleft()
                continue
            try:
                result = fn(self.raw, *args)
            except Exception as exc:  # noqa: BLE001 - refused again, or the caller's own error (raised to it)
                now = time.perf_counter()
                if self._refused_at_begin(exc) and now - since <= BUSY_WAIT:
                    if now - start >= hold:
                        return False
                    time.sleep(0)           # (lets this process's other threads run meanwhile)
                    continue
                self._refused.popleft()
                future.set_exception(exc)
            else:
                self._refused.popleft()
                future.set_result(result)
        return True

    def _refused_at_begin(self, exc: Exception) -> bool:
        """Whether `exc` is another connection's lock refusing a transaction at its BEGIN, with
        nothing done (so it may simply be run again)."""
        return isinstance(exc, sqlite3.OperationalError) and _busy(exc) and not self.raw.in_transaction

    async def _threaded(self, fn, *args):
        """Run `fn(sqlite3_connection, *args)` on aiosqlite's worker thread (its own connection),
        in one hop; the loop goes on meanwhile. `_execute` is aiosqlite's own entry point for this;
        the version is pinned and tests/db cover it."""
        return await self.conn._execute(fn, self.conn._conn, *args)

    async def _one(self, sql: str, params: Iterable = ()) -> aiosqlite.Row | None:
        return self.raw.execute(sql, tuple(params)).fetchone()

    async def _all(self, sql: str, params: Iterable = ()) -> list[aiosqlite.Row]:
        return self.raw.execute(sql, tuple(params)).fetchall()

    async def _long_all(self, sql: str, params: Iterable = ()) -> list[aiosqlite.Row]:
        """`_all` for a read of many rows (more than `LONG_READ`): on the worker thread. It sees
        every transaction committed before it (WAL: a reader sees the last commit)."""
        return list(await self.conn.execute_fetchall(sql, tuple(params)))

    def _wrote(self) -> None:
        """A write transaction committed on the loop's connection: every `CHECKPOINT_EVERY` of
        them, the WAL's pages go back into the database on the worker thread (PASSIVE: it
        never waits for, nor blocks, the loop's writers)."""
        self._writes += 1
        if self._writes >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._writes = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._checkpoint_wal())

    async def _checkpoint_wal(self) -> None:
        try:
            # (its row read: a statement left unfinished would hold up the connection's next COMMIT)
            await self.conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # noqa: BLE001 - a checkpoint left for the next one is no loss
            log.exception("WAL checkpoint failed")
        finally:
            self._checkpoint = None

    async def _write(self, *statements: tuple) -> Written:
        """Run statements in one IMMEDIATE transaction. A statement is `(sql, params)` or
        `(sql, params, error)`: then it must change exactly one row, or `error` is raised and the
        whole transaction rolls back (the version check of every game write)."""
        try:
            written = await self._call(_transaction, [_statement(*st) for st in statements])
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" not in str(exc):
                raise
            raise Duplicate(str(exc)) from None
        self._wrote()
        return written

    async def _insert_many(self, table: str, columns: list[str], rows: list[tuple]) -> None:
        """Bulk insert in one transaction (db.copy)."""
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        await self._write(*[(sql, row) for row in rows])

    async def _continue_ids(self, tables: Iterable[str]) -> None:
        """After rows were inserted with their ids: SQLite's AUTOINCREMENT follows by itself."""

    def lock(self, name: str):
        """Hold the deployment-wide lock `name` (see db.postgres): one process here, so always."""
        return _HELD

    # ------------------------------------------------------------------ a game's meta
    # (a read and a write in one transaction, on the loop's connection: SQLite's own; the SQL
    # both engines share is in db/games.py, and PostgreSQL has its own, in db/postgres.py)
    async def patch_meta(self, game: GameRecord, patch: dict, published: int | None = None,
                         extra: Iterable[tuple] = ()) -> GameRecord:
        """Apply a merge patch (`db.delta.merge_patch`) to the meta as stored now, in one
        transaction: what others wrote meanwhile to other keys stays. `published`: also mark that
        action's publish finished (`mark_published`), in the same transaction: a publish ends with
        one write. `extra`: more statements for that transaction (the game's awaited decisions)."""
        marks = [*(self._published_statements(game.id, published) if published is not None else []), *extra]

        def run(raw: sqlite3.Connection) -> dict:
            raw.execute("BEGIN IMMEDIATE")      # (refused when busy: nothing to roll back, see `_call`)
            try:
                row = raw.execute("SELECT meta FROM games WHERE id = ?", (game.id,)).fetchone()
                meta = delta.merge_patch(loads(row[0]) if row else {}, patch)
                if patch and row:
                    raw.execute("UPDATE games SET meta = ? WHERE id = ?", (_dumps(meta), game.id))
                for sql, params in marks:
                    raw.execute(sql, params)
                raw.execute("COMMIT")
                return meta
            except BaseException:
                raw.execute("ROLLBACK")
                raise
        if not patch and not marks:
            return game
        meta = await self._call(run)
        self._wrote()
        return GameRecord(**{**game.__dict__, "meta": meta})

    # ------------------------------------------------------------------ meta and purge
    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row["value"] if row else None

    async def set_meta_value(self, key: str, value: str) -> None:
        await self._write(("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value)))

    async def purge_guild(self, guild_id: int) -> None:
        """Forget everything about a guild (/gm forget, or when the bot is removed from it)."""
        statements = [("DELETE FROM game_actions WHERE game_id IN (SELECT id FROM games WHERE guild_id = ?)",
                       (guild_id,)), ("DELETE FROM games WHERE guild_id = ?", (guild_id,))]
        statements += [(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,)) for table in _GUILD_TABLES]
        await self._erase(*statements)
        self._settings.pop(guild_id, None)
        self._gms.pop(guild_id, None)

    async def _erase(self, *statements: tuple[str, Iterable]) -> None:
        """Run deletions in one transaction and leave nothing of the deleted rows in the files:
        SQLite overwrites deleted content with zeros only under secure_delete (on just for this:
        it costs I/O on every update), and the WAL keeps the old pages until a checkpoint, so it
        is copied back and truncated to nothing."""
        def run(raw: sqlite3.Connection) -> None:
            previous = raw.execute("PRAGMA secure_delete").fetchone()[0]
            raw.execute("PRAGMA secure_delete = ON")
            try:
                _transaction(raw, [_statement(sql, params) for sql, params in statements])
            finally:
                raw.execute(f"PRAGMA secure_delete = {int(previous)}")
            if raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]:
                # another connection is reading: the WAL is emptied at the next checkpoint
                log.warning("WAL checkpoint after a purge was blocked by a reader")

        # On the worker thread: a TRUNCATE checkpoint fsyncs and waits for readers. The loop's
        # writers, refused meanwhile, are tried again (`Store._retry_refused`), as rarely as guilds are forgotten.
        await self._threaded(run)


def _loop_connection(path: str) -> sqlite3.Connection:
    """The connection the event loop's thread runs statements on (`Store._call`)."""
    raw = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    raw.row_factory = sqlite3.Row
    raw.execute("PRAGMA synchronous=NORMAL")
    raw.execute("PRAGMA foreign_keys=ON")
    raw.execute("PRAGMA busy_timeout=0")            # the loop never sleeps on a lock (see `Store._call`)
    raw.execute("PRAGMA wal_autocheckpoint=0")      # see CHECKPOINT_EVERY
    return raw


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused for a lock another connection holds (SQLITE_BUSY / SQLITE_LOCKED)."""
    return exc.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _statement(sql: str, params: Iterable = (), error: Exception | None = None) -> tuple[str, tuple, Exception | None]:
    return sql, tuple(params), error


def _transaction(raw: sqlite3.Connection, statements: list[tuple[str, tuple, Exception | None]]) -> Written:
    raw.execute("BEGIN IMMEDIATE")
    try:
        written = Written(0)
        counts: list[int] = []
        for sql, params, error in statements:
            cursor = raw.execute(sql, params)
            rows = cursor.fetchall() if cursor.description else []
            counts.append(cursor.rowcount)
            written = Written(cursor.rowcount, rows, counts)
            if error is not None and written.rowcount != 1:
                raise error
        raw.execute("COMMIT")
        return written
    except BaseException:
        raw.execute("ROLLBACK")
        raise


class _Held:
    """The lock a single SQLite process always holds (an async context manager, truthy)."""

    async def __aenter__(self) -> bool:
        return True

    async def __aexit__(self, *exc) -> None:
        return None


_HELD = _Held()


def _split_sql(sql: str) -> list[str]:
    """Statements of a migration file (no triggers with inner semicolons in ours)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
