"""What the generic player (``rules.common.player``) needs to play Klash!.

Hidden from a seat (see ``views.view``): the opponent's Event Card hand, the order of the Event deck and
the contents of its discards (the view shows counts only: a Final Phase swap is discarded face down), the
order of the auction deck, the dice still to come (the state's Rng), GM-forced dice, and in the
``secret_team`` variant the opponent's locked team. ``determinize`` keeps the rest and re-samples these.
"""
from __future__ import annotations

import copy
import math
from typing import Any

from rules.common.engine import Prompt
from rules.common.player import GameAI, Move
from rules.common.rng import Rng

from . import ENGINE
from .state import KlashState

# Rollout weights: a random gladiator that fights is a better guess at a real one than one that wanders.
_ATTACK_KINDS = ("as", "as2", "ch", "ch2", "vo", "vo2")


class KlashAI(GameAI):
    def determinize(self, state: KlashState, seat: str, rng: Rng) -> KlashState:
        world = copy.deepcopy(state)
        other = world.other(seat)
        deck = world.event_deck
        hand_n, discard_n = len(world.hands[other]), len(deck.discards)
        pool = sorted(world.hands[other] + deck.cards + deck.discards)
        rng.shuffle(pool)
        world.hands[other] = pool[:hand_n]
        deck.discards = pool[hand_n:hand_n + discard_n]
        deck.cards = pool[hand_n + discard_n:]
        chars = sorted(world.char_deck)
        rng.shuffle(chars)
        world.char_deck = chars
        if world.esel is not None and world.esel["player"] == other:
            # the card being aimed is one of the other hand's, not known which
            world.esel = dict(world.esel, card=rng.choice(world.hands[other])) if world.hands[other] else None
        if (world.house_rules.get("secret_team") and len(world.team_choice) < 2 and other in world.team_choice):
            world.team_choice = {p: v for p, v in world.team_choice.items() if p != other}
        world.dice_queue = []
        world.rng = Rng(rng.next_u64())
        return world

    def evaluate(self, state: KlashState, seat: str) -> float:
        other = state.other(seat)
        if state.over:
            return 1.0 if state.winner == seat else 0.0
        if state.phase in ("draft", "team"):
            def strength(p: str) -> int:
                if p in state.team_choice:
                    return sum(state.cards[state.picks[p][i]]["vp"] for i in state.team_choice[p])
                return sum(sorted((state.cards[c]["vp"] for c in state.picks[p]), reverse=True)[:8])
            return _squash(0.15 * (strength(seat) - strength(other)))
        # The final count gives the weaker team the difference of team VP, so the score to watch is
        # VP scored minus one's own team's surplus; standing models are the VP still to be won.
        standing = {p: sum(state.cards[m.card]["vp"] * (0.6 if m.stunned else 1.0)
                           for m in state.models if m.owner == p and not m.removed) for p in state.seats}
        tv = state.team_vp
        diff = (state.vp[seat] - state.vp[other]) + (tv.get(other, 0) - tv.get(seat, 0))
        if state.stage != "final":
            # The Action Phase's "no melee attack against your characters" VP (scored at its end, so
            # counted only until then): without it a melee attack that kills nobody looked worth
            # nothing, and the bot let whole Hourglasses pass without one (a 3-3 draw, then dice).
            diff += _untouched(state, seat) - _untouched(state, other)
        material = standing[seat] - standing[other]
        if not any(not m.removed for m in state.models if m.owner == other) and state.phase == "match":
            return 1.0
        return _squash(0.18 * diff + 0.08 * material + 0.05 * (len(state.hands[seat]) - len(state.hands[other])))

    def optional(self, prompt: Prompt) -> bool:
        return prompt.kind in ("hand", "arm_reroll")

    def candidates(self, state: KlashState, prompt: Prompt, rng: Rng) -> list[tuple[str, ...]]:
        ids = [o.id for o in prompt.options]
        tag = prompt.kind
        if tag == "team":
            return self._teams(state, prompt.player, rng)
        if tag == "swap":
            keep: list[tuple[str, ...]] = [("keep",)]
            return keep + [(i,) for i in ids if i != "keep"]
        if prompt.max_choices > 1:
            return super().candidates(state, prompt, rng)
        useful = [i for i in ids if i != "back"] or ids
        return [(i,) for i in useful]

    def _teams(self, state: KlashState, player: str, rng: Rng) -> list[tuple[str, ...]]:
        picks = state.picks[player]
        order = sorted(range(len(picks)), key=lambda i: (-state.cards[picks[i]]["vp"], i))
        tries = [order[:8], order[:7], order[:6], [i for i in order if state.cards[picks[i]]["type"] != "campione"][:8]]
        for _ in range(12):
            k = rng.randint(4, min(8, len(picks)))
            tries.append(rng.sample(order, k))
        out: list[tuple[str, ...]] = []
        for t in tries:
            if t and ENGINE.team_problem(state, player, t) is None:
                out.append(tuple(f"p{i}" for i in sorted(t)))
        if not out:   # the engine always accepts one lone non-champion... or any single card
            lone: list[tuple[str, ...]] = [(f"p{i}",) for i in order if ENGINE.team_problem(state, player, [i]) is None]
            out = lone[:1] or [("p0",)]
        return list(dict.fromkeys(out))

    def prior(self, state: KlashState, seat: str, move: Move) -> float:
        opt = move[1][0] if move[1] else ""
        tag = _kind(move[0])
        if opt == "back":
            return 0.05
        if tag == "act":
            if opt in _ATTACK_KINDS:
                return 4.0
            if opt == "end":
                return 0.3
        if tag == "target" and (opt.startswith("to:") and not opt.startswith("to:g")):
            return 2.0
        if tag.startswith("free_"):
            return 0.2 if opt == "no" else 3.0
        if tag == "hand":
            return 0.3
        return 1.0


def _kind(prompt_id: str) -> str:
    """The kind of one of this engine's own prompts, from its id (`rules.common.prompt_id` puts the kind
    first); only the rules read ids, the cogs read `Prompt.kind`."""
    return prompt_id.split(".", 1)[0]


def _untouched(state: KlashState, player: str) -> int:
    """1 while ``player`` is on course for this Action Phase's no-melee VP (``_end_action_phase``)."""
    return int(player not in state.melee_against and bool(state.on_field(player)))


def _squash(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


AI = KlashAI(ENGINE)


def view_of(state: Any, seat: str) -> dict:
    return ENGINE.view_for(state, seat)
