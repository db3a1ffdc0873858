"""Who must decide what now (``pending``): every prompt and its options, derived from the state only;
the destinations and targets behind the two-step buttons.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import itertools
import math

from rules.common.engine import Option, Prompt, term

from . import arena, core
from .core import has
from .rules_numbers import TEAM_MAX
from .state import KlashState, Model


class Prompts:
    def _move_destinations(self: Any, state: KlashState, m: Model, allowance: float, disengage: bool,
                           only: str | None = None) -> list[tuple[Option, list]]:
        """[(option, [points])]: steps toward useful places (around the Altar if needed); ``only``: just
        the one with that option id, if offered (the move chosen: the other routes are not needed)."""
        me = core.disc(state, m)
        models = core.discs(state)
        exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        result = []
        for oid, kind, target, goal, stop in itertools.islice(self._goals(state, m, me, allowance, disengage, exempt), 24):
            if only is not None and oid != only:
                continue
            route = self._route(me, goal, models, allowance, stop, exempt)
            if route:
                p = route[-1]
                via = term("via_altar" if len(route) > 1 else "via_straight")
                args: dict[str, Any] = {"target_name": state.label(target)} if target is not None else {}
                result.append((Option.of(oid, kind, via=via, x=round(p[0]), y=round(p[1]), **args), route))
        return result

    @staticmethod
    def _goals(state: KlashState, m: Model, me: Any, allowance: float, disengage: bool,
               exempt: tuple) -> Iterator[tuple[str, str, Model | None, tuple, float]]:
        """Where a move may head, in the order offered: away from the melee (disengaging), toward
        each enemy, the Altar, the own Gate, the enemy Gate (option id, kind, the enemy it heads for,
        the point, how far short of it to stop)."""
        if disengage and exempt:
            cx = sum(state.model(e).x for e in exempt) / len(exempt)
            cy = sum(state.model(e).y for e in exempt) / len(exempt)
            dx, dy = m.x - cx, m.y - cy
            n = math.hypot(dx, dy) or 1.0
            yield "away", "away_from_melee", None, (m.x + dx / n * allowance, m.y + dy / n * allowance), 0.0
        for o in state.on_field():
            if o.owner == m.owner:
                continue  # friends: use the Move command with coordinates
            stop = me.r + core.radius(state, o) + arena.MIN_ENEMY_GAP + 0.02
            yield f"to:{o.id}", "toward_enemy", o, (o.x, o.y), stop
        yield "to:alt", "toward_altar", None, arena.CENTRE, arena.ALTAR_RADIUS + me.r + 0.02
        own = state.gates[m.owner]
        yield ("to:g0" if own == 0 else "to:g1", "toward_own_gate", None, arena.GATES[own],
               arena.GATE_RADIUS + me.r + 1.02)
        yield ("to:g1" if own == 0 else "to:g0", "toward_enemy_gate", None, arena.GATES[1 - own],
               arena.GATE_RADIUS + me.r + 1.02)

    def _can_move(self: Any, state: KlashState, m: Model, kind: str) -> bool:
        """An action that moves is offered only when it has somewhere to go (no dead-end prompt). Only
        whether some goal is reachable, not which: first whether one is in a straight line (cheap),
        only then whether there is a way around to one (the dearest question of the prompts)."""
        disengage = kind == "dis"
        allowance = self._disengage_allowance(state, m) if disengage else self._move_allowance(state, m, kind == "mv2")
        me, models = core.disc(state, m), core.discs(state)
        exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        goals = [(goal, stop) for *_, goal, stop in
                 itertools.islice(self._goals(state, m, me, allowance, disengage, exempt), 24)]
        return (any(arena.straight_route(me, goal, models, allowance, stop_gap=stop, exempt=exempt) for goal, stop in goals)
                or any(self._route(me, goal, models, allowance, stop, exempt) for goal, stop in goals))

    @staticmethod
    def _route(me, goal, models, allowance, stop, exempt):
        """Waypoints toward a goal, around whatever stands in the way (toward the Altar itself the
        route stops at its edge: the goal's own disc is not in the way)."""
        return arena.step_route(me, goal, models, allowance, stop_gap=stop, exempt=exempt)

    def _targets_for(self: Any, state: KlashState, kind: str) -> list[Option]:
        act = state.acts[-1]
        m = state.model(act.model)
        base = kind.rstrip("2") if not kind.startswith("mg") else kind
        if kind in ("mv", "mv2", "dis"):
            allowance = self._disengage_allowance(state, m) if kind == "dis" else self._move_allowance(state, m, kind == "mv2")
            return [o for o, _ in self._move_destinations(state, m, allowance, kind == "dis")]
        if base == "as":
            return [Option.of(f"t:{t.id}", "assault_target", target_name=state.label(t)) for t in self._assault_targets(state, m)]
        if base == "vo":
            return [Option.of(f"t:{t.id}", "volley_target", target_name=state.label(t)) for t in self._volley_targets(state, m)]
        if base == "ch":
            opts = [Option.of(f"t:{t.id}", "charge_target", target_name=state.label(t)) for t in self._charge_targets(state, m)]
            if has(state, m, "spellcaster") and "destructive_touch" in core.stat(state, m, "spells") and m.id not in state.cast:
                opts += [Option.of(f"x:{t.id}", "charge_touch_target", target_name=state.label(t))
                         for t in self._charge_targets(state, m)]
            return opts[:24]
        if kind.startswith("mg"):
            spell = core.CODE_SPELLS[kind.split(":")[1]]
            targets = self._spell_targets(state, m, spell)
            if spell == "armour":
                return [Option.of("self", "cast_on_self")]
            if spell == "teleport":
                return [Option.of(f"p:{i}", "teleport_to", x=round(p[0]), y=round(p[1])) for i, p in enumerate(targets)][:24]
            return [Option.of(f"t:{t.id}", "spell_target", target_name=state.label(t)) for t in targets][:24]
        return []

    def pending(self: Any, state: KlashState) -> list[Prompt]:
        if state.over:
            return []
        s = state.seq
        if state.phase == "draft":
            p = self.picker(state)
            n = "pick_one" if state.round_picks == 0 else ("pick_first_of_two" if state.round_picks == 1
                                                           else "pick_second_of_two")
            return [Prompt.ask("pick", {"round": state.draft_round, "take": term(n)}, p,
                               (Option.of(f"c{i}", "card", card_name=core.words(state.cards[c], "name"))
                                for i, c in enumerate(state.revealed)), key=(s,))]
        if state.phase == "team":
            secret = bool(state.house_rules.get("secret_team"))
            return [Prompt.ask("team", {"most": TEAM_MAX, "picks": len(state.picks[p])}, p,
                               (Option.of(f"p{i}", "team_card", card_name=core.words(state.cards[c], "name"), vp=state.cards[c]["vp"])
                                for i, c in enumerate(state.picks[p])),
                               key=(state.seats.index(p),), private=secret, min_choices=1,
                               max_choices=min(TEAM_MAX, len(state.picks[p])))
                    for p in state.seats if p not in state.team_choice]
        if state.phase == "deploy":
            p = state.deploy_turn
            if state.sel and state.sel.get("kind") == "deploy":
                m = state.model(state.sel["model"])
                spots = self._deploy_spots(state, m)
                opts = [Option.of(f"s{i}", "spot", x=x, y=y) for i, (x, y) in enumerate(spots)]
                return [Prompt.ask("spot", {"name": state.label(m)}, p, opts + [Option.of("back")], key=(s,))]
            return [Prompt.ask("deploy", {}, p, (Option.of(m.id, "model", name=state.label(m)) for m in state.models
                                                 if m.owner == p and not m.placed), key=(s,))]
        prompts: list[Prompt] = []
        if state.window is not None:
            w = state.window
            m = state.model(w["model"])
            what = dict(w["what"])
            return [Prompt.ask(f"reroll_{what.pop('roll')}", {"name": state.label(m), **what}, w["player"],
                               (Option.of("yes", "reroll_yes"), Option.of("no", "reroll_no")),
                               key=(s, len(w["decisions"])))]
        if state.stack:
            p = state.stack_next
            if state.esel is not None:
                return [self._esel_prompt(state)]
            opts = [Option.of(f"h{i}", "event_card", card_name=core.words(state.event_cards[c], "name"))
                    for i, c in enumerate(state.hands[p]) if self._playable(state, p, c)]
            return [Prompt.ask("respond", {}, p, opts + [Option.of("pass")], key=(s,), private=True)]
        if state.esel is not None:
            return [self._esel_prompt(state)]
        if state.choices:
            c = state.choices[0]
            m = state.model(c["model"])
            return [Prompt.ask(f"free_{c['kind']}", {"name": state.label(m)}, c["player"],
                               self._choice_options(state, c) + [Option.of("no", "decline")], key=(s,))
                    ] + self._hand_prompts(state)
        if state.stage == "initiative":
            return [Prompt.ask("initiative", {}, state.init_winner,
                               (Option.of("me", "init_me"), Option.of("you", "init_you")), key=(state.hourglass,))
                    ] + self._hand_prompts(state)
        if state.stage == "final" and state.final_order:
            p = state.final_order[0]
            # "keep" makes "none" choosable with buttons too (one card: two buttons)
            return [Prompt.ask("swap", {}, p, [Option.of(f"h{i}", "discard", card_name=core.words(state.event_cards[c], "name"))
                                               for i, c in enumerate(state.hands[p])] + [Option.of("keep")],
                               key=(state.hourglass, state.seats.index(p), *state.hands[p]), private=True,
                               min_choices=0, max_choices=len(state.hands[p]))
                    ] + self._hand_prompts(state)
        if state.stage != "action":
            return []
        if state.acts:
            act = state.acts[-1]
            m = state.model(act.model)
            # The action prompt keeps its id while its decision stays the same (an Event Card played
            # and resolved meanwhile does not make it another prompt); every answer changes the key.
            step = (state.turn_no, act.model, len(state.acts), act.used, act.allowed, int(act.free_assault))
            if state.sel is not None:
                opts = self._targets_for(state, state.sel["kind"]) + [Option.of("back")]
                prompts.append(Prompt.ask("target", {"name": state.label(m)}, act.controller, opts,
                                          key=(*step, state.sel["kind"], *(o.id for o in opts))))
            else:
                opts = self._act_kinds(state, act)
                prompts.append(Prompt.ask("act", {"name": state.label(m), "left": self._remaining(act)}, act.controller,
                                          opts, key=(*step, *(o.id for o in opts))))
        elif state.ext_offer:
            p = state.turn_player
            opts = [Option.of(m.id, "extra_model", name=state.label(m)) for m in self._ext_candidates(state)]
            prompts.append(Prompt.ask("extra_activation", {}, p, opts + [Option.of("no", "end_turn")], key=(s,)))
        else:
            p = state.turn_player
            ready = self._ready(state, p)
            prompts.append(Prompt.ask("activate", {}, p, (Option.of(m.id, "model", name=state.label(m)) for m in ready),
                                      key=(state.turn_no, *(m.id for m in ready))))
        prompts += self._hand_prompts(state)
        # The player who is not acting may arm a Training Token re-roll (optional, public).
        other = state.other(state.turn_player) if state.turn_player else ""
        acting = state.acts[-1].controller if state.acts else state.turn_player
        if other and other != acting and not state.house_rules.get("reroll_window", True):
            eligible = [m for m in state.on_field(other) if self._token_ok(state, m, other) and not m.reroll_armed]
            if eligible:
                prompts.append(Prompt.ask("arm_reroll", {}, other,
                                          (Option.of(f"r:{m.id}", "arm_reroll_for", name=state.label(m)) for m in eligible[:25]),
                                          key=(state.seats.index(other), state.tokens[other], state.turn_no)))
        return prompts
