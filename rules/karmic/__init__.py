"""Karmic: karma decks, checks and register combat (pure rules)."""
from .condition import Condition
from .data import PACK_SCHEMA, load_pack_text, load_sample_pack
from .engine import KarmicEngine, characters_out, settle_cards
from .skill_tables import SITUATIONS, Situation, situations_for

ENGINE = KarmicEngine()

__all__ = ["Condition", "ENGINE", "KarmicEngine", "PACK_SCHEMA", "SITUATIONS", "Situation", "characters_out", "load_pack_text",
           "load_sample_pack", "settle_cards", "situations_for"]
