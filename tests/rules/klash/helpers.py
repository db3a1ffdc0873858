"""Shared helpers for the Klash! tests."""
from __future__ import annotations

import random

from rules.common import Actor, Choose, IllegalAction
from rules.klash import ENGINE

A, B = "alice", "bob"


def skirmish(teams_a, teams_b, seed=1, options=None, first=A, hourglass=1):
    return ENGINE.new_skirmish([A, B], {A: teams_a, B: teams_b}, seed=seed, options=options, first=first,
                               hourglass=hourglass)


def do(state, action, who=None, dice=None):
    """Apply an action (with forced dice) and return (new_state, events)."""
    if dice is not None:
        state.dice_queue = list(dice)
    who = who or _owner(state, action)
    out = ENGINE.apply(state, action, Actor(who))
    return out.state, out.events


def _owner(state, action):
    model = getattr(action, "model", None)
    if model:
        if state.acts and state.acts[-1].model == model:
            return state.acts[-1].controller
        return state.model(model).owner
    return state.turn_player or A


def choose(state, prompt_tag, *options, dice=None):
    for p in ENGINE.pending(state):
        if p.id.split(":")[1] == prompt_tag:
            if dice is not None:
                state.dice_queue = list(dice)
            out = ENGINE.apply(state, Choose(p.id, tuple(options)), Actor(p.player))
            return out.state, out.events
    raise AssertionError(f"no prompt {prompt_tag}: {[p.id for p in ENGINE.pending(state)]}")


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def prompt(state, tag):
    for p in ENGINE.pending(state):
        if p.id.split(":")[1] == tag:
            return p
    return None


def random_game(seed, max_steps=6000, keep_events=False):
    """Play a whole game from pending() with a seeded random legal policy."""
    rnd = random.Random(seed)
    state = ENGINE.new_game([A, B], seed=seed)
    log = []
    steps = 0
    while not ENGINE.is_over(state):
        prompts = ENGINE.pending(state)
        assert prompts, (state.phase, state.stage)
        pr = rnd.choice(prompts)
        ids = [o.id for o in pr.options]
        if pr.max_choices > 1 or pr.min_choices == 0:
            picked = tuple(rnd.sample(ids, rnd.randint(pr.min_choices, pr.max_choices)))
        else:
            forward = [i for i in ids if i != "back"] or ids
            picked = (rnd.choice(forward),)
        try:
            out = ENGINE.apply(state, Choose(pr.id, picked), Actor(pr.player))
        except IllegalAction:
            assert ":team:" in pr.id, pr.id  # only a random team may break Champion requirements
            continue
        state = out.state
        if keep_events:
            log.append((state, out.events))
        steps += 1
        assert steps < max_steps, (state.phase, state.stage, state.hourglass)
    return state, steps, log
