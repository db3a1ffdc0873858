"""What keeps open pages up to date: one poller per process reads the version of every game some
page is watching, in one query, a few times a second, and wakes that game's pages when it moved.

Reading the store (not a signal inside the process) is what makes a move made by another bot
process show on a page served by this one; the read is one indexed lookup per poll for all the
watched games together, not one per open page."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

log = logging.getLogger("bauta.web")

POLL = 0.25         # seconds between reads: a move shows within about this plus one fetch


class Watch:
    def __init__(self, store: Any, poll: float = POLL):
        self.store = store
        self.poll = poll
        self._marks: dict[int, tuple[int, str]] = {}
        self._waiters: dict[int, set[asyncio.Event]] = {}
        self._task: asyncio.Task | None = None
        self._closed = False
        self._soon = asyncio.Event()

    def subscribe(self, game_id: int) -> asyncio.Event:
        event = asyncio.Event()
        self._waiters.setdefault(game_id, set()).add(event)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return event

    def unsubscribe(self, game_id: int, event: asyncio.Event) -> None:
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(event)
            if not waiters:
                self._waiters.pop(game_id, None)
                self._marks.pop(game_id, None)

    def mark(self, game_id: int) -> tuple[int, str] | None:
        return self._marks.get(game_id)

    def poke(self, game_id: int) -> None:
        for event in self._waiters.get(game_id, ()):
            event.set()

    def changed(self, game_id: int) -> None:
        """This process showed a step of the game: read it now rather than at the next poll."""
        if game_id in self._waiters:
            self._soon.set()

    async def _run(self) -> None:
        while self._waiters and not self._closed:
            try:
                marks = await self.store.game_version(sorted(self._waiters))
            except Exception:  # noqa: BLE001 - a failed read is tried again at the next poll
                log.exception("web: reading the watched games failed")
                marks = {}
            for game_id, mark in marks.items():
                if self._marks.get(game_id) != mark:     # (the first read too: a page compares)
                    self._marks[game_id] = mark
                    self.poke(game_id)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._soon.wait(), self.poll)
            self._soon.clear()

    async def close(self) -> None:
        self._closed = True
        for waiters in self._waiters.values():
            for event in waiters:
                event.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    @property
    def closed(self) -> bool:
        return self._closed
