"""Delivery: posting in channels, DMs (remembering closed ones), editing what the bot posted.

Each message of an action's publish goes out once, even when a crash cuts the publish short and
the outbox sweep publishes the action again: inside `Courier.publishing(slots)` every send takes
the next slot of its destination, or of what it is there ("c<channel>:table<game>#0", "u<user>#1"), skips a slot the store says was
sent, and carries a nonce derived from the slot. Each slot is recorded in the store before the
publish's next send (the last one needs no record: the end of the publish, `mark_published`,
closes the action), so at any moment at most one message relies on the nonce alone: Discord
enforces it, and a second message with the same nonce within a few minutes is not created, which
covers a crash between a send and its record. An edit needs none of this: done twice, it still
leaves one message.
"""
from __future__ import annotations

import contextvars
import hashlib
import io
import logging
from collections import OrderedDict
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, UTC
from types import SimpleNamespace
from typing import Any
from collections.abc import AsyncIterator, Iterable

import discord

from db.store import Store
from rules.common import GM

from .text import HELD, MESSAGE_LIMIT


log = logging.getLogger("bauta.courier")

SENT, CLOSED, SKIPPED = "sent", "closed", "skipped"   # outcomes of a DM


# ---------------------------------------------------------------------------- small helpers
def mention(player: str) -> str:
    return f"<@{player}>" if player.isdigit() else ("GM" if player == GM else player)


def bot_id(bot: Any) -> str | None:
    """The bot's own user id, as a seat (None before it logged in)."""
    user = getattr(bot, "user", None)
    return str(user.id) if user is not None else None


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



# ---------------------------------------------------------------------------- once per slot
@dataclass
class Slots:
    """The messages of one action's publish: `sent` the slots already out (→ message id), `counts`
    how many sends each destination has had in this publish so far, `unrecorded` the slot sent
    last and not yet in the store."""
    guild_id: int
    game_id: int
    seq: int
    sent: dict[str, int | None] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    unrecorded: str | None = None

    def take(self, where: str) -> str:
        """The slot of the next send to `where`, counted whether or not it goes out (a DM skipped
        in one run and refused in another keeps the later slots in step)."""
        n = self.counts.get(where, 0)
        self.counts[where] = n + 1
        return f"{where}#{n}"


# The publish under way in this task (a context variable: concurrent publishes never mix slots).
_publishing: contextvars.ContextVar[Slots | None] = contextvars.ContextVar("bauta_publishing", default=None)


