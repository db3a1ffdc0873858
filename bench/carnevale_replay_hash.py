"""One hash of many seeded Carnevale games, every state and every event along the way: a performance
edit inside ``rules/carnevale/`` must leave it unchanged (it proves the games play exactly as before).

    python3 bench/carnevale_replay_hash.py [--games 12] [--searched 4]

``--games`` quick games (100-point squads, three Rounds) between two random bots (level ``random``,
seeded by the view), then ``--searched`` between two tiny tree searches, which play the search's own
worlds in place through ``engine.step_answer``; the reroll window is on in every other game.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.replay_hash import game_digest, hash_games
from content import sample_pack
from rules.carnevale import AI
from rules.common.player import Level

TINY = Level("tiny", "ismcts", iterations=6, rollout=3)
QUICK = {"points": 100, "rounds": 3}


def digest(seed: int, lvl: Level | str, house: dict) -> tuple[str, int]:
    state = AI.engine.new_game(["1", "2"], {"pack": sample_pack("carnevale"), "house_rules": house, **QUICK}, seed=seed)
    return game_digest(AI, state, seed, lvl, 5000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--searched", type=int, default=4)
    args = parser.parse_args()
    jobs: list[tuple[int, Level | str, dict]] = [(g, "random", {"reroll_window": g % 2 == 0}) for g in range(args.games)]
    jobs += [(1000 + g, TINY, {"reroll_window": g % 2 == 0}) for g in range(args.searched)]
    hash_games(jobs, digest)


if __name__ == "__main__":
    main()
