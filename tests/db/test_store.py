import sqlite3

import pytest

from db.store import MIGRATIONS, ChannelBusy, Store, VersionConflict

LATEST = max(int(script.name.split("_", 1)[0]) for script in MIGRATIONS.glob("*.sql"))


async def test_migrations_wal_and_reopen(tmp_path):
    path = tmp_path / "nested" / "bauta.sqlite3"
    store = await Store.open(path)
    assert await store.schema_version() == LATEST
    await store.close()
    store = await Store.open(path)             # idempotent
    assert await store.schema_version() == LATEST
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_one_active_game_per_channel_and_version_check(tmp_path):
    store = await Store.open(tmp_path / "b.sqlite3")
    game = await store.create_game(1, 10, "duel", ["2", "3"], {"n": 0}, 2)
    with pytest.raises(ChannelBusy):
        await store.create_game(1, 10, "duel", ["2", "3"], {"n": 0}, 2)
    moved = await store.commit_action(game, "2", {"type": "x"}, {"n": 1}, [{"text": "hi", "audience": "public"}])
    with pytest.raises(VersionConflict):
        await store.commit_action(game, "3", {"type": "y"}, {"n": 2}, [])
    assert (await store.game(game.id)).state == {"n": 1} and moved.version == 1
    await store.close()


async def test_acknowledged_actions_survive_a_crash(tmp_path):
    """Whatever commit_action returned is on disk: a new process (here a new connection) sees it."""
    path = tmp_path / "b.sqlite3"
    store = await Store.open(path)
    game = await store.create_game(1, 10, "duel", ["2"], {"n": 0}, 2)
    for n in range(1, 6):
        game = await store.commit_action(game, "2", {"n": n}, {"n": n}, [])
    # no close(): simulate the process dying here
    other = await Store.open(path)
    assert (await other.game(game.id)).state == {"n": 5}
    assert len(await other.actions(game.id)) == 5
    await other.close()
    await store.close()


async def test_purge_guild_removes_everything_of_that_guild_only(tmp_path):
    store = await Store.open(tmp_path / "b.sqlite3")
    for guild in (1, 2):
        game = await store.create_game(guild, 10, "duel", ["2"], {}, 2)
        await store.commit_action(game, "2", {}, {"a": 1}, [])
        await store.update_settings(guild, gm_role_id=5)
        await store.set_house_rule(guild, "duel", "rounds", 3)
        await store.save_character(guild, 2, "karmic", "Devon", {"x": 1})
        await store.save_pack(guild, "klash", "mine", "a: 1", 2)
        await store.log_roll(guild, 10, 2, "1d6", 3)
        await store.mark_dm_closed(guild, 2)
        await store.remember_gm(guild, 3)
    await store.purge_guild(1)
    assert await store.games(1) == [] and await store.characters(1, "karmic") == []
    assert (await store.settings(1)).gm_role_id is None and await store.packs(1) == []
    assert (await store.roll_stats(1, 2)).rolls == 0 and await store.dm_closed_since(1, 2) is None
    assert len(await store.games(2)) == 1 and (await store.settings(2)).gm_role_id == 5
    assert await store.known_gms(1) == set() and await store.known_gms(2) == {3}
    await store.close()
    other = await Store.open(tmp_path / "b.sqlite3")          # the purge is on disk, not only in caches
    assert await other.known_gms(1) == set() and await other.known_gms(2) == {3}
    await other.close()


async def test_known_gms_are_remembered_and_forgotten(tmp_path):
    store = await Store.open(tmp_path / "b.sqlite3")
    await store.remember_gm(1, 3)
    await store.remember_gm(1, 4)
    await store.remember_gm(1, 3)                              # seen again: still one entry
    await store.forget_gm(1, 4)
    assert await store.known_gms(1) == {3}
    await store.close()
    store = await Store.open(tmp_path / "b.sqlite3")
    assert await store.known_gms(1) == {3} and await store.known_gms(2) == set()
    await store.close()


async def test_a_version_1_database_is_upgraded_in_place(tmp_path):
    from db.store import MIGRATIONS, _split_sql

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statement in _split_sql((MIGRATIONS / "001_initial.sql").read_text()):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (1)")
        conn.execute("INSERT INTO guild_settings (guild_id, gm_role_id, updated_at) VALUES (1, 5, 'x')")
    store = await Store.open(path)
    assert await store.schema_version() == LATEST
    settings = await store.settings(1)
    assert settings.gm_role_id == 5 and settings.reminder_hours is None
    await store.close()
