"""The turn clock's tables on both backends: profiles, the awaited decisions (written with a
publish, read by user and by due time), compare-and-set of a clock, idle games and archiving."""
from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from clock.hours import ALL, Person, Timer
from clock.source import FakeClock, use
from db.clock import Awaiting

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def row(game_id: int, prompt: str, user: int, asked: datetime, due: datetime | None, guild: int = 1,
        deadline: datetime | None = None) -> Awaiting:
    return Awaiting(game_id, prompt, user, guild, 10 + game_id, False, asked, 3, Timer(asked, deadline), due)


async def test_a_profile_comes_back_as_it_was_saved_and_is_forgotten(store):
    person = Person(2**62, "Europe/Rome", 23 * 60, 7 * 60, T0 + timedelta(days=3), True, frozenset({"12", ALL}), "it")
    await store.save_profile(person)
    assert await store.profile(2**62) == person
    assert (await store.profiles([2**62, 5])) == {2**62: person, 5: Person(5)}
    assert await store.forget_profile(2**62) and await store.profile(2**62) == Person(2**62)
    assert not await store.forget_profile(2**62)


async def test_the_awaited_decisions_are_read_by_user_and_by_due_time(store):
    first = await store.create_game(1, 11, "duel", ["2", "3"], {}, 2)
    second = await store.create_game(2, 12, "duel", ["2"], {}, 2)
    await store._write(*store.awaiting_statements(first.id, [], [
        row(first.id, "a", 2, T0, T0 + timedelta(hours=1), deadline=T0 + timedelta(hours=2)),
        row(first.id, "b", 3, T0, None)]))
    await store._write(*store.awaiting_statements(second.id, [], [
        row(second.id, "c", 2, T0 - timedelta(days=1), T0 + timedelta(minutes=5), guild=2)]))
    # /turns: every server, oldest first
    assert [(r.game_id, r.prompt_id, r.guild_id) for r in await store.awaiting_for(2)] == [
        (second.id, "c", 2), (first.id, "a", 1)]
    # the scheduler: only what is due, earliest first
    assert [r.prompt_id for r in await store.due_awaiting(T0 + timedelta(minutes=4))] == []
    assert [r.prompt_id for r in await store.due_awaiting(T0 + timedelta(hours=1))] == ["c", "a"]
    assert await store.next_due() == T0 + timedelta(minutes=5)
    # a publish keeps "a", replaces nothing else: "b" is answered
    await store._write(*store.awaiting_statements(first.id, ["a"], []))
    assert [r.prompt_id for r in await store.awaiting_of(first.id)] == ["a"]
    # compare-and-set: the first advance wins, a second from the same read does not
    [a] = await store.awaiting_of(first.id)
    later = a.with_timer(Timer(a.timer.start, a.timer.deadline, pings=1), T0 + timedelta(hours=2))
    assert await store.advance_awaiting(a, later)
    assert not await store.advance_awaiting(a, later)
    [stored] = await store.awaiting_of(first.id)
    assert (stored.timer.pings, stored.due_at) == (1, T0 + timedelta(hours=2))
    # an ended game awaits nobody
    await store.end_game(first)
    assert await store.awaiting_of(first.id) == []
    assert await store.owed_users() == set()


async def test_idle_games_are_archived_after_their_servers_days_never_deleted(store):
    with use(FakeClock(T0)) as clock:
        quiet = await store.create_game(1, 10, "duel", ["2"], {}, 2)
        busy = await store.create_game(2, 10, "duel", ["2"], {}, 2)
        await store.update_settings(2, archive_days=10)
        clock.set(T0 + timedelta(days=9))
        await store._write(*store.awaiting_statements(quiet.id, [], [row(quiet.id, "a", 2, T0, None)]))
        assert await store.archive_candidates(clock.now()) == []
        clock.set(T0 + timedelta(days=10, seconds=1))
        assert [g.id for g in await store.archive_candidates(clock.now())] == [busy.id]     # its server says 10
        clock.set(T0 + timedelta(days=61))
        found = await store.archive_candidates(clock.now())
        assert [g.id for g in found] == [quiet.id, busy.id]
        assert await store.archive_game(found[0])
        assert not await store.archive_game(found[0])                   # once
        archived = await store.game(quiet.id)
        assert archived.status == "archived" and not archived.active
        assert await store.awaiting_of(quiet.id) == []
        assert [g.id for g in await store.archive_candidates(clock.now())] == [busy.id]


async def test_a_version_7_server_reminder_becomes_a_deadline_of_twice_its_hours(tmp_path):
    from db.store import MIGRATIONS, Store, _split_sql

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for script in sorted(MIGRATIONS.glob("*.sql")):
            if int(script.name.split("_", 1)[0]) <= 7:
                for statement in _split_sql(script.read_text()):
                    conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (7)")
        conn.execute("INSERT INTO guild_settings (guild_id, reminder_hours, updated_at) VALUES (1, 2, 'x'), (2, NULL, 'x')")
    store = await Store.open(path)
    try:
        # "remind after 2 h" was a reminder at 2 h and the stand-in 2 h later: a 4 h deadline
        assert (await store.settings(1)).deadline_minutes == 240
        assert (await store.settings(2)).deadline_minutes is None
        plan = await store._all("EXPLAIN QUERY PLAN SELECT * FROM awaiting WHERE due_at IS NOT NULL AND due_at <= ? "
                                "ORDER BY due_at LIMIT 200", ("2026",))
        assert any("awaiting_due" in str(tuple(r)) for r in plan)       # the due index, not a scan
    finally:
        await store.close()
