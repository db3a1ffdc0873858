"""Activating a model and what it may do (digest §3.2, §3.3, §3.7): the Instinct test of Beasts and
Monsters, Recover, the legality of each action and the options of the activation prompt.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from rules.common.engine import Option, term
from rules.common.errors import IllegalAction, NotYourTurn

from . import arena, core, dice
from .core import has, require, say
from .pack import INSTINCTS
from .state import Activation, KlashState, Model


class Activations:
    def _activate(self: Any, state: KlashState, out: list, player: str, mid: str) -> None:
        require(state.phase == "match" and state.stage == "action", "activate_in_action_phase")
        require(not state.acts and not state.choices and not state.stack, "activation_under_way")
        require(player == state.turn_player, "not_your_turn")
        require(state.turn_activations == 0, "already_activated_turn")
        m = state.model(mid)
        require(m.owner == player and m.placed and not m.removed, "activate_own_model")
        require(not m.activated, "already_activated", name=state.label(m))
        self._open_activation(state, out, m, player)

    def _open_activation(self: Any, state: KlashState, out: list, m: Model, player: str) -> None:
        m.activated = True
        m.armour = False  # Armour lasts until the start of the caster's next activation
        act = Activation(model=m.id, controller=player, free_assault=has(state, m, "two_heads"))
        state.acts.append(act)
        state.sel = None
        say(out, "activation", model=m.id, name=state.label(m), player=player)
        if core.is_beast(state, m):
            tamers = [t for t in state.on_field(m.owner) if t.id != m.id and has(state, t, "tamer")
                      and not t.stunned and core.gap(state, t, m) <= 10 + 1e-9]
            value = max([core.stat(state, m, "discipline")] + [core.stat(state, t, "discipline") for t in tamers])
            ok, _ = core.discipline_test(state, out, m, "Instinct", value=value)
            if not ok and tamers:
                say(out, "tamer", model=m.id, name=state.label(m), tamer_name=state.label(tamers[0]))
                ok, _ = core.discipline_test(state, out, m, "Instinct", value=value, allow_armed=False)
            if not ok:
                self._instinct(state, out, m)
                act.ended = True

    def _nearest(self: Any, state: KlashState, m: Model, pool: list[Model]) -> Model | None:
        if not pool:
            return None
        best = min(core.gap(state, m, o) for o in pool)
        ties = [o for o in pool if core.gap(state, m, o) <= best + 1e-6]
        return ties[0] if len(ties) == 1 else state.rng.choice(ties)

    def _instinct(self: Any, state: KlashState, out: list, m: Model) -> None:
        """Replace the whole activation with the Instinct behaviour (§6.13)."""
        quality = next((q for q in INSTINCTS if has(state, m, q)), None)
        if quality is None:
            say(out, "instinct_idle", model=m.id, name=state.label(m))
            return
        say(out, "instinct", model=m.id, name=state.label(m), quality=quality, instinct=term(f"quality_{quality}"))
        if quality == "savage_beast":
            if m.stunned:
                self._recover(state, out, m)
                if m.stunned:
                    return
            others = [o for o in state.on_field() if o.id != m.id]
            target = self._nearest(state, m, others)
            if target is None:
                return
            if core.contact(state, m, target):
                core.melee(state, out, m, target, allow_follow=False)
            elif not core.engaged(state, m) and self._charge_problem(state, m, target) is None:
                self._charge(state, out, m, target, inc=0, touch=False, instinct=True)
            elif not core.engaged(state, m):
                stop = core.radius(state, m) + core.radius(state, target) + (1.0 if target.owner != m.owner else 0) + 0.02
                self._auto_move(state, out, m, (target.x, target.y), core.stat(state, m, "speed"), stop)
            return
        adjacent = [o for o in state.on_field() if o.id != m.id and core.contact(state, m, o)]
        if adjacent:
            target = adjacent[0] if len(adjacent) == 1 else state.rng.choice(adjacent)
            core.melee(state, out, m, target, allow_follow=False)
        elif m.stunned:
            self._recover(state, out, m)
        elif quality == "feral":
            g = arena.GATES[state.gates[m.owner]]
            self._auto_move(state, out, m, g, core.stat(state, m, "speed"),
                            arena.GATE_RADIUS + core.radius(state, m) + 1.0)

    def _auto_move(self: Any, state: KlashState, out: list, m: Model, goal: tuple, allowance: float, stop: float) -> None:
        models = [d for d in core.discs(state)]
        route = arena.step_route(core.disc(state, m), goal, models, allowance, stop_gap=stop)
        if route:
            p = route[-1]
            m.x, m.y = p
            say(out, "moved", model=m.id, name=state.label(m), x=m.x, y=m.y, verb=term("moves_to"))

    def _recover(self: Any, state: KlashState, out: list, m: Model) -> bool:
        if has(state, m, "madman") or has(state, m, "multiple_heads"):
            ok = True
            say(out, "recover_no_test", model=m.id, name=state.label(m))
        else:
            ok, _ = core.discipline_test(state, out, m, "Recover")
        if ok:
            m.stunned = False
            say(out, "recovered", model=m.id, name=state.label(m))
        return ok

    def _remaining(self: Any, act: Activation) -> int:
        return act.allowed - act.used

    def _move_allowance(self: Any, state: KlashState, m: Model, double: bool) -> float:
        speed = core.stat(state, m, "speed")
        if not double:
            return float(speed)
        return float(speed * (3 if has(state, m, "winged_feet") else 2))

    def _disengage_allowance(self: Any, state: KlashState, m: Model) -> float:
        speed = core.stat(state, m, "speed")
        return float(speed if has(state, m, "sprint") else speed / 2)

    def _disengage_cost(self: Any, state: KlashState, m: Model) -> int:
        return 2 if any(has(state, e, "hinder") for e in core.engaged_with(state, m)) else 1

    def _charge_problem(self: Any, state: KlashState, m: Model, target: Model) -> IllegalAction | None:
        if target.removed or target.id == m.id:
            return IllegalAction("charge_needs_target")
        if core.engaged(state, m):
            return IllegalAction("engaged_no_charge", name=state.label(m))
        if core.contact(state, m, target):
            return IllegalAction("already_in_contact", name=state.label(m), target_name=state.label(target))
        if core.gap(state, m, target) > core.stat(state, m, "speed") + 1e-6:
            return IllegalAction("beyond_charge_reach", name=state.label(m), target_name=state.label(target),
                                 speed=core.stat(state, m, "speed"))
        others = core.discs(state)
        me, them = core.disc(state, m), core.disc(state, target)
        visible, _ = arena.line_of_sight(me, them, others)
        if not visible:
            return IllegalAction("not_in_sight", target_name=state.label(target))
        return arena.check_charge(me, them, list(others), float(core.stat(state, m, "speed")))

    def _side(self: Any, state: KlashState, m: Model) -> str:
        """Whose side a model fights for right now: a dominated model fights for its controller."""
        for act in state.acts:
            if act.model == m.id and act.dominated:
                return act.controller
        return m.owner

    def _assault_targets(self: Any, state: KlashState, m: Model) -> list[Model]:
        side = self._side(state, m)
        return [e for e in state.on_field() if e.owner != side and e.id != m.id and core.contact(state, m, e)]

    def _volley_targets(self: Any, state: KlashState, m: Model) -> list[Model]:
        if not dice.usable(core.stat(state, m, "ranged_attack")):
            return []
        return [e for e in state.on_field() if e.owner != m.owner and core.volley_problem(state, m, e) is None]

    def _charge_targets(self: Any, state: KlashState, m: Model, first_only: bool = False) -> list[Model]:
        """The models ``m`` may Charge; ``first_only``: stop at the first (the prompts only ask whether
        there is one, and each check walks the line of sight)."""
        if core.engaged(state, m):
            return []
        side = self._side(state, m)
        speed = core.stat(state, m, "speed") + 1e-6
        out = []
        for e in state.on_field():
            # the cheap refusals of _charge_problem first (out of reach, already in contact), so the
            # line of sight is walked only toward models a Charge might reach; the same targets
            if (e.owner == side or e.id == m.id or core.contact(state, m, e)
                    or core.gap(state, m, e) > speed):
                continue
            if self._charge_problem(state, m, e) is None:
                out.append(e)
                if first_only:
                    break
        return out

    def _spell_targets(self: Any, state: KlashState, m: Model, spell: str, first_only: bool = False) -> list[Any]:
        if spell == "armour":
            return ["self"]
        if spell == "teleport":
            return self._teleport_points(state, m, first_only)
        pool = state.on_field(m.owner) if spell == "healing" else [e for e in state.on_field() if e.owner != m.owner]
        if spell == "healing":
            pool = [a for a in pool if a.stunned]
        out = []
        for t in pool:
            if core.spell_problem(state, m, spell, t) is None:
                out.append(t)
                if first_only:
                    break
        return out

    def _teleport_points(self: Any, state: KlashState, m: Model, first_only: bool = False) -> list[tuple]:
        pts = []
        for rad, n in ((22.0, 8), (40.0, 8)):
            for k in range(n):
                ang = 2 * math.pi * k / n + (math.pi / n if rad > 30 else 0)
                p = (round(arena.CENTRE[0] + rad * math.cos(ang), 1), round(arena.CENTRE[1] + rad * math.sin(ang), 1))
                if core.teleport_problem(state, m, p) is None:
                    pts.append(p)
                    if first_only:
                        return pts
        return pts

    def _madman_bound(self: Any, state: KlashState, act: Activation, m: Model) -> bool:
        """Madman must Assault or Charge each activation if it can (§6.1)."""
        if not has(state, m, "madman") or act.attacked or m.stunned:
            return False
        return bool(((self._remaining(act) >= 1 or act.free_assault) and self._assault_targets(state, m)) or
                    (self._remaining(act) >= 1 and self._charge_targets(state, m, first_only=True)))

    def _token_ok(self: Any, state: KlashState, m: Model, player: str) -> bool:
        return (state.tokens.get(player, 0) > 0 and not core.is_beast(state, m) and m.owner == player
                and m.token_mark != core.limit_key(state))

    def _act_kinds(self: Any, state: KlashState, act: Activation) -> list[Option]:
        """The first-step options of the activation prompt (option id: the action's code)."""
        return list(self._act_options(state, act))

    def _act_offers(self: Any, state: KlashState, act: Activation, kind: str | None) -> tuple[bool, bool]:
        """(whether the activation prompt offers more than "end", whether it offers ``kind``), asking
        only as far as needed: the flow (``_settle``) asks this after every step, and the moves behind
        a Move were its dearest part, mostly not needed once an Assault or a Charge is offered."""
        more = found = False
        for o in self._act_options(state, act):
            more = more or o.id != "end"
            found = found or o.id == kind
            if more and (kind is None or found):
                break
        return more, found

    def _act_options(self: Any, state: KlashState, act: Activation) -> Iterator[Option]:
        """``_act_kinds`` one by one, each worked out only when asked for (in the prompt's order)."""
        m = state.model(act.model)
        rem = self._remaining(act)
        if act.ended or m.removed:
            yield Option.of("end", "end_activation")
            return
        can_double = rem >= 2 and not act.increased
        if m.stunned:
            if rem >= 1:
                yield Option.of("rec", "recover")
        else:
            madman = self._madman_bound(state, act, m)
            assault = self._assault_targets(state, m)
            if assault and (rem >= 1 or act.free_assault):
                yield Option.of("as", "assault")
                if can_double:
                    yield Option.of("as2", "assault_double")
            if rem >= 1 and self._charge_targets(state, m, first_only=True):
                yield Option.of("ch", "charge")
                if can_double:
                    yield Option.of("ch2", "charge_double")
            if not madman:
                engaged = core.engaged(state, m)
                if rem >= 1 and not engaged and self._can_move(state, m, "mv"):
                    yield Option.of("mv", "move", cm=self._move_allowance(state, m, False))
                    if can_double:
                        yield Option.of("mv2", "move_double", cm=self._move_allowance(state, m, True))
                if engaged and rem >= self._disengage_cost(state, m) and self._can_move(state, m, "dis"):
                    yield Option.of("dis", "disengage", cm=self._disengage_allowance(state, m))
                if rem >= 1 and self._volley_targets(state, m):
                    yield Option.of("vo", "volley")
                    if can_double:
                        yield Option.of("vo2", "volley_double")
                if rem >= 1 and has(state, m, "spellcaster") and m.id not in state.cast:
                    for spell in core.stat(state, m, "spells"):
                        if self._spell_targets(state, m, spell, first_only=True):
                            code = core.SPELL_CODES[spell]
                            yield Option.of(f"mg:{code}", "cast", spell=term(f"spell_{spell}"))
                            if can_double:
                                yield Option.of(f"mg2:{code}", "cast_double", spell=term(f"spell_{spell}"))
        if m.stunned and has(state, m, "regeneration") and not act.regen_used:
            yield Option.of("regen", "regenerate")
        if (self._token_ok(state, m, act.controller) and not act.extra_action and not act.dominated
                and state.turn_player == act.controller):
            yield Option.of("tka", "token_action")
        if (self._token_ok(state, m, act.controller) and not m.reroll_armed and not act.dominated
                and not state.house_rules.get("reroll_window", True)):
            yield Option.of("tkr", "token_reroll")
        if not (not m.stunned and self._madman_bound(state, act, m)):
            yield Option.of("end", "end_activation")

    def _may_open(self: Any, state: KlashState, player: str, mid: str) -> bool:
        """Would `Activate(mid)` by `player` be legal now (the `activate` prompt offers it)?"""
        if not (state.phase == "match" and state.stage == "action" and not state.acts and not state.choices
                and not state.stack and state.esel is None and player == state.turn_player
                and state.turn_activations == 0):
            return False
        return any(m.id == mid for m in self._ready(state, player))

    def _current(self: Any, state: KlashState, player: str, mid: str) -> Activation:
        require(state.phase == "match" and state.acts and not state.choices and not state.stack,
                "no_activation")
        act = state.acts[-1]
        if player != act.controller:
            raise NotYourTurn("not_your_activation")
        require(act.model == mid, "other_model_active", name=state.label(state.model(act.model)))
        return act

    def _spend(self: Any, state: KlashState, out: list, act: Activation, m: Model, cost: int, kind: str) -> bool:
        """Pay for an action; Two Heads tests first. Returns False if the action is lost."""
        require(self._remaining(act) >= cost or (kind == "assault" and cost == 1 and act.free_assault),
                "no_action_left", name=state.label(m))
        if kind == "assault" and cost == 1 and act.free_assault:
            act.free_assault = False
        else:
            act.used += cost
        if cost == 2:
            act.increased = True
        if has(state, m, "two_heads"):
            ok, (a, b) = core.discipline_test(state, out, m, "Two Heads")
            if (a, b) in ((5, 5), (6, 6)):
                say(out, "two_heads", model=m.id, name=state.label(m), quarrel=True, outcome=term("two_heads_quarrel"))
                core.melee(state, out, m, m, kind="self", allow_follow=False)
                return False
            if not ok:
                say(out, "two_heads", model=m.id, name=state.label(m), quarrel=False, outcome=term("two_heads_lost"))
                return False
        return True

    def _do_recover(self: Any, state: KlashState, out: list, p: str, mid: str, free: bool) -> None:
        act = self._current(state, p, mid)
        m = state.model(mid)
        require(m.stunned, "not_stunned", name=state.label(m))
        if free:
            require(has(state, m, "regeneration") and not act.regen_used, "cannot_regenerate", name=state.label(m))
            act.regen_used = True
            m.stunned = False
            say(out, "regenerated", model=m.id, name=state.label(m))
            return
        if not self._spend(state, out, act, m, 1, "recover"):
            return
        self._recover(state, out, m)

    def _end_activation(self: Any, state: KlashState, out: list, p: str, mid: str) -> None:
        act = self._current(state, p, mid)
        m = state.model(mid)
        require(m.stunned or not self._madman_bound(state, act, m), "madman_must_attack", name=state.label(m))
        act.ended = True
