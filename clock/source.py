"""The one clock every waiting, scheduling or expiring piece of Bauta reads.

`now()` is the current time (aware, UTC). Production uses the system clock; a test installs a
`FakeClock` with `use(...)` and moves it with `advance(...)`: the store's timestamps, the
scheduler's due times and the deadlines shown on prompts all follow it."""
from __future__ import annotations

import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from collections.abc import Iterator


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def timestamp(self) -> float:
        return time.time()


class FakeClock:
    """A clock that moves only when told: `advance(hours=…)`, or `set(datetime)`."""

    def __init__(self, start: datetime | None = None):
        self._now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def timestamp(self) -> float:
        return self._now.timestamp()

    def advance(self, delta: timedelta | None = None, **units: float) -> datetime:
        self._now += delta if delta is not None else timedelta(**units)
        return self._now

    def set(self, at: datetime) -> None:
        self._now = at


CLOCK: SystemClock | FakeClock = SystemClock()


def now() -> datetime:
    return CLOCK.now()


def timestamp() -> float:
    """Seconds since the epoch, by the clock in use (the store's stamps)."""
    return CLOCK.timestamp()


def install(clock: SystemClock | FakeClock) -> SystemClock | FakeClock:
    """Make `clock` the one everything reads; returns the one it replaces."""
    global CLOCK
    previous, CLOCK = CLOCK, clock
    return previous


@contextmanager
def use(clock: SystemClock | FakeClock) -> Iterator[SystemClock | FakeClock]:
    previous = install(clock)
    try:
        yield clock
    finally:
        install(previous)


def parse(stamp: str | None) -> datetime | None:
    """A stored ISO time (always UTC) as an aware datetime; None stays None."""
    if not stamp:
        return None
    at = datetime.fromisoformat(stamp)
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def stamp(at: datetime) -> str:
    """An aware time as the store keeps it: UTC, to the second (sorts as text)."""
    return at.astimezone(UTC).isoformat(timespec="seconds")
