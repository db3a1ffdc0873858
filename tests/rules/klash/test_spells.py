"""The 8 spells (digest §4.2) and the one-spell-per-Action-Phase limit."""

from rules.klash.actions import Activate, Assault, Charge, EndActivation, Magic

from .helpers import A, do, kinds, prompt, tskirmish, illegal


def caster_vs(target_card="plain", tx=38, ty=30, extra_b=()):
    state = tskirmish([("caster", 30, 30)], [(target_card, tx, ty), *extra_b])
    state, _ = do(state, Activate("m1"))
    return state


def test_armour_difficulty_2_raises_defence_until_next_activation():
    state = tskirmish([("caster", 50, 30)], [("plain", 53, 30)])
    state, _ = do(state, Activate("m1"))
    s, ev = do(state, Magic("m1", "armour"), dice=[1])
    assert not s.model("m1").armour
    state, ev = do(state, Magic("m1", "armour"), dice=[2])
    assert state.model("m1").armour
    state, _ = do(state, EndActivation("m1"))
    state, _ = do(state, Activate("m2"))
    state, ev = do(state, Assault("m2", "m1"), dice=[6, 1, 6])
    roll = kinds(ev, "roll")[0].data
    assert roll["defence_die"] == "d8"
    assert kinds(ev, "tenacity")[0].data["die"] == "d8"


def test_mystic_dart_uses_magic_dice_and_ranged_rules():
    state = caster_vs(tx=30 + 3 + 25)
    state, ev = do(state, Magic("m1", "mystic_dart", "m2"), dice=[5, 3, 6])
    r = kinds(ev, "roll")[0].data
    assert r["attack_die"] == "d8" and r["defence_die"] == "d6"
    assert kinds(ev, "tenacity")[0].data["damage"] == 2
    state = caster_vs(tx=30 + 3 + 26)
    with illegal("beyond_max_range"):
        do(state, Magic("m1", "mystic_dart", "m2"))
    state = caster_vs(tx=33)
    with illegal("shooter_engaged"):
        do(state, Magic("m1", "mystic_dart", "m2"))


def test_domination_controls_the_enemy_for_one_activation():
    state = caster_vs(tx=38, extra_b=[("plain", 41, 30)])
    state, ev = do(state, Magic("m1", "domination", "m2"), dice=[6, 3, 6, 6])
    assert state.acts[-1].model == "m2" and state.acts[-1].controller == A
    p = prompt(state, "act")
    assert p.player == A
    state, ev = do(state, Assault("m2", "m3"), who=A, dice=[5, 3, 6])
    assert kinds(ev, "roll")[0].data["target"] == "m3" and state.model("m3").stunned
    state, ev = do(state, EndActivation("m2"), who=A)
    assert state.acts[-1].model == "m1" and state.model("m2").activated
    with illegal("already_cast"):
        do(state, Magic("m1", "stun", "m3"))


def test_domination_out_of_range_and_immunity():
    state = caster_vs(tx=30 + 3 + 11)
    with illegal("beyond_spell_range", range=10):
        do(state, Magic("m1", "domination", "m2"))


def test_healing_needs_an_ally_in_range():
    state = tskirmish([("caster", 30, 30), ("plain", 45, 30)], [("plain", 90, 90)])
    state.model("m2").stunned = True
    state, _ = do(state, Activate("m1"))
    with illegal("healing_reach", range=10):
        do(state, Magic("m1", "healing", "m2"))


def test_stun_spell_stuns_on_success():
    state = caster_vs()
    state, ev = do(state, Magic("m1", "stun", "m2"), dice=[5, 2])
    assert state.model("m2").stunned


def test_terror_defeats_on_a_failed_test():
    state = caster_vs()
    state, ev = do(state, Magic("m1", "terror", "m2"), dice=[5, 2, 6, 6])
    assert state.model("m2").removed == "terrified" and state.vp[A] == 4
    state = caster_vs()
    state, ev = do(state, Magic("m1", "terror", "m2"), dice=[5, 2, 1, 1])
    assert not state.model("m2").removed


def test_teleport_difficulty_5_to_a_point_in_sight():
    state = caster_vs(tx=90, ty=90)
    state, ev = do(state, Magic("m1", "teleport", x=30, y=80), dice=[5])
    assert (state.model("m1").x, state.model("m1").y) == (30, 80)
    state = caster_vs(tx=20, ty=90)
    with illegal("point_not_in_sight"):
        do(state, Magic("m1", "teleport", x=90, y=90))  # the Altar of Chaos is in the way
    with illegal("point_occupied"):
        do(state, Magic("m1", "teleport", x=20, y=91))


def test_destructive_touch_in_contact_and_after_a_charge():
    state = caster_vs(tx=33)
    state, ev = do(state, Magic("m1", "destructive_touch", "m2"), dice=[5, 3, 6])
    assert kinds(ev, "tenacity")[0].data["damage"] == 2
    assert A not in state.melee_against  # not a melee attack for the no-melee VP (house rule default)
    state = caster_vs(tx=38)
    with illegal("not_in_contact"):
        do(state, Magic("m1", "destructive_touch", "m2"))
    state, ev = do(state, Charge("m1", "m2", double=True, touch=True), dice=[5, 3, 6])
    r = kinds(ev, "roll")[0].data
    assert r["attack_die"] == "d10" and "m1" in state.cast


def test_one_spell_per_action_phase():
    state = caster_vs()
    state, _ = do(state, Magic("m1", "stun", "m2"), dice=[1, 6])
    with illegal("already_cast"):
        do(state, Magic("m1", "stun", "m2"))
