"""The outbox: the messages an action causes, written in its own transaction (`GameTables`),
claimed by the process that delivers them, marked sent slot by slot, so that after a crash a
publish is finished once and no message goes out twice."""
from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta, UTC
from typing import Any

from .records import OutboxMessage, now
from .tables import Tables

OUTBOX_LEASE_SECONDS = 60


class OutboxTables(Tables):
    # ------------------------------------------------------------------ outbox
    async def outbox_pending(self, game_id: int, seq: int | None = None) -> list[OutboxMessage]:
        """A game's undelivered messages (of one action when `seq` is given), oldest first."""
        sql = "SELECT * FROM outbox WHERE game_id = ? AND status = 'pending'"
        params: tuple = (game_id,)
        if seq is not None:
            sql += " AND seq = ?"
            params += (seq,)
        return [OutboxMessage.from_row(r) for r in await self._all(sql + " ORDER BY seq, position", params)]

    async def claim_outbox(self, shard_ids: Iterable[int] | None = None, shard_count: int = 1,
                           older_than: str | None = None, limit: int = 100,
                           lease_seconds: float = OUTBOX_LEASE_SECONDS, abandoned: bool = False) -> list[OutboxMessage]:
        """Claim undelivered messages for delivery: those of guilds on `shard_ids` (all guilds when
        None), created before `older_than` (an ISO time; leave the newest to the process that is
        sending them now), not claimed by another process in the last `lease_seconds`. Oldest first.
        A message is handed to one claimer at a time; `mark_sent` ends it. `abandoned`: every
        claim so far was made by a process that is dead (the start-up of a deployment's only
        process, `single_process`), so none is waited for."""
        stamp = datetime.now(UTC)
        until = (stamp + timedelta(seconds=lease_seconds)).isoformat(timespec="seconds")
        current = stamp.isoformat(timespec="seconds")
        where = "status = 'pending'" + ("" if abandoned else
                                        f" AND (claimed_until IS NULL OR claimed_until < ?{self._CLAIMER_DEAD})")
        params: list[Any] = [] if abandoned else [current]
        if older_than is not None:
            where += " AND created_at < ?"
            params.append(older_than)
        if shard_ids is not None:
            shards = sorted(set(shard_ids))
            if not shards:
                return []
            where += f" AND ((guild_id / 4194304) % ?) IN ({', '.join('?' * len(shards))})"
            params += [shard_count, *shards]
        # The outer WHERE repeats the claim test, so a row another process claimed meanwhile is
        # skipped; on PostgreSQL the inner SELECT also skips rows locked by a concurrent claim
        # (`_SKIP_LOCKED`), so two sweeps share the work instead of one getting nothing.
        written = await self._write((
            f"UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE id IN (SELECT id FROM outbox WHERE {where} "
            f"ORDER BY id LIMIT ?{self._SKIP_LOCKED}) AND {where} RETURNING *",
            (until, self.process_key, *params, limit, *params)))
        return sorted((OutboxMessage.from_row(r) for r in written.rows), key=lambda m: m.id)

    async def release_outbox(self, ids: Iterable[int]) -> None:
        """Give claimed messages back unsent (their action is being published by someone else):
        the next sweep may claim them at once instead of after the lease."""
        ids = list(ids)
        if ids:
            await self._write((f"UPDATE outbox SET claimed_until = NULL WHERE id IN ({', '.join('?' * len(ids))})", ids))

    async def mark_published(self, game_id: int, seq: int) -> None:
        """Everything action `seq` of the game caused went out (its publish finished): nothing
        publishes it again, so the record of its single messages goes too."""
        await self._write(*self._published_statements(game_id, seq))

    @staticmethod
    def _published_statements(game_id: int, seq: int) -> list[tuple[str, tuple]]:
        return [("UPDATE outbox SET status = 'sent', sent_at = ? WHERE game_id = ? AND seq = ? "
                 "AND status = 'pending'", (now(), game_id, seq)),
                ("DELETE FROM outbox_sent WHERE game_id = ? AND seq = ?", (game_id, seq))]

    async def mark_sent(self, ids: Iterable[int]) -> None:
        ids = list(ids)
        if ids:
            marks = ", ".join("?" * len(ids))
            await self._write((f"UPDATE outbox SET status = 'sent', sent_at = ? WHERE id IN ({marks})", (now(), *ids)),
                              ("DELETE FROM outbox_sent WHERE EXISTS (SELECT 1 FROM outbox o WHERE o.id IN "
                               f"({marks}) AND o.game_id = outbox_sent.game_id AND o.seq = outbox_sent.seq)", ids))

    async def record_sent(self, guild_id: int, game_id: int, seq: int, slot: str, message_id: int | None) -> None:
        """One message of action `seq`'s publish went out, in `slot` (its destination and order
        there): a re-publish of the action after a crash skips it."""
        await self._write(("INSERT INTO outbox_sent (guild_id, game_id, seq, slot, message_id, sent_at) "
                           "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seq, slot) DO NOTHING",
                           (guild_id, game_id, seq, slot, message_id, now())))

    async def sent_slots(self, game_id: int, seq: int) -> dict[str, int | None]:
        """The slots of action `seq`'s publish already sent → their message ids."""
        rows = await self._all("SELECT slot, message_id FROM outbox_sent WHERE game_id = ? AND seq = ?", (game_id, seq))
        return {r["slot"]: r["message_id"] for r in rows}

    async def deployment_salt(self) -> str:
        """A random word chosen once per database: message nonces derived from game ids must not
        collide with another deployment's (a test database) running as the same bot user."""
        value = await self.get_meta("outbox_salt")
        if value is None:
            await self._write(("INSERT INTO meta (key, value) VALUES ('outbox_salt', ?) ON CONFLICT (key) DO NOTHING",
                               (secrets.token_hex(8),)))
            value = await self.get_meta("outbox_salt")
        assert value is not None        # written just now, by us or by a process racing us
        return value
