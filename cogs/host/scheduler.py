"""The scheduler: what the turn clock makes due, done once per deployment by the clock in use.

Each `tick` reads only what is due (the `awaiting_due` index: its cost follows the due decisions,
not the open games) and, for each decision still awaited, does what its clock says
(`clock.hours.steps`), in one message per person or game:

- the half-time reminder, privately: one DM per person listing what is due, with a link; where
  their DMs are closed it is kept (`owed`) for the next private reply they get;
- the public ping shortly before the deadline: one message per game naming whoever it waits on,
  pinging only those who have not muted it and are outside their quiet hours;
- the deadline: the decision's rulebook default where the game's house rule asks for it
  (`deadline_default`), else the bot standing in where the server turned it on (`/gm idle_bot`),
  or where the player asked for it while away; else nothing more than the reminders. The
  narration says who acted and why, and `/game undo` takes it back.

A decision's clock is written after its message went out (compare-and-set: an answer meanwhile
wins), and every message carries a nonce made from the decision and its stage: a tick cut short by
a crash sends it again after the restart, and Discord keeps one.
"""
from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import discord

from clock import hours, source
from clock.hours import Person
from db.clock import Awaiting
from db.store import GameRecord
from i18n import t
from rules.common import Choose, Prompt
from rules.common.engine import Actor

from . import botplayer, systems
from .clock import paused_at, state_of as clock_state
from .courier import SENT, bot_id, chunks, mention
from .table import POSTED, TABLE

log = logging.getLogger("bauta.scheduler")

BATCH = 200                                # due decisions read per tick (the rest: the next tick)
ARCHIVE_EVERY = timedelta(hours=1)
NO_PING = discord.AllowedMentions.none()


@dataclass
class Tick:
    """What one tick did (the simulation's and the tests' figures)."""
    reminded: int = 0        # private reminders sent
    owed: int = 0            # private reminders kept for closed DMs
    pinged: int = 0          # decisions whose public ping went out
    muted: int = 0           # public pings not sent: muted by their player
    expired: int = 0         # deadlines reached
    answered: int = 0        # decisions answered at a deadline (default or stand-in)
    moved: int = 0           # clocks moved on (quiet hours, absences, answered meanwhile)
    archived: int = 0


@dataclass
class _Due:
    game: GameRecord          # as the tick read it: its meta, not its state (`games_by_id`)
    row: Awaiting
    after: Awaiting
    todo: list[str]


@dataclass
class _Change:
    """A decision's clock to write at the end of the tick, and the figure it counts for."""
    before: Awaiting
    after: Awaiting
    counts: str = ""            # the `Tick` figure it adds to once written ("": none)


