"""The numbers of a Klash! game (digest §2.1, §3.1, §3.9) and the typed actions that open an activation."""
from __future__ import annotations

from .actions import Assault, Charge, Disengage, Magic, Move, Recover, Volley

ROUNDS = 8          # auction rounds
REVEAL = 5          # cards revealed per round
HOURGLASSES = 8
TEAM_MAX = 8
START_TOKENS = 5    # Training Tokens per player
# Typed actions that activate their model first when it is Ready and nothing is active yet.
OPENS_ACTIVATION = (Move, Disengage, Assault, Volley, Charge, Magic, Recover)
