"""The match's structure (digest §3.1, §3.2, §3.10): 8 Hourglasses of Initial, Action and Final Phase,
Initiative, alternating turns, the end of an activation and of the game (annihilation, the final VP
count), and ``_settle``, the flow control run after every action.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from typing import Any

from rules.common.engine import term

from . import core
from .core import say
from .rules_numbers import HOURGLASSES
from .state import KlashState, Model


class Hourglasses:
    def _start_hourglass(self: Any, state: KlashState, out: list) -> None:
        state.hourglass += 1
        state.cast = []
        state.melee_against = []
        say(out, "hourglass", hourglass=state.hourglass)
        for p in (state.player_a, state.player_b):
            self._draw_event(state, out, p)
        init = {p: sum(core.stat(state, m, "initiative") for m in state.on_field(p)) for p in state.seats}
        state.initiative = init
        a, b = state.seats
        if init[a] != init[b]:
            winner = a if init[a] < init[b] else b
        else:
            winner = self._roll_off(state, out, "initiative",
                                    high=state.house_rules.get("initiative_tie_high_wins", True))
        state.init_winner = winner
        state.stage = "initiative"
        say(out, "initiative", a_player=a, a=init[a], b_player=b, b=init[b], winner_player=winner,
            initiative=dict(init), winner=winner)

    def _roll_off(self: Any, state: KlashState, out: list, why: str, high: bool = True) -> str:
        """d12 each until the dice differ (EX-20, EX-21)."""
        a, b = state.seats
        while True:
            ra, rb = core.die(state, 12), core.die(state, 12)
            say(out, "roll_off", tie=term(f"tie_{why}"), a_player=a, a=ra, b_player=b, b=rb, rolls={a: ra, b: rb})
            if ra != rb:
                return a if (ra > rb) == high else b

    def _begin_turn(self: Any, state: KlashState, out: list, player: str) -> None:
        state.turn_no += 1
        state.turn_player = player
        state.turn_activations = 0
        state.extra_activation_used = False
        state.ext_offer = False

    def _ready(self: Any, state: KlashState, player: str) -> list[Model]:
        return [m for m in state.on_field(player) if not m.activated]

    def _end_action_phase(self: Any, state: KlashState, out: list) -> None:
        for p in (state.init_winner, state.other(state.init_winner)):
            if p not in state.melee_against and state.on_field(p):
                core.score(state, p, 1, "no_melee", out)
        state.stage = "final"
        state.turn_player = ""
        state.final_order = [state.init_winner, state.other(state.init_winner)]
        say(out, "final_phase", hourglass=state.hourglass)

    def _end_hourglass(self: Any, state: KlashState, out: list) -> None:
        for m in state.models:
            m.activated = False
        if not state.house_rules.get("annihilation_immediate", True) and self._annihilation(state, out):
            return
        if state.hourglass >= HOURGLASSES:
            self._final_count(state, out, "hourglass8")
        else:
            self._start_hourglass(state, out)

    def _annihilation(self: Any, state: KlashState, out: list) -> bool:
        alive = {p: bool(state.on_field(p)) for p in state.seats}
        if all(alive.values()):
            return False
        if not any(alive.values()):
            self._final_count(state, out, "mutual_annihilation", underdog=False)
            return True
        winner = next(p for p in state.seats if alive[p])
        self._finish(state, out, winner, "annihilation")
        return True

    def _final_count(self: Any, state: KlashState, out: list, result: str, underdog: bool = True) -> None:
        a, b = state.seats
        if underdog and state.team_vp.get(a, 0) != state.team_vp.get(b, 0):
            low = a if state.team_vp[a] < state.team_vp[b] else b
            core.score(state, low, abs(state.team_vp[a] - state.team_vp[b]), "underdog", out)
        if state.vp[a] != state.vp[b]:
            winner = a if state.vp[a] > state.vp[b] else b
        else:
            winner = self._roll_off(state, out, "vp", high=True)
        self._finish(state, out, winner, result)

    def _finish(self: Any, state: KlashState, out: list, winner: str, result: str) -> None:
        state.winner, state.result, state.over, state.phase = winner, result, True, "over"
        state.acts, state.choices, state.sel, state.esel, state.stack = [], [], None, None, []
        state.stage = ""
        a, b = state.seats
        say(out, "game_over", winner_player=winner, how=term(f"result_{result}"), a_player=a, a_vp=state.vp[a],
            b_player=b, b_vp=state.vp[b], winner=winner, result=result, vp=dict(state.vp))

    def _settle(self: Any, state: KlashState, out: list) -> None:
        for _ in range(200):
            if state.over or state.phase != "match":
                return
            if state.house_rules.get("annihilation_immediate", True) and self._annihilation(state, out):
                return
            state.choices = [c for c in state.choices if c["kind"] == "resume" or self._choice_options(state, c)]
            if state.choices and state.choices[0]["kind"] == "resume":
                c = state.choices.pop(0)
                m = state.model(c["model"])
                if not m.removed:
                    m.x, m.y = c["x"], c["y"]
                    say(out, "moved", model=m.id, name=state.label(m), x=m.x, y=m.y, disengage=True, verb=term("disengages_to"))
                continue
            if state.choices or state.stack or state.esel is not None:
                return
            if state.stage == "initiative" or (state.stage == "final" and state.final_order):
                if state.stage == "final":
                    p = state.final_order[0]
                    if not state.hands[p]:
                        state.final_order.pop(0)
                        continue
                return
            if state.stage == "final":
                self._end_hourglass(state, out)
                continue
            # action stage
            if state.acts:
                act = state.acts[-1]
                m = state.model(act.model)
                if act.ended or m.removed:
                    self._finish_activation(state, out)
                    continue
                # only whether anything but "end" is offered, and the kind being aimed (if any)
                more, aimed = self._act_offers(state, act, state.sel.get("kind") if state.sel is not None else None)
                if not more:
                    self._finish_activation(state, out)
                    continue
                if state.sel is not None and not aimed:
                    state.sel = None   # an Event Card changed things while a target was being chosen
                return
            if state.ext_offer:
                if self._ext_candidates(state):
                    return
                state.ext_offer = False
                continue
            me = state.turn_player
            if state.turn_activations == 0 and self._ready(state, me):
                return
            nxt = state.other(me)
            if self._ready(state, nxt):
                self._begin_turn(state, out, nxt)
            elif self._ready(state, me):
                self._begin_turn(state, out, me)
            else:
                self._end_action_phase(state, out)
        raise RuntimeError("klash: flow did not settle")  # pragma: no cover

    def _finish_activation(self: Any, state: KlashState, out: list) -> None:
        act = state.acts.pop()
        state.sel = None
        m = state.model(act.model)
        if act.dominated:
            if state.house_rules.get("dominated_marked_activated", True):
                m.activated = True
            say(out, "domination_end", model=m.id, name=state.label(m))
            return
        say(out, "activation_end", model=m.id, name=state.label(m))
        state.turn_activations += 1
        if not state.extra_activation_used:
            state.ext_offer = True

    def _ext_candidates(self: Any, state: KlashState) -> list[Model]:
        p = state.turn_player
        if state.tokens.get(p, 0) <= 0 or state.extra_activation_used:
            return []
        key = core.limit_key(state)
        return [m for m in self._ready(state, p) if not core.is_beast(state, m) and m.token_mark != key]
