"""The turn clock's benchmark: a scheduler tick over a big store, and a month of games on a fake clock.

    python bench/clock.py [--part tick|simulation|both] [--database-url URL] [--quick]
                          [--games 100000] [--due 100] [--runs 15] [--profile]
                          [--sim-games 200] [--days 30] [--seed 7]

**tick**: a store of `--games` open Duel games (tests/support/duel.py), each awaiting one decision
with a deadline, `--due` of them due now (their half-time reminder), the rest due later; the real
host's `Scheduler.tick()` over a fake Discord world (tests/support/fakes.py), `--runs` times (the due
rows re-armed with one UPDATE between runs): median and spread in ms, the due query alone, and where
a tick's time goes (the query, the game loads, the profiles, decoding + `pending()`, the sends, the
write). On SQLite (a temp file) and, with `--database-url` or `BAUTA_TEST_DATABASE_URL`, on
PostgreSQL in a throwaway schema dropped afterwards. `--profile`: cProfile's top functions too.

**simulation**: `--sim-games` games of four players (tests/support/quartet.py: one move at a time
in turn, every third round four secret bids at once) over `--days` of simulated time, servers of ten
games (fewer for a small run) with random deadlines (1 h-48 h) that only remind, play the rulebook default
(`deadline_default`) or let the bot stand in (`/gm idle_bot easy`); players with random zones and
quiet hours, some muting public pings, random absences (some with a stand-in), answers after
random delays (some never); the scheduler replaced by a new one now and then (a restart), sometimes
after a tick that crashed between its messages and its write. The scheduler ticks on a 60 s grid,
only when `next_due` says something is due. Printed: reminders per decision, pings inside anyone's
quiet hours, doubled and lost reminders, deadlines handled more than one tick late (or never), and
the wall time. `--quick`: 20 games over 3 days.

Time is only the FakeClock's (clock/source.py); nothing sleeps.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import heapq
import io
import itertools
import os
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import BautaBot, Config  # noqa: E402
from clock import source  # noqa: E402
from clock.hours import ALL, Person, Timer  # noqa: E402
from clock.source import FakeClock, stamp, use  # noqa: E402
from cogs.host import systems  # noqa: E402
from cogs.host.clock import TurnClock  # noqa: E402
from cogs.host.scheduler import BATCH, Scheduler  # noqa: E402
from db.records import _dumps  # noqa: E402
from tests.support.duel import register as register_duel  # noqa: E402
from tests.support.fakes import FakeGuild, World  # noqa: E402
from tests.support.quartet import register as register_quartet  # noqa: E402

START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)      # a Monday
TICK = timedelta(seconds=60)


def ms(seconds: float) -> float:
    return seconds * 1000


def spread(samples: list[float]) -> str:
    return (f"median {ms(statistics.median(samples)):6.2f} ms, min-max {ms(min(samples)):6.2f}-"
            f"{ms(max(samples)):6.2f} ms over {len(samples)} runs")


async def open_bot(db_path: Path, url: str | None, schema: str | None) -> BautaBot:
    bot = BautaBot(Config(token=None, db_path=str(db_path), dev_guild=None, log_level="ERROR",
                          database_url=url, db_schema=schema))
    await bot.prepare()
    register_duel()
    register_quartet()
    return bot


async def drop_schema(url: str, schema: str) -> None:
    import asyncpg
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await conn.close()


# ================================================================================ part 1: one tick
GAME_COLUMNS = ["id", "guild_id", "channel_id", "system", "status", "seats", "state", "version", "meta",
                "created_by", "created_at", "updated_at"]
AWAIT_COLUMNS = ["game_id", "prompt_id", "user_id", "guild_id", "channel_id", "private", "asked_at", "asked_seq",
                 "start_at", "deadline_at", "pings", "expired", "due_at", "owed"]


def due_games(games: int, due: int) -> list[int]:
    """The ids of the games due now: spread evenly over the store."""
    step = games // due
    return [1 + i * step for i in range(due)]


async def populate(bot: BautaBot, world: World, games: int, due: int) -> tuple[list[int], float]:
    """`games` open Duel games, each awaiting its first decision ("start", a public one, from its
    first seat) with a 2 h (due ones) or 48 h deadline; the due ones half-way through now."""
    began = time.perf_counter()
    engine = systems.get("duel").engine
    now = source.now()
    made = stamp(now)
    due_ids = set(due_games(games, due))
    template = _dumps(engine.dump_state(engine.new_game(["A", "B"], {}, seed=1)))
    game_rows, wait_rows = [], []
    for gid in range(1, games + 1):
        a, b = 10_000_000 + 2 * gid, 10_000_001 + 2 * gid
        guild, channel = 1 + gid % 500, 1_000_000 + gid
        if gid in due_ids:
            start, deadline = now - timedelta(hours=1), now + timedelta(hours=1)
            due_at = now - timedelta(seconds=gid % 50)
            world.user(a, f"a{gid}")
            world.channel(channel)
        else:
            start = now - timedelta(minutes=gid % 60)
            deadline = start + timedelta(hours=48)
            due_at = start + timedelta(hours=24)
        state = template.replace('"A"', f'"{a}"').replace('"B"', f'"{b}"')
        meta = _dumps({"clock": {"due": {"start": {"u": str(a), "d": int(deadline.timestamp())}}}})
        game_rows.append((gid, guild, channel, "duel", "active", _dumps([str(a), str(b)]), state, 0, meta, a,
                          made, made))
        wait_rows.append((gid, "start", a, guild, channel, 0, stamp(start), 0, stamp(start), stamp(deadline), 0, 0,
                          stamp(due_at), 0))
    for i in range(0, games, 10_000):
        await bot.store._insert_many("games", GAME_COLUMNS, game_rows[i:i + 10_000])
        await bot.store._insert_many("awaiting", AWAIT_COLUMNS, wait_rows[i:i + 10_000])
    await bot.store._continue_ids(["games"])
    for gid in sorted(due_ids):        # the due players have profiles (the tick reads them)
        await bot.store.save_profile(Person(10_000_000 + 2 * gid, "Europe/Rome", 2 * 60, 7 * 60))
    return sorted(due_ids), time.perf_counter() - began


async def rearm(bot: BautaBot, ids: list[int]) -> None:
    """The due decisions due again, as before the tick (one UPDATE)."""
    marks = ", ".join("?" * len(ids))
    await bot.store._write((f"UPDATE awaiting SET pings = 0, expired = 0, owed = 0, due_at = ? WHERE game_id IN ({marks})",
                            (stamp(source.now() - timedelta(seconds=1)), *ids)))


class Split:
    """Wall time spent in the tick's parts, by wrapping them (bench only)."""

    def __init__(self) -> None:
        self.spent: Counter = Counter()
        self.undo: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, name: str, part: str) -> None:
        real = getattr(owner, name)
        spent = self.spent

        if asyncio.iscoroutinefunction(real):
            async def timed(*args, **kwargs):
                began = time.perf_counter()
                try:
                    return await real(*args, **kwargs)
                finally:
                    spent[part] += time.perf_counter() - began
        else:
            def timed(*args, **kwargs):
                began = time.perf_counter()
                try:
                    return real(*args, **kwargs)
                finally:
                    spent[part] += time.perf_counter() - began
        self.undo.append((owner, name, owner.__dict__.get(name)))
        setattr(owner, name, timed)

    def restore(self) -> None:
        for owner, name, old in reversed(self.undo):
            if old is None:
                delattr(owner, name)
            else:
                setattr(owner, name, old)


