"""One hash of many seeded Carnevale games, every state and every event along the way: a performance
edit inside ``rules/carnevale/`` must leave it unchanged (it proves the games play exactly as before).

    python3 bench/carnevale_replay_hash.py [--games 12] [--searched 4]

``--games`` quick games (100-point squads, three Rounds) between two random bots (level ``random``,
seeded by the view), then ``--searched`` between two tiny tree searches, which play the search's own
worlds in place through ``engine.step_answer``; the reroll window is on in every other game.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.replay_hash import main
from content import sample_pack
from rules.carnevale import AI

QUICK = {"points": 100, "rounds": 3}


if __name__ == "__main__":
    main(AI, lambda seed, house: AI.engine.new_game(["1", "2"], {"pack": sample_pack("carnevale"), "house_rules": house, **QUICK},
                                                    seed=seed), 12, 5000)
