"""Action restrictions from §3.3–§3.5 not covered by a worked example."""
import pytest

from rules.klash.actions import Activate, Assault, Charge, Move, Volley

from .helpers import do, kinds, prompt, tskirmish, illegal


def test_move_then_charge_and_charge_reach():
    state = tskirmish([("plain", 30, 30)], [("plain", 50, 30)])
    state, _ = do(state, Activate("m1"))
    with illegal("beyond_charge_reach", speed=10):
        do(state, Charge("m1", "m2"))
    state, _ = do(state, Move("m1", 38, 30))
    state, ev = do(state, Charge("m1", "m2"), dice=[1, 6])
    assert kinds(ev, "charged") and state.model("m1").x == pytest.approx(47)


def test_moves_cannot_make_contact_only_charges_can():
    state = tskirmish([("plain", 40, 30)], [("plain", 50, 30)])
    state, _ = do(state, Activate("m1"))
    with illegal("path_near_enemy"):
        do(state, Move("m1", 47, 30))
    with illegal("not_enemy_in_contact"):
        do(state, Assault("m1", "m2"))


def test_engaged_models_cannot_move_or_charge():
    state = tskirmish([("plain", 50, 30)], [("plain", 53, 30), ("plain", 50, 40)])
    state, _ = do(state, Activate("m1"))
    with illegal("engaged_must_disengage"):
        do(state, Move("m1", 45, 30))
    with illegal("engaged_no_charge"):
        do(state, Charge("m1", "m3"))
    ids = [o.id for o in prompt(state, "act").options]
    assert "dis" in ids and "mv" not in ids and "ch" not in ids


def test_contact_with_only_stunned_enemies_is_not_engagement():
    state = tskirmish([("plain", 50, 30)], [("plain", 53, 30)])
    state.model("m2").stunned = True
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Move("m1", 45, 30))
    assert state.model("m1").x == 45 and not kinds(ev, "roll")


def test_volley_restrictions():
    # shooter in contact with an enemy
    state = tskirmish([("shooter", 50, 30)], [("plain", 53, 30), ("plain", 50, 40)])
    state, _ = do(state, Activate("m1"))
    with illegal("shooter_engaged"):
        do(state, Volley("m1", "m3"))
    # target in contact with the shooter's ally
    state = tskirmish([("shooter", 30, 30), ("plain", 47, 30)], [("plain", 50, 30)])
    state, _ = do(state, Activate("m1"))
    with illegal("target_in_friendly_contact"):
        do(state, Volley("m1", "m3"))
    # the Altar blocks line of sight
    state = tskirmish([("shooter", 50, 60)], [("plain", 70, 60)])
    state, _ = do(state, Activate("m1"))
    with illegal("shot_not_in_sight"):
        do(state, Volley("m1", "m2"))
