"""Training Tokens (digest §3.9, §4.3): an extra action, an extra activation or a re-roll, after a
Discipline test (Veteran skips it); once per character per Turn; never for Beasts and Monsters.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from typing import Any

from rules.common.engine import term
from rules.common.errors import IllegalAction

from . import core
from .core import has, require, say
from .state import KlashState


class Tokens:
    def _use_token(self: Any, state: KlashState, out: list, player: str, mid: str, effect: str) -> None:
        require(state.phase == "match", "tokens_in_match")
        m = state.model(mid)
        require(m.owner == player and m.placed and not m.removed, "token_own_model")
        require(not core.is_beast(state, m), "beasts_no_tokens")
        require(state.tokens.get(player, 0) > 0, "no_tokens_left")
        require(m.token_mark != core.limit_key(state), "token_used_this_turn", name=state.label(m))
        if effect == "action":
            act = self._current(state, player, mid)
            require(state.turn_player == player and not act.dominated, "token_action_own_turn")
            require(not act.extra_action, "one_extra_action")
        elif effect == "activation":
            require(state.stage == "action" and state.turn_player == player and not state.acts and state.ext_offer
                    and not state.extra_activation_used, "extra_activation_when")
            require(not m.activated, "already_activated", name=state.label(m))
        elif effect == "reroll":
            require(not state.house_rules.get("reroll_window", True),
                    "reroll_offered_after")
            require(not m.reroll_armed, "reroll_already_ready", name=state.label(m))
        else:
            raise IllegalAction("token_effects")
        state.tokens[player] -= 1
        m.token_mark = core.limit_key(state)
        if effect == "activation":
            state.extra_activation_used = True
            state.ext_offer = False
        if has(state, m, "veteran"):
            ok = True
            say(out, "veteran", model=m.id, name=state.label(m))
        else:
            ok, _ = core.discipline_test(state, out, m, "Training Token", allow_armed=False)
        say(out, "token", player=player, model=m.id, name=state.label(m), effect=effect, use=term(f"token_{effect}"),
            ok=ok, result=term("token_works" if ok else "token_wasted"))
        if not ok:
            return
        if effect == "action":
            act = state.acts[-1]
            act.allowed += 1
            act.extra_action = True
        elif effect == "activation":
            self._open_activation(state, out, m, player)
        else:
            m.reroll_armed = True
