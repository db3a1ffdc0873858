"""bench/run.py's own parts: the floor it judges a click against, arrivals on a schedule, and the
capacity line (what an action costs and how busy the loops are at the offered rate)."""
import asyncio
import os
import random
import sys
import threading
import time

import pytest

import bench.run
from bench.run import Arrivals, _on_core, capacity, floor_sqlite


def _arrive_on_schedule(n: int = 30) -> list[tuple[float, float]]:
    """(when due, when it came) for `n` arrivals due in the next 40 ms, as they came."""
    async def run() -> list[tuple[float, float]]:
        arrivals = Arrivals()
        rng = random.Random(3)
        start = time.perf_counter()
        due = [start + rng.uniform(0.001, 0.04) for _ in range(n)]
        order: list[tuple[float, float]] = []

        async def one(when: float) -> None:
            await arrivals.at(when)
            order.append((when, time.perf_counter()))
        await asyncio.gather(*(one(when) for when in due))
        arrivals.close()
        return order
    return asyncio.run(run())


@pytest.mark.parametrize("timer", ["timerfd", "loop's timer"])
def test_arrivals_come_when_due_never_before_and_in_their_order(timer, monkeypatch):
    if timer != "timerfd":
        monkeypatch.setattr(bench.run._Timerfd, "open", classmethod(lambda cls: None))
    order = _arrive_on_schedule()
    assert len(order) == 30
    assert all(came >= when for when, came in order)
    assert [when for when, _ in order] == sorted(when for when, _ in order)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="timerfd is Linux's")
def test_on_linux_arrivals_come_through_a_timer_the_loop_watches_not_a_thread():
    """A thread handing arrivals over would need the GIL, which a busy loop holds for up to the
    switch interval: the clicks would wait for the bench, not for the bot."""
    threads = threading.active_count()

    async def run() -> tuple[bool, int]:
        arrivals = Arrivals()
        future = arrivals.at(time.perf_counter() + 0.002)
        watched = arrivals._timer is not None
        running = threading.active_count()
        await future
        arrivals.close()
        return watched, running
    watched, running = asyncio.run(run())
    assert watched
    assert running == threads


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is Linux's")
def test_on_one_core_the_thread_and_the_threads_it_starts_stay_there_then_it_goes_back():
    cpus = os.sched_getaffinity(0)
    core = max(cpus)
    seen: list[set[int]] = []
    with _on_core(core):
        inside = os.sched_getaffinity(0)
        worker = threading.Thread(target=lambda: seen.append(os.sched_getaffinity(0)))
        worker.start()
        worker.join()
    assert inside == {core}
    assert seen == [{core}]                 # as aiosqlite's worker, started inside
    assert os.sched_getaffinity(0) == cpus


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is Linux's")
def test_the_floor_on_one_core_leaves_the_loop_its_cpus(tmp_path):
    cpus = os.sched_getaffinity(0)
    samples = asyncio.run(floor_sqlite(tmp_path / "floor.sqlite3", 20, core=min(cpus)))
    assert len(samples) == 20 and all(s > 0 for s in samples)
    assert os.sched_getaffinity(0) == cpus


def test_one_process_at_one_ms_an_action_is_half_busy_at_500_a_second():
    line = capacity(cpu=2.0, actions=2000, rate=500, processes=1)
    assert line == ("CPU per action: 1.00 ms (1000 actions/s for 1 process(es) flat out); "
                    "at 500 actions/s the loop(s) are 50% busy")


def test_two_processes_share_the_offered_rate():
    # the CPU is the two processes' time together: each loop carries half the rate
    assert capacity(cpu=2.0, actions=2000, rate=500, processes=2).endswith(
        "(2000 actions/s for 2 process(es) flat out); at 500 actions/s the loop(s) are 25% busy")


async def test_a_paced_click_from_its_arrival_is_its_wait_for_the_loop_then_its_handling(bot):
    """The "from its arrival" figure splits into the wait before the loop got to the click and the
    click's own handling ("click answered"), click by click."""
    from collections import defaultdict

    from tests.support.fakes import World
    world = World(bot)
    timings: dict[str, list[float]] = defaultdict(list)
    arrivals = Arrivals()
    try:
        await bench.run.play_guild(bot, world, 0, 6, timings, random.Random(1), interval=0.003,
                                   prefix="paced ", arrivals=arrivals)
    finally:
        arrivals.close()
    waited, answered, whole = (timings[f"paced {kind}"] for kind in
                               ("waited for the loop", "click answered", "answered from arrival"))
    assert len(waited) == len(answered) == len(whole) == 6
    assert [round(w + a, 9) for w, a in zip(waited, answered)] == [round(f, 9) for f in whole]
    assert min(waited) >= 0
