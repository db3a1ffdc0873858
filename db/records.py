"""What the store hands its callers: plain records of rows (a game, an action, an outbox message, a
guild's settings, a player's roll statistics), the store's errors, and the stamps and JSON it writes.
Apart from `db.store` so the store itself is its SQL alone; `db.store` re-exports all of it."""
from __future__ import annotations


from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import Any

import aiosqlite

from clock import source

from .jsontext import dumps, loads

class StoreError(Exception):
    """A refusal of the store. `code` names its words for players, the catalogues'
    `errors.<code>` (cogs/errors.py), and `params` fill them; without a code it is a bug or an
    operator's error (db/copy.py), its text for logs and the command line, never for players."""

    def __init__(self, text: str = "", *, code: str | None = None, **params: Any) -> None:
        super().__init__(text or code or "")
        self.code, self.params = code, params


class VersionConflict(StoreError):
    """Someone else changed the game between our read and our write."""


class ChannelBusy(StoreError):
    """The channel already has an active game."""


class Duplicate(StoreError):
    """A write broke a uniqueness rule (both backends raise this, not their driver's error)."""


@dataclass
class Written:
    """What a write transaction did: the rows its last statement changed (or returned), and how
    many rows each of its statements changed (`counts`, in order)."""
    rowcount: int
    rows: list = field(default_factory=list)
    counts: list[int] = field(default_factory=list)

    @property
    def row(self):
        return self.rows[0] if self.rows else None


_STAMP: tuple[int, str] = (-1, "")


def now() -> str:
    """The time, to the second, as stored. Formatted once a second, not on every write (a busy
    table writes many times a second, and formatting was a visible share of a commit)."""
    global _STAMP
    second = int(source.timestamp())      # the injectable clock (clock/source.py): tests move it
    if _STAMP[0] != second:
        _STAMP = (second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds"))
    return _STAMP[1]


def _dumps(value: Any) -> str:
    return dumps(value)


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
    def from_row(cls, row: aiosqlite.Row, known: GameRecord | None = None) -> GameRecord:
        """The record of a games row; `known`: the same game as read before, whose decoded seats
        and state are kept (a row that left its state out: unchanged since)."""
        return cls(id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
                   system=row["system"], status=row["status"],
                   seats=known.seats if known is not None else loads(row["seats"]),
                   state=known.state if known is not None else loads(row["state"]), version=row["version"],
                   meta=loads(row["meta"]), created_by=row["created_by"],
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
class OutboxMessage:
    """One message an action caused, kept until it is delivered (payload: opaque JSON)."""
    id: int
    guild_id: int
    game_id: int
    seq: int
    position: int
    payload: dict
    status: str

    @classmethod
    def from_row(cls, row) -> OutboxMessage:
        return cls(row["id"], row["guild_id"], row["game_id"], row["seq"], row["position"],
                   loads(row["payload"]), row["status"])


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: which shard of `shard_count` carries a guild."""
    return (guild_id >> 22) % shard_count


@dataclass
class GuildSettings:
    guild_id: int
    gm_role_id: int | None = None
    gm_channel_id: int | None = None
    locale: str | None = None
    idle_bot: str | None = None      # the level the bot stands in at a missed deadline (None: it does not)
    deadline_minutes: float | None = None   # every decision's deadline (None or 0: none; /gm deadline)
    archive_days: int | None = None  # idle days before a game is archived (None: db.clock.DEFAULT_ARCHIVE_DAYS)


@dataclass
class RollStats:
    rolls: int = 0
    secret: int = 0
    plain: int = 0
    mean_offset: float = 0.0     # average (result - expected) over plain-dice rolls
    z_score: float = 0.0         # how many standard deviations the sum of offsets is from 0
    by_expression: list[tuple[str, int]] = field(default_factory=list)
