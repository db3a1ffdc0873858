"""`bot.py --copy-to`: a SQLite deployment copied into PostgreSQL, row for row, games still playable."""
import json
import uuid

import pytest

from db.copy import TABLES, copy_store
from db.postgres import PostgresStore
from db.store import Store, StoreError
from rules.common import GM, Actor
from tests.support.matches import SYSTEMS, engine, random_match
from tests.support.stores import postgres_url


async def fill(store: Store) -> dict[str, int]:
    """A deployment with a played game of each system (one partly undone), and everything else."""
    games = {}
    for n, system in enumerate(SYSTEMS):
        first, steps = random_match(system, seed=n + 1, max_actions=60)
        game = await store.create_game(100 + n, 10, system, ["2", "3"], first, 2, meta={"board": {"message": 5}})
        for actor, action, state in steps:
            game = await store.commit_action(game, actor, action, state, [{"audience": "public", "text": "é"}],
                                             outbox=[{"post": actor}])
        games[system] = game.id
    await store.undo(await store.game(games["klash"]), 3)
    await store.end_game(await store.game(games["karmic"]))
    await store.update_settings(100, gm_role_id=2**62, locale="it", deadline_minutes=30)
    await store.set_house_rule(100, "klash", "rounds", {"n": 3})
    await store.save_character(100, 2, "karmic", "Devon", {"x": [1, 2.5, None]})
    await store.save_pack(101, "klash", "mine", "a: 1\n", 2)
    await store.log_roll(100, 10, 2, "2d6", 7, expected=7.0, variance=5.83, secret=True)
    await store.mark_dm_closed(100, 3)
    await store.set_meta_value("commands_digest:1", "abc")
    return games


async def table_rows(store: Store, table: str) -> list[str]:
    rows = await store._all(f"SELECT * FROM {table}")
    return sorted(json.dumps({k: (bytes(v).hex() if isinstance(v, (bytes, memoryview)) else v)
                              for k, v in dict(r).items()}, sort_keys=True) for r in rows)


async def test_copy_to_postgres_is_lossless_and_every_game_replays(tmp_path):
    url = postgres_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    source = await Store.open(tmp_path / "bauta.sqlite3")
    target = await PostgresStore.open(url, schema=schema)
    try:
        games = await fill(source)
        counts = await copy_store(source, target)
        assert counts["games"] == 4 and counts["game_actions"] == len(await source._all("SELECT 1 FROM game_actions"))
        for table in TABLES:
            assert await table_rows(target, table) == await table_rows(source, table), table
        for system, game_id in games.items():
            copied = await target.game(game_id)
            eng = engine(system)
            eng.load_state(copied.state)                                    # loads
            # Replay the live log from the first state: the same state as stored.
            log = await target.actions(game_id, limit=10_000)
            first, _ = random_match(system, seed=SYSTEMS.index(system) + 1, max_actions=0)
            state = eng.load_state(first)
            for record in log:
                actor = Actor(record.actor, gm=record.actor == GM)
                state = eng.apply(state, eng.load_action(record.action), actor).state
            assert eng.dump_state(state) == copied.state, system
        # The copy is a working deployment: undo reads the copied deltas, new ids follow the old ones.
        klash = await target.game(games["klash"])
        undone, _ = await target.undo(klash, 2)
        before = await source.undo(await source.game(games["klash"]), 2)
        assert undone.state == before[0].state
        new = await target.create_game(999, 10, "duel", [], {}, 2)
        assert new.id == max(games.values()) + 1
        with pytest.raises(StoreError):
            await copy_store(source, target)                                # refuses a non-empty target
    finally:
        await source.close()
        await target.close()
        import asyncpg
        conn = await asyncpg.connect(url)
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        await conn.close()
