"""Just enough of Discord to drive cogs without a connection.

`World` holds fake users and channels, patches a real `BautaBot`'s lookups to them, and
records every message the bot sends, by where it went (channel, DM, ephemeral). Interactions
record their response and followups the same way. `user.send` raises a real
`discord.Forbidden` with code 50007 when the user's DMs are closed. Every request (a post, edit or
delete in a channel or DM, an interaction's response or followup) is also noted in `World.writes`
with the interaction that caused it (tests/support/writes.py).
"""
from __future__ import annotations

import itertools
import re
import time
from datetime import UTC, datetime
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from collections.abc import Coroutine

import discord

from tests.support import writes as _writes

_ids = itertools.count(1000)
_changes = itertools.count()
_interactions = itertools.count(1)


@dataclass
class Sent:
    where: str                  # "channel:<id>", "dm:<user id>", "ephemeral:<user id>"
    content: str | None
    view: Any = None
    file: Any = None
    embed: Any = None
    ephemeral: bool = False
    id: int = field(default_factory=lambda: next(_ids))
    edits: int = 0
    deleted: bool = False
    said: str | None = None     # what its last change added: all of it, or the lines appended by an edit
    changed: int = field(default_factory=lambda: next(_changes))
    allowed_mentions: discord.AllowedMentions | None = None   # effective; None: Discord parses everything
    nonce: int | str | None = None      # as sent (discord.py enforces it: see World.record)
    silent: bool = False                # sent without a notification (Discord's @silent)

    @property
    def public(self) -> bool:
        return self.where.startswith("channel:")

    def pings(self) -> set[str]:
        """The users this message notifies: those it mentions and its allowed_mentions let through
        (none for a silent message: Discord shows it without a notification)."""
        if self.silent:
            return set()
        mentioned = set(re.findall(r"<@!?(\d+)>", self.content or ""))
        if self.allowed_mentions is None:
            return mentioned
        users = self.allowed_mentions.to_dict().get("users")
        parse = self.allowed_mentions.to_dict()["parse"]
        if "users" in parse:
            return mentioned
        return mentioned & {str(u) for u in users or ()}

    def could_ping(self) -> set[str]:
        """What beyond named users this message could notify: "everyone" (@everyone and @here) and
        "roles". Without any allowed_mentions Discord pings whatever the content mentions."""
        if self.allowed_mentions is None:
            return {"everyone", "roles"}
        payload = self.allowed_mentions.to_dict()
        return ({"everyone"} & set(payload["parse"])) | (
            {"roles"} if "roles" in payload["parse"] or payload.get("roles") else set())

    def texts(self) -> list[str]:
        """Everything a reader sees: content, embed, button labels, select options, file name."""
        out = [self.content or ""]
        if self.embed is not None:
            out.append(str(self.embed.to_dict()))
        if self.file is not None:
            out.append(self.file.filename or "")
        if self.view is not None:
            for item in self.view.children:
                inner = getattr(item, "item", item)
                out.append(getattr(inner, "label", "") or "")
                out.append(getattr(inner, "placeholder", "") or "")
                for option in getattr(inner, "options", []) or []:
                    out += [option.label, option.description or ""]
        return out

    def custom_ids(self) -> list[str]:
        if self.view is None:
            return []
        return [getattr(item, "custom_id", "") for item in self.view.children]


class FakeHTTPResponse:
    def __init__(self, status: int, reason: str = "Forbidden"):
        self.status = status
        self.reason = reason


def forbidden_50007() -> discord.Forbidden:
    return discord.Forbidden(FakeHTTPResponse(403), {"code": 50007, "message": "Cannot send messages to this user"})


class FakeRole:
    def __init__(self, role_id: int, name: str = "GM"):
        self.id = role_id
        self.name = name
        self.mention = f"<@&{role_id}>"
        self.members: list = []


class FakeUser:
    def __init__(self, world: World, user_id: int, name: str, admin: bool = False):
        self.world = world
        self.id = user_id
        self.name = name
        self.display_name = name
        self.mention = f"<@{user_id}>"
        self.bot = False
        self.roles: list[FakeRole] = []
        self.guild_permissions = discord.Permissions(administrator=admin, manage_guild=admin)
        self.dm_closed = False
        self.dm_attempts = 0

    async def send(self, content=None, **kwargs):
        self.dm_attempts += 1
        if self.dm_closed:
            raise forbidden_50007()
        message = self.world.record(f"dm:{self.id}", content, **kwargs)
        self.world.note("post", message, kwargs)
        return message

    @property
    def dm_channel(self) -> FakeDMChannel:
        return FakeDMChannel(self)

    async def create_dm(self) -> FakeDMChannel:
        return FakeDMChannel(self)

    def __str__(self):
        return self.name


