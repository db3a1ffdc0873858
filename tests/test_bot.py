import os
import subprocess
import sys
from pathlib import Path

import pytest

from db.store import MIGRATIONS

ROOT = Path(__file__).resolve().parents[1]


def run(args, tmp_path, **env):
    environment = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    environment.update({"BAUTA_DB": str(tmp_path / "db" / "b.sqlite3"), **env})
    return subprocess.run([sys.executable, "bot.py", *args], cwd=ROOT, env=environment, capture_output=True,
                          text=True, timeout=120)


def test_check_works_offline_and_lists_commands(tmp_path):
    result = run(["--check"], tmp_path)
    assert result.returncode == 0, result.stderr
    latest = max(int(script.name.split("_", 1)[0]) for script in MIGRATIONS.glob("*.sql"))
    assert f"schema version {latest})" in result.stdout
    for command in ("/roll", "/game status", "/game undo", "/hand", "/gm role", "/pack import", "/help"):
        assert command in result.stdout
    assert (tmp_path / "db" / "b.sqlite3").exists()


def test_missing_token_is_one_clear_line(tmp_path):
    result = run([], tmp_path, DISCORD_TOKEN="")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "DISCORD_TOKEN" in result.stderr


def test_unreachable_discord_is_one_clear_line(tmp_path, monkeypatch):
    """No network (or a bad proxy): one line and exit 1, not a traceback."""
    import asyncio

    import aiohttp

    import bot as bot_module

    async def refuse(self, token):
        raise aiohttp.ClientConnectionError("no route to discord.com")

    monkeypatch.setattr(bot_module.BautaBot, "start", refuse)
    config = bot_module.Config(token="abc", db_path=str(tmp_path / "b.sqlite3"), dev_guild=None, log_level="WARNING")
    assert asyncio.run(bot_module.run(config)) == 1


def test_shards_from_the_command_line_and_the_environment(tmp_path, monkeypatch):
    import bot as bot_module

    assert bot_module.parse_shards("0-3", "16") == ([0, 1, 2, 3], 16)
    assert bot_module.parse_shards("0,2,5-6", 8) == ([0, 2, 5, 6], 8)
    assert bot_module.parse_shards("", "") == (None, None)
    for ids, count in (("0-3", ""), ("4", "4"), ("a-b", "4"), ("0", "0")):
        with pytest.raises(SystemExit):
            bot_module.parse_shards(ids, count)
    result = run(["--check", "--shards", "4-7", "--shard-count", "16"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "shards: [4, 5, 6, 7] of 16" in result.stdout
    result = run(["--check"], tmp_path, BAUTA_SHARDS="1", BAUTA_SHARD_COUNT="2")
    assert "shards: [1] of 2" in result.stdout
    result = run(["--check", "--shards", "9", "--shard-count", "4"], tmp_path)
    assert result.returncode != 0 and "shard ids go from 0 to 3" in result.stderr
    config = bot_module.Config(token=None, db_path=str(tmp_path / "b.sqlite3"), dev_guild=None, log_level="WARNING",
                               shard_ids=[0, 1, 2, 3], shard_count=16)
    client = bot_module.BautaBot(config)
    assert (client.shard_ids, client.shard_count) == ([0, 1, 2, 3], 16)


async def test_command_sync_digest_is_kept_per_application(tmp_path, monkeypatch):
    """A database moved to another application syncs that application's commands."""
    import discord

    from tests.conftest import make_bot

    client = await make_bot(tmp_path / "b.sqlite3")
    synced = []

    async def sync(guild=None):
        synced.append(client.application_id)
        return []

    monkeypatch.setattr(client.tree, "sync", sync)
    try:
        for app in (111, 111, 222, 111):
            monkeypatch.setattr(discord.Client, "application_id", property(lambda self, app=app: app))
            await client.sync_commands()
        assert synced == [111, 222]
        assert await client.store.get_meta("commands_digest:222") == await client.store.get_meta("commands_digest:111")
    finally:
        await client.close()


def test_copy_to_needs_a_postgres_url_and_an_existing_database(tmp_path):
    result = run(["--copy-to", "mysql://x"], tmp_path)
    assert result.returncode == 2 and "postgresql://" in result.stderr
    result = run(["--copy-to", "postgresql://nobody@127.0.0.1:1/x"], tmp_path)
    assert result.returncode == 2 and "no SQLite database" in result.stderr


def test_copy_to_from_the_command_line(tmp_path):
    """The CLI end to end against the test server: a checked SQLite install copied, then refused
    a second time (the target is no longer empty)."""
    import uuid

    from tests.support.stores import postgres_url

    url = postgres_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    assert run(["--check"], tmp_path).returncode == 0                 # creates the SQLite file
    import sqlite3
    with sqlite3.connect(tmp_path / "db" / "b.sqlite3") as conn:
        conn.execute("INSERT INTO meta (key, value) VALUES ('commands_digest:1', 'x')")
    try:
        result = run(["--copy-to", url], tmp_path, BAUTA_DB_SCHEMA=schema)
        assert result.returncode == 0, result.stderr
        assert "copied" in result.stdout and "games 0" in result.stdout and "meta 1" in result.stdout
        again = run(["--copy-to", url], tmp_path, BAUTA_DB_SCHEMA=schema)
        assert again.returncode == 1 and "not empty" in again.stderr
    finally:
        import asyncio

        import asyncpg

        async def drop():
            conn = await asyncpg.connect(url)
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await conn.close()
        asyncio.run(drop())


def test_start_up_leaves_what_it_built_out_of_the_collectors_sight_once_a_process(tmp_path):
    """A full collection walked every module, catalogue and pack on each pass: a 30-65 ms pause
    of the loop, every click waiting, at 500 clicks a second (bench/run.py). Frozen once, after a
    collection, in a fresh interpreter as the bot's own process is."""
    script = f"""
import asyncio, gc, sys
sys.path.insert(0, {str(ROOT)!r})
import bot
from bot import BautaBot, Config

def tracked(obj):
    return any(o is obj for o in gc.get_objects())

async def main():
    before = (gc.get_freeze_count(), tracked(bot.__dict__))
    config = Config(token=None, db_path={str(tmp_path / 'b.sqlite3')!r}, dev_guild=None, log_level="WARNING")
    first = BautaBot(config)
    await first.prepare()
    after = (gc.get_freeze_count() > 0, tracked(bot.__dict__), tracked(first.store))
    await first.store.close()
    second = BautaBot(config)
    await second.prepare()
    print(before, after, tracked(second.store))     # (the second bot's start-up froze nothing)
    await second.store.close()

asyncio.run(main())
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[0] == "(0, True) (True, False, False) True"
