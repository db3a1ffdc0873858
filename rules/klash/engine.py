"""The Klash! engine: auction -> team -> deployment -> 8-Hourglass match -> over.

Flow control lives in ``_settle``: after every action it drops stale free-attack offers, ends finished
activations, passes turns, closes the Action Phase and the Hourglass, and checks the end of the game.
Prompts are derived from the state only, so the cog never needs to know the rules.
"""
from __future__ import annotations

import copy
import math
from typing import Any

from rules.common.deck import Deck
from rules.common.engine import PUBLIC, Actor, Choose, Engine, Event, Option, Outcome, Prompt, term
from rules.common.errors import IllegalAction, NotYourTurn
from rules.common.rng import Rng

from . import arena, core, dice
from .actions import (ACTIONS, Activate, Assault, Charge, Deploy, Disengage, EndActivation, Magic, Move,
                      PassEvent, Pick, PlayEvent, Recover, SelectTeam, UseToken, Volley)
from .core import check, has, require, say
from .pack import INSTINCTS, load_sample_pack
from .state import HOUSE_RULES, Activation, KlashState, Model

ROUNDS = 8
REVEAL = 5
HOURGLASSES = 8
TEAM_MAX = 8
START_TOKENS = 5
# Typed actions that activate their model first when it is Ready and nothing is active yet.
OPENS_ACTIVATION = (Move, Disengage, Assault, Volley, Charge, Magic, Recover)