class FakeChannel:
    def __init__(self, world: World, channel_id: int, name: str = "table"):
        self.world = world
        self.id = channel_id
        self.name = name
        self.mention = f"<#{channel_id}>"

    @property
    def where(self) -> str:
        return f"channel:{self.id}"

    async def send(self, content=None, **kwargs):
        message = self.world.record(self.where, content, **kwargs)
        self.world.note("post", message, kwargs)
        return message

    def get_partial_message(self, message_id: int) -> FakePartialMessage:
        return FakePartialMessage(self, message_id)

    async def fetch_message(self, message_id: int) -> FakeFetched:
        return FakeFetched(FakePartialMessage(self, message_id)._message())

    @property
    def last_message_id(self) -> int | None:
        """As the gateway keeps it: the newest message in the channel (ephemeral replies are not)."""
        here = self.world.sent.by_where.get(self.where, ())
        return next((m.id for m in reversed(here) if not m.deleted), None)

    async def history(self, *, limit: int | None = 100, after=None):
        """The channel's messages after `after` (oldest first, as discord.py gives them with
        `after`), at most `limit`: a read, noted in `world.reads`."""
        self.world.reads += 1
        here = [m for m in self.world.sent.by_where.get(self.where, ()) if not m.deleted
                and (after is None or m.id > after.id)]
        for message in here[:limit]:
            yield message


class FakeDMChannel:
    def __init__(self, user: FakeUser):
        self.world, self.id = user.world, user.id
        self.where = f"dm:{user.id}"

    def get_partial_message(self, message_id: int) -> FakePartialMessage:
        return FakePartialMessage(self, message_id)


class FakeAttachment:
    def __init__(self, file: discord.File):
        self.filename = file.filename
        self._file = file

    async def read(self) -> bytes:
        self._file.fp.seek(0)
        return self._file.fp.read()


class FakeFetched:
    """A message as `channel.fetch_message` gives it: its content and attachments."""

    def __init__(self, message: Sent):
        self.id, self.content = message.id, message.content
        self.attachments = [FakeAttachment(message.file)] if message.file is not None else []


class FakePartialMessage:
    """What `channel.get_partial_message(id)` gives: enough to edit or delete a message the bot posted."""

    def __init__(self, channel: FakeChannel | FakeDMChannel, message_id: int):
        self.channel, self.id = channel, message_id

    def _message(self) -> Sent:
        message = self.channel.world.sent.by_id.get(self.id)
        if message is None or message.where != self.channel.where or message.deleted:
            raise discord.NotFound(FakeHTTPResponse(404, "Not Found"), "Unknown Message")
        return message

    async def delete(self):
        message = self._message()
        message.deleted = True
        self.channel.world.note("delete", message, {})

    async def edit(self, **kwargs):
        world = self.channel.world
        message = self._message()
        before = world.looks(message, kwargs)
        edited(world, message, kwargs)
        world.note("edit", message, kwargs, before)
        return message


def edited(world: World, message: Sent, kwargs: dict) -> None:
    """A message after an edit by the bot (through the channel, or through the webhook of the
    click made on it): its content, what the edit added to it, its attachments and components."""
    if "content" in kwargs:
        old, new = message.content or "", kwargs["content"] or ""
        message.said = new[len(old) + 1:] if old and new.startswith(old + "\n") else new
        message.changed = next(_changes)
        message.content = kwargs["content"]
    if "attachments" in kwargs:       # an empty list removes them
        message.file = kwargs["attachments"][0] if kwargs["attachments"] else None
    if "view" in kwargs:
        message.view = kwargs["view"]
    if "allowed_mentions" in kwargs:  # (an edit notifies nobody: who the post pinged stays as it was)
        message.allowed_mentions = world.effective_mentions(kwargs["allowed_mentions"])
    message.edits += 1


