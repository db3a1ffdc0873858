"""Deployment, Rounds, Turns and activations (digest §5.1-§5.3): the advance party, Initiative and the
order, the alternating Turns, reinforcements, passing, chain activation, the End of Round (effects
expire, Hold Breath, the Geyser, Aqua Alta, fleeing models rally, AP back)."""
from __future__ import annotations


from rules.common import Actor, Event, IllegalAction, NotYourTurn, term

from . import actions as A
from . import combat, mechanics as M, tables
from .dice import ceil_half, d5_from_d10, roll_initiative
from .mechanics import attr, has, said, say, slug
from .state import GameState, ModelState
from .sections import Sections



class Turns(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

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
            r = roll_pool(state.rng, 4, dex)
            events.append(M.record(state, None, r, said("roll_geyser", name=m.name, dex=dex)))
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
            r = M.model_roll(state, m, attr(m, "MIN"), events=events,
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
