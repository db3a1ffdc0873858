"""A game's whole history, step by step, for the replay: the state after each live action,
rebuilt by walking back from the current state through the log's undo data (the same walk as an
exact undo, db/games.py), so nothing new is stored per action.

Step 0 is the game before its first action; step n (the number of live actions) is now. One walk
back keeps a checkpoint every `EVERY` steps (as JSON bytes); a state is then at most `EVERY`
patches from one. Timelines are kept per game version, the newest few only."""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from db import delta
from db.jsontext import dumps_bytes, loads
from db.web import Step

EVERY = 16
KEPT = 8          # timelines kept in memory (each: its log's undo data and n / EVERY checkpoints)


@dataclass
class Timeline:
    steps: list[Step]
    checkpoints: dict[int, bytes]

    @property
    def last(self) -> int:
        return len(self.steps)

    def state(self, k: int) -> dict:
        """The state (its JSON) after step `k`, 0 ≤ k ≤ last."""
        k = max(0, min(k, self.last))
        at = min(c for c in self.checkpoints if c >= k)
        state = loads(self.checkpoints[at])
        for i in range(at, k, -1):
            state = _before(self.steps[i - 1], state)
        return state


def _before(step: Step, after: Any) -> Any:
    if step.state_before:
        return loads(step.state_before)
    assert step.undo_data is not None
    return delta.restore(step.undo_data, after)


def build(steps: list[Step], current: dict) -> Timeline:
    checkpoints = {len(steps): dumps_bytes(current)}
    state: Any = current
    for k in range(len(steps), 0, -1):
        state = _before(steps[k - 1], state)
        if (k - 1) % EVERY == 0:
            checkpoints[k - 1] = dumps_bytes(state)
    return Timeline(steps, checkpoints)


class Replays:
    def __init__(self, store: Any):
        self.store = store
        self._kept: OrderedDict[tuple[int, int], Timeline] = OrderedDict()

    async def timeline(self, game: Any) -> Timeline:
        key = (game.id, game.version)
        found = self._kept.get(key)
        if found is None:
            steps = await self.store.history(game.id)
            # patches of a long game are a few hundred milliseconds of Python: off the loop
            found = await asyncio.to_thread(build, steps, game.state)
            self._kept[key] = found
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return found
