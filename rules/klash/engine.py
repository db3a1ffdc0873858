"""The Klash! engine: auction -> team -> deployment -> 8-Hourglass match -> over.

The rules are split by the digest's sections (``../shared/rules/klash.md``): ``draft`` (§2 the auction
and the team), ``deploy`` (§1.5), ``hourglass`` (§3.1, §3.2, §3.10 the match's structure and its end),
``activation`` (§3.2, §3.3, §3.7), ``attacks`` (§3.3-§3.5, §3.8), ``tokens`` (§3.9), ``event_cards``
(§3.11), ``prompts`` (who decides what now) and ``queries`` (the cog's read-only questions); the
resolution (dice, tests, damage, spells, VP) is ``core``, the geometry ``arena``.

Flow control lives in ``_settle``: after every action it drops stale free-attack offers, ends finished
activations, passes turns, closes the Action Phase and the Hourglass, and checks the end of the game.
Prompts are derived from the state only, so the cog never needs to know the rules.
"""
from __future__ import annotations

import copy
from typing import Any

from rules.common.deck import Deck
from rules.common.defaults import Days
from rules.common.engine import Actor, Choose, Engine, Event, Outcome, Prompt, term
from rules.common.errors import IllegalAction, NotYourTurn
from rules.common.rng import Rng

from . import core, defaults
from .actions import (ACTIONS, Activate, Assault, Charge, Deploy, Disengage, EndActivation, Magic, Move,
                      PassEvent, Pick, PlayEvent, Recover, SelectTeam, UseToken, Volley)
from .core import require, say
from .activation import Activations
from .attacks import Attacks
from .deploy import Deployment
from .draft import Auction
from .event_cards import EventCards
from .hourglass import Hourglasses
from .prompts import Prompts
from .queries import Queries
from .rules_numbers import HOURGLASSES, OPENS_ACTIVATION, REVEAL, ROUNDS, START_TOKENS, TEAM_MAX
from .state import HOUSE_RULES, KlashState, Model
from .tokens import Tokens

__all__ = ["HOURGLASSES", "OPENS_ACTIVATION", "REVEAL", "ROUNDS", "START_TOKENS", "TEAM_MAX", "KlashEngine"]


