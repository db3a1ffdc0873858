"""Carnevale (skirmish miniatures, d10 pools with the Destiny Die): the rules engine."""
from .content import SCHEMA, Pack, load_pack_text, load_sample_pack
from .dice import odds, opposed_roll, roll_initiative, roll_pool
from .engine import CarnevaleEngine
from .squad import Squad, SquadError, SquadMember, check_squad, validate_squad

ENGINE = CarnevaleEngine()

__all__ = ["ENGINE", "CarnevaleEngine", "Pack", "SCHEMA", "Squad", "SquadError", "SquadMember", "check_squad",
           "load_pack_text", "load_sample_pack", "odds", "opposed_roll", "roll_initiative", "roll_pool",
           "validate_squad"]
