"""The search uses what it learns: a bigger budget follows the better line of play, and the levels'
margins measured by ``bench/strength.py`` hold in a small seeded sample.

The real games' evaluations lie a few hundredths apart between moves; UCB1's constant assumes rewards
spread over [0, 1]. Unscaled, exploration outweighed every difference: the visits stayed uniform at
any budget (root visits 16/16/16 at normal, 55/53/52 at hard, measured on Carnevale), so ``hard``
played like ``normal`` with less noise, and a move worth something only with the right follow-up was
never found. ``Pick`` is that situation in miniature.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from rules.common import Choose, Engine, Option, Prompt, Rng, Serial
from rules.common.player import GameAI, decide, level



@dataclass
class PickState(Serial):
    rng: Rng
    seats: list[str]
    first: str = ""
    value: float = 0.0
    over: bool = False
    schema: int = 1


class Pick(Engine[PickState]):
    """Two choices in a row, like a gladiator's activation then its action: after "a" one of five
    follow-ups is worth 0.60 and the rest 0.45; after "b" every follow-up is worth 0.52 (give or
    take 0.01 of dice). The best play is "a", then its good follow-up: a search that spreads its
    visits evenly averages "a" to 0.48 and takes "b"."""
    system = "pick"
    state_type = PickState

    def setup(self, seats, options, seed):
        return PickState(rng=Rng.from_seed(seed), seats=list(seats))

    def pending(self, state):
        if state.over:
            return []
        if not state.first:
            return [Prompt.ask("first", {}, "1", [Option.of("a", "pick"), Option.of("b", "pick")])]
        return [Prompt.ask("then", {}, "1", [Option.of(f"s{i}", "pick") for i in range(5)])]

    def step(self, state, action: Choose, actor):
        self.check_choice(state, action, actor)
        choice = action.options[0]
        if not state.first:
            state.first = choice
            return []
        worth = (0.60 if choice == "s3" else 0.45) if state.first == "a" else 0.52
        state.value = worth + 0.02 * (state.rng.random() - 0.5)
        state.over = True
        return []

    def view_for(self, state, viewer):
        return {"first": state.first, "over": state.over}


class PickAI(GameAI):
    def evaluate(self, state, seat):
        return state.value if state.over else 0.5


AI = PickAI(Pick())


def test_the_search_follows_a_small_difference_and_more_budget_follows_it_more():
    state = AI.engine.new_game(["1"], {}, seed=1)
    picks = {name: [decide(AI, state, "1", name, Rng(seed)).options[0] for seed in range(20)]
             for name in ("normal", "hard")}
    # an even spread of visits (unscaled UCB1) took "b" all 20 times at either budget; scaled, the
    # search follows "a" to its good follow-up, and the bigger budget does so more often (11 and 3)
    assert picks["hard"].count("a") >= 8
    assert picks["hard"].count("a") > picks["normal"].count("a") >= 1
    assert level("hard").iterations > level("normal").iterations


def test_a_klash_melee_attack_that_kills_nobody_is_worth_the_no_melee_vp_it_denies():
    """The Action Phase's "no melee attack against your characters" VP: until the evaluation counted
    it, a melee attack that killed nobody looked worth nothing, and the bot let whole Hourglasses of
    the quick match pass without one (a 3-3 draw decided by a d12). Seat 1 attacking a model of
    seat 2 takes that VP from seat 2: one VP's worth (0.18 before the squash) for seat 1."""
    import math

    from bench.strength import SKIRMISH, SKIRMISH_HOURGLASS
    from content import sample_pack
    from rules.klash import AI as KLASH

    state = KLASH.engine.new_skirmish(["1", "2"], SKIRMISH, seed=1, options={"pack": sample_pack("klash")},
                                      hourglass=SKIRMISH_HOURGLASS)
    assert state.stage == "action" and state.melee_against == []

    def logit(seat: str) -> float:
        v = KLASH.evaluate(state, seat)
        return math.log(v / (1 - v))
    before = logit("1"), logit("2")
    state.melee_against.append("2")
    assert logit("1") - before[0] == pytest.approx(0.18)
    assert logit("2") - before[1] == pytest.approx(-0.18)
    state.stage = "final"           # scored at the Action Phase's end: the VP itself counts from then on
    assert logit("1") == pytest.approx(before[0])


SMALL = {"points": 100, "rounds": 3}      # a quick Carnevale: 100-point squads, three Rounds


def test_normal_beats_random_in_seeded_small_carnevale_games_as_the_bench_measured():
    """bench/strength.py --only carnevale --options '{"points": 100, "rounds": 3}' measured normal
    against random (see the issue's note for the figures); its first four games, each level in each
    seat of a mirror match of the Doctors, then of the Patricians (about 15 s of CPU). The first is a
    draw: three Rounds of 100-point Doctors can end with nobody scoring."""
    from bench.strength import one_game

    results = [one_game("carnevale", "normal", "random", g, 1, False, SMALL) for g in range(4)]
    assert [r["score"] for r in results] == [0.5, 1.0, 1.0, 1.0]


def test_normal_beats_random_and_greedy_in_the_quick_klash_match_as_the_bench_measured():
    """bench/strength.py --only klash-skirmish (three gladiators a side a charge apart, the last three
    Hourglasses; seats and first activation alternated) measured normal against random and greedy.
    Its first 16 games of each gave 14 and 14 before the evaluation counted the no-melee VP; the lost
    ones were draws without a melee attack, settled by a d12. With the threats counted (reach, dice,
    models that obey) its first 16 against random gave 16. Since normal looks through its own run of
    decisions before its tree search (``rules/klash/plan.py``; in the full match it beat greedy in 10
    of 12, 5 of 9 before), its first 8 quick matches gave 7 against random and 4 against greedy: equal
    teams with nothing to choose before the fight, settled in the last Hourglass by one kill or a d12,
    so the full match is the figure to read. The first four of each are played here (about 50 s of
    CPU): three against random (the second is lost to a kill in the last Hourglass), two against greedy."""
    from bench.strength import one_game

    def scores(b: str) -> list[float]:
        return [one_game("klash-skirmish", "normal", b, g, 1, False)["score"] for g in range(4)]
    assert scores("random") == [1.0, 0.0, 1.0, 1.0]
    assert scores("greedy") == [1.0, 1.0, 0.0, 0.0]


def test_carnevale_hard_searches_600_iterations_and_normal_as_defined():
    from rules.carnevale import AI
    assert AI.tuned(level("hard")).iterations == 600 and level("hard").iterations == 160
    assert AI.tuned(level("normal")) == level("normal")
    tiny = replace(level("hard"), iterations=4)              # a test's own budget stays its own
    assert AI.tuned(tiny) is tiny
    same = replace(level("hard"))                            # even one equal to the level's (the judge's hard@160)
    assert AI.tuned(same) is same
