"""How well the bot plays: seeded matches between levels, printed as a table with confidence intervals.

    python3 bench/strength.py [--games 200] [--seed 1] [--only klash,carnevale] [--match normal:random,...]
                              [--jobs 2] [--out results.jsonl] [--report [--config HASH]] [--memory]
                              [--verify K]

For Klash! and Carnevale: normal vs random, normal vs greedy, hard vs normal over N games each, seats
alternated (the first level plays seat 0 in even games); a draw counts half. Carnevale is a mirror match
(see ``mirror``). ``--only klash-skirmish``
plays a quick Klash! match instead: the last three Hourglasses of a 3-a-side fight. Each game is seeded by its
number alone, so a game gives the same result in any process and in any order: ``--jobs`` plays games in
parallel processes, ``--out`` appends each finished game to a JSON-lines file and skips the games already
in it (a long run can be stopped and resumed), ``--report`` only prints the table of that file.

Each result line records the ``config`` it was played with (a hash, per game, of the levels, the game's
set-up and the source of the rules and content that decide its play) and the git ``commit`` of the checkout.
A run refuses to add to a file holding games of that game played at another config (a resumed run must play
the same levels: resume it from the checkout at the recorded commit), and ``--report`` refuses to mix one
game's configs in one table (``--config`` picks them). A change to one game's bot leaves the other game's run
resumable. Each game also records its ``trace``, a hash of every seat and choice: ``--verify K`` replays K
of the file's games of another config at this checkout, and when all of them are played move for move the
same (trace, length, result) it records that this config plays as that one, so a run of many hours goes on
past an edit that does not change the play (an engine made faster, a module the bot never runs). The run
kept in the repository: ``bench/results/strength.jsonl``.

The table gives the win rate of the first level with its 95% Wilson interval: a margin is clear (not
noise) when the whole interval is above one half. Then the decision time p50/p95 per level (only
decisions with a real choice: two or more candidates) and, with ``--memory``, the memory one decision
allocates at its peak (tracemalloc, on every 10th such decision, in a separate pass so the timing is not
slowed by it). Targets (issue 16): normal beats random in >= 95% and greedy in >= 65%, hard beats normal
in > 50%; a normal decision <= 2 s on a 2-core machine.
"""
from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import math
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor, as_completed

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.common.engine import Actor
from rules.common.player import LEVELS, decide, deciders, level, moves, seed_for
from rules.common.rng import Rng

TARGETS = {("normal", "random"): 0.95, ("normal", "greedy"): 0.65, ("hard", "normal"): 0.5}
STRICT = {("hard", "normal")}           # "beats in more than", not "at least"
SEATS = ["1", "2"]
MAX_STEPS = 5_000       # a whole game takes a few hundred steps
Z95 = 1.959964


# A quick Klash! match (``klash-skirmish``): three gladiators a side a charge apart, the last three
# Hourglasses; who activates first alternates every two games, so across four games each level moves
# first from each seat.
SKIRMISH = {SEATS[0]: [("orc", 45, 50), ("archer", 40, 60), ("murmillo", 45, 70)],
            SEATS[1]: [("orc", 75, 50), ("archer", 80, 60), ("murmillo", 75, 70)]}
SKIRMISH_HOURGLASS = 6


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What decides how a seeded game of each kind is played: two results are comparable only if all of it is
# the same. Each game has its own config, so a change to Klash!'s bot leaves a Carnevale run resumable.
SOURCES = {"klash": ("rules/common", "rules/klash", "content/__init__.py", "content/klash"),
           "carnevale": ("rules/common", "rules/carnevale", "content/__init__.py", "content/carnevale")}
SOURCES["klash-skirmish"] = SOURCES["klash"]


def setup_of(name: str) -> object:
    """What a game's set-up adds to its config: the quick match's fight, the Carnevale mirror rule."""
    if name == "klash-skirmish":
        return SKIRMISH, SKIRMISH_HOURGLASS
    return inspect.getsource(mirror) if name == "carnevale" else None