async def bench_tick(args, url: str | None) -> dict:
    label = "PostgreSQL" if url else "SQLite"
    schema = f"bench_clock_{os.getpid()}" if url else None
    out: dict = {"backend": label}
    with tempfile.TemporaryDirectory() as tmp, use(FakeClock(START)):
        bot = await open_bot(Path(tmp) / "clock.sqlite3", url, schema)
        try:
            world = World(bot)
            ids, took = await populate(bot, world, args.games, args.due)
            print(f"{label}: {args.games:,} open games, {args.due} due; populated in {took:.1f} s", flush=True)
            scheduler = bot.host.scheduler
            began = time.perf_counter()
            first = await scheduler.tick()
            out["first"] = time.perf_counter() - began
            assert first.reminded == args.due, first
            samples, queries, nexts = [], [], []
            for _ in range(args.runs):
                await rearm(bot, ids)
                world.sent.clear()
                world.nonces.clear()
                began = time.perf_counter()
                done = await scheduler.tick()
                samples.append(time.perf_counter() - began)
                assert done.reminded == args.due and len(world.sent) == args.due, done
            await rearm(bot, ids)
            for _ in range(args.runs):
                began = time.perf_counter()
                rows = await bot.store.due_awaiting(source.now(), BATCH)
                queries.append(time.perf_counter() - began)
                assert len(rows) == args.due
                began = time.perf_counter()
                await bot.store.next_due()
                nexts.append(time.perf_counter() - began)
            # where the time goes: each part wrapped and timed, over the same number of ticks
            split = Split()
            engine = systems.get("duel").engine
            split.wrap(bot.store, "due_awaiting", "due query")
            split.wrap(bot.store, "games_by_id", "game loads")
            split.wrap(bot.host.clock, "people", "profiles")
            split.wrap(engine, "load_state", "state decode + pending()")
            split.wrap(engine, "pending", "state decode + pending()")
            split.wrap(bot.host.courier, "deliver_message", "sends (the DMs)")
            split.wrap(bot.store, "advance_all", "the write")
            walls = 0.0
            try:
                for _ in range(args.runs):
                    await rearm(bot, ids)
                    world.sent.clear()
                    world.nonces.clear()
                    began = time.perf_counter()
                    await scheduler.tick()
                    walls += time.perf_counter() - began
            finally:
                split.restore()
            parts = {k: v / args.runs for k, v in split.spent.items()}
            parts["the rest (steps, wording, nonces)"] = walls / args.runs - sum(parts.values())
            out.update(ticks=samples, query=queries, next_due=nexts, parts=parts)
            print(f"  first tick (with the hourly archive check): {ms(out['first']):.2f} ms")
            print(f"  tick ({args.due} due reminders):  {spread(samples)}   target ≤ 5 ms: "
                  f"{'met' if statistics.median(samples) <= 0.005 else 'missed'} at the median")
            print(f"  the due query alone:        {spread(queries)}")
            print(f"  next_due alone:             {spread(nexts)}")
            print("  a tick's parts (mean of wrapped ticks): " + ", ".join(
                f"{k} {ms(v):.2f} ms" for k, v in parts.items()))
            if args.profile:
                profiler = cProfile.Profile()
                for _ in range(args.runs):
                    await rearm(bot, ids)
                    world.sent.clear()
                    world.nonces.clear()
                    profiler.enable()
                    await scheduler.tick()
                    profiler.disable()
                text = io.StringIO()
                pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(30)
                print(text.getvalue())
        finally:
            await bot.close()
            if url and schema:
                await drop_schema(url, schema)
    return out


