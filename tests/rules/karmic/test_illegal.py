"""Illegal declarations are refused with a clear reason and change nothing."""
import pytest

from rules.common import Actor, Choose, IllegalAction, NotYourTurn
from rules.karmic import ENGINE
from rules.karmic.actions import Declare

from .helpers import DEVON, SOLDIER, declare, fight, refused_as
from tests.rules.karmic.helpers import why_said

BRAWLER = {"name": "Brawler", "skills": {"brawling": 3}}
SPEARMAN = {"name": "Spearman", "skills": {"spear": 2},
            "weapons": [{"name": "Spear", "skill": "spear", "range": 2, "max_maneuvers": 2}], "wielding": ["Spear"]}


def refused(state, action, actor, match):
    before = state.to_json()
    with refused_as(match):
        ENGINE.apply(state, action, actor)
    assert state.to_json() == before


def _t4():
    return fight(DEVON, SOLDIER, stack={"c1": ["2S", "KS", "2H", "10S"], "c2": ["4H", "QH", "5S"]})[0]


def test_no_card_left():
    """T4 register 3: the soldier has no card left; Devon still declares his disarm."""
    state = _t4()
    state, _ = declare(state, "atk", "KS")
    state, _ = declare(state, "par", "5S")
    state, _ = declare(state, "atk", "2H")
    state, _ = declare(state, "par", "QH")
    assert state.combat.turn.who == "c1" and state.combat.reg == 3
    refused(state, Declare("par", "5S", combatant="c2"), Actor("gm", gm=True), "You have no card left for register 3.")
    assert why_said(state, "c2", "par", 0, "attack", -1) == "You have no card left for register 3."


def test_not_a_card_in_hand_and_wrong_player():
    state = _t4()
    refused(state, Declare("atk", "QH"), Actor("u1"), "That card is not in your hand.")
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, Declare("atk", "KS"), Actor("u2"))


def test_maneuver_cap_reached():
    axe = {"name": "Axeman", "skills": {"ax": 4},
           "weapons": [{"name": "Medium Axe", "skill": "ax", "range": 1, "max_maneuvers": 2}],
           "wielding": ["Medium Axe"]}
    state, _ = fight(axe, SOLDIER, stack={"c1": ["10S", "2S", "3S", "4S", "5S"], "c2": ["10H", "AH", "2H"]})
    state, _ = declare(state, "atk", "2S")
    state, _ = declare(state, "pass")
    state, _ = declare(state, "atk", "3S")
    state, _ = declare(state, "pass")
    # register 3: the axe has made its 2 maneuvers — no axe maneuver is offered, and refused if sent
    assert state.combat.turn.who == "c1" and state.combat.reg == 3
    ids = [o.id for o in ENGINE.pending(state)[0].options]
    assert not any(i.endswith(".0") or ".0." in i for i in ids) and "stop" in ids
    refused(state, Declare("atk", "4S"), Actor("u1"), "Medium Axe has already made its 2 maneuver")


def test_needs_the_initiative():
    state = _t4()
    state, _ = declare(state, "atk", "KS")
    # the soldier (defender) tries to attack instead of answering
    refused(state, Declare("atk", "5S"), Actor("gm", gm=True), "Attack needs the initiative.")


def test_out_of_reach():
    state, _ = fight(DEVON, SPEARMAN, stack={"c1": ["10S", "2S", "3S", "4S"], "c2": ["10H", "AH", "2H"]},
                     b_player="u2")
    assert state.combat.engagements[0].range == 2
    refused(state, Declare("atk", "2S"), Actor("u1"), r"Your Sword \(reach 1\) cannot reach at range 2.")


def test_wrestling_only_maneuver_at_range_1():
    state, _ = fight(BRAWLER, dict(BRAWLER, name="Other"), stack={"c1": ["10S", "2S", "3S", "4S"],
                                                                  "c2": ["10H", "AH", "2H", "3H"]},
                     b_player="u2", range=1)
    for man in ("suf", "pin", "bash", "gouge"):
        refused(state, Declare(man, "2S"), Actor("u1"), "can only be used at wrestling range \\(the range is 1\\)")


def test_prompt_offers_only_legal_maneuvers():
    state, _ = fight(BRAWLER, dict(BRAWLER, name="Other"), stack={"c1": ["10S", "2S", "3S", "4S"],
                                                                  "c2": ["10H", "AH", "2H", "3H"]},
                     b_player="u2", range=1)
    p = ENGINE.pending(state)[0]
    ids = {o.id.split(".")[0] for o in p.options}
    assert "suf" not in ids and "hatk" not in ids and "hlng" in ids and "tckl" in ids
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, Choose(p.id, ("suf.h",)), Actor("u1"))


def test_once_per_round_limits():
    shieldman = {"name": "Mara", "skills": {"ax": 3, "shield": 3},
                 "weapons": [{"name": "Axe", "skill": "ax", "range": 0, "max_maneuvers": 2},
                             {"name": "Buckler", "skill": "shield", "range": 0, "max_maneuvers": 2,
                              "shield": True, "small_shield": True}], "wielding": ["Axe", "Buckler"]}
    state, _ = fight(shieldman, dict(SOLDIER, weapons=[{"name": "Knife", "skill": "dagger", "range": 0}],
                                     wielding=["Knife"], skills={"dagger": 3}),
                     stack={"c1": ["10S", "2S", "3S", "4S"], "c2": ["10H", "AH", "2H", "3H"]}, range=0)
    state, _ = declare(state, "sbash", "2S")
    state, _ = declare(state, "pass")
    refused(state, Declare("sbash", "3S"), Actor("u1"), "Only one Shield Bash per round.")
