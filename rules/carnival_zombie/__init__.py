"""Carnival Zombie 2nd Edition: the cooperative campaign, with the bot as the opponent."""
from .actions import ACTIONS, Choose, FocusPenalty, PileTiming, Sabotage, Unmask
from .content import SCHEMA, content_for, load_pack_text, load_sample_pack, use_sample
from .ai import AI
from .engine import ENGINE, CarnivalZombie
from .state import CAVES, DEFAULT_HOUSE_RULES, GameState
from .views import census

__all__ = ["AI", "ACTIONS", "CAVES", "CarnivalZombie", "Choose", "DEFAULT_HOUSE_RULES", "ENGINE", "FocusPenalty", "GameState",
           "PileTiming", "SCHEMA", "Sabotage", "Unmask", "census", "content_for", "load_pack_text", "load_sample_pack", "use_sample"]