class KlashEngine(Days, Auction, Deployment, Hourglasses, Activations, Attacks, Tokens, EventCards, Prompts, Queries,
                  Engine[KlashState]):
    """The whole engine: each base holds one section of the rules digest (see each module's docstring);
    this class adds the start of a game and the dispatch of every action (``step``)."""
    system = "klash"
    state_type = KlashState
    actions = ACTIONS
    days = defaults
    chapter_kinds = defaults.CHAPTER_KINDS
    turning_kinds = defaults.TURNING_KINDS

    # ================================================================ setup
    def setup(self, seats: list[str], options: dict, seed: int) -> KlashState:
        return self.start(seats, options, seed).state

    def start(self, seats: list[str], options: dict | None = None, seed: int = 0) -> Outcome:
        """seats: two distinct player ids. options: ``pack`` (a dict from ``load_pack_text``,
        e.g. ``content.sample_pack("klash")``; required) and ``house_rules`` (overrides of HOUSE_RULES). The events: the first
        auction round's five cards, revealed (public, like every later round's)."""
        seats, options = list(seats), dict(options or {})
        if len(seats) != 2 or seats[0] == seats[1]:
            raise IllegalAction("two_players")
        # the pack may be shared (the cached sample): the state holds its own mappings of it
        pack = options.get("pack")
        if not pack:       # the caller reads the pack (``content.sample_pack("klash")``): rules/ does no I/O
            raise IllegalAction("no_pack")
        rules = dict(HOUSE_RULES)
        for key, value in (options.get("house_rules") or {}).items():
            if key not in HOUSE_RULES:
                raise IllegalAction("unknown_house_rule", rule=key)
            rules[key] = value
        state = KlashState(seats=list(seats), rng=Rng.from_seed(seed), house_rules=rules,
                           pack_name=pack["name"], sample=pack.get("sample", False),
                           cards=dict(pack["characters"]), event_cards=dict(pack["events"]))
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
                state.models.append(Model(id=f"m{n}", card=cid, owner=p, n=n,
                                          x=float(x), y=float(y), placed=True))
            state.team_vp[p] = sum(state.cards[c]["vp"] for c, _, _ in teams.get(p, []))
        state.player_a, state.player_b = seats[0], seats[1]
        state.gates = {seats[0]: 0, seats[1]: 1}
        state.hourglass = hourglass
        state.stage = "action"
        state.init_winner = first or seats[0]
        self._begin_turn(state, [], first or seats[0])
        return state

    # ================================================================ step
    def step(self, state: KlashState, action: Any, actor: Actor) -> list[Event]:
        if state.window is not None:
            return self._answer_window(state, action, actor)
        return self._run(state, action, actor, [], [], 0)

    def step_answer(self, state: KlashState, choice: Choose, actor: Actor, prompt: Prompt) -> list[Event]:
        """``step`` for a choice whose prompt the caller has just taken from ``pending(state)``: the
        same, without computing every prompt again to find it (the bot's search steps thousands of
        times per decision). The choice is still checked against the prompt."""
        if state.window is not None:
            return self._answer_window(state, choice, actor)
        return self._run(state, choice, actor, [], [], 0, prompt)

    def _run(self, state: KlashState, action: Any, actor: Actor, decisions: list, rolled: list,
             shown: int, prompt: Prompt | None = None) -> list[Event]:
        """Apply an action. A failed roll that a Training Token could re-roll stops it (``core.RerollWindow``):
        the state goes back to before the action and a window asks the player; the answer replays the
        action with the same dice up to that roll (``decisions``/``rolled``), so nothing is applied twice."""
        out: list[Event] = []
        windowed = state.phase == "match" and state.house_rules.get("reroll_window", True)
        # The snapshot to rewind to is taken only when a window can open: most steps of a bot's search
        # come after both sides spent their tokens, and copying the state was a tenth of its time.
        snap = copy.deepcopy(state) if windowed and self._token_possible(state) else None
        if windowed:
            state.replay = {"decisions": list(decisions), "asked": 0, "rolled": rolled, "at": 0, "log": []}
        try:
            if isinstance(action, Choose):
                self._choose(state, action, actor, out, prompt)
            else:
                self._rich(state, action, actor, out)
            state.seq += 1
            self._settle(state, out)
        except core.RerollWindow as w:
            if snap is None:   # pragma: no cover - _token_possible said no window could open
                raise RuntimeError("klash: a re-roll window opened without a snapshot") from w
            log = state.replay["log"]
            queue = list(state.dice_queue)
            state.__dict__.clear()
            state.__dict__.update(snap.__dict__)
            state.dice_queue = queue   # forced dice already used stay used (they are in ``rolled``)
            m = state.model(w.model)
            state.window = {"action": self.dump_action(action), "actor": [actor.id, actor.gm],
                            "decisions": list(decisions), "rolled": log, "shown": len(out),
                            "player": w.player, "model": m.id, "what": w.what}
            say(out, "reroll_offer", player=w.player, model=m.id, name=state.label(m), roll=term(f"roll_{w.what['roll']}"),
                tokens=state.tokens.get(w.player, 0))
            return out[shown:]
        finally:
            state.replay = None
        return out[shown:]

    @staticmethod
    def _token_possible(state: KlashState) -> bool:
        """Could a Training Token be spent during the next action? Not when no seat holds one and no card
        that gives tokens is in a hand or on the Event stack: tokens are gained only from such a card
        (``_resolve_stack``), and a window opens only for a model whose player holds one."""
        if any(n > 0 for n in state.tokens.values()):
            return True
        cards = state.event_cards
        return any(cards[c]["effect"] == "token" for hand in state.hands.values() for c in hand) or \
            any(cards[e["card"]]["effect"] == "token" for e in state.stack)

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

    def _choose(self, state: KlashState, choice: Choose, actor: Actor, out: list, known: Prompt | None = None) -> None:
        prompt = self.check_choice(state, choice, actor, known)
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
            dest = {o.id: pt for o, pt in self._move_destinations(state, m, allowance, kind == "dis", only=opt)}
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

    # ================================================================ views
    def view_for(self, state: KlashState, viewer: str) -> dict:
        from .views import view
        return view(self, state, viewer)


# The engine every caller plays on. Made here, not in the façade, so that ai.py (which the façade
# imports) takes it from below without an import circle.
ENGINE: KlashEngine = KlashEngine()
