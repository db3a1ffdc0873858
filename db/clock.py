"""The turn clock's tables: people's profiles (`/profile`) and the decisions games await.

`awaiting` has a row per decision a game waits on from a member, rewritten by each publish of that
game in the transaction that ends it (`awaiting_statements`, through `patch_meta(extra=…)`). Two
indexes serve its readers: by user (`/turns`: every server at once) and by due time (the
scheduler reads only what is due, however many games are open)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from collections.abc import Iterable

from clock.hours import Person, Timer
from clock.source import parse, stamp

from .jsontext import loads
from .records import GameRecord, _dumps, now
from .tables import Tables

DEFAULT_ARCHIVE_DAYS = 60
IN_CHUNK = 500             # ids in one IN list
ADVANCE_CHUNK = 200         # clocks written by one statement (11 parameters each)
# one clock's row of the VALUES list: typed, so PostgreSQL knows its parameters' types
_ADVANCE_ROW = ("(CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
                "CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), "
                "CAST(? AS BIGINT))")


@dataclass(frozen=True)
class Awaiting:
    """One decision a game awaits from a member, and its clock."""
    game_id: int
    prompt_id: str
    user_id: int
    guild_id: int
    channel_id: int
    private: bool
    asked_at: datetime
    asked_seq: int
    timer: Timer
    due_at: datetime | None = None
    owed: bool = False

    @classmethod
    def from_row(cls, row) -> Awaiting:
        start = parse(row["start_at"])
        assert start is not None
        asked = parse(row["asked_at"])
        assert asked is not None
        return cls(row["game_id"], row["prompt_id"], row["user_id"], row["guild_id"], row["channel_id"],
                   bool(row["private"]), asked, row["asked_seq"],
                   Timer(start, parse(row["deadline_at"]), row["pings"], bool(row["expired"])),
                   parse(row["due_at"]), bool(row["owed"]))

    def with_timer(self, timer: Timer, due_at: datetime | None) -> Awaiting:
        return Awaiting(self.game_id, self.prompt_id, self.user_id, self.guild_id, self.channel_id, self.private,
                        self.asked_at, self.asked_seq, timer, due_at, self.owed)     # (a tick makes many)


_COLUMNS = ("game_id, prompt_id, user_id, guild_id, channel_id, private, asked_at, asked_seq, start_at, "
            "deadline_at, pings, expired, due_at, owed")


def _values(row: Awaiting) -> tuple:
    t = row.timer
    return (row.game_id, row.prompt_id, row.user_id, row.guild_id, row.channel_id, int(row.private),
            stamp(row.asked_at), row.asked_seq, stamp(t.start), t.deadline and stamp(t.deadline), t.pings,
            int(t.expired), row.due_at and stamp(row.due_at), int(row.owed))


def _person(row) -> Person:
    muted = loads(row["muted"] or "[]")
    return Person(row["user_id"], row["timezone"], row["quiet_from"], row["quiet_to"], parse(row["away_until"]),
                  bool(row["away_stand_in"]), frozenset(str(m) for m in muted), row["language"])


class ClockTables(Tables):
    # ------------------------------------------------------------------ profiles
    async def profile(self, user_id: int) -> Person:
        row = await self._one("SELECT * FROM profiles WHERE user_id = ?", (user_id,))
        return _person(row) if row else Person(user_id)

    async def profiles(self, user_ids: Iterable[int]) -> dict[int, Person]:
        """The profiles of these users (a user without one gets the empty profile)."""
        ids = sorted(set(user_ids))
        found = {i: Person(i) for i in ids}
        found.update({r["user_id"]: _person(r) for r in await self._rows_in("SELECT * FROM profiles WHERE user_id", ids)})
        return found

    async def _rows_in(self, select: str, ids: list[int]) -> list:
        """`select … IN (ids)`, in reads of IN_CHUNK ids (a statement's parameters are bounded)."""
        rows: list = []
        for start in range(0, len(ids), IN_CHUNK):
            chunk = ids[start:start + IN_CHUNK]
            rows += await self._all(f"{select} IN ({', '.join('?' * len(chunk))})", tuple(chunk))
        return rows

    async def save_profile(self, person: Person) -> Person:
        await self._write((
            "INSERT INTO profiles (user_id, timezone, quiet_from, quiet_to, away_until, away_stand_in, muted, "
            "language, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "timezone = excluded.timezone, quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, "
            "away_until = excluded.away_until, away_stand_in = excluded.away_stand_in, muted = excluded.muted, "
            "language = excluded.language, updated_at = excluded.updated_at",
            (person.user_id, person.timezone, person.quiet_from, person.quiet_to,
             person.away_until and stamp(person.away_until), int(person.away_stand_in),
             _dumps(sorted(person.muted)), person.language, now())))
        return person

    async def forget_profile(self, user_id: int) -> bool:
        written = await self._write(("DELETE FROM profiles WHERE user_id = ?", (user_id,)))
        return written.rowcount > 0

    # ------------------------------------------------------------------ what games await
    async def awaiting_of(self, game_id: int) -> list[Awaiting]:
        rows = await self._all(f"SELECT {_COLUMNS} FROM awaiting WHERE game_id = ? ORDER BY asked_at, prompt_id",
                               (game_id,))
        return [Awaiting.from_row(r) for r in rows]

    async def awaiting_for(self, user_id: int, limit: int = 100) -> list[Awaiting]:
        """Every decision awaited from this user, in every server, oldest first."""
        rows = await self._all(f"SELECT {_COLUMNS} FROM awaiting WHERE user_id = ? ORDER BY asked_at, game_id "
                               "LIMIT ?", (user_id, limit))
        return [Awaiting.from_row(r) for r in rows]

    async def due_awaiting(self, at: datetime, limit: int = 200) -> list[Awaiting]:
        """The decisions whose clock asks for something by `at`, earliest first (the due index)."""
        rows = await self._all(f"SELECT {_COLUMNS} FROM awaiting WHERE due_at IS NOT NULL AND due_at <= ? "
                               "ORDER BY due_at LIMIT ?", (stamp(at), limit))
        return [Awaiting.from_row(r) for r in rows]

    async def next_due(self) -> datetime | None:
        """When the scheduler has something to do next (the due index's first entry)."""
        row = await self._one("SELECT MIN(due_at) AS due FROM awaiting WHERE due_at IS NOT NULL")
        return parse(row["due"]) if row else None

    async def advance_awaiting(self, before: Awaiting, after: Awaiting) -> bool:
        """Compare-and-set one decision's clock: written only while it is still as `before` was read
        (another process, or an answer meanwhile, wins). False when it was not."""
        return (await self.advance_all([(before, after)]))[0]

    async def advance_all(self, changes: Iterable[tuple[Awaiting, Awaiting]]) -> list[bool]:
        """`advance_awaiting` for many decisions, in one transaction of one statement per
        ADVANCE_CHUNK of them (an UPDATE from a VALUES list: one round trip, not one per row)."""
        pairs = list(changes)
        done: set[tuple[int, str]] = set()
        for start in range(0, len(pairs), ADVANCE_CHUNK):
            chunk = pairs[start:start + ADVANCE_CHUNK]
            values = ", ".join([_ADVANCE_ROW] * len(chunk))
            params: list = []
            for before, after in chunk:
                t = after.timer
                params += [before.game_id, before.prompt_id, before.asked_seq, before.timer.pings,
                           int(before.timer.expired), stamp(t.start), t.deadline and stamp(t.deadline), t.pings,
                           int(t.expired), after.due_at and stamp(after.due_at), int(after.owed)]
            written = await self._write((
                "UPDATE awaiting SET start_at = v.column6, deadline_at = v.column7, pings = v.column8, "
                "expired = v.column9, due_at = v.column10, owed = v.column11 "
                f"FROM (VALUES {values}) AS v WHERE awaiting.game_id = v.column1 AND awaiting.prompt_id = v.column2 "
                "AND awaiting.asked_seq = v.column3 AND awaiting.pings = v.column4 AND awaiting.expired = v.column5 "
                "RETURNING awaiting.game_id AS game_id, awaiting.prompt_id AS prompt_id", tuple(params)))
            done.update((r["game_id"], r["prompt_id"]) for r in written.rows)
        return [(before.game_id, before.prompt_id) in done for before, _after in pairs]

    async def games_by_id(self, ids: Iterable[int], state: bool = True) -> dict[int, GameRecord]:
        """Several games in one read (a tick's due decisions). `state` False: their states are
        not read (each record's is empty): a tick's reminders need the meta, not the game."""
        wanted = sorted(set(ids))
        columns = "*" if state else ("id, guild_id, channel_id, system, status, seats, version, meta, created_by, "
                                     "created_at, updated_at, '{}' AS state")
        return {r["id"]: GameRecord.from_row(r) for r in await self._rows_in(f"SELECT {columns} FROM games WHERE id", wanted)}

    async def save_awaiting(self, rows: Iterable[Awaiting]) -> None:
        """Write these clocks as they are (a pause, a resume, an absence moved them)."""
        statements = [("UPDATE awaiting SET start_at = ?, deadline_at = ?, due_at = ?, owed = ? "
                       "WHERE game_id = ? AND prompt_id = ? AND asked_seq = ?",
                       (stamp(r.timer.start), r.timer.deadline and stamp(r.timer.deadline),
                        r.due_at and stamp(r.due_at), int(r.owed), r.game_id, r.prompt_id, r.asked_seq))
                      for r in rows]
        if statements:
            await self._write(*statements)

    async def owed_users(self) -> set[int]:
        """Users owed a private reminder their closed DMs could not carry."""
        rows = await self._all("SELECT DISTINCT user_id FROM awaiting WHERE owed = 1")
        return {r["user_id"] for r in rows}

    @staticmethod
    def awaiting_statements(game_id: int, keep: Iterable[str], new: Iterable[Awaiting]) -> list[tuple]:
        """The statements that make the game's awaited decisions `keep` (left as they are) plus
        `new` (written afresh): for the transaction that ends a publish."""
        kept = sorted(set(keep) | {r.prompt_id for r in new})
        marks = ", ".join("?" * len(kept))
        statements: list[tuple] = [(
            "DELETE FROM awaiting WHERE game_id = ?" + (f" AND prompt_id NOT IN ({marks})" if kept else ""),
            (game_id, *kept))]
        statements += [(f"INSERT INTO awaiting ({_COLUMNS}) VALUES ({', '.join('?' * 14)}) "
                        "ON CONFLICT (game_id, prompt_id) DO UPDATE SET user_id = excluded.user_id, "
                        "private = excluded.private, asked_at = excluded.asked_at, asked_seq = excluded.asked_seq, "
                        "start_at = excluded.start_at, deadline_at = excluded.deadline_at, pings = 0, expired = 0, "
                        "due_at = excluded.due_at, owed = 0", _values(r)) for r in new]
        return statements

    async def clear_awaiting(self, game_id: int) -> None:
        await self._write(("DELETE FROM awaiting WHERE game_id = ?", (game_id,)))

    # ------------------------------------------------------------------ idle games
    async def archive_candidates(self, at: datetime, limit: int = 50) -> list[GameRecord]:
        """Active games idle past their server's archive setting as of `at`, oldest first. Read
        from the idle index per distinct setting: only games idle that long are visited."""
        days = {r["d"] for r in await self._all(
            f"SELECT DISTINCT COALESCE(archive_days, {DEFAULT_ARCHIVE_DAYS}) AS d FROM guild_settings")}
        days.add(DEFAULT_ARCHIVE_DAYS)
        found: list[GameRecord] = []
        for d in sorted(days):
            cutoff = stamp(at - timedelta(days=d))
            rows = await self._all(
                "SELECT g.* FROM games g LEFT JOIN guild_settings s ON s.guild_id = g.guild_id "
                f"WHERE g.status = 'active' AND g.updated_at < ? AND COALESCE(s.archive_days, {DEFAULT_ARCHIVE_DAYS}) = ? "
                "ORDER BY g.updated_at LIMIT ?", (cutoff, d, limit))
            found += [GameRecord.from_row(r) for r in rows]
        return sorted(found, key=lambda g: (g.updated_at, g.id))[:limit]

    async def archive_game(self, game: GameRecord) -> bool:
        """An idle game put away: no longer active (its channel is free), never deleted."""
        written = await self._write(
            ("DELETE FROM awaiting WHERE game_id = ?", (game.id,)),
            ("UPDATE games SET status = 'archived', version = version + 1, updated_at = ? "
             "WHERE id = ? AND status = 'active' AND version = ?", (now(), game.id, game.version)))
        return written.rowcount == 1
