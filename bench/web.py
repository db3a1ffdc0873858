"""The web companion's benchmark: many viewers on Klash! drafts, their pages, their live streams.

    python bench/web.py [--quick] [--viewers 200] [--games 20] [--requests 400] [--concurrency 20]
                        [--moves 20] [--clicks 100] [--interval 0.1] [--profile]

A real bot over a SQLite temp file and the fake Discord world of the tests (tests/support/fakes.py),
its web companion on an ephemeral port; Klash! drafts started through the cog and picked by
clicking the message that carries the pick, as tests/cogs/test_klash.py does. The viewers are
aiohttp clients in a separate process (this file with `--client`, driven over its stdin and
stdout), so that the server process's memory and CPU are its own. All of them come from
127.0.0.1: the companion is given a rate budget and a live-stream cap per address far above the
defaults (web/guard.py `Budget`, `Pages(live_per_address=...)`), which would otherwise refuse them.

Two layouts of `--viewers` viewers, each holding an open `/live` stream (server-sent events) and,
on each `data:` line, fetching its `/table` fragment and then the board picture the fragment names,
as the page's script and the browser do: **one game** (every viewer on one draft: its two players,
the rest spectators) and **`--games` games** (the viewers spread over them). For each:

- **memory per live connection**, server side: the traced (tracemalloc) growth of the server
  process while its streams open, over their number; and its RSS growth, measured on a first
  opening without tracemalloc (the streams closed and opened again for the traced one);
- **pages**: `--requests` GETs of a game's page and as many of its `/table` fragment,
  `--concurrency` in flight, p50 / p99 as the client sees them;
- **move → last viewer**: `--moves` picks one after another (the next once every viewer has the
  last); per pick, the time from the click until the last of the game's viewers read its `data:`
  line, had fetched its fragment, and had fetched its picture too.

Then **click latency**: `--clicks` picks paced every `--interval` s round the games of the second
layout, with no viewer at all (twice: before and after) and with the viewers open and refreshing
on each move: p50 / p99 of the click answered (its action committed) and of the click handled (its
publish done), as bench/run.py times them; and, from the same paced picks, move → last viewer.
`--profile`: cProfile's top functions of the server over the one-game moves. `--quick`: a few viewers.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import os
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import BautaBot, Config  # noqa: E402
from cogs.host import systems  # noqa: E402
from rules.klash import ENGINE  # noqa: E402
from tests.support.duel import register as register_duel  # noqa: E402
from tests.support.fakes import Sent, World, click, component_of  # noqa: E402
from web import links  # noqa: E402
from web.pages import HEARTBEAT  # noqa: E402
from web.server import Companion, WebConfig  # noqa: E402

WEB = WebConfig(bind=("127.0.0.1", 0), public_url="", rate=1e9, burst=1e9)
LIVE_PER_ADDRESS = 1_000_000          # every viewer is 127.0.0.1
GUILD = 1
VERSION = re.compile(rb'data-version="(\d+)"')
BOARD = re.compile(rb'<img id="board" src="([^"]+)"')
GOALS = {"move": "≤ 1 s p99", "memory": "≤ 64 KB a connection", "click": "≤ 10 % slower at p50"}


def ms(seconds: float) -> float:
    return seconds * 1000


def p50_p99(samples: list[float]) -> tuple[float, float]:
    if not samples:
        return float("nan"), float("nan")
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# ================================================================================ the viewers' process
class Viewer:
    """One browser tab: its live stream, and on each `data:` line its fragment, then its picture."""

    def __init__(self, session: aiohttp.ClientSession, game: int, link: str, version: int, fetch: bool):
        self.session, self.game, self.link, self.version, self.fetch = session, game, link, version, fetch
        self.data: list[tuple[int, float]] = []        # (version, when its line was read)
        self.fetched: list[tuple[int, float]] = []     # (version the fragment showed, when read)
        self.pictured: list[tuple[int, float]] = []    # (that version, when its picture was read)
        self.opened = asyncio.Event()
        self.failed = ""
        self._busy = self._again = False
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        try:
            async with self.session.get(f"{self.link}/live?v={self.version}") as stream:
                if stream.status != 200:
                    self.failed = f"live {stream.status}"
                    return
                async for raw in stream.content:
                    if raw.startswith(b"retry:"):
                        self.opened.set()
                    elif raw.startswith(b"data:"):
                        self.data.append((int(raw[5:]), time.perf_counter()))
                        if self.fetch:
                            self.refresh()
        except (aiohttp.ClientError, ValueError) as exc:
            self.failed = repr(exc)
        finally:
            self.opened.set()

    def refresh(self) -> None:
        if self._busy:
            self._again = True
            return
        self._busy = True
        asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        try:
            while True:
                self._again = False
                async with self.session.get(f"{self.link}/table") as answer:
                    body = await answer.read()
                found = VERSION.search(body)
                if answer.status != 200 or not found:
                    self.failed = f"table {answer.status}"
                    return
                version = int(found.group(1))
                self.fetched.append((version, time.perf_counter()))
                board = BOARD.search(body)
                if board:
                    path = board.group(1).decode().replace("&amp;", "&")
                    async with self.session.get(self.link.split("/g/")[0] + path) as picture:
                        await picture.read()
                self.pictured.append((version, time.perf_counter()))
                if not self._again:
                    return
        except aiohttp.ClientError as exc:
            self.failed = repr(exc)
        finally:
            self._busy = False

    def first(self, what: list[tuple[int, float]], version: int) -> float | None:
        return next((when for v, when in what if v >= version), None)


class Clients:
    def __init__(self) -> None:
        self.viewers: list[Viewer] = []
        self.session: aiohttp.ClientSession | None = None

    async def open(self, streams: list[list], fetch: bool) -> dict:
        connector = aiohttp.TCPConnector(limit=0)
        self.session = aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None))
        self.viewers = [Viewer(self.session, game, link, version, fetch) for game, link, version in streams]
        await asyncio.gather(*(v.opened.wait() for v in self.viewers))
        return {"opened": sum(not v.failed for v in self.viewers), "failed": [v.failed for v in self.viewers if v.failed]}

    async def seen(self, moves: list[list], timeout: float) -> dict:
        """For each (game, version): when each of its viewers read the line, the fragment, the picture."""
        deadline = time.perf_counter() + timeout
        out = []
        for game, version in moves:
            mine = [v for v in self.viewers if v.game == game]
            while time.perf_counter() < deadline and not all(
                    v.first(v.pictured if v.fetch else v.data, version) is not None or v.failed for v in mine):
                await asyncio.sleep(0.005)
            out.append([[v.first(v.data, version), v.first(v.fetched, version), v.first(v.pictured, version)]
                        for v in mine])
        return {"seen": out}

    async def close(self) -> dict:
        for viewer in self.viewers:
            viewer.task.cancel()
        await asyncio.gather(*(v.task for v in self.viewers), return_exceptions=True)
        if self.session is not None:
            await self.session.close()
        n, self.viewers = len(self.viewers), []
        return {"closed": n}


async def get_many(urls: list[str], n: int, concurrency: int) -> dict:
    """`n` GETs round `urls`, `concurrency` in flight: each one's time, and how many failed."""
    times: list[float] = []
    bad = 0
    queue = iter(range(n))
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        async def worker() -> None:
            nonlocal bad
            for i in queue:
                start = time.perf_counter()
                async with session.get(urls[i % len(urls)]) as answer:
                    await answer.read()
                    bad += answer.status != 200
                times.append(time.perf_counter() - start)
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return {"times": times, "bad": bad}


