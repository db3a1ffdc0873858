"""The web companion under test: a real bot with its web server on an ephemeral port, members'
links asked through `/game web` as Discord would, and pages read over HTTP."""
from __future__ import annotations

import contextlib
import re
from dataclasses import replace

import aiohttp

from tests.conftest import make_bot, make_config
from web.server import WebConfig

URL = re.compile(r"(http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_\-.]+(?:/\d+)?)")
WEB = WebConfig(bind=("127.0.0.1", 0), public_url="", rate=1000.0, burst=1000.0)


async def web_bot(database, **web):
    """A bot whose web companion listens on a free port of this machine."""
    bot = await make_bot(replace(database.config() if database else make_config("x"), web=replace(WEB, **web)))
    await bot.start_web()
    assert bot.web is not None and bot.web.port
    return bot


@contextlib.asynccontextmanager
async def serving(database, world, **web):
    """A web bot of its own settings (`web_bot`), the world pointed at it, closed at the end."""
    bot = await web_bot(database, **web)
    world.attach(bot)
    try:
        yield bot
    finally:
        await bot.close()


async def ask_link(bot, world, user, channel=None, locale=None, **options) -> str:
    """`/game web` by `user` in `channel` (the table by default): the link in its private answer."""
    cog = bot.get_cog("GameCog")
    interaction = world.interaction(user, channel or world.channels[10], locale=locale)
    await cog.web.callback(cog, interaction, **options)
    said = [m for m in world.sent if m.ephemeral][-1].content
    found = URL.search(said or "")
    assert found, said
    return found.group(1)


async def fetch(url: str, method: str = "GET", **kwargs) -> tuple[int, str, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.request(method, url, allow_redirects=False, **kwargs) as response:
            return response.status, await response.text(errors="replace"), dict(response.headers)


async def fetch_bytes(url: str) -> tuple[int, bytes, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as response:
            return response.status, await response.read(), dict(response.headers)
