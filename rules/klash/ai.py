"""What the generic player (``rules.common.player``) needs to play Klash!.

Hidden from a seat (see ``views.view``): the opponent's Event Card hand, the order of the Event deck and
the contents of its discards (the view shows counts only: a Final Phase swap is discarded face down), the
order of the auction deck, the dice still to come (the state's Rng), GM-forced dice, and in the
``secret_team`` variant the opponent's locked team. ``determinize`` keeps the rest and re-samples these.
"""
from __future__ import annotations

import copy
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from rules.common.engine import Prompt
from rules.common.player import GameAI, Level, Move
from rules.common.rng import Rng

from . import core, dice
from .engine import ENGINE
from .plan import pick
from .rules_numbers import HOURGLASSES
from .state import KlashState, Model

# The levels that look through their own run of decisions first (``plan.pick``): the worlds sampled,
# the seat's own next decisions followed (depth), and how many of the best options the level's tree
# search then compares. normal: 10 of 12 full matches against greedy (5 of 9 as a tree search alone).
LOOK: dict[str, tuple[int, int, int]] = {"normal": (2, 2, 4), "hard": (12, 2, 4)}

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
        if state.phase == "draft":
            def strength(p: str) -> float:
                return sum(sorted((_worth(state.cards[c]) for c in state.picks[p]), reverse=True)[:8])
            return _squash(0.15 * (strength(seat) - strength(other)))
        # The final count gives the weaker team the difference of team VP, so the score to watch is VP
        # scored minus one's own team's surplus; the models standing are worth what they may still
        # score (more while Hourglasses remain), a Beast's or a Monster's less: it fails its Instinct
        # test more often than not and then does not do what its player chose.
        if state.phase == "team":
            teams = {p: [state.cards[state.picks[p][i]] for i in state.team_choice[p]] if p in state.team_choice
                     else sorted((state.cards[c] for c in state.picks[p]), key=lambda c: -c["vp"])[:8]
                     for p in state.seats}
            tv = {p: sum(c["vp"] for c in cs) for p, cs in teams.items()}
            diff = float(tv[other] - tv[seat])
            material = sum(_worth(c) for c in teams[seat]) - sum(_worth(c) for c in teams[other])
            count = sum(_reliability(c) for c in teams[seat]) - sum(_reliability(c) for c in teams[other])
            return _squash(_MATERIAL * material + 0.18 * diff + _COUNT * count)
        tv = state.team_vp
        diff = (state.vp[seat] - state.vp[other]) + (tv.get(other, 0) - tv.get(seat, 0))
        if state.phase == "match" and state.stage != "final":
            # The Action Phase's "no melee attack against your characters" VP (scored at its end, so
            # counted only until then): without it a melee attack that kills nobody looked worth
            # nothing, and the bot let whole Hourglasses pass without one (a 3-3 draw, then dice).
            diff += _untouched(state, seat) - _untouched(state, other)
        alive = {p: [m for m in state.models if m.owner == p and not m.removed] for p in state.seats}
        if not alive[other] and state.phase == "match":
            return 1.0
        left = _left(state)
        material = sum(_standing(state, m) for m in alive[seat]) - sum(_standing(state, m) for m in alive[other])
        count = (sum(_reliability(state.cards[m.card]) for m in alive[seat])
                 - sum(_reliability(state.cards[m.card]) for m in alive[other]))
        threats = _threats(state) if state.phase == "match" else {}
        position = threats.get(seat, 0.0) - threats.get(other, 0.0)
        weight = _FIELDED if state.phase == "match" else _MATERIAL
        return _squash(0.18 * (diff + _POSITION * position) + weight * (0.5 + 0.5 * left) * material
                       + _COUNT * left * count + 0.05 * (len(state.hands[seat]) - len(state.hands[other])))

    def choose(self, state: KlashState, seat: str, options: list[Move], rng: Rng, lvl: Level,
               deadline: Callable[[], bool] | None) -> Move | None:
        how = LOOK.get(lvl.name)
        return None if how is None else pick(self, state, seat, options, rng, lvl, deadline, *how)

    def tuned(self, lvl: Level) -> Level:
        # hard once evaluated its leaves where the tree left them, without random moves (quick match,
        # hard against the tree-search normal: 5 of 8 without, 2 of 6 with two); since both levels
        # look first and search only the best four, hard without them lost 5 of 7 full matches to
        # normal, so it keeps the level's two
        return lvl

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


# Weights of the evaluation (before the squash; a scored VP is 0.18). A VP standing on the field is
# worth less than one scored, even at the start: the final count pays the weaker team the difference,
# and a surplus over the enemy's team can only be won back by killing more than the enemy fields (seed
# 1's game 7: four models, 22 VP against 15, no kill either way, lost to the underdog VP). A model that
# can act is worth about half a VP while Hourglasses remain (more activations than the enemy), and the
# VP a side threatens this turn count at half their expectation.
_MATERIAL = 0.14
# once the teams are on the field, a standing VP is worth a little more than a scored one: the quick
# match (equal teams) gave normal 16 of 16 against random so, 7 of 8 at 0.14
_FIELDED = 0.2
_COUNT = 0.1
_POSITION = 0.5


def _reliability(card: dict) -> float:
    """The chance a model does what its player chose when activated: a Beast or a Monster first passes
    an Instinct test (2d6 summed at most its Discipline; a Tamer near it helps, not counted here)."""
    if card["type"] not in ("bestia", "mostro"):
        return 1.0
    return _TWO_D6_AT_MOST[max(0, min(12, int(card["discipline"])))]


_TWO_D6_AT_MOST = [sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= d) / 36 for d in range(13)]


