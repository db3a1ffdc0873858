"""Carnival Zombie for games played over days: each decision's rulebook default
(rules/carnival_zombie/defaults.py), the chapter and turning-point events, and the group's standing."""
import random

import pytest

from rules.carnival_zombie import ENGINE
from rules.common import Actor, Choose, Option, Prompt

from ..days import defaults_to, emitted, first_of_each, play_through
from .policies import sensible_policy


def _play(seed, difficulty="easy", seats=2):
    """A sensible campaign: the first (state, prompt) of each kind, the end state and every event kind."""
    policy = sensible_policy(random.Random(seed))
    return play_through(ENGINE, ENGINE.new_game([f"u{i}" for i in range(seats)], {"difficulty": difficulty}, seed),
                        lambda s, prompts: (prompts[0], (policy(s, prompts[0]),)))


@pytest.fixture(scope="module")
def games():
    return [_play(seed) for seed in range(8)]


@pytest.fixture(scope="module")
def met(games):
    return first_of_each(games)


@pytest.mark.parametrize("kind, ids", [
    ("setup", ("start",)), ("story", ("hide",)), ("dayact", ("rest",)), ("act", ("end",)),
    ("barricades", ("even",)), ("attack", ("auto",)), ("dawn_asl", ("pass",)),
])
def test_a_default_is_the_rules_one_and_is_accepted(met, kind, ids):
    defaults_to(ENGINE, met, kind, ids)


def test_the_group_stops_moving_unless_the_first_move_is_forced(met):
    s, p = met["move"]
    ids = [o.id for o in p.options]
    assert ENGINE.default_choice(s, p) == (("stop",) if "stop" in ids else None)
    if "stop" in ids:
        ENGINE.apply(s, Choose(p.id, ("stop",)), Actor(p.player))


def test_a_rest_takes_two_stress_off(met):
    s, p = met["dayact"]
    who = s.ask["char"]
    before = next(ch.stress for ch in s.characters if ch.id == who)
    out = ENGINE.apply(s, Choose(p.id, ENGINE.default_choice(s, p)), Actor(p.player))
    assert next(ch.stress for ch in out.state.characters if ch.id == who) == max(0, before - 2)   # §4.3


@pytest.mark.parametrize("kind", ["story_boss", "target", "enter", "paranoia", "finale", "dawn_exit"])
def test_choices_that_are_the_game_itself_have_no_default(met, kind):
    assert kind in met, f"no {kind} in these campaigns"
    s, p = met[kind]
    assert ENGINE.default_choice(s, p) is None


def test_a_timed_click_is_never_answered_for_anyone(met):
    """The pile's honour drop is a dexterity fact (`confirm`): no default, whatever it offers."""
    s, _ = met["move"]
    honour = Prompt.ask("pile_honour", {}, "1", [Option.of("drop", "drop")], confirm=True)
    assert ENGINE.default_choice(s, honour) is None


def test_standing_names_the_group_on_a_win_and_nobody_on_a_loss(games):
    ends = [s for _, s, _ in games]
    won = next(s for s in ends if s.result == "win")
    st = ENGINE.standing(won)
    assert st.result == "won" and st.winners == tuple(won.seats)
    assert st.scores == {p: won.score["total"] for p in won.seats}
    assert won.score["total"] == sum(v for k, v in won.score.items() if k != "total")   # §4.10
    lost = next(s for s in ends if s.result == "loss")
    st = ENGINE.standing(lost)
    assert st.result == "lost" and st.winners == () and st.data["reason"] == lost.reason
    assert ENGINE.standing(ENGINE.new_game(["u0"], {}, 1)).result == "unfinished"


def test_every_chapter_and_turning_kind_is_an_event_of_the_engine(games):
    assert ENGINE.chapter_kinds | ENGINE.turning_kinds <= emitted("carnival_zombie", r'say\("([a-z_]+)"')
    seen = set().union(*(kinds for _, _, kinds in games))
    assert ENGINE.chapter_kinds <= seen and "incapacitated" in seen
