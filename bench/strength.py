"""How well the bot plays: seeded matches between levels, printed as a table.

    python3 bench/strength.py [--games 200] [--seed 1] [--games-only klash,carnevale] [--match normal:random,...]

For Klash! and Carnevale: normal vs random, normal vs greedy, hard vs normal over N games each, seats
alternated (the first level plays seat 0 in even games); a draw counts half. Then the decision time
p50/p95 per level (only decisions with a real choice: two or more candidates) and the memory one
decision allocates at its peak (tracemalloc, measured on every 10th such decision, in a separate pass so
the timing is not slowed by it). Targets (issue 16): normal beats random in >= 95% and greedy in >= 65%,
hard beats normal in > 50%; a normal decision <= 2 s on a 2-core machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.common.engine import Actor
from rules.common.player import decide, deciders, level, moves, seed_for
from rules.common.rng import Rng

TARGETS = {("normal", "random"): 0.95, ("normal", "greedy"): 0.65, ("hard", "normal"): 0.5}
SEATS = ["1", "2"]


def games():
    from rules.carnevale.ai import AI as CARNEVALE
    from rules.klash.ai import AI as KLASH
    return {
        "klash": (KLASH, lambda seed: KLASH.engine.new_game(SEATS, {}, seed=seed)),
        "carnevale": (CARNEVALE, lambda seed: CARNEVALE.engine.new_game(SEATS, {}, seed=seed)),
    }


def play(ai, state, levels: dict[str, str], seed: int, times: dict, memory: dict, measure_memory: bool):
    n = 0
    while not ai.engine.is_over(state):
        who = deciders(ai, state)
        if not who:
            raise RuntimeError("no one to decide")
        seat = who[0]
        lvl = levels[seat]
        rng = seed_for(ai, state, seat, f"bench{seed}")
        real = len(moves(ai, state, seat, Rng(0))) >= 2
        if real and measure_memory and n % 10 == 0:
            tracemalloc.start()
            decide(ai, state, seat, lvl, Rng(rng.state))
            memory.setdefault(lvl, []).append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        start = time.perf_counter()
        choice = decide(ai, state, seat, lvl, rng)
        if real:
            times.setdefault(lvl, []).append(time.perf_counter() - start)
            n += 1
        state = ai.engine.apply(state, choice, Actor(seat)).state
    return state


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per match-up (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="klash,carnevale", help="games to run, comma-separated")
    parser.add_argument("--match", default="normal:random,normal:greedy,hard:normal",
                        help="match-ups a:b, comma-separated")
    parser.add_argument("--memory", action="store_true", help="also measure memory per decision (slower)")
    args = parser.parse_args()
    table = games()
    rows = []
    times: dict[str, dict[str, list[float]]] = {}
    memory: dict[str, dict[str, list[int]]] = {}
    for name in args.only.split(","):
        ai, make = table[name]
        for pair in args.match.split(","):
            a, b = pair.split(":")
            level(a), level(b)
            score = 0.0
            started = time.perf_counter()
            for g in range(args.games):
                seed = args.seed * 100_000 + g
                levels = {SEATS[0]: a, SEATS[1]: b} if g % 2 == 0 else {SEATS[0]: b, SEATS[1]: a}
                final = play(ai, make(seed), levels, seed, times.setdefault(name, {}),
                             memory.setdefault(name, {}), args.memory)
                winner = getattr(final, "winner", None)
                mine = SEATS[0] if g % 2 == 0 else SEATS[1]
                score += 1.0 if winner == mine else (0.5 if not winner else 0.0)
                print(f"  {name} {a} vs {b}: game {g + 1}/{args.games}, {a} {score:g}", file=sys.stderr, flush=True)
            target = TARGETS.get((a, b))
            rate = score / args.games
            rows.append((name, f"{a} vs {b}", args.games, f"{100 * rate:.1f}%",
                         f"{'>' if (a, b) == ('hard', 'normal') else '>='}{100 * target:.0f}%" if target else "",
                         ("yes" if (rate > target if (a, b) == ("hard", "normal") else rate >= target) else "NO")
                         if target else "", f"{time.perf_counter() - started:.0f}s"))
    print(f"\nBot strength (seed {args.seed}, {args.games} games per match-up, seats alternated)\n")
    print(f"{'game':<10} {'match-up':<18} {'games':>5} {'won':>7} {'target':>7} {'met':>4} {'time':>7}")
    for row in rows:
        print(f"{row[0]:<10} {row[1]:<18} {row[2]:>5} {row[3]:>7} {row[4]:>7} {row[5]:>4} {row[6]:>7}")
    print(f"\n{'game':<10} {'level':<8} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'peak KiB':>9}")
    for name, per in times.items():
        for lvl, values in sorted(per.items()):
            mem = memory.get(name, {}).get(lvl, [])
            peak = f"{statistics.median(mem) / 1024:.0f}" if mem else "-"
            print(f"{name:<10} {lvl:<8} {len(values):>9} {1000 * pct(values, 0.5):>8.1f} {1000 * pct(values, 0.95):>8.1f}"
                  f" {1000 * max(values):>8.1f} {peak:>9}")


if __name__ == "__main__":
    main()
