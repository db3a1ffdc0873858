"""The games table and its log: create, read, commit an action (version-checked), meta, undo,
the log's events. States, actions and events are opaque JSON here: nothing knows a game's rules.
A game action is one transaction (new state + log row with the reverse delta of the state before
it + the outbox rows of its messages) guarded by the game's version, so two racing clicks (or two
processes) cannot both apply."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, UTC

from . import delta
from .jsontext import loads
from .records import ActionRecord, ChannelBusy, Duplicate, GameRecord, StoreError, VersionConflict, _dumps, now
from .tables import Tables

# Every this many actions a log row keeps a whole (compressed) snapshot of the state before it
# instead of a delta: an unreadable delta then costs at most this many steps of history.
SNAPSHOT_EVERY = 50
# A read of more rows than this goes through the worker thread (an export, a long undo): on the
# loop it would hold every other guild's click for its whole length.
LONG_READ = 200


class GameTables(Tables):
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
            raise ChannelBusy(code="channel_busy") from None
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
             (after_text, stamp, game.id, game.version), VersionConflict(code="already_done")),
            ("INSERT INTO game_actions (game_id, seq, actor, action, events, state_before, undo_data, "
             "version_before, created_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
             (game.id, seq, actor, _dumps(action), _dumps(events), undo, game.version, stamp))]
        statements += [("INSERT INTO outbox (guild_id, game_id, seq, position, payload, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)", (game.guild_id, game.id, seq, position, _dumps(message), stamp))
                       for position, message in enumerate(outbox)]
        if end:             # an ended game awaits nobody (cogs/host/clock.py)
            statements.append(("DELETE FROM awaiting WHERE game_id = ?", (game.id,)))
        return statements, after

    async def set_meta(self, game: GameRecord, meta: dict) -> GameRecord:
        """Meta (end votes, message ids) is not game state: no version bump, no undo entry."""
        await self._write(("UPDATE games SET meta = ? WHERE id = ?", (_dumps(meta), game.id)))
        return GameRecord(**{**game.__dict__, "meta": meta})

    async def end_game(self, game: GameRecord) -> GameRecord:
        stamp = now()
        cursor = await self._write(
            ("DELETE FROM awaiting WHERE game_id = ?", (game.id,)),
            ("UPDATE games SET status = 'ended', version = version + 1, updated_at = ? "
             "WHERE id = ? AND status = 'active'", (stamp, game.id)))
        if cursor.rowcount != 1:
            raise VersionConflict(code="game_ended")
        return await self._written_game(game.id)

    async def actions(self, game_id: int, limit: int = 20, include_undone: bool = False) -> list[ActionRecord]:
        where = "" if include_undone else " AND undone = 0"
        rows = await (self._long_all if limit > LONG_READ else self._all)(
            "SELECT game_id, seq, actor, action, events, version_before, undone, created_at FROM game_actions "
            f"WHERE game_id = ?{where} ORDER BY seq DESC LIMIT ?", (game_id, limit))
        return _action_records(reversed(rows))

    async def actions_after(self, game_id: int, seq: int, limit: int = 500) -> list[ActionRecord]:
        """The live actions after `seq` (oldest first), at most the `limit` newest of them."""
        rows = await (self._long_all if limit > LONG_READ else self._all)(
            "SELECT game_id, seq, actor, action, events, version_before, undone, created_at FROM game_actions "
            "WHERE game_id = ? AND seq > ? AND undone = 0 ORDER BY seq DESC LIMIT ?", (game_id, seq, limit))
        return _action_records(reversed(rows))

    async def last_actions_of(self, game_id: int, actor: str, limit: int = 2) -> list[ActionRecord]:
        """`actor`'s latest live actions in the game, newest first (a range of the log's key)."""
        rows = await self._all(
            "SELECT game_id, seq, actor, action, events, version_before, undone, created_at FROM game_actions "
            "WHERE game_id = ? AND actor = ? AND undone = 0 ORDER BY seq DESC LIMIT ?", (game_id, actor, limit))
        return _action_records(rows)

    async def save_setup(self, game: GameRecord, options: dict) -> None:
        """The options `game` was set up with (a rematch sets its successor up with them)."""
        await self._write(("INSERT INTO game_setup (game_id, guild_id, options, created_at) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (game_id) DO NOTHING", (game.id, game.guild_id, _dumps(options), now())))

    async def setup_of(self, game_id: int) -> dict | None:
        row = await self._one("SELECT options FROM game_setup WHERE game_id = ?", (game_id,))
        return loads(row["options"]) if row else None

    async def claim_meta(self, game: GameRecord, key: str, value) -> GameRecord | None:
        """Set `meta[key]` only if it is not set yet, atomically (a compare-and-set of the stored
        meta: whatever else writes meta meanwhile is kept): the game with it, or None when it was
        set already (someone else claimed it)."""
        for _attempt in range(20):
            row = await self._one("SELECT meta FROM games WHERE id = ?", (game.id,))
            if row is None:
                return None
            meta = loads(row["meta"])
            if meta.get(key) is not None:
                return None
            written = await self._write(("UPDATE games SET meta = ? WHERE id = ? AND meta = ?",
                                         (_dumps({**meta, key: value}), game.id, row["meta"])))
            if written.rowcount == 1:
                return GameRecord(**{**game.__dict__, "meta": {**meta, key: value}})
        raise VersionConflict(code="already_done")

    async def action(self, game_id: int, seq: int) -> ActionRecord | None:
        rows = await self._all(
            "SELECT game_id, seq, actor, action, events, version_before, undone, created_at FROM game_actions "
            "WHERE game_id = ? AND seq = ?", (game_id, seq))
        return _action_records(rows)[0] if rows else None

    async def undo(self, game: GameRecord, steps: int = 1) -> tuple[GameRecord, int]:
        """Restore the exact state from before the last `steps` live actions (RNG included).
        The undone actions stay in the log, marked, so the history is never lost."""
        if steps < 1:
            raise StoreError(code="undo_steps")

        # Read outside the write: the version check below refuses the undo if anything was
        # committed since `game` was read, so these rows are the ones just before it.
        rows = await (self._long_all if steps > LONG_READ else self._all)(
            "SELECT seq, state_before, undo_data FROM game_actions WHERE game_id = ? "
            "AND undone = 0 ORDER BY seq DESC LIMIT ?", (game.id, steps))
        if not rows:
            raise StoreError(code="nothing_to_undo")
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
             VersionConflict(code="undo_changed")),
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


def _action_records(rows: Iterable) -> list[ActionRecord]:
    return [ActionRecord(r["game_id"], r["seq"], r["actor"], loads(r["action"]), loads(r["events"]),
                         r["version_before"], bool(r["undone"]), r["created_at"]) for r in rows]
