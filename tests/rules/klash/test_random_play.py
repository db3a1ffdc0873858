"""A seeded full match to a result for 100 seeds, driven only by pending() and Choose."""
import pytest

from rules.klash import ENGINE

from .helpers import SAMPLE, A, B, random_game


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


AGGRESSIVE = ("as2", "as", "ch2", "ch", "vo2", "vo", "mg:", "mg2:", "rec", "t:", "x:", "to:m", "mv2", "me")


def _aggressive_game(seed):
    """Random legal play that prefers fighting, so qualities and spells meet in real positions."""
    import random

    from rules.common import Actor, Choose, IllegalAction
    rnd = random.Random(seed)
    state = ENGINE.new_game([A, B], SAMPLE, seed=seed)
    steps = 0
    while not state.over:
        prompts = ENGINE.pending(state)
        main = [p for p in prompts if p.kind not in ("hand", "arm_reroll")] or prompts
        pr = main[0] if rnd.random() < 0.9 else rnd.choice(prompts)
        ids = [o.id for o in pr.options]
        if pr.max_choices > 1 or pr.min_choices == 0:
            pick = tuple(rnd.sample(ids, rnd.randint(pr.min_choices, pr.max_choices)))
        else:
            keen = [i for i in ids if i.startswith(AGGRESSIVE)]
            pick = (rnd.choice(keen) if keen and rnd.random() < 0.85 else rnd.choice([i for i in ids if i != "back"] or ids),)
        try:
            state = ENGINE.apply(state, Choose(pr.id, pick), Actor(pr.player)).state
        except IllegalAction:
            assert pr.kind == "team"
        steps += 1
        assert steps < 8000
    return state


def test_aggressive_random_games_fight_and_end_by_a_rule():
    removed = 0
    for seed in range(200, 215):
        state = _aggressive_game(seed)
        assert state.result in ("annihilation", "hourglass8", "mutual_annihilation")
        for p in (A, B):
            assert state.vp[p] == sum(amount for who, amount, _ in state.vp_log if who == p)
        removed += sum(1 for m in state.models if m.removed)
    assert removed > 20