class FakeGuild:
    """Members as discord.py gives them without the privileged members intent: the cache
    (`get_member`) knows nobody; `fetch_member` asks Discord, one member per request."""

    def __init__(self, guild_id: int, owner_id: int, world: World | None = None):
        self.id = guild_id
        self.owner_id = owner_id
        self.world = world
        self.roles: dict[int, FakeRole] = {}
        self.fetched: list[int] = []            # every fetch_member, in order

    def get_role(self, role_id: int):
        return self.roles.get(role_id)

    def get_member(self, user_id: int):
        return None

    async def fetch_member(self, user_id: int):
        self.fetched.append(int(user_id))
        member = self.world.users.get(int(user_id)) if self.world else None
        if member is None:
            raise discord.NotFound(FakeHTTPResponse(404, "Not Found"), "Unknown Member")
        return member


class FakeResponse:
    def __init__(self, interaction: FakeInteraction):
        self.interaction = interaction
        self._done = False
        self.deferred = None
        self.answered_at: float | None = None     # perf_counter when the interaction was answered

    def is_done(self) -> bool:
        return self._done

    def _claim(self):
        if self._done:  # Discord answers 40060 "already acknowledged"
            raise discord.InteractionResponded(self.interaction)
        self._done = True
        self.answered_at = time.perf_counter()

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False):
        self._claim()
        self.deferred = SimpleNamespace(ephemeral=ephemeral, thinking=thinking)
        self.interaction.world.note("defer", None, {}, where=self.interaction.where(ephemeral))

    async def send_message(self, content=None, *, ephemeral: bool = False, **kwargs):
        self._claim()
        message = self.interaction.world.record(self.interaction.where(ephemeral), content, ephemeral=ephemeral,
                                                **kwargs)
        self.interaction.world.note("respond", message, kwargs)
        return message

    async def edit_message(self, **kwargs):
        """Answer a component click by editing the message it sits on (Discord's UPDATE_MESSAGE)."""
        self._claim()
        self.interaction.updated = True
        await self.interaction._edit_original("update", kwargs)


class FakeFollowup:
    def __init__(self, interaction: FakeInteraction):
        self.interaction = interaction

    async def send(self, content=None, *, ephemeral: bool = False, **kwargs):
        if not self.interaction.response.is_done():
            # Discord knows an interaction's webhook only once the interaction has been answered.
            raise discord.NotFound(FakeHTTPResponse(404, "Not Found"), {"code": 10015, "message": "Unknown Webhook"})
        kwargs.pop("wait", None)
        deferred = self.interaction.response.deferred
        # A deferred slash command keeps the ephemerality chosen at defer time for its first followup.
        if deferred is not None and deferred.thinking and not self.interaction.followups_sent:
            ephemeral = deferred.ephemeral
        self.interaction.followups_sent += 1
        message = self.interaction.world.record(self.interaction.where(ephemeral), content, ephemeral=ephemeral,
                                                **kwargs)
        self.interaction.world.note("followup", message, kwargs)
        return message


