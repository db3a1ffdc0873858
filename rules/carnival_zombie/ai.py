"""What the generic player (``rules.common.player``) needs to play a Carnival Zombie seat.

Hidden from every player (``views``): the order of the Nightmare, Boss, item, obstacle and fortification
piles, the Abyss draws to come (the Rng, and a scripted physical bag), and in "Just a Matter of Time" who
the traitor is (and their sabotage) unless it is you or they are unmasked. ``determinize`` re-shuffles
the piles, forgets the script, re-seeds the dice and, for a hidden traitor, names one of the others.
"""
from __future__ import annotations

import copy
import math

from rules.common import Prompt
from rules.common.player import GameAI
from rules.common.rng import Rng

from .engine import ENGINE
from .state import GameState


class CarnivalZombieAI(GameAI):
    def determinize(self, state: GameState, seat: str, rng: Rng) -> GameState:
        world = copy.deepcopy(state)
        piles: tuple[list, ...] = (world.nightmare, world.boss_deck, world.tiles, world.fort_tiles,
                                   *(world.item_decks[k] for k in sorted(world.item_decks)))
        for pile in piles:
            pile.sort(key=str)
            rng.shuffle(pile)
        world.bag_script = []
        if world.traitor and world.traitor != seat and not world.unmasked and not world.over:
            others = sorted(p for p in world.seats if p != seat)
            world.traitor = others[rng.below(len(others))] if others else world.traitor
            world.sabotage = ""
        world.rng = Rng(rng.next_u64())
        return world

    def candidates(self, state: GameState, prompt: Prompt, rng: Rng) -> list[tuple[str, ...]]:
        """A step's attacks are one multi-choice that takes at most one answer per attack: the bot
        weighs each single answer (the others spread over the least stressed) and "auto" alone."""
        if prompt.kind == "attack":
            return [(o.id,) for o in prompt.options]
        return super().candidates(state, prompt, rng)

    def evaluate(self, state: GameState, seat: str) -> float:
        if state.over:
            return 1.0 if state.result == "win" else 0.0
        # Survival: every Ticket lived through counts; stress, fallen characters and a sinking city hurt.
        stress = sum(c.stress for c in state.characters)
        down = sum(1 for c in state.characters if c.incapacitated)
        x = 0.6 * state.ticket - 0.3 * stress - 1.5 * down - 0.4 * len(state.sunken)
        return 1.0 / (1.0 + math.exp(-0.5 * x))


AI = CarnivalZombieAI(ENGINE)
