"""Klash! for games played over days: each decision's rulebook default (rules/klash/defaults.py), the
chapter and turning-point events, and the standing of a finished game."""
import random

import pytest

from rules.klash import ENGINE
from rules.klash.actions import Activate, Assault, Disengage

from ..days import accepted, defaults_to, emitted, first_of_each, play_through
from .helpers import SAMPLE, A, B, Q, do, prompt, random_game, tskirmish


def _random(rnd):
    def pick(state, prompts):
        p = rnd.choice(prompts)
        ids = [o.id for o in p.options]
        if p.max_choices > 1 or p.min_choices == 0:
            return p, tuple(rnd.sample(ids, rnd.randint(p.min_choices, p.max_choices)))
        return p, (rnd.choice([i for i in ids if i != "back"] or ids),)
    return pick


def _scan(seeds=range(6)):
    """The first (state, prompt) of each kind met in seeded random games."""
    return first_of_each(play_through(ENGINE, ENGINE.new_game([A, B], SAMPLE, seed=seed), _random(random.Random(seed)))
                         for seed in seeds)


@pytest.fixture(scope="module")
def met():
    return _scan()


def _accepted(state, p, ids):
    return accepted(ENGINE, state, p, ids)


@pytest.mark.parametrize("kind, ids", [
    ("respond", ("pass",)), ("event_target", ("back",)), ("swap", ("keep",)), ("act", ("end",)),
    ("extra_activation", ("no",)), ("reroll_defence", ("no",)), ("reroll_tenacity", ("no",)),
    ("reroll_test", ("no",)),
])
def test_a_default_is_the_rules_pass_and_is_accepted(met, kind, ids):
    defaults_to(ENGINE, met, kind, ids)


def test_swap_keeps_the_whole_hand(met):
    state, p = met["swap"]
    out = _accepted(state, p, ENGINE.default_choice(state, p))
    assert not [e for e in out.events if e.kind == "event_swap" and e.data.get("n")]


@pytest.mark.parametrize("kind", ["pick", "team", "deploy", "spot", "initiative", "activate", "target",
                                  "hand", "free_second"])
def test_choices_that_are_the_game_itself_have_no_default(met, kind):
    state, p = met[kind]
    assert ENGINE.default_choice(state, p) is None


def test_counterattack_and_fury_are_declined():
    state = tskirmish([(Q("counterattack"), 50, 30)], [("plain", 53, 30), ("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Disengage("m1", 46, 30), dice=[2, 5])
    p = prompt(state, "free")
    assert p.kind == "free_counter" and ENGINE.default_choice(state, p) == ("no",)
    out = _accepted(state, p, ("no",))
    assert out.state.model("m1").x == 46           # declined: it walks away
    state = tskirmish([(Q("fury"), 30, 30)], [("plain", 33, 30), ("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Assault("m1", "m2"), dice=[5, 3, 4])
    p = prompt(state, "free")
    assert p.kind == "free_fury" and ENGINE.default_choice(state, p) == ("no",)
    _accepted(state, p, ("no",))


def test_a_madman_bound_to_attack_has_no_default_end():
    state, p = _scan(range(1))["act"]
    bound = type(p)(**{**p.__dict__, "options": tuple(o for o in p.options if o.id != "end")})
    assert ENGINE.default_choice(state, bound) is None


def test_standing_names_the_winner_and_the_vp():
    state, _, _ = random_game(3)
    s = ENGINE.standing(state)
    assert s.winners == (state.winner,) and s.result == "won" and s.data["how"] == state.result
    assert s.scores == {A: state.vp[A], B: state.vp[B]}
    if state.result == "hourglass8" and state.vp[A] != state.vp[B]:
        assert state.winner == max((A, B), key=lambda p: state.vp[p])     # §3.10 the higher total wins
    fresh = ENGINE.new_game([A, B], SAMPLE, seed=3)
    assert ENGINE.standing(fresh).result == "unfinished" and ENGINE.standing(fresh).winners == ()


def test_an_annihilation_wins_whatever_the_vp():
    state = tskirmish([("plain", 30, 30)], [("plain", 33, 30)])
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Assault("m1", "m2"), dice=[6, 1, 1])      # Massacre: B has no model left
    assert state.over
    s = ENGINE.standing(state)
    assert s.winners == (A,) and s.data["how"] == "annihilation" and s.scores[A] == 2 * 4


def test_every_chapter_and_turning_kind_is_an_event_of_the_engine():
    assert ENGINE.chapter_kinds | ENGINE.turning_kinds <= emitted("klash")
    _, _, log = random_game(3, keep_events=True)
    seen = {e.kind for _, events in log for e in events}
    assert ENGINE.chapter_kinds <= seen and "removed" in seen
