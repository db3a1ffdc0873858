"""Carnevale (skirmish miniatures, d10 pools with the Destiny Die): the rules engine."""
from .content import SCHEMA, Pack, load_pack_text, load_sample_pack
from .dice import odds, opposed_roll, roll_initiative, roll_pool
from .engine import CarnevaleEngine
from .squad import Squad, SquadError, SquadMember, add_member, check_squad, remove_member, validate_squad
from .views import squad_view

ENGINE = CarnevaleEngine()

__all__ = ["ENGINE", "CarnevaleEngine", "Pack", "SCHEMA", "Squad", "SquadError", "SquadMember", "check_squad",
           "load_pack_text", "load_sample_pack", "odds", "opposed_roll", "roll_initiative", "roll_pool",
           "validate_squad", "add_member", "remove_member", "squad_view"]
