"""Karmic: karma decks, checks and register combat (pure rules)."""
from .base import card_term
from .data import PACK_SCHEMA, load_pack_text, load_sample_pack
from .engine import KarmicEngine, characters_out, settle_cards

ENGINE = KarmicEngine()

__all__ = ["ENGINE", "KarmicEngine", "card_term", "PACK_SCHEMA", "characters_out", "load_pack_text", "load_sample_pack",
           "settle_cards"]
