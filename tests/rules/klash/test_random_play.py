"""A seeded full match to a result for 100 seeds, driven only by pending() and Choose."""
import pytest

from rules.klash import ENGINE

from .helpers import A, B, random_game


@pytest.mark.parametrize("chunk", range(10))
def test_random_legal_games_end_by_a_rule_and_vp_add_up(chunk):
    for seed in range(chunk * 10, chunk * 10 + 10):
        state, steps, _ = random_game(seed)
        assert state.over and state.phase == "over"
        assert state.result in ("annihilation", "hourglass8", "mutual_annihilation")
        if state.result == "hourglass8":
            assert state.hourglass == 8
        else:
            assert not state.on_field(A) or not state.on_field(B)
        for p in (A, B):
            assert state.vp[p] == sum(amount for who, amount, _ in state.vp_log if who == p)
        assert state.winner in (A, B)
        if state.result == "hourglass8" and state.vp[A] != state.vp[B]:
            assert state.winner == max((A, B), key=lambda p: state.vp[p])
        again = ENGINE.load_state(ENGINE.dump_state(state))
        assert again.to_dict() == state.to_dict()