class FakeInteraction:
    def __init__(self, world: World, user: FakeUser, channel: FakeChannel | None, *, guild: FakeGuild | None,
                 message: Sent | None = None, data: dict | None = None, locale: str = "en-US"):
        self.world = world
        self.client = world.bot
        self.user = user
        self.channel = channel
        self.channel_id = channel.id if channel else None
        self.guild = guild
        self.guild_id = guild.id if guild else None
        self.locale = locale
        self.guild_locale = locale
        self.created_at = datetime.now(UTC)     # what app_commands' cooldown checks read
        self.message = message
        self.data = data or {}
        self.command = None
        # a component's click when it carries a custom_id, else a slash command
        self.type = (discord.InteractionType.component if self.data.get("custom_id")
                     else discord.InteractionType.application_command)
        self.extras: dict = {}
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.followups_sent = 0
        self.edits: list[dict] = []
        self.updated = False        # the clicked message was edited through the response (UPDATE_MESSAGE)
        self.seq = next(_interactions)
        self.label = self.data.get("custom_id") or "command"
        world.handling = self
        world.interactions.append(self)

    def where(self, ephemeral: bool) -> str:
        if ephemeral:
            return f"ephemeral:{self.user.id}"
        if self.channel is None or self.guild is None:
            return f"dm:{self.user.id}"
        return f"channel:{self.channel_id}"

    async def edit_original_response(self, **kwargs):
        await self._edit_original("original", kwargs)

    async def delete_original_response(self):
        """Delete the clicked message through the click's webhook (outside the channel's bucket)."""
        target = self.world.sent.by_id.get(self.message.id, self.message) if self.message is not None else None
        if target is None or target.deleted or not self.response.is_done():
            raise discord.NotFound(FakeHTTPResponse(404, "Not Found"), "Unknown Message")
        target.deleted = self.message.deleted = True
        self.world.note("unsent", target, {})

    async def _edit_original(self, kind: str, kwargs: dict) -> None:
        """`update`: the click's answer (its mark: content and components only, not counted among
        the message's edits, as before); `original`: a later edit through the click's webhook,
        which changes the message as a channel edit would (outside the channel's rate limit)."""
        self.edits.append(kwargs)
        before = self.world.looks(self.message, kwargs) if self.message is not None else None
        if self.message is not None and kind == "original":
            target = self.world.sent.by_id.get(self.message.id, self.message)     # the message as Discord holds it
            if target.deleted:
                raise discord.NotFound(FakeHTTPResponse(404, "Not Found"), "Unknown Message")
            edited(self.world, target, kwargs)
            if target is not self.message:
                self.message.content, self.message.view = target.content, target.view
        elif self.message is not None:
            target = self.world.sent.by_id.get(self.message.id, self.message)
            for message in {id(m): m for m in (self.message, target)}.values():
                if "content" in kwargs:
                    message.content = kwargs["content"]
                if "view" in kwargs:
                    message.view = kwargs["view"]
                if "attachments" in kwargs:      # an empty list removes them
                    message.file = kwargs["attachments"][0] if kwargs["attachments"] else None
        self.world.note(kind, self.message, kwargs, before, where=self.where(False))


class SentLog(list):
    """Everything sent, in order, indexed by message id and by place, so that finding a message
    to edit (as Discord does by id) costs the same in a long bench run as in a short test."""

    def __init__(self):
        super().__init__()
        self.by_id: dict[int, Sent] = {}
        self.by_where: dict[str, list[Sent]] = {}

    def append(self, message: Sent) -> None:
        super().append(message)
        self.by_id[message.id] = message
        self.by_where.setdefault(message.where, []).append(message)

    def clear(self) -> None:
        super().clear()
        self.by_id.clear()
        self.by_where.clear()


