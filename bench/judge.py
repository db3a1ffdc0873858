"""Which level chooses better, decision by decision: a cheaper, steadier signal than whole games.

    python3 bench/judge.py [--game carnevale] [--games 3] [--every 3] [--stride 3]
                           [--levels normal,hard] [--judge 1500]

Plays ``--games`` seeded games of ``normal`` against itself and keeps every ``--every``-th real decision
(two or more candidates), then every ``--stride``-th of those. At each kept decision every level of
``--levels`` chooses (``hard@600``: hard with 600 iterations); where they differ, a ``--judge``-iteration
tree search over just their choices values each, and each level's choice is scored against the mean of
the choices. It prints, per level, how often its choice was valued best and worst, the summed advantage
and the CPU a decision took. Whole games are decided mostly by dice: a level's edge at 100 decisions
shows here after minutes, where a match needs hundreds of games. The judge is a deeper search of the
same kind, so it favours a search with more iterations: a hint, not a proof; the strength bench says.
"""
from __future__ import annotations

import argparse
import copy
import dataclasses
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.strength import games
from rules.common.engine import Actor
from rules.common.player import decide, deciders, level, moves, search, seed_for
from rules.common.rng import Rng


def lvl_of(spec: str):
    name, _, iterations = spec.partition("@")
    return dataclasses.replace(level(name), iterations=int(iterations)) if iterations else level(name)


def collect(ai, make, n: int, every: int, seed: int = 7) -> list:
    kept = []
    for g in range(n):
        state, k = make(seed * 100_000 + g), 0
        while not ai.engine.is_over(state):
            seat = deciders(ai, state)[0]
            if len(moves(ai, state, seat, Rng(0))) >= 2:
                k += 1
                if k % every == 0:
                    kept.append((copy.deepcopy(state), seat))
            choice = decide(ai, state, seat, "normal", seed_for(ai, state, seat, f"judge{g}"))
            state = ai.engine.apply(state, choice, Actor(seat)).state
    return kept


def judge(ai, decisions: list, specs: list[str], iterations: int) -> dict:
    """Per level: best / worst counts where the levels differ, summed advantage, CPU per decision."""
    oracle = dataclasses.replace(level("hard"), iterations=iterations, name="judge")
    out = {s: {"best": 0, "worst": 0, "advantage": 0.0, "cpu": 0.0} for s in specs}
    differ = 0
    for i, (state, seat) in enumerate(decisions):
        picks = {}
        for s in specs:
            start = time.process_time()
            choice = decide(ai, state, seat, lvl_of(s), seed_for(ai, state, seat, f"j{i}"))
            out[s]["cpu"] += time.process_time() - start
            picks[s] = (choice.prompt, tuple(choice.options))
        distinct = list(dict.fromkeys(picks.values()))
        if len(distinct) < 2:
            continue
        differ += 1
        root, _ = search(ai, state, seat, distinct, Rng(12345 + i), oracle)
        value = {m: ch.reward / ch.visits for m, ch in root.children.items() if ch is not None and ch.visits}
        mean = sum(value.get(m, 0.0) for m in distinct) / len(distinct)
        top, low = max(value.get(m, 0.0) for m in distinct), min(value.get(m, 0.0) for m in distinct)
        for s in specs:
            v = value.get(picks[s], 0.0)
            out[s]["advantage"] += v - mean
            out[s]["best"] += v == top and top > low
            out[s]["worst"] += v == low and top > low
    for s in specs:
        out[s]["cpu"] /= max(1, len(decisions))
    return {"decisions": len(decisions), "differ": differ, "levels": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="carnevale", choices=["carnevale", "klash", "klash-skirmish"])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--stride", type=int, default=3)
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--judge", type=int, default=1500, help="the judge's iterations")
    args = parser.parse_args()
    ai, make = games()[args.game]
    decisions = collect(ai, make, args.games, args.every)[::args.stride]
    got = judge(ai, decisions, args.levels.split(","), args.judge)
    print(f"{args.game}: {got['decisions']} decisions, the levels differ at {got['differ']} "
          f"(judge: {args.judge} iterations)")
    print(f"{'level':<12} {'best':>5} {'worst':>6} {'advantage':>10} {'cpu ms':>8}")
    for s, r in got["levels"].items():
        print(f"{s:<12} {r['best']:>5} {r['worst']:>6} {r['advantage']:>+10.3f} {1000 * r['cpu']:>8.0f}")


if __name__ == "__main__":
    main()
