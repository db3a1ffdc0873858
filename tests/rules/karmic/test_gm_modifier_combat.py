"""The GM's modifiers in combat (digest §1.7 hidden modifiers, §9.3 secrecy): a standing modifier on
one fighter's maneuver totals; a hidden one changes the outcome but the table never sees a total."""
import pytest

from rules.common import GM, PUBLIC, Actor, IllegalAction
from rules.karmic import ENGINE
from rules.karmic.actions import GmModifier

from .helpers import DEVON, GM_ACTOR, SOLDIER, answer, declare, fight, outcomes, refused_as, said


def _t4():
    return fight(DEVON, SOLDIER, stack={"c1": ["2S", "KS", "2H", "10S"], "c2": ["4H", "QH", "5S"]})


def _round(state):
    state, _ = declare(state, "atk", "KS")
    state, _ = declare(state, "par", "5S")
    state, _ = declare(state, "atk", "2H")
    state, _ = declare(state, "par", "QH")
    state, _ = declare(state, "darm", "10S")
    state, ev1 = answer(state, "stand")
    state, ev2 = answer(state, "stand")
    return state, ev1 + ev2


def test_hidden_modifier_turns_T4_register_1_and_stays_with_the_gm():
    state, _ = _t4()
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, GmModifier(2, 0, True), Actor("u1"))
    with refused_as("No fighter number 3"):
        ENGINE.apply(state, GmModifier(2, 2, True), GM_ACTOR)
    out = ENGINE.apply(state, GmModifier(2, 0, True), GM_ACTOR)      # +2 on Devon, hidden
    assert all(e.audience == GM for e in out.events)
    assert "hidden_modifier" not in repr(ENGINE.view_for(out.state, PUBLIC))
    assert "hidden_modifier" not in repr(ENGINE.view_for(out.state, "u1"))
    assert ENGINE.view_for(out.state, GM)["combat"]["fighters"][0]["hidden_modifier"] == 2
    state, events = _round(out.state)
    r1, r2, r3 = outcomes(events)
    # T4d: attack 4 vs parry 5 = −1 fails; with the hidden +2: 6 − 5 = +1 → success
    assert r1["success"] and r1["mt"] is None and r1["total"] is None and r1["defense_mt"] == 5
    gm = [e for e in events if e.kind == "resolve_gm" and e.audience == GM]
    assert gm and gm[0].data["outcomes"][0]["mt"] == 6 and gm[0].data["outcomes"][0]["total"] == 1
    public = " ".join(said(e) for e in events if e.audience == PUBLIC)
    assert "hidden GM modifier = ?" in public and "6 − 5" not in public and "= 6" not in public
    # T4f: the disarm 10 + 1 − 5 = 6, +2 hidden = 8: still a success, no total shown
    assert r3["success"] and r3["mt"] is None


def test_public_modifier_is_shown_in_the_arithmetic():
    state, _ = _t4()
    out = ENGINE.apply(state, GmModifier(-1, 1, False), GM_ACTOR)    # −1 on the Soldier, public
    assert [e.audience for e in out.events] == [PUBLIC]
    state, events = _round(out.state)
    r1 = outcomes(events)[0]
    # T4d: 4 vs parry 5 − 1 = 4 → 4 − 4 = 0: still no success
    assert (r1["mt"], r1["defense_mt"], r1["total"], r1["success"]) == (4, 4, 0, False)
    assert "-1 GM" in " ".join(said(e) for e in events if e.audience == PUBLIC)