class World:
    """Fake users, channels and a guild around one real bot; records everything sent."""

    def __init__(self, bot, guild_id: int = 1):
        self.bot = bot
        self.sent = SentLog()
        self.nonces: dict[str, Sent] = {}
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.guild = FakeGuild(guild_id, owner_id=1, world=self)
        self.guild.name = "Test Server"
        self.locale = "en-US"           # what every interaction's client speaks unless a test says
        self.table_ids: set[int] = set()    # the table messages the bots posted (`tables`)
        # table message id -> (the narration it shows, what its last change added, when)
        self.narrations: dict[int, tuple[str, str, int]] = {}
        self.writes = _writes.WriteLog()    # every request made, in order (tests/support/writes.py)
        self.reads = 0                      # channel histories read (FakeChannel.history)
        self.interactions: list[FakeInteraction] = []  # in the order they were made
        self.handling: FakeInteraction | None = None    # the newest interaction made or being handled
        self.attach(bot)

    def attach(self, bot) -> None:
        """Point a (possibly new) bot's lookups at this world, and watch its tables."""
        self.bot = bot
        host = getattr(bot, "host", None)
        if host is not None:
            self._watch_tables(host.table)
            # the gateway's message cache: every message in the channel nobody deleted
            host.courier.seen = lambda cid: (m.id for m in self.sent.by_where.get(f"channel:{cid}", ())
                                             if not m.deleted)
        bot.get_user = lambda uid: self.users.get(int(uid))
        bot.get_channel = lambda cid: self.channels.get(int(cid))

        async def fetch_user(uid):
            if int(uid) not in self.users:
                raise discord.NotFound(FakeHTTPResponse(404, "Not Found"), "Unknown User")
            return self.users[int(uid)]

        async def fetch_channel(cid):
            if int(cid) not in self.channels:
                raise discord.NotFound(FakeHTTPResponse(404, "Not Found"), "Unknown Channel")
            return self.channels[int(cid)]

        bot.fetch_user = fetch_user
        bot.fetch_channel = fetch_channel

    def user(self, user_id: int, name: str, admin: bool = False) -> FakeUser:
        self.users[user_id] = FakeUser(self, user_id, name, admin)
        return self.users[user_id]

    def channel(self, channel_id: int, name: str = "table") -> FakeChannel:
        self.channels[channel_id] = FakeChannel(self, channel_id, name)
        return self.channels[channel_id]

    def effective_mentions(self, given: discord.AllowedMentions | None) -> discord.AllowedMentions | None:
        """What discord.py sends: the message's allowed_mentions merged over the client's default."""
        default = getattr(self.bot, "allowed_mentions", None)
        if given is None:
            return default
        return default.merge(given) if default is not None else given

    def record(self, where: str, content=None, **kwargs) -> Sent:
        kwargs.pop("wait", None)
        nonce = kwargs.get("nonce")
        if nonce is not None and str(nonce) in self.nonces:
            # Discord: a message sent again with the same (enforced) nonce within a few minutes is
            # not created again; the first one is returned.
            return self.nonces[str(nonce)]
        message = Sent(where, content, view=kwargs.get("view"), file=kwargs.get("file"), embed=kwargs.get("embed"),
                       ephemeral=bool(kwargs.get("ephemeral", False)), said=content,
                       allowed_mentions=self.effective_mentions(kwargs.get("allowed_mentions")), nonce=nonce,
                       silent=bool(kwargs.get("silent", False)))
        self.sent.append(message)
        if nonce is not None:
            self.nonces[str(nonce)] = message
        return message

    looks = staticmethod(_writes.looks)

    note = _writes.note       # note a request in `writes`, with its cause (tests/support/writes.py)

    def interaction(self, user: FakeUser, channel: FakeChannel | None = None, *, in_dm: bool = False,
                    message: Sent | None = None, data: dict | None = None, locale: str | None = None,
                    ) -> FakeInteraction:
        return FakeInteraction(self, user, None if in_dm else channel, guild=None if in_dm else self.guild,
                               message=message, data=data, locale=locale or self.locale)

    # ---- reading what happened
    def public(self) -> list[Sent]:
        return [m for m in self.sent if m.public]

    def _watch_tables(self, table) -> None:
        """Note each table message a bot's `Table` posts (the bot keeps no such list: a process
        that ran for months would hold every table it ever posted)."""
        repost = table._repost

        async def noted(game, record: dict, *args, **kwargs) -> None:
            await repost(game, record, *args, **kwargs)
            if record.get("message") is not None:
                self.table_ids.add(record["message"])
        table._repost = noted
        for name in ("show", "narrate"):
            setattr(table, name, self._telling(getattr(table, name)))

    def _telling(self, original):
        """`Table.show` or `Table.narrate`, noting what the step told on the table message."""
        async def told(interaction, game, *args, **kwargs):
            after = await original(interaction, game, *args, **kwargs)
            self._narrated(after.meta.get("table") or {})
            return after
        return told

    def _narrated(self, table: dict) -> None:
        """Note what a step added to the narration its table message shows (the lines at its top,
        `narrative_text` in the game's meta; lines kept for a later step's publish are not shown yet)."""
        message = self.sent.by_id.get(table.get("message") or 0)
        text = table.get("narrative_text") or ""
        if message is None or not text or not (message.content or "").startswith(text):
            return
        shown = self.narrations.get(message.id, ("", "", 0))[0]
        if text != shown:
            added = text[len(shown) + 1:] if shown and text.startswith(shown + "\n") else text
            self.narrations[message.id] = (text, added, next(_changes))

    def body(self, message: Sent) -> str:
        """A table message's content below the narration at its top: whose decision it is and what
        (the prompts' headlines), then the board's caption."""
        told = self.narrations.get(message.id, ("",))[0]
        content = message.content or ""
        return content[len(told):].lstrip("\n") if told and content.startswith(told) else content

    def tables(self) -> set[int]:
        """The ids of the games' table messages (board and prompts), as the bots posted them."""
        return self.table_ids

    def said(self, where: str = "channel:10") -> str:
        """The newest narration in a channel: what the last step told the table there (the lines it
        added at the top of the table message, or a message of its own), not the rest of the table
        message, nor a game's chronicle (the message with its Rematch button, `chronicles`)."""
        tables = self.tables()
        told = [(m.changed, m.said if m.said is not None else (m.content or "")) for m in self.sent
                if m.where == where and not m.deleted and m.id not in tables and not _chronicle(m)]
        told += [(changed, added) for mid, (_, added, changed) in self.narrations.items()
                 if self.sent.by_id[mid].where == where and not self.sent.by_id[mid].deleted]
        if not told:
            raise LookupError(f"nothing said in {where}")
        return max(told)[1]

    def chronicles(self, where: str = "channel:10") -> list[Sent]:
        """The chronicles posted in a channel (a game's end: cogs/host/chronicle.py)."""
        return [m for m in self.sent if m.where == where and not m.deleted and _chronicle(m)]

    def table(self, where: str = "channel:10") -> Sent:
        """The live table message of the channel (the newest one)."""
        tables = self.tables()
        return next(m for m in reversed(self.sent) if m.where == where and not m.deleted and m.id in tables)

    def public_text(self) -> str:
        return "\n".join(text for m in self.public() for text in m.texts())

    def mass_pings(self) -> list[Sent]:
        """Every message sent so far that could ping everyone, here or a role."""
        return [m for m in self.sent if m.could_ping()]

    def dms(self, user: FakeUser) -> list[Sent]:
        return [m for m in self.sent if m.where == f"dm:{user.id}"]

    def ephemeral(self, user: FakeUser) -> list[Sent]:
        return [m for m in self.sent if m.where == f"ephemeral:{user.id}"]

    def last(self, where: str | None = None, with_view: bool = False) -> Sent:
        for message in reversed(self.sent):
            if message.deleted:
                continue
            if (where is None or message.where == where) and (not with_view or message.view is not None):
                return message
        raise LookupError(f"no message to {where}")


