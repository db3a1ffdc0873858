"""Carnevale (skirmish miniatures, d10 pools with the Destiny Die): the rules engine.

The façade: code outside `rules/carnevale/` (cogs, renderers, bench, the bot player) imports only
from here."""
from . import actions, campaign, ledger
from .campaign import BLACK_STATUE, STANDARD_LENGTH, CampaignRecord
from .content import SCHEMA, Pack, load_pack_text, load_sample_pack, pack_from_doc, use_sample
from .dice import MAX_KARMA_DICE, TIE_RULES, PoolResult, odds, opposed_roll, roll_initiative, roll_pool
from .ai import AI, build_squad
from .engine import ENGINE, MOVE_ACTIONS, CarnevaleEngine
from .mechanics import explained_pool
from .squad import (Squad, SquadError, SquadMember, add_member, check_squad, member_cost, remove_member, squad_cost,
                    validate_squad)
from .state import DEFAULT_HOUSE_RULES
from .views import squad_view

__all__ = ["AI", "BLACK_STATUE", "CampaignRecord", "DEFAULT_HOUSE_RULES", "ENGINE", "explained_pool", "MAX_KARMA_DICE", "MOVE_ACTIONS",
           "CarnevaleEngine", "Pack", "PoolResult", "SCHEMA", "STANDARD_LENGTH", "Squad", "SquadError", "SquadMember", "TIE_RULES",
           "actions", "add_member", "build_squad", "campaign", "check_squad", "ledger", "load_pack_text", "load_sample_pack",
           "member_cost", "odds", "opposed_roll", "pack_from_doc", "remove_member", "roll_initiative", "roll_pool",
           "squad_cost", "squad_view", "use_sample", "validate_squad"]
