"""The Carnevale engine: two seats, each player's squad on a physical table, the bot keeping the books.

Flow (digest §5.1-§5.3): deploy (advance party) → each Round: Initiative (automatic roll), the
winner chooses who activates first → alternating Turns (activate a model, spend its AP one action
at a time, end the activation; pass; reinforcements from Round 2; chain activation) → End of Round
(effects expire, Hold Breath, fleeing Morale, Aqua Alta, AP reset) → after the last Round, Victory
Points. Geometry (distances, contact, cover, templates) is told by the players through action fields.
"""
from __future__ import annotations

from typing import Any

from rules.common import (GM, PUBLIC, Actor, Engine, Event, IllegalAction, NotYourTurn, Outcome,
                          Prompt, Rng)
from rules.common.defaults import Days

from . import actions as A
from . import defaults
from . import combat, mechanics as M
from . import prompts as P
from .content import pack_from_doc
from .dice import refused
from .mechanics import has, said
from .squad import Squad, SquadError, check_squad, make_model, sample_squad
from .state import DEFAULT_HOUSE_RULES, GameState, ModelState, PlayerState
from .tables import ENTRY_MOVES, HOUSE_RULE_CHOICES, MOVE_ACTIONS, REACTIONS, RETIRED_HOUSE_RULES
from .answers import Answers
from .ap_actions import APActions
from .books import Books
from .events_table import EventsTable
from .magic import Magic
from .reactions import Reactions
from .turns import Turns
from .victory import Victory

__all__ = ["CarnevaleEngine", "MOVE_ACTIONS"]      # MOVE_ACTIONS: the cog's autocomplete of /carnevale-game ap


