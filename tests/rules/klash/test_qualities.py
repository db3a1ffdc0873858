"""All 42 Special Qualities (digest §4.1) as rule hooks, one test each (some share with test_examples)."""
import pytest

from rules.common import IllegalAction
from rules.klash.actions import (Activate, Assault, Charge, EndActivation, Magic, Move, Recover, UseToken,
                                 Volley)
from rules.klash.pack import QUALITIES

from .helpers import A, B, Q, choose, do, kinds, prompt, tskirmish, illegal

PA, PB = (50, 30), (53, 30)


def duel(card_a="plain", card_b="plain", dice=None, **kw):
    state = tskirmish([(card_a, *PA)], [(card_b, *PB)], **kw)
    state, _ = do(state, Activate("m1"), dice=dice)
    return state


def override(state, card, **fields):
    state.cards = dict(state.cards)
    state.cards[card] = dict(state.cards[card], **fields)


def rolls(ev):
    return [e.data for e in kinds(ev, "roll")]


def damage(ev):
    return [e.data["damage"] for e in kinds(ev, "tenacity")]


def checks_of(ev, why):
    return [e for e in kinds(ev, "test") if e.data.get("why") == why]


def test_all_42_qualities_are_known():
    assert len(QUALITIES) == 42 and len(set(QUALITIES)) == 42


