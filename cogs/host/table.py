"""The table: one live message per game near the foot of its channel, and every prompt's message.

- **The table message** tells what the last steps did (the narration, at its top), then whose
  decision it is and what (the public prompts pending now, as headlines and components), then the
  board (the caption and image a system keeps with `host.live_message`). One step is one edit of
  it, made through the click on it when it was clicked (the interaction's webhook, outside the
  channel's 5 writes per 5 seconds). Steps coming faster than they can be written are told
  together by the next one.
- **It moves to the foot** (a new message, two writes) only when it has scrolled out of view
  (`SCROLLED` messages below it), when a line or the turn must ping someone (an edit notifies
  nobody), when the narration no longer fits, or on `/game status`. The message it leaves keeps
  its narration as the record of those steps (board and components removed; deleted when it told
  nothing). A turn passing to a player who played in the game in the last `PRESENT` is shown, not
  pinged: they are at the table. A system asking for a new board (`live_message(..., new=True)`)
  starts a new table message and keeps the old one, without its components, as a record (a
  round's final board).
- **Prompt messages** elsewhere (DMs, the GM channel, public prompts that did not fit on the
  table) are recorded in the game's meta; once their prompt is no longer pending, answered or
  superseded however, their components are removed. A player's next private decision takes the
  place of the DM prompt they just clicked (the next step of their turn) or of one superseded (the
  hand changed), edited in place, rather than a new DM. A decision with a `thread` (a Karmic
  round) is edited into the player's newest DM when that DM is of the same thread and asks nothing
  any more: a few decisions of one round cost one DM.

Message ids live in the game's meta (not game state: no version bump, no undo entry).
"""
from __future__ import annotations

import contextvars
import io
import logging
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

import discord

from clock import source as clock_source
from db.store import GameRecord, Store
from i18n.present import Presenter
from rules.common import Prompt

from .components import ROWS_MAX, headline, prompt_items, rows_of
from .courier import HELD, MESSAGE_LIMIT, Courier, chunks
from .outbox import PublishOrder


class TableHost(Protocol):
    """What the table asks of the host that owns it (`GameHost`, which imports this module)."""
    courier: Courier
    order: PublishOrder
    store: Store

    async def prompt_file(self, game: GameRecord, state: Any, prompt: Prompt,
                          say: Presenter) -> discord.File | None: ...

    async def prompt_parts(self, game: GameRecord, state: Any, prompt: Prompt,
                           say: Presenter | None = None) -> dict[str, Any]: ...

    async def _post(self, interaction: discord.Interaction | None, game: GameRecord, content: str,
                    slot: str | None = None, **kwargs: Any) -> Any: ...

log = logging.getLogger("bauta.table")

TABLE = "table"            # meta: the table message and the narrative above it
POSTED = "prompt_messages"  # meta: {prompt id: {"where": "channel"|"dm"|"gm", "to": id, "message": id}}
NARRATED_KEPT = 8          # meta: the last actions narrated (table["narrated"]), to narrate each once
# meta: the DM prompts closed while their decision paused (same shape as POSTED), the newest few:
# when the same decision is asked again its DM is brought back, not sent anew
PAUSED = "paused_dm_prompts"
PAUSED_KEPT = 6
# meta: {player: {"message": id, "thread": str}}: each player's newest DM of this game and the
# thread of the decision it carries (see `Prompt.thread`); a DM without a decision drops the entry
NEWEST_DM = "newest_dm"
UNTOLD = "untold"          # table["untold"]: the last step's lines the table could not carry (`show`)


@dataclass
class Board:
    """What a system asked the table to show: its caption and, when given, a new image."""
    content: str
    file: tuple[str, bytes] | None
    new: bool
    keys: tuple[str, ...] = ()        # the system's meta keys that record the board's message
    records: dict[str, dict] = field(default_factory=dict)   # what each key keeps besides (a digest…)


def file_bytes(file: discord.File | None) -> tuple[str, bytes] | None:
    """A discord.File's name and bytes, so the image can be sent again when the table moves."""
    if file is None:
        return None
    fp = file.fp
    data = fp.getvalue() if isinstance(fp, io.BytesIO) else fp.read()
    return file.filename or "board.png", data


