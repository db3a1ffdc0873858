"""One hash of many seeded Carnevale games, every state and every event along the way: a performance
edit inside ``rules/carnevale/`` must leave it unchanged (it proves the games play exactly as before).

    python3 bench/carnevale_replay_hash.py [--games 12] [--searched 4]

``--games`` quick games (100-point squads, three Rounds) between two random bots (level ``random``,
seeded by the view), then ``--searched`` between two tiny tree searches, which play the search's own
worlds in place through ``engine.step_answer``; the reroll window is on in every other game.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from content import sample_pack
from rules.carnevale import AI
from rules.common.engine import Actor
from rules.common.player import Level, decide, deciders, seed_for

TINY = Level("tiny", "ismcts", iterations=6, rollout=3)
QUICK = {"points": 100, "rounds": 3}


def game_digest(seed: int, lvl: Level | str, house: dict) -> tuple[str, int]:
    engine = AI.engine
    state = engine.new_game(["1", "2"], {"pack": sample_pack("carnevale"), "house_rules": house, **QUICK}, seed=seed)
    h = hashlib.sha256(json.dumps(engine.dump_state(state), sort_keys=True, default=str).encode())
    steps = 0
    while not engine.is_over(state) and steps < 5000:
        seat = deciders(AI, state)[0]
        choice = decide(AI, state, seat, lvl, seed_for(AI, state, seat, f"hash{seed}"))
        out = engine.apply(state, choice, Actor(seat))
        state = out.state
        h.update(json.dumps([engine.dump_action(choice), [e.to_dict() for e in out.events],
                             engine.dump_state(state)], sort_keys=True, default=str).encode())
        steps += 1
    return h.hexdigest(), steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--searched", type=int, default=4)
    args = parser.parse_args()
    total = hashlib.sha256()
    steps = 0
    jobs: list[tuple[int, Level | str, dict]] = [(g, "random", {"reroll_window": g % 2 == 0}) for g in range(args.games)]
    jobs += [(1000 + g, TINY, {"reroll_window": g % 2 == 0}) for g in range(args.searched)]
    for seed, lvl, house in jobs:
        digest, n = game_digest(seed, lvl, house)
        total.update(digest.encode())
        steps += n
        print(f"game {seed} {getattr(lvl, 'name', lvl)} {house}: {n} steps {digest[:16]}", file=sys.stderr)
    print(f"{len(jobs)} games, {steps} steps: {total.hexdigest()}")


if __name__ == "__main__":
    main()
