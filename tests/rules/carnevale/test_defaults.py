"""Carnevale for games played over days: each decision's rulebook default (rules/carnevale/defaults.py),
the chapter and turning-point events, and the standing of a finished game."""
import random

import pytest

from rules.carnevale import ENGINE
from rules.common import Actor, Choose, IllegalAction, Option, Prompt

from ..days import defaults_to, emitted, first_of_each, play_through
from .helpers import P1, P2, fighting_game
def _fighting(rnd):
    def pick(s, prompts):
        p = rnd.choice(prompts)
        pref = [o for o in ("cast", "melee", "shoot") if o in [o.id for o in p.options]]
        if p.kind == "action" and pref and rnd.random() < 0.7:
            return p, (rnd.choice(pref),)
        k = rnd.randint(p.min_choices, min(p.max_choices, len(p.options)))
        return p, tuple(o.id for o in rnd.sample(p.options, k))
    return pick


def _play(seed):
    """A seeded random game that prefers fighting: the first (state, prompt) of each kind met, the end
    state and the kinds of every event."""
    return play_through(ENGINE, fighting_game(seed), _fighting(random.Random(seed)))


@pytest.fixture(scope="module")
def games():
    return [_play(seed) for seed in range(12)]


@pytest.fixture(scope="module")
def met(games):
    return first_of_each(games)


def _met(met, kind):
    assert kind in met, f"no {kind} in these games"
    return met[kind]


@pytest.mark.parametrize("kind, ids", [
    ("opportunity", ("decline",)), ("chain", ("allow",)), ("reroll_own", ("keep",)), ("reroll_foe", ("keep",)),
    ("annul", ("no",)), ("ready_shot", ("no",)), ("ready_cover", ("no",)),
    ("bodyguard", ("no",)), ("disengage_reaction", ("none",)), ("action", ("end",)),
    ("end_round", ("go",)),
])
def test_a_default_declines_the_reaction_or_ends_and_is_accepted(met, kind, ids):
    defaults_to(ENGINE, met, kind, ids)


def test_a_turn_is_passed_where_the_rules_allow_else_held_else_no_default(games):
    turns = [(s, p) for first, _, _ in games for k, (s, p) in first.items() if k == "turn"]
    for s, p in turns:
        ids = [o.id for o in p.options]
        want = ("pass",) if "pass" in ids else ("hold",) if "hold" in ids else None
        assert ENGINE.default_choice(s, p) == want
        if want:
            ENGINE.apply(s, Choose(p.id, want), Actor(p.player))
    s, p = turns[0]
    assert "pass" not in [o.id for o in p.options] and ENGINE.default_choice(s, p) is None   # §5.1 must activate


@pytest.mark.parametrize("kind", ["deploy", "order", "reinforce", "target", "spell", "spell_target", "attribute",
                                  "heal", "disengage_from", "melee_contact", "cover", "morale_near"])
def test_choices_that_are_the_game_or_the_table_have_no_default(met, kind):
    s, p = _met(met, kind)
    assert ENGINE.default_choice(s, p) is None


def test_standing_names_the_higher_vp_as_winner(games):
    ends = [s for _, s, _ in games]
    for s in ends:
        st = ENGINE.standing(s)
        vp = {p: s.result["vp"][p]["total"] for p in s.seats}
        assert st.scores == vp
        if vp[P1] != vp[P2]:
            assert st.result == "won" and st.winners == (max(vp, key=vp.get),)   # §5.3
        else:
            assert st.result == "draw" and st.winners == ()
    assert ENGINE.standing(fighting_game(0)).result == "unfinished"


def test_every_chapter_and_turning_kind_is_an_event_of_the_engine(games):
    assert ENGINE.chapter_kinds | ENGINE.turning_kinds <= emitted("carnevale")
    seen = set().union(*(kinds for _, _, kinds in games))
    assert ENGINE.chapter_kinds & seen and "fallen" in seen


def test_the_defaults_of_the_two_reactions_the_seeded_games_never_reach(met):
    """Defensive Combat's Karma and a Mad Minute's volley, with the options the engine offers."""
    s, _ = met["action"]
    defensive = Prompt.ask("defensive", {}, P1, [Option.of("0", "no_karma"), Option.of("1", "defensive_karma")])
    mad = Prompt.ask("mad_minute", {}, P1, [Option.of("a1", "model"), Option.of("done", "mad_minute_done")])
    assert ENGINE.default_choice(s, defensive) == ("0",)
    assert ENGINE.default_choice(s, mad) == ("done",)


def test_every_roll_says_its_dice_and_whose_they_are_for_the_chronicles_luck():
    """A seeded fight's rolls as the log keeps them: each a `roll` event with its d10 faces, `sides`
    and the rolling model's player, so the chronicle counts each player's luck (cogs/host/recap)."""
    from cogs.host.recap import luck
    from db.records import ActionRecord

    records, state = [], fighting_game(3)
    rnd = random.Random(3)
    for seq in range(1, 400):
        prompts = ENGINE.pending(state)
        if ENGINE.is_over(state) or not prompts:
            break
        p, ids = _fighting(rnd)(state, prompts)
        try:
            out = ENGINE.apply(state, Choose(p.id, ids), Actor(p.player))
        except IllegalAction:       # a refused random answer: pick again
            continue
        state = out.state
        records.append(ActionRecord(1, seq, p.player, {}, [e.to_dict() for e in out.events], seq - 1, False, ""))
    rolls = [e["data"] for r in records for e in r.events if e["kind"] == "roll"]
    assert rolls and all(d["sides"] == 10 and d["player"] in (P1, P2) for d in rolls if d["model"])
    found = luck(records)
    for player in {d["player"] for d in rolls if d["model"]}:
        dice = [f for d in rolls if d["player"] == player for f in d["dice"]]
        assert found[player] == (len(dice), pytest.approx(sum(dice) / len(dice) - 5.5))