def as_file(stored: tuple[str, bytes] | None) -> discord.File | None:
    return None if stored is None else discord.File(io.BytesIO(stored[1]), filename=stored[0])


# Messages below the table message that scroll it out of view: it moves to the foot (`Table.show`).
SCROLLED = 3

# A player who acted in a game this recently is at its table: their turn is shown, not pinged.
PRESENT = timedelta(minutes=5)
SEEN_KEPT = 4096        # (game, player) pairs remembered

# How many games' board pictures a process keeps in memory (`Table._keep_image`).
IMAGES_KEPT = 64


class Table:
    def __init__(self, host: TableHost):
        self.host = host
        self.courier = host.courier
        self._images: OrderedDict[int, tuple[str, bytes]] = OrderedDict()  # game id -> its board's last image
        self._staged: dict[int, Board | None] = {}          # the board drawn during a publish
        self.shown: dict[int, int] = {}                     # game id -> the version last shown
        self._seen: OrderedDict[tuple[int, str], datetime] = OrderedDict()   # (game, player) -> acted last

    # ---- the board's picture, kept to move the table with it
    def _keep_image(self, game_id: int, image: tuple[str, bytes]) -> None:
        """Keep a game's board picture, the newest `IMAGES_KEPT` games' only: a PNG weighs tens to
        hundreds of kilobytes and a process runs for months. A game whose picture was let go takes
        it back from its table message when the table moves (`_repost`), as after a restart."""
        self._images[game_id] = image
        self._images.move_to_end(game_id)
        while len(self._images) > IMAGES_KEPT:
            self._images.popitem(last=False)

    # ---- who is at the table: a turn passing to them pings nobody (they are looking)
    def looking(self, game_id: int, player: str) -> None:
        """`player` acted in this game, or clicked something of it: they are at its table."""
        self._seen[(game_id, player)] = clock_source.now()
        self._seen.move_to_end((game_id, player))
        while len(self._seen) > SEEN_KEPT:
            self._seen.popitem(last=False)

    async def _present(self, game_id: int, player: str) -> bool:
        """Whether `player` acted in this game in the last `PRESENT`: their last click this process
        handled, else (after a restart) their last action in the game's log (one indexed read)."""
        seen = self._seen.get((game_id, player))
        if seen is None:
            mine = await self.host.store.last_actions_of(game_id, player, limit=1)
            seen = clock_source.parse(mine[0].created_at) if mine else None
        return seen is not None and clock_source.now() - seen < PRESENT

    def forget(self, game_id: int) -> None:
        """A game ended: its table is neither moved nor shown again (its last message stays, as a
        record), so nothing of it is kept."""
        self._images.pop(game_id, None)
        self.shown.pop(game_id, None)

    # ---- the board, from `host.live_message`
    def begin(self, game_id: int) -> tuple[bool, Board | None]:
        """Start collecting the board a publish's system draws (a nested publish of the same game
        saves what the outer one had collected, and gives it back in `end`)."""
        outer = (game_id in self._staged, self._staged.get(game_id))
        self._staged[game_id] = None
        return outer

    def staging(self, game_id: int) -> bool:
        return game_id in self._staged

    def stage(self, game_id: int, key: str, content: str, file: discord.File | None, new: bool,
              record: dict | None = None) -> None:
        staged = self._staged.get(game_id)
        keys = tuple(dict.fromkeys([*(staged.keys if staged else ()), key]))
        records = {**(staged.records if staged else {})}
        records[key] = {**records.get(key, {}), **(record or {})}
        self._staged[game_id] = Board(content, file_bytes(file) or (staged.file if staged else None),
                                      new or bool(staged and staged.new), keys, records)

    def end(self, game_id: int, outer: tuple[bool, Board | None]) -> Board | None:
        mine = self._staged.pop(game_id, None)
        if outer[0]:
            self._staged[game_id] = outer[1]
        return mine

    # ---- one step
    async def show(self, interaction: discord.Interaction | None, game: GameRecord, say: Presenter,
                   lines: list[str], prompts: list[Prompt], *, board: Board | None = None, over: bool = False,
                   ping: set[str] = frozenset(), move: bool = False, state: Any = None,
                   seq: int | None = None, hushed: set[str] = frozenset(), still: bool = False) -> GameRecord:
        """Narrate a step and bring the table up to date, in one write: the table message's
        narration gains the step's lines, and its components become `prompts` (the public prompts
        pending now). `ping`: players a line must notify (a new message: an edit notifies nobody).
        `move`: post the table anew at the foot of the channel (/game status). `seq`: the action
        narrated (see `_unnarrated`). `hushed`: players inside their quiet hours, whose turn is
        shown without a ping. `still`: edit the table message in place, never post it anew.
        Returns the game with its meta brought up to date, not written: the caller writes it
        (cogs/host/publish.py)."""
        fresh = game
        table = _current(fresh)
        lines = _unnarrated(table, lines, seq)
        if interaction is not None:
            self.looking(game.id, str(interaction.user.id))
        if seq is not None and self.host.order.overtaken(game.channel_id, game.id, seq):
            # a later action was committed meanwhile (a click on this table): its publish shows the
            # table, these lines with it; an edit now would land after that click's acknowledgement
            table["narrative_text"] = _joined(table.get("narrative_text", ""), lines)
            return self._keep(fresh, table)
        if board is not None:
            table["caption"] = board.content
        fitted, overflow = _fit(prompts)
        image = board.file if board is not None else None
        if image is None and fitted and state is not None:
            # a system that draws a public prompt's picture (an auction's table) shows it here
            image = file_bytes(await self.host.prompt_file(game, state, fitted[0], say))
        if image is not None:
            self._keep_image(game.id, image)
        player = next((p.player for p in fitted if p.player.isdigit()), None)
        turn = player is not None and player != table.get("player")
        # never inside their quiet hours, nor when they are at the table (they just played)
        pinged = player if turn and player not in hushed and not await self._present(game.id, player) else None
        body = _content("", table.get("caption", ""), [headline(p, say) for p in fitted])
        view = _view(game.id, fitted, say) if fitted and not over else None
        via = clicked(interaction, table)      # the table itself was clicked: edit it through the click
        if table.get("message") and board is not None and board.new:
            await self._strip(table, via)                  # the old board stays, as a record
            table.pop("message", None)
            table["narrative_text"] = ""
            via = None
        if not body and table.get("message"):
            # nothing to ask: the last board stays, its buttons gone (the narration tells the answer;
            # the click's own mark is not kept: a publish again after a restart could not know it)
            body, view = table.get("body", ""), None
        told = _joined(table.get("narrative_text", ""), lines)
        fits = _fits(told, body)
        table.pop(UNTOLD, None)
        if over and seq is not None and not fits and table.get("message"):
            # the last step, too much to tell on the table: its lines open the game's chronicle
            # (posted next, cogs/host/chronicle.py), and the table shows the final board where it is
            table[UNTOLD], lines, told, fits = lines, [], table.get("narrative_text", ""), True
            still = True
        if not body and not table.get("message"):
            await self._apart(interaction, game, lines, ping)         # no table yet: the lines alone
        elif still and table.get("message"):     # edited where it is, whatever is below it
            if not fits:
                await self._apart(interaction, game, lines, ping)
                told = table.get("narrative_text", "")
            await self.courier.edit_message(game.channel_id, int(table["message"]), content=_content(told, body),
                                            view=view, file=as_file(image), via=via)
            table["narrative_text"] = told
        elif not table.get("message") or move or pinged or ping or not fits or not await self._in_view(game, table):
            await self._repost(game, table, lines, body, view, ping=ping, ping_player=pinged, via=via,
                               interaction=interaction)
        elif not await self.courier.edit_message(game.channel_id, int(table["message"]), content=_content(told, body),
                                                 view=view, file=as_file(image), via=via):
            # (a picture whose bytes the message shows already is not uploaded again: the courier's)
            table.pop("message", None)
            await self._repost(game, table, lines, body, view, ping=ping, ping_player=pinged, interaction=interaction)
        else:
            table["narrative_text"] = told
        table["body"] = body
        if player is not None:
            table["player"] = player
        table["prompts"] = [p.id for p in fitted] if view is not None else []
        meta = {**fresh.meta, TABLE: table}
        # the systems' own records of their board follow the table message wherever it moves
        staged = board.keys if board is not None else ()
        table["keys"] = sorted({*table.get("keys", []), *staged})
        records = board.records if board is not None else {}
        for key in table["keys"]:
            if key in staged or key in meta:
                meta[key] = {**(meta.get(key) or {}), **records.get(key, {}), "message": table.get("message"),
                             "channel": game.channel_id}
        for prompt in overflow:
            if prompt.id not in (fresh.meta.get(POSTED) or {}):
                message = await self.courier.send_channel(
                    game.channel_id, headline(prompt, say)[:MESSAGE_LIMIT],
                    **await self.host.prompt_parts(game, state, prompt, say),
                    allowed_mentions=discord.AllowedMentions(users=False), slot=f"prompt:{prompt.id}")
                meta = posted(meta, prompt.id, "channel", game.channel_id, message)
        return with_meta(fresh, meta)

    async def narrate(self, interaction: discord.Interaction | None, game: GameRecord, lines: list[str],
                      seq: int, ping: set[str] = frozenset(), later: bool = False) -> GameRecord:
        """The narration of an action whose publish does not show the table. `later`: a later
        action is committed and waits for this publish; its publish shows the table, these lines
        with it (nothing is written now). Else the action was overtaken before its publish was done
        (the outbox publishes it late): its lines join the table's narration now, in one edit.
        Returns the game with its meta brought up to date, not written (as `show`)."""
        table = _current(game)
        lines = _unnarrated(table, lines, seq)
        told = _joined(table.get("narrative_text", ""), lines)
        if not lines:
            pass
        elif later:
            table["narrative_text"] = told
        elif (table.get("message") and not ping and _fits(told, table.get("body", ""))
              and await self.courier.edit_message(game.channel_id, int(table["message"]),
                                                  content=_content(told, table.get("body", "")))):
            table["narrative_text"] = told
        else:
            await self._apart(interaction, game, lines, ping)
        return self._keep(game, table)

    @staticmethod
    def _keep(game: GameRecord, table: dict) -> GameRecord:
        return game if table == (game.meta.get(TABLE) or {}) else with_meta(game, {**game.meta, TABLE: table})

    async def _in_view(self, game: GameRecord, table: dict) -> bool:
        """Whether the table message is still in view: fewer than `SCROLLED` messages below it (else
        it is posted anew at the foot; a move costs two writes, so a line of chat does not)."""
        below = await self.courier.below(game.channel_id, int(table["message"]), SCROLLED)
        return below is not None and below < SCROLLED

    async def _apart(self, interaction: discord.Interaction | None, game: GameRecord, lines: list[str],
                     ping: set[str]) -> None:
        """Lines in messages of their own (no table to carry them, or too many for it)."""
        mentions = _mentions(ping)
        for index, part in enumerate(chunks(lines)):
            await self.host._post(interaction, game, part, allowed_mentions=mentions, slot=f"said{game.id}.{index}")

    async def _repost(self, game: GameRecord, table: dict, lines: list[str], body: str, view, *,
                      ping: set[str] = frozenset(), ping_player: str | None,
                      via: discord.Interaction | None = None, interaction: discord.Interaction | None = None) -> None:
        """The table at the foot of the channel, with the step's lines: the old table message kept
        as the record of what it narrated (its board and components removed; deleted when it
        narrated nothing), through the click on it (`via`) when it was clicked; a new one posted."""
        if table.get("message"):
            where = int(table.get("channel") or game.channel_id)
            if game.id not in self._images:
                # after a restart the board's image is known only to Discord: take it from the old
                # table before it is let go, so the table that moves keeps its picture
                kept = await self.courier.attachment(where, int(table["message"]))
                if kept is not None:
                    self._keep_image(game.id, kept)
            told = table.get("narrative_text")
            if not told or not await self.courier.edit_message(where, int(table["message"]), content=told, view=None,
                                                               attachments=[], via=via):
                await self.courier.delete(where, int(table["message"]), via=via)
        told = "\n".join(lines)
        if not _fits(told, body):     # too much to tell on the table: told above it
            await self._apart(interaction, game, lines, ping)
            told = ""
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        image = as_file(self._images.get(game.id))
        if image is not None:
            kwargs["file"] = image
        mentions = _mentions({*ping, *([ping_player] if ping_player else [])})
        message = await self.courier.send_channel(game.channel_id, _content(told, body), allowed_mentions=mentions,
                                                  slot=f"table{game.id}", **kwargs)
        table["message"] = getattr(message, "id", None)
        table["channel"] = game.channel_id
        table["narrative_text"] = told

    async def _strip(self, table: dict, via: discord.Interaction | None = None) -> None:
        if table.get("message") and table.get("prompts"):
            await self.courier.edit_message(int(table["channel"]), int(table["message"]), view=None, via=via)

    # ---- prompts elsewhere
    async def close_stale(self, game: GameRecord, pending: set[str], answered: int | None,
                          keep: set[str] = frozenset()) -> GameRecord:
        """Remove the components of every recorded prompt message whose prompt is no longer pending
        (the message just clicked was answered by its own acknowledgement). `keep`: entries reused.
        The meta is brought up to date in memory (the caller writes it)."""
        fresh = game
        recorded = dict(fresh.meta.get(POSTED) or {})
        gone = {pid: entry for pid, entry in recorded.items() if pid not in pending and pid not in keep}
        if not gone:
            return fresh
        for entry in gone.values():
            if entry.get("message") == answered:
                continue
            if entry.get("where") == "dm":
                await self.courier.edit_dm(int(entry["to"]), int(entry["message"]), view=None)
            else:
                await self.courier.edit_message(int(entry["to"]), int(entry["message"]), view=None)
        remaining = {pid: e for pid, e in recorded.items() if pid not in gone}
        paused = {**(fresh.meta.get(PAUSED) or {}),
                  **{pid: e for pid, e in gone.items() if e.get("where") == "dm" and e.get("message") != answered}}
        return with_meta(fresh, {**fresh.meta, POSTED: remaining, PAUSED: dict(list(paused.items())[-PAUSED_KEPT:])})

    @staticmethod
    def paused_dm(game: GameRecord, player: str, prompt_id: str) -> dict | None:
        """The DM that carried this very decision before it paused (an Event Card hand while a
        re-roll is asked, an own-turn card during the other player's turn): it is edited back."""
        entry = (game.meta.get(PAUSED) or {}).get(prompt_id)
        return entry if entry and entry.get("to") == int(player) else None

    @staticmethod
    def thread_dm(game: GameRecord, player: str, prompt: Prompt, pending: set[str]) -> tuple[int, list[str]] | None:
        """The newest DM of `player` when `prompt` continues its thread there: (its message id, the
        prompt ids recorded on it, none of them pending any more). None when the prompt has no
        thread, the newest DM is of another thread (or carried no decision), or it still asks one."""
        newest = (game.meta.get(NEWEST_DM) or {}).get(player)
        if not prompt.thread or not newest or newest.get("thread") != prompt.thread:
            return None
        on_it = [pid for pid, entry in (game.meta.get(POSTED) or {}).items()
                 if entry.get("where") == "dm" and entry.get("message") == newest["message"]]
        if any(pid in pending for pid in on_it):
            return None
        return int(newest["message"]), on_it

    def reusable_dm(self, game: GameRecord, player: str, pending: set[str], answered: int | None) -> str | None:
        """The id of `player`'s DM prompt whose message is edited into their next private prompt
        instead of a new DM: the one they just clicked (they are looking at it: the next decision of
        their turn takes its place), else one no longer pending (superseded: the hand changed)."""
        mine = {pid: entry for pid, entry in (game.meta.get(POSTED) or {}).items()
                if entry.get("where") == "dm" and entry.get("to") == int(player) and pid not in pending}
        clicked = next((pid for pid, entry in mine.items() if entry.get("message") == answered), None)
        return clicked or next(iter(mine), None)


