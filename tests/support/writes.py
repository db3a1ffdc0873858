"""What the bot wrote to Discord, request by request, and what Discord's rate limits would make of it.

The fake world (tests/support/fakes.py) notes every request the bot makes in `World.writes`, a
`WriteLog` of `Write`s, in order:

- **channel writes**: a message posted, edited or deleted in a guild channel (`post`, `edit`,
  `delete`; `Write.channel` is true), and the same in a DM (`Write.dm`): these spend the
  channel's rate-limit bucket on Discord;
- **interaction responses**: `respond` (send_message), `update` (edit_message: Discord's
  UPDATE_MESSAGE, which edits the clicked message), `defer`; and **followups** through the
  interaction's webhook: `followup` (followup.send) and `original` (edit_original_response).
  These are outside the channel's bucket.

Each write names the interaction being handled when it was made (`cause`: a click while
`fakes.click` handles it, else the interaction the world made last, e.g. a slash command), the
bytes it uploaded (attachments), and for edits whether it left the message as it was (`noop`:
same content, components and attachment bytes) or carried the content the message had
(`same_content`: two consecutive edits of one message with identical content).

`Buckets` emulates the per-channel bucket (5 writes per 5 s, leaky or Discord's fixed window) on
a virtual clock, and `replay` plays a recorded log against it with clicks made at a given pace,
giving each write the time it would have waited and each click the time until its next prompt
was visible: nothing sleeps. `assert_writes_per_click` and `assert_no_repeated_edits` are the
assertions tests make with it.
"""
from __future__ import annotations

import contextvars
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

CHANNEL_KINDS = ("post", "edit", "delete")        # spend the channel's bucket
RESPONSE_KINDS = ("respond", "update", "defer")   # the interaction's callback
FOLLOWUP_KINDS = ("followup", "original", "unsent")   # the interaction's webhook (unsent: its message deleted)

# The interaction whose handling is running (set by fakes.click while a click is handled, or by
# `handling`); tasks created meanwhile inherit it.
current: contextvars.ContextVar[Any] = contextvars.ContextVar("fake_interaction_handled", default=None)


@contextmanager
def handling(interaction: Any) -> Iterator[Any]:
    """Attribute the writes made inside to `interaction` (as fakes.click does for a click)."""
    token = current.set(interaction)
    world = getattr(interaction, "world", None)
    if world is not None:
        world.handling = interaction
    try:
        yield interaction
    finally:
        current.reset(token)


@dataclass(slots=True)
class Write:
    seq: int
    kind: str                   # one of CHANNEL_KINDS, RESPONSE_KINDS, FOLLOWUP_KINDS
    where: str                  # "channel:<id>", "dm:<user id>", "ephemeral:<user id>"
    message: int | None         # the message written (None: a defer)
    cause: Any = None           # the FakeInteraction being handled, None outside any
    bytes: int = 0              # attachment bytes uploaded
    noop: bool = False          # an edit that left the message as it was
    same_content: bool = False  # an edit that carried the content the message already had
    reupload: bool = False      # an edit that uploaded again the attachment bytes the message had
    ids: tuple[str, ...] = ()   # the message's custom_ids after the write

    @property
    def channel(self) -> bool:
        """A create, edit or delete in a guild channel (the channel's bucket)."""
        return self.kind in CHANNEL_KINDS and self.where.startswith("channel:")

    @property
    def dm(self) -> bool:
        return self.kind in CHANNEL_KINDS and self.where.startswith("dm:")

    @property
    def bucketed(self) -> bool:
        """Spends a channel's bucket on Discord (a guild channel's or a DM channel's)."""
        return self.kind in CHANNEL_KINDS

    @property
    def response(self) -> bool:
        return self.kind in RESPONSE_KINDS

    @property
    def followup(self) -> bool:
        return self.kind in FOLLOWUP_KINDS

    def __repr__(self) -> str:
        cause = getattr(self.cause, "label", None)
        flags = "".join((" noop" if self.noop else "", " same" if self.same_content else "",
                         " reupload" if self.reupload else "",
                         f" {self.bytes}B" if self.bytes else ""))
        return f"<{self.seq} {self.kind} {self.where} #{self.message}{flags} by {cause}>"


