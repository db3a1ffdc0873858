"""`python bot.py --copy-to postgresql://…`: copy a SQLite database into PostgreSQL, losslessly.

Every table, every row, every column as stored (ids included, so buttons in old Discord messages,
whose custom_id carries the game id, keep working after the move). The target must be empty;
both are migrated to the same schema version first.
"""
from __future__ import annotations

from .store import Store, StoreError

# Parents before children (game_actions refers to games).
TABLES = ("meta", "guild_settings", "house_rules", "games", "game_actions", "characters", "packs",
          "roll_log", "closed_dms", "outbox", "outbox_sent", "known_gms", "profiles", "awaiting", "game_setup")
# Tables whose id the database assigns: the target's counters continue after the copied ids.
IDENTITY_TABLES = ("games", "characters", "packs", "roll_log", "outbox")
BATCH = 1000


async def copy_store(source: Store, target: Store) -> dict[str, int]:
    """Copy every row of `source` into the empty `target`; returns rows copied per table."""
    if await source.schema_version() != await target.schema_version():
        raise StoreError("the two databases are at different schema versions")
    for table in TABLES:
        if await target._one(f"SELECT 1 FROM {table} LIMIT 1"):
            raise StoreError(f"the target database is not empty (table {table} has rows); copy into a new one")
    counts: dict[str, int] = {}
    for table in TABLES:
        counts[table] = 0
        offset = 0
        while True:
            # rowid: SQLite's own order of insertion, a stable page order for any table.
            rows = await source._all(f"SELECT * FROM {table} ORDER BY rowid LIMIT ? OFFSET ?", (BATCH, offset))
            if not rows:
                break
            await target._insert_many(table, list(rows[0].keys()), [tuple(row) for row in rows])
            counts[table] += len(rows)
            offset += len(rows)
    await target._continue_ids(IDENTITY_TABLES)
    return counts
