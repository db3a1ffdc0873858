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
from rules.common.engine import PUBLIC, Actor, Choose, Engine, Event, Option, Outcome, Prompt
from rules.common.errors import IllegalAction, NotYourTurn
from rules.common.rng import Rng

from . import arena, core, dice
from .actions import (ACTIONS, Activate, Assault, Charge, Deploy, Disengage, EndActivation, Magic, Move,
                      PassEvent, Pick, PlayEvent, Recover, SelectTeam, UseToken, Volley)
from .core import has, require, say, who
from .pack import INSTINCTS, load_sample_pack
from .state import HOUSE_RULES, Activation, KlashState, Model

ROUNDS = 8
REVEAL = 5
HOURGLASSES = 8
TEAM_MAX = 8
START_TOKENS = 5


def _lbl(text: str) -> str:
    return text if len(text) <= 80 else text[:79] + "…"


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
            raise IllegalAction("Klash! is played by exactly two different players.")
        pack = options.get("pack") or load_sample_pack()
        rules = dict(HOUSE_RULES)
        for key, value in (options.get("house_rules") or {}).items():
            if key not in HOUSE_RULES:
                raise IllegalAction(f"Unknown house rule '{key}'.")
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
                    raise IllegalAction(f"Unknown card '{cid}'.")
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
        say(out, "draft_round", f"Auction round {state.draft_round}: "
            + ", ".join(state.cards[c]["name"] for c in state.revealed) + ".",
            round=state.draft_round, revealed=list(state.revealed))

    def picker(self, state: KlashState) -> str:
        """Odd rounds: A takes 1, then B takes 2. Even rounds: B takes 1, then A takes 2 (L19)."""
        single = state.player_a if state.draft_round % 2 == 1 else state.player_b
        return single if state.round_picks == 0 else state.other(single)

    def _pick(self, state: KlashState, out: list, player: str, index: int) -> None:
        require(state.phase == "draft", "The auction is over.")
        require(player == self.picker(state), "It is not your pick.")
        require(0 <= index < len(state.revealed), "No card at that position.")
        card = state.revealed.pop(index)
        state.picks[player].append(card)
        state.draft_log.append([state.draft_round, player, card])
        state.round_picks += 1
        say(out, "pick", f"{who(player)} takes {state.cards[card]['name']}.", player=player, card=card,
            round=state.draft_round)
        if state.round_picks == 3:
            state.discarded.extend(state.revealed)
            say(out, "draft_discard", "Discarded: " + ", ".join(state.cards[c]["name"] for c in state.revealed) + ".",
                cards=list(state.revealed))
            state.revealed = []
            if state.draft_round == ROUNDS:
                state.phase = "team"
                say(out, "phase", "The auction is over: each player chooses a team of up to 8.", phase="team")
            else:
                self._start_round(state, out)

    # ================================================================ team
    def team_problem(self, state: KlashState, player: str, indices: list[int]) -> str | None:
        picks = state.picks[player]
        if not 1 <= len(indices) <= TEAM_MAX:
            return f"A team has between 1 and {TEAM_MAX} models."
        if len(set(indices)) != len(indices) or any(not 0 <= i < len(picks) for i in indices):
            return "Choose distinct cards from your own picks."
        team = [picks[i] for i in indices]
        for cid in team:
            card = state.cards[cid]
            if card["type"] == "campione" and team.count(cid) > 1:
                return f"{card['name']} is unique."
            for req in card.get("requirements") or []:
                if req["kind"] == "min_type":
                    n = sum(1 for t in team if state.cards[t]["type"] == req["type"])
                    if n < req.get("count", 1):
                        return f"{card['name']} requires at least {req.get('count', 1)} {req['type']} in the team."
                elif req["kind"] == "with_card":
                    if req["card"] not in team:
                        return f"{card['name']} requires {state.cards[req['card']]['name']} in the team."
                elif req["kind"] == "max_models":
                    if len(team) > req.get("count", TEAM_MAX):
                        return f"{card['name']} fights only in teams of at most {req.get('count')} models."
        return None

    def _select_team(self, state: KlashState, out: list, player: str, indices: list[int]) -> None:
        require(state.phase == "team", "Teams are not being chosen now.")
        require(player in state.seats and player not in state.team_choice, "You have already chosen your team.")
        problem = self.team_problem(state, player, indices)
        require(problem is None, problem or "")
        state.team_choice[player] = sorted(indices)
        vp = sum(state.cards[state.picks[player][i]]["vp"] for i in indices)
        secret = state.house_rules.get("secret_team")
        say(out, "team_chosen", f"{who(player)} has chosen a team of {len(indices)} ({vp} VP).",
            audience=player if secret else PUBLIC, player=player, vp=vp, indices=sorted(indices))
        if secret:
            say(out, "team_locked", f"{who(player)} has locked in a team.", player=player)
        if len(state.team_choice) == 2:
            n = 0
            for p in (state.player_a, state.player_b):
                for i in state.team_choice[p]:
                    n += 1
                    cid = state.picks[p][i]
                    copies = sum(1 for m in state.models if m.card == cid and m.owner == p)
                    name = state.cards[cid]["name"].replace("SAMPLE ", "")
                    if state.cards[cid]["type"] != "campione":
                        name = f"{name} {copies + 1}"
                    state.models.append(Model(id=f"m{n}", card=cid, owner=p, name=name))
                state.team_vp[p] = sum(state.cards[m.card]["vp"] for m in state.models if m.owner == p)
            a, b = state.player_a, state.player_b
            say(out, "teams", f"Teams: {who(a)} {state.team_vp[a]} VP, {who(b)} {state.team_vp[b]} VP.",
                team_vp=dict(state.team_vp),
                teams={p: [m.card for m in state.models if m.owner == p] for p in state.seats})
            state.gates = {state.player_a: 0, state.player_b: 1}
            state.phase = "deploy"
            state.deploy_turn = state.player_a

    # ================================================================ deployment
    def _deploy(self, state: KlashState, out: list, player: str, mid: str, x: float, y: float) -> None:
        require(state.phase == "deploy", "Deployment is over.")
        require(player == state.deploy_turn, "It is not your turn to deploy.")
        m = state.model(mid)
        require(m.owner == player and not m.placed, "Deploy one of your own models not yet in the arena.")
        d = arena.Disc(float(x), float(y), core.radius(state, m), m.id, state.seats.index(player))
        problem = arena.deploy_check(d, state.gates[player], core.stat(state, m, "speed"), core.discs(state))
        require(problem is None, problem or "")
        m.x, m.y, m.placed = float(x), float(y), True
        state.sel = None
        say(out, "deployed", f"{m.name} enters the arena at ({x:.1f}, {y:.1f}).", model=m.id, x=m.x, y=m.y)
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
            say(out, "event_reshuffle", "The Event discards are shuffled into a new deck.")
        if not state.event_deck.cards:
            say(out, "event_empty", "The Event deck is empty.")
            return
        card = state.event_deck.draw_one()
        state.hands[player].append(card)
        say(out, "event_draw", f"{who(player)} draws an Event Card.", player=player)
        say(out, "event_card", f"You draw {state.event_cards[card]['name']}: {state.event_cards[card]['text']}",
            audience=player, card=card)

    def _start_hourglass(self, state: KlashState, out: list) -> None:
        state.hourglass += 1
        state.cast = []
        state.melee_against = []
        say(out, "hourglass", f"Hourglass {state.hourglass} begins.", hourglass=state.hourglass)
        for p in (state.player_a, state.player_b):
            self._draw_event(state, out, p)
        init = {p: sum(core.stat(state, m, "initiative") for m in state.on_field(p)) for p in state.seats}
        state.initiative = init
        a, b = state.seats
        if init[a] != init[b]:
            winner = a if init[a] < init[b] else b
        else:
            winner = self._roll_off(state, out, "Initiative tie",
                                    high=state.house_rules.get("initiative_tie_high_wins", True))
        state.init_winner = winner
        state.stage = "initiative"
        say(out, "initiative", f"Team Initiative {who(a)} {init[a]}, {who(b)} {init[b]}: {who(winner)} chooses who activates first.",
            initiative=dict(init), winner=winner)

    def _roll_off(self, state: KlashState, out: list, why: str, high: bool = True) -> str:
        """d12 each until the dice differ (EX-20, EX-21)."""
        a, b = state.seats
        while True:
            ra, rb = core.die(state, 12), core.die(state, 12)
            say(out, "roll_off", f"{why}: {who(a)} rolls {ra}, {who(b)} rolls {rb}.", rolls={a: ra, b: rb})
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
                core.score(state, p, 1, "no enemy melee attack this Hourglass", out)
        state.stage = "final"
        state.turn_player = ""
        state.final_order = [state.init_winner, state.other(state.init_winner)]
        say(out, "final_phase", f"Final Phase of Hourglass {state.hourglass}.", hourglass=state.hourglass)

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
            core.score(state, low, abs(state.team_vp[a] - state.team_vp[b]), "the Crowd's favour (underdog)", out)
        if state.vp[a] != state.vp[b]:
            winner = a if state.vp[a] > state.vp[b] else b
        else:
            winner = self._roll_off(state, out, "VP tie", high=True)
        self._finish(state, out, winner, result)

    def _finish(self, state: KlashState, out: list, winner: str, result: str) -> None:
        state.winner, state.result, state.over, state.phase = winner, result, True, "over"
        state.acts, state.choices, state.sel, state.esel, state.stack = [], [], None, None, []
        state.stage = ""
        say(out, "game_over", f"{who(winner)} wins ({result.replace('_', ' ')}). VP: "
            + ", ".join(f"{who(p)} {state.vp[p]}" for p in state.seats) + ".", winner=winner, result=result,
            vp=dict(state.vp))

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
                    say(out, "moved", f"{m.name} disengages to ({m.x:.1f}, {m.y:.1f}).", model=m.id, x=m.x, y=m.y,
                        disengage=True)
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
                kinds = [o for o, _ in self._act_kinds(state, act)]
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
            say(out, "activation_end", f"{m.name} returns to its owner.", model=m.id)
            return
        say(out, "activation_end", f"{m.name} ends its activation.", model=m.id)
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
        require(state.phase == "match" and state.stage == "action", "Models are activated in the Action Phase.")
        require(not state.acts and not state.choices and not state.stack, "Another activation is under way.")
        require(player == state.turn_player, "It is not your turn.")
        require(state.turn_activations == 0, "You have already activated a model this turn.")
        m = state.model(mid)
        require(m.owner == player and m.placed and not m.removed, "Activate one of your own models in the arena.")
        require(not m.activated, f"{m.name} has already been activated this Hourglass.")
        self._open_activation(state, out, m, player)

    def _open_activation(self, state: KlashState, out: list, m: Model, player: str) -> None:
        m.activated = True
        m.armour = False  # Armour lasts until the start of the caster's next activation
        act = Activation(model=m.id, controller=player, free_assault=has(state, m, "two_heads"))
        state.acts.append(act)
        state.sel = None
        say(out, "activation", f"{who(player)} activates {m.name}.", model=m.id, player=player)
        if core.is_beast(state, m):
            tamers = [t for t in state.on_field(m.owner) if t.id != m.id and has(state, t, "tamer")
                      and not t.stunned and core.gap(state, t, m) <= 10 + 1e-9]
            value = max([core.stat(state, m, "discipline")] + [core.stat(state, t, "discipline") for t in tamers])
            ok, _ = core.discipline_test(state, out, m, "Instinct", value=value)
            if not ok and tamers:
                say(out, "tamer", f"{tamers[0].name} the Tamer lets {m.name} re-roll its Instinct test.", model=m.id)
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
            say(out, "instinct", f"{m.name} fails its Instinct test and does nothing.", model=m.id)
            return
        say(out, "instinct", f"{m.name} follows its Instinct ({quality.replace('_', ' ')}).", model=m.id,
            quality=quality)
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
            say(out, "moved", f"{m.name} moves to ({p[0]:.1f}, {p[1]:.1f}).", model=m.id, x=m.x, y=m.y)

    def _recover(self, state: KlashState, out: list, m: Model) -> bool:
        if has(state, m, "madman") or has(state, m, "multiple_heads"):
            ok = True
            say(out, "test", f"{m.name} recovers without a test.", model=m.id)
        else:
            ok, _ = core.discipline_test(state, out, m, "Recover")
        if ok:
            m.stunned = False
            say(out, "recovered", f"{m.name} is no longer Stunned.", model=m.id)
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

    def _charge_problem(self, state: KlashState, m: Model, target: Model) -> str | None:
        if target.removed or target.id == m.id:
            return "Choose a model in the arena to charge."
        if core.engaged(state, m):
            return f"{m.name} is engaged in melee and cannot Charge."
        if core.contact(state, m, target):
            return f"{m.name} is already in contact with {target.name}."
        if core.gap(state, m, target) > core.stat(state, m, "speed") + 1e-6:
            return f"{target.name} is beyond {m.name}'s Charge reach ({core.stat(state, m, 'speed')} cm)."
        visible, _ = arena.line_of_sight(core.disc(state, m), core.disc(state, target), core.discs(state))
        if not visible:
            return f"{target.name} is not in line of sight."
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

    def _act_kinds(self, state: KlashState, act: Activation) -> list[tuple[str, str]]:
        """The first-step options of the activation prompt: (id, label)."""
        m = state.model(act.model)
        rem = self._remaining(act)
        opts: list[tuple[str, str]] = []
        if act.ended or m.removed:
            return [("end", "End activation")]
        can_double = rem >= 2 and not act.increased
        if m.stunned:
            if rem >= 1:
                opts.append(("rec", "Recover (Discipline test)"))
        else:
            madman = self._madman_bound(state, act, m)
            assault = self._assault_targets(state, m)
            if assault and (rem >= 1 or act.free_assault):
                opts.append(("as", "Assault"))
                if can_double:
                    opts.append(("as2", "Assault with both actions (Increased)"))
            if rem >= 1 and self._charge_targets(state, m):
                opts.append(("ch", "Charge"))
                if can_double:
                    opts.append(("ch2", "Charge with both actions (Increased)"))
            if not madman:
                engaged = core.engaged(state, m)
                if rem >= 1 and not engaged and self._can_move(state, m, "mv"):
                    opts.append(("mv", f"Move (up to {self._move_allowance(state, m, False):.0f} cm)"))
                    if can_double:
                        opts.append(("mv2", f"Move with both actions (up to {self._move_allowance(state, m, True):.0f} cm)"))
                if engaged and rem >= self._disengage_cost(state, m) and self._can_move(state, m, "dis"):
                    opts.append(("dis", f"Disengage (up to {self._disengage_allowance(state, m):.0f} cm)"))
                if rem >= 1 and self._volley_targets(state, m):
                    opts.append(("vo", "Volley"))
                    if can_double:
                        opts.append(("vo2", "Volley with both actions (Increased)"))
                if rem >= 1 and has(state, m, "spellcaster") and m.id not in state.cast:
                    for spell in core.stat(state, m, "spells"):
                        if self._spell_targets(state, m, spell):
                            code = core.SPELL_CODES[spell]
                            name = spell.replace("_", " ").title()
                            opts.append((f"mg:{code}", f"Cast {name}"))
                            if can_double:
                                opts.append((f"mg2:{code}", f"Cast {name} with both actions (Increased)"))
        if m.stunned and has(state, m, "regeneration") and not act.regen_used:
            opts.append(("regen", "Regeneration: recover for free"))
        if (self._token_ok(state, m, act.controller) and not act.extra_action and not act.dominated
                and state.turn_player == act.controller):
            opts.append(("tka", "Training Token: extra action"))
        if (self._token_ok(state, m, act.controller) and not m.reroll_armed and not act.dominated
                and not state.house_rules.get("reroll_window", True)):
            opts.append(("tkr", "Training Token: arm a re-roll"))
        if not (not m.stunned and self._madman_bound(state, act, m)):
            opts.append(("end", "End activation"))
        return opts

    # ---------------------------------------------------------------- performing actions
    def _current(self, state: KlashState, player: str, mid: str) -> Activation:
        require(state.phase == "match" and state.acts and not state.choices and not state.stack,
                "No activation is waiting for an action.")
        act = state.acts[-1]
        if player != act.controller:
            raise NotYourTurn("It is not your activation.")
        require(act.model == mid, f"The active model is {state.model(act.model).name}.")
        return act

    def _spend(self, state: KlashState, out: list, act: Activation, m: Model, cost: int, kind: str) -> bool:
        """Pay for an action; Two Heads tests first. Returns False if the action is lost."""
        require(self._remaining(act) >= cost or (kind == "assault" and cost == 1 and act.free_assault),
                f"{m.name} has no action left for that.")
        if kind == "assault" and cost == 1 and act.free_assault:
            act.free_assault = False
        else:
            act.used += cost
        if cost == 2:
            act.increased = True
        if has(state, m, "two_heads"):
            ok, (a, b) = core.discipline_test(state, out, m, "Two Heads")
            if (a, b) in ((5, 5), (6, 6)):
                say(out, "two_heads", f"{m.name}'s heads quarrel: it attacks itself.", model=m.id)
                core.melee(state, out, m, m, kind="self", allow_follow=False)
                return False
            if not ok:
                say(out, "two_heads", f"{m.name} loses the action.", model=m.id)
                return False
        return True

    def _do_move(self, state: KlashState, out: list, player: str, mid: str, points: list[tuple], double: bool,
                 disengage: bool = False) -> None:
        act = self._current(state, player, mid)
        m = state.model(mid)
        require(not m.stunned, f"{m.name} is Stunned: it can only Recover.")
        if disengage:
            require(core.engaged(state, m), f"{m.name} is not engaged in melee.")
            cost = self._disengage_cost(state, m)
            allowance = self._disengage_allowance(state, m)
            exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        else:
            require(not core.engaged(state, m), f"{m.name} is engaged in melee: it must Disengage.")
            require(not self._madman_bound(state, act, m), f"{m.name} is a Madman and must Assault or Charge.")
            cost = 2 if double else 1
            require(not (double and act.increased), "Only one action per activation can use both actions.")
            allowance = self._move_allowance(state, m, double)
            exempt = tuple(e.id for e in core.enemies_in_contact(state, m))  # stunned enemies in contact
        path = [(m.x, m.y)] + [(float(x), float(y)) for x, y in points]
        problem = arena.check_path(core.disc(state, m), path, core.discs(state), allowance=allowance, exempt=exempt)
        require(problem is None, problem or "")
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
        verb = "disengages to" if disengage else "moves to"
        say(out, "moved", f"{m.name} {verb} ({m.x:.1f}, {m.y:.1f}).", model=m.id, x=m.x, y=m.y,
            disengage=disengage)

    def _do_assault(self, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, f"{m.name} is Stunned: it can only Recover.")
        require(t in self._assault_targets(state, m), f"{t.name} is not an enemy in base contact.")
        require(not (double and act.increased), "Only one action per activation can use both actions.")
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
        require(not m.stunned, f"{m.name} is Stunned: it can only Recover.")
        require(not self._madman_bound(state, act, m), f"{m.name} is a Madman and must Assault or Charge.")
        problem = core.volley_problem(state, m, t)
        require(problem is None, problem or "")
        require(not (double and act.increased), "Only one action per activation can use both actions.")
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
        require(not m.stunned, f"{m.name} is Stunned: it can only Recover.")
        require(not self._madman_bound(state, act, m), f"{m.name} is a Madman and must Assault or Charge.")
        target = m if spell == "armour" else (state.model(tid) if tid else None)
        problem = core.spell_problem(state, m, spell, target, point)
        require(problem is None, problem or "")
        require(not (double and act.increased), "Only one action per activation can use both actions.")
        if not self._spend(state, out, act, m, 2 if double else 1, "magic"):
            state.cast.append(m.id)
            return
        core.cast(state, out, m, spell, target, inc=1 if double else 0, point=point)

    def _do_charge(self, state: KlashState, out: list, player: str, mid: str, tid: str, double: bool,
                   touch: bool) -> None:
        act = self._current(state, player, mid)
        m, t = state.model(mid), state.model(tid)
        require(not m.stunned, f"{m.name} is Stunned: it can only Recover.")
        require(t.owner != self._side(state, m), "Charge an enemy model.")
        problem = self._charge_problem(state, m, t)
        require(problem is None, problem or "")
        require(not (double and act.increased), "Only one action per activation can use both actions.")
        if touch:
            require(has(state, m, "spellcaster") and "destructive_touch" in core.stat(state, m, "spells")
                    and m.id not in state.cast, f"{m.name} cannot end this Charge with Destructive Touch.")
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
                say(out, "charge_lost", f"{m.name} is too afraid to Charge {t.name}.", model=m.id)
                return
        was_engaged = core.engaged(state, t)
        end, travel = arena.charge_end(core.disc(state, m), core.disc(state, t))
        m.x, m.y = round(end[0], 3), round(end[1], 3)
        say(out, "charged", f"{m.name} charges {t.name} ({travel:.1f} cm).", model=m.id, target=t.id, x=m.x, y=m.y)
        if enemy and has(state, m, "frightening") and not core.fear_immune(state, t):
            ok, _ = core.discipline_test(state, out, t, "Fear")
            if not ok:
                t.stunned = True
                say(out, "stunned", f"{t.name} is Stunned by fear.", model=t.id)
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
        require(state.phase == "match", "Training Tokens are used during the match.")
        m = state.model(mid)
        require(m.owner == player and m.placed and not m.removed, "Use a token on one of your models in the arena.")
        require(not core.is_beast(state, m), "Beasts and Monsters cannot use Training Tokens.")
        require(state.tokens.get(player, 0) > 0, "You have no Training Tokens left.")
        require(m.token_mark != core.limit_key(state), f"{m.name} has already used a token this turn.")
        if effect == "action":
            act = self._current(state, player, mid)
            require(state.turn_player == player and not act.dominated, "Only during its activation in your turn.")
            require(not act.extra_action, "Only one extra action per turn.")
        elif effect == "activation":
            require(state.stage == "action" and state.turn_player == player and not state.acts and state.ext_offer
                    and not state.extra_activation_used, "An extra activation follows your activation in your turn.")
            require(not m.activated, f"{m.name} has already been activated this Hourglass.")
        elif effect == "reroll":
            require(not state.house_rules.get("reroll_window", True),
                    "A Training Token re-roll is offered right after a failed roll (house rule reroll_window).")
            require(not m.reroll_armed, f"{m.name} already has a re-roll ready.")
        else:
            raise IllegalAction("Token effects: action, activation, reroll.")
        state.tokens[player] -= 1
        m.token_mark = core.limit_key(state)
        if effect == "activation":
            state.extra_activation_used = True
            state.ext_offer = False
        if has(state, m, "veteran"):
            ok = True
            say(out, "test", f"{m.name} is a Veteran: no test needed for the token.", model=m.id)
        else:
            ok, _ = core.discipline_test(state, out, m, "Training Token", allow_armed=False)
        say(out, "token", f"{who(player)} spends a Training Token on {m.name} ({effect}): "
            f"{'it works' if ok else 'wasted'}.", player=player, model=m.id, effect=effect, ok=ok)
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

    def _play_event(self, state: KlashState, out: list, player: str, card: str, target: str) -> None:
        require(player in state.seats and card in state.hands[player], "That card is not in your hand.")
        require(state.esel is None or state.esel["player"] == player, "Another card is being played.")
        require(self._playable(state, player, card, ignore_sel=True), "That card cannot be played now.")
        targets = self._card_targets(state, player, card)
        if targets is not None:
            require(any(t.id == target for t in targets), "Choose a legal target for that card.")
        state.hands[player].remove(card)
        state.esel = None
        state.stack.append({"player": player, "card": card, "target": target or ""})
        state.stack_next = state.other(player)
        spec = state.event_cards[card]
        tname = f" on {state.model(target).name}" if target else ""
        say(out, "event_played", f"{who(player)} plays {spec['name']}{tname}.", player=player, card=card, target=target)

    def _resolve_stack(self, state: KlashState, out: list) -> None:
        """Last played resolves first (L58); Ill Omen cancels the card below it."""
        cancelled = False
        while state.stack:
            entry = state.stack.pop()
            spec = state.event_cards[entry["card"]]
            state.event_deck.discard(entry["card"])
            if cancelled:
                say(out, "event_cancelled", f"{spec['name']} is cancelled.", card=entry["card"])
                cancelled = False
                continue
            p, effect, amount = entry["player"], spec["effect"], spec.get("amount", 1)
            say(out, "event_resolves", f"{spec['name']} resolves.", card=entry["card"], player=p)
            target = state.model(entry["target"]) if entry["target"] else None
            if target is not None and target.removed:
                continue
            if effect == "cancel":
                cancelled = True
            elif effect == "vp":
                core.score(state, p, amount, f"Event {spec['name']}", out)
            elif effect == "token":
                state.tokens[p] += amount
                say(out, "token_gain", f"{who(p)} gains {amount} Training Token(s).", player=p)
            elif effect == "recover" and target is not None:
                target.stunned = False
                say(out, "recovered", f"{target.name} is no longer Stunned.", model=target.id)
            elif effect == "boost" and target is not None:
                target.boost += amount
            elif effect == "hex" and target is not None:
                target.hex += amount
        state.stack_next = ""

    def _final_swap(self, state: KlashState, out: list, player: str, indices: list[int]) -> None:
        require(state.phase == "match" and state.stage == "final" and state.final_order
                and state.final_order[0] == player, "It is not your turn to swap Event Cards.")
        hand = state.hands[player]
        require(all(0 <= i < len(hand) for i in indices) and len(set(indices)) == len(indices), "Pick cards from your hand.")
        gone = [hand[i] for i in sorted(indices)]
        for i in sorted(indices, reverse=True):
            hand.pop(i)
        state.event_deck.discard(*gone)
        say(out, "event_swap", f"{who(player)} discards {len(gone)} Event Card(s) and draws as many.", player=player,
            count=len(gone))
        for _ in gone:
            self._draw_event(state, out, player)
        state.final_order.pop(0)

    # ================================================================ choices (free attacks)
    def _choice_options(self, state: KlashState, c: dict) -> list[tuple[str, str]]:
        m = state.model(c["model"])
        if m.removed or m.stunned and c["kind"] != "second":
            return []
        if c["kind"] == "counter":
            t = state.model(c["target"])
            return [(f"t:{t.id}", f"Counterattack {t.name}")] if not t.removed and core.contact(state, m, t) else []
        if c["kind"] in ("fury", "second"):
            if m.stunned:
                return []
            return [(f"t:{t.id}", f"Attack {t.name}") for t in core.enemies_in_contact(state, m)]
        if c["kind"] == "rapid":
            return [(f"t:{t.id}", f"Shoot {t.name}") for t in self._volley_targets(state, m)]
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
                           first_only: bool = False) -> list[tuple]:
        """[(option_id, label, [points])] steps toward useful places (around the Altar if needed)."""
        me = core.disc(state, m)
        models = core.discs(state)
        exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        goals: list[tuple[str, str, tuple, float]] = []
        if disengage and exempt:
            cx = sum(state.model(e).x for e in exempt) / len(exempt)
            cy = sum(state.model(e).y for e in exempt) / len(exempt)
            dx, dy = m.x - cx, m.y - cy
            n = math.hypot(dx, dy) or 1.0
            goals.append(("away", "Straight away from the melee", (m.x + dx / n * allowance, m.y + dy / n * allowance), 0.0))
        for o in state.on_field():
            if o.owner == m.owner:
                continue  # friends: use the Move command with coordinates
            stop = me.r + core.radius(state, o) + (arena.MIN_ENEMY_GAP if o.owner != m.owner else 0.0) + 0.02
            goals.append((f"to:{o.id}", f"Toward {o.name}{' (enemy)' if o.owner != m.owner else ''}", (o.x, o.y), stop))
        goals.append(("to:alt", "Toward the Altar of Chaos", arena.CENTRE, arena.ALTAR_RADIUS + me.r + 0.02))
        own = state.gates[m.owner]
        goals.append(("to:g0" if own == 0 else "to:g1", "Toward your Gate", arena.GATES[own], arena.GATE_RADIUS + me.r + 1.02))
        goals.append(("to:g1" if own == 0 else "to:g0", "Toward the enemy Gate", arena.GATES[1 - own], arena.GATE_RADIUS + me.r + 1.02))
        result = []
        for oid, label, goal, stop in goals[:24]:
            route = self._route(me, goal, models, allowance, stop, exempt, altar=oid == "to:alt")
            if route:
                p = route[-1]
                via = " around the Altar" if len(route) > 1 else ""
                result.append((oid, _lbl(f"{label}{via} → ({p[0]:.0f}, {p[1]:.0f})"), route))
                if first_only:
                    break
        return result

    def _can_move(self, state: KlashState, m: Model, kind: str) -> bool:
        """An action that moves is offered only when it has somewhere to go (no dead-end prompt)."""
        allowance = self._disengage_allowance(state, m) if kind == "dis" else self._move_allowance(state, m, kind == "mv2")
        return bool(self._move_destinations(state, m, allowance, kind == "dis", first_only=True))

    @staticmethod
    def _route(me, goal, models, allowance, stop, exempt, altar=False):
        """Waypoints toward a goal; toward the Altar itself the straight line simply stops at its edge
        (``step_route`` would try to walk around it)."""
        if altar:
            p = arena.step_toward(me, goal, models, allowance, stop_gap=stop, exempt=exempt)
            return [p] if p else None
        return arena.step_route(me, goal, models, allowance, stop_gap=stop, exempt=exempt)

    def _targets_for(self, state: KlashState, kind: str) -> list[tuple[str, str]]:
        act = state.acts[-1]
        m = state.model(act.model)
        base = kind.rstrip("2") if not kind.startswith("mg") else kind
        if kind in ("mv", "mv2", "dis"):
            allowance = self._disengage_allowance(state, m) if kind == "dis" else self._move_allowance(state, m, kind == "mv2")
            return [(o, l) for o, l, _ in self._move_destinations(state, m, allowance, kind == "dis")]
        if base == "as":
            return [(f"t:{t.id}", f"Assault {t.name}") for t in self._assault_targets(state, m)]
        if base == "vo":
            return [(f"t:{t.id}", f"Volley at {t.name}") for t in self._volley_targets(state, m)]
        if base == "ch":
            opts = [(f"t:{t.id}", f"Charge {t.name}") for t in self._charge_targets(state, m)]
            if has(state, m, "spellcaster") and "destructive_touch" in core.stat(state, m, "spells") and m.id not in state.cast:
                opts += [(f"x:{t.id}", _lbl(f"Charge {t.name}, Destructive Touch")) for t in self._charge_targets(state, m)]
            return opts[:24]
        if kind.startswith("mg"):
            spell = core.CODE_SPELLS[kind.split(":")[1]]
            targets = self._spell_targets(state, m, spell)
            if spell == "armour":
                return [("self", "Cast on itself")]
            if spell == "teleport":
                return [(f"p:{i}", f"Teleport to ({p[0]:.0f}, {p[1]:.0f})") for i, p in enumerate(targets)][:24]
            return [(f"t:{t.id}", f"Target {t.name}") for t in targets][:24]
        return []

    # ================================================================ pending
    def pending(self, state: KlashState) -> list[Prompt]:
        if state.over:
            return []
        s = state.seq
        if state.phase == "draft":
            p = self.picker(state)
            n = "1" if state.round_picks == 0 else ("2 (first)" if state.round_picks == 1 else "2 (second)")
            return [Prompt(id=f"k{s}:pick", player=p,
                           text=f"Auction round {state.draft_round}: take a card (you take {n}).",
                           options=tuple(Option(f"c{i}", _lbl(state.cards[c]["name"])) for i, c in enumerate(state.revealed)))]
        if state.phase == "team":
            secret = bool(state.house_rules.get("secret_team"))
            return [Prompt(id=f"k:team:{state.seats.index(p)}", player=p,
                           text="Choose your team: up to 8 of your 12 cards (Champion requirements apply).",
                           options=tuple(Option(f"p{i}", _lbl(f"{state.cards[c]['name']} ({state.cards[c]['vp']} VP)"))
                                         for i, c in enumerate(state.picks[p])),
                           private=secret, min_choices=1, max_choices=min(TEAM_MAX, len(state.picks[p])))
                    for p in state.seats if p not in state.team_choice]
        if state.phase == "deploy":
            p = state.deploy_turn
            if state.sel and state.sel.get("kind") == "deploy":
                m = state.model(state.sel["model"])
                spots = self._deploy_spots(state, m)
                opts = [Option(f"s{i}", f"({x:.1f}, {y:.1f})") for i, (x, y) in enumerate(spots)]
                return [Prompt(id=f"k{s}:spot", player=p, text=f"Where does {m.name} enter?",
                               options=tuple(opts + [Option("back", "Back")]))]
            return [Prompt(id=f"k{s}:deploy", player=p, text="Deploy a model at your Gate.",
                           options=tuple(Option(m.id, _lbl(m.name)) for m in state.models
                                         if m.owner == p and not m.placed))]
        prompts: list[Prompt] = []
        if state.window is not None:
            w = state.window
            m = state.model(w["model"])
            return [Prompt(id=f"k{s}:rr{len(w['decisions'])}", player=w["player"],
                           text=f"{m.name} fails {w['what']}. Re-roll with a Training Token?",
                           options=(Option("yes", "Yes, re-roll (Training Token)"), Option("no", "No, let it stand")))]
        if state.stack:
            p = state.stack_next
            if state.esel is not None:
                return [self._esel_prompt(state)]
            opts = [Option(f"h{i}", _lbl(state.event_cards[c]["name"])) for i, c in enumerate(state.hands[p])
                    if self._playable(state, p, c)]
            return [Prompt(id=f"k{s}:resp", player=p, private=True,
                           text="An Event Card was played: answer with a card, or pass (the stack then resolves).",
                           options=tuple(opts + [Option("pass", "Pass")]))]
        if state.esel is not None:
            return [self._esel_prompt(state)]
        if state.choices:
            c = state.choices[0]
            m = state.model(c["model"])
            what = {"counter": "Counterattack", "fury": "Fury: a free Assault", "second": "Second attack",
                    "rapid": "Rapid Fire: second shot"}[c["kind"]]
            opts = [Option(o, _lbl(l)) for o, l in self._choice_options(state, c)]
            return [Prompt(id=f"k{s}:free", player=c["player"], text=f"{m.name} — {what}?",
                           options=tuple(opts + [Option("no", "Decline")]))] + self._hand_prompts(state)
        if state.stage == "initiative":
            return [Prompt(id=f"k{s}:init", player=state.init_winner, text="You won the Initiative: who activates first?",
                           options=(Option("me", "I activate first"), Option("you", "My opponent activates first")))
                    ] + self._hand_prompts(state)
        if state.stage == "final" and state.final_order:
            p = state.final_order[0]
            return [Prompt(id=f"k{s}:swap", player=p, private=True,
                           text="Final Phase: discard any Event Cards to draw as many (choose none to keep all).",
                           options=tuple([Option(f"h{i}", _lbl(f"Discard {state.event_cards[c]['name']}"))
                                          for i, c in enumerate(state.hands[p])] + [Option("keep", "Keep my cards")]),
                           # "keep" makes "none" choosable with buttons too (one card: two buttons)
                           min_choices=0, max_choices=len(state.hands[p]))] + self._hand_prompts(state)
        if state.stage != "action":
            return []
        if state.acts:
            act = state.acts[-1]
            m = state.model(act.model)
            if state.sel is not None:
                kind = state.sel["kind"]
                opts = [Option(o, l) for o, l in self._targets_for(state, kind)]
                prompts.append(Prompt(id=f"k{s}:tgt", player=act.controller, text=f"{m.name}: choose where or whom.",
                                      options=tuple(opts + [Option("back", "Back")])))
            else:
                left = self._remaining(act)
                prompts.append(Prompt(id=f"k{s}:act", player=act.controller,
                                      text=f"{m.name}: choose an action ({left} left).",
                                      options=tuple(Option(o, _lbl(l)) for o, l in self._act_kinds(state, act))))
        elif state.ext_offer:
            p = state.turn_player
            opts = [Option(m.id, _lbl(f"Token: also activate {m.name}")) for m in self._ext_candidates(state)]
            prompts.append(Prompt(id=f"k{s}:ext", player=p, text="Spend a Training Token to activate a second model?",
                                  options=tuple(opts + [Option("no", "No, end my turn")])))
        else:
            p = state.turn_player
            prompts.append(Prompt(id=f"k{s}:activate", player=p, text="Activate one of your Ready models.",
                                  options=tuple(Option(m.id, _lbl(m.name)) for m in self._ready(state, p))))
        prompts += self._hand_prompts(state)
        # The player who is not acting may arm a Training Token re-roll (optional, public).
        other = state.other(state.turn_player) if state.turn_player else ""
        acting = state.acts[-1].controller if state.acts else state.turn_player
        if other and other != acting and not state.house_rules.get("reroll_window", True):
            eligible = [m for m in state.on_field(other) if self._token_ok(state, m, other) and not m.reroll_armed]
            if eligible:
                prompts.append(Prompt(id=f"k:tok:{state.seats.index(other)}:{state.tokens[other]}.{state.turn_no}",
                                      player=other, text="Optional: spend a Training Token to arm a re-roll.",
                                      options=tuple(Option(f"r:{m.id}", _lbl(f"Re-roll ready for {m.name}"))
                                                    for m in eligible[:25])))
        return prompts

    def _hand_prompts(self, state: KlashState) -> list[Prompt]:
        # Optional prompts stay up while a target is being chosen, so their buttons (DMs for hands) are
        # not sent again after every step. Your own card played then cancels your half-made choice; an
        # opponent's card leaves it waiting for after the Event Cards resolve.
        prompts = []
        for i, p in enumerate(state.seats):
            opts = [Option(f"h{j}", _lbl(state.event_cards[c]["name"])) for j, c in enumerate(state.hands[p])
                    if self._playable(state, p, c, ignore_sel=True)]
            if opts:
                # stable while the hands and the deck do not change (only public counts in the id)
                sig = f"{len(state.event_deck.cards)}.{len(state.event_deck.discards)}.{len(state.hands[p])}"
                prompts.append(Prompt(id=f"k:hand:{i}:{sig}", player=p, private=True,
                                      text="Play an Event Card?", options=tuple(opts)))
        return prompts

    def _esel_prompt(self, state: KlashState) -> Prompt:
        p = state.esel["player"]
        card = state.esel["card"]
        targets = self._card_targets(state, p, card) or []
        return Prompt(id=f"k{state.seq}:etgt", player=p, private=True,
                      text=f"{state.event_cards[card]['name']}: choose a target.",
                      options=tuple([Option(f"t:{t.id}", _lbl(t.name)) for t in targets] + [Option("back", "Back")]))

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
            state.__dict__["_rr"] = {"decisions": list(decisions), "asked": 0, "rolled": rolled, "at": 0, "log": []}
        try:
            if isinstance(action, Choose):
                self._choose(state, action, actor, out)
            else:
                self._rich(state, action, actor, out)
            state.seq += 1
            self._settle(state, out)
        except core.RerollWindow as w:
            log = state.__dict__["_rr"]["log"]
            queue = list(state.dice_queue)
            state.__dict__.clear()
            state.__dict__.update(snap.__dict__)
            state.dice_queue = queue   # forced dice already used stay used (they are in ``rolled``)
            m = state.model(w.model)
            state.window = {"action": self.dump_action(action), "actor": [actor.id, actor.gm],
                            "decisions": list(decisions), "rolled": log, "shown": len(out),
                            "player": w.player, "model": m.id, "what": w.what}
            say(out, "reroll_offer", f"{m.name} fails {w.what}: {who(w.player)} may re-roll it with a Training "
                f"Token ({state.tokens.get(w.player, 0)} left).", player=w.player, model=m.id)
            return out[shown:]
        finally:
            state.__dict__.pop("_rr", None)
        return out[shown:]

    def _answer_window(self, state: KlashState, action: Any, actor: Actor) -> list[Event]:
        w = state.window
        if not isinstance(action, Choose):
            raise IllegalAction("First answer the Training Token re-roll question.")
        prompt = self.check_choice(state, action, actor)
        yes = action.options[0] == "yes"
        del prompt
        state.window = None
        return self._run(state, self.load_action(w["action"]), Actor(w["actor"][0], bool(w["actor"][1])),
                         w["decisions"] + [yes], w["rolled"], w["shown"])

    def _seat_of(self, state: KlashState, actor: Actor, player: str) -> str:
        if not actor.may_act_for(player):
            raise NotYourTurn("That is not yours to decide.")
        return player

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
        raise NotYourTurn("You are not playing in this game.")

    def _choose(self, state: KlashState, choice: Choose, actor: Actor, out: list) -> None:
        prompt = self.check_choice(state, choice, actor)
        p = prompt.player
        tag = prompt.id.split(":")[1]
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
        elif tag == "init":
            first = p if opt == "me" else state.other(p)
            say(out, "first", f"{who(p)} decides that {who(first)} activates first.", first=first)
            state.stage = "action"
            self._begin_turn(state, out, first)
        elif tag == "swap":
            self._final_swap(state, out, p, [int(o[1:]) for o in choice.options if o != "keep"])
        elif tag == "activate":
            self._activate(state, out, p, opt)
        elif tag == "ext":
            if opt == "no":
                state.ext_offer = False
            else:
                self._use_token(state, out, p, opt, "activation")
        elif tag == "free":
            self._answer_choice(state, out, opt)
        elif tag == "act":
            self._choose_kind(state, out, p, opt)
        elif tag == "tgt":
            self._choose_target(state, out, p, opt)
        elif tag == "tok":
            self._use_token(state, out, p, opt[2:], "reroll")
        elif tag in ("hand", "resp"):
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
        elif tag == "etgt":
            if opt == "back":
                state.esel = None
            else:
                self._play_event(state, out, p, state.esel["card"], opt[2:])
        else:  # pragma: no cover
            raise IllegalAction("Unknown prompt.")

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
            dest = {o: pt for o, _, pt in self._move_destinations(state, m, allowance, kind == "dis")}
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
        require(m.stunned, f"{m.name} is not Stunned.")
        if free:
            require(has(state, m, "regeneration") and not act.regen_used, f"{m.name} cannot regenerate now.")
            act.regen_used = True
            m.stunned = False
            say(out, "recovered", f"{m.name} regenerates and is no longer Stunned.", model=m.id)
            return
        if not self._spend(state, out, act, m, 1, "recover"):
            return
        self._recover(state, out, m)

    def _end_activation(self, state: KlashState, out: list, p: str, mid: str) -> None:
        act = self._current(state, p, mid)
        m = state.model(mid)
        require(m.stunned or not self._madman_bound(state, act, m), f"{m.name} is a Madman and must Assault or Charge.")
        act.ended = True

    def _rich(self, state: KlashState, action: Any, actor: Actor, out: list) -> None:
        p = self._acting_player(state, actor)
        state.sel = None
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
            require(len(via) % 2 == 0, "Waypoints come in x, y pairs.")
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
            require(action.spell in core.SPELL_CODES, f"Unknown spell '{action.spell}'.")
            point = (action.x, action.y) if action.spell == "teleport" else None
            self._do_magic(state, out, p, action.model, action.spell, action.target, action.double, point)
        elif isinstance(action, Recover):
            self._do_recover(state, out, p, action.model, action.free)
        elif isinstance(action, UseToken):
            self._use_token(state, out, p, action.model, action.effect)
        elif isinstance(action, PlayEvent):
            self._play_event(state, out, p, action.card, action.target)
        elif isinstance(action, PassEvent):
            require(state.stack and p == state.stack_next, "There is no Event Card for you to answer.")
            self._resolve_stack(state, out)
        elif isinstance(action, EndActivation):
            self._end_activation(state, out, p, action.model)
        else:
            raise IllegalAction("Unknown action.")

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
            require(distance > 0, "The distance must be positive.")
            allowance = min(allowance, float(distance))
        if goal == "alt":
            point, stop = arena.CENTRE, arena.ALTAR_RADIUS + me.r + 0.02
        elif goal in ("g0", "g1"):
            point, stop = arena.GATES[int(goal[1])], arena.GATE_RADIUS + me.r + 1.02
        else:
            o = state.model(goal)
            require(o.placed and not o.removed and o.id != m.id, "Choose another model in the arena.")
            gap = arena.MIN_ENEMY_GAP if o.owner != m.owner else 0.0
            point, stop = (o.x, o.y), me.r + core.radius(state, o) + gap + 0.02
        exempt = tuple(e.id for e in core.enemies_in_contact(state, m))
        route = self._route(me, point, core.discs(state), allowance, stop, exempt, altar=goal == "alt")
        require(bool(route), f"{m.name} cannot get any closer that way.")
        return [tuple(p) for p in route]

    # ================================================================ views
    def view_for(self, state: KlashState, viewer: str) -> dict:
        from .views import view
        return view(self, state, viewer)
