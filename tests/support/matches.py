"""Seeded random matches of the four games, as the store sees them: (actor, action, state after).

Played through each engine's public API only (start, pending, apply with Choose), so a test can
commit them through a store and check what the store gives back.
"""
from __future__ import annotations

import random

from content import sample_pack
from rules.common import GM, Actor, BautaError, Choose
from tests.rules.karmic.helpers import DEVON, SOLDIER

SYSTEMS = ("karmic", "klash", "carnival_zombie", "carnevale")
SEATS = ["2", "3"]
OPTIONS = {
    "karmic": {"mode": "combat", "combatants": [{"character": DEVON, "player": "2"},
                                                {"character": SOLDIER, "player": GM}]},
    "klash": {"pack": sample_pack("klash")},          # Klash! takes its pack from the caller
}


def engine(system: str):
    import importlib

    from cogs.host import systems
    importlib.import_module(f"cogs.{system}")     # registers the system
    return systems.get(system).engine


def random_match(system: str, seed: int = 1, max_actions: int = 400):
    """(first state, [(actor id, action, state after), ...]) of a random legal game."""
    eng = engine(system)
    state = eng.start(list(SEATS), {"house_rules": {}, **OPTIONS.get(system, {})}, seed).state
    first = eng.dump_state(state)
    rnd = random.Random(seed)
    steps = []
    tries = 0
    while len(steps) < max_actions and not eng.is_over(state) and tries < 20 * max_actions:
        tries += 1
        prompts = eng.pending(state)
        if not prompts:
            break
        prompt = rnd.choice(prompts)
        ids = [o.id for o in prompt.options]
        if prompt.max_choices == 1 and prompt.min_choices == 1:
            picked = (rnd.choice([i for i in ids if i != "back"] or ids),)
        else:
            picked = tuple(rnd.sample(ids, rnd.randint(prompt.min_choices, min(prompt.max_choices, len(ids)))))
        action = Choose(prompt.id, picked)
        try:
            state = eng.apply(state, action, Actor(prompt.player, gm=prompt.player == GM)).state
        except BautaError:
            continue
        steps.append((prompt.player, eng.dump_action(action), eng.dump_state(state)))
    return first, steps