async def client_main() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    clients = Clients()
    while line := await reader.readline():
        ask = json.loads(line)
        op = ask.pop("op")
        if op == "quit":
            break
        if op == "get":
            said = await get_many(**ask)
        elif op == "open":
            said = await clients.open(**ask)
        elif op == "seen":
            said = await clients.seen(**ask)
        else:
            said = await clients.close()
        sys.stdout.write(json.dumps(said) + "\n")
        sys.stdout.flush()
    await clients.close()


class Remote:
    """The viewers' process, seen from the server's."""

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--client", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=1 << 26)

    async def ask(self, op: str, **what: Any) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps({"op": op, **what}) + "\n").encode())
        await self.proc.stdin.drain()
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the viewers' process ended")
        return json.loads(line)

    async def stop(self) -> None:
        if self.proc.returncode is None:
            with_stdin = self.proc.stdin
            if with_stdin is not None:
                with_stdin.write(b'{"op": "quit"}\n')
                with_stdin.close()
            await self.proc.wait()


# ================================================================================ the bot's side
@dataclass
class Table:
    game_id: int
    channel_id: int
    seats: list[int]
    links: list[str] = field(default_factory=list)


def prompt_message(world: World, table: Table, prompt_id: str) -> Sent:
    wanted = f":{table.game_id}:{prompt_id}"
    for message in reversed(world.sent.by_where.get(f"channel:{table.channel_id}", [])):
        if not message.deleted and any(wanted in cid for cid in message.custom_ids()):
            return message
    raise LookupError(prompt_id)


