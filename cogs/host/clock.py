"""The turn clock of every hosted game: a deadline on each decision a member owes it.

Each publish plans the clock of the decisions it shows (`TurnClock.plan`): a decision asked now
gets its `Timer` (clock/hours.py: its deadline, its half-time reminder, its public ping) and one
`awaiting` row (db/clock.py), written in the transaction that ends the publish; a decision still
pending keeps its clock; one answered loses its row. The game's meta mirrors the deadlines
(`meta["clock"]["due"]`), so every prompt the presenter words shows its own deadline (a Discord
timestamp: each reader sees it in their own zone and language) without another read.

The period comes from the game (`/game deadline`) or its server (`/gm deadline`); a paused game
(`/game pause`) keeps its clocks stopped until it resumes, and each clock is moved by the pause.
What happens when something falls due is the scheduler's (cogs/host/scheduler.py).
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Protocol
from collections.abc import Iterable, Sequence

from clock import hours, source
from clock.hours import Person, Timer
from db.clock import Awaiting
from db.delta import merge_diff
from db.store import GameRecord, Store
from i18n import t
from rules.common import Event, Prompt

from .table import with_meta

CLOCK = "clock"        # game.meta: {"due": {prompt id: entry}, "minutes": the game's own period, "paused_at": …}
PEOPLE_TTL = 60.0      # seconds a profile read is trusted (another process may have changed it)


class ClockHost(Protocol):
    """What the clock asks of the host that owns it (`GameHost`)."""
    store: Store

    def quiet(self, game: GameRecord, player: str) -> bool: ...

    async def refresh(self, game: GameRecord, events: Sequence[Event] = (), still: bool = False) -> None: ...


def period_text(minutes: float, locale: Any) -> str:
    """A deadline's length as a reader says it: "2 h", "1 h 30 min", "5 min"."""
    hours_, rest = divmod(int(round(minutes)), 60)
    parts = ([t("clock.hours", locale, n=hours_)] if hours_ else []) + ([t("clock.minutes", locale, n=rest)] if rest else [])
    return " ".join(parts) or t("clock.minutes", locale, n=0)


def shown(game: GameRecord) -> dict[str, dict]:
    """The deadlines the presenter shows on the game's prompts (marked stopped while paused)."""
    due = state_of(game).get("due") or {}
    if paused_at(game) is None:
        return due
    return {pid: {**entry, "p": 1} for pid, entry in due.items()}


def held(person: Person, at: datetime) -> timedelta:
    """How much of a waiting decision's clock an absence holds back from `at` (none with a stand-in)."""
    if person.away_until is None or person.away_stand_in or person.away_until <= at:
        return timedelta(0)
    return person.away_until - at


def epoch(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp())


def state_of(game: GameRecord) -> dict:
    return dict(game.meta.get(CLOCK) or {})


def paused_at(game: GameRecord) -> datetime | None:
    return source.parse(state_of(game).get("paused_at"))


def entry(timer: Timer, person: Person, user: int) -> dict:
    """A decision's clock as the meta mirrors it for the presenter: its player, its deadline and,
    when they are away, their return (epochs, for Discord timestamps)."""
    found: dict[str, Any] = {"u": str(user), "d": epoch(timer.deadline)}
    if person.away_until is not None and person.away_at(source.now()):
        found["a"] = epoch(person.away_until)
    return found


