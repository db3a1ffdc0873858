"""bench/judge.py: where levels choose alike there is nothing to judge; a level spec may set iterations."""
from __future__ import annotations

from bench import judge
from bench.strength import games
from rules.common.player import deciders, level


def test_a_level_spec_names_a_level_and_may_set_its_iterations():
    assert judge.lvl_of("hard@600").iterations == 600 and judge.lvl_of("hard@600").name == "hard"
    assert judge.lvl_of("normal") == level("normal")


def test_two_alike_levels_differ_nowhere():
    ai, make = games()["klash-skirmish"]
    state = make(1)
    decisions = [(state, deciders(ai, state)[0])] * 3
    same = judge.judge(ai, decisions, ["greedy", "greedy@0"], 20)
    assert (same["decisions"], same["differ"]) == (3, 0)
    assert same["levels"]["greedy"]["advantage"] == 0.0


def test_where_levels_differ_the_judge_names_one_better_and_one_worse():
    """Seeded: of three tries at the quick match's first decision, random and greedy differ once,
    and the judge's search values greedy's choice above random's."""
    ai, make = games()["klash-skirmish"]
    state = make(1)
    got = judge.judge(ai, [(state, deciders(ai, state)[0])] * 3, ["random", "greedy"], 20)
    assert got["differ"] == 1
    assert [(got["levels"][s]["best"], got["levels"][s]["worst"]) for s in ("random", "greedy")] == [(0, 1), (1, 0)]
    assert got["levels"]["greedy"]["advantage"] == -got["levels"]["random"]["advantage"] > 0
