"""The SQLite store: one file, WAL, numbered migrations, everything scoped by guild.

Nothing here knows a game's rules: states, actions and events are opaque JSON. A game action is
one transaction (new state + log row with the state before it) guarded by the game's version,
so two racing clicks cannot both apply.
"""
from __future__ import annotations

import json
import logging
import math
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

import aiosqlite

log = logging.getLogger("bauta.store")

MIGRATIONS = Path(__file__).parent / "migrations"

_GUILD_TABLES = ("guild_settings", "house_rules", "characters", "packs", "roll_log", "closed_dms", "known_gms")


class StoreError(Exception):
    pass


class VersionConflict(StoreError):
    """Someone else changed the game between our read and our write."""


class ChannelBusy(StoreError):
    """The channel already has an active game."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    system: str
    status: str
    seats: list[str]
    state: dict
    version: int
    meta: dict
    created_by: int
    created_at: str
    updated_at: str

    @property
    def active(self) -> bool:
        return self.status == "active"

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> "GameRecord":
        return cls(id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
                   system=row["system"], status=row["status"], seats=json.loads(row["seats"]),
                   state=json.loads(row["state"]), version=row["version"],
                   meta=json.loads(row["meta"]), created_by=row["created_by"],
                   created_at=row["created_at"], updated_at=row["updated_at"])


@dataclass
class ActionRecord:
    game_id: int
    seq: int
    actor: str
    action: dict
    events: list[dict]
    version_before: int
    undone: bool
    created_at: str


@dataclass
class GuildSettings:
    guild_id: int
    gm_role_id: int | None = None
    gm_channel_id: int | None = None
    locale: str | None = None
    reminder_hours: float | None = None


@dataclass
class RollStats:
    rolls: int = 0
    secret: int = 0
    plain: int = 0
    mean_offset: float = 0.0     # average (result - expected) over plain-dice rolls
    z_score: float = 0.0         # how many standard deviations the sum of offsets is from 0
    by_expression: list[tuple[str, int]] = field(default_factory=list)


class Store:
    def __init__(self, conn: aiosqlite.Connection, path: str):
        self.conn = conn
        self.path = path
        self._settings: dict[int, GuildSettings] = {}   # read on every action; changed rarely
        self._gms: dict[int, set[int]] = {}             # known GMs: read on every interaction

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across app crashes
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        store = cls(conn, str(path))
        await store.migrate()
        return store

    async def close(self) -> None:
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
                _transaction(raw, [(sql, ()) for sql in statements] +
                             [("INSERT INTO schema_version (version) VALUES (?)", (number,))])
                current = number
            return current
        return await self._call(run)

    async def schema_version(self) -> int:
        row = await self._one("SELECT MAX(version) FROM schema_version")
        return row[0] or 0

    # ------------------------------------------------------------------ primitives
    async def _call(self, fn, *args):
        """Run `fn(sqlite3_connection, *args)` on aiosqlite's worker thread in one hop.

        aiosqlite runs one call at a time on one thread, so a function that BEGINs and COMMITs
        is atomic with respect to every other call on this connection: no asyncio lock, and one
        thread round trip per transaction instead of one per statement (the difference between
        ~300 and well over 500 game actions a second). `_execute` is aiosqlite's own entry point
        for this; the version is pinned and tests/db cover it.
        """
        return await self.conn._execute(fn, self.conn._conn, *args)

    async def _one(self, sql: str, params: Iterable = ()) -> aiosqlite.Row | None:
        rows = await self.conn.execute_fetchall(sql, tuple(params))
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Iterable = ()) -> list[aiosqlite.Row]:
        return list(await self.conn.execute_fetchall(sql, tuple(params)))

    async def _write(self, *statements: tuple[str, Iterable]) -> sqlite3.Cursor:
        """Run statements in one IMMEDIATE transaction; return the last cursor."""
        return await self._call(_transaction, [(sql, tuple(params)) for sql, params in statements])

    # ------------------------------------------------------------------ settings
    async def settings(self, guild_id: int) -> GuildSettings:
        cached = self._settings.get(guild_id)
        if cached is None:
            row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            cached = GuildSettings(guild_id) if row is None else GuildSettings(
                guild_id, row["gm_role_id"], row["gm_channel_id"], row["locale"], row["reminder_hours"])
            self._settings[guild_id] = cached
        return GuildSettings(**cached.__dict__)

    async def update_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        allowed = {"gm_role_id", "gm_channel_id", "locale", "reminder_hours"}
        unknown = set(values) - allowed
        if unknown:
            raise StoreError(f"unknown settings {sorted(unknown)}")
        current = await self.settings(guild_id)
        for key, value in values.items():
            setattr(current, key, value)
        await self._write((
            "INSERT INTO guild_settings (guild_id, gm_role_id, gm_channel_id, locale, reminder_hours, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id, "
            "gm_channel_id = excluded.gm_channel_id, locale = excluded.locale, "
            "reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at",
            (guild_id, current.gm_role_id, current.gm_channel_id, current.locale, current.reminder_hours, now())))
        self._settings[guild_id] = GuildSettings(**current.__dict__)
        return current

    async def house_rules(self, guild_id: int, system: str) -> dict[str, Any]:
        rows = await self._all("SELECT key, value FROM house_rules WHERE guild_id = ? AND system = ?",
                               (guild_id, system))
        return {row["key"]: json.loads(row["value"]) for row in rows}

    async def set_house_rule(self, guild_id: int, system: str, key: str, value: Any) -> None:
        await self._write((
            "INSERT INTO house_rules (guild_id, system, key, value) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id, system, key) DO UPDATE SET value = excluded.value",
            (guild_id, system, key, _dumps(value))))

    # ------------------------------------------------------------------ games
    async def create_game(self, guild_id: int, channel_id: int, system: str, seats: list[str],
                          state: dict, created_by: int, meta: dict | None = None) -> GameRecord:
        stamp = now()
        try:
            cursor = await self._write((
                "INSERT INTO games (guild_id, channel_id, system, seats, state, meta, created_by, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, system, _dumps(seats), _dumps(state), _dumps(meta or {}),
                 created_by, stamp, stamp)))
        except aiosqlite.IntegrityError:
            raise ChannelBusy("This channel already has a game in progress.") from None
        return await self.game(cursor.lastrowid)

    async def game(self, game_id: int) -> GameRecord | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return GameRecord.from_row(row) if row else None

    async def active_game(self, guild_id: int, channel_id: int) -> GameRecord | None:
        row = await self._one("SELECT * FROM games WHERE guild_id = ? AND channel_id = ? AND status = 'active'",
                              (guild_id, channel_id))
        return GameRecord.from_row(row) if row else None

    async def idle_games(self, older_than: str | None = None) -> list[GameRecord]:
        """Active games in guilds with a reminder set, idle longer than their guild's reminder
        (or than `older_than`, an ISO time, when given)."""
        if older_than is not None:
            rows = await self._all("SELECT * FROM games WHERE status = 'active' AND updated_at < ?", (older_than,))
            return [GameRecord.from_row(r) for r in rows]
        rows = await self._all(
            "SELECT g.* FROM games g JOIN guild_settings s ON s.guild_id = g.guild_id "
            "WHERE g.status = 'active' AND s.reminder_hours > 0 "
            "AND (julianday('now') - julianday(g.updated_at)) * 24 >= s.reminder_hours")
        return [GameRecord.from_row(r) for r in rows]

    async def games(self, guild_id: int, status: str | None = None) -> list[GameRecord]:
        sql = "SELECT * FROM games WHERE guild_id = ?" + (" AND status = ?" if status else "") + " ORDER BY id"
        rows = await self._all(sql, (guild_id, status) if status else (guild_id,))
        return [GameRecord.from_row(r) for r in rows]

    async def commit_action(self, game: GameRecord, actor: str, action: dict, new_state: dict,
                            events: list[dict], end: bool = False) -> GameRecord:
        """Apply one action atomically, if nobody else has changed the game since `game` was read;
        `end` also ends the game in the same transaction (the action that finishes it by its rules).
        The log's seq is the version it produced: versions only grow, so seqs are unique."""
        stamp = now()

        def run(raw: sqlite3.Connection) -> None:
            _transaction(raw, _action_statements(game, actor, action, new_state, events, end, stamp))

        try:
            await self._call(run)
        except _Stale:
            raise VersionConflict("That was already done.") from None
        return GameRecord(**{**game.__dict__, "state": new_state, "version": game.version + 1,
                             "status": "ended" if end else game.status, "updated_at": stamp})

    async def commit_and_create(self, game: GameRecord, actor: str, action: dict, new_state: dict,
                                events: list[dict], system: str, seats: list[str], state: dict,
                                created_by: int, meta: dict | None = None) -> tuple[GameRecord, GameRecord]:
        """Commit the action that ends `game` and create the game that follows it in the same
        channel, in one transaction (a lobby's Start): a crash leaves either the open table or the
        new game, never an ended table without its game. Returns (ended game, new game)."""
        stamp = now()
        insert = ("INSERT INTO games (guild_id, channel_id, system, seats, state, meta, created_by, created_at, "
                  "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (game.guild_id, game.channel_id, system, _dumps(seats), _dumps(state), _dumps(meta or {}),
                   created_by, stamp, stamp))

        def run(raw: sqlite3.Connection) -> int:
            cursor = _transaction(raw, [*_action_statements(game, actor, action, new_state, events, True, stamp),
                                        insert])
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        try:
            new_id = await self._call(run)
        except _Stale:
            raise VersionConflict("That was already done.") from None
        ended = GameRecord(**{**game.__dict__, "state": new_state, "version": game.version + 1,
                              "status": "ended", "updated_at": stamp})
        opened = await self.game(new_id)
        assert opened is not None       # created just now in this transaction
        return ended, opened

    async def set_meta(self, game: GameRecord, meta: dict) -> GameRecord:
        """Meta (end votes, message ids) is not game state: no version bump, no undo entry."""
        await self._write(("UPDATE games SET meta = ? WHERE id = ?", (_dumps(meta), game.id)))
        return GameRecord(**{**game.__dict__, "meta": meta})

    async def end_game(self, game: GameRecord) -> GameRecord:
        stamp = now()
        cursor = await self._write((
            "UPDATE games SET status = 'ended', version = version + 1, updated_at = ? "
            "WHERE id = ? AND status = 'active'", (stamp, game.id)))
        if cursor.rowcount != 1:
            raise VersionConflict("That game has already ended.")
        return await self.game(game.id)

    async def actions(self, game_id: int, limit: int = 20, include_undone: bool = False) -> list[ActionRecord]:
        where = "" if include_undone else " AND undone = 0"
        rows = await self._all(
            "SELECT game_id, seq, actor, action, events, version_before, undone, created_at FROM game_actions "
            f"WHERE game_id = ?{where} ORDER BY seq DESC LIMIT ?", (game_id, limit))
        return [ActionRecord(r["game_id"], r["seq"], r["actor"], json.loads(r["action"]),
                             json.loads(r["events"]), r["version_before"], bool(r["undone"]),
                             r["created_at"]) for r in reversed(rows)]

    async def undo(self, game: GameRecord, steps: int = 1) -> tuple[GameRecord, int]:
        """Restore the exact state from before the last `steps` live actions (RNG included).
        The undone actions stay in the log, marked, so the history is never lost."""
        if steps < 1:
            raise StoreError("Undo at least one step.")

        def run(raw: sqlite3.Connection) -> int:
            raw.execute("BEGIN IMMEDIATE")
            try:
                rows = raw.execute("SELECT seq, state_before FROM game_actions WHERE game_id = ? AND undone = 0 "
                                   "ORDER BY seq DESC LIMIT ?", (game.id, steps)).fetchall()
                if not rows:
                    raise StoreError("There is nothing to undo.")
                oldest = rows[-1]
                cursor = raw.execute("UPDATE games SET state = ?, version = version + 1, updated_at = ? "
                                     "WHERE id = ? AND version = ? AND status = 'active'",
                                     (oldest["state_before"], now(), game.id, game.version))
                if cursor.rowcount != 1:
                    raise VersionConflict("The game changed while undoing; try again.")
                raw.execute("UPDATE game_actions SET undone = 1 WHERE game_id = ? AND seq >= ?",
                            (game.id, oldest["seq"]))
                raw.execute("COMMIT")
                return len(rows)
            except BaseException:
                raw.execute("ROLLBACK")
                raise

        undone = await self._call(run)
        return await self.game(game.id), undone

    async def events_for(self, game_id: int, audiences: set[str], limit: int = 10) -> list[dict]:
        """The latest events of live actions addressed to any of `audiences` (newest last)."""
        found: list[dict] = []
        rows = await self._all("SELECT events FROM game_actions WHERE game_id = ? AND undone = 0 "
                               "ORDER BY seq DESC LIMIT 200", (game_id,))
        for row in rows:
            for event in reversed(json.loads(row["events"])):
                if event.get("audience") in audiences:
                    found.append(event)
                    if len(found) >= limit:
                        return list(reversed(found))
        return list(reversed(found))

    # ------------------------------------------------------------------ characters and packs
    async def save_character(self, guild_id: int, owner_id: int, system: str, name: str, data: dict) -> None:
        stamp = now()
        await self._write((
            "INSERT INTO characters (guild_id, owner_id, system, name, data, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, owner_id, system, name) "
            "DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
            (guild_id, owner_id, system, name, _dumps(data), stamp, stamp)))

    async def character(self, guild_id: int, owner_id: int, system: str, name: str) -> dict | None:
        row = await self._one("SELECT data FROM characters WHERE guild_id = ? AND owner_id = ? AND system = ? "
                              "AND name = ? COLLATE NOCASE", (guild_id, owner_id, system, name))
        return json.loads(row["data"]) if row else None

    async def characters(self, guild_id: int, system: str, owner_id: int | None = None) -> list[tuple[int, str, dict]]:
        sql = "SELECT owner_id, name, data FROM characters WHERE guild_id = ? AND system = ?"
        params: tuple = (guild_id, system)
        if owner_id is not None:
            sql += " AND owner_id = ?"
            params += (owner_id,)
        rows = await self._all(sql + " ORDER BY name", params)
        return [(r["owner_id"], r["name"], json.loads(r["data"])) for r in rows]

    async def delete_character(self, guild_id: int, owner_id: int, system: str, name: str) -> bool:
        cursor = await self._write(("DELETE FROM characters WHERE guild_id = ? AND owner_id = ? AND system = ? "
                                    "AND name = ? COLLATE NOCASE", (guild_id, owner_id, system, name)))
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
        await self._write(("INSERT OR REPLACE INTO known_gms (guild_id, user_id, seen_at) VALUES (?, ?, ?)",
                           (guild_id, user_id, now())))
        self._gms.setdefault(guild_id, set()).add(user_id)

    async def forget_gm(self, guild_id: int, user_id: int) -> None:
        await self._write(("DELETE FROM known_gms WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)))
        self._gms.get(guild_id, set()).discard(user_id)

    # ------------------------------------------------------------------ DMs
    async def mark_dm_closed(self, guild_id: int, user_id: int) -> None:
        await self._write(("INSERT OR REPLACE INTO closed_dms (guild_id, user_id, since) VALUES (?, ?, ?)",
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
        await self._write(("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value)))

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
                _transaction(raw, [(sql, tuple(params)) for sql, params in statements])
            finally:
                raw.execute(f"PRAGMA secure_delete = {int(previous)}")
            if raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]:
                # another connection is reading: the WAL is emptied at the next checkpoint
                log.warning("WAL checkpoint after a purge was blocked by a reader")

        await self._call(run)


class _Stale(Exception):
    """A guarded statement of a transaction changed no row: roll back, the caller says why."""


def _action_statements(game: GameRecord, actor: str, action: dict, new_state: dict, events: list[dict],
                       end: bool, stamp: str) -> list[tuple[str, tuple, bool]]:
    """One game action: the version-checked update (guarded: it must change exactly one row) and
    its log row with the state before it."""
    return [("UPDATE games SET state = ?, version = version + 1, updated_at = ?, "
             "status = CASE WHEN ? THEN 'ended' ELSE status END "
             "WHERE id = ? AND version = ? AND status = 'active'",
             (_dumps(new_state), stamp, int(end), game.id, game.version), True),
            ("INSERT INTO game_actions (game_id, seq, actor, action, events, state_before, version_before, "
             "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
             (game.id, game.version + 1, actor, _dumps(action), _dumps(events), _dumps(game.state),
              game.version, stamp), False)]


def _transaction(raw: sqlite3.Connection, statements: list[tuple]) -> sqlite3.Cursor:
    """Run (sql, params[, guarded]) statements in one IMMEDIATE transaction; a guarded statement
    that changes no row rolls everything back with `_Stale`."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        cursor = None
        for sql, params, *guarded in statements:
            cursor = raw.execute(sql, params)
            if guarded and guarded[0] and cursor.rowcount != 1:
                raise _Stale()
        raw.execute("COMMIT")
        return cursor
    except BaseException:
        raw.execute("ROLLBACK")
        raise


def _split_sql(sql: str) -> list[str]:
    """Statements of a migration file (no triggers with inner semicolons in ours)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
