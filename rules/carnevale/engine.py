"""The Carnevale engine: two seats, each player's squad on a physical table, the bot keeping the books.

Flow (digest §5.1-§5.3): deploy (advance party) → each Round: Initiative (automatic roll), the
winner chooses who activates first → alternating Turns (activate a model, spend its AP one action
at a time, end the activation; pass; reinforcements from Round 2; chain activation) → End of Round
(effects expire, Hold Breath, fleeing Morale, Aqua Alta, AP reset) → after the last Round, Victory
Points. Geometry (distances, contact, cover, templates) is told by the players through action fields.
"""
from __future__ import annotations

from typing import Any

from rules.common import (GM, PUBLIC, Actor, Choose, Engine, Event, IllegalAction, NotYourTurn, Outcome,
                          Prompt, Rng, term)

from . import actions as A
from . import combat, mechanics as M, tables
from . import prompts as P
from .content import pack_from_doc
from .dice import (BASIC_DIFFICULTY, ceil_half, d5_from_d10, reroll_aces, reroll_all, reroll_misses, roll_initiative,
                   scatter)
from .mechanics import attr, has, said, say, slug
from .squad import Squad, check_squad, make_model, sample_squad
from .state import DEFAULT_HOUSE_RULES, Effect, GameState, ModelState, PlayerState

HOUSE_RULE_CHOICES = {
    "pool_order": ("net_then_clamp", "cap_bonuses_first"),
    "terrain": ("en", "es_ttcombat"),
    "pass_rule": ("fewer_unactivated", "fewer_activated", "none"),
    "second_stun_same_turn": ("ignored", "damage"),
    "fall_protection": ("base_only", "none"),
    "template_damage_roll": ("shared", "each"),
    "fragment_steal_tie": ("bearer_keeps", "reroll"),
    "fear_timing": ("before_attack_roll", "after_attack"),
}

# A reinforcement's first action must be one of these moves from the table edge (digest §5.2).
ENTRY_MOVES = {"walk", "walk_difficult", "run", "jump", "running_jump", "swim", "climb", "hide", "row"}

# House rules that no longer exist, still ignored when a server's stored settings carry them:
# hostage_freed_counts — Rescue of the Prisoner's objective is awarded by the GM (Objective), who
# applies whichever reading the table agreed; no engine rule consulted the key.
RETIRED_HOUSE_RULES = {"hostage_freed_counts"}

REACTIONS = ("reroll", "annul", "disengage", "bodyguard", "defensive", "ready_shot")

MOVE_ACTIONS = {  # action: (AP, needs a Dex roll)
    "walk": (1, False), "walk_difficult": (1, False), "run": (1, True), "jump": (1, False),
    "running_jump": (1, True), "swim": (1, False), "climb": (1, True), "hide": (1, False),
    "rappel": (1, True), "run_on_walls": (1, True), "clear_stun": (1, False), "interact": (1, False),
    "row": (1, True), "at_ready_melee": (1, False), "at_ready_shooting": (1, False), "fix_jam": (2, False),
    "fill_vial": (1, False), "pick_up_fragment": (1, False),
    "reload": (0, False), "drink_infusion": (1, False), "drink_elixir": (2, False), "other": (1, False),
}

MULTI_TARGET_SPELLS = {"kraken", "darkness", "claws", "rashaar_heal"}