class KlashEngine(Engine[KlashState]):
    system = "klash"
    state_type = KlashState
    actions = ACTIONS

    # ================================================================ setup
    def setup(self, seats: list[str], options: dict, seed: int) -> KlashState:
        return self.start(seats, options, seed).state

    def start(self, seats: list[str], options: dict | None = None, seed: int = 0) -> Outcome:
        """seats: two distinct player ids. options: ``pack`` (a dict from load_pack_text / load_sample_pack;
        default the SAMPLE pack) and ``house_rules`` (overrides of HOUSE_RULES). The events: the first
        auction round's five cards, revealed (public, like every later round's)."""
        seats, options = list(seats), dict(options or {})
        if len(seats) != 2 or seats[0] == seats[1]:
            raise IllegalAction("two_players")
        pack = options.get("pack") or load_sample_pack()
        rules = dict(HOUSE_RULES)
        for key, value in (options.get("house_rules") or {}).items():
            if key not in HOUSE_RULES:
                raise IllegalAction("unknown_house_rule", rule=key)
            rules[key] = value
        state = KlashState(seats=list(seats), rng=Rng.from_seed(seed), house_rules=rules,
                           pack_name=pack["name"], sample=pack.get("sample", False),
                           cards=pack["characters"], event_cards=pack["events"])
        deck = [cid for cid, c in pack["characters"].items() for _ in range(c["copies"])]
        state.rng.shuffle(deck)
        state.char_deck = deck
        state.player_a = state.rng.choice(seats)
        state.player_b = state.other(state.player_a)
        for p in seats:
            state.picks[p] = []
            state.vp[p] = 0
            state.tokens[p] = START_TOKENS
            state.hands[p] = []
        events = [eid for eid, e in pack["events"].items() for _ in range(e["copies"])]
        state.event_deck = Deck(cards=events)
        state.event_deck.shuffle(state.rng)
        out: list[Event] = []
        self._start_round(state, out)
        return Outcome(state=state, events=out)

    def new_skirmish(self, seats: list[str], teams: dict, seed: int = 0, options: dict | None = None,
                     hourglass: int = 1, first: str | None = None) -> KlashState:
        """A match already deployed, for tests, tutorials and GM set-ups: ``teams`` maps each player to a
        list of ``(card_id, x, y)``. It opens Hourglass ``hourglass`` in the Action Phase with ``first``
        (default seats[0]) to activate; no Event Cards are dealt. Team VP are recorded as usual."""
        state = self.new_game(seats, options or {}, seed)
        state.phase = "match"
        state.revealed, state.char_deck = [], []
        n = 0
        for p in seats:
            state.picks[p] = [c for c, _, _ in teams.get(p, [])]
            for cid, x, y in teams.get(p, []):
                n += 1
                if cid not in state.cards:
                    raise IllegalAction("unknown_card", card=cid)
                state.models.append(Model(id=f"m{n}", card=cid, owner=p, name=f"{state.cards[cid]['name']} #{n}",
                                          x=float(x), y=float(y), placed=True))
            state.team_vp[p] = sum(state.cards[c]["vp"] for c, _, _ in teams.get(p, []))
        state.player_a, state.player_b = seats[0], seats[1]
        state.gates = {seats[0]: 0, seats[1]: 1}
        state.hourglass = hourglass
        state.stage = "action"
        state.init_winner = first or seats[0]
        self._begin_turn(state, [], first or seats[0])
        return state

    # ================================================================ auction
    def _start_round(self, state: KlashState, out: list) -> None:
        state.draft_round += 1
        state.revealed = [state.char_deck.pop() for _ in range(REVEAL)]
        state.round_picks = 0
        say(out, "draft_round", round=state.draft_round, revealed=list(state.revealed),
            card_names=[state.cards[c]["name"] for c in state.revealed])

    def picker(self, state: KlashState) -> str:
        """Odd rounds: A takes 1, then B takes 2. Even rounds: B takes 1, then A takes 2 (L19)."""
        single = state.player_a if state.draft_round % 2 == 1 else state.player_b
        return single if state.round_picks == 0 else state.other(single)

    def _pick(self, state: KlashState, out: list, player: str, index: int) -> None:
        require(state.phase == "draft", "auction_over")
        require(player == self.picker(state), "not_your_pick")
        require(0 <= index < len(state.revealed), "no_card_there")
        card = state.revealed.pop(index)
        state.picks[player].append(card)
        state.draft_log.append([state.draft_round, player, card])
        state.round_picks += 1
        say(out, "pick", player=player, card=card, card_name=state.cards[card]["name"], round=state.draft_round)
        if state.round_picks == 3:
            state.discarded.extend(state.revealed)
            say(out, "draft_discard", cards=list(state.revealed),
                card_names=[state.cards[c]["name"] for c in state.revealed])
            state.revealed = []
            if state.draft_round == ROUNDS:
                state.phase = "team"
                say(out, "phase", phase="team", most=TEAM_MAX)
            else:
                self._start_round(state, out)

    # ================================================================ team
    def team_problem(self, state: KlashState, player: str, indices: list[int]) -> IllegalAction | None:
        picks = state.picks[player]
        if not 1 <= len(indices) <= TEAM_MAX:
            return IllegalAction("team_size", most=TEAM_MAX)
        if len(set(indices)) != len(indices) or any(not 0 <= i < len(picks) for i in indices):
            return IllegalAction("team_distinct")
        team = [picks[i] for i in indices]
        for cid in team:
            card = state.cards[cid]
            if card["type"] == "campione" and team.count(cid) > 1:
                return IllegalAction("champion_unique", card_name=card["name"])
            for req in card.get("requirements") or []:
                if req["kind"] == "min_type":
                    n = sum(1 for t in team if state.cards[t]["type"] == req["type"])
                    if n < req.get("count", 1):
                        return IllegalAction("requires_type", card_name=card["name"], count=req.get("count", 1),
                                             type=req["type"], kind=term(f"type_{req['type']}"))
                elif req["kind"] == "with_card":
                    if req["card"] not in team:
                        return IllegalAction("requires_card", card_name=card["name"], card=req["card"],
                                             other_name=state.cards[req["card"]]["name"])
                elif req["kind"] == "max_models":
                    if len(team) > req.get("count", TEAM_MAX):
                        return IllegalAction("requires_small_team", card_name=card["name"],
                                             count=req.get("count", TEAM_MAX))
        return None

    def _select_team(self, state: KlashState, out: list, player: str, indices: list[int]) -> None:
        require(state.phase == "team", "not_team_time")
        require(player in state.seats and player not in state.team_choice, "team_already_chosen")
        problem = self.team_problem(state, player, indices)
        check(problem, state)
        state.team_choice[player] = sorted(indices)
        vp = sum(state.cards[state.picks[player][i]]["vp"] for i in indices)
        secret = state.house_rules.get("secret_team")
        say(out, "team_chosen", player if secret else PUBLIC, player=player, vp=vp, n=len(indices),
            indices=sorted(indices))
        if secret:
            say(out, "team_locked", player=player)
        if len(state.team_choice) == 2:
            n = 0
            for p in (state.player_a, state.player_b):
                for i in state.team_choice[p]:
                    n += 1
                    cid = state.picks[p][i]
                    # numbered across both teams, so every model's name is unique in the match
                    # ("Raging Orc 1" and "Raging Orc 2" even when each team holds one); a Champion
                    # both teams drafted is told apart the same way
                    copies = sum(1 for m in state.models if m.card == cid)
                    name = state.cards[cid]["name"].replace("SAMPLE ", "")
                    if state.cards[cid]["type"] != "campione" or copies:
                        name = f"{name} {copies + 1}"
                    state.models.append(Model(id=f"m{n}", card=cid, owner=p, name=name))
                state.team_vp[p] = sum(state.cards[m.card]["vp"] for m in state.models if m.owner == p)
            a, b = state.player_a, state.player_b
            say(out, "teams", a_player=a, a_vp=state.team_vp[a], b_player=b, b_vp=state.team_vp[b],
                team_vp=dict(state.team_vp),
                teams={p: [m.card for m in state.models if m.owner == p] for p in state.seats})
            state.gates = {state.player_a: 0, state.player_b: 1}
            state.phase = "deploy"
            state.deploy_turn = state.player_a

    # ================================================================ deployment
    def _deploy(self, state: KlashState, out: list, player: str, mid: str, x: float, y: float) -> None:
        require(state.phase == "deploy", "deployment_over")
        require(player == state.deploy_turn, "not_your_deploy")
        m = state.model(mid)
        require(m.owner == player and not m.placed, "deploy_own_model")
        d = arena.Disc(float(x), float(y), core.radius(state, m), m.id, state.seats.index(player))
        problem = arena.deploy_check(d, state.gates[player], core.stat(state, m, "speed"), core.discs(state))
        check(problem, state)
        m.x, m.y, m.placed = float(x), float(y), True
        state.sel = None
        say(out, "deployed", model=m.id, name=m.name, x=m.x, y=m.y)
        other = state.other(player)
        if any(not mm.placed for mm in state.models if mm.owner == other):
            state.deploy_turn = other
        elif any(not mm.placed for mm in state.models if mm.owner == player):
            state.deploy_turn = player
        else:
            state.phase = "match"
            state.deploy_turn = ""
            self._start_hourglass(state, out)

    # ================================================================ hourglass
    def _draw_event(self, state: KlashState, out: list, player: str) -> None:
        if not state.event_deck.cards and state.event_deck.discards:
            state.event_deck.reshuffle_discards(state.rng)
            say(out, "event_reshuffle")
        if not state.event_deck.cards:
            say(out, "event_empty")
            return
        card = state.event_deck.draw_one()
        state.hands[player].append(card)
        say(out, "event_draw", player=player)
        say(out, "event_card", player, card=card, card_name=core.words(state.event_cards[card], "name"),
            card_text=core.words(state.event_cards[card], "text"))

    def _start_hourglass(self, state: KlashState, out: list) -> None:
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

    def _roll_off(self, state: KlashState, out: list, why: str, high: bool = True) -> str:
        """d12 each until the dice differ (EX-20, EX-21)."""
        a, b = state.seats
        while True:
            ra, rb = core.die(state, 12), core.die(state, 12)
            say(out, "roll_off", tie=term(f"tie_{why}"), a_player=a, a=ra, b_player=b, b=rb, rolls={a: ra, b: rb})
            if ra != rb:
                return a if (ra > rb) == high else b

    def _begin_turn(self, state: KlashState, out: list, player: str) -> None:
        state.turn_no += 1
        state.turn_player = player
        state.turn_activations = 0
        state.extra_activation_used = False
        state.ext_offer = False

    def _ready(self, state: KlashState, player: str) -> list[Model]:
        return [m for m in state.on_field(player) if not m.activated]

    def _end_action_phase(self, state: KlashState, out: list) -> None:
        for p in (state.init_winner, state.other(state.init_winner)):
            if p not in state.melee_against and state.on_field(p):
                core.score(state, p, 1, "no_melee", out)
        state.stage = "final"
        state.turn_player = ""
        state.final_order = [state.init_winner, state.other(state.init_winner)]
        say(out, "final_phase", hourglass=state.hourglass)

    def _end_hourglass(self, state: KlashState, out: list) -> None:
        for m in state.models:
            m.activated = False
        if not state.house_rules.get("annihilation_immediate", True) and self._annihilation(state, out):
            return
        if state.hourglass >= HOURGLASSES:
            self._final_count(state, out, "hourglass8")
        else:
            self._start_hourglass(state, out)

    def _annihilation(self, state: KlashState, out: list) -> bool:
        alive = {p: bool(state.on_field(p)) for p in state.seats}
        if all(alive.values()):
            return False
        if not any(alive.values()):
            self._final_count(state, out, "mutual_annihilation", underdog=False)
            return True
        winner = next(p for p in state.seats if alive[p])
        self._finish(state, out, winner, "annihilation")
        return True

    def _final_count(self, state: KlashState, out: list, result: str, underdog: bool = True) -> None:
        a, b = state.seats
        if underdog and state.team_vp.get(a, 0) != state.team_vp.get(b, 0):
            low = a if state.team_vp[a] < state.team_vp[b] else b
            core.score(state, low, abs(state.team_vp[a] - state.team_vp[b]), "underdog", out)
        if state.vp[a] != state.vp[b]:
            winner = a if state.vp[a] > state.vp[b] else b
        else:
            winner = self._roll_off(state, out, "vp", high=True)
        self._finish(state, out, winner, result)

    def _finish(self, state: KlashState, out: list, winner: str, result: str) -> None:
        state.winner, state.result, state.over, state.phase = winner, result, True, "over"
        state.acts, state.choices, state.sel, state.esel, state.stack = [], [], None, None, []
        state.stage = ""
        a, b = state.seats
        say(out, "game_over", winner_player=winner, how=term(f"result_{result}"), a_player=a, a_vp=state.vp[a],
            b_player=b, b_vp=state.vp[b], winner=winner, result=result, vp=dict(state.vp))

    # ================================================================ settle (flow control)
    def _settle(self, state: KlashState, out: list) -> None:
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
                    say(out, "moved", model=m.id, name=m.name, x=m.x, y=m.y, disengage=True, verb=term("disengages_to"))
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
                kinds = [o.id for o in self._act_kinds(state, act)]
                if act.ended or m.removed or kinds in ([], ["end"]):
                    self._finish_activation(state, out)
                    continue
                if state.sel is not None and state.sel.get("kind") not in kinds:
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

    def _finish_activation(self, state: KlashState, out: list) -> None:
        act = state.acts.pop()
        state.sel = None
        m = state.model(act.model)
        if act.dominated:
            if state.house_rules.get("dominated_marked_activated", True):
                m.activated = True
            say(out, "domination_end", model=m.id, name=m.name)
            return
        say(out, "activation_end", model=m.id, name=m.name)
        state.turn_activations += 1
        if not state.extra_activation_used:
            state.ext_offer = True

    def _ext_candidates(self, state: KlashState) -> list[Model]:
        p = state.turn_player
        if state.tokens.get(p, 0) <= 0 or state.extra_activation_used:
            return []
        key = core.limit_key(state)
        return [m for m in self._ready(state, p) if not core.is_beast(state, m) and m.token_mark != key]

    # ================================================================ activation
    def _activate(self, state: KlashState, out: list, player: str, mid: str) -> None:
        require(state.phase == "match" and state.stage == "action", "activate_in_action_phase")
        require(not state.acts and not state.choices and not state.stack, "activation_under_way")
        require(player == state.turn_player, "not_your_turn")
        require(state.turn_activations == 0, "already_activated_turn")
        m = state.model(mid)
        require(m.owner == player and m.placed and not m.removed, "activate_own_model")
        require(not m.activated, "already_activated", name=m.name)
        self._open_activation(state, out, m, player)

    def _open_activation(self, state: KlashState, out: list, m: Model, player: str) -> None:
        m.activated = True
        m.armour = False  # Armour lasts until the start of the caster's next activation
        act = Activation(model=m.id, controller=player, free_assault=has(state, m, "two_heads"))
        state.acts.append(act)
        state.sel = None
        say(out, "activation", model=m.id, name=m.name, player=player)
        if core.is_beast(state, m):
            tamers = [t for t in state.on_field(m.owner) if t.id != m.id and has(state, t, "tamer")
                      and not t.stunned and core.gap(state, t, m) <= 10 + 1e-9]
            value = max([core.stat(state, m, "discipline")] + [core.stat(state, t, "discipline") for t in tamers])
            ok, _ = core.discipline_test(state, out, m, "Instinct", value=value)
            if not ok and tamers:
                say(out, "tamer", model=m.id, name=m.name, tamer_name=tamers[0].name)
                ok, _ = core.discipline_test(state, out, m, "Instinct", value=value, allow_armed=False)
            if not ok:
                self._instinct(state, out, m)
                act.ended = True

    def _nearest(self, state: KlashState, m: Model, pool: list[Model]) -> Model | None:
        if not pool:
            return None
        best = min(core.gap(state, m, o) for o in pool)
        ties = [o for o in pool if core.gap(state, m, o) <= best + 1e-6]
        return ties[0] if len(ties) == 1 else state.rng.choice(ties)

    def _instinct(self, state: KlashState, out: list, m: Model) -> None:
        """Replace the whole activation with the Instinct behaviour (§6.13)."""
        quality = next((q for q in INSTINCTS if has(state, m, q)), None)
        if quality is None:
            say(out, "instinct_idle", model=m.id, name=m.name)
            return
        say(out, "instinct", model=m.id, name=m.name, quality=quality, instinct=term(f"quality_{quality}"))
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

    def _auto_move(self, state: KlashState, out: list, m: Model, goal: tuple, allowance: float, stop: float) -> None:
        models = [d for d in core.discs(state)]
        route = arena.step_route(core.disc(state, m), goal, models, allowance, stop_gap=stop)
        if route:
            p = route[-1]
            m.x, m.y = p
            say(out, "moved", model=m.id, name=m.name, x=m.x, y=m.y, verb=term("moves_to"))

    def _recover(self, state: KlashState, out: list, m: Model) -> bool:
        if has(state, m, "madman") or has(state, m, "multiple_heads"):
            ok = True
            say(out, "recover_no_test", model=m.id, name=m.name)
        else:
            ok, _ = core.discipline_test(state, out, m, "Recover")
        if ok:
            m.stunned = False
            say(out, "recovered", model=m.id, name=m.name)
        return ok

    # ---------------------------------------------------------------- legality helpers
    def _remaining(self, act: Activation) -> int:
        return act.allowed - act.used

    def _move_allowance(self, state: KlashState, m: Model, double: bool) -> float:
        speed = core.stat(state, m, "speed")
        if not double:
            return float(speed)
        return float(speed * (3 if has(state, m, "winged_feet") else 2))

    def _disengage_allowance(self, state: KlashState, m: Model) -> float:
        speed = core.stat(state, m, "speed")
        return float(speed if has(state, m, "sprint") else speed / 2)

    def _disengage_cost(self, state: KlashState, m: Model) -> int:
        return 2 if any(has(state, e, "hinder") for e in core.engaged_with(state, m)) else 1

    def _charge_problem(self, state: KlashState, m: Model, target: Model) -> IllegalAction | None:
        if target.removed or target.id == m.id:
            return IllegalAction("charge_needs_target")
        if core.engaged(state, m):
            return IllegalAction("engaged_no_charge", name=m.name)
        if core.contact(state, m, target):
            return IllegalAction("already_in_contact", name=m.name, target_name=target.name)
        if core.gap(state, m, target) > core.stat(state, m, "speed") + 1e-6:
            return IllegalAction("beyond_charge_reach", name=m.name, target_name=target.name,
                                 speed=core.stat(state, m, "speed"))
        visible, _ = arena.line_of_sight(core.disc(state, m), core.disc(state, target), core.discs(state))
        if not visible:
            return IllegalAction("not_in_sight", target_name=target.name)
        others = [d for d in core.discs(state)]
        return arena.check_charge(core.disc(state, m), core.disc(state, target), others,
                                  float(core.stat(state, m, "speed")))

    def _side(self, state: KlashState, m: Model) -> str:
        """Whose side a model fights for right now: a dominated model fights for its controller."""
        for act in state.acts:
            if act.model == m.id and act.dominated:
                return act.controller
        return m.owner

    def _assault_targets(self, state: KlashState, m: Model) -> list[Model]:
        side = self._side(state, m)
        return [e for e in state.on_field() if e.owner != side and e.id != m.id and core.contact(state, m, e)]

    def _volley_targets(self, state: KlashState, m: Model) -> list[Model]:
        if not dice.usable(core.stat(state, m, "ranged_attack")):
            return []
        return [e for e in state.on_field() if e.owner != m.owner and core.volley_problem(state, m, e) is None]

    def _charge_targets(self, state: KlashState, m: Model) -> list[Model]:
        if core.engaged(state, m):
            return []
        side = self._side(state, m)
        return [e for e in state.on_field() if e.owner != side and e.id != m.id
                and self._charge_problem(state, m, e) is None]

    def _spell_targets(self, state: KlashState, m: Model, spell: str) -> list[Any]:
        if spell == "armour":
            return ["self"]
        if spell == "teleport":
            return [p for p in self._teleport_points(state, m)]
        pool = state.on_field(m.owner) if spell == "healing" else [e for e in state.on_field() if e.owner != m.owner]
        if spell == "healing":
            pool = [a for a in pool if a.stunned]
        return [t for t in pool if core.spell_problem(state, m, spell, t) is None]

    def _teleport_points(self, state: KlashState, m: Model) -> list[tuple]:
        pts = []
        for rad, n in ((22.0, 8), (40.0, 8)):
            for k in range(n):
                ang = 2 * math.pi * k / n + (math.pi / n if rad > 30 else 0)
                p = (round(arena.CENTRE[0] + rad * math.cos(ang), 1), round(arena.CENTRE[1] + rad * math.sin(ang), 1))
                if core.teleport_problem(state, m, p) is None:
                    pts.append(p)
        return pts

    def _madman_bound(self, state: KlashState, act: Activation, m: Model) -> bool:
        """Madman must Assault or Charge each activation if it can (§6.1)."""
        if not has(state, m, "madman") or act.attacked or m.stunned:
            return False
        return bool(((self._remaining(act) >= 1 or act.free_assault) and self._assault_targets(state, m)) or
                    (self._remaining(act) >= 1 and self._charge_targets(state, m)))

    def _token_ok(self, state: KlashState, m: Model, player: str) -> bool:
        return (state.tokens.get(player, 0) > 0 and not core.is_beast(state, m) and m.owner == player
                and m.token_mark != core.limit_key(state))

    def _act_kinds(self, state: KlashState, act: Activation) -> list[Option]:
        """The first-step options of the activation prompt (option id: the action's code)."""
        m = state.model(act.model)
        rem = self._remaining(act)
        opts: list[Option] = []
        if act.ended or m.removed:
            return [Option.of("end", "end_activation")]
        can_double = rem >= 2 and not act.increased
        if m.stunned:
            if rem >= 1:
                opts.append(Option.of("rec", "recover"))
        else:
            madman = self._madman_bound(state, act, m)
            assault = self._assault_targets(state, m)
            if assault and (rem >= 1 or act.free_assault):
                opts.append(Option.of("as", "assault"))
                if can_double:
                    opts.append(Option.of("as2", "assault_double"))
            if rem >= 1 and self._charge_targets(state, m):
                opts.append(Option.of("ch", "charge"))
                if can_double:
                    opts.append(Option.of("ch2", "charge_double"))
            if not madman:
                engaged = core.engaged(state, m)
                if rem >= 1 and not engaged and self._can_move(state, m, "mv"):
                    opts.append(Option.of("mv", "move", cm=self._move_allowance(state, m, False)))
                    if can_double:
                        opts.append(Option.of("mv2", "move_double", cm=self._move_allowance(state, m, True)))
                if engaged and rem >= self._disengage_cost(state, m) and self._can_move(state, m, "dis"):
                    opts.append(Option.of("dis", "disengage", cm=self._disengage_allowance(state, m)))
                if rem >= 1 and self._volley_targets(state, m):
                    opts.append(Option.of("vo", "volley"))
                    if can_double:
                        opts.append(Option.of("vo2", "volley_double"))
                if rem >= 1 and has(state, m, "spellcaster") and m.id not in state.cast:
                    for spell in core.stat(state, m, "spells"):
                        if self._spell_targets(state, m, spell):
                            code = core.SPELL_CODES[spell]
                            opts.append(Option.of(f"mg:{code}", "cast", spell=term(f"spell_{spell}")))
                            if can_double:
                                opts.append(Option.of(f"mg2:{code}", "cast_double", spell=term(f"spell_{spell}")))
        if m.stunned and has(state, m, "regeneration") and not act.regen_used:
            opts.append(Option.of("regen", "regenerate"))
        if (self._token_ok(state, m, act.controller) and not act.extra_action and not act.dominated
                and state.turn_player == act.controller):
            opts.append(Option.of("tka", "token_action"))
        if (self._token_ok(state, m, act.controller) and not m.reroll_armed and not act.dominated
                and not state.house_rules.get("reroll_window", True)):
            opts.append(Option.of("tkr", "token_reroll"))
        if not (not m.stunned and self._madman_bound(state, act, m)):
            opts.append(Option.of("end", "end_activation"))
        return opts
    def _may_open(self, state: KlashState, player: str, mid: str) -> bool:
        """Would `Activate(mid)` by `player` be legal now (the `activate` prompt offers it)?"""
        if not (state.phase == "match" and state.stage == "action" and not state.acts and not state.choices
                and not state.stack and state.esel is None and player == state.turn_player
                and state.turn_activations == 0):
            return False
        return any(m.id == mid for m in self._ready(state, player))

    def _current(self, state: KlashState, player: str, mid: str) -> Activation:
        require(state.phase == "match" and state.acts and not state.choices and not state.stack,
                "no_activation")
        act = state.acts[-1]
        if player != act.controller:
            raise NotYourTurn("not_your_activation")
        require(act.model == mid, "other_model_active", name=state.model(act.model).name)
        return act

    def _spend(self, state: KlashState, out: list, act: Activation, m: Model, cost: int, kind: str) -> bool:
        """Pay for an action; Two Heads tests first. Returns False if the action is lost."""
        require(self._remaining(act) >= cost or (kind == "assault" and cost == 1 and act.free_assault),
                "no_action_left", name=m.name)
        if kind == "assault" and cost == 1 and act.free_assault:
            act.free_assault = False
        else:
            act.used += cost
        if cost == 2:
            act.increased = True
        if has(state, m, "two_heads"):
            ok, (a, b) = core.discipline_test(state, out, m, "Two Heads")
            if (a, b) in ((5, 5), (6, 6)):
                say(out, "two_heads", model=m.id, name=m.name, quarrel=True, outcome=term("two_heads_quarrel"))
                core.melee(state, out, m, m, kind="self", allow_follow=False)
                return False
            if not ok:
                say(out, "two_heads", model=m.id, name=m.name, quarrel=False, outcome=term("two_heads_lost"))
                return False
        return True

    def _do_move(self, state: KlashState, out: list, player: str, mid: str, points: list[tuple], double: bool,
                 disengage: bool = False) -> None:
        act = self._current(state, player, mid)
        m = state.model(mid)
        require(not m.stunned, "stunned_only_recover", name=m.name)
        if disengage:
            require(core.engaged(state, m), "not_engaged", name=m.name)
            cost = self._disengage_cost(state, m)
            allowance = self._disengage_allowance(state, m)
            exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        else:
            require(not core.engaged(state, m), "engaged_must_disengage", name=m.name)
            require(not self._madman_bound(state, act, m), "madman_must_attack", name=m.name)
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
        say(out, "moved", model=m.id, name=m.name, x=m.x, y=m.y, disengage=disengage,
            verb=term("disengages_to" if disengage else "moves_to"))

    def _do_assault(self, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, "stunned_only_recover", name=m.name)
        require(t in self._assault_targets(state, m), "not_enemy_in_contact", target_name=t.name)
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

    def _do_volley(self, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, "stunned_only_recover", name=m.name)
        require(not self._madman_bound(state, act, m), "madman_must_attack", name=m.name)
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

    def _do_magic(self, state: KlashState, out: list, player: str, mid: str, spell: str, tid: str,
                  double: bool, point: tuple | None) -> None:
        act = self._current(state, player, mid)
        m = state.model(mid)
        require(not m.stunned, "stunned_only_recover", name=m.name)
        require(not self._madman_bound(state, act, m), "madman_must_attack", name=m.name)
        target = m if spell == "armour" else (state.model(tid) if tid else None)
        problem = core.spell_problem(state, m, spell, target, point)
        check(problem, state)
        require(not (double and act.increased), "one_double_action")
        if not self._spend(state, out, act, m, 2 if double else 1, "magic"):
            state.cast.append(m.id)
            return
        core.cast(state, out, m, spell, target, inc=1 if double else 0, point=point)

    def _do_charge(self, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool,
                   touch: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, "stunned_only_recover", name=m.name)
        require(t.owner != self._side(state, m), "charge_enemy_only")
        problem = self._charge_problem(state, m, t)
        check(problem, state)
        require(not (double and act.increased), "one_double_action")
        if touch:
            require(has(state, m, "spellcaster") and "destructive_touch" in core.stat(state, m, "spells")
                    and m.id not in state.cast, "no_destructive_touch", name=m.name)
        if not self._spend(state, out, act, m, 2 if double else 1, "charge"):
            return
        act.attacked = True
        self._charge(state, out, m, t, inc=1 if double else 0, touch=touch)
        act.ended = True  # no further actions after a Charge (L47)

    def _charge(self, state: KlashState, out: list, m: Model, t: Model, *, inc: int, touch: bool,
                instinct: bool = False) -> None:
        enemy = t.owner != m.owner
        if enemy and has(state, t, "frightening") and not core.fear_immune(state, m):
            ok, _ = core.discipline_test(state, out, m, "Fear (to Charge)")
            if not ok:
                say(out, "charge_lost", model=m.id, name=m.name, target_name=t.name)
                return
        was_engaged = core.engaged(state, t)
        end, travel = arena.charge_end(core.disc(state, m), core.disc(state, t))
        m.x, m.y = round(end[0], 3), round(end[1], 3)
        say(out, "charged", model=m.id, name=m.name, target=t.id, target_name=t.name, travel=travel, x=m.x, y=m.y)
        if enemy and has(state, m, "frightening") and not core.fear_immune(state, t):
            ok, _ = core.discipline_test(state, out, t, "Fear")
            if not ok:
                t.stunned = True
                say(out, "stunned", model=t.id, name=t.name)
        if enemy and has(state, t, "repel_charge") and not was_engaged and not t.stunned:
            core.melee(state, out, t, m, kind="repel", allow_follow=False)
            if m.removed:
                return
        if touch:
            core.cast(state, out, m, "destructive_touch", t, inc=inc)
        else:
            core.melee(state, out, m, t, inc=inc, charge=True, kind="charge")

    # ---------------------------------------------------------------- tokens
    def _use_token(self, state: KlashState, out: list, player: str, mid: str, effect: str) -> None:
        require(state.phase == "match", "tokens_in_match")
        m = state.model(mid)
        require(m.owner == player and m.placed and not m.removed, "token_own_model")
        require(not core.is_beast(state, m), "beasts_no_tokens")
        require(state.tokens.get(player, 0) > 0, "no_tokens_left")
        require(m.token_mark != core.limit_key(state), "token_used_this_turn", name=m.name)
        if effect == "action":
            act = self._current(state, player, mid)
            require(state.turn_player == player and not act.dominated, "token_action_own_turn")
            require(not act.extra_action, "one_extra_action")
        elif effect == "activation":
            require(state.stage == "action" and state.turn_player == player and not state.acts and state.ext_offer
                    and not state.extra_activation_used, "extra_activation_when")
            require(not m.activated, "already_activated", name=m.name)
        elif effect == "reroll":
            require(not state.house_rules.get("reroll_window", True),
                    "reroll_offered_after")
            require(not m.reroll_armed, "reroll_already_ready", name=m.name)
        else:
            raise IllegalAction("token_effects")
        state.tokens[player] -= 1
        m.token_mark = core.limit_key(state)
        if effect == "activation":
            state.extra_activation_used = True
            state.ext_offer = False
        if has(state, m, "veteran"):
            ok = True
            say(out, "veteran", model=m.id, name=m.name)
        else:
            ok, _ = core.discipline_test(state, out, m, "Training Token", allow_armed=False)
        say(out, "token", player=player, model=m.id, name=m.name, effect=effect, use=term(f"token_{effect}"),
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

    # ---------------------------------------------------------------- events
    def _card_targets(self, state: KlashState, player: str, card: str) -> list[Model] | None:
        """None: no target needed; []: no legal target (unplayable)."""
        effect = state.event_cards[card]["effect"]
        if effect == "recover":
            return [m for m in state.on_field(player) if m.stunned]
        if effect == "boost":
            return state.on_field(player)
        if effect == "hex":
            return state.on_field(state.other(player))
        return None

    def _playable(self, state: KlashState, player: str, card: str, ignore_sel: bool = False) -> bool:
        """ignore_sel: as if no action target were being chosen (a card played then cancels the choice)."""
        # A card says when it is played (§3.11, §6.24): "any" cards at any moment of the match -- the
        # Initiative and Final Phases and a free-attack choice included; "own_turn" cards in your turn of
        # the Action Phase.
        if state.phase != "match" or state.stage not in ("initiative", "action", "final") or \
                (state.sel is not None and not ignore_sel):
            return False
        spec = state.event_cards[card]
        if state.stack:
            if player != state.stack_next or spec["timing"] != "any":
                return False
        else:
            if spec["effect"] == "cancel":
                return False
            if spec["timing"] == "own_turn" and (player != state.turn_player or state.stage != "action"
                                                  or state.choices):
                return False
        targets = self._card_targets(state, player, card)
        return targets is None or bool(targets)

    def _unplayable(self, state: KlashState, player: str, card: str) -> IllegalAction:
        """Why a card in the hand cannot be played now, in the terms of its own timing (§3.11)."""
        spec = state.event_cards[card]
        name = core.words(spec, "name")
        if state.phase != "match" or state.stage not in ("initiative", "action", "final"):
            return IllegalAction("card_match_only", card_name=name)
        if state.stack:
            if player != state.stack_next:
                return IllegalAction("card_answer_waits", card_name=name, answer_player=state.stack_next)
            if spec["timing"] != "any":
                return IllegalAction("card_own_turn_no_answer", card_name=name)
        elif spec["effect"] == "cancel":
            return IllegalAction("card_answers_only", card_name=name)
        elif spec["timing"] == "own_turn" and (player != state.turn_player or state.stage != "action"):
            return IllegalAction("card_own_turn", card_name=name)
        elif spec["timing"] == "own_turn" and state.choices:
            return IllegalAction("card_after_free_attack", card_name=name)
        if self._card_targets(state, player, card) == []:
            return IllegalAction("card_no_target", card_name=name)
        return IllegalAction("card_not_now", card_name=name)   # pragma: no cover - every case is named above

    def _play_event(self, state: KlashState, out: list, player: str, card: str, target: str) -> None:
        require(player in state.seats and card in state.hands[player], "card_not_in_hand")
        require(state.esel is None or state.esel["player"] == player, "card_being_played")
        if not self._playable(state, player, card, ignore_sel=True):
            raise self._unplayable(state, player, card)
        targets = self._card_targets(state, player, card)
        if targets is not None:
            require(any(t.id == target for t in targets), "card_target")
        state.hands[player].remove(card)
        state.esel = None
        state.stack.append({"player": player, "card": card, "target": target or ""})
        state.stack_next = state.other(player)
        spec = state.event_cards[card]
        if target:
            say(out, "event_played_on", player=player, card=card, card_name=core.words(spec, "name"), target=target,
                target_name=state.model(target).name)
        else:
            say(out, "event_played", player=player, card=card, card_name=core.words(spec, "name"), target=target)

    def _resolve_stack(self, state: KlashState, out: list) -> None:
        """Last played resolves first (L58); Ill Omen cancels the card below it."""
        cancelled = False
        while state.stack:
            entry = state.stack.pop()
            spec = state.event_cards[entry["card"]]
            state.event_deck.discard(entry["card"])
            if cancelled:
                say(out, "event_cancelled", card=entry["card"], card_name=core.words(spec, "name"))
                cancelled = False
                continue
            p, effect, amount = entry["player"], spec["effect"], spec.get("amount", 1)
            say(out, "event_resolves", card=entry["card"], card_name=core.words(spec, "name"), player=p)
            target = state.model(entry["target"]) if entry["target"] else None
            if target is not None and target.removed:
                continue
            if effect == "cancel":
                cancelled = True
            elif effect == "vp":
                core.score(state, p, amount, "event", out, card_name=core.words(spec, "name"))
            elif effect == "token":
                state.tokens[p] += amount
                say(out, "token_gain", player=p, amount=amount)
            elif effect == "recover" and target is not None:
                target.stunned = False
                say(out, "recovered", model=target.id, name=target.name)
            elif effect == "boost" and target is not None:
                target.boost += amount
            elif effect == "hex" and target is not None:
                target.hex += amount
        state.stack_next = ""

    def _final_swap(self, state: KlashState, out: list, player: str, indices: list[int]) -> None:
        require(state.phase == "match" and state.stage == "final" and state.final_order
                and state.final_order[0] == player, "not_your_swap")
        hand = state.hands[player]
        require(all(0 <= i < len(hand) for i in indices) and len(set(indices)) == len(indices), "pick_from_hand")
        gone = [hand[i] for i in sorted(indices)]
        for i in sorted(indices, reverse=True):
            hand.pop(i)
        state.event_deck.discard(*gone)
        say(out, "event_swap", player=player, count=len(gone))
        for _ in gone:
            self._draw_event(state, out, player)
        state.final_order.pop(0)

    # ================================================================ choices (free attacks)
    def _choice_options(self, state: KlashState, c: dict) -> list[Option]:
        m = state.model(c["model"])
        if m.removed or m.stunned and c["kind"] != "second":
            return []
        if c["kind"] == "counter":
            t = state.model(c["target"])
            return ([Option.of(f"t:{t.id}", "counter_target", target_name=t.name)]
                    if not t.removed and core.contact(state, m, t) else [])
        if c["kind"] in ("fury", "second"):
            if m.stunned:
                return []
            return [Option.of(f"t:{t.id}", "attack_target", target_name=t.name) for t in core.enemies_in_contact(state, m)]
        if c["kind"] == "rapid":
            return [Option.of(f"t:{t.id}", "shoot_target", target_name=t.name) for t in self._volley_targets(state, m)]
        return []

    def _answer_choice(self, state: KlashState, out: list, option: str) -> None:
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

    # ================================================================ targets for button play
    def _move_destinations(self, state: KlashState, m: Model, allowance: float, disengage: bool,
                           first_only: bool = False) -> list[tuple[Option, list]]:
        """[(option, [points])]: steps toward useful places (around the Altar if needed)."""
        me = core.disc(state, m)
        models = core.discs(state)
        exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        goals: list[tuple[str, str, dict, tuple, float]] = []
        if disengage and exempt:
            cx = sum(state.model(e).x for e in exempt) / len(exempt)
            cy = sum(state.model(e).y for e in exempt) / len(exempt)
            dx, dy = m.x - cx, m.y - cy
            n = math.hypot(dx, dy) or 1.0
            goals.append(("away", "away_from_melee", {}, (m.x + dx / n * allowance, m.y + dy / n * allowance), 0.0))
        for o in state.on_field():
            if o.owner == m.owner:
                continue  # friends: use the Move command with coordinates
            stop = me.r + core.radius(state, o) + arena.MIN_ENEMY_GAP + 0.02
            goals.append((f"to:{o.id}", "toward_enemy", {"target_name": o.name}, (o.x, o.y), stop))
        goals.append(("to:alt", "toward_altar", {}, arena.CENTRE, arena.ALTAR_RADIUS + me.r + 0.02))
        own = state.gates[m.owner]
        goals.append(("to:g0" if own == 0 else "to:g1", "toward_own_gate", {}, arena.GATES[own],
                      arena.GATE_RADIUS + me.r + 1.02))
        goals.append(("to:g1" if own == 0 else "to:g0", "toward_enemy_gate", {}, arena.GATES[1 - own],
                      arena.GATE_RADIUS + me.r + 1.02))
        result = []
        for oid, kind, args, goal, stop in goals[:24]:
            route = self._route(me, goal, models, allowance, stop, exempt)
            if route:
                p = route[-1]
                via = term("via_altar" if len(route) > 1 else "via_straight")
                result.append((Option.of(oid, kind, via=via, x=round(p[0]), y=round(p[1]), **args), route))
                if first_only:
                    break
        return result

    def _can_move(self, state: KlashState, m: Model, kind: str) -> bool:
        """An action that moves is offered only when it has somewhere to go (no dead-end prompt)."""
        allowance = self._disengage_allowance(state, m) if kind == "dis" else self._move_allowance(state, m, kind == "mv2")
        return bool(self._move_destinations(state, m, allowance, kind == "dis", first_only=True))

    @staticmethod
    def _route(me, goal, models, allowance, stop, exempt):
        """Waypoints toward a goal, around whatever stands in the way (toward the Altar itself the
        route stops at its edge: the goal's own disc is not in the way)."""
        return arena.step_route(me, goal, models, allowance, stop_gap=stop, exempt=exempt)

    def _targets_for(self, state: KlashState, kind: str) -> list[Option]:
        act = state.acts[-1]
        m = state.model(act.model)
        base = kind.rstrip("2") if not kind.startswith("mg") else kind
        if kind in ("mv", "mv2", "dis"):
            allowance = self._disengage_allowance(state, m) if kind == "dis" else self._move_allowance(state, m, kind == "mv2")
            return [o for o, _ in self._move_destinations(state, m, allowance, kind == "dis")]
        if base == "as":
            return [Option.of(f"t:{t.id}", "assault_target", target_name=t.name) for t in self._assault_targets(state, m)]
        if base == "vo":
            return [Option.of(f"t:{t.id}", "volley_target", target_name=t.name) for t in self._volley_targets(state, m)]
        if base == "ch":
            opts = [Option.of(f"t:{t.id}", "charge_target", target_name=t.name) for t in self._charge_targets(state, m)]
            if has(state, m, "spellcaster") and "destructive_touch" in core.stat(state, m, "spells") and m.id not in state.cast:
                opts += [Option.of(f"x:{t.id}", "charge_touch_target", target_name=t.name)
                         for t in self._charge_targets(state, m)]
            return opts[:24]
        if kind.startswith("mg"):
            spell = core.CODE_SPELLS[kind.split(":")[1]]
            targets = self._spell_targets(state, m, spell)
            if spell == "armour":
                return [Option.of("self", "cast_on_self")]
            if spell == "teleport":
                return [Option.of(f"p:{i}", "teleport_to", x=round(p[0]), y=round(p[1])) for i, p in enumerate(targets)][:24]
            return [Option.of(f"t:{t.id}", "spell_target", target_name=t.name) for t in targets][:24]
        return []

    # ================================================================ pending
    def pending(self, state: KlashState) -> list[Prompt]:
        if state.over:
            return []
        s = state.seq
        if state.phase == "draft":
            p = self.picker(state)
            n = "pick_one" if state.round_picks == 0 else ("pick_first_of_two" if state.round_picks == 1
                                                           else "pick_second_of_two")
            return [Prompt.ask("pick", {"round": state.draft_round, "take": term(n)}, p,
                               (Option.of(f"c{i}", "card", card_name=state.cards[c]["name"])
                                for i, c in enumerate(state.revealed)), key=(s,))]
        if state.phase == "team":
            secret = bool(state.house_rules.get("secret_team"))
            return [Prompt.ask("team", {"most": TEAM_MAX, "picks": len(state.picks[p])}, p,
                               (Option.of(f"p{i}", "team_card", card_name=state.cards[c]["name"], vp=state.cards[c]["vp"])
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
                return [Prompt.ask("spot", {"name": m.name}, p, opts + [Option.of("back")], key=(s,))]
            return [Prompt.ask("deploy", {}, p, (Option.of(m.id, "model", name=m.name) for m in state.models
                                                 if m.owner == p and not m.placed), key=(s,))]
        prompts: list[Prompt] = []
        if state.window is not None:
            w = state.window
            m = state.model(w["model"])
            what = dict(w["what"])
            return [Prompt.ask(f"reroll_{what.pop('roll')}", {"name": m.name, **what}, w["player"],
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
            return [Prompt.ask(f"free_{c['kind']}", {"name": m.name}, c["player"],
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
                prompts.append(Prompt.ask("target", {"name": m.name}, act.controller, opts,
                                          key=(*step, state.sel["kind"], *(o.id for o in opts))))
            else:
                opts = self._act_kinds(state, act)
                prompts.append(Prompt.ask("act", {"name": m.name, "left": self._remaining(act)}, act.controller,
                                          opts, key=(*step, *(o.id for o in opts))))
        elif state.ext_offer:
            p = state.turn_player
            opts = [Option.of(m.id, "extra_model", name=m.name) for m in self._ext_candidates(state)]
            prompts.append(Prompt.ask("extra_activation", {}, p, opts + [Option.of("no", "end_turn")], key=(s,)))
        else:
            p = state.turn_player
            ready = self._ready(state, p)
            prompts.append(Prompt.ask("activate", {}, p, (Option.of(m.id, "model", name=m.name) for m in ready),
                                      key=(state.turn_no, *(m.id for m in ready))))
        prompts += self._hand_prompts(state)
        # The player who is not acting may arm a Training Token re-roll (optional, public).
        other = state.other(state.turn_player) if state.turn_player else ""
        acting = state.acts[-1].controller if state.acts else state.turn_player
        if other and other != acting and not state.house_rules.get("reroll_window", True):
            eligible = [m for m in state.on_field(other) if self._token_ok(state, m, other) and not m.reroll_armed]
            if eligible:
                prompts.append(Prompt.ask("arm_reroll", {}, other,
                                          (Option.of(f"r:{m.id}", "arm_reroll_for", name=m.name) for m in eligible[:25]),
                                          key=(state.seats.index(other), state.tokens[other], state.turn_no)))
        return prompts

    def _hand_prompts(self, state: KlashState) -> list[Prompt]:
        # Optional prompts stay up while a target is being chosen, so their buttons (DMs for hands) are
        # not sent again after every step. Your own card played then cancels your half-made choice; an
        # opponent's card leaves it waiting for after the Event Cards resolve.
        prompts = []
        for i, p in enumerate(state.seats):
            playable = [self._playable(state, p, c, ignore_sel=True) for c in state.hands[p]]
            opts = [Option.of(f"h{j}", "event_card", card_name=core.words(state.event_cards[c], "name"))
                    for j, c in enumerate(state.hands[p]) if playable[j]]
            if opts:
                # One decision while the hand and what is playable in it stay the same: the id names
                # them (it rides only in this player's DM and the GM's log), not the deck count, which
                # the other player's draws change, so the same question is not DMed again.
                prompts.append(Prompt.ask("hand", {}, p, opts, private=True,
                                          key=(i, *(c + "+" * ok for c, ok in zip(state.hands[p], playable)))))
        return prompts

    def _esel_prompt(self, state: KlashState) -> Prompt:
        p = state.esel["player"]
        card = state.esel["card"]
        targets = self._card_targets(state, p, card) or []
        return Prompt.ask("event_target", {"card_name": core.words(state.event_cards[card], "name")}, p,
                          [Option.of(f"t:{t.id}", "model", name=t.name) for t in targets] + [Option.of("back")],
                          key=(state.seq,), private=True)

    def _deploy_spots(self, state: KlashState, m: Model) -> list[tuple]:
        return arena.deploy_spots(state.gates[m.owner], core.radius(state, m), core.stat(state, m, "speed"),
                                  core.discs(state), state.seats.index(m.owner), m.id)

    # ================================================================ step
    def step(self, state: KlashState, action: Any, actor: Actor) -> list[Event]:
        if state.window is not None:
            return self._answer_window(state, action, actor)
        return self._run(state, action, actor, [], [], 0)

    def _run(self, state: KlashState, action: Any, actor: Actor, decisions: list, rolled: list,
             shown: int) -> list[Event]:
        """Apply an action. A failed roll that a Training Token could re-roll stops it (``core.RerollWindow``):
        the state goes back to before the action and a window asks the player; the answer replays the
        action with the same dice up to that roll (``decisions``/``rolled``), so nothing is applied twice."""
        out: list[Event] = []
        windowed = state.phase == "match" and state.house_rules.get("reroll_window", True)
        snap = copy.deepcopy(state) if windowed else None
        if windowed:
            state.replay = {"decisions": list(decisions), "asked": 0, "rolled": rolled, "at": 0, "log": []}
        try:
            if isinstance(action, Choose):
                self._choose(state, action, actor, out)
            else:
                self._rich(state, action, actor, out)
            state.seq += 1
            self._settle(state, out)
        except core.RerollWindow as w:
            log = state.replay["log"]
            queue = list(state.dice_queue)
            state.__dict__.clear()
            state.__dict__.update(snap.__dict__)
            state.dice_queue = queue   # forced dice already used stay used (they are in ``rolled``)
            m = state.model(w.model)
            state.window = {"action": self.dump_action(action), "actor": [actor.id, actor.gm],
                            "decisions": list(decisions), "rolled": log, "shown": len(out),
                            "player": w.player, "model": m.id, "what": w.what}
            say(out, "reroll_offer", player=w.player, model=m.id, name=m.name, roll=term(f"roll_{w.what['roll']}"),
                tokens=state.tokens.get(w.player, 0))
            return out[shown:]
        finally:
            state.replay = None
        return out[shown:]

    def _answer_window(self, state: KlashState, action: Any, actor: Actor) -> list[Event]:
        w = state.window
        if not isinstance(action, Choose):
            raise IllegalAction("answer_reroll_first")
        prompt = self.check_choice(state, action, actor)
        yes = action.options[0] == "yes"
        del prompt
        state.window = None
        return self._run(state, self.load_action(w["action"]), Actor(w["actor"][0], bool(w["actor"][1])),
                         w["decisions"] + [yes], w["rolled"], w["shown"])

    def _acting_player(self, state: KlashState, actor: Actor) -> str:
        """The seat an actor speaks for in a rich action (a GM speaks for whoever must act)."""
        if actor.id in state.seats:
            return actor.id
        if actor.gm:
            if state.phase == "draft":
                return self.picker(state)
            if state.phase == "deploy":
                return state.deploy_turn
            if state.stack:
                return state.stack_next
            if state.acts:
                return state.acts[-1].controller
            return state.turn_player or state.seats[0]
        raise NotYourTurn("not_playing")

    def _choose(self, state: KlashState, choice: Choose, actor: Actor, out: list) -> None:
        prompt = self.check_choice(state, choice, actor)
        p = prompt.player
        tag = prompt.kind
        opt = choice.options[0] if choice.options else ""
        if tag == "pick":
            self._pick(state, out, p, int(opt[1:]))
        elif tag == "team":
            self._select_team(state, out, p, [int(o[1:]) for o in choice.options])
        elif tag == "deploy":
            state.sel = {"kind": "deploy", "model": opt}
        elif tag == "spot":
            if opt == "back":
                state.sel = None
            else:
                m = state.model(state.sel["model"])
                x, y = self._deploy_spots(state, m)[int(opt[1:])]
                self._deploy(state, out, p, m.id, x, y)
        elif tag == "initiative":
            first = p if opt == "me" else state.other(p)
            say(out, "first", player=p, first_player=first, first=first)
            state.stage = "action"
            self._begin_turn(state, out, first)
        elif tag == "swap":
            self._final_swap(state, out, p, [int(o[1:]) for o in choice.options if o != "keep"])
        elif tag == "activate":
            self._activate(state, out, p, opt)
        elif tag == "extra_activation":
            if opt == "no":
                state.ext_offer = False
            else:
                self._use_token(state, out, p, opt, "activation")
        elif tag.startswith("free_"):
            self._answer_choice(state, out, opt)
        elif tag == "act":
            self._choose_kind(state, out, p, opt)
        elif tag == "target":
            self._choose_target(state, out, p, opt)
        elif tag == "arm_reroll":
            self._use_token(state, out, p, opt[2:], "reroll")
        elif tag in ("hand", "respond"):
            if tag == "hand" and state.acts and state.acts[-1].controller == p:
                state.sel = None   # your own card played while choosing a target cancels that choice
            if opt == "pass":
                self._resolve_stack(state, out)
                return
            card = state.hands[p][int(opt[1:])]
            if self._card_targets(state, p, card) is None:
                self._play_event(state, out, p, card, "")
            else:
                state.esel = {"player": p, "card": card}
        elif tag == "event_target":
            if opt == "back":
                state.esel = None
            else:
                self._play_event(state, out, p, state.esel["card"], opt[2:])
        else:  # pragma: no cover
            raise IllegalAction("unknown_prompt")

    def _choose_kind(self, state: KlashState, out: list, p: str, opt: str) -> None:
        act = state.acts[-1]
        mid = act.model
        if opt == "end":
            self._end_activation(state, out, p, mid)
        elif opt == "rec":
            self._do_recover(state, out, p, mid, False)
        elif opt == "regen":
            self._do_recover(state, out, p, mid, True)
        elif opt == "tka":
            self._use_token(state, out, p, mid, "action")
        elif opt == "tkr":
            self._use_token(state, out, p, mid, "reroll")
        else:
            state.sel = {"kind": opt}

    def _choose_target(self, state: KlashState, out: list, p: str, opt: str) -> None:
        kind = state.sel["kind"]
        state.sel = None
        if opt == "back":
            return
        act = state.acts[-1]
        mid = act.model
        m = state.model(mid)
        double = kind.endswith("2") or kind.startswith("mg2")
        if kind in ("mv", "mv2", "dis"):
            allowance = self._disengage_allowance(state, m) if kind == "dis" else self._move_allowance(state, m, double)
            dest = {o.id: pt for o, pt in self._move_destinations(state, m, allowance, kind == "dis")}
            self._do_move(state, out, p, mid, list(dest[opt]), double, disengage=kind == "dis")
        elif kind in ("as", "as2"):
            self._do_assault(state, out, p, mid, opt[2:], double)
        elif kind in ("vo", "vo2"):
            self._do_volley(state, out, p, mid, opt[2:], double)
        elif kind in ("ch", "ch2"):
            self._do_charge(state, out, p, mid, opt[2:], double, opt.startswith("x:"))
        elif kind.startswith("mg"):
            spell = core.CODE_SPELLS[kind.split(":")[1]]
            point = None
            tid = ""
            if opt.startswith("p:"):
                point = self._teleport_points(state, m)[int(opt[2:])]
            elif opt.startswith("t:"):
                tid = opt[2:]
            self._do_magic(state, out, p, mid, spell, tid, double, point)

    def _do_recover(self, state: KlashState, out: list, p: str, mid: str, free: bool) -> None:
        act = self._current(state, p, mid)
        m = state.model(mid)
        require(m.stunned, "not_stunned", name=m.name)
        if free:
            require(has(state, m, "regeneration") and not act.regen_used, "cannot_regenerate", name=m.name)
            act.regen_used = True
            m.stunned = False
            say(out, "regenerated", model=m.id, name=m.name)
            return
        if not self._spend(state, out, act, m, 1, "recover"):
            return
        self._recover(state, out, m)

    def _end_activation(self, state: KlashState, out: list, p: str, mid: str) -> None:
        act = self._current(state, p, mid)
        m = state.model(mid)
        require(m.stunned or not self._madman_bound(state, act, m), "madman_must_attack", name=m.name)
        act.ended = True

    def _rich(self, state: KlashState, action: Any, actor: Actor, out: list) -> None:
        p = self._acting_player(state, actor)
        state.sel = None
        if isinstance(action, OPENS_ACTIVATION) and self._may_open(state, p, action.model):
            # A typed action for a Ready model when none is active yet activates it first (one step).
            self._activate(state, out, p, action.model)
            if state.acts and state.acts[-1].ended:
                return   # a failed Instinct test replaced the activation
        if isinstance(action, Pick):
            self._pick(state, out, p, action.index)
        elif isinstance(action, SelectTeam):
            self._select_team(state, out, p, list(action.indices))
        elif isinstance(action, Deploy):
            self._deploy(state, out, p, action.model, action.x, action.y)
        elif isinstance(action, Activate):
            self._activate(state, out, p, action.model)
        elif isinstance(action, Move):
            via = list(action.via)
            require(len(via) % 2 == 0, "waypoints_pairs")
            points = [(via[i], via[i + 1]) for i in range(0, len(via), 2)] + [(action.x, action.y)]
            self._do_move(state, out, p, action.model, points, action.double)
        elif isinstance(action, Disengage):
            self._do_move(state, out, p, action.model, [(action.x, action.y)], False, disengage=True)
        elif isinstance(action, Assault):
            self._do_assault(state, out, p, action.model, action.target, action.double)
        elif isinstance(action, Volley):
            self._do_volley(state, out, p, action.model, action.target, action.double)
        elif isinstance(action, Charge):
            self._do_charge(state, out, p, action.model, action.target, action.double, action.touch)
        elif isinstance(action, Magic):
            require(action.spell in core.SPELL_CODES, "unknown_spell", spell=action.spell)
            point = (action.x, action.y) if action.spell == "teleport" else None
            self._do_magic(state, out, p, action.model, action.spell, action.target, action.double, point)
        elif isinstance(action, Recover):
            self._do_recover(state, out, p, action.model, action.free)
        elif isinstance(action, UseToken):
            self._use_token(state, out, p, action.model, action.effect)
        elif isinstance(action, PlayEvent):
            self._play_event(state, out, p, action.card, action.target)
        elif isinstance(action, PassEvent):
            require(state.stack and p == state.stack_next, "nothing_to_answer")
            self._resolve_stack(state, out)
        elif isinstance(action, EndActivation):
            self._end_activation(state, out, p, action.model)
        else:
            raise IllegalAction("unknown_klash_action")

    # ================================================================ helpers for typed commands (the cog)
    # Read-only questions a slash command asks to offer autocompletion and to turn "toward the Altar"
    # into coordinates. They never change the state; the action itself is still checked by ``apply``.
    def deploy_spots(self, state: KlashState, mid: str) -> list[tuple]:
        """Legal entry points for one of the deploying player's models (nearest rows first)."""
        return self._deploy_spots(state, state.model(mid))

    def command_models(self, state: KlashState, player: str, scope: str) -> list[Model]:
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

    def command_targets(self, state: KlashState, mid: str, kind: str) -> list[Model]:
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

    def spells(self, state: KlashState, mid: str) -> list[str]:
        """The spells a model knows (empty for non-Spellcasters)."""
        m = state.model(mid)
        return list(core.stat(state, m, "spells") or []) if has(state, m, "spellcaster") else []

    def teleport_points(self, state: KlashState, mid: str) -> list[tuple]:
        return self._teleport_points(state, state.model(mid))

    def event_targets(self, state: KlashState, player: str, card: str) -> list[Model] | None:
        """Targets of an Event Card in ``player``'s hand: None if it needs none."""
        return self._card_targets(state, player, card)

    def route_toward(self, state: KlashState, mid: str, goal: str, distance: float | None = None,
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
        require(bool(route), "no_closer", name=m.name)
        return [tuple(p) for p in route]

    # ================================================================ views
    def view_for(self, state: KlashState, viewer: str) -> dict:
        from .views import view
        return view(self, state, viewer)
