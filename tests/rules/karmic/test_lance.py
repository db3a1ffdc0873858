"""The lance in a joust: one particular target once every 4 rounds (rulebook seed 004 L846)."""
import pytest

from i18n.present import Presenter

from rules.common import Actor, IllegalAction
from rules.karmic import ENGINE
from rules.karmic.actions import Declare
from rules.karmic.combat import why_illegal

from .helpers import fight


def rider(name, **extra):
    d = {"name": name, "skills": {"lance": 3, "sword": 2},
         "weapons": [{"name": "Lance", "skill": "lance", "range": 3, "force": 0, "max_maneuvers": 3, "edge": 2,
                      "max_damage": 6},
                     {"name": "Long Lance", "skill": "lance", "range": 3, "force": 0, "max_maneuvers": 3,
                      "edge": 2, "max_damage": 6}],
         "wielding": ["Lance", "Long Lance"]}
    d.update(extra)
    return d


def joust():
    stack = {"c1": ["10S", "5S", "6S", "7S"], "c2": ["10H", "2H", "3H", "4H"]}
    return fight(rider("Ulrich"), rider("Adhemar"), stack=stack, b_player="u2")[0]


def test_a_lance_attacks_one_target_once_every_4_rounds():
    state = joust()
    assert state.combat.engagements[0].range == 3 and state.combat.turn.who == "c1"
    state = ENGINE.apply(state, Declare("atk", "5S", weapon="Lance"), Actor("u1")).state
    state = ENGINE.apply(state, Declare("pass"), Actor("u2")).state
    assert state.combat.fighters["c1"].lance_rounds == {"c2": 1}
    # register 2 of the same round: the same target again, even with his other lance, is refused
    for weapon in ("Lance", "Long Lance"):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, Declare("atk", "6S", weapon=weapon), Actor("u1"))
        assert err.value.code == "lance_once_every_4_rounds"
        assert err.value.params == {"target": "Adhemar", "last": 1, "round": 5, "every": 4}
    assert Presenter("en", "karmic").error(err.value) == (
        "A lance attacks one target once every 4 rounds: Adhemar again from round 5 (last attacked in round 1).")
    # and no lance attack on him is offered on the declaring prompt
    offered = [o.id for p in ENGINE.pending(state) for o in p.options]
    assert not [o for o in offered if o.startswith(("atk.", "lng.", "darm."))]


@pytest.mark.parametrize("now, allowed", [(2, False), (4, False), (5, True), (9, True)])
def test_the_next_lance_attack_comes_4_rounds_later(now, allowed):
    state = joust()
    state.combat.fighters["c1"].lance_rounds = {"c2": 1}
    state.combat.round = now
    reason = why_illegal(state, "c1", "atk", 0, "attack", -1)
    assert (reason is None) is allowed
    if not allowed:
        code, params = reason                     # why_illegal: a code and its parameters
        assert params["round"] == 5


def test_a_weapon_of_another_skill_is_not_limited():
    with_sword = rider("Ulrich", weapons=[{"name": "Spear", "skill": "spear", "range": 3, "max_maneuvers": 3,
                                           "edge": 1, "max_damage": 4}], wielding=["Spear"])
    other = fight(with_sword, rider("Adhemar"), stack={"c1": ["10S", "5S"], "c2": ["10H", "2H"]}, b_player="u2")[0]
    other.combat.fighters["c1"].lance_rounds = {"c2": 1}
    assert why_illegal(other, "c1", "atk", 0, "attack", -1) is None


def test_a_lance_shot_has_no_distance_modifier():
    # L846: "considered a range attack with no modifier for distance" — whatever the distance
    lancer = {"name": "Ulrich", "skills": {"lance": 2},
              "weapons": [{"name": "Lance", "skill": "lance", "ranged": True, "range": 40, "force": 1,
                           "max_damage": 6, "edge": 2}]}
    def shot(distance):
        return ENGINE.start(["u1"], {"mode": "check", "actor": {"character": lancer, "player": "u1"},
                                     "ranged": {"weapon": "Lance", "distance": distance}}, 1).state
    assert shot(2).check.sides[0].modifier == shot(35).check.sides[0].modifier == 1     # force +1 only
    spear = dict(lancer, weapons=[dict(lancer["weapons"][0], skill="spear_throwing")], skills={"spear_throwing": 2})
    far = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": spear, "player": "u1"},
                                "ranged": {"weapon": "Lance", "distance": 35}}, 1).state
    assert far.check.sides[0].modifier == 1 - 6                                          # long range −6
