"""The arithmetic of a turn clock, pure: people's hours and one decision's deadline.

A `Person` is what a player told Bauta about themselves (`/profile`): their time zone, the hours
nobody may ping them, how long they are away, the games whose public pings they muted. A `Timer`
is one pending decision's clock: when it started, its deadline, how many reminders went out and
whether the deadline was handled. `steps` says what is due at a given time, `due` when to look at
the decision next; both hold every ping out of the person's quiet hours.

A decision gets at most two reminders: a private one at half-time and a public ping shortly
before the deadline (only the later one when both are overdue, after a restart say).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

MINUTES_A_DAY = 24 * 60
LEAD_SHARE = 0.1                    # the public ping comes this share of the period before the deadline…
LEAD_MAX = timedelta(hours=1)       # …at most an hour before it
ALL = "all"                         # `Person.muted`: every game's public pings

# what a decision's clock asks for at a given time
DEADLINE, REMIND, PING, SKIP_PING = "deadline", "remind", "ping", "skip_ping"


@lru_cache(maxsize=1)
def zones() -> tuple[str, ...]:
    """Every IANA zone name, sorted (tzdata: the same list on every machine)."""
    return tuple(sorted(z for z in available_timezones() if "/" in z or z == "UTC"))


def zone(name: str | None) -> ZoneInfo:
    """The zone named (UTC for none or an unknown name: a profile is never unusable)."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo("UTC")


def valid_zone(name: str) -> bool:
    return name in zones()


