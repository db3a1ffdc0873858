"""Fixtures the cog tests share."""
import pytest

from clock.source import FakeClock, use

BOT = 99        # the bot's own user id in the fake world


@pytest.fixture
def bauta(bot, world):
    """The bot's own user, as discord.py gives it once logged in."""
    me = world.user(BOT, "Bauta")
    me.bot = True
    bot._connection.user = me
    return me


@pytest.fixture
def fake_clock():
    """The one clock (clock/source.py) stopped at Monday 2026-01-05 12:00 UTC, moved by the test."""
    with use(FakeClock()) as clock:
        yield clock