# ============================================================================ part 2: a month of games
ZONES = ("Europe/Rome", "America/New_York", "America/Los_Angeles", "Asia/Tokyo", "Australia/Sydney",
         "Asia/Kolkata", "UTC")
PERIODS_H = (1, 2, 4, 8, 12, 24, 36, 48)
MODES = ("remind", "default", "stand_in")
GAMES_A_SERVER = 10


@dataclass
class Decision:
    game_id: int
    prompt_id: str
    user: int
    asked: datetime
    timer: Timer | None = None          # its clock as last stored
    ended: datetime | None = None
    reminded: int = 0                   # half-time DMs
    pinged: int = 0                     # public pings
    fired: list[datetime] = field(default_factory=list)     # when its deadline was handled

    @property
    def reminders(self) -> int:
        return self.reminded + self.pinged


@dataclass
class Figures:
    decisions: int = 0
    reminders: Counter = field(default_factory=Counter)     # reminders a decision → decisions
    quiet_pings: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    late: list[str] = field(default_factory=list)
    ticks: int = 0
    hot: int = 0                        # ticks after which something was still due (a clock left in the past)
    answers: int = 0
    restarts: int = 0
    crashes: int = 0
    expired: int = 0
    defaulted: int = 0
    messages: int = 0
    wall: float = 0.0
    modes: Counter = field(default_factory=Counter)

    @property
    def max_reminders(self) -> int:
        return max(self.reminders, default=0)


