"""The store: numbered migrations, everything scoped by guild, one API over two engines.

`Store` is the embedded default (one SQLite file, WAL); `db.postgres.PostgresStore` runs the same
methods on PostgreSQL for deployments of several bot processes. Every method here is written in
the SQL both engines share (`?` placeholders, upserts, RETURNING); a backend only supplies the
primitives `_one`, `_all`, `_write` and the migration runner.

Nothing here knows a game's rules: states, actions and events are opaque JSON. A game action is
one transaction (new state + log row with the state before it) guarded by the game's version,
so two racing clicks (or two processes) cannot both apply.
"""
from __future__ import annotations

import asyncio
import logging
import math
import secrets
import sqlite3
from datetime import datetime, timedelta, UTC
from pathlib import Path
from typing import Any, cast
from collections.abc import Iterable

import aiosqlite

from . import delta
from .jsontext import loads
from .records import (  # noqa: F401 - re-exported: callers import these from db.store
    ActionRecord, ChannelBusy, Duplicate, GameRecord, GuildSettings, OutboxMessage, RollStats, StoreError,
    VersionConflict, Written, _dumps, now, shard_of)

log = logging.getLogger("bauta.store")

MIGRATIONS = Path(__file__).parent / "migrations"

_GUILD_TABLES = ("guild_settings", "house_rules", "characters", "packs", "roll_log", "closed_dms", "outbox",
                 "outbox_sent", "known_gms")

# Every this many actions a log row keeps a whole (compressed) snapshot of the state before it
# instead of a delta: an unreadable delta then costs at most this many steps of history.
SNAPSHOT_EVERY = 50
OUTBOX_LEASE_SECONDS = 60
# The loop's connection never checkpoints by itself (a checkpoint fsyncs the database file: a
# pause of the whole loop); every this many write transactions a PASSIVE checkpoint runs on the
# worker thread's connection instead (about SQLite's own 1000-page default: an action writes ~5-10 pages).
CHECKPOINT_EVERY = 100
# A read of more rows than this goes through the worker thread (an export, a long undo): on the
# loop it would hold every other guild's click for its whole length.
LONG_READ = 200


