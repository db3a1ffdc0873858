"""What the generic player (``rules.common.player``) needs to play Karmic: a player's characters, or
the GM's NPCs (the seat ``GM``).

A seat sees the characters it controls. Everything else that is card-shaped is re-sampled by
``determinize``: the other side's hands (combat hands, initiative draws, check hands), their face-down
register cards, the order and contents of their karma decks and discards, the world deck (NPCs without a
deck of their own draw from it) and the order of the seat's own deck. Each deck's cards stay that deck's:
a pool is shuffled back into the same places, so every count stays what the seat could count. The GM's
view shows the players' hands, but an NPC played by the bot must not use them: for the seat ``GM`` the
players' cards are re-sampled like any other side's.
"""
from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable

from rules.common.engine import GM, PUBLIC
from rules.common.player import GameAI
from rules.common.rng import Rng

from .state import KarmicState
from .tables import BOT_POLICY_PREFS


class _Slots:
    """Places holding cards of one deck that the seat cannot see, to refill from a shuffled pool."""

    def __init__(self) -> None:
        self.get: list[Callable[[], str]] = []
        self.put: list[Callable[[str], None]] = []

    def cards(self, items: list) -> None:
        for i in range(len(items)):
            self.get.append(functools.partial(items.__getitem__, i))
            self.put.append(functools.partial(items.__setitem__, i))

    def field(self, obj, name: str) -> None:
        self.get.append(lambda: getattr(obj, name))
        self.put.append(lambda v: setattr(obj, name, v))

    def shuffle(self, rng: Rng) -> None:
        pool = sorted(g() for g in self.get)
        rng.shuffle(pool)
        for put, card in zip(self.put, pool, strict=True):
            put(card)


def _mine(state: KarmicState, seat: str) -> set[str]:
    return {k for k, c in state.controllers.items() if c == seat}


class KarmicAI(GameAI):
    def determinize(self, state: KarmicState, seat: str, rng: Rng) -> KarmicState:
        world = copy.deepcopy(state)
        seen = _mine(world, seat)
        slots: dict[str, _Slots] = {}

        def source(key: str) -> str:
            return key if world.characters[key].deck is not None else "(world)"

        def of(key: str) -> _Slots:
            return slots.setdefault(source(key), _Slots())

        for key, char in sorted(world.characters.items()):
            if char.deck is not None:
                if key in seen:
                    of(key).cards(char.deck.cards)    # the order of one's own deck is unknown too
                else:
                    of(key).cards(char.deck.cards)
                    of(key).cards(char.deck.discards)
        world_slots = slots.setdefault("(world)", _Slots())
        world_slots.cards(world.world.cards)
        world_slots.cards(world.world.discards)
        cb = world.combat
        if cb is not None:
            for key, fighter in sorted(cb.fighters.items()):
                if key not in seen:
                    of(key).cards(fighter.hand)
                    if key in cb.init_hands:
                        of(key).cards(cb.init_hands[key])
            for register in cb.registers:
                for decl in register.decls:
                    if not decl.revealed and decl.card and decl.owner not in seen:
                        of(decl.owner).field(decl, "card")
        if world.check is not None:
            for side in world.check.sides:
                if side.key not in seen:
                    of(side.key).cards(side.hand)
        for name in sorted(slots):
            slots[name].shuffle(rng)
        world.options = dict(world.options, bot_plays_npcs=False)   # in a sampled world the search plays them
        world.rng = Rng(rng.next_u64())
        return world

    def candidates(self, state: KarmicState, prompt, rng: Rng) -> list[tuple[str, ...]]:
        """Paging (``more``) and stepping back lead nowhere a search can score. Among maneuvers, the
        bot fights: the attacks and defences of the fixed NPC policy, in their plain forms (a called
        shot, a no-step or a disengage is left to people, whom a one-ply look cannot judge for)."""
        ids = [o.id for o in prompt.options]
        useful = [i for i in ids if i not in ("more", "back")] or ids
        fighting = [i for i in useful if i.split(".")[0] in BOT_POLICY_PREFS and not i.endswith((".n", ".c"))]
        return [(i,) for i in (fighting or useful)]

    def information(self, state: KarmicState, seat: str) -> dict:
        """A player knows its own view. The NPCs' side (the seat GM) knows the public view, its
        prompts and its own NPCs' part of the GM's view: not the players' cards the GM can see."""
        if seat != GM:
            return self.engine.view_for(state, seat)
        mine = _mine(state, GM)
        gm = self.engine.view_for(state, GM)
        own = {"characters": [c for c in gm["characters"] if c["key"] in mine], "prompts": gm["prompts"]}
        if "combat" in gm:
            cb = gm["combat"]
            own["fighters"] = [f for f in cb["fighters"] if f["key"] in mine]
            own["registers"] = [[d for d in r["decls"] if d["owner"] in mine] for r in cb["registers"]]
            own["turn"] = cb["turn"] if cb["turn"] and cb["turn"]["who"] in mine else None
            own["surprise"] = cb["surprise"]
        if "check" in gm:
            own["sides"] = [x for x in gm["check"]["sides"] if x["key"] in mine]
        return {"public": self.engine.view_for(state, PUBLIC), "own": own}

    def evaluate(self, state: KarmicState, seat: str) -> float:
        mine = _mine(state, seat)
        cb = state.combat
        if cb is None:
            result = (state.check.result if state.check is not None else {}) or {}
            if "success" not in result:
                return 0.5
            actor_mine = bool(state.check.sides) and state.check.sides[0].key in mine
            return 1.0 if bool(result["success"]) == actor_mine else 0.0
        x = 0.0
        for key, fighter in cb.fighters.items():
            char = state.characters[key]
            sign = -1.0 if key in mine else 1.0
            x += sign * (3.0 * char.hp_marked / max(1, char.hp_max) + (2.0 if fighter.out else 0.0)
                         + (0.5 if fighter.prone else 0.0))
        for e in cb.engagements:
            if e.live and e.init:
                x += 0.3 if e.init in mine else -0.3
        return 1.0 / (1.0 + math.exp(-x))

