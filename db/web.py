"""The web companion's tables: its signing secret, the links it has minted (so a link can be
revoked and expires), and the reads its pages make of a game (its version, its whole history).

A link's token is signed (web/links.py); the row here is what a signature cannot say: that the
link was revoked. Nothing here knows a game's rules: states and events are opaque JSON."""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from .jsontext import loads
from .records import now
from .tables import Tables

SECRET_KEY = "web_secret"


@dataclass(frozen=True)
class LinkRow:
    id: str
    guild_id: int
    game_id: int
    user_id: int
    role: str
    expires_at: int
    revoked: bool


@dataclass(frozen=True)
class Step:
    """One live action of a game's log, as the replay reads it: its events (with audiences) and
    what turns the state after it back into the state before it."""
    seq: int
    actor: str
    events: list[dict]
    created_at: str
    state_before: str | None        # the whole state (rows older than migration 004)
    undo_data: bytes | None         # a packed reverse delta or snapshot (db/delta.py)


class WebTables(Tables):
    async def web_secret(self) -> bytes:
        """The deployment's signing secret: made once by whichever process asks first, and the
        same for every process after (an insert that loses the race reads the winner's)."""
        found = await self.get_meta(SECRET_KEY)
        if found is None:
            await self._write(("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                               (SECRET_KEY, secrets.token_hex(32))))
            found = await self.get_meta(SECRET_KEY)
        assert found is not None
        return bytes.fromhex(found)

    async def add_link(self, row: LinkRow) -> None:
        await self._write(("INSERT INTO web_links (id, guild_id, game_id, user_id, role, expires_at, revoked, "
                           "created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                           (row.id, row.guild_id, row.game_id, row.user_id, row.role, row.expires_at, now())))

    async def web_link(self, link_id: str) -> LinkRow | None:
        row = await self._one("SELECT * FROM web_links WHERE id = ?", (link_id,))
        if row is None:
            return None
        return LinkRow(row["id"], row["guild_id"], row["game_id"], row["user_id"], row["role"],
                       row["expires_at"], bool(row["revoked"]))

    async def revoke_links(self, guild_id: int, game_id: int | None, user_id: int | None) -> int:
        """Revoke the live links of a member (`user_id`) or of everyone (None), to one game or
        (`game_id` None) to all of the server's; how many were revoked."""
        where, params = ["guild_id = ?", "revoked = 0"], [guild_id]
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        if user_id is not None:
            where.append("user_id = ?")
            params.append(user_id)
        written = await self._write((f"UPDATE web_links SET revoked = 1 WHERE {' AND '.join(where)}", tuple(params)))
        return written.rowcount

    async def game_version(self, game_ids: list[int]) -> dict[int, tuple[int, str]]:
        """(version, status) of these games, in one read: what a page's live stream watches."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = await self._all(f"SELECT id, version, status FROM games WHERE id IN ({marks})", tuple(game_ids))
        return {r["id"]: (r["version"], r["status"]) for r in rows}

    async def history(self, game_id: int) -> list[Step]:
        """Every live action of a game, oldest first, with what undoes it: the replay walks back
        from the current state through them (the same walk as an undo, db/games.py)."""
        rows = await self._long_all(
            "SELECT seq, actor, events, created_at, state_before, undo_data FROM game_actions "
            "WHERE game_id = ? AND undone = 0 ORDER BY seq", (game_id,))
        return [Step(r["seq"], r["actor"], loads(r["events"]), r["created_at"], r["state_before"] or None,
                     _bytes(r["undo_data"])) for r in rows]


def _bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)
