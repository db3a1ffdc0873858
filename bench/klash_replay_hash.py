"""One hash of many seeded Klash! games, every state and every event along the way: a performance
edit inside ``rules/klash/`` must leave it unchanged (it proves the games play exactly as before).

    python3 bench/klash_replay_hash.py [--games 40] [--searched 4]

``--games`` whole games between two random bots (``rules.common.player`` level ``random``, seeded by
the view), then ``--searched`` games between two tiny tree searches (which play the search's own
worlds in place through ``engine.step``), with the Training Token re-roll window on and off.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.replay_hash import game_digest, hash_games
from content import sample_pack
from rules.common.player import Level
from rules.klash import AI

TINY = Level("tiny", "ismcts", iterations=6, rollout=3)


def digest(seed: int, lvl: Level | str, house: dict) -> tuple[str, int]:
    state = AI.engine.new_game(["1", "2"], {"pack": sample_pack("klash"), "house_rules": house}, seed=seed)
    return game_digest(AI, state, seed, lvl, 3000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--searched", type=int, default=4)
    args = parser.parse_args()
    jobs: list[tuple[int, Level | str, dict]] = [(g, "random", {"reroll_window": g % 2 == 0}) for g in range(args.games)]
    jobs += [(1000 + g, TINY, {"reroll_window": g % 2 == 0}) for g in range(args.searched)]
    hash_games(jobs, digest)


if __name__ == "__main__":
    main()
