"""Can a new group win Carnival Zombie with the sample pack? Seeded whole campaigns, played by the
project's sensible policy (tests/rules/carnival_zombie/policies.py), per Difficulty.

    python bench/cz_balance.py [--campaigns 200] [--pack my-pack.yaml]

Prints, per Difficulty: how many campaigns survived Night 1, how many were won, and how far they
got. Targets (issue 13): on Easy, Night 1 survived in ≥ 70% and the campaign won in ≥ 25%;
Medium and Difficult harder, in that order, Medium still won sometimes (5–20%). Sample pack, 200
campaigns: Easy 100% / 42%, Medium 92% / 14%, Difficult 75% / 0%.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import content  # noqa: E402
from rules.carnival_zombie import ENGINE, load_pack_text  # noqa: E402
from rules.common import Actor, Choose  # noqa: E402
from tests.rules.carnival_zombie.policies import sensible_policy  # noqa: E402

DIFFICULTIES = ("easy", "medium", "difficult")


@dataclass
class Record:
    campaigns: int = 0
    survived_night_1: int = 0
    won: int = 0
    endings: Counter = field(default_factory=Counter)


def campaign(seed: int, difficulty: str, pack=None) -> tuple[bool, bool, str]:
    """(survived Night 1, won, reason) of one seeded campaign with 1–6 players."""
    rnd = random.Random(seed)
    seats = [f"p{i}" for i in range(rnd.randint(1, 6))]
    options = {"difficulty": difficulty, "scenario": "campaign", **({"pack": pack} if pack else {})}
    state = ENGINE.new_game(seats, options, seed)
    pick = sensible_policy(rnd)
    while not ENGINE.is_over(state):
        prompt = ENGINE.pending(state)[0]
        ENGINE.step(state, Choose(prompt.id, (pick(state, prompt),)), Actor(prompt.player))
    # The Ticket moves on at the Dawn that ends a Night the Group survived (a Finale won at the first
    # Dawn ends the campaign there).
    won = state.result == "win"
    return state.ticket >= 2 or won, won, state.reason


def measure(campaigns: int, pack=None, first_seed: int = 0) -> dict[str, Record]:
    out = {}
    for difficulty in DIFFICULTIES:
        record = Record()
        for seed in range(first_seed, first_seed + campaigns):
            survived, won, reason = campaign(seed, difficulty, pack)
            record.campaigns += 1
            record.survived_night_1 += survived
            record.won += won
            record.endings[reason] += 1
        out[difficulty] = record
    return out


def table(results: dict[str, Record]) -> str:
    lines = [f"{'difficulty':<11} {'campaigns':>9} {'Night 1 survived':>17} {'won':>10}   most common ending"]
    for difficulty, r in results.items():
        ending, n = r.endings.most_common(1)[0]
        lines.append(f"{difficulty:<11} {r.campaigns:>9} {r.survived_night_1:>9} ({100 * r.survived_night_1 / r.campaigns:3.0f}%)"
                     f" {r.won:>4} ({100 * r.won / r.campaigns:3.0f}%)   {ending} ({n})")
    lines.append("targets: Easy ≥ 70% past Night 1 and ≥ 25% won; Medium won sometimes (5–20%); "
                 "Medium and Difficult harder, in that order")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    content.install()
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--campaigns", type=int, default=200)
    parser.add_argument("--pack", type=Path, help="a pack YAML to measure instead of the sample")
    args = parser.parse_args(argv)
    pack = load_pack_text(args.pack.read_text(encoding="utf-8"), args.pack.name) if args.pack else None
    print(table(measure(args.campaigns, pack)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