async def start(bot: BautaBot, world: World, index: int) -> Table:
    channel = world.channel(1000 + index)
    a, b = world.user(10_000 + 2 * index, f"a{index}"), world.user(10_001 + 2 * index, f"b{index}")
    cog = bot.get_cog("KlashCog")
    await cog.draft.callback(cog, world.interaction(a, channel), opponent=b)
    game = await bot.store.active_game(GUILD, channel.id)
    assert game is not None and game.system == "klash"
    return Table(game.id, channel.id, [a.id, b.id])


async def pick(bot: BautaBot, world: World, table: Table, rnd: random.Random) -> tuple[float, float, float, int]:
    """One pick clicked on its message: (when the click began, answered after, handled after, new version)."""
    record = await bot.store.game(table.game_id)
    state = ENGINE.load_state(record.state)
    if state.phase != "draft":
        raise RuntimeError(f"game {table.game_id}: the auction is over (ask for fewer moves or clicks)")
    prompt = ENGINE.pending(state)[0]
    message = prompt_message(world, table, prompt.id)
    index, values = component_of(message, prompt, rnd.choice(prompt.options).id)
    handling = click(world, message, world.users[int(prompt.player)], index=index, values=values,
                     channel=world.channels[table.channel_id])
    began = time.perf_counter()
    interaction = await handling
    handled = time.perf_counter() - began
    assert interaction.response.answered_at is not None
    return began, interaction.response.answered_at - began, handled, record.version + 1


async def link_for(bot: BautaBot, world: World, table: Table, user_id: int) -> str:
    """A player's link as `/game web` gives it; anyone else's a spectator's, minted as it would."""
    assert bot.web is not None
    if user_id in table.seats:
        cog = bot.get_cog("GameCog")
        await cog.web.callback(cog, world.interaction(world.users[user_id], world.channels[table.channel_id]))
        said = world.sent.by_where[f"ephemeral:{user_id}"][-1].content
        found = re.search(r"(http://127\.0\.0\.1:\d+/g/\S+?/\d+)", said or "")
        assert found, said
        return found.group(1)
    url, _ = await bot.web.mint(GUILD, table.game_id, user_id, links.SPECTATOR)
    return url


@dataclass
class Figures:
    viewers: int
    games: int
    pages: dict[str, list[float]] = field(default_factory=dict)      # "<layout> page|table" → seconds
    bad_pages: int = 0
    moves: dict[str, list[list[float]]] = field(default_factory=dict)  # layout → per move [line, fragment, picture]
    missed: dict[str, int] = field(default_factory=dict)    # layout → viewer-moves never seen
    memory: dict[str, tuple[float, float]] = field(default_factory=dict)   # layout → (traced, RSS) bytes a stream
    clicks: dict[str, list[tuple[float, float]]] = field(default_factory=dict)   # condition → (answered, handled)
    opened: dict[str, int] = field(default_factory=dict)
    profile: str = ""
    wall: float = 0.0