def parse_hhmm(text: str) -> int | None:
    """"23:30", "7", "07:00", "7.30" → minutes after midnight; None when it is no time of day."""
    text = text.strip().replace(".", ":").replace("h", ":")
    hours, _, minutes = text.partition(":")
    if not hours.isdigit() or (minutes and not minutes.isdigit()) or len(hours) > 2 or len(minutes) > 2:
        return None
    h, m = int(hours), int(minutes or 0)
    if h == 24 and m == 0:
        return 0
    return h * 60 + m if h < 24 and m < 60 else None


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True)
class Person:
    """One user's profile, across servers (`/profile`)."""
    user_id: int
    timezone: str | None = None
    quiet_from: int | None = None       # minutes after their local midnight; both None: no quiet hours
    quiet_to: int | None = None
    away_until: datetime | None = None
    away_stand_in: bool = False         # while away, the bot may answer for them at a deadline
    muted: frozenset[str] = field(default_factory=frozenset)   # game ids (as text) or ALL
    language: str | None = None         # their DMs and private replies, over their client's

    @property
    def zone(self) -> ZoneInfo:
        return zone(self.timezone)

    @property
    def has_quiet(self) -> bool:
        return self.quiet_from is not None and self.quiet_to is not None and self.quiet_from != self.quiet_to

    def local(self, at: datetime) -> datetime:
        return at.astimezone(self.zone)

    def quiet_at(self, at: datetime) -> bool:
        """Whether `at` falls inside their quiet hours (the end is not inside)."""
        if not self.has_quiet:
            return False
        assert self.quiet_from is not None and self.quiet_to is not None
        local = self.local(at)
        m = local.hour * 60 + local.minute
        if self.quiet_from < self.quiet_to:
            return self.quiet_from <= m < self.quiet_to
        return m >= self.quiet_from or m < self.quiet_to      # across midnight (23:00–07:00)

    def quiet_end(self, at: datetime) -> datetime:
        """`at` itself when they may be pinged then, else the moment their quiet hours end."""
        if not self.quiet_at(at):
            return at
        assert self.quiet_to is not None
        local = self.local(at)
        end_time = time(self.quiet_to // 60, self.quiet_to % 60)
        end = datetime.combine(local.date(), end_time, tzinfo=self.zone)
        if end <= local:
            end = datetime.combine(local.date() + timedelta(days=1), end_time, tzinfo=self.zone)
        end = end.astimezone(UTC)
        # a clock change can put the computed end inside the hours again: step out of them
        for _ in range(96):
            if not self.quiet_at(end):
                return end
            end += timedelta(minutes=30)
        return end

    def away_at(self, at: datetime) -> bool:
        return self.away_until is not None and at < self.away_until

    def mutes(self, game_id: int) -> bool:
        return ALL in self.muted or str(game_id) in self.muted


NOBODY = Person(0)


@dataclass(frozen=True)
class Timer:
    """One pending decision's clock. `start`: when it began to run (the decision was asked, its
    player came back, shifted by every pause); `deadline`: None for a decision with no deadline."""
    start: datetime
    deadline: datetime | None
    pings: int = 0          # reminders sent or skipped: 1 after the half-time one, 2 after the public one
    expired: bool = False   # the deadline was handled

    @classmethod
    def asked(cls, at: datetime, period: timedelta | None, person: Person = NOBODY) -> Timer:
        """The clock of a decision asked at `at`: it starts when its player is back, if away."""
        start = max(at, person.away_until) if person.away_until and not person.away_stand_in else at
        return cls(start, start + period if period else None)

    @property
    def period(self) -> timedelta | None:
        return None if self.deadline is None else self.deadline - self.start

    @property
    def half(self) -> datetime | None:
        return None if self.deadline is None else self.start + (self.deadline - self.start) / 2

    @property
    def ping_at(self) -> datetime | None:
        if self.deadline is None:
            return None
        lead = min((self.deadline - self.start) * LEAD_SHARE, LEAD_MAX)
        return self.deadline - lead

    def shifted(self, by: timedelta) -> Timer:
        """The same clock, later by `by` (a pause, an absence): no time of it is lost."""
        if self.deadline is None or by <= timedelta(0):
            return self
        return replace(self, start=self.start + by, deadline=self.deadline + by)

    def next_ping(self) -> datetime | None:
        """When the next reminder is due by the clock alone (None: none left)."""
        return self.half if self.pings == 0 else self.ping_at if self.pings == 1 else None


def due(timer: Timer, person: Person = NOBODY, at: datetime | None = None) -> datetime | None:
    """When to look at this decision next: its next reminder (out of the quiet hours, and out of
    an absence with a stand-in: nobody is pinged while away) or its deadline, whichever comes
    first; None when nothing is left to do. `at`: now, for a reminder already overdue (held by
    quiet hours that began after it fell due: it waits for their end, not for a past moment)."""
    if timer.deadline is None:
        return None
    times = [] if timer.expired else [timer.deadline]
    ping = timer.next_ping()
    if ping is not None:
        if at is not None:
            ping = max(ping, at)
        if person.away_until is not None and person.away_stand_in:
            ping = max(ping, person.away_until)
        times.append(person.quiet_end(ping))
    if person.away_until is not None and not person.away_stand_in and times:
        times = [max(t, person.away_until) for t in times]
    return min(times) if times else None


def steps(timer: Timer, person: Person, at: datetime, game_id: int = 0) -> tuple[list[str], Timer]:
    """What is due at `at`, in order, and the clock once it is done. A person who is away (and
    wants no stand-in) has their clock moved past their return instead: nothing is due."""
    if timer.deadline is None:
        return [], timer
    if person.away_at(at) and not person.away_stand_in:
        assert person.away_until is not None
        return [], timer.shifted(person.away_until - at)
    todo: list[str] = []
    if not timer.expired and at >= timer.deadline:
        todo.append(DEADLINE)
        timer = Timer(timer.start, timer.deadline, timer.pings, True)     # (not `replace`: a tick makes many)
    ping = timer.next_ping()
    if ping is not None and at >= ping and not person.quiet_at(at) and not person.away_at(at):
        ping_at = timer.ping_at
        assert ping_at is not None
        if timer.pings == 0 and at < ping_at:
            todo.append(REMIND)
            timer = Timer(timer.start, timer.deadline, 1, timer.expired)
        else:       # the public one (alone, when both are overdue): never two at once
            todo.append(SKIP_PING if person.mutes(game_id) else PING)
            timer = Timer(timer.start, timer.deadline, 2, timer.expired)
    return todo, timer