def _files(tops: tuple[str, ...]):
    for top in tops:
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            yield path
        for folder, dirs, files in sorted(os.walk(path)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            yield from (os.path.join(folder, n) for n in sorted(files) if n.endswith((".py", ".yaml", ".yml", ".json")))


def config_hash(name: str) -> str:
    """A short hash of the levels, the game's set-up and every source file under its SOURCES."""
    h = hashlib.sha256(repr((name, sorted(LEVELS.items()), setup_of(name))).encode())
    for path in _files(SOURCES[name]):
        h.update(os.path.relpath(path, ROOT).encode())
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


def commit(name: str) -> str:
    """The checkout's git commit ("-dirty" when files that decide the game's play differ from it; "" outside
    git)."""
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", *SOURCES[name]],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("-dirty" if dirty else "")


def mirror(seed: int) -> dict:
    """Carnevale is played as a mirror match: both seats field the same faction, the next faction every
    second game (games 0 and 1 the first, 2 and 3 the second, …). With the pack's default pairing one
    faction won nearly every game between close levels from either seat, so alternating seats measured
    the factions (50% for any two levels), not the bot."""
    from content import sample_pack
    pack = sample_pack("carnevale")
    playable = [f for f in pack.factions if f not in pack.independent_factions]
    faction = playable[((seed % 100_000) // 2) % len(playable)]
    return {"factions": {seat: faction for seat in SEATS}}


def games(options: dict | None = None):
    """The games, each with how to set up a seeded one (``options``: the engine's set-up options, e.g.
    a smaller Carnevale ``{"points": 100, "rounds": 3}`` for a quick run)."""
    from content import sample_pack
    from rules.carnevale import AI as CARNEVALE
    from rules.klash import AI as KLASH
    opts = dict(options or {})

    def skirmish(seed: int):
        return KLASH.engine.new_skirmish(SEATS, SKIRMISH, seed=seed, options={"pack": sample_pack("klash"), **opts},
                                         hourglass=SKIRMISH_HOURGLASS, first=SEATS[(seed // 2) % 2])
    return {
        "klash": (KLASH, lambda seed: KLASH.engine.new_game(SEATS, {"pack": sample_pack("klash"), **opts}, seed=seed)),
        "carnevale": (CARNEVALE, lambda seed: CARNEVALE.engine.new_game(SEATS, {"pack": sample_pack("carnevale"),
                                                                                 **mirror(seed), **opts}, seed=seed)),
        "klash-skirmish": (KLASH, skirmish),
    }


def play(ai, state, levels: dict[str, str], seed: int, times: dict, memory: dict, measure_memory: bool,
         trace=None):
    """Play a game out; ``trace`` (a hash) is fed every seat and choice, so two runs of one seeded game can
    be told to have played the same moves."""
    n = steps = 0
    while not ai.engine.is_over(state):
        who = deciders(ai, state)
        if not who:
            raise RuntimeError("no one to decide")
        steps += 1
        if steps > MAX_STEPS:       # a bot going round in circles stops the run, loudly, instead of hanging it
            raise RuntimeError(f"game of seed {seed} still not over after {MAX_STEPS} steps")
        seat = who[0]
        lvl = levels[seat]
        rng = seed_for(ai, state, seat, f"bench{seed}")
        real = len(moves(ai, state, seat, Rng(0))) >= 2
        if real and measure_memory and n % 10 == 0:
            tracemalloc.start()
            decide(ai, state, seat, lvl, Rng(rng.state))
            memory.setdefault(lvl, []).append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        start = time.process_time()
        choice = decide(ai, state, seat, lvl, rng)
        if real:
            times.setdefault(lvl, []).append(time.process_time() - start)
            n += 1
        if trace is not None:
            trace.update(repr((seat, choice)).encode())
        state = ai.engine.apply(state, choice, Actor(seat)).state
    return state, steps


def one_game(name: str, a: str, b: str, g: int, base_seed: int, measure_memory: bool,
             options: dict | None = None, stamp: dict | None = None) -> dict:
    """Game `g` of the match-up a:b (seats alternated by g): the first level's score and the timings."""
    ai, make = games(options)[name]
    seed = base_seed * 100_000 + g
    levels = {SEATS[0]: a, SEATS[1]: b} if g % 2 == 0 else {SEATS[0]: b, SEATS[1]: a}
    times: dict[str, list[float]] = {}
    memory: dict[str, list[int]] = {}
    started = time.process_time()
    trace = hashlib.sha256()
    final, steps = play(ai, make(seed), levels, seed, times, memory, measure_memory, trace)
    winner = getattr(final, "winner", None)
    mine = SEATS[0] if g % 2 == 0 else SEATS[1]
    score = 1.0 if winner == mine else (0.5 if not winner else 0.0)
    return {"game": name, "a": a, "b": b, "g": g, "seed": base_seed, "options": options or {}, "score": score,
            "steps": steps, "trace": trace.hexdigest()[:16], "cpu": round(time.process_time() - started, 2),
            # to 10 µs: a results file is kept in the repository, and 17 digits a decision tripled it
            "times": {lvl: [round(t, 5) for t in values] for lvl, values in times.items()}, "memory": memory, **(stamp or {})}


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (draws count half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def load(path: str | None) -> list[dict]:
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def equivalences(lines: list[dict]) -> dict[str, str]:
    """Each config that ``--verify`` showed to play as an earlier one did -> that earlier config (the first
    of a chain)."""
    same: dict[str, str] = {}
    for r in lines:
        if "same_as" in r:
            same[r["config"]] = same.get(r["same_as"], r["same_as"])
    return same


def canonical(lines: list[dict]) -> list[dict]:
    """The games of a results file, each config named by the first config it plays the same as."""
    same = equivalences(lines)
    return [{**r, "config": same.get(r.get("config", "?"), r.get("config", "?"))} for r in lines if "same_as" not in r]


def spread(rows: list[dict], k: int) -> list[dict]:
    """``k`` of a config's games, spread evenly over its match-ups and game numbers."""
    rows = sorted((r for r in rows if "trace" in r), key=lambda r: (r["a"], r["b"], r["g"]))
    if len(rows) <= k:
        return rows
    return [rows[round(i * (len(rows) - 1) / max(1, k - 1))] for i in range(k)]


def verify(name: str, rows: list[dict], k: int, jobs: int, stamp: dict) -> tuple[list[dict], list[str]]:
    """Replay ``k`` recorded games of another config here: the games whose moves (trace), length or result
    differ, as lines of text; none when this checkout played every one of them move for move the same."""
    picked = spread(rows, k)
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        again = list(pool.map(one_game, *zip(*[(name, r["a"], r["b"], r["g"], r["seed"], False, r.get("options") or None,
                                                stamp) for r in picked])))
    differ = [f"{r['a']} vs {r['b']} game {r['g']}: trace {r['trace']} -> {n['trace']}, steps {r['steps']} -> "
              f"{n['steps']}, score {r['score']:g} -> {n['score']:g}"
              for r, n in zip(picked, again) if (r["trace"], r["steps"], r["score"]) != (n["trace"], n["steps"], n["score"])]
    return picked, differ


def configs(results: list[dict]) -> dict[str, dict[str, str]]:
    """The configs in a results file, per game, each with the commit it was first played at ("?" when a
    line has none: a file written before lines were stamped)."""
    out: dict[str, dict[str, str]] = {}
    for r in results:
        out.setdefault(r["game"], {}).setdefault(r.get("config", "?"), r.get("commit", "?"))
    return out


def _held(per_game: dict[str, dict[str, str]]) -> str:
    return ", ".join(f"{c} at commit {k}" for held in per_game.values() for c, k in held.items())


def report(results: list[dict], seed: int, options: dict | None = None, shown: list[dict] = ()) -> str:
    setup = f", set-up {json.dumps(options)}" if options else ""
    same = equivalences(list(shown))

    def also(name: str, base: str) -> str:        # the later checkouts --verify showed to play as `base`
        return "".join(f"; = config {r['config']} at commit {r['commit'] or '?'} ({len(r['replayed'])} games "
                       "replayed move for move)" for r in shown if r["game"] == name and same[r["config"]] == base)
    stamp = "".join(f"\n{name}: config {c}, commit {k or '?'}{also(name, c)}"
                    for name, held in configs(results).items() for c, k in held.items())
    lines = [f"\nBot strength (seed {seed}{setup}, seats alternated; 95% Wilson interval){stamp}\n",
             f"{'game':<14} {'match-up':<18} {'games':>5} {'won':>7} {'95% interval':>15} {'target':>7} "
             f"{'met':>4} {'clear':>5} {'cpu s/game':>10}"]
    order: list[tuple[str, str, str]] = list(dict.fromkeys((r["game"], r["a"], r["b"]) for r in results))
    for name, a, b in order:
        rows = [r for r in results if (r["game"], r["a"], r["b"]) == (name, a, b) and r["seed"] == seed]
        n = len(rows)
        if not n:
            continue
        wins = sum(r["score"] for r in rows)
        low, high = wilson(wins, n)
        rate = wins / n
        target = TARGETS.get((a, b))
        strict = (a, b) in STRICT
        met = "" if target is None else ("yes" if (rate > target if strict else rate >= target) else "NO")
        shown = "" if target is None else f"{'>' if strict else '>='}{100 * target:.0f}%"
        cpu = statistics.mean(r["cpu"] for r in rows)
        lines.append(f"{name:<14} {a + ' vs ' + b:<18} {n:>5} {100 * rate:>6.1f}% "
                     f"{f'{100 * low:.1f}–{100 * high:.1f}%':>15} {shown:>7} {met:>4} "
                     f"{'yes' if low > 0.5 else 'no':>5} {cpu:>10.0f}")
    lines.append(f"\n{'game':<14} {'level':<8} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'peak KiB':>9}"
                 "   (CPU time of one decision)")
    for name in dict.fromkeys(r["game"] for r in results):
        per: dict[str, list[float]] = {}
        mem: dict[str, list[int]] = {}
        for r in results:
            if r["game"] == name and r["seed"] == seed:
                for lvl, values in r["times"].items():
                    per.setdefault(lvl, []).extend(values)
                for lvl, values in r.get("memory", {}).items():
                    mem.setdefault(lvl, []).extend(values)
        for lvl, values in sorted(per.items()):
            peak = f"{statistics.median(mem[lvl]) / 1024:.0f}" if mem.get(lvl) else "-"
            lines.append(f"{name:<14} {lvl:<8} {len(values):>9} {1000 * pct(values, 0.5):>8.1f} "
                         f"{1000 * pct(values, 0.95):>8.1f} {1000 * max(values):>8.1f} {peak:>9}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per match-up (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="klash,carnevale", help="games to run, comma-separated")
    parser.add_argument("--match", default="normal:random,normal:greedy,hard:normal",
                        help="match-ups a:b, comma-separated")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--out", help="JSON-lines file: each finished game is appended; games in it are skipped")
    parser.add_argument("--report", action="store_true", help="only print the table of --out")
    parser.add_argument("--config", help="with --report: the configs whose games to count, comma-separated "
                        "(when --out holds several of one game)")
    parser.add_argument("--verify", type=int, metavar="K",
                        help="replay K recorded games of the file's other config of each --only game here; when every "
                        "one plays move for move the same, record that this checkout plays as that config (the run "
                        "then goes on from here, and one table counts both)")
    parser.add_argument("--memory", action="store_true", help="also measure memory per decision (slower)")
    parser.add_argument("--options", default="{}", help='set-up options as JSON, e.g. \'{"points": 100, "rounds": 3}\'')
    args = parser.parse_args()
    options = json.loads(args.options)
    lines = load(args.out)
    same = equivalences(lines)
    shown = [r for r in lines if "same_as" in r]
    done = [r for r in canonical(lines) if r.get("options", {}) == options]
    if args.report:
        if args.config:
            done = [r for r in done if r.get("config", "?") in args.config.split(",")]
        mixed = {name: held for name, held in configs(done).items() if len(held) > 1}
        if mixed:
            sys.exit(f"{args.out} holds games of {sum(map(len, mixed.values()))} configs of "
                     + ", ".join(mixed) + f" ({_held(mixed)}): one table counts one config a game; name "
                     "them with --config")
    else:
        names = args.only.split(",")
        stamps = {name: {"config": config_hash(name), "commit": commit(name)} for name in names}
        mine = {name: same.get(stamps[name]["config"], stamps[name]["config"]) for name in names}
        other = {name: {c: k for c, k in held.items() if c != mine[name]}
                 for name, held in configs(done).items() if name in stamps}
        other = {name: held for name, held in other.items() if held}
        if other and args.verify:
            for name, held in other.items():
                if len(held) > 1:
                    sys.exit(f"{args.out} holds games of {len(held)} other configs of {name} ({_held({name: held})}): "
                             "--verify shows a checkout plays as one")
                (old, _), = held.items()
                picked, differ = verify(name, [r for r in done if (r["game"], r["config"]) == (name, old)],
                                        args.verify, args.jobs, stamps[name])
                if differ or not picked:
                    sys.exit(f"{name}: this checkout (config {stamps[name]['config']}) does not play as config {old}: "
                             + ("; ".join(differ) if differ else "none of its games records a trace"))
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"game": name, **stamps[name], "same_as": old,
                                        "replayed": [[r["a"], r["b"], r["g"]] for r in picked]}) + "\n")
                print(f"{name}: config {stamps[name]['config']} plays as config {old}: {len(picked)} of its games "
                      "replayed move for move the same")
            return
        if other:
            sys.exit(f"{args.out} holds games of another config ({_held(other)}); this checkout plays "
                     + ", ".join(f"{name} config {stamps[name]['config']}" for name in other)
                     + ": resume that run from its commit's checkout, show this checkout plays the same with "
                     "--verify K, or write to another --out")
        have = {(r["game"], r["a"], r["b"], r["g"], r["seed"]) for r in done}
        todo = []
        # interleaved (game 0 of every match-up, then game 1…): a run stopped early has every match-up
        for g in range(args.games):
            for name in names:
                for pair in args.match.split(","):
                    a, b = pair.split(":")
                    level(a), level(b)
                    if (name, a, b, g, args.seed) not in have:
                        todo.append((name, a, b, g, args.seed, args.memory, options, stamps[name]))
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(one_game, *job) for job in todo]
            for future in as_completed(futures):
                result = future.result()
                done.append(result)
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(result) + "\n")
                print(f"  {result['game']} {result['a']} vs {result['b']}: game {result['g']} -> "
                      f"{result['score']:g} ({result['cpu']:.0f} s)", file=sys.stderr, flush=True)
    print(report(done, args.seed, options, shown))


if __name__ == "__main__":
    main()
