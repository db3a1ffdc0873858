"""Klash! Sangue & Sabbia: the gladiator auction, team building and the 8-Hourglass arena match.

The façade: cogs, renderers, bench and the bot player import only this package. The bundled SAMPLE
pack is read by the caller (``content.sample_pack("klash")``) and given in the setup options."""
from . import arena
from .actions import (Activate, Assault, Charge, Deploy, Disengage, EndActivation, Magic, Move, PassEvent, Pick,
                      PlayEvent, Recover, SelectTeam, UseToken, Volley)
from .ai import AI
from .engine import ENGINE, KlashEngine
from .pack import load_pack_text
from .state import HOUSE_RULES, KlashState

__all__ = ["AI", "ENGINE", "HOUSE_RULES", "Activate", "Assault", "Charge", "Deploy", "Disengage", "EndActivation",
           "KlashEngine", "KlashState", "Magic", "Move", "PassEvent", "Pick", "PlayEvent", "Recover", "SelectTeam",
           "UseToken", "Volley", "arena", "load_pack_text"]
