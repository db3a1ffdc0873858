"""Pieces every game shares: the engine contract, the in-state RNG, decks, errors, packs."""
from .deck import Deck
from .engine import (ANYONE, FORCED, GM, PUBLIC, Actor, Choose, Engine, Event, Option, Outcome, Prompt, Standing,
                     audience_filter, prompt_id, term)
from .errors import BautaError, GameOver, IllegalAction, NotYourTurn, PackError, Problem, StalePrompt, Where
from .rng import Rng
from .serial import Serial

__all__ = [
    "ANYONE", "Actor", "FORCED", "BautaError", "Choose", "Deck", "Engine", "Event", "GM", "GameOver", "IllegalAction",
    "NotYourTurn", "Option", "Outcome", "PUBLIC", "PackError", "Problem", "Prompt", "Rng", "Serial",
    "Standing", "StalePrompt", "Where", "audience_filter", "prompt_id", "term",
]