# ---------------------------------------------------------------------------- delivery
class Courier:
    """Sends to channels and DMs, and remembers closed DMs so we do not retry on every event
    (Discord counts failed requests towards its invalid-request ban)."""

    RETRY_AFTER = timedelta(hours=1)

    def __init__(self, bot: discord.Client, store: Store):
        self.bot = bot
        self.store = store
        self._closed: dict[tuple[int, int], str | None] = {}   # (guild, user) -> closed since
        self._salt: str | None = None
        # message id -> what it shows (each field, its picture by a fingerprint of its bytes): an
        # edit that would change nothing is not sent, and a picture shown already is not uploaded
        # again (a board redrawn the same, a hand unchanged)
        self._looks: OrderedDict[int, dict[str, Any]] = OrderedDict()

    @asynccontextmanager
    async def publishing(self, slots: Slots) -> AsyncIterator[None]:
        """Send inside as one action's publish: once per slot (see the module's docstring)."""
        token = _publishing.set(slots)
        try:
            yield
        except Exception:
            await self._record(slots)     # the publish failed before its end: what went out stays known
            raise
        finally:
            _publishing.reset(token)

    @staticmethod
    def keyed() -> bool:
        """Whether sends now are an action's publish (counted by slot)."""
        return _publishing.get() is not None

    @staticmethod
    def _take(where: str) -> tuple[Slots, str] | None:
        """The publish under way and the slot of this send to `where`; None outside a publish."""
        slots = _publishing.get()
        return None if slots is None else (slots, slots.take(where))

    async def nonce(self, slots: Slots, slot: str) -> int:
        """The slot's nonce: the same in every process of this deployment, at most 19 digits
        (Discord takes up to 25 characters), and another database's differ."""
        if self._salt is None:
            self._salt = await self.store.deployment_salt()
        digest = hashlib.sha256(f"{self._salt}:{slots.game_id}:{slots.seq}:{slot}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1 or 1

    async def _record(self, slots: Slots) -> None:
        """Store the slot sent last (before the next send: see the module's docstring)."""
        slot, slots.unrecorded = slots.unrecorded, None
        if slot is None:
            return
        try:
            await self.store.record_sent(slots.guild_id, slots.game_id, slots.seq, slot, slots.sent[slot])
        except Exception:  # noqa: BLE001 - the message is out; a lost record only risks a nonce-deduplicated resend
            log.exception("could not record message %s of game %s action %s", slot, slots.game_id, slots.seq)

    @staticmethod
    def _sent(slots: Slots, slot: str, message: Any) -> None:
        slots.sent[slot] = getattr(message, "id", None)
        slots.unrecorded = slot

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

    async def send_channel(self, channel_id: int, content: str | None = None, *, slot: str | None = None,
                           **kwargs: Any):
        """Post in a channel. `slot`: what the message is in an action's publish (its table, a
        prompt…): its sends are counted under that name, so a publish run again after a crash, which
        may post where the first run edited (a table no longer at the foot), keeps every other
        message's slot; unnamed sends are counted per channel in order."""
        channel = await self.channel(channel_id)
        if channel is None:
            return None
        keyed = self._take(f"c{channel_id}" + (f":{slot}" if slot else ""))
        if keyed is not None:
            slots, slot = keyed
            if slot in slots.sent:      # posted before a crash: the message that is there
                known = slots.sent[slot]
                return channel.get_partial_message(known) if known and hasattr(channel, "get_partial_message") else None
            kwargs["nonce"] = await self.nonce(slots, slot)
            await self._record(slots)
        try:
            message = await channel.send(content, **kwargs)
        except discord.HTTPException as exc:
            log.warning("cannot post in channel %s: %s", channel_id, exc)
            return None
        self._posted(message, content, kwargs)
        if keyed is not None:
            self._sent(*keyed, message)
        return message

    async def edit(self, channel_id: int, message_id: int, content: str | None = None,
                   file: discord.File | None = None) -> bool:
        """Edit a message the bot posted; False when it cannot be (deleted, no access, unknown)."""
        return await self.edit_message(channel_id, message_id, content=content, file=file)

    async def edit_message(self, channel_id: int, message_id: int, *, file: discord.File | None = None,
                           via: discord.Interaction | None = None, **fields: Any) -> bool:
        """Edit the given fields (content, view…) of a message the bot posted in a channel; a
        `file` replaces its attachments, else they are kept. False when it cannot be edited.
        `via`: a click on this very message: the edit is that click's own response when it is
        held for it (`replies.Held`), else goes through its webhook once answered; Discord counts
        neither against the channel's 5 writes per 5 seconds (a channel edit when they are refused,
        e.g. the webhook past its 15 minutes)."""
        async def by_channel(file: discord.File | None) -> bool:
            channel = await self.channel(channel_id)
            if channel is None or not hasattr(channel, "get_partial_message"):
                return False
            return await _edit(channel.get_partial_message(message_id), file, fields)
        return await self._edit_once(message_id, file, fields, by_channel, via)

    async def _edit_once(self, message_id: int, file: discord.File | None, fields: dict[str, Any],
                         edit: Any, via: discord.Interaction | None = None) -> bool:
        """An edit, unless the message already shows it (nothing is written twice); a picture
        whose bytes the message already shows is not uploaded again (its attachment is kept)."""
        before = self._looks.get(message_id)
        if file is not None and before is not None and before.get("file") == _picture(file):
            file = None
        looks = _looks(file, fields, before)
        if before == looks:
            return True
        if before is not None and "content" in fields and before.get("content") == _value(fields["content"]):
            del fields["content"]      # (in place: `edit` sends these) the text it shows already is kept
        done = False
        if via is not None:
            try:
                await _through(via, dict(fields, attachments=[file]) if file is not None else fields)
                done = True
            except discord.HTTPException as exc:
                log.info("the click's own message could not be edited through it (%s)", exc)
                if file is not None:
                    file.reset()
        if not done:
            done = await edit(file)
        self.remember(message_id, looks if done else None)
        return done

    def _posted(self, message: Any, content: str | None, kwargs: dict[str, Any]) -> None:
        """What a message just posted shows, so that its first edit is spared as the later ones.
        (A send Discord absorbed, its nonce seen before a crash, gives the message that was there,
        which may show more by now: not known then.)"""
        message_id = getattr(message, "id", None)
        if message_id is not None and getattr(message, "content", content) == content:
            shown = {"content": content, "view": kwargs.get("view"), "embed": kwargs.get("embed")}   # (none: None)
            self.remember(message_id, _looks(kwargs.get("file"), shown, None))

    def answered(self, message_id: int | None, edit: dict[str, Any]) -> None:
        """A click's answer edits its message (not through here): what it shows now, its
        attachment kept (unknown when the courier never saw the message)."""
        if message_id is None:
            return
        before = self._looks.get(message_id)
        self.remember(message_id, _looks(None, edit, before) if before is not None else None)

    def remember(self, message_id: int, looks: dict[str, Any] | None) -> None:
        """What a message shows after an edit (None: unknown, e.g. an edit that failed)."""
        self._looks.pop(message_id, None)
        if looks is not None:
            self._looks[message_id] = looks
            while len(self._looks) > LOOKS_KEPT:
                self._looks.popitem(last=False)

    async def edit_dm(self, user_id: int, message_id: int, *, file: discord.File | None = None,
                      **fields: Any) -> bool:
        """Edit a DM the bot sent to `user_id` (a prompt brought up to date, or closed)."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            dm = user.dm_channel or await user.create_dm()
        except discord.HTTPException as exc:
            log.info("DM channel of %s unreachable (%s)", user_id, exc)
            return False

        async def by_dm(file: discord.File | None) -> bool:
            return await _edit(dm.get_partial_message(message_id), file, fields)
        return await self._edit_once(message_id, file, fields, by_dm)

    async def delete(self, channel_id: int, message_id: int, via: discord.Interaction | None = None) -> bool:
        """Delete a message the bot posted; `via`: a click on it, through whose webhook the delete
        goes (outside the channel's rate limit; a channel delete when that fails)."""
        self.remember(message_id, None)
        if via is not None:
            try:
                await _held(via, via.response.defer)     # (no response deletes: deferred, then deleted)
                await via.delete_original_response()
                return True
            except discord.HTTPException as exc:
                log.info("the click's own message could not be deleted through it (%s)", exc)
        channel = await self.channel(channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return False
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("message %s in %s cannot be deleted (%s)", message_id, channel_id, exc)
            return False
        return True

    async def attachment(self, channel_id: int, message_id: int) -> tuple[str, bytes] | None:
        """The first attachment of a message the bot posted (name, bytes); None when there is none
        or it cannot be read (one fetch, then Discord's CDN)."""
        channel = await self.channel(channel_id)
        if channel is None or not hasattr(channel, "fetch_message"):
            return None
        try:
            message = await channel.fetch_message(message_id)
            if not message.attachments:
                return None
            first = message.attachments[0]
            return first.filename, await first.read()
        except discord.HTTPException as exc:
            log.info("attachment of message %s in %s unreadable (%s)", message_id, channel_id, exc)
            return None

    async def last_message_id(self, channel_id: int) -> int | None:
        """The newest message in the channel as the gateway told us (None when unknown)."""
        channel = self.bot.get_channel(channel_id)
        return getattr(channel, "last_message_id", None)

    def seen(self, channel_id: int) -> Iterable[int]:
        """The ids of the channel's messages the gateway showed this process, in its message cache
        (discord.py keeps the newest thousand, dropping the deleted ones)."""
        return (m.id for m in self.bot.cached_messages if m.channel.id == channel_id)

    async def below(self, channel_id: int, message_id: int, upto: int) -> int | None:
        """How many messages are in the channel below `message_id`, counted up to `upto` (0 when it
        is the newest, or the channel's newest is unknown): from the gateway's cache, else (after a
        restart, or in a channel busier than the cache) from the channel's history, a read, which
        Discord does not count against the channel's writes. None when neither can tell."""
        last = await self.last_message_id(channel_id)
        if last is None or last == message_id:
            return 0
        newer = [m for m in self.seen(channel_id) if m > message_id]
        if last in newer:
            return min(len(newer), upto)
        channel = self.bot.get_channel(channel_id)
        if channel is None or not hasattr(channel, "history"):
            return None
        try:
            return len([m async for m in channel.history(limit=upto, after=discord.Object(message_id))])
        except discord.HTTPException as exc:          # (no Read Message History: the table moves)
            log.info("the history of channel %s cannot be read (%s)", channel_id, exc)
            return None

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
        """`deliver`, with the message sent (None unless SENT; the one sent before a crash, as an
        object with its id, when a re-publish skips it)."""
        keyed = self._take(f"u{user_id}")
        if keyed is not None and keyed[1] in keyed[0].sent:
            return SENT, SimpleNamespace(id=keyed[0].sent[keyed[1]])     # sent before a crash cut the publish short
        if not await self.dm_open(guild_id, user_id) or str(user_id) == bot_id(self.bot):
            return SKIPPED, None     # (the bot never DMs itself: it plays its seats from the state)
        user = self.bot.get_user(user_id)
        if keyed is not None:
            kwargs["nonce"] = await self.nonce(*keyed)
            await self._record(keyed[0])
        try:
            if user is None:
                user = await self.bot.fetch_user(user_id)
            message = await user.send(content, **kwargs)
            self._posted(message, content, kwargs)
        except discord.Forbidden:
            # 50007 is "Cannot send messages to this user"; any 403 means the same to us.
            await self.store.mark_dm_closed(guild_id, user_id)
            self._closed.pop((guild_id, user_id), None)
            return CLOSED, None
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", user_id, exc)
            return SKIPPED, None
        if keyed is not None:
            self._sent(*keyed, message)
        if await self._closed_since(guild_id, user_id):
            await self.store.clear_dm_closed(guild_id, user_id)
            self._closed[(guild_id, user_id)] = None
        return SENT, message


async def _held(via: discord.Interaction, respond: Any) -> bool:
    """Answer the click with `respond` when its response is held for the message it was made on
    (replies.Held) and still to take; False when it was not (or was taken: it is out by now)."""
    held = via.extras.get(HELD)
    return held is not None and await held.answer(respond)


async def _through(via: discord.Interaction, fields: dict[str, Any]) -> None:
    """Edit the clicked message through the click: in its own response when that is held for it
    (UPDATE_MESSAGE, the click's only edit), else through its webhook once it was answered."""
    if not await _held(via, lambda: via.response.edit_message(**fields)):
        await via.edit_original_response(**fields)


LOOKS_KEPT = 4096    # messages whose looks the courier remembers (the tables and prompts of now)


def _looks(file: discord.File | None, fields: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """What an edit would leave a message showing: each field's value, and its attachment's bytes
    (an edit without a file keeps the message's attachment, as remembered in `before`); the
    fields an edit leaves out are kept too."""
    shown = dict(before or {})
    if file is not None:
        shown["file"] = _picture(file)
    elif "attachments" in fields:
        shown["file"] = repr(fields["attachments"])
    shown.setdefault("file", None)
    shown.update((name, _value(item)) for name, item in fields.items() if name != "attachments")
    return shown


def _value(item: Any) -> Any:
    """A field's value as an edit sends it (a view by its components)."""
    if isinstance(item, discord.ui.View):
        return tuple((type(c).__name__, getattr(c, "custom_id", None), str(getattr(c, "label", "")),
                      str(getattr(c, "emoji", "")), getattr(c, "disabled", False), repr(getattr(c, "options", "")),
                      getattr(c, "row", None), str(getattr(c, "style", ""))) for c in item.children)
    return repr(item)


def _picture(file: discord.File) -> str:
    """An attachment's fingerprint (its bytes'; a file that is not in memory is never the same)."""
    fp = file.fp
    if not isinstance(fp, io.BytesIO):
        return f"?{id(file)}"
    return hashlib.blake2b(fp.getvalue(), digest_size=12).hexdigest()


async def _edit(message: Any, file: discord.File | None, fields: dict[str, Any]) -> bool:
    if file is not None:
        fields["attachments"] = [file]
    try:
        await message.edit(**fields)
    except discord.HTTPException as exc:
        log.info("message %s cannot be edited (%s)", getattr(message, "id", "?"), exc)
        return False
    return True

