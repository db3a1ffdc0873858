"""The actions that move and fight (digest §3.3 to §3.5, §3.8): Move and Disengage with their Attacks of
Opportunity, Assault, Volley, Magic, Charge, and the free attacks they open (Counterattack, Fury,
Double Attack, Multiple Heads, Rapid Fire).

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from typing import Any

from rules.common.engine import Option, term

from . import arena, core
from .core import check, has, require, say
from .state import KlashState, Model


class Attacks:
    def _do_move(self: Any, state: KlashState, out: list, player: str, mid: str, points: list[tuple], double: bool,
                 disengage: bool = False) -> None:
        act = self._current(state, player, mid)
        m = state.model(mid)
        require(not m.stunned, "stunned_only_recover", name=state.label(m))
        if disengage:
            require(core.engaged(state, m), "not_engaged", name=state.label(m))
            cost = self._disengage_cost(state, m)
            allowance = self._disengage_allowance(state, m)
            exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        else:
            require(not core.engaged(state, m), "engaged_must_disengage", name=state.label(m))
            require(not self._madman_bound(state, act, m), "madman_must_attack", name=state.label(m))
            cost = 2 if double else 1
            require(not (double and act.increased), "one_double_action")
            allowance = self._move_allowance(state, m, double)
            exempt = tuple(e.id for e in core.enemies_in_contact(state, m))  # stunned enemies in contact
        path = [(m.x, m.y)] + [(float(x), float(y)) for x, y in points]
        problem = arena.check_path(core.disc(state, m), path, core.discs(state), allowance=allowance, exempt=exempt)
        check(problem, state)
        if not self._spend(state, out, act, m, cost, "move"):
            return
        if disengage:
            if not has(state, m, "elusive"):
                before = len(state.choices)
                for e in core.engaged_with(state, m):
                    if m.removed:
                        break
                    core.melee(state, out, e, m, kind="aoo", allow_follow=False)
                if len(state.choices) > before and not m.removed:
                    # a Counterattack on an Attack of Opportunity strikes before the model walks away
                    state.choices.append({"kind": "resume", "player": player, "model": m.id,
                                          "x": path[-1][0], "y": path[-1][1]})
                    return
            if m.removed:
                return
        m.x, m.y = path[-1]
        say(out, "moved", model=m.id, name=state.label(m), x=m.x, y=m.y, disengage=disengage,
            verb=term("disengages_to" if disengage else "moves_to"))

    def _do_assault(self: Any, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, "stunned_only_recover", name=state.label(m))
        require(t in self._assault_targets(state, m), "not_enemy_in_contact", target_name=state.label(t))
        require(not (double and act.increased), "one_double_action")
        if not self._spend(state, out, act, m, 2 if double else 1, "assault"):
            return
        act.attacked = True
        inc = 1 if double else 0
        if has(state, m, "double_attack"):
            core.melee(state, out, m, t, inc=inc - 1)
            state.choices.append({"kind": "second", "player": player, "model": m.id, "inc": inc - 1})
        else:
            core.melee(state, out, m, t, inc=inc)
            if has(state, m, "multiple_heads"):
                state.choices.append({"kind": "second", "player": player, "model": m.id, "inc": inc})

    def _do_volley(self: Any, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, "stunned_only_recover", name=state.label(m))
        require(not self._madman_bound(state, act, m), "madman_must_attack", name=state.label(m))
        problem = core.volley_problem(state, m, t)
        check(problem, state)
        require(not (double and act.increased), "one_double_action")
        if not self._spend(state, out, act, m, 2 if double else 1, "volley"):
            return
        inc = 1 if double else 0
        if has(state, m, "rapid_fire"):
            core.volley(state, out, m, t, inc=inc - 1)
            state.choices.append({"kind": "rapid", "player": player, "model": m.id, "inc": inc - 1})
        else:
            core.volley(state, out, m, t, inc=inc)

    def _do_magic(self: Any, state: KlashState, out: list, player: str, mid: str, spell: str, tid: str,
                  double: bool, point: tuple | None) -> None:
        act = self._current(state, player, mid)
        m = state.model(mid)
        require(not m.stunned, "stunned_only_recover", name=state.label(m))
        require(not self._madman_bound(state, act, m), "madman_must_attack", name=state.label(m))
        target = m if spell == "armour" else (state.model(tid) if tid else None)
        problem = core.spell_problem(state, m, spell, target, point)
        check(problem, state)
        require(not (double and act.increased), "one_double_action")
        if not self._spend(state, out, act, m, 2 if double else 1, "magic"):
            state.cast.append(m.id)
            return
        core.cast(state, out, m, spell, target, inc=1 if double else 0, point=point)

    def _do_charge(self: Any, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool,
                   touch: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, "stunned_only_recover", name=state.label(m))
        require(t.owner != self._side(state, m), "charge_enemy_only")
        problem = self._charge_problem(state, m, t)
        check(problem, state)
        require(not (double and act.increased), "one_double_action")
        if touch:
            require(has(state, m, "spellcaster") and "destructive_touch" in core.stat(state, m, "spells")
                    and m.id not in state.cast, "no_destructive_touch", name=state.label(m))
        if not self._spend(state, out, act, m, 2 if double else 1, "charge"):
            return
        act.attacked = True
        self._charge(state, out, m, t, inc=1 if double else 0, touch=touch)
        act.ended = True  # no further actions after a Charge (L47)

    def _charge(self: Any, state: KlashState, out: list, m: Model, t: Model, *, inc: int, touch: bool,
                instinct: bool = False) -> None:
        enemy = t.owner != m.owner
        if enemy and has(state, t, "frightening") and not core.fear_immune(state, m):
            ok, _ = core.discipline_test(state, out, m, "Fear (to Charge)")
            if not ok:
                say(out, "charge_lost", model=m.id, name=state.label(m), target_name=state.label(t))
                return
        was_engaged = core.engaged(state, t)
        end, travel = arena.charge_end(core.disc(state, m), core.disc(state, t))
        m.x, m.y = round(end[0], 3), round(end[1], 3)
        say(out, "charged", model=m.id, name=state.label(m), target=t.id, target_name=state.label(t), travel=travel, x=m.x, y=m.y)
        if enemy and has(state, m, "frightening") and not core.fear_immune(state, t):
            ok, _ = core.discipline_test(state, out, t, "Fear")
            if not ok:
                t.stunned = True
                say(out, "stunned", model=t.id, name=state.label(t))
        if enemy and has(state, t, "repel_charge") and not was_engaged and not t.stunned:
            core.melee(state, out, t, m, kind="repel", allow_follow=False)
            if m.removed:
                return
        if touch:
            core.cast(state, out, m, "destructive_touch", t, inc=inc)
        else:
            core.melee(state, out, m, t, inc=inc, charge=True, kind="charge")

    def _choice_options(self: Any, state: KlashState, c: dict) -> list[Option]:
        m = state.model(c["model"])
        if m.removed or m.stunned and c["kind"] != "second":
            return []
        if c["kind"] == "counter":
            t = state.model(c["target"])
            return ([Option.of(f"t:{t.id}", "counter_target", target_name=state.label(t))]
                    if not t.removed and core.contact(state, m, t) else [])
        if c["kind"] in ("fury", "second"):
            if m.stunned:
                return []
            return [Option.of(f"t:{t.id}", "attack_target", target_name=state.label(t)) for t in core.enemies_in_contact(state, m)]
        if c["kind"] == "rapid":
            return [Option.of(f"t:{t.id}", "shoot_target", target_name=state.label(t)) for t in self._volley_targets(state, m)]
        return []

    def _answer_choice(self: Any, state: KlashState, out: list, option: str) -> None:
        c = state.choices.pop(0)
        if option == "no":
            return
        m, t = state.model(c["model"]), state.model(option[2:])
        key = core.limit_key(state)
        if c["kind"] == "counter":
            m.counter_mark = key
            core.melee(state, out, m, t, kind="counter", allow_follow=False)
        elif c["kind"] == "fury":
            m.fury_mark = key
            core.melee(state, out, m, t, kind="fury", allow_follow=False)
        elif c["kind"] == "second":
            core.melee(state, out, m, t, inc=c.get("inc", 0), allow_follow=True)
        elif c["kind"] == "rapid":
            core.volley(state, out, m, t, inc=c.get("inc", 0))