def test_q01_winged_feet_triples_a_double_move():
    state = tskirmish([(Q("winged_feet"), 30, 30)], [("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, Move("m1", 60, 30, double=True))
    assert state.model("m1").x == 60


def test_q02_ranged_attack_needed_to_volley():
    state = tskirmish([("plain", 30, 30), (Q("ranged_attack"), 30, 40)], [("plain", 40, 30)])
    state, _ = do(state, Activate("m1"))
    with illegal("no_ranged_attack"):
        do(state, Volley("m1", "m3"))
    state = tskirmish([(Q("ranged_attack"), 30, 30)], [("plain", 40, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d8"


def test_q03_savage_beast_instinct_attacks_the_nearest_model_even_a_friend():
    state = tskirmish([(Q("savage_beast"), *PA), ("plain", *PB)], [("plain", 90, 90)])
    state, ev = do(state, Activate("m1"), dice=[6, 6, 5, 1, 6])
    assert kinds(ev, "instinct")
    assert rolls(ev)[0]["attacker"] == "m1" and rolls(ev)[0]["target"] == "m2"
    assert state.acts == [] or state.acts[-1].model != "m1"


def test_q04_big_game_hunter_increases_against_beasts():
    state = duel(Q("big_game_hunter"), "beast")
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d8"
    state = duel(Q("big_game_hunter"), "plain")
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d6"


def test_q05_impetuous_charge_adds_two_damage():
    state = tskirmish([(Q("impetuous_charge"), 40, 30)], [("plain", 50, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Charge("m1", "m2"), dice=[4, 3, 6])
    assert damage(ev) == [3]
    assert state.acts == []  # no further actions after a Charge


def test_q06_devastating_blow_adds_one_damage():
    state = duel(Q("devastating_blow"))
    state, ev = do(state, Assault("m1", "m2"), dice=[4, 3, 6])
    assert damage(ev) == [2]


def test_q07_counterattack_on_a_higher_defence():
    state = duel("plain", Q("counterattack"))
    state, ev = do(state, Assault("m1", "m2"), dice=[2, 5])
    p = prompt(state, "free")
    assert p.player == B and [o.id for o in p.options] == ["t:m1", "no"]
    state, ev = choose(state, "free", "t:m1", dice=[5, 1, 6])
    assert rolls(ev)[0]["attacker"] == "m2" and state.model("m1").stunned
    # a tie gives no counterattack
    state = duel("plain", Q("counterattack"))
    state, ev = do(state, Assault("m1", "m2"), dice=[4, 4])
    assert prompt(state, "free") is None


def test_q08_defender_helps_adjacent_allies_not_itself():
    state = tskirmish([("plain", *PA)], [("plain", *PB), (Q("defender"), 56, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["defence_die"] == "d8"
    state = tskirmish([("plain", 59, 30)], [("plain", *PB), (Q("defender"), 56, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Assault("m1", "m3"), dice=[1, 6])
    assert rolls(ev)[0]["defence_die"] == "d6"


def test_q09_tamer_lends_discipline_and_a_reroll():
    state = tskirmish([("beast", *PA), (Q("tamer"), 56, 30)], [("plain", 90, 90)])
    override(state, Q("tamer"), discipline=10)
    s, ev = do(state, Activate("m1"), dice=[5, 4])
    assert not kinds(ev, "instinct") and s.acts[-1].model == "m1"
    s, ev = do(state, Activate("m1"), dice=[6, 6, 2, 2])
    assert kinds(ev, "tamer") and not kinds(ev, "instinct")


def test_q10_double_attack_two_decreased_attacks():
    state = duel(Q("double_attack"))
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d4"
    state, ev = choose(state, "free", "t:m2", dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d4"


def test_q11_two_heads_free_assault_and_lost_action():
    state = duel(Q("two_heads"))
    state, _ = do(state, Assault("m1", "m2"), dice=[1, 1, 1, 6])
    state, _ = do(state, Assault("m1", "m2"), dice=[1, 1, 1, 6])
    assert state.acts[-1].used == 2 or state.acts[-1].free_assault is False
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 1, 1, 6])
    assert rolls(ev)  # the third (free) Assault happened
    state = duel(Q("two_heads"))
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 5])
    assert not rolls(ev) and kinds(ev, "two_heads")


def test_q12_huge_gets_no_cover_from_normal_models():
    state = tskirmish([("shooter", 30, 30)], [(Q("huge"), 42, 30), ("plain", 36, 30.5)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d8"
    assert state.model("m2").x == 42


def test_q13_fury_free_assault_after_damage():
    state = duel(Q("fury"))
    state, ev = do(state, Assault("m1", "m2"), dice=[5, 3, 4])
    p = prompt(state, "free")
    assert p.player == A and "t:m2" in [o.id for o in p.options]
    state, ev = choose(state, "free", "t:m2", dice=[1, 6])
    assert rolls(ev)[0]["attacker"] == "m1"


def test_q14_crowd_idol_scores_one_more():
    state = duel(Q("crowd_idol"))
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 3, 2])
    assert state.vp[A] == 4 + 1


def test_q15_spellcaster_needed_to_cast():
    state = duel("plain")
    with illegal("spell_unknown_to"):
        do(state, Magic("m1", "stun", "m2"))


def test_q16_hinder_makes_disengaging_cost_two_actions():
    from rules.klash.actions import Disengage
    state = duel("plain", Q("hinder"))
    state.acts[-1].used = 1
    with pytest.raises(IllegalAction):
        do(state, Disengage("m1", 45, 30))


def test_q17_lethal_decreases_victim_tenacity():
    state = duel(Q("lethal"))
    state, ev = do(state, Assault("m1", "m2"), dice=[5, 3, 4])
    assert kinds(ev, "tenacity")[0].data["die"] == "d4"


def test_q18_weapon_master_rerolls_ones():
    state = duel(Q("weapon_master"))
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 5, 3, 6])
    assert rolls(ev)[0]["attack"] == 5


def test_q19_hawk_eye_ignores_cover_and_adds_damage_in_the_open():
    state = tskirmish([(Q("hawk_eye"), 30, 30)], [("plain", 41, 30), ("plain", 36, 30.5)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[5, 3, 6])
    assert rolls(ev)[0]["attack_die"] == "d8" and damage(ev) == [2]
    state = tskirmish([(Q("hawk_eye"), 30, 30)], [("plain", 41, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[5, 3, 6])
    assert damage(ev) == [3]


def test_q20_opportunist_plus_two_against_stunned():
    state = duel(Q("opportunist"))
    state.model("m2").stunned = True
    state, ev = do(state, Assault("m1", "m2"), dice=[4, 3, 6])
    assert damage(ev) == [3]


def test_q21_madman_must_attack_recovers_freely_and_is_immune():
    state = duel(Q("madman"))
    with illegal("madman_must_attack"):
        do(state, EndActivation("m1"))
    state.model("m1").stunned = True
    state, ev = do(state, Recover("m1"), dice=[])
    assert not state.model("m1").stunned and not checks_of(ev, "Recover")
    state = tskirmish([("caster", 30, 30)], [(Q("madman"), 38, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "stun", "m2"), dice=[6, 1])
    assert not state.model("m2").stunned


def test_q22_mighty_ignores_small_damage():
    state = duel("plain", Q("mighty"))
    state, ev = do(state, Assault("m1", "m2"), dice=[5, 3, 4])
    assert not state.model("m2").stunned


def test_q23_destructive_power_adds_magic_damage():
    state = tskirmish([(Q("destructive_power"), 30, 30)], [("plain", 45, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "mystic_dart", "m2"), dice=[5, 3, 6])
    assert damage(ev) == [3]


def test_q24_shorty_decreases_enemy_attacks():
    state = duel("plain", Q("shorty"))
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d4"


def test_q25_requirements_checked_when_building_a_team():
    from rules.klash.actions import SelectTeam
    state = tskirmish([], [])
    state.phase, state.models = "team", []
    state.picks = {A: ["champ"] + ["beast"] * 11, B: ["plain"] * 12}
    with illegal("requires_type"):
        do(state, SelectTeam((0, 1, 2)), who=A)


def test_q26_repel_charge_strikes_first():
    state = tskirmish([("plain", 40, 30)], [(Q("repel_charge"), 50, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Charge("m1", "m2"), dice=[1, 6, 1, 6])
    assert [r["attacker"] for r in rolls(ev)] == ["m2", "m1"]


def test_q27_regeneration_free_recover_once_per_activation():
    state = duel(Q("regeneration"))
    state.model("m1").stunned = True
    state, ev = do(state, Recover("m1", free=True))
    assert not state.model("m1").stunned and state.acts[-1].used == 0
    state.model("m1").stunned = True
    with pytest.raises(IllegalAction):
        do(state, Recover("m1", free=True))


def test_q28_lightning_reflexes_rerolls_defence_ones():
    state = duel("plain", Q("lightning_reflexes"))
    state, ev = do(state, Assault("m1", "m2"), dice=[5, 1, 6])
    assert rolls(ev)[0]["defence"] == 6 and not damage(ev)


def test_q29_sprint_disengages_full_speed():
    from rules.klash.actions import Disengage
    state = duel(Q("sprint"))
    state, _ = do(state, Disengage("m1", 40, 30), dice=[1, 6])
    assert state.model("m1").x == 40


def test_q30_taunt_discipline_test_or_decrease_beasts_immune():
    state = duel("plain", Q("taunt"))
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 6, 1, 6])
    assert checks_of(ev, "Taunt") and rolls(ev)[0]["attack_die"] == "d4"
    state = duel("beast", Q("taunt"), dice=[1, 1])
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert not checks_of(ev, "Taunt") and rolls(ev)[0]["attack_die"] == "d6"


def test_q31_feral_attacks_adjacent_or_heads_home():
    state = tskirmish([(Q("feral"), *PA)], [("plain", *PB)])
    state, ev = do(state, Activate("m1"), dice=[6, 6, 1, 6])
    assert rolls(ev)[0]["attacker"] == "m1"
    state = tskirmish([(Q("feral"), 30, 30)], [("plain", 90, 90)])
    state, ev = do(state, Activate("m1"), dice=[6, 6])
    assert kinds(ev, "moved") and state.model("m1").x < 30


def test_q32_lifeless_never_massacred_and_immune_to_stun():
    state = duel("plain", Q("lifeless"))
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 2, 1])
    assert state.model("m2").removed == "defeated"
    state = tskirmish([("caster", 30, 30)], [(Q("lifeless"), 38, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "stun", "m2"), dice=[6, 1])
    assert not state.model("m2").stunned


def test_q33_elusive_takes_no_attacks_of_opportunity():
    from rules.klash.actions import Disengage
    state = duel(Q("elusive"))
    state, ev = do(state, Disengage("m1", 45, 30))
    assert not rolls(ev) and state.model("m1").x == 45


def test_q34_petrifying_gaze_turns_attackers_to_stone():
    state = duel("plain", Q("petrifying_gaze"))
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 6])
    assert state.model("m1").removed == "petrified" and state.vp[B] == 4 and not rolls(ev)


def test_q35_frightening_fear_to_charge_and_when_charging():
    state = tskirmish([("plain", 40, 30)], [(Q("frightening"), 50, 30)])
    state, _ = do(state, Activate("m1"))
    s, ev = do(state, Charge("m1", "m2"), dice=[6, 6])
    assert kinds(ev, "charge_lost") and s.model("m1").x == 40
    state = tskirmish([(Q("frightening"), 40, 30)], [("plain", 50, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Charge("m1", "m2"), dice=[6, 6, 1, 6])
    assert state.model("m2").stunned and checks_of(ev, "Fear")


def test_q36_stupid_attacks_adjacent_or_does_nothing():
    state = tskirmish([(Q("stupid"), 30, 30)], [("plain", 90, 90)])
    state, ev = do(state, Activate("m1"), dice=[6, 6])
    assert kinds(ev, "instinct") and not kinds(ev, "moved") and state.model("m1").x == 30
    state = tskirmish([(Q("stupid"), *PA)], [("plain", *PB)])
    state, ev = do(state, Activate("m1"), dice=[6, 6, 1, 6])
    assert rolls(ev)[0]["target"] == "m2"


def test_q37_daredevil_ignores_fear_and_terror():
    state = tskirmish([(Q("daredevil"), 40, 30)], [(Q("frightening"), 50, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Charge("m1", "m2"), dice=[1, 6])
    assert not checks_of(ev, "Fear (to Charge)") and rolls(ev)
    state = tskirmish([("caster", 30, 30)], [(Q("daredevil"), 38, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "terror", "m2"), dice=[6, 1, 6, 6])
    assert not state.model("m2").removed


def test_q38_multiple_heads_two_attacks_and_free_recovery():
    state = duel(Q("multiple_heads"))
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d6"
    state, ev = choose(state, "free", "t:m2", dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d6"
    state.model("m1").stunned = True
    state, ev = do(state, Recover("m1"), dice=[])
    assert not state.model("m1").stunned


def test_q39_mighty_shot_adds_ranged_damage():
    state = tskirmish([(Q("mighty_shot"), 30, 30)], [("plain", 40, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[5, 3, 6])
    assert damage(ev) == [3]


def test_q40_rapid_fire_two_decreased_shots():
    state = tskirmish([(Q("rapid_fire"), 30, 30)], [("plain", 40, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d6"
    state, ev = choose(state, "free", "t:m2", dice=[1, 6])
    assert rolls(ev)[0]["attack_die"] == "d6"


def test_q41_veteran_uses_tokens_without_a_test():
    armed = {"house_rules": {"reroll_window": False}}
    state = duel(Q("veteran"), options=armed)
    state, ev = do(state, UseToken("m1", "reroll"), dice=[])
    assert state.model("m1").reroll_armed and state.tokens[A] == 4
    state = duel("plain", options=armed)
    state, ev = do(state, UseToken("m1", "reroll"), dice=[6, 6])
    assert not state.model("m1").reroll_armed and state.tokens[A] == 4
    with illegal("token_used_this_turn"):
        do(state, UseToken("m1", "action"))


def test_q42_mystic_vocation_rerolls_magic_ones():
    state = tskirmish([(Q("mystic_vocation"), 30, 30)], [("plain", 45, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "mystic_dart", "m2"), dice=[1, 5, 3, 6])
    assert rolls(ev)[0]["attack"] == 5


def test_beasts_cannot_use_training_tokens():
    state = duel("beast", dice=[1, 1])
    with illegal("beasts_no_tokens"):
        do(state, UseToken("m1", "action"))
