"""Delivery: posting in channels, DMs (remembering closed ones), editing what the bot posted."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, UTC
from typing import Any
from collections.abc import Iterable

import discord

from db.store import Store
from rules.common import GM

from . import botplayer

log = logging.getLogger("bauta.courier")

MESSAGE_LIMIT = 2000
SENT, CLOSED, SKIPPED = "sent", "closed", "skipped"   # outcomes of a DM


# ---------------------------------------------------------------------------- small helpers
def mention(player: str) -> str:
    return f"<@{player}>" if player.isdigit() else ("GM" if player == GM else player)


def display_name(user: Any) -> str:
    """What a player is called where a mention does not render: server nickname, else global name."""
    return str(getattr(user, "display_name", None) or getattr(user, "global_name", None)
               or getattr(user, "name", None) or "")


def chunks(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join lines into messages of at most `limit` characters, cutting overlong lines."""
    out: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[: limit - 1] + "…")
            line = ""
        if not line:
            continue
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current:
        out.append(current)
    return out



# ---------------------------------------------------------------------------- delivery
class Courier:
    """Sends to channels and DMs, and remembers closed DMs so we do not retry on every event
    (Discord counts failed requests towards its invalid-request ban)."""

    RETRY_AFTER = timedelta(hours=1)

    def __init__(self, bot: discord.Client, store: Store):
        self.bot = bot
        self.store = store
        self._closed: dict[tuple[int, int], str | None] = {}   # (guild, user) -> closed since

    async def _closed_since(self, guild_id: int, user_id: int) -> str | None:
        key = (guild_id, user_id)
        if key not in self._closed:
            self._closed[key] = await self.store.dm_closed_since(guild_id, user_id)
        return self._closed[key]

    async def channel(self, channel_id: int):
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is unreachable", channel_id)
                return None
        return channel

    async def send_channel(self, channel_id: int, content: str | None = None, **kwargs: Any):
        channel = await self.channel(channel_id)
        if channel is None:
            return None
        try:
            return await channel.send(content, **kwargs)
        except discord.HTTPException as exc:
            log.warning("cannot post in channel %s: %s", channel_id, exc)
            return None

    async def edit(self, channel_id: int, message_id: int, content: str | None = None,
                   file: discord.File | None = None) -> bool:
        """Edit a message the bot posted; False when it cannot be (deleted, no access, unknown)."""
        return await self.edit_message(channel_id, message_id, content=content, file=file)

    async def edit_message(self, channel_id: int, message_id: int, *, file: discord.File | None = None,
                           **fields: Any) -> bool:
        """Edit the given fields (content, view…) of a message the bot posted in a channel; a
        `file` replaces its attachments, else they are kept. False when it cannot be edited."""
        channel = await self.channel(channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return False
        return await _edit(channel.get_partial_message(message_id), file, fields)

    async def edit_dm(self, user_id: int, message_id: int, *, file: discord.File | None = None,
                      **fields: Any) -> bool:
        """Edit a DM the bot sent to `user_id` (a prompt brought up to date, or closed)."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            dm = user.dm_channel or await user.create_dm()
        except discord.HTTPException as exc:
            log.info("DM channel of %s unreachable (%s)", user_id, exc)
            return False
        return await _edit(dm.get_partial_message(message_id), file, fields)

    async def delete(self, channel_id: int, message_id: int) -> bool:
        channel = await self.channel(channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return False
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("message %s in %s cannot be deleted (%s)", message_id, channel_id, exc)
            return False
        return True

    async def last_message_id(self, channel_id: int) -> int | None:
        """The newest message in the channel as the gateway told us (None when unknown)."""
        channel = self.bot.get_channel(channel_id)
        return getattr(channel, "last_message_id", None)

    async def dm_open(self, guild_id: int, user_id: int) -> bool:
        since = await self._closed_since(guild_id, user_id)
        if since is None:
            return True
        return datetime.now(UTC) - datetime.fromisoformat(since) >= self.RETRY_AFTER

    async def send_dm(self, guild_id: int, user_id: int, content: str | None = None, **kwargs: Any) -> bool:
        return await self.deliver(guild_id, user_id, content, **kwargs) == SENT

    async def deliver(self, guild_id: int, user_id: int, content: str | None = None, **kwargs: Any) -> str:
        """DM a member: SENT; CLOSED when Discord refused just now (tell them once); SKIPPED when
        their DMs are remembered closed (not retried for an hour) or the DM failed otherwise."""
        return (await self.deliver_message(guild_id, user_id, content, **kwargs))[0]

    async def deliver_message(self, guild_id: int, user_id: int, content: str | None = None,
                              **kwargs: Any) -> tuple[str, Any]:
        """`deliver`, with the message sent (None unless SENT)."""
        if not await self.dm_open(guild_id, user_id) or str(user_id) == botplayer.bot_id(self.bot):
            return SKIPPED, None     # (the bot never DMs itself: it plays its seats from the state)
        user = self.bot.get_user(user_id)
        try:
            if user is None:
                user = await self.bot.fetch_user(user_id)
            message = await user.send(content, **kwargs)
        except discord.Forbidden:
            # 50007 is "Cannot send messages to this user"; any 403 means the same to us.
            await self.store.mark_dm_closed(guild_id, user_id)
            self._closed.pop((guild_id, user_id), None)
            return CLOSED, None
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", user_id, exc)
            return SKIPPED, None
        if await self._closed_since(guild_id, user_id):
            await self.store.clear_dm_closed(guild_id, user_id)
            self._closed[(guild_id, user_id)] = None
        return SENT, message


async def _edit(message: Any, file: discord.File | None, fields: dict[str, Any]) -> bool:
    if file is not None:
        fields["attachments"] = [file]
    try:
        await message.edit(**fields)
    except discord.HTTPException as exc:
        log.info("message %s cannot be edited (%s)", getattr(message, "id", "?"), exc)
        return False
    return True

