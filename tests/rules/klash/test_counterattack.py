"""Counterattack (L61, digest §4.1 #7) against the free attacks: §6.12 says Attacks of Opportunity and free
attacks are normal opposed melee attacks and every quality applies, so a strictly higher Melee Defence
allows the Counterattack against an AoO, a Repel Charge, a Fury attack and another Counterattack, still
"One Counterattack per Turn"."""
from rules.klash.actions import Activate, Assault, Charge, Disengage

from .helpers import A, B, Q, choose, do, kinds, prompt, tskirmish


def _rolls(ev):
    return [e.data for e in kinds(ev, "roll")]


def test_counterattack_against_an_attack_of_opportunity_strikes_before_the_model_leaves():
    state = tskirmish([(Q("counterattack"), 50, 30)], [("plain", 53, 30), ("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    # Disengage (½ Speed = 5 cm): the Dwarf's AoO rolls 2 against Melee Defence 5 -> strictly higher
    state, ev = do(state, Disengage("m1", 46, 30), dice=[2, 5])
    assert _rolls(ev)[0]["attacker"] == "m2" and not kinds(ev, "moved")
    p = prompt(state, "free")
    assert p.player == A and [o.id for o in p.options] == ["t:m2", "no"]
    assert state.model("m1").x == 50                      # still in contact while it strikes
    state, ev = choose(state, "free", "t:m2", dice=[5, 1, 6])   # 5 vs 1: 4 Damage, Tenacity 6: Stunned
    assert _rolls(ev)[0]["attacker"] == "m1" and state.model("m2").stunned
    assert kinds(ev, "moved")[0].data["disengage"] and (state.model("m1").x, state.model("m1").y) == (46, 30)
    # declining also lets it walk away
    state = tskirmish([(Q("counterattack"), 50, 30)], [("plain", 53, 30), ("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Disengage("m1", 46, 30), dice=[2, 5])
    state, ev = choose(state, "free", "no")
    assert not _rolls(ev) and state.model("m1").x == 46


def test_counterattack_against_repel_charge():
    state = tskirmish([(Q("counterattack"), 30, 30)], [(Q("repel_charge"), 40, 30), ("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    # Repel Charge 2 vs 5 (the charger defends higher), then the Charge attack 1 vs 6
    state, ev = do(state, Charge("m1", "m2"), dice=[2, 5, 1, 6])
    assert [r["attacker"] for r in _rolls(ev)] == ["m2", "m1"]
    p = prompt(state, "free")
    assert p.player == A and [o.id for o in p.options] == ["t:m2", "no"]
    state, ev = choose(state, "free", "t:m2", dice=[6, 2, 6])
    assert _rolls(ev)[0]["attacker"] == "m1" and kinds(ev, "tenacity")[0].data["damage"] == 4


def test_counterattack_against_fury():
    state = tskirmish([(Q("fury"), 50, 30)], [("plain", 53, 30), (Q("counterattack"), 47, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Assault("m1", "m2"), dice=[4, 3, 6])       # 1 Damage: Fury's free Assault
    assert prompt(state, "free").player == A
    state, ev = choose(state, "free", "t:m3", dice=[2, 5])            # Fury 2 vs 5 on the Counterattacker
    p = prompt(state, "free")
    assert p.player == B and [o.id for o in p.options] == ["t:m1", "no"]


def test_counterattack_against_a_counterattack_once_per_turn_each():
    state = tskirmish([(Q("counterattack"), 50, 30)], [(Q("counterattack"), 53, 30), ("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5])
    assert prompt(state, "free").player == B
    state, _ = choose(state, "free", "t:m1", dice=[2, 5])             # B's Counterattack 2 vs 5
    assert prompt(state, "free").player == A
    state, _ = choose(state, "free", "t:m2", dice=[2, 5])             # A's Counterattack 2 vs 5
    assert prompt(state, "free") is None                               # B already countered this Turn
