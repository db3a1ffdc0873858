"""What the bot considers in Carnevale (rules/carnevale/ai.py): the answers worth searching."""
from __future__ import annotations

from content import sample_pack
from rules.carnevale import AI
from rules.common import Actor, Rng
from rules.common.player import deciders, decide


def activation(seed: int = 7):
    """A seeded game played by random bots up to the first activation's action buttons."""
    state = AI.engine.new_game(["1", "2"], {"pack": sample_pack("carnevale"), "points": 100, "rounds": 3}, seed=seed)
    while True:
        prompt = next(p for p in AI.engine.pending(state) if not AI.optional(p))
        if prompt.kind == "action":
            return state, prompt
        seat = deciders(AI, state)[0]
        state = AI.engine.apply(state, decide(AI, state, seat, "random", Rng(seed)), Actor(seat)).state


def test_an_activation_is_not_searched_over_moves_across_a_table_the_bot_game_has_not():
    state, prompt = activation()
    shown = [o.id for o in prompt.options]
    assert {"walk", "run", "jump", "climb", "disengage", "melee", "end"} <= set(shown)
    considered = [c[0] for c in AI.candidates(state, prompt, Rng(1))]
    assert considered == [i for i in shown if i not in ("walk", "run", "jump", "climb", "swim", "disengage")]
    assert "melee" in considered and "hide" in considered and "end" in considered


def test_a_reinforcement_still_entering_keeps_walk_its_first_move_must_be_one():
    state, _ = activation()
    state.models[state.active].entering = True
    prompt = next(p for p in AI.engine.pending(state) if p.kind == "action")
    assert [o.id for o in prompt.options] == ["walk", "run", "jump", "climb", "hide", "end"]
    assert AI.candidates(state, prompt, Rng(1)) == [("walk",), ("hide",), ("end",)]

