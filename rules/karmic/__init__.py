"""Karmic: karma decks, checks and register combat (pure rules).

The façade: code outside `rules/karmic/` (cogs, renderers, bench, i18n) imports only from here."""
from .actions import Declare, EndCombat, GmModifier, NpcControl
from .advancement import Effort, Improve, KarmaAward, TakeDistinction
from .base import card_term
from .cards import label
from .condition import Condition
from .character import (EFFORT_CHECKS, PAYMENTS, Character, character_from_sheet, check_distinction_cap, deck_summary,
                        import_sheet, pack_entry)
from .data import PACK_SCHEMA, load_pack_text
from .names import entry_matches, genders_of, matches, said
from .names import in_language as name_in
from .engine import AI, ENGINE, KarmicEngine, characters_out, settle_cards
from .ranged import aim, weapon_named
from .skill_tables import SITUATIONS, Situation, situations_for
from .state import HOUSE_RULES
from .tables import ATTRIBUTES, DIFFICULTY, LOCATION_NAMES, MANEUVERS, SKILLS, TARGET_SITUATION, skill_word

__all__ = ["AI", "ATTRIBUTES", "Character", "Condition", "DIFFICULTY", "Declare", "EFFORT_CHECKS", "ENGINE", "Effort", "EndCombat",
           "GmModifier", "HOUSE_RULES", "Improve", "KarmaAward", "KarmicEngine", "LOCATION_NAMES", "MANEUVERS",
           "NpcControl", "PACK_SCHEMA", "PAYMENTS", "SITUATIONS", "SKILLS", "Situation", "TARGET_SITUATION", "TakeDistinction", "aim", "card_term",
           "character_from_sheet", "characters_out", "check_distinction_cap", "deck_summary", "entry_matches", "genders_of", "import_sheet",
           "label", "load_pack_text", "matches", "name_in", "pack_entry", "said", "settle_cards", "situations_for",
           "skill_word", "weapon_named"]
