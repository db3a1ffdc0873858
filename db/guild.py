"""What a guild keeps besides its games: settings and house rules, characters and packs, the
roll log, the GMs seen, closed DMs. Every row is scoped by guild (`/gm forget` erases them all)."""
from __future__ import annotations

import math
from typing import Any

from .jsontext import loads
from .records import GuildSettings, RollStats, StoreError, _dumps, now
from .tables import Tables


class GuildTables(Tables):
    # ------------------------------------------------------------------ settings
    async def settings(self, guild_id: int) -> GuildSettings:
        cached = self._settings.get(guild_id)
        if cached is None:
            row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            cached = GuildSettings(guild_id) if row is None else GuildSettings(
                guild_id, row["gm_role_id"], row["gm_channel_id"], row["locale"], row["idle_bot"],
                row["deadline_minutes"], row["archive_days"])
            self._settings[guild_id] = cached
        return GuildSettings(**cached.__dict__)

    async def update_settings(self, guild_id: int, **values: Any) -> GuildSettings:
        allowed = {"gm_role_id", "gm_channel_id", "locale", "idle_bot", "deadline_minutes", "archive_days"}
        unknown = set(values) - allowed
        if unknown:
            raise StoreError(f"unknown settings {sorted(unknown)}")
        current = await self.settings(guild_id)
        for key, value in values.items():
            setattr(current, key, value)
        await self._write((
            "INSERT INTO guild_settings (guild_id, gm_role_id, gm_channel_id, locale, idle_bot, deadline_minutes, "
            "archive_days, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "gm_role_id = excluded.gm_role_id, gm_channel_id = excluded.gm_channel_id, locale = excluded.locale, "
            "idle_bot = excluded.idle_bot, deadline_minutes = excluded.deadline_minutes, "
            "archive_days = excluded.archive_days, updated_at = excluded.updated_at",
            (guild_id, current.gm_role_id, current.gm_channel_id, current.locale, current.idle_bot,
             current.deadline_minutes, current.archive_days, now())))
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
