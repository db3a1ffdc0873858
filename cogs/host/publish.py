"""Publishing an action: telling everyone what it did, once (the `Publishing` half of `GameHost`).

Private events and decisions go by DM (one message per player, their superseded DM prompt edited
in place), the GM's to the GM channel, the public events as the step's narrative and the public
prompts on the table message (`cogs/table.py`); then every prompt message whose prompt is no
longer pending loses its components.

One pass: a publish reads the game once, keeps the meta it changes (message ids, names, the
table) in memory, and writes it once at its end, as a merge patch (`db.delta.merge_diff`), in the
same transaction that marks the action published. The outbox sweep (`deliver_outbox`) publishes
again an action whose publish a crash cut short; `cogs/courier.py` sends each message once.
"""
from __future__ import annotations

import asyncio
import contextvars
import io
import logging
from dataclasses import dataclass, field
from collections import defaultdict
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any
from collections.abc import AsyncIterator, Callable, Iterable, Sequence

import discord

from clock import source as clock_source
from db.delta import merge_diff, merge_patch
from db.store import GameRecord
from i18n import present, t
from i18n.present import Presenter
from rules.common import GM, PUBLIC, Event, Prompt

from . import systems
from .components import prompt_view
from .courier import CLOSED, MESSAGE_LIMIT, SENT, SKIPPED, Slots, chunks, mention
from .replies import reply
from .table import NEWEST_DM, POSTED, TABLE, UNTOLD, newest_dm, posted, with_meta

log = logging.getLogger("bauta.publish")


# A game's publishes run one after another in this process (a guild's interactions all reach the
# process of its shard): each reads the meta the one before it wrote at its end, so two quick
# clicks never both post a table. A publish nested in one of the same game (a system's hook that
# acts again) runs inside the outer one's turn.
_locks: dict[int, asyncio.Lock] = {}
_holding: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar("bauta_publish_holding",
                                                                         default=frozenset())


@asynccontextmanager
async def _one_at_a_time(game_id: int) -> AsyncIterator[None]:
    held = _holding.get()
    if game_id in held:
        yield
        return
    lock = _locks.setdefault(game_id, asyncio.Lock())
    async with lock:
        token = _holding.set(held | {game_id})
        try:
            yield
        finally:
            _holding.reset(token)
    if not lock.locked() and _locks.get(game_id) is lock and not getattr(lock, "_waiters", None):
        del _locks[game_id]


@dataclass
class Draft:
    """A publish's game, with the meta it has changed so far (not written yet), and the meta it
    read (`start`): what it writes at its end is the difference."""
    game: GameRecord
    start: dict
    seq: int        # the action published (the game read may be newer)
    clock: list[tuple] = field(default_factory=list)   # the awaited decisions' rows, for the last write


