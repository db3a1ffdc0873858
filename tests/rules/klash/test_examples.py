"""Digest §5: every worked example EX-01…EX-23 and derived case D-01…D-13, through the engine API."""
import pytest

from rules.common import IllegalAction
from rules.klash import ENGINE, dice
from rules.klash.actions import (Activate, Assault, Disengage, EndActivation, Magic, Move, Recover, UseToken,
                                 Volley)
from rules.klash.core import tenacity_outcome

from .helpers import SAMPLE, A, B, Q, choose, do, kinds, tskirmish, illegal

# Two models in base contact below the Altar: centres 3 cm apart (normal bases are 1.5 cm radius).
PA, PB = (50, 30), (53, 30)


def duel(card_a="plain", card_b="plain", **kw):
    state = tskirmish([(card_a, *PA)], [(card_b, *PB)], **kw)
    state, _ = do(state, Activate("m1"))
    return state


def fixed(*faces):
    it = iter(faces)
    return lambda sides: next(it)


# ---------------------------------------------------------------- die ladder
def test_EX01_increase_d6_once_is_d8():
    assert dice.shift("1d6", 1) == "d8"


def test_EX02_increase_d8_twice_is_d12():
    assert dice.shift("d8", 2) == "d12"


def test_EX03_decrease_d10_once_is_d8():
    assert dice.shift("d10", -1) == "d8"


def test_EX04_decrease_d12_three_times_is_d6():
    assert dice.shift("d12", -3) == "d6"


def test_EX05_d12_increased_twice_rolls_d12_plus_2():
    assert dice.shift("d12", 2) == "d12+2"
    assert dice.roll("d12", 2, fixed(5)) == (7, [5])


def test_EX06_multi_die_keeps_best_through_an_assault():
    assert dice.roll("3d8", 0, fixed(2, 7, 4)) == (7, [2, 7, 4])
    state = duel("big", "plain")
    state, ev = do(state, Assault("m1", "m2"), dice=[3, 7, 6, 5])
    roll = kinds(ev, "roll")[0]
    assert roll.data["attack"] == 7 and roll.data["attack_die"] == "2d8"


def test_D01_decrease_floors_at_zero():
    assert dice.shift("d3", -1) == "1"
    assert dice.shift("1", -1) == "0"
    assert dice.shift("0", -1) == "0"
    assert dice.roll("d3", -2, fixed()) == (0, [])


def test_D02_d12_plus_2_decreased_once():
    assert dice.shift("d12+2", -1) == "d12+1"


# ---------------------------------------------------------------- auction and team
def test_EX07_auction_counts_and_order():
    state = ENGINE.new_game([A, B], SAMPLE, seed=11)
    a, b = state.player_a, state.player_b
    expected = []
    for rnd in range(1, 9):
        single, double = (a, b) if rnd % 2 else (b, a)
        expected += [single, double, double]
    seen = []
    for _ in range(24):
        p = ENGINE.pending(state)[0]
        seen.append(p.player)
        state, _ = choose(state, "pick", "c0")
    assert seen == expected
    assert len(state.picks[a]) == 12 and len(state.picks[b]) == 12
    assert len(state.discarded) == 16
    assert state.phase == "team"


def test_EX08_team_size_and_requirements():
    from rules.klash.actions import SelectTeam
    state = tskirmish([], [])
    state.phase, state.models = "team", []
    state.picks = {A: ["champ", "plain", "plain8"] + ["plain"] * 9, B: ["plain"] * 12}
    with illegal("team_size", most=8):
        do(state, SelectTeam(tuple(range(9))), who=A)
    with illegal("requires_type", count=2, type="gregario"):
        do(state, SelectTeam((0, 1)), who=A)
    state, ev = do(state, SelectTeam((0, 1, 2)), who=A)
    assert state.team_choice[A] == [0, 1, 2]


def test_EX09_champions_are_unique_in_the_sample_deck():
    state = ENGINE.new_game([A, B], SAMPLE, seed=3)
    deck = state.char_deck + state.revealed
    assert deck.count("ghor_kull") == 1
    for cid, card in state.cards.items():
        if card["type"] == "campione":
            assert deck.count(cid) == 1
        else:
            assert 2 <= deck.count(cid) <= 4


# ---------------------------------------------------------------- melee and damage
def test_EX10_attack_5_defence_3_two_damage_then_tenacity():
    state = duel()
    state, ev = do(state, Assault("m1", "m2"), dice=[5, 3, 4])
    assert kinds(ev, "tenacity")[0].data["damage"] == 2
    assert state.model("m2").stunned


def test_EX11_attack_3_defence_5_no_effect():
    state = duel()
    state, ev = do(state, Assault("m1", "m2"), dice=[3, 5])
    assert not kinds(ev, "tenacity") and not state.model("m2").stunned