# The click this task is handling, for the publishes it causes (the bot's answers to it among
# them, which are nobody's interaction): a table it was made on is edited through it.
_answering: contextvars.ContextVar[discord.Interaction | None] = contextvars.ContextVar("bauta_answering",
                                                                                     default=None)


@contextmanager
def answering(interaction: discord.Interaction) -> Iterator[None]:
    token = _answering.set(interaction)
    try:
        yield
    finally:
        _answering.reset(token)


def clicked(interaction: discord.Interaction | None, table: dict) -> discord.Interaction | None:
    """The click being handled (this publish's or the one it follows) when it was made on the table
    message and is answered, or its answer is held for the table (`replies.Held`): the table is then
    edited through that interaction (its response, or its webhook, which lasts 15 minutes: outside
    the channel's rate limit either way)."""
    for click in (interaction, _answering.get()):
        message = getattr(click, "message", None)
        if (click is not None and message is not None and table.get("message")
                and getattr(message, "id", None) == int(table["message"])
                and (click.response.is_done() or HELD in click.extras)):
            return click
    return None


def with_meta(game: GameRecord, meta: dict) -> GameRecord:
    """`game` with another meta, in memory (written by whoever holds it: see cogs/publish.py)."""
    return game if meta == game.meta else GameRecord(**{**game.__dict__, "meta": meta})


