"""`copy.deepcopy` of a state copies by its type hints (`rules.common.serial._copier`): the same
state, sharing no more with the original than `copy.deepcopy`'s own walk does, in every game."""
from __future__ import annotations

import copy
import enum

import pytest

from rules.common.rng import Rng
from rules.common.serial import Serial
from tests.rules.test_player import GAMES, random_walk
from tests.support.duel import Duel

_IMMUTABLE = (str, int, float, bool, type(None), bytes, enum.Enum, frozenset)


def shared(a, b, path: str = "$") -> list[str]:
    """Where `b` holds the very same mutable object as `a` (or a value of another type)."""
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} vs {type(b).__name__}"]
    if isinstance(a, _IMMUTABLE):
        return []
    if a is b and not isinstance(a, tuple):
        return [path]
    if isinstance(a, dict):
        return [p for k in a for p in shared(a[k], b.get(k), f"{path}[{k!r}]")]
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return [f"{path}: length"]
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in shared(x, y, f"{path}[{i}]")]
    if isinstance(a, set):
        return []
    if hasattr(a, "__dict__"):
        return [p for k, v in vars(a).items() for p in shared(v, getattr(b, k, None), f"{path}.{k}")]
    return []


def states(name: str, seeds=(0, 1), steps=(0, 5, 25, 60)):
    engine, ai, _, start = GAMES[name]
    for seed in seeds:
        state, rng, walked = start(seed), Rng(seed), 0
        for target in steps:
            state = random_walk(ai, state, rng, target - walked)
            walked = target
            yield engine, state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_copy_is_the_same_state_and_shares_what_deepcopy_shared(name, monkeypatch):
    checked = 0
    for engine, state in states(name):
        typed = copy.deepcopy(state)
        with monkeypatch.context() as m:
            m.delattr(Serial, "__deepcopy__")
            walked = copy.deepcopy(state)
        assert engine.dump_state(typed) == engine.dump_state(state)
        assert shared(state, typed) == shared(state, walked)
        checked += 1
    assert checked == 8


def test_the_duels_copy_goes_by_its_hints_shares_nothing_and_changing_it_leaves_the_original(monkeypatch):
    state = Duel().setup(["1", "2"], {}, seed=7)
    # by the hints, without copy.deepcopy's reduce walk (which the same copy takes without them)
    rebuilt: list[object] = []
    walk = copy._reconstruct        # type: ignore[attr-defined]
    monkeypatch.setattr(copy, "_reconstruct", lambda x, *a, **k: rebuilt.append(x) or walk(x, *a, **k))
    copy.deepcopy(state)
    assert rebuilt == []
    with monkeypatch.context() as m:
        m.delattr(Serial, "__deepcopy__")
        copy.deepcopy(state)
    assert len(rebuilt) == 3        # the state, its Deck and its Rng
    before = state.to_dict()
    work = copy.deepcopy(state)
    assert shared(state, work) == []
    work.hands["1"].append("13")
    work.deck.cards.clear()
    work.scores["2"] = 99
    work.rng.next_u64()
    assert state.to_dict() == before and work.to_dict() != before
