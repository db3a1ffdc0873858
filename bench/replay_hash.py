"""One hash of seeded games, every state and every event along the way, for a game's replay check
(bench/klash_replay_hash.py, bench/carnevale_replay_hash.py): a performance edit inside a game's rules
must leave it unchanged, which proves the games play exactly as before."""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from typing import Any

from rules.common.engine import Actor
from rules.common.player import GameAI, Level, decide, deciders, seed_for

TINY = Level("tiny", "ismcts", iterations=6, rollout=3)     # a searched game, cheap enough to hash


def game_digest(ai: GameAI, state: Any, seed: int, lvl: Level | str, limit: int) -> tuple[str, int]:
    """The hash of one game played from ``state`` by ``lvl`` in every seat, and its steps."""
    engine = ai.engine
    h = hashlib.sha256(json.dumps(engine.dump_state(state), sort_keys=True, default=str).encode())
    steps = 0
    while not engine.is_over(state) and steps < limit:
        seat = deciders(ai, state)[0]
        choice = decide(ai, state, seat, lvl, seed_for(ai, state, seat, f"hash{seed}"))
        out = engine.apply(state, choice, Actor(seat))
        state = out.state
        h.update(json.dumps([engine.dump_action(choice), [e.to_dict() for e in out.events],
                             engine.dump_state(state)], sort_keys=True, default=str).encode())
        steps += 1
    return h.hexdigest(), steps


def hash_games(jobs: list[tuple[int, Level | str, dict]], digest: Callable[[int, Level | str, dict], tuple[str, int]]) -> None:
    """Plays each (seed, level, house rules) job, prints each game's hash and then the hash of all."""
    total = hashlib.sha256()
    steps = 0
    for seed, lvl, house in jobs:
        one, n = digest(seed, lvl, house)
        total.update(one.encode())
        steps += n
        print(f"game {seed} {getattr(lvl, 'name', lvl)} {house}: {n} steps {one[:16]}", file=sys.stderr)
    print(f"{len(jobs)} games, {steps} steps: {total.hexdigest()}")


def main(ai: GameAI, new_game: Callable[[int, dict], Any], games: int, limit: int) -> None:
    """A game's replay check: ``--games`` random games and ``--searched`` TINY ones, each with the
    reroll window house rule on in every second game; ``new_game(seed, house_rules)`` sets one up."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--searched", type=int, default=4)
    args = parser.parse_args()
    jobs: list[tuple[int, Level | str, dict]] = [(g, "random", {"reroll_window": g % 2 == 0}) for g in range(args.games)]
    jobs += [(1000 + g, TINY, {"reroll_window": g % 2 == 0}) for g in range(args.searched)]
    hash_games(jobs, lambda seed, lvl, house: game_digest(ai, new_game(seed, house), seed, lvl, limit))