def newest_dm(meta: dict, player: str, message: Any, thread: str | None) -> dict:
    """`meta` with `player`'s newest DM recorded, carrying a decision of `thread`; `thread` None:
    a DM with no decision (the entry is dropped: the next decision starts a new DM)."""
    newest = dict(meta.get(NEWEST_DM) or {})
    if thread is None or getattr(message, "id", None) is None:
        if player not in newest:
            return meta
        newest.pop(player)
    else:
        newest[player] = {"message": message.id, "thread": thread}
    return {**meta, NEWEST_DM: newest}


def posted(meta: dict, prompt_id: str, where: str, to: int, message: Any, replaces: str | None = None) -> dict:
    """`meta` with a prompt's message recorded (and the entry it replaces dropped)."""
    if message is None or getattr(message, "id", None) is None:
        return meta
    recorded = {k: v for k, v in (meta.get(POSTED) or {}).items() if k != replaces}
    recorded[prompt_id] = {"where": where, "to": to, "message": message.id}
    if prompt_id in (meta.get(PAUSED) or {}):       # a paused decision asked again is live once more
        return {**meta, POSTED: recorded, PAUSED: {k: v for k, v in meta[PAUSED].items() if k != prompt_id}}
    return {**meta, POSTED: recorded}


def _fit(prompts: list[Prompt]) -> tuple[list[Prompt], list[Prompt]]:
    """The prompts that fit on one message's five rows of components, and the rest."""
    fitted: list[Prompt] = []
    rows = 0
    for prompt in prompts:
        need = rows_of(prompt)
        if rows + need <= ROWS_MAX:
            fitted.append(prompt)
            rows += need
    return fitted, [p for p in prompts if p not in fitted]


