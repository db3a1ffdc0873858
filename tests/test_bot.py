import os
import subprocess
import sys
from pathlib import Path

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
