"""A look through one's own run of decisions: what Klash!'s bot plays at ``normal`` and ``hard``.

A Klash! turn is a chain of one player's prompts: activate a model, pick its action, pick the target
or the destination, then the second action... A one-ply look (``greedy``) scores each link alone, so it
cannot tell a Charge from a Move (choosing the action changes nothing yet) and picks among them at
random; the tree search (``ismcts``) spread its 48 iterations over 10-30 root options, 1-4 visits
each, and played a noisier one-ply (it beat greedy in 5 of 9 full matches). Here every root option is
followed through the seat's own next decisions (``depth`` of them at most) until the other side must
decide, and only then scored by the evaluation: a Charge is worth its best target.

It never peeks: the worlds are ``ai.worlds(state, seat)`` samples, and a choice is made once for all
the worlds the seat cannot yet tell apart: a follow-up is chosen per group of worlds offering the
same options (a die already rolled, a model already fallen shows in them), never per world, or the
look would pick in each world the target whose dice it already knows came up well.

The machinery is game-agnostic (only ``GameAI``'s hooks); it lives with Klash! because
``rules/common`` is frozen this session (a long pinned Carnevale run hashes it).
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rules.common.engine import Prompt
from rules.common.player import GameAI, Level, Move, _advance, _Spoiled, search, turn
from rules.common.rng import Rng


def pick(ai: GameAI, state: Any, seat: str, options: list[Move], rng: Rng, lvl: Level,
         deadline: Callable[[], bool] | None, worlds: int, depth: int, keep: int) -> Move:
    """The look's best option, or (``keep`` > 1) the one the level's tree search prefers among the
    ``keep`` the look ranks best: the search sees further (the other side's replies, random moves
    after) but spread over all of a root's 10-30 options it gave each 1-4 visits, a noisy one-ply."""
    best, values = look(ai, state, seat, options, rng, worlds, depth, deadline)
    ranked = sorted(values, key=lambda m: -values[m])[:keep]
    if len(ranked) <= 1:
        return best
    root, legal = search(ai, state, seat, ranked, rng, lvl, deadline)
    tried = [(m, ch) for m, ch in root.children.items() if ch is not None and m in legal and ch.visits]
    if not tried:
        return best
    most = max(ch.visits for _, ch in tried)
    return max((m for m, ch in tried if ch.visits == most), key=lambda m: (root.children[m].reward, values[m]))


def look(ai: GameAI, state: Any, seat: str, options: list[Move], rng: Rng, worlds: int, depth: int,
         deadline: Callable[[], bool] | None = None) -> tuple[Move, dict[Move, float]]:
    """The best of ``options`` for ``seat`` by the mean over ``worlds`` sampled worlds of what its
    best run of next decisions reaches (``depth`` of them at most), and every option's value."""
    sample = ai.worlds(state, seat)
    sampled = [sample(rng) for _ in range(max(1, worlds))]
    prompts = [{p.id: p for p in ai.engine.pending(w)} for w in sampled]
    values: dict[Move, float] = {}
    for move in options:
        if deadline is not None and values and deadline():
            break
        value = _after(ai, sampled, prompts, seat, move, depth, rng)
        if value is not None:
            values[move] = value
    if not values:
        return options[0], values
    top = max(values.values())
    best = [m for m, v in values.items() if v >= top - 1e-12]
    return (best[0] if len(best) == 1 else rng.choice(best)), values


def _play(ai: GameAI, world: Any, seat: str, move: Move, prompts: dict[str, Prompt]) -> Any | None:
    """``move`` played in a copy of ``world`` (None if the rules refuse it), without looking its
    prompt up again: ``pending`` is most of a step's cost, and the caller has just computed it.
    (The search's own step, on a copy: ``player._advance`` plays in place.)"""
    try:
        return _advance(ai, copy.deepcopy(world), seat, move, prompts)
    except _Spoiled:
        return None


def _after(ai: GameAI, worlds: list[Any], prompts: list[dict[str, Prompt]], seat: str, move: Move, depth: int,
           rng: Rng) -> float | None:
    """The mean value of ``move`` played in every world, then the seat's best joint run of decisions;
    None when the rules refuse it in a world (a multi-choice the prompt cannot check, e.g. a team)."""
    nexts = []
    for world, here in zip(worlds, prompts):
        after = _play(ai, world, seat, move, here)
        if after is None:
            return None
        nexts.append(after)
    return sum(_run(ai, nexts, seat, depth, rng)) / len(nexts)


def _run(ai: GameAI, worlds: list[Any], seat: str, depth: int, rng: Rng) -> list[float]:
    """Each world's value when the seat plays on, jointly within each group of worlds offering it the
    same options, for at most ``depth`` more decisions; a world where the seat does not decide now
    (the other side's reply, the game over) is scored as it stands."""
    values = [0.0] * len(worlds)
    groups: dict[tuple[Move, ...], list[int]] = {}
    prompts: list[dict[str, Prompt]] = []
    for i, world in enumerate(worlds):
        player, options, here = (None, [], {}) if depth <= 0 or ai.engine.is_over(world) else turn(ai, world, rng)
        prompts.append(here)
        if player != seat or not options:
            values[i] = ai.evaluate(world, seat)
        else:
            groups.setdefault(tuple(options), []).append(i)
    for offered, members in groups.items():
        group = [worlds[i] for i in members]
        best: list[float] | None = None
        for move in offered:
            nexts = []
            for i in members:
                after = _play(ai, worlds[i], seat, move, prompts[i])
                if after is None:
                    break
                nexts.append(after)
            if len(nexts) < len(group):
                continue
            got = _run(ai, nexts, seat, depth - 1, rng)
            if best is None or sum(got) > sum(best) + 1e-12:
                best = got
        if best is None:
            best = [ai.evaluate(w, seat) for w in group]
        for i, v in zip(members, best):
            values[i] = v
    return values
