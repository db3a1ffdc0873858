"""The turn clock's arithmetic (clock/hours.py), pure: quiet hours in any zone, across midnight
and clock changes; a decision's two reminders, never inside quiet hours, never more than two."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings, strategies as st

from clock import hours
from clock.hours import DEADLINE, PING, REMIND, SKIP_PING, Person, Timer

ZONES = ("Europe/Rome", "America/New_York", "Asia/Kolkata", "Australia/Adelaide", "Pacific/Chatham", "UTC")
T0 = datetime(2026, 3, 28, 20, 0, tzinfo=UTC)      # the weekend Europe moves its clocks

people = st.builds(Person, st.just(1), st.sampled_from(ZONES), st.integers(0, 1439), st.integers(0, 1439))
moments = st.integers(0, 14 * 24 * 60).map(lambda m: T0 + timedelta(minutes=m))


def test_times_of_day_are_read_as_people_write_them():
    assert [hours.parse_hhmm(x) for x in ("23:30", "7", "07:05", "7.30", "24:00", "25:00", "7:60", "x")] == [
        1410, 420, 425, 450, 0, None, None, None]
    assert hours.valid_zone("Europe/Rome") and not hours.valid_zone("Mars/Olympus")


def test_quiet_hours_across_midnight_in_rome():
    night = Person(1, "Europe/Rome", 23 * 60, 7 * 60)
    winter = datetime(2026, 1, 10, 22, 30, tzinfo=UTC)         # 23:30 in Rome
    assert night.quiet_at(winter)
    assert night.quiet_end(winter) == datetime(2026, 1, 11, 6, 0, tzinfo=UTC)    # 07:00 in Rome
    assert not night.quiet_at(datetime(2026, 1, 11, 6, 0, tzinfo=UTC))
    assert night.quiet_end(datetime(2026, 1, 11, 12, 0, tzinfo=UTC)) == datetime(2026, 1, 11, 12, 0, tzinfo=UTC)


@settings(max_examples=300, deadline=None)
@given(people, moments)
def test_a_ping_held_for_quiet_hours_comes_at_their_end_and_not_inside_them(person, at):
    end = person.quiet_end(at)
    assert end >= at and not person.quiet_at(end)
    # at most a day and its window again: a window that sits on the hour a clock change skips
    # leaves no free moment that day
    assert end - at <= timedelta(hours=49)


def test_a_decisions_clock_reminds_at_half_time_pings_before_the_deadline_then_expires():
    timer = Timer.asked(T0, timedelta(hours=10))
    assert (timer.half, timer.ping_at, timer.deadline) == (T0 + timedelta(hours=5), T0 + timedelta(hours=9),
                                                           T0 + timedelta(hours=10))
    short = Timer.asked(T0, timedelta(minutes=1))           # the lead is a tenth of the period
    assert (short.half, short.ping_at) == (T0 + timedelta(seconds=30), T0 + timedelta(seconds=54))
    nobody = Person(1)
    todo, timer = hours.steps(timer, nobody, T0 + timedelta(hours=5))
    assert todo == [REMIND] and hours.due(timer, nobody) == T0 + timedelta(hours=9)
    todo, timer = hours.steps(timer, nobody, T0 + timedelta(hours=9))
    assert todo == [PING] and hours.due(timer, nobody) == T0 + timedelta(hours=10)
    todo, timer = hours.steps(timer, nobody, T0 + timedelta(hours=10))
    assert todo == [DEADLINE] and hours.due(timer, nobody) is None
    # overdue both (a bot that was down): only the later one; muted: it is skipped, not sent
    assert hours.steps(Timer.asked(T0, timedelta(hours=10)), nobody, T0 + timedelta(hours=9, minutes=30))[0] == [PING]
    muted = Person(1, muted=frozenset({"7"}))
    assert hours.steps(Timer.asked(T0, timedelta(hours=10)), muted, T0 + timedelta(hours=9), 7)[0] == [SKIP_PING]


def test_an_absence_starts_the_clock_at_the_return_unless_the_bot_may_stand_in():
    back = T0 + timedelta(days=2)
    assert Timer.asked(T0, timedelta(hours=1), Person(1, away_until=back)).deadline == back + timedelta(hours=1)
    assert Timer.asked(T0, timedelta(hours=1), Person(1, away_until=back, away_stand_in=True)).deadline == (
        T0 + timedelta(hours=1))
    # away meanwhile: the clock moves past the return, nothing is due
    todo, timer = hours.steps(Timer.asked(T0, timedelta(hours=1)), Person(1, away_until=back), T0 + timedelta(minutes=40))
    assert todo == [] and timer.deadline == back + timedelta(minutes=20)


@settings(max_examples=200, deadline=None)
@given(people, st.integers(1, 72 * 60), st.lists(st.integers(1, 600), min_size=1, max_size=80))
def test_ticks_at_any_times_send_at_most_two_reminders_and_none_in_quiet_hours(person, minutes, gaps):
    timer = Timer.asked(T0, timedelta(minutes=minutes), person)
    at, sent = T0, 0
    for gap in gaps:
        due = hours.due(timer, person)
        at = max(at + timedelta(minutes=gap), due) if due is not None and gap > 300 else at + timedelta(minutes=gap)
        todo, timer = hours.steps(timer, person, at)
        pings = [k for k in todo if k in (REMIND, PING)]
        assert not pings or not person.quiet_at(at)
        sent += len(pings)
        if DEADLINE in todo:
            assert timer.deadline is not None and at >= timer.deadline
    assert sent <= 2
