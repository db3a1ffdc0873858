"""Load across processes: N bot processes × G guilds over one PostgreSQL, next to SQLite in one process.

    python bench/load.py --database-url postgresql://… [--processes 4] [--guilds 250] [--actions 12]

Each process is a real BautaBot (every cog loaded) over the shared database; its guilds play Duel
games back to back, interactions injected in process as bench/run.py does (fake Discord, real
store). A click is the persistent button's own callback, rebuilt from its custom_id, so a
process restarted mid-game goes on where the database says the game is.

Prints per backend: actions, wall time, throughput, p50/p99 per action. Then, unless
--no-kill, process 0 is killed (SIGKILL) mid-load and restarted; every acknowledged action is
journalled by the process that saw it acknowledged, and the action logs are checked against the
journals: acknowledged but missing (lost) and one decision applied twice (doubled) must both be 0.

The database URL may also come from BAUTA_TEST_DATABASE_URL (the one .ci/run starts).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GUILD_BASE = 1 << 40        # guild ids with room for shard bits (a guild's shard is (id >> 22) % count)


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    if not ordered:
        return 0.0, 0.0
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered) * 1000, p99 * 1000


# ---------------------------------------------------------------------------- one bot process
async def worker(args) -> None:
    from bot import BautaBot, Config
    from cogs.host import systems
    from cogs.host import prompt_view
    from tests.support.duel import register as register_duel
    from tests.support.fakes import FakeGuild, FakeInteraction, Sent, World, click

    config = Config(token=None, db_path=args.sqlite or "", dev_guild=None, log_level="WARNING",
                    # (the SQLite worker must not pick up BAUTA_TEST_DATABASE_URL, the URL's default)
                    database_url=None if args.sqlite else args.database_url, db_schema=args.schema)
    bot = BautaBot(config)
    await bot.prepare()
    register_duel()
    world = World(bot)
    engine = systems.get("duel").engine
    journal = open(args.journal, "a", buffering=1, encoding="utf-8")   # line-buffered: survives SIGKILL
    latencies: list[float] = []

    async def play(index: int) -> None:
        guild_id = GUILD_BASE + (args.worker * args.guilds + index)
        guild = FakeGuild(guild_id, owner_id=1)
        channel = world.channel(guild_id, f"table-{index}")
        a = world.user(guild_id * 10 + 1, "a")
        b = world.user(guild_id * 10 + 2, "b")
        rng = random.Random(guild_id)
        # --rate: the whole deployment's offered load, spread over its guilds (people do not
        # click flat out); 0: every guild as fast as it can (throughput, latency is queueing).
        interval = args.total_guilds / args.rate if args.rate else 0.0
        loop = asyncio.get_running_loop()
        next_at = loop.time() + rng.random() * interval
        done = sum([len(await bot.store.actions(g.id, limit=10_000)) for g in await bot.store.games(guild_id)])
        while done < args.actions:
            game = await bot.store.active_game(guild_id, channel.id)
            if game is None:
                interaction = FakeInteraction(world, a, channel, guild=guild)
                await interaction.response.defer(thinking=True)
                game = await bot.host.start(interaction, "duel", [str(a.id), str(b.id)], seed=rng.randrange(1 << 30))
            prompts = engine.pending(engine.load_state(game.state))
            if not prompts:
                break
            prompt = prompts[0]
            user = world.users[int(prompt.player)]
            message = Sent(where=f"dm:{user.id}" if prompt.private else f"channel:{channel.id}",
                           content=prompt.text, view=prompt_view(game.id, prompt))
            if interval:
                next_at += interval
                await asyncio.sleep(max(0.0, next_at - loop.time()))
            start = time.perf_counter()
            await click(world, message, user, index=rng.randrange(len(message.custom_ids())), channel=channel)
            latencies.append(time.perf_counter() - start)
            after = await bot.store.game(game.id)
            if after.version > game.version:      # applied (+1 more when it also ended the game)
                journal.write(f"{game.id} {game.version + 1}\n")    # acknowledged: the click's reply went out
                done += 1
            if len(world.sent) > 5000:
                world.sent.clear()

    began = time.time()          # wall clock: the orchestrator compares processes' spans
    await asyncio.gather(*(play(i) for i in range(args.guilds)))
    ended = time.time()
    journal.close()
    await bot.close()
    Path(args.result).write_text(json.dumps({"latencies": latencies, "began": began, "ended": ended}))


# ---------------------------------------------------------------------------- orchestration
def spawn(worker_index: int, args, folder: Path, schema: str | None, sqlite: str | None, guilds: int):
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(worker_index),
               "--guilds", str(guilds), "--actions", str(args.actions), "--rate", str(args.rate),
               "--total-guilds", str(args.processes * args.guilds),
               "--journal", str(folder / f"journal-{worker_index}.txt"),
               "--result", str(folder / f"result-{worker_index}-{time.monotonic_ns()}.json")]
    command += ["--sqlite", sqlite] if sqlite else ["--database-url", args.database_url, "--schema", schema]
    return subprocess.Popen(command, cwd=ROOT)


async def action_log(store, guilds: range) -> tuple[set[tuple[int, int]], int]:
    """(every (game, seq) in the action logs of these guilds, decisions applied more than once)."""
    applied: set[tuple[int, int]] = set()
    doubled = 0
    for guild_id in guilds:
        for game in await store.games(guild_id):
            rows = await store.actions(game.id, limit=100_000, include_undone=True)
            applied.update((game.id, r.seq) for r in rows)
            # Duel prompt ids name the decision (start, play-<player>-<turn>): a decision twice
            # in one game's log is one click applied twice.
            doubled += sum(n - 1 for n in Counter(json.dumps(r.action.get("prompt"), sort_keys=True)
                                                  for r in rows).values() if n > 1)
    return applied, doubled


def run_backend(label: str, args, processes: int, guilds: int, kill: bool) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bauta-load-"))
    schema = f"load_{uuid.uuid4().hex[:12]}" if args.database_url and label != "sqlite" else None
    sqlite = str(folder / "bauta.sqlite3") if label == "sqlite" else None
    procs = [spawn(i, args, folder, schema, sqlite, guilds) for i in range(processes)]
    killed = 0
    if kill:
        journal = folder / "journal-0.txt"
        target = guilds * args.actions // 2
        while procs[0].poll() is None:
            if journal.exists() and sum(1 for _ in journal.open()) >= target:
                procs[0].send_signal(signal.SIGKILL)
                procs[0].wait()
                killed = 1
                procs[0] = spawn(0, args, folder, schema, sqlite, guilds)    # restarted: resumes from the db
                break
            time.sleep(0.05)
    for proc in procs:
        if proc.wait() != 0:
            raise SystemExit(f"{label}: a bot process failed (exit {proc.returncode})")
    latencies: list[float] = []
    spans = []
    for result in folder.glob("result-*.json"):
        data = json.loads(result.read_text())
        latencies += data["latencies"]
        spans.append((data["began"], data["ended"]))
    # From the first process playing to the last one done: start-up (imports, migrations) and a
    # killed process's restart time inside the run count only when they hold the others up.
    wall = max(end for _, end in spans) - min(begin for begin, _ in spans)
    journalled = set()
    for journal in folder.glob("journal-*.txt"):
        journalled |= {tuple(map(int, line.split())) for line in journal.read_text().splitlines() if line.strip()}

    async def check():
        from db import open_store
        store = await open_store(sqlite or "", None if sqlite else args.database_url, schema)
        try:
            applied, doubled = await action_log(store, range(GUILD_BASE, GUILD_BASE + processes * guilds))
        finally:
            await store.close()
        if schema:
            import asyncpg
            conn = await asyncpg.connect(args.database_url)
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()
        return applied, doubled
    applied, doubled = asyncio.run(check())
    shutil.rmtree(folder, ignore_errors=True)
    p50, p99 = percentiles(latencies)
    return {"label": label, "processes": processes, "guilds": processes * guilds, "actions": len(applied),
            "wall": wall, "p50": p50, "p99": p99, "killed": killed, "lost": len(journalled - applied),
            "doubled": doubled, "unacknowledged": len(applied - journalled)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("BAUTA_TEST_DATABASE_URL"))
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--guilds", type=int, default=250, help="guilds per process")
    parser.add_argument("--actions", type=int, default=12, help="game actions per guild")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="offered load of the whole deployment, actions/s (0: as fast as possible)")
    parser.add_argument("--no-kill", action="store_true", help="skip the kill-and-restart run")
    parser.add_argument("--total-guilds", type=int, help=argparse.SUPPRESS)
    # A worker (started by the orchestrator):
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--schema", help=argparse.SUPPRESS)
    parser.add_argument("--sqlite", help=argparse.SUPPRESS)
    parser.add_argument("--journal", help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        asyncio.run(worker(args))
        return
    if not args.database_url:
        raise SystemExit("give --database-url postgresql://… (or set BAUTA_TEST_DATABASE_URL)")
    runs = [run_backend("sqlite", args, 1, args.processes * args.guilds, kill=False),
            run_backend("postgresql", args, args.processes, args.guilds, kill=False)]
    if not args.no_kill:
        runs.append(run_backend("postgresql", args, args.processes, args.guilds, kill=True))
    load = f"offered {args.rate:g} actions/s" if args.rate else "as fast as they can"
    print(f"Bauta load: {args.processes * args.guilds} guilds × {args.actions} Duel actions, {load}, "
          f"in-process interactions, one database; {os.cpu_count()} CPU cores")
    print(f"{'backend':<12}{'processes':>10}{'guilds':>8}{'actions':>9}{'wall s':>8}{'actions/s':>11}"
          f"{'p50 ms':>9}{'p99 ms':>9}{'killed':>8}{'lost':>6}{'doubled':>9}")
    for r in runs:
        print(f"{r['label']:<12}{r['processes']:>10}{r['guilds']:>8}{r['actions']:>9}{r['wall']:>8.1f}"
              f"{r['actions'] / r['wall']:>11.0f}{r['p50']:>9.1f}{r['p99']:>9.1f}{r['killed']:>8}"
              f"{r['lost']:>6}{r['doubled']:>9}")
    bad = [r for r in runs if r["lost"] or r["doubled"]]
    if bad:
        raise SystemExit(f"lost or doubled actions: {bad}")


if __name__ == "__main__":
    main()
