"""Helpers of the tests of games played over days (each game's test_defaults.py): a seeded game
played to its end that keeps the first decision of each kind, and the checks every game shares."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from rules.common import GM, Actor, Choose, IllegalAction, Prompt

RULES = Path(__file__).parents[2] / "rules"


def play_through(engine, state, pick: Callable[[object, list[Prompt]], tuple[Prompt, tuple[str, ...]]],
                 most: int = 5000):
    """Play `state` to its end (or `most` steps), `pick` answering: the first (state, prompt) of each
    kind met, the end state and the kinds of every event. A refused answer is skipped."""
    found: dict[str, tuple[object, Prompt]] = {}
    kinds: set[str] = set()
    for _ in range(most):
        prompts = engine.pending(state)
        if engine.is_over(state) or not prompts:
            break
        for p in prompts:
            found.setdefault(p.kind, (state, p))
        p, ids = pick(state, prompts)
        try:
            out = engine.apply(state, Choose(p.id, ids), Actor(p.player, gm=p.player == GM))
        except IllegalAction:
            continue
        state, kinds = out.state, kinds | {e.kind for e in out.events}
    return found, state, kinds


def first_of_each(games: Iterable[tuple[dict, object, set]]) -> dict:
    """The first (state, prompt) of each kind over several played games."""
    found: dict = {}
    for first, _, _ in games:
        for kind, seen in first.items():
            found.setdefault(kind, seen)
    return found


def accepted(engine, state, prompt: Prompt, ids: tuple[str, ...]):
    """Apply the answer as the prompt's player: accepted, and the prompt is answered."""
    out = engine.apply(state, Choose(prompt.id, ids), Actor(prompt.player, gm=prompt.player == GM))
    assert prompt.id not in [q.id for q in engine.pending(out.state)]
    return out


def defaults_to(engine, met: dict, kind: str, ids: tuple[str, ...]):
    """The first `kind` decision met: its rulebook default is `ids`, and the rules accept it."""
    assert kind in met, f"no {kind} decision in these games"
    state, prompt = met[kind]
    assert engine.default_choice(state, prompt) == ids
    return accepted(engine, state, prompt, ids)


def emitted(game: str, pattern: str = r'(?:say|Event)\((?:out, )?"([a-z_]+)"') -> set[str]:
    """The event kinds a game's source emits by name (its defaults module left out)."""
    source = "\n".join(p.read_text() for p in (RULES / game).rglob("*.py") if p.name != "defaults.py")
    return set(re.findall(pattern, source))
