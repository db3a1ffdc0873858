"""Two bot processes over one database (on both backends): a click applies once wherever it lands."""
import asyncio

import pytest

from tests.cogs.test_framework import start_duel, start_prompt
from tests.conftest import make_bot
from tests.support.fakes import World, click
from tests.support.stores import BACKENDS


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


def mirror(bot) -> World:
    """The same guild, channel and members as the `world` fixture, seen by another bot process."""
    world = World(bot)
    world.channel(10, "table")
    for user_id, name in ((1, "Owner"), (2, "Alice"), (3, "Bruno")):
        world.user(user_id, name, admin=user_id == 1)
    return world


async def test_the_same_click_on_two_processes_applies_once(bot, world):
    game = await start_duel(world)
    message = start_prompt(world)
    second = await make_bot(bot.config)
    try:
        other = mirror(second)
        clicks = [click(w, message, w.users[2], index=i % 2) for i in range(20) for w in (world, other)]
        await asyncio.gather(*clicks)
        record = await bot.store.game(game.id)
        assert record.version == 1 and len(await second.store.actions(game.id, limit=100)) == 1
        refusals = [m for w in (world, other) for m in w.ephemeral(w.users[2]) if "already" in (m.content or "")]
        assert len(refusals) == 39
    finally:
        await second.close()