@pytest.mark.parametrize("tenacity,outcome,vp", [(4, "stunned", 0), (2, "defeated", 4), (1, "massacre", 8)])
def test_EX12_EX13_EX14_orc_against_elf(tenacity, outcome, vp):
    state = duel()
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 3, tenacity])
    t = kinds(ev, "tenacity")[0]
    assert t.data["damage"] == 3 and t.data["outcome"] == outcome
    assert state.vp[A] == vp


def test_D03_D04_D05_D06_tenacity_table_boundaries():
    assert tenacity_outcome(4, 2) == "massacre"
    assert tenacity_outcome(3, 3) == "stunned"
    assert tenacity_outcome(2, 4, mighty=True) == "none"
    assert tenacity_outcome(2, 3, mighty=True) == "stunned"
    assert tenacity_outcome(4, 1, lifeless=True) == "defeated"


def test_D05_mighty_through_the_engine():
    state = duel("plain", Q("mighty"))
    state, ev = do(state, Assault("m1", "m2"), dice=[5, 3, 4])
    assert kinds(ev, "tenacity")[0].data["outcome"] == "none" and not state.model("m2").stunned


def test_D06_lifeless_is_defeated_not_massacred():
    state = duel("plain", Q("lifeless"))
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 2, 1])
    assert state.model("m2").removed == "defeated" and state.vp[A] == 4


def test_D07_discipline_7_rolls_7_passes_8_fails():
    state = duel()
    state.model("m1").stunned = True
    s1, _ = do(state, Recover("m1"), dice=[3, 4])
    assert not s1.model("m1").stunned
    s2, _ = do(state, Recover("m1"), dice=[4, 4])
    assert s2.model("m1").stunned


def test_D09_numerical_superiority_ignores_stunned_allies():
    state = tskirmish([("plain", 57, 30), ("plain", 63, 30), ("plain", 60, 27), ("plain", 60, 33)],
                      [("plain", 60, 30)])
    state.model("m4").stunned = True
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Assault("m1", "m5"), dice=[1, 6])
    assert kinds(ev, "roll")[0].data["attack_die"] == "d10"


def test_D13_double_attack_with_both_actions_keeps_d8():
    state = duel(Q("double_attack"), "plain")
    state.cards = dict(state.cards)
    state.cards[Q("double_attack")] = dict(state.cards[Q("double_attack")], melee_attack="d8")
    state, ev = do(state, Assault("m1", "m2", double=True), dice=[1, 6])
    assert kinds(ev, "roll")[0].data["attack_die"] == "d8"
    state, ev = choose(state, "free", "t:m2", dice=[1, 6])
    assert kinds(ev, "roll")[0].data["attack_die"] == "d8"