class TurnClock:
    def __init__(self, host: ClockHost):
        self.host = host
        self.store = host.store
        self._people: dict[int, tuple[float, Person]] = {}
        self._owed: set[int] | None = None        # users owed a private reminder (loaded once)

    # ---- people
    async def people(self, user_ids: Iterable[int]) -> dict[int, Person]:
        """Profiles, trusted for PEOPLE_TTL seconds (a publish reads those it plans for)."""
        stamp = source.timestamp()
        wanted = {int(u) for u in user_ids}
        fresh = {u: p for u, (at, p) in self._people.items() if u in wanted and stamp - at < PEOPLE_TTL}
        missing = wanted - set(fresh)
        if missing:
            read = await self.store.profiles(missing)
            for user, person in read.items():
                self._people[user] = (stamp, person)
            fresh.update(read)
            if len(self._people) > 50_000:
                self._people.clear()
        return fresh

    def forget(self, user_id: int) -> None:
        """A profile changed here: read it again next time."""
        self._people.pop(int(user_id), None)

    # ---- the period
    async def period(self, game: GameRecord) -> timedelta | None:
        """The deadline of a decision of `game`: the game's own (`/game deadline`), else its
        server's (`/gm deadline`); None for none."""
        own = state_of(game).get("minutes")
        minutes = own if own is not None else (await self.store.settings(game.guild_id)).deadline_minutes
        return timedelta(minutes=minutes) if minutes else None

    # ---- one publish
    async def plan(self, game: GameRecord, prompts: Sequence[Prompt], before: set[str], seq: int,
                   over: bool) -> tuple[GameRecord, list[tuple], set[str]]:
        """The clocks of the decisions `prompts` asks of members: the game with its mirror brought up
        to date (not written), the statements that write the awaited rows (for the publish's last
        transaction), and the players who must not be pinged now (inside their quiet hours)."""
        clock = state_of(game)
        mirror: dict[str, dict] = dict(clock.get("due") or {})
        awaited = {} if over else {p.id: p for p in prompts
                                   if p.player.isdigit() and not self.host.quiet(game, p.player)}
        # a decision pending before this action keeps its clock; so does every one on a re-show
        # (`/game status`, an undo: nothing was answered)
        keep = {pid for pid, p in awaited.items()
                if pid in mirror and mirror[pid].get("u") == p.player and (pid in before or not before)}
        new = [p for pid, p in awaited.items() if pid not in keep]
        gone = set(mirror) - set(awaited)
        people = await self.people(int(p.player) for p in awaited.values()) if awaited else {}
        now = source.now()
        hushed = {str(u) for u, person in people.items() if person.quiet_at(now)}
        if not new and not gone:
            return game, [], hushed
        period = await self.period(game) if new else None
        stopped = paused_at(game) is not None
        rows = []
        for prompt in new:
            person = people[int(prompt.player)]
            timer = Timer.asked(now, period, person)
            rows.append(Awaiting(game.id, prompt.id, int(prompt.player), game.guild_id, game.channel_id,
                                 prompt.private, now, seq, timer, None if stopped else hours.due(timer, person)))
            mirror[prompt.id] = entry(timer, person, int(prompt.player))
        for pid in gone:
            mirror.pop(pid, None)
        statements = self.store.awaiting_statements(game.id, keep, rows)
        return with_meta(game, {**game.meta, CLOCK: {**clock, "due": mirror}}), statements, hushed

    # ---- moving clocks (a pause, a new period, an absence)
    async def _moved(self, game: GameRecord, rows: list[Awaiting], clock: dict) -> GameRecord:
        """Write the moved rows and the game's mirror of them."""
        people = await self.people(r.user_id for r in rows)
        mirror = dict(clock.get("due") or {})
        for row in rows:
            mirror[row.prompt_id] = entry(row.timer, people[row.user_id], row.user_id)
        await self.store.save_awaiting(rows)
        # a merge patch: a key the new clock drops (a pause that ends) is written as removed
        return await self.store.patch_meta(game, merge_diff(game.meta, {**game.meta, CLOCK: {**clock, "due": mirror}}))

    async def set_period(self, game: GameRecord, minutes: float | None) -> GameRecord:
        """The game's own deadline (None: its server's again), applied to the decisions pending
        now too, counted from when their clock started."""
        clock = {**state_of(game), "minutes": minutes}
        period = await self.period(with_meta(game, {**game.meta, CLOCK: clock}))
        stopped = paused_at(game) is not None
        rows = await self.store.awaiting_of(game.id)
        people = await self.people(r.user_id for r in rows)
        moved = []
        for row in rows:
            timer = Timer(row.timer.start, row.timer.start + period if period else None,
                          row.timer.pings, row.timer.expired and period is not None)
            moved.append(row.with_timer(timer, None if stopped else hours.due(timer, people[row.user_id])))
        return await self._moved(game, moved, {**clock, "minutes": minutes})

    async def pause(self, game: GameRecord) -> GameRecord:
        clock = {**state_of(game), "paused_at": source.stamp(source.now())}
        clock.pop("pause_votes", None)
        rows = [r.with_timer(r.timer, None) for r in await self.store.awaiting_of(game.id)]
        return await self._moved(game, rows, clock)

    async def resume(self, game: GameRecord) -> GameRecord:
        """Every clock moves by the pause (a decision asked during it starts now)."""
        since = paused_at(game)
        clock = {k: v for k, v in state_of(game).items() if k not in ("paused_at", "resume_votes")}
        now = source.now()
        rows = await self.store.awaiting_of(game.id)
        people = await self.people(r.user_id for r in rows)
        moved = []
        for row in rows:
            timer = row.timer.shifted(now - max(since or now, row.timer.start))
            moved.append(row.with_timer(timer, hours.due(timer, people[row.user_id])))
        return await self._moved(game, moved, clock)

    async def person_changed(self, before: Person, after: Person) -> int:
        """A member's profile changed (`/profile away`, quiet hours, zone): move the clocks of every
        decision awaited from them, now. The rest of an absence they had set is given back (they
        came back early, or changed the date), the new absence is added (not with a stand-in:
        then the clock runs on), and each next look is recomputed with their hours. The tables that
        wait on them show it, edited in place. Returns how many decisions moved."""
        self._people[after.user_id] = (source.timestamp(), after)
        at = source.now()
        back, ahead = held(before, at), held(after, at)
        by_game: dict[int, list[Awaiting]] = {}
        moved = 0
        for row in await self.store.awaiting_for(after.user_id, limit=1000):
            timer = row.timer
            if timer.deadline is not None:
                # never more than the clock was held back since it was asked
                undo = min(back, max(timer.start - row.asked_at, timedelta(0)))
                timer = timer.shifted(ahead - undo) if ahead >= undo else Timer(
                    timer.start - (undo - ahead), timer.deadline - (undo - ahead), timer.pings, timer.expired)
            due = hours.due(timer, after, at)
            if timer != row.timer:
                moved += 1
            # a new absence (or its end) is shown on the table even where no clock moved
            if timer != row.timer or due != row.due_at or before.away_until != after.away_until:
                by_game.setdefault(row.game_id, []).append(row.with_timer(timer, due))
        for game_id, rows in by_game.items():
            game = await self.store.game(game_id)
            if game is None or not game.active:
                continue
            if paused_at(game) is not None:
                rows = [r.with_timer(r.timer, None) for r in rows]
            await self.host.refresh(await self._moved(game, rows, state_of(game)), still=True)
        return moved

    # ---- private reminders closed DMs could not carry
    async def owed_to(self, user_id: int) -> list[Awaiting]:
        """The reminders owed to `user_id` (cleared: the caller delivers them now)."""
        if self._owed is None:
            self._owed = await self.store.owed_users()
        if user_id not in self._owed:
            return []
        self._owed.discard(user_id)
        rows = [r for r in await self.store.awaiting_for(user_id) if r.owed]
        await self.store.save_awaiting([replace(r, owed=False) for r in rows])
        return rows

    def owe(self, user_id: int) -> None:
        if self._owed is not None:
            self._owed.add(user_id)

