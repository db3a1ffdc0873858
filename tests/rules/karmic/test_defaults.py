"""Karmic for games played over days: each decision's rulebook default (rules/karmic/defaults.py), the
chapter and turning-point events, and the standing of a finished check and combat."""
import random

import pytest

from rules.common import Actor
from rules.karmic import ENGINE
from rules.karmic.actions import PlayCard

from ..days import accepted, defaults_to, emitted, first_of_each, play_through
from .helpers import DEVON, SOLDIER, declare, fight
ENRIS = {"name": "Enris", "attributes": {"awareness": 2, "finesse": 1}, "skills": {"tracking": 3}}
PLAYER_SOLDIER = dict(SOLDIER, npc=False)


def _check(stack, seed=1):
    out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": ENRIS, "player": "u1"},
                                "skill": "tracking", "attribute": "awareness", "stack": {"c1": stack}}, seed)
    return out.state


def _only(state, kind):
    return next(p for p in ENGINE.pending(state) if p.kind == kind)


def _accepted(state, p, ids):
    return accepted(ENGINE, state, p, ids)


def _random(rnd):
    def pick(state, prompts):
        p = rnd.choice(prompts)
        return p, (rnd.choice(p.options).id,)
    return pick


def _scan(seeds=range(20)):
    """The first (state, prompt) of each kind met in seeded random duels between two players."""
    return first_of_each(play_through(ENGINE, fight(DEVON, PLAYER_SOLDIER, b_player="u2", seed=seed)[0],
                                      _random(random.Random(seed)), most=300) for seed in seeds)


@pytest.fixture(scope="module")
def met():
    return _scan()


@pytest.mark.parametrize("kind, ids", [
    ("initiative_hit", ("stand",)), ("combat_hit", ("stand",)), ("offer", ("no",)),
    ("declare_card", ("back",)), ("declare_location", ("back",)), ("combat_joker", ("success",)),
    ("combat_joker_drawn", ("success",)), ("initiative_joker", ("win",)), ("hold", ("struggle",)),
])
def test_a_combat_default_is_the_rules_one_and_is_accepted(met, kind, ids):
    defaults_to(ENGINE, met, kind, ids)


def test_no_default_for_the_card_a_player_picks_from_his_draw(met):
    state, p = met["initiative"]
    assert ENGINE.default_choice(state, p) is None
    state = _check(["3H", "4H", "7H"])
    assert ENGINE.default_choice(state, _only(state, "play")) is None


def test_declaring_the_attacker_yields_first_then_stops_and_the_defender_passes():
    state, _ = fight(DEVON, PLAYER_SOLDIER, b_player="u2",
                     stack={"c1": ["2S", "KS", "2H", "10S"], "c2": ["4H", "QH", "5S"]})
    p = _only(state, "declare")
    assert ENGINE.default_choice(state, p) == ("hes",)           # §2.5: must declare one, or yield
    state, _ = declare(state, "atk", "KS")
    p = _only(state, "declare")
    assert p.player == "u2" and ENGINE.default_choice(state, p) == ("pass",)
    state = _accepted(state, p, ("pass",)).state
    p = _only(state, "declare")
    assert p.player == "u1" and ENGINE.default_choice(state, p) == ("stop",)   # §2.3 may leave some unused
    _accepted(state, p, ("stop",))


def test_a_check_stands_on_a_hit_and_the_joker_default_is_success():
    state = ENGINE.apply(_check(["KS", "2S", "3S"]), PlayCard("KS"), Actor("u1")).state
    p = _only(state, "hit")
    assert ENGINE.default_choice(state, p) == ("stand",)
    out = _accepted(state, p, ("stand",))
    assert out.state.check.sides[0].play.chain == [] and out.state.check.result["mt"] == 3 + 2
    state = ENGINE.apply(_check(["JK1", "2H", "3H"]), PlayCard("JK1"), Actor("u1")).state
    p = _only(state, "joker")
    assert ENGINE.default_choice(state, p) == ("success",)
    assert _accepted(state, p, ("success",)).state.check.result["success"]
    state.house_rules["joker_default"] = "failure"
    assert ENGINE.default_choice(state, p) == ("failure",)


def test_standing_of_a_check_names_its_success():
    state = ENGINE.apply(_check(["3S", "4S", "7S"]), PlayCard("7S"), Actor("u1")).state
    s = ENGINE.standing(state)
    assert s.result == "success" and s.winners == ("u1",) and s.data["margin"] == 7 + 2
    state = ENGINE.apply(_check(["5H", "4H", "3H"]), PlayCard("5H"), Actor("u1")).state
    s = ENGINE.standing(state)
    assert s.result == "failure" and s.winners == () and s.data["margin"] == -5 + 2


def test_standing_of_a_combat_names_the_one_left_standing():
    state, _ = fight(DEVON, PLAYER_SOLDIER, b_player="u2")
    assert ENGINE.standing(state).result == "unfinished"
    state.characters["c2"].hp_marked = state.characters["c2"].hp_max
    state.over = True
    s = ENGINE.standing(state)
    assert s.result == "won" and s.winners == ("u1",) and s.data["characters"] == ["c1"]


def test_every_chapter_and_turning_kind_is_an_event_of_the_engine():
    assert ENGINE.chapter_kinds | ENGINE.turning_kinds <= emitted("karmic")