class WriteLog(list):
    """Every write, in order (a list of `Write`), with the questions tests and benches ask of it."""

    def channel(self) -> list[Write]:
        return [w for w in self if w.channel]

    def of(self, *kinds: str, where: str | None = None) -> list[Write]:
        return [w for w in self if w.kind in kinds and (where is None or w.where.startswith(where))]

    def by_cause(self) -> dict[Any, list[Write]]:
        """The writes of each interaction, the interactions in the order they first wrote."""
        out: dict[Any, list[Write]] = {}
        for write in self:
            out.setdefault(write.cause, []).append(write)
        return out

    def channel_writes_per_cause(self) -> dict[Any, int]:
        return {cause: sum(1 for w in writes if w.channel) for cause, writes in self.by_cause().items()}

    def worst(self) -> tuple[Any, int]:
        """The interaction that made the most channel writes, and how many."""
        counts = self.channel_writes_per_cause()
        if not counts:
            return None, 0
        cause = max(counts, key=lambda c: counts[c])
        return cause, counts[cause]

    def noops(self) -> list[Write]:
        return [w for w in self if w.noop]

    def repeats(self) -> list[Write]:
        """Edits that carried the content their message already had (consecutive identical edits)."""
        return [w for w in self if w.same_content]

    def uploaded(self) -> int:
        return sum(w.bytes for w in self)

    def reuploaded(self) -> int:
        """Bytes uploaded again by edits whose message already had those very bytes attached."""
        return sum(w.bytes for w in self if w.reupload)


# ------------------------------------------------------------------------------ noting a write
def file_bytes(file: Any) -> bytes:
    """The bytes a discord.File uploads (its stream left where it was)."""
    fp = getattr(file, "fp", None)
    if fp is None:
        return b""
    if hasattr(fp, "getvalue"):
        return fp.getvalue()
    at = fp.tell()
    fp.seek(0)
    data = fp.read()
    fp.seek(at)
    return data


def uploaded(kwargs: dict) -> int:
    """The attachment bytes a request uploads: `file`, `files`, and new files among `attachments`."""
    files = [kwargs.get("file")] + list(kwargs.get("files") or ()) + list(kwargs.get("attachments") or ())
    return sum(len(file_bytes(f)) for f in files if f is not None and hasattr(f, "fp"))


def _digest(file: Any) -> bytes | None:
    return None if file is None else hashlib.blake2b(file_bytes(file), digest_size=16).digest()


def view_signature(view: Any) -> tuple | None:
    """What a message's components show and do: type, custom_id, label, style, state and options."""
    if view is None:
        return None
    items = []
    for child in view.children:
        inner = getattr(child, "item", child)
        options = tuple((o.label, o.value, o.description, o.default, str(o.emoji))
                        for o in getattr(inner, "options", None) or ())
        items.append((type(inner).__name__, getattr(child, "custom_id", None), getattr(inner, "label", None),
                      str(getattr(inner, "style", "")), getattr(inner, "disabled", None),
                      str(getattr(inner, "emoji", "")), getattr(inner, "url", None),
                      getattr(inner, "placeholder", None), getattr(inner, "min_values", None),
                      getattr(inner, "max_values", None), getattr(inner, "row", None), options))
    return tuple(items)


def looks(message: Any, kwargs: dict | None = None) -> tuple:
    """A message as its readers see it: content, components, attachment bytes; with an edit's
    `kwargs`, only what the edit can change (the rest stands as None), which keeps noting cheap."""
    return (message.content,
            view_signature(message.view) if kwargs is None or "view" in kwargs else None,
            _digest(message.file) if kwargs is None or "attachments" in kwargs else None)


def custom_ids(message: Any) -> tuple[str, ...]:
    return tuple(message.custom_ids()) if message is not None else ()


def note(world: Any, kind: str, message: Any, kwargs: dict, before: tuple | None = None,
         where: str | None = None) -> None:
    """`World.note`: note a request in `world.writes`, caused by the interaction being handled,
    with the bytes it uploaded and, for an edit (`before`: how the message looked), whether it
    changed nothing, repeated the content, or uploaded the same attachment bytes again."""
    cause = current.get() or world.handling
    write = Write(len(world.writes), kind, message.where if message is not None else where or "",
                  message.id if message is not None else None, cause, uploaded(kwargs) if kwargs else 0,
                  ids=custom_ids(message))
    if before is not None and message is not None:
        after = looks(message, kwargs)
        write.same_content = "content" in kwargs and kwargs["content"] == before[0]
        write.noop = after == before
        write.reupload = bool(write.bytes) and after[2] == before[2]
    world.writes.append(write)


# ------------------------------------------------------------------------------ the buckets
class Buckets:
    """Discord's per-channel message bucket, one per channel, on a virtual clock (seconds).

    `take(channel, t)` is the time a write asked for at `t` goes out (≥ t). `kind`:
    - "leaky": `limit` writes at once, then one every `per / limit` seconds (a leaky bucket, GCRA);
    - "window": as Discord's headers say it: a window opens at a fresh bucket's first write, lets
      `limit` writes through, and resets `per` seconds after it opened (discord.py waits for it)."""

    def __init__(self, limit: int = 5, per: float = 5.0, kind: str = "leaky"):
        if kind not in ("leaky", "window"):
            raise ValueError(kind)
        self.limit, self.per, self.kind = limit, per, kind
        self._state: dict[str, list[float]] = {}

    def take(self, channel: str, t: float) -> float:
        if self.kind == "leaky":
            interval = self.per / self.limit
            tat = self._state.setdefault(channel, [t])      # the theoretical arrival time
            start = max(t, tat[0] - (self.limit - 1) * interval)
            tat[0] = max(tat[0], start) + interval
            return start
        window = self._state.get(channel)                   # [opened at, reset at, remaining]
        if window is None or t >= window[1]:
            window = self._state[channel] = [t, t + self.per, self.limit]
        start = max(t, window[0])
        if window[2] <= 0:
            start = window[1]
            window[:] = [start, start + self.per, self.limit]
        window[2] -= 1
        return start