def _worth(card: dict) -> float:
    return card["vp"] * (0.4 + 0.6 * _reliability(card))


def _standing(state: KlashState, m: Model) -> float:
    return _worth(state.cards[m.card]) * (0.6 if m.stunned else 1.0)


def _left(state: KlashState) -> float:
    """The share of the match still to play (1 before the first Hourglass, 0 after the last)."""
    if state.phase != "match":
        return 1.0
    done = state.hourglass - (0.5 if state.stage in ("initiative", "action") else 0.0)
    return max(0.0, min(1.0, 1.0 - done / HOURGLASSES))


def _threats(state: KlashState) -> dict[str, float]:
    """The VP each side's models threaten now: for each enemy, the best expected VP one of them takes
    from it in one activation (a Charge within Speed, an attack on a model in contact, a shot within
    range), by the models that can still act this Action Phase (every unstunned one between phases),
    each weighted by how often it obeys. A side's own Savage Beasts whose nearest model is a friend
    count that friend's risk against it (a failed Instinct test attacks the nearest model, friend or
    foe). One pass over the pairs: the evaluation runs at every leaf of the search."""
    field = [m for m in state.models if m.placed and not m.removed]
    cards = state.cards
    acting = state.stage == "action"
    # per model: position, radius, reach of a Charge, reach of a shot (0: none), how often it obeys
    info = []
    for m in field:
        card = cards[m.card]
        reach = card.get("ranged_range")
        shot = float(reach[1]) if reach and str(card["ranged_attack"]) != "0" else 0.0
        info.append((m.x, m.y, core.card_radius(cards, m.card), card["speed"] + _CONTACT, shot,
                     _reliability(card), not m.stunned and not (acting and m.activated)))
    odds: dict[tuple, float] = {}

    def kill(m: Model, e: Model, ranged: bool = False) -> float:
        key = (m.card, e.card, e.stunned, ranged)
        if key not in odds:
            odds[key] = _kill(cards[m.card], e, cards[e.card], ranged)
        return odds[key]

    out = {p: 0.0 for p in state.seats}
    for j, e in enumerate(field):
        ex, ey, er = info[j][:3]
        best = 0.0
        for i, m in enumerate(field):
            x, y, r, charge, shot, obeys, ready = info[i]
            if not ready or m.owner == e.owner:
                continue
            gap = math.hypot(x - ex, y - ey) - r - er
            if gap <= charge:
                value = kill(m, e)
                if shot and gap <= shot:
                    value = max(value, kill(m, e, ranged=True))
            elif shot and gap <= shot:
                value = kill(m, e, ranged=True)
            else:
                continue
            if value * obeys > best:
                best = value * obeys
        if best:
            out[state.other(e.owner)] += best * cards[e.card]["vp"]
    for i, m in enumerate(field):
        x, y, r, charge, _, obeys, _ = info[i]
        if "savage_beast" not in cards[m.card]["qualities"] or (acting and m.activated) or len(field) < 2:
            continue
        gap, j = min((math.hypot(x - info[j][0], y - info[j][1]) - r - info[j][2], j)
                     for j in range(len(field)) if j != i)
        o = field[j]
        if o.owner == m.owner and gap <= charge:
            out[m.owner] -= (1.0 - obeys) * cards[o.card]["vp"] * kill(m, o)
    return out


_CONTACT = 0.05


def _kill(card: dict, target: Model, tcard: dict, ranged: bool = False) -> float:
    """``_odds`` of one attack of a ``card`` model on ``target`` (Stunned and Lethal Decrease its
    Tenacity, a Devastating Blow adds a Damage in melee)."""
    kind = "ranged" if ranged else "melee"
    decrease = int(target.stunned) + int("lethal" in card["qualities"])
    extra = int(not ranged and "devastating_blow" in card["qualities"])
    return _odds(str(card[f"{kind}_attack"]), str(tcard[f"{kind}_defence"]), str(tcard["tenacity"]), decrease, extra)


@lru_cache(maxsize=4096)
def _odds(attack: str, defence: str, tenacity: str, decrease: int, extra: int) -> float:
    """Expected VP multiple one attack takes: P(defeated) + 2 P(massacre) + 0.3 P(stunned), from the
    dice (attack beats defence by the damage, plus ``extra``; Tenacity, Decreased ``decrease`` times,
    decides the outcome)."""
    a, d, t = _faces(attack, 0), _faces(defence, 0), _faces(tenacity, -decrease)
    worth = {"none": 0.0, "stunned": 0.3, "defeated": 1.0, "massacre": 2.0}
    total = 0.0
    for av, ap in a.items():
        for dv, dp in d.items():
            if av <= dv:
                continue
            damage = av - dv + extra
            for tv, tp in t.items():
                total += ap * dp * tp * worth[_outcome(damage, tv)]
    return total


def _outcome(damage: int, tenacity: int) -> str:
    if damage >= 2 * tenacity:
        return "massacre"
    return "defeated" if tenacity < damage else "stunned"


@lru_cache(maxsize=256)
def _faces(text: str, net: int) -> dict[int, float]:
    """The distribution of a die stat's result (the best of its dice, plus the bonus above d12)."""
    count, step = dice.parse(text)
    step = max(0, step + net)
    if step <= 1:
        return {step: 1.0}
    sides = dice.SIDES[min(step, 7)]
    bonus = max(0, step - 7)
    return {v + bonus: (v ** count - (v - 1) ** count) / sides ** count for v in range(1, sides + 1)}


def _squash(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


AI = KlashAI(ENGINE)


def view_of(state: Any, seat: str) -> dict:
    return ENGINE.view_for(state, seat)
