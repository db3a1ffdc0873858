"""Initial deployment (digest §1.5): alternating placements within Speed of your Gate, at least 1 cm
from it, and the spread entry spots offered as buttons.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from typing import Any


from . import arena, core
from .core import check, require, say
from .state import KlashState, Model


class Deployment:
    def _deploy(self: Any, state: KlashState, out: list, player: str, mid: str, x: float, y: float) -> None:
        require(state.phase == "deploy", "deployment_over")
        require(player == state.deploy_turn, "not_your_deploy")
        m = state.model(mid)
        require(m.owner == player and not m.placed, "deploy_own_model")
        d = arena.Disc(float(x), float(y), core.radius(state, m), m.id, state.seats.index(player))
        problem = arena.deploy_check(d, state.gates[player], core.stat(state, m, "speed"), core.discs(state))
        check(problem, state)
        m.x, m.y, m.placed = float(x), float(y), True
        state.sel = None
        say(out, "deployed", model=m.id, name=state.label(m), x=m.x, y=m.y)
        other = state.other(player)
        if any(not mm.placed for mm in state.models if mm.owner == other):
            state.deploy_turn = other
        elif any(not mm.placed for mm in state.models if mm.owner == player):
            state.deploy_turn = player
        else:
            state.phase = "match"
            state.deploy_turn = ""
            self._start_hourglass(state, out)

    def _deploy_spots(self: Any, state: KlashState, m: Model) -> list[tuple]:
        return arena.deploy_spots(state.gates[m.owner], core.radius(state, m), core.stat(state, m, "speed"),
                                  core.discs(state), state.seats.index(m.owner), m.id)

    def deploy_spots(self: Any, state: KlashState, mid: str) -> list[tuple]:
        """Legal entry points for one of the deploying player's models (nearest rows first)."""
        return self._deploy_spots(state, state.model(mid))
