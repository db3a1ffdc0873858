"""Where the bot thinks: a decision of a heavy level runs in a pool of child processes, the rest in
a worker thread.

Why processes: a thread shares the GIL with the event loop, and a search is pure Python that holds
it for most of each switch interval, so every click of every game waited behind the bot (the
loop's p99 lag was 5.4 ms with one hard bot thinking, 15.6 ms with four; docs/benchmarks.md, "Bot
thinking off the loop"). A child has its own GIL and its own core: the loop stays free, and the
decisions of several games use several cores.

Only plain data crosses to a child: the system's name, the state as its engine's JSON, the seat,
the level, the salt and the time cap; the child rebuilds the engine and the player by name
(`rules.bots`) and runs the very `timed` decision a thread would (`rules.common.player`), so the
choice is the same (tests/cogs/test_thinking.py). The children come from the fork server of
cogs/host/untrusted.py (never a fork of this threaded process), started once with the rules
imported, and read the sample packs once (`rules.bots.prepare`).

Light levels (easy: one ply over one sampled world, a few ms) stay in a thread: a hand-off to a
child costs about a millisecond each way, more than such a decision holds the GIL, and the test
suite plays thousands of them. So do games the rules do not know by name (a test's own game).
"""
from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
import weakref
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import content
from rules import bots
from rules.common.engine import Choose
from rules.common.player import GameAI, timed

from . import untrusted

log = logging.getLogger("bauta.thinking")

HEAVY = frozenset({"normal", "hard"})   # the levels that think in a child (see the module's doc)
WORKERS = max(1, min(os.cpu_count() or 1, 8))
NICE = 5                                # the children's priority, below the bot's own
# How long past its own cap a child's decision is waited for (a loaded machine, the first decision
# of a child) before it counts as hung: the deadline inside the search ends any sane one sooner.
MARGIN = 10.0

_pool: ProcessPoolExecutor | None = None
# At most WORKERS decisions are handed over at once, so one that is waited for is running, not
# queued behind others: its wait starts when it does. One semaphore per event loop (tests run many).
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


class Hung(Exception):
    """A child's decision ran past its cap and the margin: it was stopped, the decision given up."""


def local(ai: GameAI, state: Any, seat: str, lvl: str, salt: str, seconds: float) -> Choose | None:
    """One decision in this process (a worker thread runs it)."""
    return timed(ai, state, seat, lvl, salt, seconds, time.monotonic)


def pooled(system: str, ai: GameAI, lvl: str) -> bool:
    """Whether this decision goes to a child: a heavy level, of a game whose player the child
    rebuilds by name as exactly the one registered (a test may register another)."""
    return lvl in HEAVY and bots.player(system) is ai


async def think(system: str, ai: GameAI, state: Any, seat: str, lvl: str, salt: str, seconds: float,
                data: dict | None = None) -> Choose | None:
    """The seat's decision, off the event loop. `data`: the state's JSON when the caller has it
    (a game's stored state), else it is dumped here. Raises Hung for a child that would not end
    (the caller gives up as on any error of the bot)."""
    if not pooled(system, ai, lvl):
        return await asyncio.to_thread(local, ai, state, seat, lvl, salt, seconds)
    payload = ai.engine.dump_state(state) if data is None else data
    async with _slot():
        pool = _executor()
        future = pool.submit(bots.think, system, payload, seat, lvl, salt, seconds, time.monotonic)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), seconds + MARGIN)
        except TimeoutError:
            # A running child cannot be cancelled: the pool is ended with it (the others' decisions
            # see a broken pool and are made again in a thread) and the next decision starts a new one.
            log.error("a %s decision in %s ran past %.0f s: its child is stopped", lvl, system, seconds + MARGIN)
            _recycle(pool)
            raise Hung(system) from None
        except BrokenProcessPool:
            # a child died (killed, out of memory) or the pool was ended: the same decision, here
            log.warning("the thinking pool broke: a %s decision in %s is made in a thread", lvl, system)
            _recycle(pool)
    return await asyncio.to_thread(local, ai, state, seat, lvl, salt, seconds)


def _slot() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slot = _slots.get(loop)
    if slot is None:
        slot = _slots[loop] = asyncio.Semaphore(WORKERS)
    return slot


def _executor() -> ProcessPoolExecutor:
    """The pool, created on the first heavy decision (a bot nobody plays against starts no child)."""
    global _pool
    if _pool is None:
        # at a lower priority: on a busy machine the OS runs the event loop before a search
        _pool = ProcessPoolExecutor(max_workers=WORKERS, mp_context=untrusted.context(), initializer=bots.prepare,
                                    initargs=(functools.partial(os.nice, NICE), content.install))
    return _pool


def _recycle(pool: ProcessPoolExecutor) -> None:
    global _pool
    if _pool is pool:
        _pool = None
    _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    # the executor keeps its children in a private dict: there is no public way to kill them (3.14 adds one)
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def shutdown() -> None:
    """End the pool (the bot closes): decisions under way are dropped, their children killed."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        _stop(pool)
