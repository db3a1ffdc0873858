"""How late the event loop runs while the bot thinks: its p99 lag idle, with one hard bot thinking
and with four thinking in parallel games, with the decisions in worker threads (as before the
thinking pool) and in the pool's child processes (cogs/host/thinking.py).

    python3 bench/loop_lag.py [--runs 3] [--seconds 8] [--bots 0,1,4] [--modes thread,pool]

A probe sleeps 1 ms again and again on the loop and records how much later than asked it woke:
what a click arriving at that moment would wait before the loop looked at it. Each "bot" is a game
whose hard bot decides again and again (seeded decision points of Klash! and Carnevale, reached by
random play), through `thinking.think` exactly as `botplayer.drive` calls it; `thread` mode sends
every level to a thread (the code before the pool). The pool is started and warmed before a run
(a bot's first decision pays for it once). Printed per setting: the lag's p50 and p99 of each run,
then the median and the spread of the p99 over the runs, and the decisions made per second.
Figures: docs/benchmarks.md, "Bot thinking off the loop".
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import content  # noqa: E402
from cogs.host import thinking  # noqa: E402
from rules.common.engine import Actor  # noqa: E402
from rules.common.player import decide, mover, moves  # noqa: E402
from rules.common.rng import Rng  # noqa: E402

LEVEL, CAP = "hard", 6.0          # botplayer.SECONDS["hard"]
PERIOD = 0.001                    # the probe's sleep


def decision_points(n: int) -> list[tuple[str, object, object, str]]:
    """`n` (system, player, state, seat) where the seat chooses between two answers or more, half
    Klash!, half Carnevale, from games played by random moves (seeded: the same every run)."""
    from content import sample_pack
    from rules.carnevale import AI as CARNEVALE
    from rules.klash import AI as KLASH
    makers = [("klash", KLASH, lambda s: KLASH.engine.new_game(["1", "2"], {"pack": sample_pack("klash")}, seed=s)),
              ("carnevale", CARNEVALE, lambda s: CARNEVALE.engine.new_game(
                  ["1", "2"], {"pack": sample_pack("carnevale"), "points": 100, "rounds": 3}, seed=s))]
    found: list[tuple[str, object, object, str]] = []
    rng = Rng.from_seed(1)
    for game in range(1000):
        system, ai, make = makers[game % 2]
        state = make(game)
        for _ in range(20 + rng.below(40)):
            if ai.engine.is_over(state) or (seat := mover(ai, state)) is None:
                break
            state = ai.engine.apply(state, decide(ai, state, seat, "random", rng), Actor(seat)).state
        seat = mover(ai, state)
        if seat is not None and not ai.engine.is_over(state) and len(moves(ai, state, seat, Rng(0))) >= 2:
            found.append((system, ai, state, seat))
        if len(found) >= n:
            break
    return found


async def _bot(points, index: int, stop: float, made: list[int]) -> None:
    i = index
    while time.monotonic() < stop:
        system, ai, state, seat = points[i % len(points)]
        await thinking.think(system, ai, state, seat, LEVEL, f"lag{i}", CAP)
        made[0] += 1
        i += 4


async def _probe(stop: float, lags: list[float]) -> None:
    while time.monotonic() < stop:
        asked = time.perf_counter()
        await asyncio.sleep(PERIOD)
        lags.append(time.perf_counter() - asked - PERIOD)


async def one_run(points, bots: int, seconds: float) -> tuple[float, float, float]:
    """(p50 ms, p99 ms, decisions per second) of one run."""
    stop = time.monotonic() + seconds
    lags: list[float] = []
    made = [0]
    await asyncio.gather(_probe(stop, lags), *(_bot(points, b, stop, made) for b in range(bots)))
    lags.sort()
    return lags[len(lags) // 2] * 1e3, lags[int(len(lags) * 0.99)] * 1e3, made[0] / seconds


async def warm(points) -> None:
    """Start the pool's children and give each a decision (their first pays for the fork)."""
    system, ai, state, seat = points[0]
    await asyncio.gather(*(thinking.think(system, ai, state, seat, LEVEL, f"warm{w}", CAP)
                           for w in range(thinking.WORKERS)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--bots", default="0,1,4")
    parser.add_argument("--modes", default="thread,pool")
    args = parser.parse_args()
    content.install()
    points = decision_points(24)
    heavy = thinking.HEAVY
    print(f"{os.cpu_count()} cores, {thinking.WORKERS} pool workers, {len(points)} decision points, "
          f"{args.seconds:g} s a run, load average {os.getloadavg()[0]:.1f}", flush=True)
    modes, settings = args.modes.split(","), [int(b) for b in args.bots.split(",")]
    results: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
    # runs interleaved (each run of every setting, then the next run): on a shared machine the
    # others' load drifts, and both modes should see the same drift
    for _ in range(args.runs):
        for mode in modes:
            thinking.HEAVY = heavy if mode == "pool" else frozenset()
            if mode == "pool":
                asyncio.run(warm(points))
            for bots in settings:
                results.setdefault((mode, bots), []).append(asyncio.run(one_run(points, bots, args.seconds)))
        print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    print(f"\n{'mode':6} {'bots':>4}  {'p50 / p99 ms of each run':40} {'p99 median [min-max]':24} decisions/s")
    for (mode, bots), runs in results.items():
        p99 = [r[1] for r in runs]
        each = ", ".join(f"{r[0]:.2f}/{r[1]:.2f}" for r in runs)
        rate = statistics.median(r[2] for r in runs)
        print(f"{mode:6} {bots:>4}  {each:40} {statistics.median(p99):6.2f} [{min(p99):.2f}-{max(p99):.2f}]"
              f"{'':9} {rate:.1f}")
    thinking.shutdown()


if __name__ == "__main__":
    main()