class CarnevaleEngine(Engine[GameState]):
    system = "carnevale"
    state_type = GameState
    actions = A.ACTIONS

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

        seats: two player ids. options: squads {pid: Squad dict}, pack (a pack document; the
        SAMPLE pack when absent), factions {pid: faction} and points (sample squads when no squad is
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
            except IllegalAction as exc:
                raise IllegalAction(f"{names.get(pid, pid)}: {exc}") from None
            player = PlayerState(id=pid, name=str(names.get(pid, pid)), squad=squad.name, faction=squad.faction,
                                 events_left=squad.events, points=points)
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
        state.log = [e.to_dict() for e in events if e.public][-30:]
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
    def step(self, state: GameState, action: Any, actor: Actor) -> list[Event]:
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
        events = pre + handler(state, action, actor)
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
        state.log = (state.log + [e.to_dict() for e in events if e.public])[-30:]
        return events

    # ------------------------------------------------------------------ deployment and rounds
    def _do_deploy(self, state: GameState, a: A.Deploy, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        if state.phase != "deploy":
            raise IllegalAction("deployment_over")
        if pid in state.deployed:
            raise IllegalAction("deployed_already")
        squad = state.squad(pid)
        chosen = list(dict.fromkeys(a.models))
        for uid in chosen:
            if uid not in state.models or state.models[uid].owner != pid:
                raise IllegalAction("not_one_of_yours", model=uid)
        if len(chosen) < ceil_half(len(squad)):
            raise IllegalAction("advance_party", n=ceil_half(len(squad)))
        state.deployed[pid] = chosen
        for m in squad:
            m.on_table = m.uid in chosen
        events = [Event("deploy", {"player": pid, "n": len(chosen), "waiting": len(squad) - len(chosen)})]
        if all(p in state.deployed for p in state.seats):
            self._after_deploy(state, events)
        return events

    def _after_deploy(self, state: GameState, events: list[Event]) -> None:
        while True:
            a, b = state.rng.die(10), state.rng.die(10)
            if a != b:
                break
        state.deploy_first = state.seats[0] if a > b else state.seats[1]
        events.append(say("deploy_roll", rolls=[a, b], a=a, b=b, first=state.deploy_first,
                          first_player=state.deploy_first))
        for pid in state.seats:
            if state.players[pid].agenda:
                n = state.players[pid].agenda
                events.append(say("agenda", audience=pid, agenda=n, name=term(f"agenda_{n}"),
                                  condition=term(f"agenda_{n}_condition"), vp=tables.AGENDAS[n][1]))
        self._start_round(state, events)

    def _start_round(self, state: GameState, events: list[Event]) -> None:
        a_pid, b_pid = state.seats
        if state.fixed_first:
            # e.g. Nighttime Ambush: the defender plays first every Round, no Initiative roll
            state.initiative = {"round": state.round, "winner": state.fixed_first, "reason": "fixed by the adventure",
                                "rolls": []}
            state.first_player = state.turn_player = state.fixed_first
            state.phase = "activation"
            events.append(say("initiative_fixed", round=state.round, winner=state.fixed_first,
                              winner_player=state.fixed_first))
            self._begin_turn(state, events)
            return
        la, lb = M.first_leader(state, a_pid), M.first_leader(state, b_pid)
        ini = roll_initiative(state.rng, la.command if la else 0, attr(la, "MIN") if la else 0,
                              lb.command if lb else 0, attr(lb, "MIN") if lb else 0)
        winner = a_pid if ini.winner == "a" else b_pid
        rolls = [[ra.to_public(), rb.to_public()] for ra, rb in ini.rolls]
        state.initiative = {"round": state.round, "winner": winner, "reason": ini.reason, "rolls": rolls}
        state.phase = "order"
        last = ini.rolls[-1]
        events.append(say("initiative", round=state.round, winner=winner, reason=ini.reason, rolls=rolls,
                          a_player=a_pid, b_player=b_pid, a_roll=M.outcome(last[0]), b_roll=M.outcome(last[1]),
                          winner_player=winner, why=term(f"initiative_{slug(ini.reason)}")))

    def _do_order(self, state: GameState, a: A.ChooseOrder, actor: Actor) -> list[Event]:
        if state.phase != "order":
            raise IllegalAction("no_order_now")
        winner = state.initiative["winner"]
        if not actor.may_act_for(winner):
            raise NotYourTurn("order_by_winner")
        if a.first not in ("me", "opponent"):
            raise IllegalAction("order_choice")
        first = winner if a.first == "me" else state.opponent(winner)
        state.first_player = first
        state.turn_player = first
        state.phase = "activation"
        events = [Event("order", {"player": first, "round": state.round})]
        self._begin_turn(state, events)
        return events

    def _queue_geyser(self, state: GameState, pid: str) -> None:
        state.counter += 1
        state.morale_queue.append({"id": f"gy-{state.counter}", "player": pid, "kind": "geyser"})

    def _geyser_attacks(self, state: GameState, uids: list[str]) -> list[Event]:
        """The Geyser: a Combat-4 attack with Penetration (4) on each model within 5'' (each its own roll
        against its DEX; no template Dex roll, digest §7.19); a Critical Stuns as in close combat."""
        from .dice import roll_pool
        events: list[Event] = []
        for uid in uids:
            m = state.model(uid)
            if not m.in_play:
                continue
            dex = attr(m, "DEX", state)
            r = roll_pool(state.rng, 4, dex, label="the Geyser")
            events.append(M.record(state, None, r, f"the Geyser (Combat 4) against {m.name}, DEX {dex}",
                                   what=said("roll_geyser", name=m.name, dex=dex)))
            if r.aces:
                events += M.apply_damage(state, m, r.aces, penetration=4, source="the Geyser")[1]
            else:
                events.append(Event("miss", {"model": m.uid, "attacker": term("geyser"), "target_name": m.name}))
            if r.critical:
                events += M.stun(state, m, "the Geyser's Critical")
        return events

    def _begin_turn(self, state: GameState, events: list[Event]) -> None:
        state.turn += 1
        state.mad_minute = []
        state.reinforce_tried = False
        state.sub = {}
        pid = state.turn_player
        if not self._can_act(state, pid):
            other = state.opponent(pid)
            if self._can_act(state, other):
                state.turn_player = other
            else:
                state.phase = "end_round"
                events.append(Event("end_round_due", {"round": state.round}))
                return
        events.append(Event("turn", {"player": state.turn_player}))

    def _can_act(self, state: GameState, pid: str) -> bool:
        if self.activatable(state, pid):
            return True
        return pid not in state.held and state.round >= 2 and bool(self.reserves(state, pid))

    def _next_turn(self, state: GameState, events: list[Event], same_player: bool = False) -> None:
        if not same_player:
            state.turn_player = state.opponent(state.turn_player)
        self._begin_turn(state, events)

    def _do_activate(self, state: GameState, a: A.Activate, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        self._own(state, m, actor)
        self._check_turn(state, m.owner)
        if m not in self.activatable(state, m.owner):
            if has(m, "Slow") and not m.activated and m.in_play:
                raise IllegalAction("slow", model=m.name)
            raise IllegalAction("cannot_activate", model=m.name)
        events = self._activate(state, m)
        if a.partner:
            p = state.model(a.partner)
            names = [str(ab.get("target", "")) for ab in M.all_abilities(m) if ab["name"] == "Partners"]
            if not any(n and n in (p.profile, p.name) for n in names):
                raise IllegalAction("not_partner", model=p.name, partner=m.name)
            if p.owner != m.owner or p.activated or not p.in_play:
                raise IllegalAction("cannot_activate", model=p.name)
            state.partner = p.uid
            m.ap += p.ap
            p.ap = 0
            events.append(say("partners", model=m.uid, partner=p.uid, ap=m.ap, name=m.name, partner_name=p.name))
        return events

    def _check_turn(self, state: GameState, pid: str) -> None:
        if state.phase != "activation":
            raise IllegalAction("not_in_round")
        if state.active:
            raise IllegalAction("still_activating", model=state.models[state.active].name)
        if state.turn_player != pid:
            raise NotYourTurn("not_your_turn")

    def _activate(self, state: GameState, m: ModelState) -> list[Event]:
        state.active = m.uid
        events = [Event("activate", {"model": m.uid, "name": m.name, "ap": m.ap})]
        if m.at_ready:
            m.at_ready = ""
            events.append(Event("at_ready_lost", {"model": m.uid, "name": m.name, "why": term("ready_activates")}))
        if has(m, "Savage") and M.past_last_threshold(m) and not m.petrified:
            face = state.rng.die(10)
            bonus = d5_from_d10(face)
            m.ap += bonus
            events.append(say("savage", model=m.uid, name=m.name, face=face, bonus=bonus, ap=m.ap))
        if has(m, "Mindless") and any(has(x, "Mind Control") for x in state.squad(m.owner, False) if x.fallen) \
                and not any(has(x, "Mind Control") for x in state.squad(m.owner)):
            r = M.model_roll(state, m, attr(m, "MIN"), label="Mind roll without its controller", events=events,
                             stat="MIN", what=term("roll_uncontrolled"))
            if not r.success:
                m.ap = 0
                events.append(say("uncontrolled", model=m.uid, name=m.name))
        if m.fleeing:
            events.append(say("fleeing", model=m.uid, name=m.name))
        for e in m.effects:
            if e.kind == "bond":
                events.append(say("bond_reminder", model=m.uid, name=m.name))
        return events

    def _do_reinforce(self, state: GameState, a: A.Reinforce, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        self._own(state, m, actor)
        self._check_turn(state, m.owner)
        if state.round < 2:
            raise IllegalAction("reinforce_round")
        if m.on_table or m.fallen:
            raise IllegalAction("not_reinforcement", model=m.name)
        if state.reinforce_tried:
            raise IllegalAction("reinforce_tried")
        need = tables.reinforcement_needed(a.method)
        rolls = []
        if need:
            rolls = [state.rng.die(10)] + ([state.rng.die(10)] if has(m, "Infiltration") else [])
        best = max(rolls) if rolls else 10
        events = []
        if best >= need:
            m.on_table = True
            m.entering = True
            events.append(say("reinforce_rolled" if rolls else "reinforce", model=m.uid, method=a.method,
                              rolls=rolls, name=m.name, where=term(f"enter_{a.method}")))
            events += self._activate(state, m)
        else:
            state.reinforce_tried = True
            events.append(say("reinforce_fail", model=m.uid, rolls=rolls, name=m.name,
                              method=term(f"entry_{a.method}"), need=need))
            if not self.activatable(state, m.owner):
                self._next_turn(state, events)
        return events

    def _do_pass(self, state: GameState, a: A.Pass, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        self._check_turn(state, pid)
        if not self.can_pass(state, pid):
            raise IllegalAction("no_pass")
        events = [Event("pass", {"player": pid})]
        self._next_turn(state, events)
        return events

    def _do_end_activation(self, state: GameState, a: A.EndActivation, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor)
        return self._end_activation(state, m)

    def _end_activation(self, state: GameState, m: ModelState, chain: bool = False) -> list[Event]:
        if state.partner and m.uid == state.partner:
            m = state.models[state.active]
        m.activated = True
        m.entering = False
        if state.partner:
            state.models[state.partner].activated = True
            state.partner = ""
        state.active = ""
        state.sub = {}
        events = [Event("activation_end", {"model": m.uid, "name": m.name})]
        if chain:
            events += self._declare_chain(state, m.owner)
            if state.chain:
                return events
        self._next_turn(state, events)
        return events

    def _declare_chain(self, state: GameState, pid: str) -> list[Event]:
        if not self.can_chain(state, pid):
            raise IllegalAction("no_chain")
        leader = M.first_leader(state, pid)
        leader.command -= 1
        state.players[pid].chain_used = True
        events = [Event("chain", {"player": pid, "name": leader.name, "command": leader.command})]
        enemy = M.first_leader(state, state.opponent(pid))
        if enemy is not None and enemy.command >= 1:
            state.counter += 1
            state.chain = {"player": pid, "id": f"cancel-{state.counter}"}
        else:
            self._next_turn(state, events, same_player=True)
        return events

    def _do_chain(self, state: GameState, a: A.ChainActivation, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor) if state.active else state.model(a.model)
        self._own(state, m, actor)
        if state.active == m.uid:
            return self._end_activation(state, m, chain=True)
        raise IllegalAction("chain_when")

    def _resolve_chain(self, state: GameState, cancel: bool) -> list[Event]:
        pid = state.chain["player"]
        state.chain = {}
        events: list[Event] = []
        if cancel:
            enemy = M.first_leader(state, state.opponent(pid))
            enemy.command -= 1
            events.append(Event("chain_cancel", {"player": state.opponent(pid), "name": enemy.name,
                                                 "command": enemy.command}))
            self._next_turn(state, events)
        else:
            self._next_turn(state, events, same_player=True)
        return events

    def _do_end_round(self, state: GameState, a: A.EndRound, actor: Actor) -> list[Event]:
        if state.phase != "end_round" and not actor.gm:
            raise IllegalAction("round_not_over")
        if state.phase in ("deploy", "over"):
            raise IllegalAction("no_round")
        if state.phase == "end_round" and not (actor.gm or actor.id in state.seats):
            raise NotYourTurn("end_round_who")
        return self._end_round(state)

    def _end_round(self, state: GameState) -> list[Event]:
        rnd = state.round
        state.turn += 1                      # End of Round is its own Turn for the one-Stun rule
        state.active = ""
        state.sub = {}
        state.chain = {}
        events = [Event("end_of_round", {"round": rnd})]
        for m in state.models.values():
            expired = [e for e in m.effects if e.expires and e.expires <= rnd]
            for e in expired:
                m.effects.remove(e)
                if e.kind == "darkness":
                    m.in_darkness = any(x.kind == "darkness" for x in m.effects)
                if e.kind == "petrify":
                    m.petrified = False
                events.append(say("effect_end", model=m.uid, name=m.name, spell=e.name))
            if expired:
                combat.arm_powers(state, m)
        for m in list(state.models.values()):
            if m.in_play and (m.drowning or (m.in_water and m.immobilised)):
                events += M.hold_breath(state, m)
                if m.drowned_by and state.models.get(m.drowned_by) and \
                        state.models[m.drowned_by].last_action == "drown":
                    events.append(say("drown_hold", model=m.uid, name=m.name))
                else:
                    m.drowning = m.in_water and m.immobilised
        if state.geyser:
            self._queue_geyser(state, state.first_player or state.seats[0])
            events.append(say("geyser"))
        if state.aqua_alta:
            d = state.rng.die(10)
            if d >= 7:
                state.aqua_alta = ""
                events.append(say("aqua_alta_end", d=d))
            else:
                events.append(say("aqua_alta", d=d))
        # fleeing models roll to rally, each with its reroll window (none after the last Round: the
        # adventure is over and nothing would come of it)
        events += self._morale_queue(state, [m.uid for m in state.models.values() if m.in_play and m.fleeing], 0,
                                     "fleeing", rally=True, window=rnd < state.max_rounds)
        for m in state.models.values():
            if m.in_play:
                m.activated = False
                m.ap = m.ap_max // 2 if m.half_ap else m.ap_max
            m.casts_this_round = 0
            m.cast_locked = False
            m.first_strike_used = False
            m.command_received = 0
            m.protection_boost = 0
            m.immobilised = False
        for p in state.players.values():
            p.chain_used = False
        state.held = []
        if state.fountains:
            faces = [state.rng.die(10) for _ in range(state.fountains)]
            dry = sum(1 for f in faces if f == 1)
            state.fountains -= dry
            events.append(say("fountains", faces=faces, left=state.fountains, dry=dry))
        if rnd >= state.max_rounds:
            if state.geyser:
                # The Geyser attacks at every End of Round, the last one too: the game ends once the
                # models it reaches have been named and attacked.
                state.finish_after_geyser = True
                return events
            events += self._finish(state)
            return events
        state.round += 1
        self._start_round(state, events)
        return events

    # ------------------------------------------------------------------ victory
    def _finish(self, state: GameState, conceded_by: str = "") -> list[Event]:
        state.phase = "over"
        state.over = True
        events: list[Event] = []
        breakdown = {}
        for pid in state.seats:
            other = state.opponent(pid)
            mine = [m for m in state.models.values() if m.owner == pid and not has(m, "Trifling")]
            theirs = [m for m in state.models.values() if m.owner == other and not has(m, "Trifling")]
            kills = sum(1 for m in theirs if m.fallen)
            alive = sum(1 for m in mine if not m.fallen)
            p = state.players[pid]
            vp = 2 * kills + alive + (5 if p.objective else 0) + p.vials
            agenda_vp = 0
            if p.agenda and self._agenda_met(state, pid):
                agenda_vp = tables.AGENDAS[p.agenda][1]
            p.vp = vp + agenda_vp
            breakdown[pid] = {"kills": kills, "alive": alive, "objective": 5 if p.objective else 0, "vials": p.vials,
                              "agenda": p.agenda, "agenda_name": tables.AGENDAS[p.agenda][0] if p.agenda else "",
                              "agenda_vp": agenda_vp, "total": p.vp}
        a, b = state.seats
        if conceded_by:
            state.winner = state.opponent(conceded_by)
        elif state.players[a].vp != state.players[b].vp:
            state.winner = a if state.players[a].vp > state.players[b].vp else b
        else:
            state.winner = None
        state.result = {"vp": breakdown, "winner": state.winner}
        scores = [said("score", player=pid, vp=breakdown[pid]["total"]) for pid in state.seats]
        events.append(say("game_over" if state.winner else "game_over_draw", result=state.result, scores=scores,
                          winner_player=state.winner))
        return events

    def _agenda_met(self, state: GameState, pid: str) -> bool:
        n = state.players[pid].agenda
        other = state.opponent(pid)
        mine = [m for m in state.models.values() if m.owner == pid]
        theirs = [m for m in state.models.values() if m.owner == other]
        alive = [m for m in mine if not m.fallen]
        leader_alive = any(m.uid == state.players[pid].leader for m in alive) or any(
            "Leader" in m.descriptors for m in alive)
        if n in tables.AGENDAS_NEEDING_THE_TABLE:
            return state.players[pid].agenda_claimed
        if n == 1:
            leaders = {m.uid for m in mine if "Leader" in m.descriptors}
            return any(m.fallen and "Leader" in m.descriptors and m.killed_by in leaders for m in theirs)
        if n == 2:
            return all(m.fallen for m in theirs)
        if n == 3:
            return sum(1 for m in theirs if m.fallen) * 2 >= len(theirs)
        if n == 7:
            return leader_alive
        if n == 8:
            return len(alive) * 2 >= len(mine)
        if n == 9:
            return len(alive) > sum(1 for m in theirs if not m.fallen)
        if n == 10:
            return len(alive) == len(mine)
        return False

    def _do_objective(self, state: GameState, a: A.Objective, actor: Actor) -> list[Event]:
        if not actor.gm:
            raise NotYourTurn("objective_gm")
        if a.player not in state.players:
            raise IllegalAction("not_in_game")
        state.players[a.player].objective = a.achieved
        return [say("objective" if a.achieved else "objective_missed", player=a.player)]

    def _do_claim_agenda(self, state: GameState, a: A.ClaimAgenda, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        if state.players[pid].agenda not in tables.AGENDAS_NEEDING_THE_TABLE:
            raise IllegalAction("agenda_judged")
        state.players[pid].agenda_claimed = True
        return [say("agenda_claim", audience=pid)]

    def _do_concede(self, state: GameState, a: A.Concede, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        events = [say("concede", player=pid)]
        return events + self._finish(state, conceded_by=pid)

    # ------------------------------------------------------------------ AP actions
    def _do_spend_ap(self, state: GameState, a: A.SpendAP, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor)
        action = a.action
        if action not in MOVE_ACTIONS:
            raise IllegalAction("unknown_move", action=action, choices=", ".join(MOVE_ACTIONS))
        cost, dex = MOVE_ACTIONS[action]
        events: list[Event] = []
        if action in ("reload", "fix_jam"):
            w = next((w for w in m.weapons if (w.jammed if action == "fix_jam" else
                                                (not w.loaded and not w.jammed and not w.destroyed))), None)
            if w is None:
                raise IllegalAction(f"nothing_to_{action}", model=m.name)
            cost = 2 if action == "fix_jam" else combat.reload_cost(w)
        if action == "other":
            cost = max(1, a.n or 1)
        if m.ap < cost:
            raise IllegalAction("needs_ap", model=m.name, cost=cost, ap=m.ap)
        for ab in M.all_abilities(m):
            if ab["name"] == "Limited Movement":
                banned = str(ab.get("target", "")).lower().replace(" ", "_")
                advanced = {"running_jump", "climb", "rappel", "run_on_walls", "jump", "swim"}
                if action == banned or (action in advanced and action != "swim") or (banned and action.startswith(banned)):
                    raise IllegalAction("limited_movement", model=m.name, limit=str(ab.get("target", "")),
                                        move=term(f"move_{action}"))
        if action == "clear_stun" and not m.stunned:
            raise IllegalAction("not_stunned", model=m.name)
        if action == "running_jump" and m.last_action not in ("walk", "run"):
            raise IllegalAction("running_jump_run_up")
        if action == "run_on_walls" and m.last_action not in ("walk", "run"):
            raise IllegalAction("run_on_walls_run_up")
        if action == "rappel" and "Climbing tools" not in m.items:
            raise IllegalAction("rappel_tools")
        if action == "row" and state.house_rules.get("terrain") != "es_ttcombat":
            raise IllegalAction("row_terrain")
        if action in ("at_ready_melee", "at_ready_shooting") and action == "at_ready_shooting" and not any(
                w.kind == "ranged" and w.loaded for w in m.weapons):
            raise IllegalAction("ready_loaded")
        if action == "drink_infusion" and m.magic_item != "Infusion of the Rent in the Sky":
            raise IllegalAction("infusion_bearer")
        if action == "drink_elixir":
            if m.magic_item != "The Errand Jew's Life Elixir":
                raise IllegalAction("elixir_bearer")
            if "elixir" in m.used_once:
                raise IllegalAction("elixir_used")
        m.ap -= cost
        m.entering = False
        events += self._gondola_check(state, m)
        mov = max(0, attr(m, "MOV") - (1 if state.aqua_alta and action in ("walk", "run", "walk_difficult") else 0))
        how: dict = term("moved")
        r = None
        dist = None
        if dex:
            extra = [("climbing tools", 1)] if action == "climb" and "Climbing tools" in m.items else []
            r = M.model_roll(state, m, attr(m, "DEX", state), label=action.replace("_", " "), kind="DEX",
                             mods=extra, karma=a.karma, events=events, what=term(f"move_{action}"))
        if action == "walk":
            dist = mov
            how = said("up_to", inches=mov)
        elif action == "walk_difficult":
            if state.house_rules.get("terrain") == "es_ttcombat":
                r = M.model_roll(state, m, attr(m, "DEX", state), label="difficult terrain", kind="DEX",
                                 events=events)
                dist = mov
                how = said("up_to" if r.success else "up_to_stopped", inches=mov)
            else:
                dist = ceil_half(mov)
                how = said("up_to_halved", inches=dist)
        elif action == "run":
            dist = 0 if r.fumble else mov + r.aces + (3 if r.critical else 0)
            how = term("fumble_no_move") if r.fumble else said("up_to", inches=dist)
        elif action == "jump":
            dist = ceil_half(mov)
            if has(m, "High Jump"):
                hj = M.model_roll(state, m, attr(m, "DEX", state), label="High Jump", kind="DEX", events=events)
                dist += hj.aces
            how = said("up_to", inches=dist)
        elif action == "running_jump":
            dist = 0 if r.fumble else ceil_half(mov) + r.aces + (3 if r.critical else 0)
            how = term("fumble_action_lost") if r.fumble else said("up_to", inches=dist)
        elif action == "swim":
            dist = M.swim_allowance(m)
            how = said("up_to_water", inches=dist)
        elif action == "climb":
            if r.fumble:
                m.ap = max(0, m.ap - 1)
                how = term("climb_fumble")
            else:
                dist = r.aces + (3 if r.critical else 0)
                how = said("up_to_wall", inches=dist)
        elif action == "hide":
            m.hidden = True
            dist = ceil_half(mov) if state.house_rules.get("hide_distance") == "half_mov" else mov
            how = said("hide_move", inches=dist)
        elif action == "rappel":
            if r.fumble:
                how = term("rappel_fumble")
                events += M.stun(state, m, "fumbled Rappel")
            else:
                dist = 3 * r.aces + (3 if r.critical else 0)
                how = said("up_to_down", inches=dist)
        elif action == "run_on_walls":
            if r.fumble:
                how = term("walls_fumble")
                events += M.stun(state, m, "fumbled Run on Walls")
            else:
                dist = r.aces + (3 if r.critical else 0)
                how = said("up_to_along", inches=dist)
        elif action == "clear_stun":
            m.stunned = False
            how = term("stun_cleared")
        elif action in ("at_ready_melee", "at_ready_shooting"):
            m.at_ready = "melee" if action == "at_ready_melee" else "shooting"
            how = term("at_ready")
        elif action == "reload":
            combat.reload(w)
            how = said("reloaded", weapon=w.name)
        elif action == "fix_jam":
            w.jammed = False
            how = said("jam_cleared", weapon=w.name)
        elif action == "row":
            dist = tables.row_distance(r)
            how = term("row_fumble") if dist is None else said("row", inches=dist)
        elif action == "fill_vial":
            if state.fountains <= 0:
                raise IllegalAction("no_fountain")
            state.fountains -= 1
            state.players[m.owner].vials += 1
            how = said("vial", left=state.fountains)
        elif action == "pick_up_fragment":
            if any(x.carrying == "fragment" for x in state.models.values()):
                raise IllegalAction("fragment_carried")
            m.carrying = "fragment"
            how = term("fragment_taken")
        elif action == "drink_elixir":
            m.used_once.append("elixir")
            events += M.healing_roll(state, m, m, 6, "Life Elixir")
        elif action == "drink_infusion":
            if "infusion" in m.used_once:
                raise IllegalAction("infusion_used")
            m.used_once.append("infusion")
            events += self._power_roll(state, m, temporary=True)
        else:
            how = said("note", note=a.note) if a.note else term("moved")
        m.last_action = action
        events.insert(0, say("action", model=m.uid, action=action, ap=m.ap, inches=dist, name=m.name,
                             move=term(f"move_{action}"), cost=cost, how=how))
        if action in ("at_ready_melee", "at_ready_shooting"):
            events += self._end_activation(state, m)
        return events

    def _gondola_check(self, state: GameState, m: ModelState) -> list[Event]:
        """EN gondolas: before any action aboard, a basic Dex roll; a Fumble drops the rider in."""
        if not m.on_gondola or state.house_rules.get("terrain") != "en":
            return []
        events: list[Event] = []
        r = M.model_roll(state, m, attr(m, "DEX", state), label="keeping balance on the gondola", kind="DEX",
                         events=events, what=term("roll_gondola_balance"))
        if r.fumble:
            m.on_gondola = False
            m.in_water = True
            events.append(say("gondola_fall", model=m.uid, how=said("gondola_balance_lost", name=m.name)))
        return events

    def _power_roll(self, state: GameState, m: ModelState, temporary: bool) -> list[Event]:
        from .campaign import roll_power_names
        names, faces = roll_power_names(state.rng, {a["name"] for a in M.all_abilities(m)})
        events = []
        for name, x in names:
            m.effects.append(Effect(name="Infusion" if temporary else "Power", kind="ability", ability=name,
                                    x=x or 0, expires=state.round if temporary else 0))
        armed = combat.arm_powers(state, m)
        powers = [said("power_x" if x else "power_name", power=n, x=x) for n, x in names]
        events.append(say(("power_temporary" if temporary else "power") + ("" if powers else "_none"), model=m.uid,
                          name=m.name, faces=str(faces), powers=powers))
        if armed:
            events.append(say("power_weapon", model=m.uid, name=m.name, weapons=armed, weapon=armed[0]))
        return events

    def _do_attack(self, state: GameState, a: A.Attack, actor: Actor) -> list[Event]:
        att = state.model(a.model)
        self._own(state, att, actor)
        tgt = state.model(a.target)
        if a.opportunity:
            offer = state.opportunities[0] if state.opportunities else {}
            if offer.get("model") != att.uid or offer.get("target") != tgt.uid:
                raise IllegalAction("no_opportunity", model=att.name, target=tgt.name)
            return self._take_opportunity(state, a.weapon)
        else:
            self._active(state, a.model, actor)
            if att.petrified:
                raise IllegalAction("petrified", model=att.name)
        pre = [] if a.opportunity else self._gondola_check(state, att)
        return pre + combat.melee_attack(state, att, tgt, a.weapon, a.manoeuvre, a.allies, a.enemies, a.karma,
                                         a.companion, a.opportunity, a.two_weapons, a.drown_attr, tuple(a.targets))

    def _take_opportunity(self, state: GameState, weapon: str = "") -> list[Event]:
        """The first free Attack of Opportunity on offer is made (0 AP, a plain attack)."""
        offer = state.opportunities.pop(0)
        att, tgt = state.model(offer["model"]), state.model(offer["target"])
        if not (att.in_play and tgt.in_play):
            return []
        return combat.melee_attack(state, att, tgt, weapon, opportunity=True)

    def _decline_opportunity(self, state: GameState) -> list[Event]:
        offer = state.opportunities.pop(0)
        return [Event("opportunity_declined", {"model": state.models[offer["model"]].name,
                                               "target": state.models[offer["target"]].name})]

    def _do_steal(self, state: GameState, a: A.StealFragment, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor)
        bearer = state.model(a.bearer)
        if bearer.carrying != "fragment" or bearer.owner == m.owner:
            raise IllegalAction("no_fragment_bearer", model=bearer.name)
        if m.ap < 1:
            raise IllegalAction("needs_ap", model=m.name, cost=1, ap=m.ap)
        m.ap -= 1
        events = [say("steal", model=m.uid, name=m.name, bearer=bearer.name)]
        from .dice import compare
        while True:
            ra = M.model_roll(state, m, attr(m, "DEX", state), label="Dex (stealing)", kind="DEX", events=events,
                              what=term("roll_steal"))
            rb = M.model_roll(state, bearer, attr(bearer, "DEX", state), label="Dex (holding on)", kind="DEX",
                              events=events, what=term("roll_hold_on"))
            res = compare(ra, rb)
            if res.winner != "tie" or state.house_rules.get("fragment_steal_tie") != "reroll":
                break
        if res.winner == "a":
            bearer.carrying = ""
            m.carrying = "fragment"
            events.append(say("fragment_taken", model=m.uid, name=m.name))
        else:
            events.append(say("fragment_kept", model=bearer.uid, name=bearer.name))
        return events

    def _reroll_window(self, state: GameState, pick: str) -> list[Event]:
        from .dice import PoolResult
        from .state import WeaponState
        ctx = state.sub["ctx"]
        state.sub = {}
        a, t = state.model(ctx["a"]), state.model(ctx["t"])
        r = PoolResult.from_dict(ctx["result"])
        events: list[Event] = []
        stage = ctx.get("stage", "own")
        if pick == "all":
            M.spend_karma(a, 1, "Reroll All Dice")
            r = reroll_all(state.rng, r)
            events.append(M.record(state, a, r, "Reroll All Dice (1 Karma)", what=term("roll_reroll_all")))
        elif pick == "dice":
            M.spend_karma(a, 1, "Reroll Dice")
            r = reroll_misses(state.rng, r, M.ability_x(a, "Reroll Dice") or 1)
            events.append(M.record(state, a, r, "Reroll Dice (1 Karma)", what=term("roll_reroll_dice")))
        elif ":" in pick:
            kind, uid = pick.split(":", 1)
            helper = state.model(uid)
            if kind == "all":
                M.spend_karma(helper, 1, "Reroll All Dice")
                r = reroll_all(state.rng, r)
                events.append(M.record(state, a, r, f"Reroll All Dice forced by {helper.name} (1 Karma)",
                                       what=said("roll_reroll_forced", name=helper.name)))
            else:
                M.spend_karma(helper, 1, "Reroll Dice")
                r = reroll_aces(state.rng, r, M.ability_x(helper, "Reroll Dice") or 1)
                events.append(M.record(state, a, r, f"Aces rerolled by {helper.name}'s Reroll Dice (1 Karma)",
                                       what=said("roll_reroll_aces", name=helper.name)))
        if stage == "own" and combat.offer_reroll(state, a, r, {k: v for k, v in ctx.items()
                                                                 if k not in ("result", "stage")}, events, ("foe",)):
            return events
        if ctx["type"] == "shoot":
            return events + combat.finish_shot(state, ctx, r)
        if ctx["type"] == "cast":
            done = combat.magic_roll_stands(state, a, ctx["cast"], r, events)
            return events + self._after_magic_roll(state, a, done, self._spell(state, done["spell"]))
        if ctx["type"] == "morale":
            events += (M.rally_result if ctx.get("rally") else M.morale_result)(state, a, r)
            events += self._morale_queue(state, ctx["rest"], ctx["modifier"], ctx["reason"], ctx.get("rally", False))
            if ctx.get("then") and not state.sub:      # the attack that Fear held goes on
                events += combat.resume_attack(state, ctx["then"])
            return events
        if ctx["type"] == "morale_group":
            return events + self._group_stands(state, ctx, r)
        weapon = WeaponState.from_dict(ctx["weapon"])
        combat.finish_melee(state, a, t, weapon, ctx["manoeuvre"], r, events)
        return events

    # ------------------------------------------------------------------ Morale with a reroll window
    def _morale_queue(self, state: GameState, uids: list[str], modifier: int, reason: str, rally: bool = False,
                      window: bool = True) -> list[Event]:
        """Single Morale rolls one model after another; a reroll window after a roll pauses the
        queue (the rest goes into the window's context and resumes when the roll stands).
        `rally`: a fleeing model's End-of-Round roll (success: control again; failure: no Stun)."""
        events: list[Event] = []
        uids = list(uids)
        result = M.rally_result if rally else M.morale_result
        while uids:
            m = state.model(uids.pop(0))
            if not m.in_play:
                continue
            base, mods, auto = M.morale_pool(state, m, modifier)
            r = M.model_roll(state, m, base, label=f"Morale ({reason})" if reason else "Morale", mods=mods,
                             auto_mods=auto, events=events, what=M.morale_what(reason))
            ctx = {"type": "morale", "a": m.uid, "t": m.uid, "rest": uids, "modifier": modifier, "reason": reason,
                   "rally": rally}
            if window and state.house_rules.get("reroll_window", True) and combat.offer_reroll(state, m, r, ctx,
                                                                                                events):
                return events
            events += result(state, m, r)
        return events

    def _morale_due(self, state: GameState) -> list[Event]:
        """The Morale tests an action caused (a Leader or the last friend fell, Fear after the attack),
        once the action is done and no reaction is pending: each with its reroll window."""
        events: list[Event] = []
        while state.morale_due and not state.sub and not state.opportunities and not state.over:
            item = state.morale_due.pop(0)
            if item["kind"] == "group":
                events += self._morale_group(state, item["player"], item["reason"])
            else:
                events += self._morale_queue(state, item["models"], item.get("modifier", 0), item["reason"])
        return events

    def _morale_group(self, state: GameState, pid: str, reason: str, modifier: int = 0) -> list[Event]:
        """A group Morale roll (highest current Mind + the main Leader's Command), with a reroll window."""
        squad = state.squad(pid)
        if not squad:
            return []
        roller = max(squad, key=lambda x: (attr(x, "MIN"), x.uid == state.players[pid].leader))
        leader = M.first_leader(state, pid)
        events: list[Event] = []
        base, mods, auto = M.morale_pool(state, roller, modifier, single=False)
        if leader and leader.command:
            mods = mods + [("Leader's Command", leader.command)]
        r = M.model_roll(state, roller, base, label=f"group Morale ({reason})" if reason else "group Morale",
                         mods=mods, auto_mods=auto, events=events, what=M.morale_what(reason, group=True))
        ctx = {"type": "morale_group", "a": roller.uid, "t": roller.uid, "player": pid, "modifier": modifier,
               "reason": reason}
        if state.house_rules.get("reroll_window", True) and combat.offer_reroll(state, roller, r, ctx, events):
            return events
        return events + self._group_stands(state, ctx, r)

    def _group_stands(self, state: GameState, ctx: dict, r) -> list[Event]:
        pid = ctx["player"]
        if r.success:
            return [Event("squad_holds", {"player": pid})]
        events = [say("morale_group_fail", player=pid)]
        return events + self._morale_queue(state, [m.uid for m in state.squad(pid)], ctx["modifier"],
                                           "group failure")

    # ------------------------------------------------------------------ At the Ready: shooting interrupts
    def ready_shooters(self, state: GameState, target: ModelState, done: tuple = ()) -> list[ModelState]:
        return [x for x in state.squad(state.opponent(target.owner)) if x.at_ready == "shooting" and x.uid not in done
                and any(w.kind == "ranged" and w.loaded and not w.jammed and not w.destroyed for w in x.weapons)]

    def _offer_ready_shot(self, state: GameState, m: ModelState, done: tuple = ()) -> list[Event]:
        """An enemy ended an action: models At the Ready for shooting may interrupt with a 0-AP shot
        (each at most once per enemy action; line of sight is for the table to judge)."""
        if (state.sub or not m.in_play or m.hidden or not state.house_rules.get("ready_shot_prompt", True)
                or not self.ready_shooters(state, m, done)):
            return []
        state.counter += 1
        state.sub = {"kind": "ready_shot", "n": state.counter, "player": state.opponent(m.owner), "target": m.uid,
                     "done": list(done), "shooter": ""}
        return [Event("ready_window", {"model": m.uid, "name": m.name})]

    def _ready_shot(self, state: GameState, pick: str) -> list[Event]:
        sub = dict(state.sub)
        t = state.model(sub["target"])
        if pick == "no":
            state.sub = {}
            return [say("ready_hold", model=t.uid)]
        if not sub["shooter"]:
            state.counter += 1
            state.sub = {**sub, "shooter": pick, "n": state.counter}
            return []
        size, hard = P.COVER_OPTIONS[pick]
        sh = state.model(sub["shooter"])
        state.sub = {}
        events = self._do_shoot(state, A.Shoot(sh.uid, t.uid, cover_size=size, cover_hardness=hard, at_ready=True),
                                Actor(sh.owner))
        if not state.sub:
            events += self._offer_ready_shot(state, t, tuple(sub["done"]) + (sh.uid,))
        return events

    def _defensive(self, state: GameState, n: int) -> list[Event]:
        ctx = state.sub["ctx"]
        state.sub = {}
        t = state.model(ctx["t"])
        events: list[Event] = []
        if n:
            if n > combat.defensive_allowance(state, t):
                raise IllegalAction("defensive_karma", model=t.name, n=n)
            already = t.defensive_dex if t.defensive_turn == state.turn else 0
            M.spend_karma(t, n, "Defensive Combat")
            t.defensive_dex, t.defensive_turn = already + n, state.turn
            events.append(say("karma_defensive", model=t.uid, karma=t.karma, use="defensive", name=t.name, n=n,
                              dex=t.defensive_dex, karma_max=t.karma_max))
        return events + combat.resume_melee(state, ctx)

    def _bodyguard(self, state: GameState, pick: str) -> list[Event]:
        from .dice import PoolResult
        from .state import WeaponState
        ctx = state.sub["ctx"]
        state.sub = {}
        a, t = state.model(ctx["a"]), state.model(ctx["t"])
        events: list[Event] = []
        if pick != "no":
            t = state.model(pick)
            events.append(say("bodyguard", model=t.uid, name=t.name))
        combat.finish_melee(state, a, t, WeaponState.from_dict(ctx["weapon"]), ctx["manoeuvre"],
                            PoolResult.from_dict(ctx["result"]), events, ask_bodyguard=False)
        return events

    def _do_disengage(self, state: GameState, a: A.Disengage, actor: Actor) -> list[Event]:
        m = self._active(state, a.model, actor)
        if state.sub:
            raise IllegalAction("reaction_pending")
        foes = [state.model(u) for u in dict.fromkeys(a.enemies)]
        if not foes:
            raise IllegalAction("name_contacts")
        if any(f.owner == m.owner or not f.in_play for f in foes):
            raise IllegalAction("leave_enemies_only")
        if m.ap < 1:
            raise IllegalAction("needs_ap", model=m.name, cost=1, ap=m.ap)
        m.ap -= 1
        m.last_action = "disengage"
        events = [say("disengage", model=m.uid, name=m.name, ap=m.ap)]
        if has(m, "Slippery"):
            events.append(Event("disengaged", {"model": m.uid, "name": m.name, "how": term("disengage_slippery")}))
            return events
        queue = []
        for f in foes:
            if has(f, "Engage"):
                res = self._opposed_dex(state, m, f, events, "Engage")
                if res.winner != "a":
                    events.append(say("blocked", model=m.uid, how=said("blocked_engage", name=m.name, by=f.name)))
                    return events
            if has(m, "Elusive"):
                res = self._opposed_dex(state, m, f, events, "Elusive")
                if res.winner == "a":
                    events.append(say("elusive", model=m.uid, name=m.name, by=f.name))
                    continue
            queue.append(f.uid)
        if not queue:
            events.append(Event("disengaged", {"model": m.uid, "name": m.name, "how": term("disengage_free")}))
            return events
        state.counter += 1
        state.sub = {"kind": "disengage", "model": m.uid, "queue": queue, "n": state.counter}
        return events

    def _opposed_dex(self, state: GameState, m: ModelState, f: ModelState, events: list[Event], why: str):
        from .dice import compare
        ra = M.model_roll(state, m, attr(m, "DEX", state), label=f"Dex ({why}, leaving)", kind="DEX", events=events,
                          what=said("roll_leaving", why=term(f"leave_{slug(why)}")))
        rb = M.model_roll(state, f, attr(f, "DEX", state), label=f"Dex ({why})", kind="DEX", events=events,
                          what=said("roll_holding", why=term(f"leave_{slug(why)}")))
        res = compare(ra, rb, "escaper")
        events.append(say("opposed", a=res.a_aces, b=res.b_aces, winner=res.winner,
                          how=said("opposed_escapes" if res.winner == "a" else "opposed_held", name=m.name, by=f.name,
                                   a=res.a_aces, b=res.b_aces)))
        return res

    def _disengage_reaction(self, state: GameState, choice: str) -> list[Event]:
        sub = state.sub
        m = state.model(sub["model"])
        f = state.model(sub["queue"][0])
        events: list[Event] = []
        if choice == "aoo":
            events += combat.melee_attack(state, f, m, opportunity=True)
        elif choice == "block":
            res = self._opposed_dex(state, m, f, events, "Block")
            if res.winner != "a":
                state.sub = {}
                events.append(say("blocked", model=m.uid, how=said("blocked_block", name=m.name, by=f.name)))
                return events
        else:
            events.append(Event("no_reaction", {"model": f.uid, "name": f.name, "leaver": m.name}))
        queue = sub["queue"][1:]
        if queue and m.in_play:
            state.counter += 1
            state.sub = {**sub, "queue": queue, "n": state.counter}
        else:
            state.sub = {}
            if m.in_play:
                events.append(Event("disengaged", {"model": m.uid, "name": m.name, "how": term("disengage_moves")}))
        return events

    def _do_shoot(self, state: GameState, a: A.Shoot, actor: Actor) -> list[Event]:
        sh = state.model(a.model)
        self._own(state, sh, actor)
        free = ""
        if a.at_ready:
            if sh.at_ready != "shooting":
                raise IllegalAction("not_ready_shooting", model=sh.name)
            sh.at_ready = ""
        elif sh.uid in state.mad_minute and state.active != sh.uid:
            if not sh.in_play:
                raise IllegalAction("not_on_table", model=sh.name)
            state.mad_minute.remove(sh.uid)
            free = "mad_minute"
        else:
            self._active(state, a.model, actor)
        tgt = state.model(a.target) if a.target else None
        targets = tuple(state.model(u) for u in a.targets)
        pre = [] if a.at_ready or free else self._gondola_check(state, sh)
        return pre + combat.shoot(state, sh, tgt, a.weapon, a.distance, a.cover_size, a.cover_hardness, a.aim, a.aim_at,
                            a.moving, a.target_contacts, a.shooter_enemies, a.in_contact, a.karma, a.at_ready,
                            targets, tuple(a.split), a.good_cover, free)

    # ------------------------------------------------------------------ books
    def _do_damage(self, state: GameState, a: A.Damage, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if a.attacker:
            src = state.model(a.attacker)
            if not (actor.may_act_for(src.owner) or actor.may_act_for(m.owner)):
                raise NotYourTurn("damage_who")
        elif not (actor.gm or actor.id in state.seats):
            raise NotYourTurn("players_or_gm")
        if a.amount < 0 or a.penetration < 0:
            raise IllegalAction("damage_negative")
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        return M.apply_damage(state, m, a.amount, a.penetration, a.spiritual, a.flames, a.ignore_protection,
                              a.source, a.attacker)[1]

    def _do_heal(self, state: GameState, a: A.Heal, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        if not a.healer:
            if not actor.gm:
                raise NotYourTurn("heal_gm")
            return M.heal(state, m, a.amount, term("heal_gm"))
        h = self._active(state, a.healer, actor)
        if m.owner != h.owner:
            raise IllegalAction("heal_friends")
        if h.uid == m.uid:
            x = M.ability_x(h, "Regeneration")
            if x is None:
                raise IllegalAction("no_regeneration", model=h.name)
            source = "Regeneration"
        else:
            x = M.ability_x(h, "Healing")
            if x is None:
                raise IllegalAction("no_healing", model=h.name)
            source = "Healing"
        if not m.damage:
            raise IllegalAction("not_hurt", model=m.name)
        if h.ap < 2:
            raise IllegalAction("needs_ap", model=h.name, cost=2, ap=h.ap)
        h.ap -= 2
        extra = [("first-aid kit", 1)] if "First-aid kit" in h.items and h.uid != m.uid else []
        h.last_action = "heal"
        return [say("heal_action", model=h.uid, name=h.name, target_name=m.name, ap=h.ap,
                    how=said(f"heal_{slug(source)}", x=x))] + \
            M.healing_roll(state, h, m, x, source, a.karma, extra)

    def _do_stun(self, state: GameState, a: A.Stun, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not (actor.gm or actor.id in state.seats):
            raise NotYourTurn("players_or_gm")
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        return M.stun(state, m, a.source or "an effect")

    def _do_spend_karma(self, state: GameState, a: A.SpendKarma, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        self._own(state, m, actor)
        if a.n < 1:
            raise IllegalAction("karma_at_least_1")
        if a.use == "protection":
            if m.protection_boost + a.n > 2:
                raise IllegalAction("karma_protection_max")
            M.spend_karma(m, a.n, "Protection")
            m.protection_boost += a.n
            use = said("karma_protection", n=m.protection_boost)
        elif a.use == "defensive":
            x = M.ability_x(m, "Defensive Combat")
            if x is None:
                raise IllegalAction("no_defensive", model=m.name)
            already = m.defensive_dex if m.defensive_turn == state.turn else 0
            if already + a.n > x:
                raise IllegalAction("defensive_max", x=x)
            M.spend_karma(m, a.n, "Defensive Combat")
            m.defensive_dex = already + a.n
            m.defensive_turn = state.turn
            use = said("karma_dex", n=m.defensive_dex)
        elif a.use == "swift":
            if not has(m, "Swift"):
                raise IllegalAction("not_swift", model=m.name)
            if a.n != 1:
                raise IllegalAction("swift_cost")
            M.spend_karma(m, 1, "Swift")
            use = said("karma_swift", inches=2 * attr(m, "MOV"))
        elif a.use == "aim":
            if not has(m, "Expert Marksman"):
                raise IllegalAction("not_marksman", model=m.name)
            if a.n > 2:
                raise IllegalAction("aim_max")
            M.spend_karma(m, a.n, "aiming")
            m.ap += a.n   # the shot's aim AP are paid with Karma instead
            use = said("karma_aim", n=a.n)
        elif a.use == "other":
            M.spend_karma(m, a.n, "an effect")
            use = said("karma_other", n=a.n)
        else:
            raise IllegalAction("karma_use")
        return [say("karma", model=m.uid, karma=m.karma, use=a.use, name=m.name, n=a.n, how=use,
                    karma_max=m.karma_max)]

    def _do_spend_command(self, state: GameState, a: A.SpendCommand, actor: Actor) -> list[Event]:
        leader = state.model(a.model)
        self._own(state, leader, actor)
        t = state.model(a.target)
        if state.players[leader.owner].leader != leader.uid:
            raise IllegalAction("not_main_leader", model=leader.name)
        if a.n < 1 or a.n > leader.command:
            raise IllegalAction("command_points", model=leader.name, n=leader.command)
        if t.owner != leader.owner or state.active != t.uid:
            raise IllegalAction("command_activating_now")
        if t.uid == leader.uid:
            raise IllegalAction("command_himself")
        if has(t, "Rebellious"):
            raise IllegalAction("rebellious", model=t.name)
        if t.command_turn != state.turn:
            t.command_turn, t.command_received = state.turn, 0
        if t.command_received + a.n > 2:
            raise IllegalAction("command_at_most_2")
        leader.command -= a.n
        t.command_received += a.n
        t.ap += a.n
        return [say("command", model=t.uid, leader=leader.uid, name=leader.name, n=a.n, command=leader.command,
                    command_max=leader.command_max, target_name=t.name, ap=t.ap)]

    def _do_set_status(self, state: GameState, a: A.SetStatus, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not (actor.may_act_for(m.owner) or actor.gm):
            raise NotYourTurn("not_your_model", model=m.name)
        s = a.status
        if s == "evacuated":
            if not m.in_play:
                raise IllegalAction("not_on_table", model=m.name)
            m.on_table = False
            m.evacuated = True
            m.activated = True
            return [say("evacuated", model=m.uid, name=m.name)]
        if s == "off_table":
            if not m.in_play:
                raise IllegalAction("not_on_table", model=m.name)
            return M.fall_in_combat(state, m, "", fled=True)
        fields = {"in_water": "in_water", "hidden": "hidden", "immobilised": "immobilised", "drowning": "drowning",
                  "darkness": "in_darkness", "on_gondola": "on_gondola"}
        if s == "fragment":
            if a.value:
                for other in state.models.values():
                    if other.carrying == "fragment":
                        other.carrying = ""
            m.carrying = "fragment" if a.value else ""
        elif s == "on_gondola" and a.value:
            name = a.gondola or "1"
            seats = {"Medium": 1, "Large": 2}
            if m.size not in seats:
                raise IllegalAction("gondola_too_big", model=m.name, size=m.size)
            riders = [x for x in state.models.values() if x.in_play and x.on_gondola and x.uid != m.uid
                      and (x.gondola or "1") == name]
            used = sum(seats.get(x.size, 2) for x in riders)
            if used + seats[m.size] > 2:
                raise IllegalAction("gondola_full", gondola=name, riders=", ".join(x.name for x in riders))
            m.on_gondola, m.gondola = True, name
        elif s in fields:
            setattr(m, fields[s], a.value)
            if s == "on_gondola":
                m.gondola = ""
            if s == "in_water" and a.value:
                ha = M.ability_x(m, "Heavy Armor")
                if ha:
                    events: list[Event] = []
                    r = M.model_roll(state, m, attr(m, "DEX", state), label="Heavy Armor in the water", kind="DEX",
                                     events=events, what=term("roll_heavy_armor_water"))
                    if not r.success:
                        m.immobilised = True
                        events.append(say("immobilised", model=m.uid, name=m.name))
                    return [say("into_water", model=m.uid, name=m.name)] + events
        else:
            raise IllegalAction("status_choices")
        return [say("status_on" if a.value else "status_off", model=m.uid, status=s, value=a.value, name=m.name,
                    what=term(f"status_{s}"))]

    def _do_fall(self, state: GameState, a: A.Fall, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        if not (actor.may_act_for(m.owner) or actor.gm or actor.id in state.seats):
            raise NotYourTurn("not_your_model", model=m.name)
        if not m.in_play:
            raise IllegalAction("not_on_table", model=m.name)
        if a.height < 0 or a.height > 100:
            raise IllegalAction("height_range")
        events: list[Event] = []
        if a.voluntary:
            self._active(state, a.model, actor)
            if m.ap < 1:
                raise IllegalAction("needs_ap", model=m.name, cost=1, ap=m.ap)
            m.ap -= 1
            m.last_action = "jump_down"
            events.append(say("jump_down", model=m.uid, name=m.name, ap=m.ap))
        return events + M.fall(state, m, a.height, a.voluntary)

    def _do_bond_roll(self, state: GameState, a: A.BondRoll, actor: Actor) -> list[Event]:
        t = state.model(a.model)
        bond = next((e for e in t.effects if e.kind == "bond"), None)
        if bond is None:
            raise IllegalAction("not_bound", model=t.name)
        if not actor.may_act_for(bond.ability):
            raise NotYourTurn("bond_owner")
        if state.active != t.uid:
            raise IllegalAction("bond_when")
        if t.karma < 1:
            raise IllegalAction("no_karma", model=t.name)
        t.karma -= 1
        return M.bond_maintenance(state, t, bond, said("bond_fought", name=t.name))

    def _do_morale(self, state: GameState, a: A.Morale, actor: Actor) -> list[Event]:
        if a.group:
            pid = a.player or (state.model(a.models[0]).owner if a.models else actor.id)
            if pid not in state.players:
                raise IllegalAction("name_the_player")
            if not (actor.gm or actor.id in state.seats):
                raise NotYourTurn("players_or_gm")
            return self._morale_group(state, pid, "called", a.modifier)
        if not a.models:
            raise IllegalAction("name_testers")
        for uid in a.models:
            m = state.model(uid)
            if not (actor.gm or actor.id in state.seats):
                raise NotYourTurn("players_or_gm")
            if not m.in_play:
                raise IllegalAction("not_on_table", model=m.name)
        return self._morale_queue(state, list(dict.fromkeys(a.models)), a.modifier, "called")

    def _do_roll(self, state: GameState, a: A.Roll, actor: Actor) -> list[Event]:
        if a.difficulty < 2 or a.difficulty > 10:
            raise IllegalAction("difficulty_range")
        if a.pool < 0 or a.pool > 30:
            raise IllegalAction("pool_range")
        events: list[Event] = []
        if a.model:
            m = state.model(a.model)
            self._own(state, m, actor)
            base = attr(m, a.attribute.upper(), state) if a.attribute else a.pool
            # a player's own label is shown as typed
            what = a.label or (said("roll_attribute", stat=a.attribute.upper()) if a.attribute else term("roll_free"))
            M.model_roll(state, m, base, a.difficulty, label=a.label or (a.attribute.upper() or "roll"),
                         kind=a.attribute.upper(), karma=a.karma, auto_mods=bool(a.attribute), default_effects=True,
                         events=events, what=what)
        else:
            from .dice import roll_pool
            if a.karma:
                raise IllegalAction("karma_needs_model")
            r = roll_pool(state.rng, a.pool, a.difficulty, label=a.label)
            events.append(M.record(state, None, r, a.label or "roll", what=a.label or term("roll_free")))
        state.last_roll["free"] = True
        state.last_roll["by"] = actor.id
        return events

    def _do_reroll(self, state: GameState, a: A.Reroll, actor: Actor) -> list[Event]:
        m = state.model(a.model)
        self._own(state, m, actor)
        if not state.last_roll or not state.last_roll.get("free"):
            raise IllegalAction("reroll_free_only")
        from .dice import PoolResult
        r = PoolResult.from_dict(state.last_roll["result"])
        if a.mode == "all":
            if not has(m, "Reroll All Dice"):
                raise IllegalAction("no_reroll_all", model=m.name)
            M.spend_karma(m, 1, "Reroll All Dice")
            new = reroll_all(state.rng, r)
        elif a.mode == "dice":
            x = M.ability_x(m, "Reroll Dice")
            if x is None:
                raise IllegalAction("no_reroll_dice", model=m.name)
            if a.count < 1 or a.count > x:
                raise IllegalAction("reroll_dice_count", x=x)
            M.spend_karma(m, 1, "Reroll Dice")
            new = reroll_misses(state.rng, r, a.count)
        else:
            raise IllegalAction("reroll_mode")
        owner = state.models.get(state.last_roll.get("model", ""))
        e = M.record(state, owner, new, f"reroll by {m.name}", what=said("roll_reroll_by", name=m.name))
        state.last_roll["free"] = True
        return [e]

    def _do_event(self, state: GameState, a: A.PlayEvent, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        p = state.players[pid]
        if p.events_left <= 0:
            raise IllegalAction("no_event_left")
        if state.phase != "activation" or state.turn_player != pid:
            raise IllegalAction("event_when")
        enemy = state.opponent(pid)
        own = state.model(a.model) if a.model else None
        tgt = state.model(a.target) if a.target else None
        if own is not None and own.owner != pid:
            raise IllegalAction("event_model_yours")
        if tgt is not None and tgt.owner != enemy:
            raise IllegalAction("event_target_enemy")
        p.events_left -= 1
        d1, d2 = state.rng.die(10), state.rng.die(10)
        total = d1 + d2
        name, _text = tables.event(total)
        events = [say("event", player=pid, total=total, event=name, d1=d1, d2=d2, name=term(f"event_{total}"),
                      text=term(f"event_{total}_text"))]
        events += self._event_effect(state, pid, total, own, tgt)
        return events

    def _event_effect(self, state: GameState, pid: str, total: int, own: ModelState | None,
                      tgt: ModelState | None) -> list[Event]:
        enemy = state.opponent(pid)
        lost = [say("event_lost")]
        if total == 2:
            state.aqua_alta = pid
            return []
        if total == 8:
            state.good_cover = pid
            return [say("good_cover", player=pid, dice=state.house_rules.get("event8_heavy", -4))]
        if total == 16:
            shooters = [m.uid for m in state.squad(pid) if any(
                w.firearm and w.loaded and not w.jammed and not w.destroyed for w in m.weapons)]
            if not shooters:
                return lost
            state.mad_minute = shooters
            return [say("mad_minute", player=pid, models=shooters, names=[state.models[u].name for u in shooters])]
        if total == 3:
            if tgt is None or tgt.activated or not tgt.in_play:
                return lost
            tgt.activated = True
            return [say("marked_activated", model=tgt.uid, name=tgt.name)]
        if total == 4:
            if tgt is None or tgt.stunned or not tgt.in_play:
                return lost
            return M.stun(state, tgt, "Combat Stress")
        if total == 5:
            if own is None or not own.activated or not own.in_play:
                return lost
            own.activated = False
            return [say("acts_again", model=own.uid, name=own.name)]
        if total == 6:
            if own is None or not own.stunned:
                return lost
            own.stunned = False
            return [say("unstunned", model=own.uid, name=own.name)]
        if total == 7:
            w = next((w for w in (own.weapons if own else []) if w.firearm and not w.loaded and not w.destroyed), None)
            if w is None:
                return lost
            w.jammed = False
            combat.reload(w)
            return [say("event_reloaded", model=own.uid, name=own.name, weapon=w.name)]
        if total == 9:
            return self._morale_group(state, enemy, "Anxiety")
        if total == 10:
            if tgt is None or state.players[enemy].leader == tgt.uid or tgt.independent or "Leader" in tgt.descriptors:
                return lost
            return self._morale_queue(state, [tgt.uid], 0, "Battle Shock")
        if total == 11:
            state.geyser = True
            s = scatter(state.rng, 0)
            self._queue_geyser(state, pid)
            return [say("geyser_placed", distance=s.distance, clock=s.clock)]
        if total == 12:
            if own is None or not own.in_play or not own.damage:
                return lost
            return M.healing_roll(state, own, own, 6, "Miraculous Recovery")
        if total == 13:
            if tgt is None or not tgt.in_play:
                return lost
            events: list[Event] = []
            from .dice import roll_pool
            r = roll_pool(state.rng, 4, max(BASIC_DIFFICULTY, attr(tgt, "DEX", state)), label="Evil Eye")
            events.append(M.record(state, None, r, "Evil Eye (Shooting 4)", what=term("roll_evil_eye")))
            if r.aces:
                events += M.apply_damage(state, tgt, r.aces, ignore_protection=bool(
                    state.house_rules.get("evil_eye_ignores_protection", True)), source="Evil Eye")[1]
            if r.critical:
                events += M.stun(state, tgt, "Evil Eye")
            if r.fumble:
                if any(m.stunned for m in state.squad(enemy)):
                    state.counter += 1
                    state.morale_queue.append({"id": f"ee-{state.counter}", "player": enemy, "kind": "evil_eye"})
                    events.append(say("evil_eye_fumble", player=enemy))
                else:
                    events.append(say("evil_eye_fumble_none", player=enemy))
            return events
        if total == 14:
            if own is None or not own.in_play:
                return lost
            events = []
            r = M.model_roll(state, own, attr(own, "MIN"), label="A Matter of Honor", events=events, stat="MIN",
                             what=term("event_14"))
            if r.critical:
                own.karma = own.karma_max
            elif r.fumble:
                own.karma = max(0, own.karma - 1)
            else:
                own.karma = min(own.karma_max, own.karma + r.aces)
            events.append(say("karma_now", model=own.uid, name=own.name, karma=own.karma, karma_max=own.karma_max))
            return events
        if total == 15:
            if tgt is None or not tgt.in_play:
                return lost
            events = []
            r = M.model_roll(state, tgt, attr(tgt, "MIN"), label="We Will Never Beat Them", events=events, stat="MIN",
                             what=term("event_15"))
            if r.aces == 0:
                loss = ceil_half(tgt.karma)
                tgt.karma -= loss
                events.append(say("karma_lost", model=tgt.uid, name=tgt.name, n=loss, karma=tgt.karma,
                                  karma_max=tgt.karma_max))
            return events
        if total == 17:
            if own is None or not own.fallen or own.fled:
                return lost
            events = []
            r = M.model_roll(state, own, 4, label="He's Alive! (Healing 4)", auto_mods=False, events=events,
                             what=term("event_17"))
            if r.aces:
                own.fallen = False
                own.on_table = False
                own.damage = max(0, own.life - r.aces)
                own.killed_by = ""
                events.append(say("alive", model=own.uid, name=own.name, n=r.aces))
            return events
        if total == 18:
            if own is None or not own.in_play:
                return lost
            own.on_table = False
            own.activated = True
            return [say("withdrawn", model=own.uid, name=own.name)]
        if total == 19:
            leader = M.first_leader(state, pid)
            if leader is None or leader.command >= leader.command_max:
                return lost
            leader.command += 1
            return [say("command_regained", model=leader.uid, name=leader.name, command=leader.command,
                        command_max=leader.command_max)]
        if total == 20:
            leader = M.first_leader(state, enemy)
            if leader is None or leader.command <= 0:
                return lost
            leader.command -= 1
            return [say("command_lost", model=leader.uid, name=leader.name, command=leader.command,
                        command_max=leader.command_max)]
        return []

    # ------------------------------------------------------------------ magic
    def _do_cast(self, state: GameState, a: A.Cast, actor: Actor) -> list[Event]:
        c = self._active(state, a.model, actor)
        spell = self._spell(state, a.spell)
        t = state.model(a.target) if a.target else None
        targets = [state.model(u) for u in a.targets]
        enemies = tuple(state.model(u) for u in a.enemies)
        return self._gondola_check(state, c) + self._cast(state, c, spell, t, targets, a.attribute, a.karma,
                                                          a.use_diamond, enemies)

    def _spell(self, state: GameState, name: str) -> dict:
        for known in state.spells.values():
            if known["name"].lower() == name.lower():
                return known
        raise IllegalAction("no_spell", spell=name)

    def _cast(self, state: GameState, c: ModelState, spell: dict, t, targets, attribute="", karma=0,
              diamond=False, enemies=()) -> list[Event]:
        if any(e.kind == "bond" and e.caster == c.uid for m in state.models.values() for e in m.effects):
            raise IllegalAction("bond_walk_only", model=c.name)
        ctx, events = combat.cast(state, c, spell, t, targets, attribute, karma, diamond, enemies)
        c.last_action = "cast"
        if ctx.get("interrupted") or ctx.get("deferred"):
            return events
        return events + self._after_magic_roll(state, c, ctx, spell)

    def _after_magic_roll(self, state: GameState, c: ModelState, ctx: dict, spell: dict) -> list[Event]:
        """The Magic roll stands: an enemy Naach-Tith Annulment window, else the spell resolves."""
        events: list[Event] = []
        if ctx["aces"] > 0 and not ctx["critical"]:
            for m in state.squad(state.opponent(c.owner)):
                if "Naach-Tith Annulment" in m.spells and m.karma >= ctx["paid"] + 1:
                    state.counter += 1
                    state.sub = {"kind": "annul", "id": f"annul-{state.counter}", "ctx": ctx,
                                 "player": state.opponent(c.owner)}
                    events.append(say("annul_window", player=m.owner))
                    return events
        return events + combat.resolve_spell(state, ctx, spell)

    def _annul(self, state: GameState, choice: str) -> list[Event]:
        sub = state.sub
        ctx = sub["ctx"]
        state.sub = {}
        spell = self._spell(state, ctx["spell"])
        events: list[Event] = []
        if choice != "no":
            n = state.model(choice)
            caster = state.model(ctx["caster"])
            cost = ctx["paid"] + 1
            M.spend_karma(n, cost, "Naach-Tith Annulment")
            events.append(say("annul_cast", model=n.uid, spell="Naach-Tith Annulment", karma_cost=cost, name=n.name))
            r = M.model_roll(state, n, attr(n, "MIN"), label="Magic roll (Naach-Tith Annulment)",
                             mods=[("enemy caster's Mind", -attr(caster, "MIN"))], events=events, stat="MIN",
                             what=said("roll_magic", spell="Naach-Tith Annulment"))
            if r.fumble:
                events += M.stun(state, n, "fumbled Magic roll")
            ctx = dict(ctx)
            ctx["aces"] = max(0, ctx["aces"] - r.aces)
            if ctx["aces"] == 0 or r.critical:
                events.append(say("annulled", spell=ctx["spell"]))
                if r.critical:
                    events += M.stun(state, caster, "Naach-Tith Critical")
                return events
            events.append(say("annul_partial", spell=ctx["spell"], cancelled=r.aces, aces=ctx["aces"]))
        return events + combat.resolve_spell(state, ctx, spell)

    # ================================================================== prompts
    def pending(self, state: GameState) -> list[Prompt]:
        return P.pending(self, state)

    def _castable(self, state: GameState, m: ModelState) -> list[dict]:
        spells = state.spells
        return [spells[s] for s in m.spells if s in spells and not spells[s].get("reaction")]

    # ------------------------------------------------------------------ Choose
    def _do_choose(self, state: GameState, a: Choose, actor: Actor) -> list[Event]:
        prompt = self.check_choice(state, a, actor)
        pid = prompt.player
        who = Actor(pid, actor.gm)
        pick = a.options[0]
        p = prompt.id
        if prompt.kind == "opportunity":
            return self._take_opportunity(state) if pick == "take" else self._decline_opportunity(state)
        if p.startswith("gy-"):
            state.morale_queue.pop(0)
            hit = [u for u in a.options if u != "none"]
            return self._geyser_attacks(state, hit) if hit else [say("geyser_none")]
        if p.startswith("ee-"):
            state.morale_queue.pop(0)
            if pick == "none":
                return []
            m = state.model(pick)
            m.stunned = False
            return [say("evil_eye_freed", model=m.uid, name=m.name)]
        if p.startswith("mm-"):
            state.mad_minute = []
            return [say("mad_minute_end")]
        if p.startswith("mor-"):
            item = state.morale_queue.pop(0)
            testers = [uid for uid in a.options if uid != "none" and state.models[uid].in_play]
            if not testers:
                return [Event("morale_none", {"player": item["player"]})]
            return self._morale_queue(state, testers, 0, "a friend fell within 5''")
        if p.startswith("annul-"):
            return self._annul(state, pick)
        if p.startswith("dis-"):
            return self._disengage_reaction(state, pick)
        if p.startswith("rr-"):
            return self._reroll_window(state, pick)
        if p.startswith("dc-"):
            return self._defensive(state, int(pick))
        if p.startswith("ar-"):
            return self._ready_shot(state, pick)
        if p.startswith("bg-"):
            return self._bodyguard(state, pick)
        if p.startswith("cancel-"):
            return self._resolve_chain(state, pick == "cancel")
        if p.startswith("deploy-"):
            return self._do_deploy(state, A.Deploy(pid, tuple(a.options)), who)
        if p.startswith("order-"):
            return self._do_order(state, A.ChooseOrder(pick), who)
        if p.startswith("eor-"):
            return self._end_round(state)
        if p.startswith("turn-"):
            if pick == "pass":
                return self._do_pass(state, A.Pass(pid), who)
            if pick == "reinforce":
                state.sub = {"kind": "reinforce"}
                return []
            if pick == "hold":
                state.held.append(pid)
                events = [Event("hold", {"player": pid})]
                self._next_turn(state, events)
                return events
            return self._do_activate(state, A.Activate(pick.split(":", 1)[1]), who)
        if p.startswith("rf-"):
            if pick == "back":
                state.sub = {}
                return []
            meth, uid = pick.split(":", 1)
            method = {"a": "assault", "f": "flanking", "s": "sneak"}[meth]
            state.sub = {}
            return self._do_reinforce(state, A.Reinforce(uid, method), who)
        m = state.models[state.active]
        if pick == "back":
            state.sub = {}
            state.counter += 1
            return []
        if p.startswith("do-"):
            return self._button_action(state, m, pick, who)
        sub = dict(state.sub)
        state.counter += 1
        if p.startswith("tg-"):
            if sub["kind"] == "melee":          # then: who else is in contact (the outnumbering dice)
                state.sub = {"kind": "contact", "target": pick}
            elif P.ranged_band(m):          # then: how far, then what cover
                state.sub = {"kind": "distance", "target": pick}
            else:
                state.sub = {"kind": "cover", "target": pick}
            return []
        if prompt.kind == "melee_contact":
            state.sub = {}
            allies, enemies = int(pick[1]), int(pick[3])
            return self._do_attack(state, A.Attack(m.uid, sub["target"], allies=allies, enemies=enemies), who)
        if prompt.kind == "shot_distance":
            state.sub = {"kind": "cover", "target": sub["target"], "distance": int(pick[1:])}
            return []
        if p.startswith("dp-"):
            state.sub = {}
            return self._do_disengage(state, A.Disengage(m.uid, tuple(a.options)), who)
        if p.startswith("cv-"):
            size, hard = P.COVER_OPTIONS[pick]
            state.sub = {}
            return self._do_shoot(state, A.Shoot(m.uid, sub["target"], distance=sub.get("distance", 0),
                                                 cover_size=size, cover_hardness=hard), who)
        if p.startswith("sp-"):
            spell = self._castable(state, m)[int(pick[1:])]
            nxt = self._spell_next_step(spell)
            if nxt is None:
                state.sub = {}
                return self._cast(state, m, spell, None, [])
            state.sub = {"kind": nxt, "spell": spell["name"], "multi": spell["effect"] in MULTI_TARGET_SPELLS}
            return []
        if p.startswith("st-"):
            spell = self._spell(state, sub["spell"])
            if spell["effect"] in ("blessing", "curse"):
                state.sub = {"kind": "attribute", "spell": sub["spell"], "target": pick}
                return []
            state.sub = {}
            if sub.get("multi"):
                return self._cast(state, m, spell, state.model(a.options[0]), [state.model(u) for u in a.options])
            return self._cast(state, m, spell, state.model(pick), [])
        if p.startswith("at-"):
            state.sub = {}
            return self._cast(state, m, self._spell(state, sub["spell"]), state.model(sub["target"]), [],
                              attribute=pick)
        if p.startswith("hl-"):
            state.sub = {}
            return self._do_heal(state, A.Heal(pick, healer=m.uid), who)
        raise IllegalAction("choice_unknown")

    def _spell_next_step(self, spell: dict) -> str | None:
        if spell["effect"] in ("walk_worlds",):
            return None
        if spell["effect"] == "rashaar_heal":
            return None
        return "spell_target"

    def _button_action(self, state: GameState, m: ModelState, pick: str, who: Actor) -> list[Event]:
        state.counter += 1
        if pick == "end":
            return self._end_activation(state, m)
        if pick == "endchain":
            return self._end_activation(state, m, chain=True)
        if pick in ("melee", "shoot"):
            state.sub = {"kind": pick}
            return []
        if pick == "disengage":
            state.sub = {"kind": "dis_pick"}
            return []
        if pick == "cast":
            state.sub = {"kind": "spell"}
            return []
        if pick == "heal":
            state.sub = {"kind": "heal"}
            return []
        if pick == "regen":
            return self._do_heal(state, A.Heal(m.uid, healer=m.uid), who)
        mapping = {"ready_cc": "at_ready_melee", "ready_sh": "at_ready_shooting"}
        return self._do_spend_ap(state, A.SpendAP(m.uid, mapping.get(pick, pick)), who)

    def is_over(self, state: GameState) -> bool:
        return bool(state.over)

    # ================================================================== views
    def view_for(self, state: GameState, viewer: str) -> dict:
        from .views import game_view
        return game_view(self, state, viewer)