# The engine is one class made of the digest's sections (the mixins above): turns, victory, the AP
# actions, the reactions, the books, the Events table, magic and the prompts' answers.
class CarnevaleEngine(Days, Turns, Victory, APActions, Reactions, Books, EventsTable, Magic, Answers, Engine[GameState]):
    system = "carnevale"
    state_type = GameState
    actions = A.ACTIONS
    # The mixins declare the contract's check (`Sections`, for the type checker): this is it.
    check_choice = Engine.check_choice
    days = defaults
    chapter_kinds = defaults.CHAPTER_KINDS
    turning_kinds = defaults.TURNING_KINDS

    # ================================================================== setup
    def setup(self, seats: list[str], options: dict, seed: int) -> GameState:
        return self.start(seats, options, seed).state

    @staticmethod
    def rounds_of(options: dict) -> int:
        """The Rounds a game lasts: `rounds`, else the Black Statue adventure's, else 5."""
        if "rounds" in options:
            return int(options["rounds"])
        from .campaign import BLACK_STATUE
        adv = str(options.get("adventure", ""))
        rounds = next((entry["rounds"] for entry in BLACK_STATUE if entry["id"] == adv), 5)
        return rounds if isinstance(rounds, int) else 5

    def start(self, seats: list[str], options: dict | None = None, seed: int = 0) -> Outcome:
        """The starting state and the set-up events: with `deploy_all` the deployment roll, the
        Initiative and each player's secret Agenda (addressed to its owner, for a DM).

        seats: two player ids. options: squads {pid: Squad dict}, pack (a pack document or a
        Pack; the SAMPLE pack the caller installed when absent), factions {pid: faction} and points (sample squads when no squad is
        given), rounds (5), names {pid: name}, house_rules {key: value}, deploy_all (skip the
        advance-party choice), adventure (a label), agendas (bool)."""
        if len(seats) != 2 or seats[0] == seats[1] or GM in seats or PUBLIC in seats:
            raise IllegalAction("two_players")
        seats, options = list(seats), dict(options or {})
        pack = pack_from_doc(options.get("pack"))
        house = dict(DEFAULT_HOUSE_RULES)
        for key, value in (options.get("house_rules") or {}).items():
            if key in RETIRED_HOUSE_RULES:
                continue
            if key not in house:
                raise IllegalAction("unknown_house_rule", rule=key)
            if key in HOUSE_RULE_CHOICES and value not in HOUSE_RULE_CHOICES[key]:
                raise IllegalAction("house_rule_choices", rule=key, choices=", ".join(HOUSE_RULE_CHOICES[key]))
            house[key] = value
        rng = Rng.from_seed(seed)
        state = GameState(rng=rng, seats=list(seats), players={}, models={}, house_rules=house,
                          spells={k: dict(v) for k, v in pack.spells.items()},
                          max_rounds=self.rounds_of(options), adventure=str(options.get("adventure", "")))
        adv = str(options.get("adventure", ""))
        state.fountains = int(options.get("fountains", 4 if adv == "fountains_of_life" else 0))
        first_always = options.get("first_player_every_round", "")
        if first_always:
            if first_always not in seats:
                raise IllegalAction("first_player_seat")
            state.fixed_first = first_always
        if not 1 <= state.max_rounds <= 20:
            raise IllegalAction("rounds_range")
        names = options.get("names") or {}
        squads = options.get("squads") or {}
        factions = options.get("factions") or {}
        for i, pid in enumerate(seats):
            if pid in squads:
                squad = squads[pid] if isinstance(squads[pid], Squad) else Squad.from_dict(squads[pid])
            else:
                faction = factions.get(pid) or pack.factions[i % max(1, len(pack.factions) - 1)]
                squad = sample_squad(pack, faction, int(options.get("points", 200)))
            try:
                points = check_squad(pack, squad)
            except SquadError as exc:
                raise refused("squad_unfit_of", player=pid, reasons=exc.params["reasons"]) from None
            player = PlayerState(id=pid, name=str(names.get(pid, pid)), squad=squad.name, faction=squad.faction,
                                 squad_built_by=squad.built_by, events_left=squad.events, points=points)
            for j, member in enumerate(squad.members):
                uid = f"{'ab'[i]}{j + 1}"
                m = make_model(pack, member, pid, uid)
                m.ap = m.ap_max
                state.models[uid] = m
                combat.arm_powers(state, m)
                if member.leader:
                    player.leader = uid
            state.players[pid] = player
        events: list[Event] = []
        if house.get("agendas") and options.get("agendas", True):
            for pid in seats:
                state.players[pid].agenda = rng.die(10)
        if options.get("deploy_all", False):
            for pid in seats:
                state.deployed[pid] = [m.uid for m in state.squad(pid)]
            self._after_deploy(state, events)
        return Outcome(state=state, events=events)

    # ================================================================== helpers
    def _pname(self, state: GameState, pid: str) -> str:
        return state.players[pid].name or pid

    def _own(self, state: GameState, m: ModelState, actor: Actor) -> None:
        if not actor.may_act_for(m.owner):
            raise NotYourTurn("not_your_model", model=m.name)

    def _player(self, state: GameState, pid: str, actor: Actor) -> str:
        pid = pid or actor.id
        if pid not in state.players:
            raise IllegalAction("not_in_game")
        if not actor.may_act_for(pid):
            raise NotYourTurn("only_yourself")
        return pid

    def _active(self, state: GameState, uid: str, actor: Actor) -> ModelState:
        m = state.model(uid)
        self._own(state, m, actor)
        if state.active != uid and not (state.partner == uid and state.active):
            raise IllegalAction("not_activating", model=m.name)
        return m

    def activatable(self, state: GameState, pid: str) -> list[ModelState]:
        mine = [m for m in state.squad(pid) if not m.activated]
        fast = [m for m in mine if not has(m, "Slow")]
        return fast if fast else mine

    def reserves(self, state: GameState, pid: str) -> list[ModelState]:
        return [m for m in state.models.values() if m.owner == pid and not m.on_table and not m.fallen
                and not m.evacuated]

    def can_reinforce(self, state: GameState, pid: str) -> bool:
        return state.round >= 2 and not state.reinforce_tried and bool(self.reserves(state, pid))

    def can_pass(self, state: GameState, pid: str) -> bool:
        rule = state.house_rules.get("pass_rule", "fewer_unactivated")
        other = state.opponent(pid)
        if rule == "none" or not self.activatable(state, other):
            return False
        if rule == "fewer_activated":
            mine = sum(1 for m in state.squad(pid) if m.activated)
            theirs = sum(1 for m in state.squad(other) if m.activated)
            return mine < theirs
        return len(self.activatable(state, pid)) < len(self.activatable(state, other))

    def can_chain(self, state: GameState, pid: str) -> bool:
        leader = M.first_leader(state, pid)
        return (leader is not None and leader.command >= 1 and not state.players[pid].chain_used
                and len(self.activatable(state, pid)) > (1 if state.active else 0))

    # ================================================================== step
    def step_answer(self, state: GameState, choice: Any, actor: Actor, prompt: Prompt) -> list[Event]:
        # the bot's search has just taken `prompt` from `pending`: looking it up again was a sixth of a search
        return self.step(state, choice, actor, known=prompt)

    def step(self, state: GameState, action: Any, actor: Actor, known: Prompt | None = None) -> list[Event]:
        handler = getattr(self, f"_do_{action.type}", None)
        if handler is None:
            raise IllegalAction("unknown_action", action=action.type)
        if state.sub.get("kind") in ("reroll", "annul", "disengage", "bodyguard", "defensive", "ready_shot") and \
                action.type not in ("choose", "concede"):
            raise IllegalAction("reaction_pending")
        if state.opportunities and action.type not in ("choose", "concede") and not (
                action.type == "attack" and getattr(action, "opportunity", False)):
            offer = state.opportunities[0]
            raise IllegalAction("opportunity_pending", model=state.models[offer["model"]].name,
                                target=state.models[offer["target"]].name)
        pre: list[Event] = []
        uid = getattr(action, "model", "")
        if isinstance(uid, str) and uid in state.models and state.models[uid].entering and action.type in (
                "attack", "shoot", "cast", "heal", "steal", "disengage", "fall", "spend_ap") and not (
                action.type == "spend_ap" and action.action in ENTRY_MOVES) and not (
                action.type == "attack" and getattr(action, "opportunity", False)) and not (
                action.type == "fall" and not getattr(action, "voluntary", False)):
            raise IllegalAction("entering", model=state.models[uid].name)
        if isinstance(uid, str) and uid in state.models and action.type in (
                "attack", "shoot", "heal", "disengage", "steal", "spend_ap") and not (
                action.type == "spend_ap" and action.action in ("walk", "walk_difficult")) and not (
                action.type == "attack" and getattr(action, "opportunity", False)):
            for t, e in M.bonds_of(state, state.models[uid]):
                if e.caster == uid:   # a caster holding a Spiritual Bond may only Walk
                    pre += M.break_bond(state, t, e, said("bond_not_walk", name=state.models[uid].name))
        shared = state.partner and getattr(action, "model", "") == state.partner and state.active
        if shared:   # Partners share one AP pool: lend it to the partner for this action
            state.models[state.partner].ap += state.models[state.active].ap
            state.models[state.active].ap = 0
        acting = state.active if state.phase == "activation" else ""
        ap_before = state.models[acting].ap if acting else 0
        ready_before = state.models[acting].at_ready if acting else ""
        events = pre + (self._do_choose(state, action, actor, known) if known is not None and action.type == "choose"
                        else handler(state, action, actor))
        events += self._morale_due(state)
        if acting and acting in state.models:
            m = state.models[acting]
            if m.ap < ap_before or (m.at_ready and not ready_before):   # an action of the activating model ended
                if state.sub.get("kind") in REACTIONS or state.opportunities:
                    state.ready_due = m.uid          # once the reaction is answered
                else:
                    events += self._offer_ready_shot(state, m)
        if state.ready_due and not state.sub and not state.opportunities:
            due, state.ready_due = state.models.get(state.ready_due), ""
            if due is not None:
                events += self._offer_ready_shot(state, due)
        if shared and state.partner and state.active:
            state.models[state.active].ap += state.models[state.partner].ap
            state.models[state.partner].ap = 0
        if (state.active and not state.models[state.active].in_play and state.phase == "activation"
                and state.sub.get("kind") not in ("reroll", "annul", "disengage", "bodyguard", "defensive", "ready_shot")):
            events += self._end_activation(state, state.models[state.active])
        if state.finish_after_geyser and not (state.morale_queue or state.morale_due or state.opportunities
                                              or state.sub or state.over):
            # the last End of Round's Geyser (and the Morale it caused) is resolved: the game ends
            state.finish_after_geyser = False
            events += self._finish(state)
        return events

    # ================================================================== prompts
    def pending(self, state: GameState) -> list[Prompt]:
        return P.pending(self, state)

    def _castable(self, state: GameState, m: ModelState) -> list[dict]:
        spells = state.spells
        return [spells[s] for s in m.spells if s in spells and not spells[s].get("reaction")]

    def is_over(self, state: GameState) -> bool:
        return bool(state.over)

    # ================================================================== views
    def view_for(self, state: GameState, viewer: str) -> dict:
        from .views import game_view
        return game_view(self, state, viewer)


# The engine every caller plays on. Made here, not in the façade, so that ai.py (which the façade
# imports) takes it from below without an import circle.
ENGINE: CarnevaleEngine = CarnevaleEngine()