class Publishing:
    """The publishing methods of `GameHost` (cogs/host/gamehost.py), which provides the store, the
    courier, the table and the presenters they use, and the two hooks below, through which the
    seats the bot plays (cogs/host/botplayer.py) plug in without this layer importing them."""
    # Told a game's id after each of its publishes: whoever shows the game elsewhere (the web
    # companion's open pages) without this layer knowing them.
    watchers: list[Callable[[int], None]] = []

    # ---- the seats nobody is messaged for (the host plugs the bot's seats in)
    def quiet(self, game: GameRecord, player: str) -> bool:
        """True for a seat whose prompts are not posted and to which nothing is DMed."""
        return False

    async def after_step(self, interaction: discord.Interaction | None, game: GameRecord) -> None:
        """Runs after each publish of a step (not of a late one): the bot answers for its seats."""

    async def game_over(self, interaction: discord.Interaction | None, game: GameRecord,
                        told: Sequence[str] = ()) -> None:
        """Runs once the publish of the step that ended the game has shown it (its chronicle, which
        carries `told`: what the system's `on_over` said)."""

    # ---- publishing
    async def publish(self, interaction: discord.Interaction | None, game: GameRecord, state: Any,
                      events: Sequence[Event], before: set[str], dm_prompts: bool = True,
                      move: bool = False, late: bool = False, still: bool = False) -> None:
        """Tell everyone what an action did, once: private events and decisions by DM (one message
        per player, their superseded DM prompt edited in place), the GM's in the GM channel, the
        public events as the step's narrative and the public prompts on the table message
        (`cogs/table.py`); then every prompt message whose prompt is no longer pending loses its
        components. `before`: prompt ids pending before the action (not sent again by DM).
        `dm_prompts` False (/game status) keeps private decisions to DMs already sent and /hand;
        `move` posts the table anew at the foot of the channel.

        The publish of an action sends each of its messages once: right after its commit, and again
        from the outbox after a crash cut it short (`deliver_outbox`; see cogs/courier.py). Anything
        else (a status) sends anew; a publish nested in an action's (its lobby's new game) counts
        among its messages. `late`: the action was overtaken before its publish was done; only its
        events go out (its prompts, a game's end and the table are the later action's to show)."""
        key = (game.id, game.version)
        slots = self._owed.pop(key, None)
        try:
            if slots is None:
                async with _one_at_a_time(game.id):
                    return await self._publish(interaction, game, state, events, before, dm_prompts, move, late,
                                               still)
            self._publishing.add(key)
            # after the channel's earlier actions (cogs/outbox.py), then one at a time with the
            # game's other publishes
            async with (self.order.turn(game.channel_id, *key), _one_at_a_time(game.id),
                        self.courier.publishing(slots)):
                await self._publish(interaction, game, state, events, before, dm_prompts, move, late, still)
        finally:
            self._publishing.discard(key)
            for watcher in self.watchers:      # pages open on this game (web/live.py): shown now
                watcher(game.id)

    async def _publish(self, interaction: discord.Interaction | None, game: GameRecord, state: Any,
                       events: Sequence[Event], before: set[str], dm_prompts: bool, move: bool,
                       late: bool, still: bool = False) -> None:
        system = systems.get(game.system)
        settings = await self.store.settings(game.guild_id)
        locale = await self.server_locale(game, interaction)
        seq = game.version                  # the action published (the game read below may be newer)
        game = await self.store.fresh(game) or game        # the prompt messages recorded so far
        start = game.meta                   # the meta as read: the publish writes what it changes
        game = self.remember(interaction, game)
        draft = Draft(game, start, seq)
        finished = False
        try:
            await self._steps(interaction, system, draft, state, events, before, dm_prompts, move, late,
                              settings, locale, still)
            finished = True
        finally:
            # one write: the meta this publish changed, and (once it went through) the action's
            # publish marked done; a publish cut short still records the messages it sent
            # (the clock's rows go with the meta that mirrors them, finished or not)
            game = await self.store.patch_meta(draft.game, merge_diff(draft.start, draft.game.meta),
                                               published=seq if finished else None, extra=draft.clock)
        if not late:
            await self.after_step(interaction, game)

    async def _steps(self, interaction: discord.Interaction | None, system: systems.System, draft: Draft,
                     state: Any, events: Sequence[Event], before: set[str], dm_prompts: bool, move: bool,
                     late: bool, settings: Any, locale: Any, still: bool = False) -> None:
        """The body of a publish. It leaves in `draft` the game with the meta it changed (not
        written) and the meta that was read (read again after a system's hook, which may write
        meta of its own), even when it stops half-way."""
        game = draft.game
        engine = system.engine
        me = str(interaction.user.id) if interaction is not None else None
        # the message just clicked: its acknowledgement already answered it
        answered = getattr(getattr(interaction, "message", None), "id", None)
        turn = self._turns.pop((game.id, draft.seq), None)      # the commit's prompts (see GameHost.commit)
        prompts = [] if late else turn if turn is not None else engine.pending(state)
        pending = {p.id for p in prompts}
        over = not late and engine.is_over(state)
        hushed: set[str] = set()        # players inside their quiet hours: told, never pinged
        if not late:                    # each decision's deadline, before anything words it
            game, draft.clock, hushed = await self.clock.plan(game, prompts, before, draft.seq, over)
            draft.game = game
        say = self.presenter(game, locale)
        readers = {p for p in {*(e.audience for e in events), *(p.player for p in prompts)} if p.isdigit()}
        people = await self.clock.people(int(p) for p in readers) if readers else {}
        now = clock_source.now()       # whoever reads in private may be asleep too: silent DMs
        hushed |= {str(u) for u, person in people.items() if person.quiet_at(now)}

        def reader(player: str) -> Presenter:
            own = people.get(int(player)) if player.isdigit() else None
            if own is not None and own.language:        # `/profile language`, over their client's
                return self.presenter(game, own.language)
            return self.reader(game, player, locale, interaction)

        public_lines = say.events(e for e in events if e.audience == PUBLIC)
        header = t("dm.header", locale, title=systems.title(system.name, locale), id=game.id, channel=f"<#{game.channel_id}>")

        private: dict[str, list[Event]] = defaultdict(list)
        for event in events:
            if event.audience not in (PUBLIC, GM):
                private[event.audience].append(event)
        asked: dict[str, list[Prompt]] = defaultdict(list)
        public_prompts: list[Prompt] = []
        gm_waiting = False
        for prompt in prompts:
            if self.quiet(game, prompt.player):
                continue
            if not prompt.private:
                public_prompts.append(prompt)
            elif prompt.id in before:
                continue
            elif prompt.player == GM:
                if settings.gm_channel_id:
                    message = await self.courier.send_channel(
                        settings.gm_channel_id, f"{header}\n{say.prompt(prompt)}"[:MESSAGE_LIMIT], slot=f"gm:{prompt.id}",
                        **await self.prompt_parts(game, state, prompt, say))
                    game = draft.game = self._record(game, prompt.id, "gm", settings.gm_channel_id, message)
                else:
                    gm_waiting = True
            elif dm_prompts:
                asked[prompt.player].append(prompt)

        # `closed`: Discord refused a DM just now (explain once, publicly: the player may not be the
        # one clicking). `waiting`: DMs remembered closed and a private decision is owed (a short
        # nudge to /hand). A private *event* to a remembered-closed player says nothing in public:
        # naming who receives secrets could point at a hidden role.
        closed: set[str] = set()
        waiting: set[str] = set()
        undelivered: list[Prompt] = []      # the sender's own decisions their DMs could not carry
        for player in sorted(set(private) | set(asked)):
            if not player.isdigit() or self.quiet(game, player):
                continue
            own = reader(player)
            lines = [header, *own.events(private.get(player, []))]
            outcome, game = await self._dm(game, state, player, own, lines, asked.get(player, []), pending, answered,
                                           private.get(player, []), silent=player in hushed)
            draft.game = game
            if outcome == CLOSED:
                closed.add(player)
            elif outcome == SKIPPED and asked.get(player):
                waiting.add(player)
            if outcome != SENT and player == me:
                undelivered += asked.get(player, [])
        gm_lines = say.events(e for e in events if e.audience == GM)
        if gm_lines and settings.gm_channel_id:
            for text in chunks([header, *gm_lines]):
                await self.courier.send_channel(settings.gm_channel_id, text, slot=f"gm{game.id}")

        nudged = set(game.meta.get("dm_nudged", []))
        newly = (closed | waiting) - nudged - ({me} if undelivered else set())
        pinged = newly - hushed
        if newly:
            # Once per player per game: a notice on every private prompt would tell the table when
            # someone holds something playable.
            for player in sorted(closed & newly):
                public_lines.append(t("dm.closed_public", locale, player=mention(player)))
            for player in sorted(newly - closed):
                public_lines.append(t("prompt.private_waiting", locale, player=mention(player)))
            game = draft.game = with_meta(game, {**game.meta, "dm_nudged": sorted(nudged | newly)})
        if gm_waiting:
            public_lines.append(t("dm.gm_waiting", locale))
        opened = self._opened.pop(game.id, None) if over else None
        if over:
            if game.active:         # commit ends a game with its last action; this is for other callers
                await self.store.end_game(game)
            if opened is None:      # a lobby that started its game says so instead
                public_lines.append(t("game.over", locale, id=game.id))

        if undelivered and interaction is not None:
            # Closed DMs: the sender's next private decision comes with this private reply.
            own = reader(me or "")
            await reply(interaction, t("dm.closed_you", interaction.locale), ephemeral=True)
            for prompt in undelivered:
                await reply(interaction, own.prompt(prompt)[:MESSAGE_LIMIT], ephemeral=True,
                            **await self.prompt_parts(game, state, prompt, own))
        elif interaction is not None and me in closed | waiting:
            await reply(interaction, t("dm.closed_you", interaction.locale), ephemeral=True)

        if late:        # the narrative only: the table shows the later step; its prompts are gone
            game = draft.game = await self.table.narrate(interaction, game, public_lines, draft.seq, ping=pinged)
            game = draft.game = await self.table.close_stale(
                game, {p.id for p in engine.pending(engine.load_state(game.state))}, answered)
        outer = self.table.begin(game.id)
        try:
            if system.after_publish is not None and not late:
                await system.after_publish(self, interaction, game, state, events)
                # the hook may have written meta (a system's records): continue from what is stored
                fresh = await self.store.fresh(game)
                if fresh is not None:
                    game = draft.game = with_meta(game, merge_patch(fresh.meta, merge_diff(draft.start, game.meta)))
                    draft.start = fresh.meta
        finally:
            board = self.table.end(game.id, outer)
        if not late and self.table.shown.get(game.id, -1) <= game.version:   # else a nested publish showed a newer step
            if self.order.overtaken(game.channel_id, game.id, draft.seq):
                # a later action is committed and waits for this publish: its own shows the table
                game = draft.game = await self.table.narrate(interaction, game, public_lines, draft.seq, ping=pinged,
                                                             later=True)
            else:
                self.table.shown[game.id] = game.version
                game = draft.game = await self.table.show(
                    interaction, game, say, public_lines, public_prompts, board=board, over=over, ping=pinged,
                    hushed=hushed, move=move, still=still, state=state,
                    seq=draft.seq if self.courier.keyed() else None)
            game = draft.game = await self.table.close_stale(game, pending, answered)
        if over:
            told = await system.on_over(self, interaction, game, state) if system.on_over is not None else None
            self.table.forget(game.id)
            if self.courier.keyed():        # the step's own publish (not a /game status)
                untold = (game.meta.get(TABLE) or {}).get(UNTOLD) or []     # (cogs/host/table.py)
                await self.game_over(interaction, game, [*untold, *(told or ())])
        if opened is not None:
            record, first, started_events = opened
            title = systems.get(record.system).title
            intro = Event("game_started", {"title": title, "id": record.id, "players": list(record.seats)})
            await self.publish(interaction, record, first, [intro, *started_events], before=set())

    async def _dm(self, game: GameRecord, state: Any, player: str, say: Presenter, lines: list[str],
                  prompts: list[Prompt], pending: set[str], answered: int | None,
                  events: Sequence[Event] = (), silent: bool = False) -> tuple[str, GameRecord]:
        """One player's private news and decisions: the events, then each prompt with its
        components, in as few DMs as fit; a superseded DM prompt of theirs (not the one just clicked)
        is edited into the first new one instead of a new DM, and a decision that continues the
        thread of their newest DM (`Prompt.thread`) is edited into that DM. Returns the delivery's
        outcome. `silent`: inside their quiet hours, the DMs notify nobody (Discord's silent messages)."""
        news = lines if len(lines) > 1 else []
        hush = {"silent": True} if silent else {}
        if not prompts:
            outcome = SENT
            texts = chunks(news)
            extra = await self.news_parts(game, state, player, say, events) if texts else {}
            for index, text in enumerate(texts):
                outcome, message = await self.courier.deliver_message(
                    game.guild_id, int(player), text, **hush, **(extra if index == len(texts) - 1 else {}))
                if outcome != SENT:
                    break
                game = with_meta(game, newest_dm(game.meta, player, message, None))
            return outcome, game
        outcome = SENT
        for index, prompt in enumerate(prompts):
            question = say.prompt(prompt)
            parts = [*(lines if index == 0 else lines[:1]), question]
            texts = chunks(parts)
            for text in texts[:-1]:                  # news too long to share the prompt's message
                outcome, message = await self.courier.deliver_message(game.guild_id, int(player), text, **hush)
                if outcome != SENT:
                    return outcome, game
                game = with_meta(game, newest_dm(game.meta, player, message, None))
            content = texts[-1] if texts else question
            extra = await self.prompt_parts(game, state, prompt, say)
            back = self.table.paused_dm(game, player, prompt.id)     # this decision's own DM, brought back
            if back and await self.courier.edit_dm(int(player), int(back["message"]), content=content, **extra):
                game = self._record(game, prompt.id, "dm", int(player), SimpleNamespace(id=back["message"]))
                game = _still_newest(game, player, int(back["message"]), prompt.thread)
                continue
            thread = self.table.thread_dm(game, player, prompt, pending)     # the thread's DM, at the foot
            # another decision's picture (a hand since played) does not stay on it
            fields = extra if "file" in extra else {**extra, "attachments": []}
            if thread and await self.courier.edit_dm(int(player), thread[0], content=content, **fields):
                recorded = {k: v for k, v in (game.meta.get(POSTED) or {}).items() if k not in thread[1]}
                game = self._record(with_meta(game, {**game.meta, POSTED: recorded}), prompt.id, "dm",
                                    int(player), SimpleNamespace(id=thread[0]))
                continue
            old = self.table.reusable_dm(game, player, pending, answered)
            entry = (game.meta.get(POSTED) or {}).get(old or "", {})
            if old and await self.courier.edit_dm(int(player), int(entry["message"]), content=content, **extra):
                game = self._record(game, prompt.id, "dm", int(player), SimpleNamespace(id=entry["message"]),
                                          replaces=old)
                game = _still_newest(game, player, int(entry["message"]), prompt.thread)
                continue
            outcome, message = await self.courier.deliver_message(game.guild_id, int(player), content, **hush, **extra)
            if outcome != SENT:
                return outcome, game
            game = self._record(game, prompt.id, "dm", int(player), message)
            game = with_meta(game, newest_dm(game.meta, player, message, prompt.thread))
        return outcome, game

    @staticmethod
    def _record(game: GameRecord, prompt_id: str, where: str, to: int, message: Any,
                replaces: str | None = None) -> GameRecord:
        return with_meta(game, posted(game.meta, prompt_id, where, to, message, replaces))

    async def deliver_outbox(self, shard_ids: Iterable[int] | None = None, shard_count: int = 1,
                             older_than: timedelta | None = None, abandoned: bool = False) -> int:
        """Publish the actions whose publish never finished (the process died between the commit and
        its messages): at start-up, and on a timer for those older than `older_than` (leaving the
        newest to the publish under way). An action overtaken by a later one sends its events
        only (`late`): the later publish posted the prompts that are current. The messages a
        cut-short publish sent are not sent again. `abandoned`: earlier claims are a dead
        process's (see `claim_outbox`). Returns how many actions were published."""
        cutoff = None if older_than is None else (datetime.now(UTC) - older_than).isoformat(timespec="seconds")
        published = 0
        claimed = await self.store.claim_outbox(shard_ids, shard_count, older_than=cutoff, abandoned=abandoned)
        games = {m.game_id: await self.store.game(m.game_id) for m in claimed}
        for message in claimed:         # a click's publish meanwhile waits for these (oldest first)
            if (found := games[message.game_id]) is not None:
                self.order.owe(found.channel_id, message.game_id, message.seq)
        if older_than is None:          # the start-up claim, of everything pending: actions may commit
            self.order.recovered()
        for message in claimed:
            key = (message.game_id, message.seq)
            if key in self._publishing:     # its publish is under way here; it marks the action itself
                await self.store.release_outbox([message.id])
                continue
            self._owed.pop(key, None)
            game = await self.store.game(message.game_id)
            start = message.payload.get("start")        # a game's opening (seq 0): no action logged
            record = None if start else await self.store.action(message.game_id, message.seq)
            if game is not None and (start or (record is not None and not record.undone)):
                late = game.version != message.seq or not await self._reopen(game, message.payload)
                engine = systems.get(game.system).engine
                events = (opening(game, start["intro"] and Event.from_dict(start["intro"]),
                                  [Event.from_dict(e) for e in start["events"]]) if start
                          else [Event.from_dict(e) for e in record.events] if record else [])
                self._owed[key] = Slots(game.guild_id, game.id, message.seq,
                                        sent=await self.store.sent_slots(game.id, message.seq))
                # the game as that action left it, but for its state: a late publish reads none
                await self.publish(None, GameRecord(**{**game.__dict__, "version": message.seq}),
                                   engine.load_state(game.state), events,
                                   before=set(message.payload.get("before", [])), late=late)
                published += 1
            elif game is not None:
                await self.order.done(game.channel_id, *key)
            await self.store.mark_sent([message.id])
        return published

    async def _reopen(self, game: GameRecord, owed: dict) -> bool:
        """Before a lobby's Start is published again: the game it opened, to announce with it
        (`_opened` was lost with the process). False when that game has moved on already (its
        own publishes posted what is current): the Start is late."""
        if "opened" not in owed or game.id in self._opened:
            return True
        opened = await self.store.successor(game)
        if opened is None or opened.version > 0:
            return False
        engine = systems.get(opened.system).engine
        self._opened[game.id] = (opened, engine.load_state(opened.state), [Event.from_dict(e) for e in owed["opened"]])
        return True

    async def news_parts(self, game: GameRecord, state: Any, player: str, say: Presenter,
                         events: Sequence[Event]) -> dict[str, Any]:
        """The system's picture for a player's private news (`System.news_image`), as a file for
        the same DM; none when it draws nothing or fails (the news goes anyway)."""
        system = systems.get(game.system)
        if system.news_image is None or not events:
            return {}
        reading = present.READER.set(say)
        try:
            drawn = await asyncio.to_thread(system.news_image, system.engine.view_for(state, player), list(events))
        except Exception:  # noqa: BLE001 - a picture must never stop the news
            log.exception("news image failed for game %s", game.id)
            return {}
        finally:
            present.READER.reset(reading)
        if not drawn:
            return {}
        name, png = drawn
        return {"file": discord.File(io.BytesIO(png), filename=name)}

    async def prompt_parts(self, game: GameRecord, state: Any, prompt: Prompt,
                           say: Presenter | None = None) -> dict[str, Any]:
        """The components of a prompt's message, labelled by `say` (its reader's presenter), and its
        image when the system draws one (from the recipient's own view, so the picture never shows
        more than they may see)."""
        say = say or self.presenter(game, None)
        parts: dict[str, Any] = {"view": prompt_view(game.id, prompt, say)}
        file = await self.prompt_file(game, state, prompt, say)
        if file is not None:
            parts["file"] = file
        return parts

    async def prompt_file(self, game: GameRecord, state: Any, prompt: Prompt, say: Presenter) -> discord.File | None:
        """A prompt's image alone (the table shows a public prompt's picture with its own
        components): None when the system draws none, or drawing it failed."""
        system = systems.get(game.system)
        if system.prompt_image is None:
            return None
        viewer = (GM if prompt.player == GM else prompt.player) if prompt.private else PUBLIC
        reading = present.READER.set(say)   # the picture's words in its reader's language (to_thread copies it)
        try:
            drawn = await asyncio.to_thread(system.prompt_image, system.engine.view_for(state, viewer), prompt)
        except Exception:  # noqa: BLE001 - a picture must never stop a decision from being asked
            log.exception("prompt image failed for game %s", game.id)
            return None
        finally:
            present.READER.reset(reading)
        if not drawn:
            return None
        name, png = drawn
        return discord.File(io.BytesIO(png), filename=name)

    async def _post(self, interaction: discord.Interaction | None, game: GameRecord, content: str,
                    slot: str | None = None, **kwargs):
        """A public message in the game's channel: as a followup of a publicly answered interaction
        there (no extra permission needed), else as an ordinary channel message."""
        # An action's publish posts in the channel: a followup (a webhook) takes no nonce, so it
        # could be doubled by a crash (see cogs/courier.py).
        if (interaction is not None and interaction.channel_id == game.channel_id and not self.courier.keyed()
                and interaction.response.is_done() and not interaction.extras.get("bauta_private_ack")):
            return await interaction.followup.send(content, **kwargs)
        return await self.courier.send_channel(game.channel_id, content, slot=slot, **kwargs)

    async def live_message(self, game: GameRecord, key: str, content: str, *, file: discord.File | None = None,
                           new: bool = False, **record: Any) -> GameRecord:
        """Show a system's board on the game's table message (`cogs/table.py`): its caption and, when
        given, a new image; `new` starts a new table message and keeps the old one as a record (a
        round's final board). During a publish the board is collected and shown with the step's
        prompts, in one edit, and written with the publish's meta. `record`: fields the system
        wants back in `game.meta[key]` (with the table message's id)."""
        if self.table.staging(game.id):
            self.table.stage(game.id, key, content, file, new, record)
            table = game.meta.get(TABLE) or {}
            return with_meta(game, {**game.meta, key: {**(game.meta.get(key) or {}), **record,
                                                       "message": table.get("message"), "channel": game.channel_id}})
        fresh = await self.store.game(game.id) or game
        engine = systems.get(game.system).engine
        state = engine.load_state(fresh.state)
        say = self.presenter(fresh, await self.server_locale(fresh, None))
        prompts = [p for p in engine.pending(state) if not p.private and not self.quiet(fresh, p.player)]
        self.table.stage(game.id, key, content, file, new, record)
        board = self.table.end(game.id, (False, None))
        shown = await self.table.show(None, fresh, say, [], prompts, board=board, over=engine.is_over(state),
                                      state=state)
        return await self.store.patch_meta(shown, merge_diff(fresh.meta, shown.meta))

    async def republish(self, interaction: discord.Interaction, game: GameRecord, events: Sequence[Event] = (),
                        dm_prompts: bool = True) -> None:
        """Bring every current prompt back: after an undo (DMs too), or on /game status (the table
        posted anew at the foot of the channel; a private decision is pointed at /hand rather
        than DMed again)."""
        engine = systems.get(game.system).engine
        await self.publish(interaction, game, engine.load_state(game.state), list(events), before=set(),
                           dm_prompts=dm_prompts, move=not dm_prompts)


def _still_newest(game: GameRecord, player: str, message_id: int, thread: str) -> GameRecord:
    """After an edit of an older DM of `player`: when it is their newest DM, it now carries `thread`."""
    newest = (game.meta.get(NEWEST_DM) or {}).get(player)
    if not newest or int(newest["message"]) != message_id:
        return game
    return with_meta(game, newest_dm(game.meta, player, SimpleNamespace(id=message_id), thread))


def opening(game: GameRecord, intro: Event | None, events: Sequence[Event]) -> list[Event]:
    """A new game's first events: the cog's intro (else "game #N of <title> starts") and the set-up's."""
    title = systems.get(game.system).title
    return [intro or Event("game_started", {"title": title, "id": game.id, "players": list(game.seats)}), *events]
