"""A player for any engine: it answers a seat's prompts with one of their legal options.

Strategies:
- ``random``: a uniform legal choice.
- ``greedy``: one ply: every candidate is applied to a few sampled worlds and scored by the game's
  evaluation; the best average wins.
- ``ismcts``: single-observer Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse,
  IEEE TCIAIG 2012). Each iteration samples a world consistent with what the seat can see, walks one
  shared tree (UCB1 over the moves available in that world), rolls out a few random moves and scores
  the result with the game's evaluation.

It never peeks: every world it looks at comes from ``GameAI.determinize(state, seat, rng)``, which keeps
only what ``view_for(state, seat)`` shows and re-samples the rest (hands, deck orders, the dice still
to come). Everything here is pure: the randomness is an ``Rng`` the caller seeds (``seed_for`` derives
one from the seat's view, so a bot's game replays exactly), and a time budget is a ``deadline``
callable handed in by the caller, never a clock read here.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine import Actor, Choose, Engine, Prompt
from .errors import IllegalAction
from .rng import Rng

Move = tuple[str, tuple[str, ...]]          # (prompt id, chosen option ids)


class GameAI(ABC):
    """What one game tells the player. Subclass per game (``rules/<game>/ai.py``)."""

    engine: Engine

    def __init__(self, engine: Engine):
        self.engine = engine

    def determinize(self, state: Any, seat: str, rng: Rng) -> Any:
        """A full state consistent with ``view_for(state, seat)``: everything the seat cannot see is
        re-sampled from ``rng`` (at least the dice to come: the state's own Rng is replaced)."""
        import copy
        world = copy.deepcopy(state)
        world.rng = Rng(rng.next_u64())
        return world

    def worlds(self, state: Any, seat: str) -> Callable[[Rng], Any]:
        """A sampler of worlds for one decision: ``worlds(state, seat)(rng)`` is
        ``determinize(state, seat, rng)``. A search samples a world per iteration from the same state,
        so a game may prepare once what every world shares (Carnevale: the pickled state)."""
        return lambda rng: self.determinize(state, seat, rng)

    def information(self, state: Any, seat: str) -> Any:
        """Everything the seat may know (what its choices may depend on). Default: its view."""
        return self.engine.view_for(state, seat)

    @abstractmethod
    def evaluate(self, state: Any, seat: str) -> float:
        """How good ``state`` is for ``seat``, in [0, 1] (1: won). Must not read hidden things."""

    def optional(self, prompt: Prompt) -> bool:
        """Prompts that never block the game (play a card if you like); a bot answers them only when a
        blocking decision is also its own, as one more candidate move."""
        return False

    def candidates(self, state: Any, prompt: Prompt, rng: Rng) -> list[tuple[str, ...]]:
        """The answers worth considering. Default: every single option; for a multi-choice, the
        largest allowed set of options in order plus a few random legal-sized sets."""
        ids = [o.id for o in prompt.options]
        if prompt.max_choices <= 1:
            return [(i,) for i in ids] if prompt.min_choices >= 1 else [(i,) for i in ids] + [()]
        out: list[tuple[str, ...]] = [tuple(ids[:prompt.max_choices])]
        for _ in range(6):
            k = rng.randint(prompt.min_choices, prompt.max_choices)
            out.append(tuple(sorted(rng.sample(ids, k), key=ids.index)))
        return list(dict.fromkeys(out))

    def prior(self, state: Any, seat: str, move: Move) -> float:
        """Weight of a move in rollouts (1: as likely as any other). Cheap heuristics only."""
        return 1.0

    def choose(self, state: Any, seat: str, options: list[Move], rng: Rng, lvl: Level,
               deadline: Callable[[], bool] | None) -> Move | None:
        """A game's own way to pick among two or more of the seat's options at this level (say, a
        search over the few moves a one-ply look ranks best), from the seat's view only, as every
        strategy here; None leaves the choice to the level's strategy. Default: None."""
        return None

    def tuned(self, lvl: Level) -> Level:
        """The level as this game plays it: a game whose evaluation reads a position well may, say,
        search without random rollouts at one level. Default: the level as it is."""
        return lvl


# ---------------------------------------------------------------------------- levels
@dataclass(frozen=True)
class Level:
    name: str
    strategy: str                 # random | greedy | ismcts
    iterations: int = 0           # ismcts: iterations (a deadline may stop it sooner)
    rollout: int = 0              # ismcts: random moves after leaving the tree, then the evaluation
    samples: int = 2              # greedy: worlds sampled per candidate
    exploration: float = 0.7      # ismcts: UCB1 constant


LEVELS: dict[str, Level] = {
    "random": Level("random", "random"),
    "greedy": Level("greedy", "greedy"),
    "easy": Level("easy", "greedy", samples=1),
    "normal": Level("normal", "ismcts", iterations=48, rollout=2),
    "hard": Level("hard", "ismcts", iterations=160, rollout=2),
}


def level(name: str) -> Level:
    try:
        return LEVELS[name]
    except KeyError:
        raise IllegalAction("unknown_bot_level", level=name, known=list(LEVELS)) from None


def seed_for(ai: GameAI, state: Any, seat: str, salt: str = "") -> Rng:
    """An Rng that depends only on what the seat may know (and the caller's salt)."""
    text = json.dumps(ai.information(state, seat), sort_keys=True, default=str)
    digest = hashlib.sha256(f"{salt}|{seat}|{text}".encode()).digest()
    return Rng(int.from_bytes(digest[:8], "big"))


def timed(ai: GameAI, state: Any, seat: str, lvl: str, salt: str, seconds: float,
          clock: Callable[[], float]) -> Choose | None:
    """One decision as the bot makes it at a table: seeded from the seat's view and the caller's
    salt (a replay gives the same choice), the search stopped after `seconds` of the caller's
    `clock` (it only caps a slow machine: the level's iterations normally end it sooner). The same
    function in a worker thread and in the thinking pool's child, so both choose alike."""
    stop = clock() + seconds
    return decide(ai, state, seat, level(lvl), seed_for(ai, state, seat, salt), deadline=lambda: clock() > stop)


# ---------------------------------------------------------------------------- moves
def mover(ai: GameAI, state: Any) -> str | None:
    """Who must decide now: the player of the first blocking prompt (None when nobody must)."""
    for prompt in ai.engine.pending(state):
        if not ai.optional(prompt):
            return prompt.player
    return None


def deciders(ai: GameAI, state: Any) -> list[str]:
    """Everyone a blocking prompt waits on, in the engine's order (several when choices are
    simultaneous, e.g. both teams)."""
    return list(dict.fromkeys(p.player for p in ai.engine.pending(state) if not ai.optional(p)))


def moves(ai: GameAI, state: Any, seat: str, rng: Rng) -> list[Move]:
    """The seat's candidate answers when a blocking prompt waits on it (else none): its blocking
    prompts' answers and, as alternatives, its optional ones'."""
    return _answers(ai, state, ai.engine.pending(state), seat, rng)


def turn(ai: GameAI, state: Any, rng: Rng) -> tuple[str | None, list[Move], dict[str, Prompt]]:
    """Who must decide now, their candidate answers and the prompts by id, from one ``pending`` (it
    can be costly: the prompts are handed on to ``engine.step_answer``, which needs not look again)."""
    prompts = ai.engine.pending(state)
    blocking = next((p for p in prompts if not ai.optional(p)), None)
    if blocking is None:
        return None, [], {}
    return blocking.player, _answers(ai, state, prompts, blocking.player, rng), {p.id: p for p in prompts}


def _answers(ai: GameAI, state: Any, prompts: list[Prompt], seat: str, rng: Rng) -> list[Move]:
    if not any(p.player == seat and not ai.optional(p) for p in prompts):
        return []
    return [(p.id, opts) for p in prompts if p.player == seat for opts in ai.candidates(state, p, rng)]


def _apply(ai: GameAI, state: Any, player: str, move: Move) -> Any:
    return ai.engine.apply(state, Choose(move[0], move[1]), Actor(player)).state


class _Spoiled(Exception):
    """A move the rules refused half-way through a world played in place: the world is unusable."""


def _advance(ai: GameAI, world: Any, player: str, move: Move, prompts: dict[str, Prompt] | None = None) -> Any:
    """Play a move in a sampled world the search owns alone, in place: the copy `apply` makes to
    keep a caller's state untouched is most of a step's cost (Carnevale pickles its whole state),
    and a search world is thrown away after its iteration anyway. A refusal may leave it half
    changed, so it ends the iteration (`_Spoiled`). ``prompts``: this world's pending prompts by id,
    when the caller has just computed them."""
    choice, actor = Choose(move[0], move[1]), Actor(player)
    prompt = prompts.get(move[0]) if prompts else None
    try:
        if prompt is not None:
            ai.engine.step_answer(world, choice, actor, prompt)
        else:
            ai.engine.step(world, choice, actor)
    except IllegalAction:
        raise _Spoiled() from None
    return world


def _terminal(ai: GameAI, state: Any) -> bool:
    return ai.engine.is_over(state)


def _weighted(rng: Rng, weights: list[float]) -> int:
    total = sum(weights)
    x = rng.random() * total
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return len(weights) - 1


def _random_step(ai: GameAI, world: Any, rng: Rng) -> Any | None:
    """One random (prior-weighted) move by whoever must decide, played in place in the search's
    world; None if the game cannot go on."""
    player, options, prompts = turn(ai, world, rng)
    if player is None or not options:
        return None
    weights = [ai.prior(world, player, m) for m in options]
    return _advance(ai, world, player, options[_weighted(rng, weights)], prompts)


# ---------------------------------------------------------------------------- strategies
def _random(ai: GameAI, state: Any, seat: str, options: list[Move], rng: Rng) -> Move:
    world = ai.determinize(state, seat, rng)
    order = list(range(len(options)))
    rng.shuffle(order)
    for i in order:      # a multi-choice candidate may break a rule the prompt cannot show (e.g. a team)
        try:
            _apply(ai, world, seat, options[i])
            return options[i]
        except IllegalAction:
            continue
    return options[order[0]]


def _greedy(ai: GameAI, state: Any, seat: str, options: list[Move], rng: Rng, samples: int) -> Move:
    sample = ai.worlds(state, seat)
    worlds = [sample(rng) for _ in range(max(1, samples))]
    best: list[Move] = []
    best_value = -1.0
    for move in options:
        total = 0.0
        try:
            for world in worlds:
                total += ai.evaluate(_apply(ai, world, seat, move), seat)
        except IllegalAction:
            continue
        value = total / len(worlds)
        if value > best_value + 1e-12:
            best, best_value = [move], value
        elif abs(value - best_value) <= 1e-12:
            best.append(move)
    return rng.choice(best) if best else options[0]


@dataclass
class _Node:
    player: str = ""              # who made the move leading here
    move: Move | None = None
    parent: _Node | None = None
    children: dict = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    reward: float = 0.0


def _ucb(child: _Node, seat: str, seen: list[float], c: float) -> float:
    """UCB1 with the availability count of ISMCTS, the mean scaled to [0, 1] by the values seen."""
    low, high = seen
    span = high - low
    mean = child.reward / child.visits
    if span <= 1e-9:
        q = 0.5
    else:      # the opponent's nodes hold 1 - value: their range is [1 - high, 1 - low]
        q = (mean - (low if child.player == seat else 1.0 - high)) / span
    return q + c * math.sqrt(math.log(max(child.available, 1)) / child.visits)


def _ismcts(ai: GameAI, state: Any, seat: str, options: list[Move], rng: Rng, lvl: Level,
            deadline: Callable[[], bool] | None) -> Move:
    root, legal_root = search(ai, state, seat, options, rng, lvl, deadline)
    tried = [(m, ch) for m, ch in root.children.items() if ch is not None and m in legal_root]
    if not tried:
        return _random(ai, state, seat, [m for m in options if m in legal_root] or options, rng)
    most = max(ch.visits for _, ch in tried)
    best = [m for m, ch in tried if ch.visits == most]
    return best[0] if len(best) == 1 else max(best, key=lambda m: root.children[m].reward)


def search(ai: GameAI, state: Any, seat: str, options: list[Move], rng: Rng, lvl: Level,
           deadline: Callable[[], bool] | None = None) -> tuple[_Node, set[Move]]:
    """The search tree's root after the level's iterations, and the root moves still known legal."""
    root = _Node()
    legal_root = set(options)
    # The evaluations a search sees lie in a narrow band (Klash!, Carnevale: a few hundredths apart
    # between moves), while UCB1's constant assumes rewards spread over [0, 1]: unscaled, exploration
    # outweighs every difference and the visits stay uniform whatever the budget, so more iterations
    # bought nothing. Means are scaled by the range of values seen so far (min-max, as MuZero does).
    seen = [1.0, 0.0]                      # lowest and highest value seen at a leaf
    sample = ai.worlds(state, seat)
    for _ in range(lvl.iterations):
        if deadline is not None and deadline():
            break
        world = sample(rng)
        node = root
        try:
            # selection and expansion over the moves this world allows (played in place: the world
            # is this iteration's own; a move the rules refuse spoils it and ends the iteration)
            while not _terminal(ai, world):
                prompts: dict[str, Prompt] | None = None
                if node is root:      # the root's options are the real state's, not this world's prompts
                    player, here = seat, options
                else:
                    player, here, prompts = turn(ai, world, rng)
                if not here:
                    break
                for m in here:
                    child = node.children.get(m)
                    if child is not None:
                        child.available += 1
                untried = [m for m in here if m not in node.children]
                if untried:
                    m = untried[rng.below(len(untried))]
                    try:
                        world = _advance(ai, world, player, m, prompts)
                    except _Spoiled:
                        if node is root:
                            legal_root.discard(m)
                        node.children[m] = None     # never legal in this set: skip it for good
                        raise
                    child = _Node(player=player, move=m, parent=node, available=1)
                    node.children[m] = child
                    node = child
                    break
                live = [node.children[m] for m in here if node.children[m] is not None]
                if not live:
                    break
                child = max(live, key=lambda ch: _ucb(ch, seat, seen, lvl.exploration))
                world = _advance(ai, world, player, child.move, prompts)
                node = child
            # rollout
            for _step in range(lvl.rollout):
                if _terminal(ai, world):
                    break
                nxt = _random_step(ai, world, rng)
                if nxt is None:
                    break
                world = nxt
        except _Spoiled:
            continue
        value = ai.evaluate(world, seat)
        seen[0], seen[1] = min(seen[0], value), max(seen[1], value)
        while node is not None and node is not root:
            node.visits += 1
            node.reward += value if node.player == seat else 1.0 - value
            node = node.parent
        root.visits += 1
    return root, legal_root


def decide(ai: GameAI, state: Any, seat: str, lvl: Level | str, rng: Rng,
           deadline: Callable[[], bool] | None = None, only: str | None = None) -> Choose | None:
    """The seat's answer to its blocking prompt (or to one of its optional ones instead), or None when
    the seat has no blocking decision now. ``rng`` is consumed; ``deadline()`` True stops a search;
    ``only`` names the one prompt to answer (an engine playing one character of a seat)."""
    lvl = ai.tuned(level(lvl) if isinstance(lvl, str) else lvl)
    options = [m for m in moves(ai, state, seat, rng) if only is None or m[0] == only]
    if not options:
        return None
    if len(options) == 1:
        move = options[0]
    elif (own := ai.choose(state, seat, options, rng, lvl, deadline)) is not None:
        move = own
    elif lvl.strategy == "random":
        move = _random(ai, state, seat, options, rng)
    elif lvl.strategy == "greedy":
        move = _greedy(ai, state, seat, options, rng, lvl.samples)
    elif lvl.strategy == "ismcts":
        move = _ismcts(ai, state, seat, options, rng, lvl, deadline)
    else:
        raise IllegalAction("unknown_bot_strategy", strategy=lvl.strategy)
    return Choose(move[0], move[1])
