"""How much a hostile upload delays the event loop: the 956 KB pack of 40,000 bad entries parsed and
validated in a thread (asyncio.to_thread) versus in a child process (cogs.host.untrusted.parse).

    python3 -m bench.untrusted

Prints the wall time of each and the delay of 10 ms event-loop ticks meanwhile (what any other
member's /roll waits for). The thread shares the GIL with the loop; the child does not.
"""
from __future__ import annotations

import asyncio
import statistics
import time

from cogs.host import untrusted
from rules.karmic import load_pack_text
from tests.support.hostile import bad_entries

TICK = 0.01


async def loop_delays(job) -> tuple[float, list[float]]:
    start = time.perf_counter()
    task = asyncio.ensure_future(job)
    delays = []
    while not task.done():
        before = time.perf_counter()
        await asyncio.sleep(TICK)
        delays.append(time.perf_counter() - before - TICK)
    try:
        await task
    except Exception:  # noqa: BLE001 - the pack is refused: that is the point
        pass
    return time.perf_counter() - start, sorted(delays)


async def main() -> None:
    text = bad_entries(40_000)
    untrusted.warm().result()
    jobs = {"thread": lambda: asyncio.to_thread(load_pack_text, text, "many.yaml"),
            "process": lambda: untrusted.parse(load_pack_text, text, "many.yaml", source="many.yaml")}
    for name, job in jobs.items():
        seconds, delays = await loop_delays(job())
        print(f"{name:8} {seconds:6.2f} s   loop delay p50 {1000 * statistics.median(delays):7.1f} ms   "
              f"p99 {1000 * delays[int(len(delays) * 0.99)]:7.1f} ms   max {1000 * delays[-1]:7.1f} ms   "
              f"({len(delays)} ticks)")


if __name__ == "__main__":
    asyncio.run(main())