@dataclass
class Timeline:
    """A log replayed against the buckets: per write its wait, per click when its next prompt showed."""
    waits: dict[int, float] = field(default_factory=dict)      # write seq -> seconds it waited
    causes: dict[int, Any] = field(default_factory=dict)       # write seq -> its interaction
    clicks: list[tuple[Any, float]] = field(default_factory=list)      # (interaction, when it was made)
    shown: list[tuple[Any, float]] = field(default_factory=list)       # (interaction, click -> next prompt shown)

    @property
    def waited(self) -> float:
        return sum(self.waits.values())

    def waited_for(self, keep: Any = None) -> float:
        """Seconds waited on the buckets by the writes of the interactions `keep` accepts."""
        return sum(w for seq, w in self.waits.items() if keep is None or keep(self.causes[seq]))

    @property
    def lasted(self) -> float:
        """When the last interaction was made (the game's length at this pace)."""
        return self.clicks[-1][1] if self.clicks else 0.0

    def latencies(self, keep: Any = None) -> list[float]:
        """Click to next prompt shown, over the clicks `keep(interaction)` accepts (all by default)."""
        return [s for i, s in self.shown if keep is None or keep(i)]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; 0.0 of nothing."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def replay(log: Iterable[Write], interactions: Sequence[Any], every: float, *, round_trip: float = 0.0,
           buckets: Buckets | None = None) -> Timeline:
    """Play `log` as if the interactions (in handling order) were made `every` seconds apart, no
    click before the component it clicks was visible; each request takes `round_trip` seconds, one
    after the other in an interaction's handling; an interaction's channel writes wait for the
    previous one's (the publish order) and for their channel's bucket; responses and followups
    go at once. A click's "next prompt shown" is when the component the next click clicks appeared
    (0 when it was there before the click)."""
    buckets = buckets or Buckets()
    grouped: dict[Any, list[Write]] = {i: [] for i in interactions}
    for write in log:
        if write.cause in grouped:
            grouped[write.cause].append(write)
    since: dict[int, dict[str, float]] = {}     # message -> custom_id -> when it appeared
    timeline = Timeline()
    tail = 0.0                                  # when the previous interaction's channel writes were done
    made = None
    for interaction in interactions:
        t = 0.0 if made is None else made + every
        target = _clicked(interaction)
        appeared = since.get(target[0], {}).get(target[1]) if target else None
        if appeared is not None:
            t = max(t, appeared)
        if timeline.clicks:
            previous = timeline.clicks[-1][0]
            if appeared is not None:
                timeline.shown.append((previous, max(0.0, appeared - made)))
        timeline.clicks.append((interaction, t))
        made = now = t
        for write in grouped[interaction]:
            start = now
            if write.bucketed:
                start = max(now, tail)
                out = buckets.take(write.where, start)
                timeline.waits[write.seq] = out - start
                timeline.causes[write.seq] = interaction
                start = out
            now = start + round_trip
            if write.bucketed:
                tail = now
            if write.message is None:
                continue
            if write.kind == "delete":
                since.pop(write.message, None)
                continue
            old = since.get(write.message, {})
            since[write.message] = {cid: old.get(cid, now) for cid in write.ids}
    return timeline


def _clicked(interaction: Any) -> tuple[int, str] | None:
    message, data = getattr(interaction, "message", None), getattr(interaction, "data", None) or {}
    if message is None or not data.get("custom_id"):
        return None
    return message.id, data["custom_id"]


# ------------------------------------------------------------------------------ assertions
def assert_writes_per_click(world: Any, at_most: int, since: int = 0) -> None:
    """No interaction (after write `since`) made more than `at_most` channel writes."""
    log = WriteLog(w for w in world.writes if w.seq >= since)
    over = {c: n for c, n in log.channel_writes_per_cause().items() if n > at_most}
    if over:
        cause = max(over, key=lambda c: over[c])
        detail = [w for w in log if w.cause is cause and w.channel]
        raise AssertionError(f"{len(over)} interaction(s) made more than {at_most} channel writes; "
                             f"the worst, {getattr(cause, 'label', cause)}, made {over[cause]}: {detail}")


def assert_no_repeated_edits(world: Any, since: int = 0) -> None:
    """No edit (after write `since`) carried the content its message already had."""
    repeated = [w for w in world.writes if w.seq >= since and w.same_content]
    if repeated:
        raise AssertionError(f"{len(repeated)} edit(s) repeated their message's content: {repeated[:5]}")
