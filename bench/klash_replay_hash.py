"""One hash of many seeded Klash! games, every state and every event along the way: a performance
edit inside ``rules/klash/`` must leave it unchanged (it proves the games play exactly as before).

    python3 bench/klash_replay_hash.py [--games 40] [--searched 4]

``--games`` whole games between two random bots (``rules.common.player`` level ``random``, seeded by
the view), then ``--searched`` games between two tiny tree searches (which play the search's own
worlds in place through ``engine.step``), with the Training Token re-roll window on and off.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.replay_hash import main
from content import sample_pack
from rules.klash import AI

if __name__ == "__main__":
    main(AI, lambda seed, house: AI.engine.new_game(["1", "2"], {"pack": sample_pack("klash"), "house_rules": house},
                                                    seed=seed), 40, 3000)