class Scheduler:
    def __init__(self, host: Any):
        self.host = host
        self.store = host.store
        self._archived_at: datetime | None = None
        self._salt: str | None = None

    async def next_due(self) -> datetime | None:
        return await self.store.next_due()

    async def tick(self, at: datetime | None = None) -> Tick:
        """Do what is due by `at` (default: the clock's now): three reads (the due decisions, their
        games, their people), the messages, one write of every clock, then the deadlines."""
        at = at or source.now()
        done = Tick()
        rows = await self.store.due_awaiting(at, BATCH)
        by_game: dict[int, list[Awaiting]] = defaultdict(list)
        for row in rows:
            by_game[row.game_id].append(row)
        games = await self.store.games_by_id(by_game, state=False) if by_game else {}
        people = await self.host.clock.people(r.user_id for r in rows) if rows else {}
        changes: list[_Change] = []
        expiring: list[tuple[GameRecord, list[_Due]]] = []
        for game_id, group in by_game.items():
            try:
                due = self._due(games.get(game_id), group, people, at, changes)
                if due:
                    await self._remind(due[0].game, [d for d in due if hours.REMIND in d.todo], people, changes)
                    await self._ping(due[0].game, [d for d in due if {hours.PING, hours.SKIP_PING} & set(d.todo)],
                                     changes)
                    changes += [_Change(d.row, d.after) for d in due
                                if not {hours.REMIND, hours.PING, hours.SKIP_PING} & set(d.todo)]
                    expiring += [(due[0].game, [d for d in due if hours.DEADLINE in d.todo])]
            except Exception:  # noqa: BLE001 - one game's failure must not stop the others' reminders
                log.exception("the clock of game %s failed", game_id)
        written = await self.store.advance_all((c.before, c.after) for c in changes)
        for change, ok in zip(changes, written):
            if ok and change.counts:
                setattr(done, change.counts, getattr(done, change.counts) + 1)
        for game, due in expiring:
            if due:
                done.expired += len(due)
                try:
                    done.answered += await self._deadlines(game, due, people)
                except Exception:  # noqa: BLE001
                    log.exception("the deadline of game %s failed", game.id)
        if self._archived_at is None or at - self._archived_at >= ARCHIVE_EVERY:
            self._archived_at = at
            done.archived = await self.archive(at)
        return done

    def _due(self, game: GameRecord | None, rows: list[Awaiting], people: dict[int, Person], at: datetime,
             changes: list[_Change]) -> list[_Due]:
        """What one game's due decisions ask for now; the clocks that only move go to `changes`."""
        if game is None or not game.active:         # (an ended game's rows go with its end)
            changes += [_Change(r, r.with_timer(r.timer, None)) for r in rows]
            return []
        if paused_at(game) is not None:              # stopped: nothing is due until it resumes
            changes += [_Change(r, r.with_timer(r.timer, None)) for r in rows]
            return []
        # still awaited, as the game's last publish says (its mirror and these rows are written
        # together): no state is decoded for a reminder
        mirror = clock_state(game).get("due") or {}
        due: list[_Due] = []
        for row in rows:
            person = people[row.user_id]
            if (mirror.get(row.prompt_id) or {}).get("u") != str(row.user_id):
                # answered meanwhile (its publish drops the row): nothing is sent for it
                changes.append(_Change(row, row.with_timer(row.timer, None), "moved"))
                continue
            todo, timer = hours.steps(row.timer, person, at, game.id)
            after = row.with_timer(timer, hours.due(timer, person, at))
            if todo:
                due.append(_Due(game, row, after, todo))
            else:                                    # quiet hours or an absence moved it on
                changes.append(_Change(row, after, "moved"))
        return due

    async def _nonce(self, *parts: Any) -> int:
        if self._salt is None:
            self._salt = await self.store.deployment_salt()
        digest = hashlib.sha256(":".join(map(str, (self._salt, "clock", *parts))).encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1 or 1

    def _locale(self, game: GameRecord, person: Person, fallback: Any) -> Any:
        """A person's own language: `/profile language`, else the one they last played in."""
        return person.language or (game.meta.get("locales") or {}).get(str(person.user_id)) or fallback

    async def _remind(self, game: GameRecord, due: list[_Due], people: dict[int, Person],
                      changes: list[_Change]) -> None:
        """The half-time reminders: one DM a person (closed DMs: kept for their next reply)."""
        if not due:
            return
        server = await self.host.server_locale(game, None)
        by_user: dict[int, list[_Due]] = defaultdict(list)
        for item in due:
            by_user[item.row.user_id].append(item)
        for user, items in by_user.items():
            locale = self._locale(game, people[user], server)
            text = "\n".join([t("clock.remind_header", locale), *(self.line(game, i.after, locale) for i in items)])
            nonce = await self._nonce(game.id, user, *(f"{i.row.prompt_id}@{i.row.asked_seq}" for i in items), "remind")
            outcome, _message = await self.host.courier.deliver_message(game.guild_id, user, chunks([text])[0],
                                                                        nonce=nonce)
            owed = outcome != SENT
            changes += [_Change(i.row, replace(i.after, owed=True), "owed") if owed else _Change(i.row, i.after, "reminded")
                        for i in items]
            if owed:
                self.host.clock.owe(user)

    async def _ping(self, game: GameRecord, due: list[_Due], changes: list[_Change]) -> None:
        """The public ping before the deadline: one message for the game, pinging those who let it."""
        calling = [d for d in due if hours.PING in d.todo]
        changes += [_Change(d.row, d.after, "muted") for d in due if hours.SKIP_PING in d.todo]
        if not calling:
            return
        locale = await self.host.server_locale(game, None)
        full = await self.store.game(game.id) or game          # what is asked, said in the channel
        engine = systems.get(full.system).engine
        asked = {p.id: p for p in engine.pending(engine.load_state(full.state))}
        say = self.host.presenter(full, locale)
        users = sorted({d.row.user_id for d in calling})
        deadline = min(d.after.timer.deadline for d in calling if d.after.timer.deadline is not None)
        public = [asked[d.row.prompt_id] for d in calling if d.row.prompt_id in asked and not d.row.private]
        text = t("clock.ping", locale, who=", ".join(mention(str(u)) for u in users), id=game.id,
                 title=systems.title(game.system, locale), relative=f"<t:{int(deadline.timestamp())}:R>",
                 asked="; ".join(say.prompt(p, plain=True) for p in public) or t("clock.private_decision", locale))
        nonce = await self._nonce(game.id, *(f"{d.row.prompt_id}@{d.row.asked_seq}" for d in calling), "ping")
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users])
        await self.host.courier.send_channel(game.channel_id, chunks([text])[0], allowed_mentions=mentions,
                                             nonce=nonce)
        changes += [_Change(d.row, d.after, "pinged") for d in calling]

    def line(self, game: GameRecord, row: Awaiting, locale: Any) -> str:
        """One awaited decision in a reminder: the game, the deadline, where to answer it (the
        prompt itself is one click away: its link)."""
        deadline = row.timer.deadline
        return t("clock.remind_line", locale, title=systems.title(game.system, locale), id=game.id,
                 channel=f"<#{game.channel_id}>",
                 asked=t("clock.private_decision" if row.private else "clock.your_decision", locale),
                 relative=f"<t:{int(deadline.timestamp())}:R>" if deadline else "—",
                 when=f"<t:{int(deadline.timestamp())}:f>" if deadline else "—", where=self.where(game, row, locale))

    @staticmethod
    def where(game: GameRecord, row: Awaiting, locale: Any) -> str:
        """Where a decision is answered: a link to its message, or `/hand` for a private one."""
        if row.private:
            return t("clock.answer_in_hand", locale, channel=f"<#{game.channel_id}>")
        entry = (game.meta.get(POSTED) or {}).get(row.prompt_id) or {}
        message = entry.get("message") if entry.get("where") == "channel" else (game.meta.get(TABLE) or {}).get("message")
        if not message:
            return f"<#{game.channel_id}>"
        return f"https://discord.com/channels/{game.guild_id}/{entry.get('to') or game.channel_id}/{message}"

    # ---- deadlines
    async def _deadlines(self, game: GameRecord, due: list[_Due], people: dict[int, Person]) -> int:
        """Each expired decision: the rules' default, the bot, or (by default) nothing more."""
        settings = await self.store.settings(game.guild_id)
        house = await self.store.house_rules(game.guild_id, game.system)
        answered = 0
        for item in due:
            record = await self.store.game(game.id)
            if record is None or not record.active:
                break
            engine = systems.get(record.system).engine
            state = engine.load_state(record.state)
            prompt = next((p for p in engine.pending(state) if p.id == item.row.prompt_id), None)
            if prompt is None or prompt.confirm:      # answered meanwhile, or a click nobody may make for them
                continue
            person = people[item.row.user_id]
            away = person.away_at(source.now()) and person.away_stand_in
            default = engine.default_choice(state, prompt) if house.get(systems.DEADLINE_DEFAULT) else None
            if default is not None:
                answered += await self._default(record, prompt, default)
            elif (settings.idle_bot in botplayer.LEVELS or away) and botplayer.players(record.system) is not None:
                answered += await self._stand_in(record, prompt, settings.idle_bot or "normal", away)
        return answered

    async def _default(self, game: GameRecord, prompt: Prompt, options: tuple[str, ...]) -> int:
        """The rules' default for the expired decision, and for the inner steps of the same turn
        it leads to (a card put back, then the declaration it returns to: decisions of the same
        `Prompt.thread`, the player's round), each by its default, until the game waits on someone
        else, on a decision with none, or on the player's next turn (that one has its own clock)."""
        me = bot_id(self.host.bot) or "clock"
        player, first = prompt.player, game.version + 1
        answered: list[tuple[Prompt, Choose]] = []
        record: GameRecord | None = game
        for _ in range(botplayer.STAND_IN_STEPS):
            assert record is not None
            choice = Choose(prompt.id, tuple(options))
            new, outcome, before = await self.host.commit(record, choice, Actor(player), log_as=me)
            answered.append((prompt, choice))
            await self.host.publish(None, new, outcome.state, outcome.events, before)
            record = await self.store.game(new.id)
            if record is None or not record.active or record.version != new.version:
                break                           # the game went on (the bot's own seat, another player)
            engine = systems.get(record.system).engine
            state = engine.load_state(record.state)
            mine = [p for p in engine.pending(state) if p.player == player and not p.confirm
                    and p.thread and p.thread == prompt.thread]
            step = next(((p, d) for p in mine if (d := engine.default_choice(state, p)) is not None), None)
            if step is None or len(mine) != len(engine.pending(state)):
                break                           # their turn is over, or others are asked too
            prompt, options = step
        await self._announce(record or game, player, answered, first, "clock.defaulted")
        return len(answered)

    async def _stand_in(self, game: GameRecord, prompt: Prompt, level: str, away: bool) -> int:
        first = game.version + 1
        record, answered = await botplayer.stand_in(self.host, game, level, {prompt.player})
        if answered:
            await self._announce(record, prompt.player, answered, first,
                                 "clock.stood_in_away" if away else "clock.stood_in")
        return len(answered)

    async def _announce(self, game: GameRecord, player: str, answered: list[tuple[Prompt, Choose]],
                        first: int, key: str) -> None:
        """Who was answered for, what, and why, in the channel; nobody is pinged (they may be asleep)."""
        game = await botplayer.remember(self.host, game, [player], first)
        locale = await self.host.server_locale(game, None)
        say = self.host.presenter(game, locale)
        text = t(key, locale, who=say.player(player), n=len(answered),
                 choices=botplayer.described(say, answered, locale))
        await self.host.courier.send_channel(game.channel_id, chunks([text])[0], allowed_mentions=NO_PING,
                                             nonce=await self._nonce(game.id, player, first, key))

    # ---- idle games
    async def archive(self, at: datetime) -> int:
        """Games idle past their server's setting are archived (never deleted)."""
        archived = 0
        for game in await self.store.archive_candidates(at):
            try:
                archived += bool(await self.host.archive(game))
            except Exception:  # noqa: BLE001 - one game's failure must not stop the others
                log.exception("could not archive game %s", game.id)
        return archived
