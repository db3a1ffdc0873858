"""Read-only questions a slash command asks, to offer autocompletion and to turn "toward the Altar"
into coordinates. They never change the state; the action itself is still checked by ``apply``.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from typing import Any


from . import arena, core
from .core import has, require
from .state import KlashState, Model


class Queries:
    def command_models(self: Any, state: KlashState, player: str, scope: str) -> list[Model]:
        """Models a player may name in a command. scope: ``deploy`` (own, not yet placed), ``ready``
        (own, not activated), ``active`` (the model of the current activation if it is theirs, else
        their own), ``own`` (own in the arena), ``any`` (everyone in the arena)."""
        if scope == "deploy":
            return [m for m in state.models if m.owner == player and not m.placed]
        if scope == "ready":
            return self._ready(state, player) if state.phase == "match" else []
        if scope == "active" and state.acts and state.acts[-1].controller == player:
            return [state.model(state.acts[-1].model)]
        if scope == "any":
            return state.on_field()
        return state.on_field(player)

    def command_targets(self: Any, state: KlashState, mid: str, kind: str) -> list[Model]:
        """Legal targets of ``kind`` (assault, volley, charge, spell:<name>) for model ``mid`` now."""
        m = state.model(mid)
        if m.removed or not m.placed:
            return []
        if kind == "assault":
            return self._assault_targets(state, m)
        if kind == "volley":
            return self._volley_targets(state, m)
        if kind == "charge":
            return self._charge_targets(state, m)
        if kind.startswith("spell:"):
            spell = kind.split(":", 1)[1]
            if spell not in core.SPELL_CODES or spell in ("armour", "teleport"):
                return []
            return [t for t in self._spell_targets(state, m, spell) if isinstance(t, Model)]
        return []

    def spells(self: Any, state: KlashState, mid: str) -> list[str]:
        """The spells a model knows (empty for non-Spellcasters)."""
        m = state.model(mid)
        return list(core.stat(state, m, "spells") or []) if has(state, m, "spellcaster") else []

    def teleport_points(self: Any, state: KlashState, mid: str) -> list[tuple]:
        return self._teleport_points(state, state.model(mid))

    def event_targets(self: Any, state: KlashState, player: str, card: str) -> list[Model] | None:
        """Targets of an Event Card in ``player``'s hand: None if it needs none."""
        return self._card_targets(state, player, card)

    def route_toward(self: Any, state: KlashState, mid: str, goal: str, distance: float | None = None,
                     double: bool = False, disengage: bool = False) -> list[tuple]:
        """Waypoints of a Move (or Disengage) toward ``goal`` (a model id, ``alt`` the Altar, ``g0``/``g1``
        a Gate), as far as the allowance (or ``distance``) and the models in the way allow; the route
        walks around the Altar. The last point is the destination."""
        m = state.model(mid)
        me = core.disc(state, m)
        allowance = self._disengage_allowance(state, m) if disengage else self._move_allowance(state, m, double)
        if distance is not None:
            require(distance > 0, "distance_positive")
            allowance = min(allowance, float(distance))
        if goal == "alt":
            point, stop = arena.CENTRE, arena.ALTAR_RADIUS + me.r + 0.02
        elif goal in ("g0", "g1"):
            point, stop = arena.GATES[int(goal[1])], arena.GATE_RADIUS + me.r + 1.02
        else:
            o = state.model(goal)
            require(o.placed and not o.removed and o.id != m.id, "choose_other_model")
            gap = arena.MIN_ENEMY_GAP if o.owner != m.owner else 0.0
            point, stop = (o.x, o.y), me.r + core.radius(state, o) + gap + 0.02
        exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        route = self._route(me, point, core.discs(state), allowance, stop, exempt)
        require(bool(route), "no_closer", name=state.label(m))
        return [tuple(p) for p in route]
