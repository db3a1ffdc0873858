"""The store: SQLite by default (`BAUTA_DB`), PostgreSQL when `BAUTA_DATABASE_URL` names one."""
from __future__ import annotations

from pathlib import Path

from .store import Store


def is_postgres_url(url: str | None) -> bool:
    return url is not None and url.split("://", 1)[0] in ("postgres", "postgresql")


async def open_store(db_path: str | Path, database_url: str | None = None, schema: str | None = None) -> Store:
    """The deployment's store: PostgreSQL for a `postgresql://` URL, else the SQLite file."""
    if database_url:
        if not is_postgres_url(database_url):
            raise ValueError("BAUTA_DATABASE_URL must start with postgresql:// (or leave it unset for SQLite)")
        from .postgres import (
            PostgresStore,  # asyncpg is only needed by deployments that use it
        )
        return await PostgresStore.open(database_url, schema=schema)
    return await Store.open(db_path)
