"""Training Token re-roll after seeing the dice (§3.9, §4.3, §7.2): a window before the outcome applies."""

from rules.klash import ENGINE
from rules.klash.actions import Activate, Assault, UseToken

from .helpers import A, B, choose, do, kinds, prompt, tskirmish, illegal


def _duel(card_a="plain", card_b="plain"):
    state = tskirmish([(card_a, 50, 30)], [(card_b, 53, 30), ("plain", 90, 90)])
    state, _ = do(state, Activate("m1"))
    return state


def test_failed_attack_opens_a_window_for_its_player_before_anything_applies():
    state = _duel()
    before = state.to_dict()
    state, ev = do(state, Assault("m1", "m2"), dice=[2, 5], window=True)
    p = prompt(state, "rr0")
    assert p.player == A and [o.id for o in p.options] == ["yes", "no"]
    assert p.kind == "reroll_attack" and (p.args["a"], p.args["b"]) == (2, 5)
    assert [e.kind for e in ev][-1] == "reroll_offer"
    # nothing applied yet: the action is not spent, the roll event is not out, tokens untouched
    assert not kinds(ev, "roll") and state.tokens[A] == 5 and state.acts[-1].used == 0
    assert {k: v for k, v in state.to_dict().items() if k not in ("window", "dice_queue")} == \
        {k: v for k, v in before.items() if k not in ("window", "dice_queue")}
    # other prompts wait; a typed action is refused
    assert [q.kind for q in ENGINE.pending(state)] == ["reroll_attack"]
    with illegal("answer_reroll_first"):
        do(state, Assault("m1", "m2"), window=True)


def test_yes_spends_one_token_tests_discipline_and_rerolls_the_same_roll():
    state = _duel()
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5], window=True)
    # Discipline 7: 3+3 = 6 passes; the attack re-rolls 6 vs the defence 5 that stands; Tenacity 6 >= 1 Damage: Stunned
    # (the defender's own window on the new hit is declined by the helper)
    state, ev = choose(state, "rr0", "yes", dice=[3, 3, 6, 6])
    assert state.tokens[A] == 4 and state.model("m1").token_mark == state.turn_no
    assert kinds(ev, "token")[0].data["ok"] and kinds(ev, "reroll")
    roll = kinds(ev, "roll")[0].data
    assert (roll["attack"], roll["defence"]) == (6, 5)
    assert kinds(ev, "tenacity")[0].data["damage"] == 1 and state.model("m2").stunned is True
    assert state.acts[-1].used == 1 and state.window is None


def test_defender_is_asked_too_and_one_token_per_character_per_turn():
    state = _duel()
    # attack 2 fails -> A says yes (3+3 ok), re-roll 6 hits 5 -> B may re-roll the defence
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5], window=True)
    state, ev = choose(state, "rr0", "yes", dice=[3, 3, 6], window=True)
    p = prompt(state, "rr1")
    assert p.player == B and p.kind == "reroll_defence" and (p.args["a"], p.args["b"]) == (5, 6)
    assert not kinds(ev, "roll")
    state, ev = choose(state, "rr1", "yes", dice=[1, 2, 6], window=True)   # 1+2 passes; defence 6 ties 6
    assert state.tokens == {A: 4, B: 4}
    roll = kinds(ev, "roll")[0].data
    assert (roll["attack"], roll["defence"]) == (6, 6) and not kinds(ev, "tenacity")
    # m1 already had a token this turn: its next failed attack is not offered
    state, ev = do(state, Assault("m1", "m2"), dice=[1, 6], window=True)
    assert state.window is None and not kinds(ev, "reroll_offer")


def test_no_keeps_the_dice_and_the_token_and_a_failed_token_test_wastes_it():
    state = _duel()
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5], window=True)
    state, ev = choose(state, "rr0", "no", window=True)
    assert state.tokens[A] == 5 and kinds(ev, "roll")[0].data["attack"] == 2 and not kinds(ev, "tenacity")
    state = _duel()
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5], window=True)
    state, ev = choose(state, "rr0", "yes", dice=[4, 4], window=True)   # 8 > Discipline 7: token lost
    assert state.tokens[A] == 4 and not kinds(ev, "token")[0].data["ok"]
    assert kinds(ev, "roll")[0].data["attack"] == 2 and not kinds(ev, "reroll")


def test_tenacity_failure_is_offered_and_beasts_and_empty_hands_are_not():
    state = _duel()
    # attack 6 vs 1: 5 Damage; B says no on the defence; Tenacity 1 (5 >= 2 x 1) -> Massacre: offered
    state, _ = do(state, Assault("m1", "m2"), dice=[6, 1], window=True)
    state, _ = choose(state, "rr0", "no", dice=[1], window=True)
    p = prompt(state, "rr1")
    assert p.player == B and p.kind == "reroll_tenacity" and p.args["outcome"] == {"term": "massacre"}
    state, ev = choose(state, "rr1", "yes", dice=[2, 2, 6], window=True)  # Tenacity 6 >= 5 Damage: Stunned
    ten = kinds(ev, "tenacity")[0].data
    assert ten["roll"] == 6 and ten["outcome"] == "stunned" and state.tokens[B] == 4
    # a Beast never gets the window
    state = _duel(card_b="beast")
    state, ev = do(state, Assault("m1", "m2"), dice=[6, 1, 1], window=True)
    assert state.window is None and kinds(ev, "tenacity")
    # no tokens left: no window
    state = _duel()
    state.tokens[A] = 0
    state, ev = do(state, Assault("m1", "m2"), dice=[2, 5], window=True)
    assert state.window is None


def test_old_armed_reroll_is_a_house_rule_and_tokens_cannot_be_armed_with_the_window():
    state = _duel()
    assert "tkr" not in [o.id for o in prompt(state, "act").options] and prompt(state, "tok") is None
    with illegal("reroll_offered_after"):
        do(state, UseToken("m1", "reroll"))


def test_window_survives_a_save_and_restore():
    state = _duel()
    state, _ = do(state, Assault("m1", "m2"), dice=[2, 5], window=True)
    again = ENGINE.load_state(ENGINE.dump_state(state))
    assert again.to_dict() == state.to_dict() and ENGINE.pending(again) == ENGINE.pending(state)
    again, ev = choose(again, "rr0", "yes", dice=[3, 3, 6, 6])
    assert kinds(ev, "roll")[0].data["attack"] == 6


def test_a_dominated_model_gets_no_window_from_its_owner():
    from rules.klash import core
    state = _duel()
    assert core.token_reroll_ok(state, state.model("m1"))
    state.acts[-1].dominated = True            # as if the enemy controlled it by Domination
    assert not core.token_reroll_ok(state, state.model("m1"))
    state, ev = do(state, Assault("m1", "m2"), who=A, dice=[2, 5], window=True)
    assert state.window is None and not kinds(ev, "reroll_offer")
