"""What the store's table modules (`db.games`, `db.outbox`, `db.guild`) ask of a store: the
primitives and caches that `db.store.Store` (SQLite) and `db.postgres.PostgresStore` supply
(abstract here: a store that lacks one cannot be made).

The modules hold the SQL both engines share, one concern each; `Store` is made of them. Here the
primitives are only declared, so that each module reads (and type-checks) on its own."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from abc import ABC, abstractmethod

from .records import GuildSettings, Written


class Tables(ABC):
    process_key: int                        # who claims outbox messages (see `OutboxTables.claim_outbox`)
    single_process: bool
    _SKIP_LOCKED: str
    _CLAIMER_DEAD: str
    _settings: dict[int, GuildSettings]     # read on every action; changed rarely
    _gms: dict[int, set[int]]               # known GMs: read on every interaction

    @abstractmethod
    async def _one(self, sql: str, params: Iterable = ()) -> Any:
        ...

    @abstractmethod
    async def _all(self, sql: str, params: Iterable = ()) -> list[Any]:
        ...

    @abstractmethod
    async def _long_all(self, sql: str, params: Iterable = ()) -> list[Any]:
        ...

    @abstractmethod
    async def _write(self, *statements: tuple) -> Written:
        ...

    @abstractmethod
    def _wrote(self) -> None:
        ...

    @abstractmethod
    async def get_meta(self, key: str) -> str | None:
        ...

    @staticmethod
    @abstractmethod
    def _published_statements(game_id: int, seq: int) -> list[tuple[str, tuple]]:
        ...
