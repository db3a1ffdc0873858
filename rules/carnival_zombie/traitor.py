"""Just a Matter of Time: the traitor's Sabotage and Unmask."""
from __future__ import annotations


from rules.common import GM, Actor, IllegalAction
from rules.common.errors import NotYourTurn

from .actions import Sabotage
from .context import G
from .state import CAVES
from .sections import Sections



class Traitor(Sections):
    """Mixed into `CarnivalZombie`: each method's `self` is the engine."""

    # ================================================================= the traitor (Just a Matter of Time)
    def _sabotage(self, g: G, action: Sabotage, actor: Actor) -> None:
        s = g.s
        if not s.traitor or actor.id != s.traitor:
            raise NotYourTurn("traitor_only")
        if s.phase not in ("sunset", "night") or s.stage in ("d_exit", "d_assault", "d_attack", "d_cleanup"):
            raise IllegalAction("sabotage_when")
        if s.sabotage_night == s.ticket:
            raise IllegalAction("sabotage_done")
        if action.cave not in CAVES:
            raise IllegalAction("sabotage_cave", caves=list(CAVES))
        s.sabotage, s.sabotage_night = action.cave, s.ticket
        g.say("sabotage_set", audience=s.traitor, cave=action.cave)
        g.say("sabotage_gm", audience=GM, cave=action.cave)

    def _unmask(self, g: G, actor: Actor) -> None:
        s = g.s
        if not s.traitor or actor.id != s.traitor:
            raise NotYourTurn("traitor_only")
        if s.unmasked:
            raise IllegalAction("unmasked_already")
        s.unmasked, s.uncancellable = True, True
        g.say("unmask", player=s.traitor)