class Store:
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

        The loop's connection never waits for a lock (busy_timeout 0): when another process holds
        the write lock (shards sharing the file), the transaction, refused at its BEGIN with
        nothing done, waits for it on the worker thread instead, the loop going on meanwhile.
        """
        try:
            return fn(self.raw, *args)
        except sqlite3.OperationalError as exc:
            if self.raw.in_transaction or not _busy(exc):
                raise
            return await self._threaded(fn, *args)

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

    # ------------------------------------------------------------------ settings
    async def settings(self, guild_id: int) -> GuildSettings:
        cached = self._settings.get(guild_id)
        if cached is None:
            row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            cached = GuildSettings(guild_id) if row is None else GuildSettings(
                guild_id, row["gm_role_id"], row["gm_channel_id"], row["locale"], row["reminder_hours"],
                row["idle_bot"])
            self._settings[guild_id] = cached
        return GuildSettings(**cached.__dict__)

    async def update_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        allowed = {"gm_role_id", "gm_channel_id", "locale", "reminder_hours", "idle_bot"}
        unknown = set(values) - allowed
        if unknown:
            raise StoreError(f"unknown settings {sorted(unknown)}")
        current = await self.settings(guild_id)
        for key, value in values.items():
            setattr(current, key, value)
        await self._write((
            "INSERT INTO guild_settings (guild_id, gm_role_id, gm_channel_id, locale, reminder_hours, idle_bot, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "gm_role_id = excluded.gm_role_id, gm_channel_id = excluded.gm_channel_id, locale = excluded.locale, "
            "reminder_hours = excluded.reminder_hours, idle_bot = excluded.idle_bot, "
            "updated_at = excluded.updated_at",
            (guild_id, current.gm_role_id, current.gm_channel_id, current.locale, current.reminder_hours,
             current.idle_bot, now())))
        self._settings[guild_id] = GuildSettings(**current.__dict__)
        return current

    async def house_rules(self, guild_id: int, system: str) -> dict[str, Any]:
        rows = await self._all("SELECT key, value FROM house_rules WHERE guild_id = ? AND system = ?",
                               (guild_id, system))
        return {row["key"]: loads(row["value"]) for row in rows}

    async def set_house_rule(self, guild_id: int, system: str, key: str, value: Any) -> None:
        await self._write((
            "INSERT INTO house_rules (guild_id, system, key, value) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id, system, key) DO UPDATE SET value = excluded.value",
            (guild_id, system, key, _dumps(value))))

    # ------------------------------------------------------------------ games
    async def create_game(self, guild_id: int, channel_id: int, system: str, seats: list[str],
                          state: dict, created_by: int, meta: dict | None = None,
                          outbox: Iterable[dict] = ()) -> GameRecord:
        """A new game, active in its channel. `outbox`: the messages its opening causes, recorded
        in the same transaction under seq 0 (see `commit_action`)."""
        stamp = now()
        statements: list[tuple] = [(
            "INSERT INTO games (guild_id, channel_id, system, seats, state, meta, created_by, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (guild_id, channel_id, system, _dumps(seats), _dumps(state), _dumps(meta or {}),
             created_by, stamp, stamp))]
        # the game just inserted is the channel's one active game: the rows find its id so
        statements += [("INSERT INTO outbox (guild_id, game_id, seq, position, payload, created_at) "
                        "SELECT guild_id, id, 0, ?, ?, ? FROM games WHERE guild_id = ? AND channel_id = ? "
                        "AND status = 'active' RETURNING game_id AS id",
                        (position, _dumps(message), stamp, guild_id, channel_id))
                       for position, message in enumerate(outbox)]
        try:
            written = await self._write(*statements)
        except Duplicate:
            raise ChannelBusy("This channel already has a game in progress.") from None
        return await self._written_game(written.row["id"])

    async def game(self, game_id: int) -> GameRecord | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return GameRecord.from_row(row) if row else None

    async def fresh(self, game: GameRecord) -> GameRecord | None:
        """`game` as stored now, in one read. Its state is decoded only when another action
        changed it since `game` was read: a publish re-reads the game it has just committed to
        see the meta written meanwhile, and decoding that state again was most of the read."""
        row = await self._one(
            "SELECT id, guild_id, channel_id, system, status, seats, version, meta, created_by, created_at, "
            "updated_at, CASE WHEN version = ? THEN NULL ELSE state END AS state FROM games WHERE id = ?",
            (game.version, game.id))
        if row is None:
            return None
        return GameRecord.from_row(row, known=game if row["state"] is None else None)

    async def _written_game(self, game_id: int) -> GameRecord:
        """A game this store has just written: it is there (no caller has to handle None)."""
        game = await self.game(game_id)
        if game is None:
            raise StoreError(f"game {game_id} vanished right after it was written")
        return game

    async def active_game(self, guild_id: int, channel_id: int) -> GameRecord | None:
        row = await self._one("SELECT * FROM games WHERE guild_id = ? AND channel_id = ? AND status = 'active'",
                              (guild_id, channel_id))
        return GameRecord.from_row(row) if row else None

    async def successor(self, game: GameRecord) -> GameRecord | None:
        """The game opened in `game`'s channel after it (a lobby's Start creates it in the
        transaction that ends the lobby, so the next game there is the one it opened)."""
        row = await self._one("SELECT * FROM games WHERE guild_id = ? AND channel_id = ? AND id > ? ORDER BY id LIMIT 1",
                              (game.guild_id, game.channel_id, game.id))
        return GameRecord.from_row(row) if row else None

    async def idle_games(self, older_than: str | None = None, at: datetime | None = None) -> list[GameRecord]:
        """Active games in guilds with a reminder set, idle longer than their guild's reminder
        (or than `older_than`, an ISO time, when given), as of `at` (default: now)."""
        if older_than is not None:
            rows = await self._all("SELECT * FROM games WHERE status = 'active' AND updated_at < ?", (older_than,))
            return [GameRecord.from_row(r) for r in rows]
        # The idle test is done here, not in SQL: the engines' date arithmetic differs, and only
        # games in guilds that asked for reminders are read.
        rows = await self._all(
            "SELECT g.*, s.reminder_hours AS reminder_hours FROM games g "
            "JOIN guild_settings s ON s.guild_id = g.guild_id WHERE g.status = 'active' AND s.reminder_hours > 0")
        current = at or datetime.now(UTC)
        return [GameRecord.from_row(r) for r in rows
                if (current - datetime.fromisoformat(r["updated_at"])).total_seconds() >= r["reminder_hours"] * 3600]

    async def games(self, guild_id: int, status: str | None = None) -> list[GameRecord]:
        sql = "SELECT * FROM games WHERE guild_id = ?" + (" AND status = ?" if status else "") + " ORDER BY id"
        rows = await self._all(sql, (guild_id, status) if status else (guild_id,))
        return [GameRecord.from_row(r) for r in rows]

    async def commit_action(self, game: GameRecord, actor: str, action: dict, new_state: dict,
                            events: list[dict], outbox: Iterable[dict] = (), end: bool = False) -> GameRecord:
        """Apply one action atomically, if nobody else has changed the game since `game` was read;
        `end` also ends the game in the same transaction (the action that finishes it by its rules).
        The log's seq is the version it produced: versions only grow, so seqs are unique.
        `outbox`: the messages the action causes (opaque JSON), recorded in the same transaction
        as the action, to be delivered and marked sent (`outbox_pending`, `mark_published`)."""
        stamp = now()
        statements, after = self._action_statements(game, actor, action, new_state, events, outbox, end, stamp)
        await self._write(*statements)
        return GameRecord(**{**game.__dict__, "state": after, "version": game.version + 1,
                             "status": "ended" if end else game.status, "updated_at": stamp})

    async def commit_and_create(self, game: GameRecord, actor: str, action: dict, new_state: dict,
                                events: list[dict], system: str, seats: list[str], state: dict,
                                created_by: int, meta: dict | None = None,
                                outbox: Iterable[dict] = ()) -> tuple[GameRecord, GameRecord]:
        """Commit the action that ends `game` and create the game that follows it in the same
        channel, in one transaction (a lobby's Start): a crash leaves either the open table or the
        new game, never an ended table without its game. Returns (ended game, new game)."""
        stamp = now()
        statements, after = self._action_statements(game, actor, action, new_state, events, outbox, True, stamp)
        statements.append((
            "INSERT INTO games (guild_id, channel_id, system, seats, state, meta, created_by, created_at, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (game.guild_id, game.channel_id, system, _dumps(seats), _dumps(state), _dumps(meta or {}),
             created_by, stamp, stamp)))
        written = await self._write(*statements)
        ended = GameRecord(**{**game.__dict__, "state": after, "version": game.version + 1,
                              "status": "ended", "updated_at": stamp})
        opened = await self.game(written.row["id"])
        assert opened is not None       # created just now in this transaction
        return ended, opened

    @staticmethod
    def _action_statements(game: GameRecord, actor: str, action: dict, new_state: dict, events: list[dict],
                           outbox: Iterable[dict], end: bool, stamp: str) -> tuple[list[tuple], dict]:
        """One game action: the version-checked update (it must change exactly one row), its log
        row with the compressed reverse delta (or snapshot) of the state before it, and its outbox
        rows. Also the new state as it will be read back (JSON types, string keys)."""
        seq = game.version + 1
        after_text = _dumps(new_state)
        after = loads(after_text)
        # a record's state was read back from JSON (from a row, or as `after` below), so it
        # needs no round trip of its own to compare as JSON
        before = game.state
        undo = (delta.pack(delta.SNAPSHOT, before) if seq % SNAPSHOT_EVERY == 0
                else delta.pack(delta.DELTA, delta.diff(after, before)))
        statements: list[tuple] = [
            # (status is set only by the action that ends the game: a SET naming it rewrites the
            # entries of both indexes on it, on every action)
            ("UPDATE games SET state = ?, version = version + 1, updated_at = ?" + (", status = 'ended'" if end else "") +
             " WHERE id = ? AND version = ? AND status = 'active'",
             (after_text, stamp, game.id, game.version), VersionConflict("That was already done.")),
            ("INSERT INTO game_actions (game_id, seq, actor, action, events, state_before, undo_data, "
             "version_before, created_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
             (game.id, seq, actor, _dumps(action), _dumps(events), undo, game.version, stamp))]
        statements += [("INSERT INTO outbox (guild_id, game_id, seq, position, payload, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)", (game.guild_id, game.id, seq, position, _dumps(message), stamp))
                       for position, message in enumerate(outbox)]
        return statements, after

    async def set_meta(self, game: GameRecord, meta: dict) -> GameRecord:
        """Meta (end votes, message ids) is not game state: no version bump, no undo entry."""
        await self._write(("UPDATE games SET meta = ? WHERE id = ?", (_dumps(meta), game.id)))
        return GameRecord(**{**game.__dict__, "meta": meta})

    async def patch_meta(self, game: GameRecord, patch: dict, published: int | None = None) -> GameRecord:
        """Apply a merge patch (`db.delta.merge_patch`) to the meta as stored now, in one
        transaction: what others wrote meanwhile to other keys stays. `published`: also mark that
        action's publish finished (`mark_published`), in the same transaction: a publish ends with
        one write."""
        marks = self._published_statements(game.id, published) if published is not None else []

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

    async def end_game(self, game: GameRecord) -> GameRecord:
        stamp = now()
        cursor = await self._write((
            "UPDATE games SET status = 'ended', version = version + 1, updated_at = ? "
            "WHERE id = ? AND status = 'active'", (stamp, game.id)))
        if cursor.rowcount != 1:
            raise VersionConflict("That game has already ended.")
        return await self._written_game(game.id)

    async def actions(self, game_id: int, limit: int = 20, include_undone: bool = False) -> list[ActionRecord]:
        where = "" if include_undone else " AND undone = 0"
        rows = await (self._long_all if limit > LONG_READ else self._all)(
            "SELECT game_id, seq, actor, action, events, version_before, undone, created_at FROM game_actions "
            f"WHERE game_id = ?{where} ORDER BY seq DESC LIMIT ?", (game_id, limit))
        return _action_records(reversed(rows))

    async def action(self, game_id: int, seq: int) -> ActionRecord | None:
        rows = await self._all(
            "SELECT game_id, seq, actor, action, events, version_before, undone, created_at FROM game_actions "
            "WHERE game_id = ? AND seq = ?", (game_id, seq))
        return _action_records(rows)[0] if rows else None

    async def undo(self, game: GameRecord, steps: int = 1) -> tuple[GameRecord, int]:
        """Restore the exact state from before the last `steps` live actions (RNG included).
        The undone actions stay in the log, marked, so the history is never lost."""
        if steps < 1:
            raise StoreError("Undo at least one step.")

        # Read outside the write: the version check below refuses the undo if anything was
        # committed since `game` was read, so these rows are the ones just before it.
        rows = await (self._long_all if steps > LONG_READ else self._all)(
            "SELECT seq, state_before, undo_data FROM game_actions WHERE game_id = ? "
            "AND undone = 0 ORDER BY seq DESC LIMIT ?", (game.id, steps))
        if not rows:
            raise StoreError("There is nothing to undo.")
        # Walk back from the current state: each live row's delta turns the state after it into
        # the state before it (rows older than migration 004 still hold their whole state_before).
        state = loads(_dumps(game.state))
        for row in rows:
            state = loads(row["state_before"]) if row["state_before"] else delta.restore(row["undo_data"], state)
        oldest = rows[-1]
        await self._write(
            ("UPDATE games SET state = ?, version = version + 1, updated_at = ? "
             "WHERE id = ? AND version = ? AND status = 'active'",
             (_dumps(state), now(), game.id, game.version),
             VersionConflict("The game changed while undoing; try again.")),
            ("UPDATE game_actions SET undone = 1 WHERE game_id = ? AND seq >= ?", (game.id, oldest["seq"])),
            ("UPDATE outbox SET status = 'dropped' WHERE game_id = ? AND seq >= ? AND status = 'pending'",
             (game.id, oldest["seq"])),
            ("DELETE FROM outbox_sent WHERE game_id = ? AND seq >= ?", (game.id, oldest["seq"])))
        undone = len(rows)
        return await self._written_game(game.id), undone

    async def events_for(self, game_id: int, audiences: set[str], limit: int = 10) -> list[dict]:
        """The latest events of live actions addressed to any of `audiences` (newest last)."""
        found: list[dict] = []
        rows = await self._all("SELECT events FROM game_actions WHERE game_id = ? AND undone = 0 "
                               "ORDER BY seq DESC LIMIT 200", (game_id,))
        for row in rows:
            for event in reversed(loads(row["events"])):
                if event.get("audience") in audiences:
                    found.append(event)
                    if len(found) >= limit:
                        return list(reversed(found))
        return list(reversed(found))

    # ------------------------------------------------------------------ outbox
    async def outbox_pending(self, game_id: int, seq: int | None = None) -> list[OutboxMessage]:
        """A game's undelivered messages (of one action when `seq` is given), oldest first."""
        sql = "SELECT * FROM outbox WHERE game_id = ? AND status = 'pending'"
        params: tuple = (game_id,)
        if seq is not None:
            sql += " AND seq = ?"
            params += (seq,)
        return [OutboxMessage.from_row(r) for r in await self._all(sql + " ORDER BY seq, position", params)]

    async def claim_outbox(self, shard_ids: Iterable[int] | None = None, shard_count: int = 1,
                           older_than: str | None = None, limit: int = 100,
                           lease_seconds: float = OUTBOX_LEASE_SECONDS, abandoned: bool = False) -> list[OutboxMessage]:
        """Claim undelivered messages for delivery: those of guilds on `shard_ids` (all guilds when
        None), created before `older_than` (an ISO time; leave the newest to the process that is
        sending them now), not claimed by another process in the last `lease_seconds`. Oldest first.
        A message is handed to one claimer at a time; `mark_sent` ends it. `abandoned`: every
        claim so far was made by a process that is dead (the start-up of a deployment's only
        process, `single_process`), so none is waited for."""
        stamp = datetime.now(UTC)
        until = (stamp + timedelta(seconds=lease_seconds)).isoformat(timespec="seconds")
        current = stamp.isoformat(timespec="seconds")
        where = "status = 'pending'" + ("" if abandoned else
                                        f" AND (claimed_until IS NULL OR claimed_until < ?{self._CLAIMER_DEAD})")
        params: list[Any] = [] if abandoned else [current]
        if older_than is not None:
            where += " AND created_at < ?"
            params.append(older_than)
        if shard_ids is not None:
            shards = sorted(set(shard_ids))
            if not shards:
                return []
            where += f" AND ((guild_id / 4194304) % ?) IN ({', '.join('?' * len(shards))})"
            params += [shard_count, *shards]
        # The outer WHERE repeats the claim test, so a row another process claimed meanwhile is
        # skipped; on PostgreSQL the inner SELECT also skips rows locked by a concurrent claim
        # (`_SKIP_LOCKED`), so two sweeps share the work instead of one getting nothing.
        written = await self._write((
            f"UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE id IN (SELECT id FROM outbox WHERE {where} "
            f"ORDER BY id LIMIT ?{self._SKIP_LOCKED}) AND {where} RETURNING *",
            (until, self.process_key, *params, limit, *params)))
        return sorted((OutboxMessage.from_row(r) for r in written.rows), key=lambda m: m.id)

    async def release_outbox(self, ids: Iterable[int]) -> None:
        """Give claimed messages back unsent (their action is being published by someone else):
        the next sweep may claim them at once instead of after the lease."""
        ids = list(ids)
        if ids:
            await self._write((f"UPDATE outbox SET claimed_until = NULL WHERE id IN ({', '.join('?' * len(ids))})", ids))

    async def mark_published(self, game_id: int, seq: int) -> None:
        """Everything action `seq` of the game caused went out (its publish finished): nothing
        publishes it again, so the record of its single messages goes too."""
        await self._write(*self._published_statements(game_id, seq))

    @staticmethod
    def _published_statements(game_id: int, seq: int) -> list[tuple[str, tuple]]:
        return [("UPDATE outbox SET status = 'sent', sent_at = ? WHERE game_id = ? AND seq = ? "
                 "AND status = 'pending'", (now(), game_id, seq)),
                ("DELETE FROM outbox_sent WHERE game_id = ? AND seq = ?", (game_id, seq))]

    async def mark_sent(self, ids: Iterable[int]) -> None:
        ids = list(ids)
        if ids:
            marks = ", ".join("?" * len(ids))
            await self._write((f"UPDATE outbox SET status = 'sent', sent_at = ? WHERE id IN ({marks})", (now(), *ids)),
                              ("DELETE FROM outbox_sent WHERE EXISTS (SELECT 1 FROM outbox o WHERE o.id IN "
                               f"({marks}) AND o.game_id = outbox_sent.game_id AND o.seq = outbox_sent.seq)", ids))

    async def record_sent(self, guild_id: int, game_id: int, seq: int, slot: str, message_id: int | None) -> None:
        """One message of action `seq`'s publish went out, in `slot` (its destination and order
        there): a re-publish of the action after a crash skips it."""
        await self._write(("INSERT INTO outbox_sent (guild_id, game_id, seq, slot, message_id, sent_at) "
                           "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seq, slot) DO NOTHING",
                           (guild_id, game_id, seq, slot, message_id, now())))

    async def sent_slots(self, game_id: int, seq: int) -> dict[str, int | None]:
        """The slots of action `seq`'s publish already sent → their message ids."""
        rows = await self._all("SELECT slot, message_id FROM outbox_sent WHERE game_id = ? AND seq = ?", (game_id, seq))
        return {r["slot"]: r["message_id"] for r in rows}

    async def deployment_salt(self) -> str:
        """A random word chosen once per database: message nonces derived from game ids must not
        collide with another deployment's (a test database) running as the same bot user."""
        value = await self.get_meta("outbox_salt")
        if value is None:
            await self._write(("INSERT INTO meta (key, value) VALUES ('outbox_salt', ?) ON CONFLICT (key) DO NOTHING",
                               (secrets.token_hex(8),)))
            value = await self.get_meta("outbox_salt")
        assert value is not None        # written just now, by us or by a process racing us
        return value

    # ------------------------------------------------------------------ characters and packs
    async def save_character(self, guild_id: int, owner_id: int, system: str, name: str, data: dict) -> None:
        stamp = now()
        await self._write((
            "INSERT INTO characters (guild_id, owner_id, system, name, data, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, owner_id, system, name) "
            "DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
            (guild_id, owner_id, system, name, _dumps(data), stamp, stamp)))

    async def replace_character(self, guild_id: int, owner_id: int, system: str, name: str, before: dict,
                                data: dict) -> bool:
        """Compare-and-set: store `data` only while the saved record is still `before` (as `character`
        returned it). False when another command saved it meanwhile: nothing is written, so two
        commands racing on one record cannot both apply, the second over the first."""
        written = await self._write((
            "UPDATE characters SET data = ?, updated_at = ? WHERE guild_id = ? AND owner_id = ? AND system = ? "
            "AND lower(name) = lower(?) AND data = ?",
            (_dumps(data), now(), guild_id, owner_id, system, name, _dumps(before))))
        return written.rowcount == 1

    async def character(self, guild_id: int, owner_id: int, system: str, name: str) -> dict | None:
        row = await self._one("SELECT data FROM characters WHERE guild_id = ? AND owner_id = ? AND system = ? "
                              "AND lower(name) = lower(?)", (guild_id, owner_id, system, name))
        return loads(row["data"]) if row else None

    async def characters(self, guild_id: int, system: str, owner_id: int | None = None) -> list[tuple[int, str, dict]]:
        sql = "SELECT owner_id, name, data FROM characters WHERE guild_id = ? AND system = ?"
        params: tuple = (guild_id, system)
        if owner_id is not None:
            sql += " AND owner_id = ?"
            params += (owner_id,)
        rows = await self._all(sql + " ORDER BY name", params)
        return [(r["owner_id"], r["name"], loads(r["data"])) for r in rows]

    async def delete_character(self, guild_id: int, owner_id: int, system: str, name: str) -> bool:
        cursor = await self._write(("DELETE FROM characters WHERE guild_id = ? AND owner_id = ? AND system = ? "
                                    "AND lower(name) = lower(?)", (guild_id, owner_id, system, name)))
        return cursor.rowcount > 0

    async def save_pack(self, guild_id: int, system: str, name: str, content: str, imported_by: int) -> None:
        await self._write((
            "INSERT INTO packs (guild_id, system, name, content, imported_by, created_at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, system, name) DO UPDATE SET content = excluded.content, "
            "imported_by = excluded.imported_by, created_at = excluded.created_at",
            (guild_id, system, name, content, imported_by, now())))

    async def pack(self, guild_id: int, system: str, name: str) -> str | None:
        row = await self._one("SELECT content FROM packs WHERE guild_id = ? AND system = ? AND name = ?",
                              (guild_id, system, name))
        return row["content"] if row else None

    async def packs(self, guild_id: int, system: str | None = None) -> list[dict]:
        sql = "SELECT system, name, imported_by, created_at, length(content) AS size FROM packs WHERE guild_id = ?"
        params: tuple = (guild_id,)
        if system:
            sql += " AND system = ?"
            params += (system,)
        return [dict(r) for r in await self._all(sql + " ORDER BY system, name", params)]

    # ------------------------------------------------------------------ rolls
    async def log_roll(self, guild_id: int, channel_id: int | None, user_id: int, expression: str,
                       total: float, label: str | None = None, expected: float | None = None,
                       variance: float | None = None, secret: bool = False) -> None:
        await self._write((
            "INSERT INTO roll_log (guild_id, channel_id, user_id, expression, label, total, expected, variance, "
            "secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, user_id, expression, label, total, expected, variance, int(secret), now())))

    async def roll_stats(self, guild_id: int, user_id: int, include_secret: bool = True) -> RollStats:
        """A member's roll statistics; `include_secret=False` for anyone but the roller, since an
        average or a favourite that counts a secret roll tells something of its result."""
        where = "guild_id = ? AND user_id = ?" + ("" if include_secret else " AND secret = 0")
        row = await self._one(
            "SELECT COUNT(*) AS n, SUM(secret) AS s, COUNT(expected) AS p, "
            f"SUM(total - expected) AS off, SUM(variance) AS var FROM roll_log WHERE {where}", (guild_id, user_id))
        assert row is not None          # an aggregate query always returns its one row
        stats = RollStats(rolls=row["n"] or 0, secret=row["s"] or 0, plain=row["p"] or 0)
        if stats.plain:
            stats.mean_offset = (row["off"] or 0.0) / stats.plain
            if row["var"]:
                stats.z_score = (row["off"] or 0.0) / math.sqrt(row["var"])
        top = await self._all(f"SELECT expression, COUNT(*) AS n FROM roll_log WHERE {where} "
                              "GROUP BY expression ORDER BY n DESC LIMIT 5", (guild_id, user_id))
        stats.by_expression = [(r["expression"], r["n"]) for r in top]
        return stats

    # ------------------------------------------------------------------ GMs seen
    async def known_gms(self, guild_id: int) -> set[int]:
        """Members seen holding the guild's GM role (the role itself is re-checked by the caller)."""
        if guild_id not in self._gms:
            rows = await self._all("SELECT user_id FROM known_gms WHERE guild_id = ?", (guild_id,))
            self._gms[guild_id] = {r["user_id"] for r in rows}
        return set(self._gms[guild_id])

    async def remember_gm(self, guild_id: int, user_id: int) -> None:
        await self._write(("INSERT INTO known_gms (guild_id, user_id, seen_at) VALUES (?, ?, ?) "
                           "ON CONFLICT (guild_id, user_id) DO UPDATE SET seen_at = excluded.seen_at",
                           (guild_id, user_id, now())))
        self._gms.setdefault(guild_id, set()).add(user_id)

    async def forget_gm(self, guild_id: int, user_id: int) -> None:
        await self._write(("DELETE FROM known_gms WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)))
        self._gms.get(guild_id, set()).discard(user_id)

    # ------------------------------------------------------------------ DMs
    async def mark_dm_closed(self, guild_id: int, user_id: int) -> None:
        await self._write(("INSERT INTO closed_dms (guild_id, user_id, since) VALUES (?, ?, ?) "
                           "ON CONFLICT (guild_id, user_id) DO UPDATE SET since = excluded.since",
                           (guild_id, user_id, now())))

    async def dm_closed_since(self, guild_id: int, user_id: int) -> str | None:
        row = await self._one("SELECT since FROM closed_dms WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return row["since"] if row else None

    async def clear_dm_closed(self, guild_id: int, user_id: int) -> None:
        await self._write(("DELETE FROM closed_dms WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)))

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
        # writers wait meanwhile (busy_timeout), as rarely as guilds are forgotten.
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


def _action_records(rows: Iterable) -> list[ActionRecord]:
    return [ActionRecord(r["game_id"], r["seq"], r["actor"], loads(r["action"]), loads(r["events"]),
                         r["version_before"], bool(r["undone"]), r["created_at"]) for r in rows]


def _statement(sql: str, params: Iterable = (), error: Exception | None = None) -> tuple[str, tuple, Exception | None]:
    return sql, tuple(params), error


def _transaction(raw: sqlite3.Connection, statements: list[tuple[str, tuple, Exception | None]]) -> Written:
    raw.execute("BEGIN IMMEDIATE")
    try:
        written = Written(0)
        for sql, params, error in statements:
            cursor = raw.execute(sql, params)
            rows = cursor.fetchall() if cursor.description else []
            written = Written(cursor.rowcount, rows)
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
