"""Fixtures the cog tests share."""
import pytest


BOT = 99        # the bot's own user id in the fake world


@pytest.fixture
def bauta(bot, world):
    """The bot's own user, as discord.py gives it once logged in."""
    me = world.user(BOT, "Bauta")
    me.bot = True
    bot._connection.user = me
    return me
