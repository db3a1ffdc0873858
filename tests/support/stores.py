"""One test database on either backend: a SQLite file in tmp_path, or a fresh PostgreSQL schema.

PostgreSQL tests use `BAUTA_TEST_DATABASE_URL` (.ci/run starts a throwaway server and sets it).
Without it they skip on a developer's machine, and FAIL when `CI=true` or
`BAUTA_REQUIRE_POSTGRES=1`: a CI run that skipped them would pass without testing PostgreSQL.
"""
from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from bot import Config
from db import open_store
from db.store import Store

BACKENDS = ("sqlite", "postgres")


def postgres_required() -> bool:
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("BAUTA_REQUIRE_POSTGRES") == "1"


def postgres_url() -> str:
    url = os.environ.get("BAUTA_TEST_DATABASE_URL", "").strip()
    if not url:
        message = "BAUTA_TEST_DATABASE_URL is not set: no PostgreSQL server to test against"
        if postgres_required():
            pytest.fail(message + " (CI=true or BAUTA_REQUIRE_POSTGRES=1: skipping is a failure)", pytrace=False)
        pytest.skip(message)
    return url


class Database:
    """The database of one test; `open()` again gives a second store over the same data (another
    process after a crash)."""

    def __init__(self, backend: str, tmp_path: Path):
        self.backend = backend
        self.path = tmp_path / "bauta.sqlite3"
        self.url = postgres_url() if backend == "postgres" else None
        self.schema = f"t_{uuid.uuid4().hex[:16]}" if self.url else None

    def config(self) -> Config:
        return Config(token=None, db_path=str(self.path), dev_guild=None, log_level="WARNING",
                      database_url=self.url, db_schema=self.schema)

    async def open(self) -> Store:
        return await open_store(self.path, self.url, self.schema)

    async def drop(self) -> None:
        if self.url:
            import asyncpg
            conn = await asyncpg.connect(self.url)
            try:
                await conn.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
            finally:
                await conn.close()