def _content(narration: str, caption: str = "", headlines: list[str] = ()) -> str:
    """The table message: what the last steps did, then whose decision it is and what (what a player
    looks for), then the board's summary. (`_content("", caption, headlines)` is its body.)"""
    parts = [part for part in (narration, "\n".join(headlines), caption) if part]
    return "\n\n".join(parts)[:MESSAGE_LIMIT]


def _fits(narration: str, body: str) -> bool:
    return len(narration) + len(body) + 2 <= MESSAGE_LIMIT


def _joined(told: str, lines: list[str]) -> str:
    return "\n".join([told, *lines] if told else lines)


def _current(game: GameRecord) -> dict:
    """The game's table record, to change (a narrative message of its own, kept by the tables of
    before the narration rode on the table message, is forgotten: the next step starts anew)."""
    table = dict(game.meta.get(TABLE) or {})
    for old in ("narrative", "narrative_above"):
        table.pop(old, None)
    return table


def _unnarrated(table: dict, lines: list[str], seq: int | None) -> list[str]:
    """The lines of action `seq` not narrated yet: an action is narrated once, so a publish again
    after a crash that had narrated it (its meta written) tells nothing twice."""
    if not lines or seq is None:
        return lines
    if seq in table.get("narrated", []):
        return []
    table["narrated"] = [*table.get("narrated", [])[-(NARRATED_KEPT - 1):], seq]
    return lines


def _mentions(players: set[str]) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(int(p)) for p in sorted(players) if p.isdigit()],
                                   roles=False, everyone=False)


def _view(game_id: int, prompts: list[Prompt], say: Presenter) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    row = 0
    for prompt in prompts:
        for item in prompt_items(game_id, prompt, say, first_row=row):
            view.add_item(item)
        row += rows_of(prompt)
    return view