class Simulation:
    def __init__(self, games: int, days: float, seed: int):
        self.rnd = random.Random(seed)
        self.n_games, self.days = games, days
        self.end = START + timedelta(days=days)
        self.clock = FakeClock(START)
        self.events: list[tuple[datetime, int, str, tuple]] = []
        self.seq = itertools.count()
        self.people: dict[int, Person] = {}                     # the truth about each user's hours
        self.aways: dict[int, list[tuple[datetime, datetime, bool]]] = defaultdict(list)
        self.open: dict[tuple[int, int], Decision] = {}         # (game, user) → their open decision
        self.all: list[Decision] = []
        self.games: dict[int, dict] = {}                        # game id → guild, channel, seats, mode
        self.guilds: dict[int, FakeGuild] = {}
        self.figures = Figures()
        self.crash_next = False

    def at(self, when: datetime, kind: str, *data: Any) -> None:
        heapq.heappush(self.events, (when, next(self.seq), kind, data))

    # ---- who may be woken when
    def away(self, user: int, at: datetime) -> bool:
        return any(start <= at < until for start, until, _ in self.aways[user])

    def free(self, user: int, at: datetime) -> datetime:
        """The first moment from `at` the user is awake and here (when they answer)."""
        for _ in range(20):
            moved = self.people[user].quiet_end(at)
            for start, until, _ in self.aways[user]:
                if start <= moved < until:
                    moved = until
            if moved == at:
                return at
            at = moved
        return at

    # ---- set-up
    async def setup(self, bot: BautaBot, world: World) -> None:
        self.bot, self.world = bot, world
        gm = world.user(1, "Owner", admin=True)
        me = world.user(99, "Bauta")
        me.bot = True
        bot._connection.user = me
        cog = bot.get_cog("GMCog")
        self.per_server = GAMES_A_SERVER if self.n_games >= 6 * GAMES_A_SERVER else max(1, self.n_games // 6)
        servers = -(-self.n_games // self.per_server)
        for s in range(servers):
            guild = FakeGuild(100 + s, owner_id=1, world=world)
            guild.name = f"server {s}"
            self.guilds[guild.id] = guild
            hours, mode = self.rnd.choice(PERIODS_H), MODES[s % len(MODES)]
            await cog.deadline.callback(cog, self.interaction(gm, None, guild), hours=hours, minutes=0)
            if mode == "stand_in":
                await cog.idle_bot.callback(cog, self.interaction(gm, None, guild), level="easy")
            elif mode == "default":     # a house rule (no slash command of its own to drive here)
                await bot.store.set_house_rule(guild.id, "quartet", systems.DEADLINE_DEFAULT, True)
            guild.mode = mode
        for g in range(self.n_games):
            guild = self.guilds[100 + g // self.per_server]
            channel = world.channel(10_000 + g)
            seats = [1000 + 4 * g + k for k in range(4)]
            for user in seats:
                world.user(user, f"p{user}")
                person = Person(user, self.rnd.choice(ZONES))
                if self.rnd.random() < 0.8:
                    begin = (self.rnd.randrange(20, 26) % 24) * 60 + self.rnd.choice((0, 30))
                    person = replace(person, quiet_from=begin, quiet_to=(begin + self.rnd.randrange(6, 11) * 60) % 1440)
                if self.rnd.random() < 0.1:
                    person = replace(person, muted=frozenset({ALL}))
                self.people[user] = person
                await bot.store.save_profile(person)
                for _ in range(self.rnd.choice((0, 0, 1, 2))):
                    start = START + timedelta(minutes=self.rnd.randrange(int(self.days * 1440)))
                    until = start + timedelta(hours=self.rnd.randrange(12, 120))
                    stand_in = self.rnd.random() < 0.3
                    self.aways[user].append((start, until, stand_in))
                    self.at(start, "away", user, until, stand_in)
            when = self.free(seats[0], START + timedelta(minutes=self.rnd.randrange(12 * 60)))
            self.at(when, "start", g, guild.id, channel.id, seats)
            self.figures.modes[guild.mode] += 1
        hours_ = 0.0
        while True:                         # restarts: every 2-12 h; a third of them after a crash
            hours_ += self.rnd.uniform(2, 12)
            if hours_ >= self.days * 24:
                break
            self.at(START + timedelta(hours=hours_), "restart", self.rnd.random() < 0.33)

    def interaction(self, user, channel, guild: FakeGuild):
        made = self.world.interaction(user, channel)
        made.guild, made.guild_id = guild, guild.id
        return made

    # ---- what every message did
    def watch(self) -> None:
        world, record = self.world, self.world.record
        remind = re.compile(r"#(\d+) in <#")
        ping = re.compile(r"game #(\d+) is waiting")

        def watched(where, content=None, **kwargs):
            before = len(world.sent)
            message = record(where, content, **kwargs)
            if len(world.sent) == before:        # the same nonce again: Discord kept the first one
                return message
            self.figures.messages += 1
            now = source.now()
            if where.startswith("dm:"):
                woken = set() if message.silent else {where[3:]}
            elif message.public:
                woken = message.pings()
            else:
                woken = set()
            for uid in woken:
                person = self.people.get(int(uid))
                if person is not None and person.quiet_at(now):
                    self.figures.quiet_pings.append(f"{now:%m-%d %H:%M} {where} woke {uid}: {(content or '')[:60]!r}")
            text = content or ""
            if where.startswith("dm:") and text.startswith("⏳ Half of your time is gone"):
                for gid in remind.findall(text):
                    self._count(int(gid), int(where[3:]), "reminded")
            elif message.public and text.startswith("⏰"):
                found = ping.search(text)
                for uid in re.findall(r"<@(\d+)>", text.split(":", 1)[0]):
                    self._count(int(found.group(1)), int(uid), "pinged")
            return message
        world.record = watched

    def _count(self, game_id: int, user: int, kind: str) -> None:
        decision = self.open.get((game_id, user))
        if decision is None:
            self.figures.doubled.append(f"a {kind} for game {game_id} user {user}, who owes it nothing")
            return
        setattr(decision, kind, getattr(decision, kind) + 1)

    def watch_deadlines(self) -> Any:
        real = Scheduler._deadlines
        sim = self

        async def noted(scheduler, game, due, people):
            for item in due:
                decision = sim.open.get((game.id, item.row.user_id))
                if decision is not None and decision.prompt_id == item.row.prompt_id:
                    decision.fired.append(source.now())
                deadline = item.row.timer.deadline
                if deadline is not None and source.now() - deadline > TICK:
                    sim.figures.late.append(f"game {game.id} {item.row.prompt_id}: {source.now() - deadline} late")
            return await real(scheduler, game, due, people)
        Scheduler._deadlines = noted
        return real

    # ---- the games as the store has them
    async def refresh(self, game_id: int) -> None:
        """Register the decisions the game now awaits, end those it no longer does, and note
        their clocks as stored."""
        record = await self.bot.store.game(game_id)
        engine = systems.get(record.system).engine
        pending = {int(p.player): p for p in engine.pending(engine.load_state(record.state))} if record.active else {}
        rows = {(r.user_id, r.prompt_id): r for r in await self.bot.store.awaiting_of(game_id)}
        now = source.now()
        for user in self.games[game_id]["seats"]:
            decision = self.open.get((game_id, user))
            prompt = pending.get(user)
            if decision is not None and (prompt is None or prompt.id != decision.prompt_id):
                decision.ended = now
                del self.open[(game_id, user)]
                decision = None
            if prompt is None:
                continue
            if decision is None:
                decision = Decision(game_id, prompt.id, user, now)
                self.open[(game_id, user)] = decision
                self.all.append(decision)
                self.plan_answer(decision, rows.get((user, prompt.id)))
            row = rows.get((user, prompt.id))
            if row is not None:
                decision.timer = row.timer

    def plan_answer(self, decision: Decision, row) -> None:
        if self.rnd.random() < 0.15:
            return                           # never answered (the deadline, if any, decides)
        period = row.timer.period if row is not None and row.timer.period else timedelta(hours=12)
        delay = period * self.rnd.choice((self.rnd.uniform(0.01, 0.45), self.rnd.uniform(0.4, 1.0),
                                          self.rnd.uniform(0.9, 1.4)))
        when = self.free(decision.user, decision.asked + delay)
        self.at(when, "answer", decision.game_id, decision.user, decision.prompt_id)

    # ---- the run
    async def step(self, kind: str, data: tuple) -> None:
        bot, world = self.bot, self.world
        if kind == "start":
            g, guild_id, channel_id, seats = data
            interaction = self.interaction(world.users[seats[0]], world.channels[channel_id], self.guilds[guild_id])
            game = await bot.host.start(interaction, "quartet", [str(s) for s in seats], seed=self.rnd.randrange(1 << 30))
            self.games[game.id] = {"guild": guild_id, "channel": channel_id, "seats": seats}
            await self.refresh(game.id)
        elif kind == "answer":
            game_id, user, prompt_id = data
            decision = self.open.get((game_id, user))
            if decision is None or decision.prompt_id != prompt_id:
                return                       # the table answered for them first
            meta = self.games[game_id]
            interaction = self.interaction(world.users[user], world.channels[meta["channel"]], self.guilds[meta["guild"]])
            await bot.host.choose(interaction, game_id, prompt_id, [self._option(prompt_id)])
            self.figures.answers += 1
            await self.refresh(game_id)
        elif kind == "away":
            user, until, stand_in = data
            before = self.people[user]
            person = replace(before, away_until=until, away_stand_in=stand_in)
            self.people[user] = person
            await bot.store.save_profile(person)
            await bot.host.clock.person_changed(before, person)
            for game_id in {g for (g, u) in self.open if u == user}:
                await self.refresh(game_id)
        elif kind == "restart":
            (crash,) = data
            if crash:
                self.crash_next = True       # the next tick dies between its messages and its write
            else:
                self.restart()

    def _option(self, prompt_id: str) -> str:
        return self.rnd.choice(("1", "2", "3")) if prompt_id.startswith("bid") else self.rnd.choice(("a", "b", "c"))

    def restart(self) -> None:
        """A new process over the same database: the scheduler and the clock start afresh."""
        self.bot.host.scheduler = Scheduler(self.bot.host)
        self.bot.host.clock = TurnClock(self.bot.host)
        self.figures.restarts += 1

    async def tick(self) -> None:
        bot = self.bot
        touched: set[int] = set()
        real_due = bot.store.due_awaiting

        async def due(at, limit=BATCH):
            rows = await real_due(at, limit)
            touched.update(r.game_id for r in rows)
            return rows
        bot.store.due_awaiting = due
        try:
            if self.crash_next:
                self.crash_next = False
                real = bot.store.advance_all

                async def killed(*args):
                    raise ConnectionError("killed")
                bot.store.advance_all = killed
                try:
                    await bot.host.scheduler.tick()
                except ConnectionError:
                    self.figures.crashes += 1
                finally:
                    bot.store.advance_all = real
                self.restart()
            done = await bot.host.scheduler.tick()
        finally:
            bot.store.due_awaiting = real_due
        self.figures.ticks += 1
        upcoming = await bot.store.next_due()
        if upcoming is not None and upcoming <= source.now():
            self.figures.hot += 1            # something still due right after the tick: it comes back next tick
        self.figures.expired += done.expired
        self.figures.defaulted += done.answered
        for game_id in touched:
            if game_id in self.games:
                await self.refresh(game_id)

    async def run(self, bot: BautaBot, world: World) -> Figures:
        began = time.perf_counter()
        await self.setup(bot, world)
        self.watch()
        real = self.watch_deadlines()
        last = START - TICK
        try:
            while True:
                upcoming = await bot.host.scheduler.next_due()
                tick_at = None
                if upcoming is not None:
                    # the first grid time at or after it (and after the last tick)
                    steps_ = -(-(upcoming - START) // TICK)
                    tick_at = max(START + steps_ * TICK, last + TICK)
                event_at = self.events[0][0] if self.events else None
                if event_at is not None and event_at < self.end and (tick_at is None or event_at < tick_at):
                    when, _, kind, data = heapq.heappop(self.events)
                    self.clock.set(when)
                    await self.step(kind, data)
                    continue
                if tick_at is None or tick_at >= self.end:
                    break
                self.clock.set(tick_at)
                await self.tick()
                last = tick_at
        finally:
            Scheduler._deadlines = real
        self.clock.set(self.end)
        self.judge()
        self.figures.wall = time.perf_counter() - began
        return self.figures

    # ---- the figures
    def judge(self) -> None:
        f = self.figures
        f.decisions = len(self.all)
        for d in self.all:
            f.reminders[d.reminders] += 1
            if d.reminded > 1 or d.pinged > 1:
                f.doubled.append(f"game {d.game_id} {d.prompt_id} user {d.user}: {d.reminded} DMs, {d.pinged} pings")
            end = d.ended or self.end
            timer = d.timer
            if timer is None or timer.deadline is None:
                continue
            if d.reminders == 0 and self.could_remind(d.user, timer, end):
                f.lost.append(f"game {d.game_id} {d.prompt_id} user {d.user}: asked {d.asked:%m-%d %H:%M}, "
                              f"half {timer.half:%m-%d %H:%M}, ended {end:%m-%d %H:%M}, none sent")
            if not d.fired and timer.deadline + 2 * TICK < end and not timer.expired:
                f.late.append(f"game {d.game_id} {d.prompt_id} user {d.user}: deadline {timer.deadline:%m-%d %H:%M} "
                              f"passed, open until {end:%m-%d %H:%M}, never handled")

    def could_remind(self, user: int, timer: Timer, end: datetime) -> bool:
        """Whether a tick between the decision's half-time and its end found its player awake,
        here and (for the public ping) not muting it: then a reminder was owed."""
        person, ping_at = self.people[user], timer.ping_at
        assert timer.half is not None and ping_at is not None
        t = START + -(-(timer.half - START) // TICK) * TICK
        last = end - TICK
        if person.mutes(0):
            last = min(last, ping_at - TICK)
        while t <= last:
            away = next((until for start, until, _ in self.aways[user] if start <= t < until), None)
            if away is not None:
                t = START + -(-(away - START) // TICK) * TICK
                continue
            if not person.quiet_at(t):
                return True
            t += TICK
        return False


def report(f: Figures) -> list[str]:
    distribution = ", ".join(f"{n}: {f.reminders[n]}" for n in sorted(f.reminders))
    lines = [
        f"decisions {f.decisions}, answered by players {f.answers}, deadlines reached {f.expired} "
        f"(answered by the table {f.defaulted}); ticks run {f.ticks} (still due right after: {f.hot}); restarts {f.restarts} "
        f"(after a crashed tick {f.crashes}); messages {f.messages}; games by server kind {dict(f.modes)}",
        f"reminders per decision: max {f.max_reminders} (≤ 2), distribution {{{distribution}}}",
        f"pings inside someone's quiet hours: {len(f.quiet_pings)} (0)",
        f"doubled reminders: {len(f.doubled)} (0), lost reminders: {len(f.lost)} (0)",
        f"deadlines more than one tick late or never handled: {len(f.late)} (0)",
        f"wall time: {f.wall:.1f} s",
    ]
    for name, found in (("quiet", f.quiet_pings), ("doubled", f.doubled), ("lost", f.lost), ("late", f.late)):
        lines += [f"  {name}: {item}" for item in found[:5]]
    return lines


async def simulate(games: int, days: float, seed: int, url: str | None = None) -> Figures:
    schema = f"bench_sim_{os.getpid()}" if url else None
    sim = Simulation(games, days, seed)
    with tempfile.TemporaryDirectory() as tmp, use(sim.clock):
        bot = await open_bot(Path(tmp) / "sim.sqlite3", url, schema)
        try:
            world = World(bot)
            return await sim.run(bot, world)
        finally:
            await bot.close()
            if url and schema:
                await drop_schema(url, schema)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--part", choices=("tick", "simulation", "both"), default="both")
    parser.add_argument("--database-url", default=os.environ.get("BAUTA_TEST_DATABASE_URL") or None)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sim-games", type=int, default=200)
    parser.add_argument("--days", type=float, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="20 games over 3 days; a 10,000-game tick")
    args = parser.parse_args(argv)
    if args.quick:
        args.sim_games, args.days, args.games, args.runs = 20, 3, 10_000, 5
    if args.part in ("tick", "both"):
        await bench_tick(args, None)
        if args.database_url:
            await bench_tick(args, args.database_url)
    if args.part in ("simulation", "both"):
        print(f"simulation: {args.sim_games} games × 4 players over {args.days:g} days (seed {args.seed})", flush=True)
        figures = await simulate(args.sim_games, args.days, args.seed)
        print("\n".join(report(figures)))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
