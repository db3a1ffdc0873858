"""Entangling limbs, Chop and Swat (rulebook seed 004 L56, L68; digest §3.5, A13)."""
import pytest

from rules.common import Actor, IllegalAction
from rules.karmic import ENGINE
from rules.karmic.actions import Declare
from rules.karmic.combat import maneuver_mod, why_illegal
from rules.karmic.state import Decl

from .helpers import outcomes, said
from .test_maneuvers import RAT, duel, run, sw

KRAKEN = {"name": "Kraken", "size": 4, "attributes": {"fortitude": 3, "might": 2}, "skills": {"brawling": 3},
          "weapons": [{"name": "Tentacle", "skill": "brawling", "range": 0, "max_maneuvers": 3, "edge": 0,
                       "max_damage": 2, "entangles": True, "vitality": 2}],
          "wielding": ["Tentacle"]}


def test_a_hit_by_an_entangling_limb_holds_its_victim():
    state, _ = duel(sw("Hero", wielding=["Dagger"]), KRAKEN, ["2H", "3H", "4H"], ["5S", "6S", "7S"],
                    a_init=False, range=0)
    state, ev = run(state, ("atk", "5S"), ("pass", ""), ("stop", ""))
    assert outcomes(ev)[0]["success"]
    assert state.combat.fighters["c1"].entangled_by == {"c2": 2}


def test_chop_frees_the_victim_with_minus_the_limbs_vitality():
    state, _ = duel(sw("Hero", wielding=["Dagger"]), KRAKEN, ["5S", "6S", "7S"], ["2H", "3H", "4H"], range=0)
    state.combat.fighters["c1"].entangled_by = {"c2": 2}
    # L56: the modifier is the vitality of the entangling appendage (2), not the Kraken's Fortitude (3)
    assert maneuver_mod(state, Decl("c1", "chop", "5S", "c2"), "c2") == -2
    state, ev = run(state, ("chop", "5S", {"weapon": "Dagger"}), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 5 + 1 - 2 and o["success"]                 # card + dagger force − vitality
    assert state.combat.fighters["c1"].entangled_by == {}


def test_chop_is_refused_when_the_creature_holds_nobody():
    state, _ = duel(sw("Hero", wielding=["Dagger"]), KRAKEN, ["5S", "6S", "7S"], ["2H", "3H", "4H"], range=0)
    reason = why_illegal(state, "c1", "chop", 0, "attack", -1)
    assert reason == ("nobody_entangled", {"target": "Kraken"})       # a code and its parameters
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, Declare("chop", "5S", weapon="Dagger"), Actor("u1"))
    assert err.value.code == "nobody_entangled"


def test_a_swat_pushes_the_target_back_by_the_damage_in_feet():
    # L68: no damage; pushed back a number of feet equal to the damage the weapon would have done
    ogre = {"name": "Ogre", "size": 2, "skills": {"impact_weapon": 3},
            "weapons": [{"name": "Mace", "skill": "impact_weapon", "range": 0, "max_maneuvers": 3, "edge": 1,
                         "max_damage": 8, "impact": True}], "wielding": ["Mace"]}
    state, _ = duel(ogre, RAT, ["7S", "6S", "8S"], ["2H", "3H"], range=0)
    state, ev = run(state, ("swat", "7S"), ("pass", ""))
    assert "swatted 8 feet away (range +2)" in " ".join(said(e) for e in ev)     # 7 + 1 edge = 8 feet
    assert state.characters["c2"].hp_marked == 0
    assert state.combat.engagements[0].range == 2                              # 8 ft = 2 whole yards