# ---------------------------------------------------------------- ranged
@pytest.mark.parametrize("gap,die_label", [(10, "d8"), (15, "d6"), (20, "d6")])
def test_EX15_range_bands(gap, die_label):
    state = tskirmish([("shooter", 30, 30)], [("plain", 30 + 3 + gap, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[1, 6])
    assert kinds(ev, "roll")[0].data["attack_die"] == die_label


def test_EX15_beyond_max_range_no_volley():
    state = tskirmish([("shooter", 30, 30)], [("plain", 30 + 3 + 21, 30)])
    state, _ = do(state, Activate("m1"))
    with illegal("beyond_max_range"):
        do(state, Volley("m1", "m2"))


def test_EX16_long_range_and_cover_two_decreases():
    state = tskirmish([("shooter", 30, 30)], [("plain", 48, 30), ("plain", 39, 30.5)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Volley("m1", "m2"), dice=[1, 6])
    assert kinds(ev, "roll")[0].data["attack_die"] == "d4"


# ---------------------------------------------------------------- movement
def test_EX17_move_both_actions_speed_10_is_20_cm():
    state = tskirmish([("plain", 30, 30)], [("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    s, _ = do(state, Move("m1", 50, 30, double=True))
    assert s.model("m1").x == 50
    with illegal("path_too_long", allowance=20.0):
        do(state, Move("m1", 50.5, 30, double=True))
    with illegal("path_too_long", allowance=10.0):
        do(state, Move("m1", 40.5, 30))


def test_EX18_winged_feet_both_actions_30_cm():
    state = tskirmish([(Q("winged_feet"), 30, 30)], [("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    s, _ = do(state, Move("m1", 60, 30, double=True))
    assert s.model("m1").x == 60
    with pytest.raises(IllegalAction):
        do(state, Move("m1", 60.5, 30, double=True))


@pytest.mark.parametrize("card,reach,aoo", [("plain", 5, True), (Q("sprint"), 10, True), (Q("elusive"), 5, False)])
def test_EX19_disengage(card, reach, aoo):
    state = duel(card, "plain")
    far = (PA[0] - reach, PA[1])
    with pytest.raises(IllegalAction):
        do(state, Disengage("m1", far[0] - 0.5, far[1]), dice=[1, 6] * 4)
    state, ev = do(state, Disengage("m1", *far), dice=[1, 6])
    assert bool(kinds(ev, "roll")) == aoo
    assert state.model("m1").x == far[0]


def test_EX19_hinder_costs_two_actions():
    plain, _ = do(duel("plain", "plain"), Disengage("m1", 45, 30), dice=[1, 6])
    assert plain.acts[-1].used == 1                       # an ordinary Disengage is one action
    state = duel("plain", Q("hinder"))
    state, ev = do(state, Disengage("m1", 45, 30), dice=[1, 6])
    assert state.acts[-1].used == 2 and "moved" in [e.kind for e in ev]
    state = duel("plain", Q("hinder"))
    state.acts[-1].used = 1
    with pytest.raises(IllegalAction):
        do(state, Disengage("m1", 45, 30))


def _close_hourglass(state, dice=()):
    """Each side's single model activates and ends; returns the events of the last step."""
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, EndActivation("m1"))
    state, _ = do(state, Activate("m2"))
    state, ev = do(state, EndActivation("m2"), dice=list(dice))
    return state, ev


def test_EX20_initiative_tie_rolls_d12_until_someone_wins():
    state = tskirmish([("plain", 30, 30)], [("plain", 90, 90)])
    state, ev = _close_hourglass(state, [7, 7, 3, 9])
    rolls = kinds(ev, "roll_off")
    assert [r.data["rolls"] for r in rolls] == [{A: 7, B: 7}, {A: 3, B: 9}]
    assert state.hourglass == 2 and state.init_winner == B


def test_EX21_vp_tie_after_hourglass_8_rolls_d12():
    state = tskirmish([("plain", 30, 30)], [("plain", 90, 90)], hourglass=8)
    state, ev = _close_hourglass(state, [4, 4, 2, 11])
    assert state.over and state.result == "hourglass8"
    assert state.vp[A] == state.vp[B]
    assert [r.data["rolls"] for r in kinds(ev, "roll_off")] == [{A: 4, B: 4}, {A: 2, B: 11}]
    assert state.winner == B


def test_D10_underdog_bonus_at_the_final_count():
    state = tskirmish([("vp20", 30, 30)], [("vp26", 90, 90)], hourglass=8)
    state, ev = _close_hourglass(state)
    assert [A, 6, "underdog"] in state.vp_log
    assert state.winner == A


# ---------------------------------------------------------------- two heads and tokens
@pytest.mark.parametrize("pair,discipline", [((5, 5), 10), ((6, 6), 12)])
def test_EX22_two_heads_double_five_or_six_attacks_itself(pair, discipline):
    state = duel(Q("two_heads"), "plain")
    state.cards = dict(state.cards)
    state.cards[Q("two_heads")] = dict(state.cards[Q("two_heads")], discipline=discipline)
    state, ev = do(state, Assault("m1", "m2"), dice=[*pair, 4, 2, 6])
    assert kinds(ev, "two_heads")
    roll = kinds(ev, "roll")[0]
    assert roll.data["attacker"] == roll.data["target"] == "m1"
    assert state.model("m1").stunned and not state.model("m2").stunned


def test_EX23_three_actions_still_one_increase():
    state = duel(Q("veteran"), "plain")
    state, _ = do(state, UseToken("m1", "action"))
    assert state.acts[-1].allowed == 3 and state.tokens[A] == 4
    state, ev = do(state, Assault("m1", "m2", double=True), dice=[1, 6])
    assert kinds(ev, "roll")[0].data["attack_die"] == "d8"
    with pytest.raises(IllegalAction):
        do(state, Assault("m1", "m2", double=True))
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6])
    assert kinds(ev, "roll")[0].data["attack_die"] == "d6"


# ---------------------------------------------------------------- magic
def test_D08_domination_margin_added_to_the_test():
    state = tskirmish([("caster", 30, 30)], [("plain", 38, 30)])
    state.cards = dict(state.cards)
    state.cards["plain"] = dict(state.cards["plain"], discipline=8)
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "domination", "m2"), dice=[6, 3, 3, 3])
    test = [e for e in kinds(ev, "test") if e.data["why"] == "Domination"][0]
    assert test.data["add"] == 3 and not test.data["ok"]
    assert state.acts[-1].model == "m2" and state.acts[-1].controller == A and state.acts[-1].dominated


def test_D11_healing_difficulty_3_roll_3_succeeds():
    state = tskirmish([("caster", 30, 30), ("plain", 36, 30)], [("plain", 90, 90)])
    state.model("m2").stunned = True
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "healing", "m2"), dice=[3])
    assert not state.model("m2").stunned


def test_D12_opposed_spell_tie_has_no_effect():
    state = tskirmish([("caster", 30, 30)], [("plain", 38, 30)])
    state, _ = do(state, Activate("m1"))
    state, ev = do(state, Magic("m1", "stun", "m2"), dice=[4, 4])
    assert not state.model("m2").stunned
