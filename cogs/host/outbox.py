"""The order of a channel's publishes: an action's messages go out after its predecessor's.

Two actions of one game can be published at once: a click committed while the previous action's
publish is still sending (two players clicking close together), or while the outbox sweep
publishes again an action a crash cut short. Each publish appends its events to the narrative
above the table and edits the table; run side by side, the older one's lines landed after the
newer one's, or its table edit showed a superseded decision last. The same between games of
one channel: the last action of a game that ended, published again after a crash, and the
opening of the next game there. So the publish of action `seq` of a game waits until every
earlier action of that channel known here (committed here, or claimed by the sweep; a game's
opening is its seq 0, and games of a channel are created one after the other, so their ids
order them) has finished publishing; nothing is read from the store for it.

A publish nested in a publish of the same channel (the bot's own seat answering inside it, a
lobby announcing the game it opened) does not wait for its outer one (it would wait forever). An earlier action whose publish never comes (its
task failed before publishing) is waited for `WAIT` seconds at most, then forgotten: the sweep
publishes it later, late.

What a dead process left unpublished is known here once the start-up sweep has claimed it. Until
then (`recovering` … `recovered`) no action commits (`known`): a click committed before that claim
published its step while the older one still owed, and the older one's lines came out after it,
later, as a separate message. The claim is one store statement: the wait is that short, unless
the sweep never comes (`WAIT` seconds at most).
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
from collections import defaultdict
from contextlib import asynccontextmanager
from collections.abc import AsyncIterator

# The channels whose publish this task is running (a nested publish in one of them does not wait).
_inside: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar("bauta_publish_inside", default=frozenset())

log = logging.getLogger("bauta.outbox")

Step = tuple[int, int]      # (game id, seq): the order of a channel's actions


class PublishOrder:
    WAIT = 5.0      # seconds a publish waits for an earlier action's at most

    def __init__(self) -> None:
        self._unfinished: dict[int, set[Step]] = defaultdict(set)    # channel -> actions owed a publish here
        self._changed = asyncio.Condition()
        self._recovered: asyncio.Event | None = None    # set: the start-up sweep has claimed (None: not awaited)

    def recovering(self) -> None:
        """The start-up sweep is scheduled: until it has claimed what a dead process left
        unpublished (`recovered`), no action commits (`known`)."""
        if self._recovered is None:
            self._recovered = asyncio.Event()

    def recovered(self) -> None:
        """Every action a dead process left unpublished is owed here (or there was none)."""
        gate, self._recovered = self._recovered, None
        if gate is not None:
            gate.set()

    async def known(self) -> None:
        """Return once the actions left unpublished are known here (at once, but at start-up):
        an action committed now publishes after them."""
        gate = self._recovered
        if gate is None or gate.is_set():
            return
        try:
            await asyncio.wait_for(gate.wait(), self.WAIT)
        except TimeoutError:
            # a start-up sweep that never came: stop waiting for it (it sends them late)
            log.warning("no start-up outbox sweep after %.0f s: actions commit without it", self.WAIT)
            self.recovered()

    def owe(self, channel_id: int, game_id: int, seq: int) -> None:
        """Action `seq` of the game was committed (or claimed from the outbox) here: a later
        action's publish in that channel waits for its publish."""
        self._unfinished[channel_id].add((game_id, seq))

    def unfinished(self, channel_id: int) -> set[Step]:
        return set(self._unfinished.get(channel_id, ()))

    def overtaken(self, channel_id: int, game_id: int, seq: int) -> bool:
        """Whether a later action of the game is committed here and waits for this one's publish
        (which then leaves the table to it: the table shows the latest step)."""
        return any(g == game_id and s > seq for g, s in self._unfinished.get(channel_id, ()))

    async def done(self, channel_id: int, game_id: int, seq: int) -> None:
        """Action `seq`'s publish is over (or will not happen here)."""
        steps = self._unfinished.get(channel_id)
        if steps is not None:
            steps.discard((game_id, seq))
            if not steps:
                del self._unfinished[channel_id]
        async with self._changed:
            self._changed.notify_all()

    @asynccontextmanager
    async def turn(self, channel_id: int, game_id: int, seq: int) -> AsyncIterator[None]:
        """Publish action `seq` of the game inside, once the channel's earlier ones known here are out."""
        if channel_id not in _inside.get():
            await self._wait(channel_id, (game_id, seq))
        token = _inside.set(_inside.get() | {channel_id})
        try:
            yield
        finally:
            _inside.reset(token)
            await self.done(channel_id, game_id, seq)

    async def _wait(self, channel_id: int, step: Step) -> None:
        def ready() -> bool:
            return all(s >= step for s in self._unfinished.get(channel_id, ()))

        if ready():
            # the usual case, nothing earlier unfinished: no wait_for (its task and timer, and a
            # turn of the loop, on every publish)
            return
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(ready), self.WAIT)
            except TimeoutError:
                # an earlier publish that never came: stop waiting for it (the sweep sends it late)
                for older in [s for s in self._unfinished.get(channel_id, ()) if s < step]:
                    self._unfinished[channel_id].discard(older)