class Bench:
    def __init__(self, args: argparse.Namespace, bot: BautaBot, world: World, remote: Remote):
        self.args, self.bot, self.world, self.remote = args, bot, world, remote
        self.rnd = random.Random(args.seed)
        self.figures = Figures(args.viewers, args.games)

    async def version(self, table: Table) -> int:
        record = await self.bot.store.game(table.game_id)
        return record.version

    async def open(self, layout: str, viewers: list[tuple[Table, str]]) -> None:
        """The viewers' streams, opened twice: RSS growth, then (closed and opened again) traced growth."""
        streams = [[t.game_id, url, await self.version(t)] for t, url in viewers]
        n = len(streams)
        gc.collect()
        before = rss()
        said = await self.remote.ask("open", streams=streams, fetch=True)
        await asyncio.sleep(0.2)
        grown = rss() - before
        await self.remote.ask("close")
        await self.settle(0)
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        said = await self.remote.ask("open", streams=streams, fetch=True)
        await asyncio.sleep(0.2)
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        self.figures.memory[layout] = (traced / n, grown / n)
        self.figures.opened[layout] = said["opened"]
        if said["failed"]:
            raise RuntimeError(f"{len(said['failed'])} streams refused: {said['failed'][:3]}")

    async def settle(self, expected: int, timeout: float = HEARTBEAT + 5) -> None:
        """Until the server holds `expected` open streams: a stream its reader closed ends at its
        next write, the heartbeat at the latest (aiohttp does not tell an idle handler)."""
        assert self.bot.web is not None
        if self.args.quick:
            return          # the RSS of a later opening may then reuse the memory of streams not yet ended
        deadline = time.perf_counter() + timeout
        live = self.bot.web.pages._live
        while sum(live.values()) != expected and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)

    async def pages(self, layout: str, viewers: list[tuple[Table, str]]) -> None:
        urls = [url for _, url in viewers]
        for kind, suffix in (("page", ""), ("table", "/table")):
            said = await self.remote.ask("get", urls=[u + suffix for u in urls], n=self.args.requests,
                                         concurrency=self.args.concurrency)
            self.figures.pages[f"{layout} {kind}"] = said["times"]
            self.figures.bad_pages += said["bad"]

    async def moves(self, layout: str, tables: list[Table], viewers: int) -> None:
        """Picks one after another, each once every viewer of the last one has it."""
        profile = cProfile.Profile() if self.args.profile and layout == "one game" else None
        out, missed = [], 0
        for i in range(self.args.moves):
            table = tables[i % len(tables)]
            if profile:
                profile.enable()
            began, answered, handled, version = await pick(self.bot, self.world, table, self.rnd)
            seen = (await self.remote.ask("seen", moves=[[table.game_id, version]], timeout=10.0))["seen"][0]
            if profile:
                profile.disable()
            self.figures.clicks.setdefault(f"{viewers} viewers, one after another ({layout})", []).append(
                (answered, handled))
            missed += sum(any(t is None for t in s) for s in seen)
            got = [s for s in seen if None not in s]
            if got:
                out.append([max(s[k] for s in got) - began for k in range(3)])
        self.figures.moves[layout] = out
        self.figures.missed[layout] = missed
        if profile:
            text = io.StringIO()
            pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(25)
            self.figures.profile = text.getvalue()

    async def paced(self, condition: str, tables: list[Table], watched: bool) -> None:
        """`--clicks` picks round the tables, one every `--interval` s: each click's answer and handling."""
        made = []
        at = time.perf_counter()
        for i in range(self.args.clicks):
            at += self.args.interval
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            table = tables[i % len(tables)]
            began, answered, handled, version = await pick(self.bot, self.world, table, self.rnd)
            self.figures.clicks.setdefault(condition, []).append((answered, handled))
            made.append((table.game_id, version, began))
        if watched:
            seen = (await self.remote.ask("seen", moves=[[g, v] for g, v, _ in made], timeout=20.0))["seen"]
            out = []
            for (_, _, began), viewers in zip(made, seen, strict=True):
                self.figures.missed["paced"] = self.figures.missed.get("paced", 0) + sum(
                    any(t is None for t in s) for s in viewers)
                got = [s for s in viewers if None not in s]
                if got:
                    out.append([max(s[k] for s in got) - began for k in range(3)])
            self.figures.moves["paced"] = out

    async def run(self) -> Figures:
        args, bot, world = self.args, self.bot, self.world
        started = time.perf_counter()
        await bot.store.set_house_rule(GUILD, "klash", systems.WEB_SPECTATORS, True)
        watched = [await start(bot, world, i) for i in range(args.games)]
        plain = [await start(bot, world, args.games + i) for i in range(args.games)]
        lone = await start(bot, world, 2 * args.games)
        alone = await start(bot, world, 2 * args.games + 1)
        warm = await start(bot, world, 2 * args.games + 2)      # the process's first clicks and pages, not timed
        for _ in range(3):
            await pick(bot, world, warm, self.rnd)
        warm_link = await link_for(bot, world, warm, warm.seats[0])
        await self.remote.ask("get", urls=[warm_link, f"{warm_link}/table"], n=10, concurrency=2)
        spectator = iter(range(1_000_000, 2_000_000))

        async def viewers_of(table: Table, n: int) -> list[tuple[Table, str]]:
            people = table.seats[:n] + [next(spectator) for _ in range(max(0, n - 2))]
            return [(table, await link_for(bot, world, table, user)) for user in people]

        one = await viewers_of(lone, args.viewers)
        each = max(1, args.viewers // args.games)
        spread = [v for table in watched for v in await viewers_of(table, each)]

        for _ in range(args.moves):      # the one-game moves' baseline: a draft as far on, nobody watching
            _, answered, handled, _ = await pick(bot, world, alone, self.rnd)
            self.figures.clicks.setdefault("0 viewers, one after another (one game)", []).append((answered, handled))
        await self.paced("0 viewers, paced (before)", plain, watched=False)
        for layout, viewers, tables in (("one game", one, [lone]), (f"{args.games} games", spread, watched)):
            await self.open(layout, viewers)
            await self.pages(layout, viewers)
            await self.moves(layout, tables, len(viewers))
            if tables is watched:
                await self.paced(f"{len(viewers)} viewers ({args.games} games × {each}), paced, refreshing", watched,
                                 True)
            await self.remote.ask("close")
            await self.settle(0)
        await self.paced("0 viewers, paced (after)", plain, watched=False)
        self.figures.wall = time.perf_counter() - started
        return self.figures


def baseline(f: Figures, condition: str) -> list[tuple[float, float]]:
    """The clicks with nobody watching to compare a condition's with: one after another, or paced."""
    kind = "one after another" if "one after another" in condition else "paced"
    return [c for name, samples in f.clicks.items() if name.startswith("0 viewers") and kind in name for c in samples]


def report(f: Figures) -> list[str]:
    lines = [f"{f.viewers} viewers, in two layouts: one game, and {f.games} games; wall time {f.wall:.1f} s"]
    for layout, (traced, grown) in f.memory.items():
        lines.append(f"memory per live connection ({layout}, {f.opened[layout]} open): traced {traced / 1024:.1f} KB, "
                     f"RSS {grown / 1024:.1f} KB (goal {GOALS['memory']})")
    for name, samples in f.pages.items():
        p50, p99 = p50_p99(samples)
        lines.append(f"GET {name}: p50 {ms(p50):.1f} ms, p99 {ms(p99):.1f} ms ({len(samples)} requests)")
    lines.append(f"pages refused or failed: {f.bad_pages}")
    for layout, moves in f.moves.items():
        parts = []
        for k, what in enumerate(("data: line", "+ fragment", "+ picture")):
            p50, p99 = p50_p99([m[k] for m in moves])
            parts.append(f"{what} p50 {ms(p50):.0f} / p99 {ms(p99):.0f} ms")
        lines.append(f"move → last viewer ({layout}, {len(moves)} moves): " + ", ".join(parts)
                     + f"; viewer-moves missed {f.missed.get(layout, 0)} (goal {GOALS['move']})")
    for condition, samples in f.clicks.items():
        a50, a99 = p50_p99([a for a, _ in samples])
        h50, h99 = p50_p99([h for _, h in samples])
        line = (f"click ({condition}, {len(samples)}): answered p50 {ms(a50):.2f} / p99 {ms(a99):.2f} ms, "
                f"handled p50 {ms(h50):.2f} / p99 {ms(h99):.2f} ms")
        if not condition.startswith("0 viewers"):
            base = baseline(f, condition)
            line += (f"; vs 0 viewers p50 answered {a50 / p50_p99([a for a, _ in base])[0] - 1:+.0%}, handled "
                     f"{h50 / p50_p99([h for _, h in base])[0] - 1:+.0%} (goal {GOALS['click']})")
        lines.append(line)
    return lines


async def bench(args: argparse.Namespace) -> Figures:
    with tempfile.TemporaryDirectory() as tmp:
        bot = BautaBot(Config(token=None, db_path=str(Path(tmp) / "web.sqlite3"), dev_guild=None,
                              log_level="ERROR"))
        await bot.prepare()
        register_duel()
        assert bot.host is not None
        bot.web = Companion(bot.host, WEB, live_per_address=LIVE_PER_ADDRESS)
        await bot.start_web()
        world = World(bot)
        remote = Remote()
        await remote.start()
        try:
            return await Bench(args, bot, world, remote).run()
        finally:
            await remote.stop()
            await bot.close()


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--clicks", type=int, default=100)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--dump", help="write the figures to this file as JSON (every sample)")
    parser.add_argument("--quick", action="store_true", help="8 viewers over 4 games, a few moves and clicks")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.viewers, args.games, args.requests, args.concurrency = 8, 4, 16, 4
        args.moves, args.clicks, args.interval = 4, 8, 0.02
    return args


async def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    if args.client:
        await client_main()
        return 0
    figures = await bench(args)
    print("\n".join(report(figures)))
    if args.dump:
        Path(args.dump).write_text(json.dumps(asdict(figures)))
    if figures.profile:
        print(figures.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