def _chronicle(message: Sent) -> bool:
    return any(cid.startswith("bauta:rematch:") for cid in message.custom_ids())


def component_of(message: Sent, prompt: Any, option_id: str | None = None) -> tuple[int, list[str] | None]:
    """Where a prompt's answer is on a message that may carry several prompts (the table): the
    index of the option's button, or of the prompt's select with the value to send."""
    ids = message.custom_ids()
    options = [o.id for o in prompt.options]
    for index, cid in enumerate(ids):
        parts = cid.split(":")
        if len(parts) >= 4 and parts[1] == "s" and ":".join(parts[3:]) == prompt.id:
            if option_id is None:
                return index, ["#0"]
            return index, [option_id if len(option_id) <= 90 else f"#{options.index(option_id)}"]
        if len(parts) >= 5 and parts[1] == "b" and ":".join(parts[3:-1]) == prompt.id:
            token = parts[-1]
            if option_id is None or token == option_id or (option_id in options
                                                            and token == f"#{options.index(option_id)}"):
                return index, None
    raise LookupError(f"no component of {prompt.id} answers {option_id}")


def click(world: World, message: Sent, user: FakeUser, index: int = 0, values: list[str] | None = None,
          in_dm: bool | None = None, channel: FakeChannel | None = None, locale: str | None = None,
          guild_locale: str | None = None) -> Coroutine[Any, Any, FakeInteraction]:
    """Click a component of a sent message the way discord.py dispatches it: the DynamicItem
    is rebuilt from the custom_id alone (as after a restart) and its callback runs.

    The click is taken when this is called (the component as the message shows it then, as
    Discord's interaction carries it), and handled when awaited: clicks gathered together are
    all made before any is handled, as clicks arriving together are, however soon the first
    one's handling changes the message."""
    from cogs.host import PromptButton, PromptSelect

    if message.deleted:
        raise LookupError("that message was deleted: nobody can click it any more")
    custom_id = message.custom_ids()[index]
    inner = getattr(message.view.children[index], "item", None)
    in_dm = message.where.startswith("dm:") if in_dm is None else in_dm
    channel = channel or next(iter(world.channels.values()), None)
    interaction = world.interaction(user, channel, in_dm=in_dm, message=message,
                                    data={"custom_id": custom_id, "values": values or []}, locale=locale)
    interaction.guild_locale = guild_locale or interaction.locale
    interaction.client = world.bot

    async def handled() -> FakeInteraction:
        with _writes.handling(interaction):
            for cls in (PromptButton, PromptSelect):
                match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
                if match:
                    item = await cls.from_custom_id(interaction, inner, match)
                    await item.callback(interaction)
                    return interaction
        raise LookupError(f"no dynamic item matches {custom_id}")
    return handled()
