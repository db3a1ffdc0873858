"""The bot's thinking pool: a child chooses what the bot's own process would, and a hung child is
not waited for (cogs/host/thinking.py)."""
from __future__ import annotations

import pytest

from cogs.host import botplayer, thinking
from rules import bots
from tests.rules.test_player import GAMES, decision_points


@pytest.fixture
def pool():
    yield
    thinking.shutdown()


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_the_pool_chooses_as_the_bots_own_process(name, pool):
    """Several seeded decision points of each game with a player, at both heavy levels: the child
    (state sent as its JSON, engine and player rebuilt by name) gives the very choice of the
    in-process `think`. The cap is long: only a deadline that fires makes a choice depend on speed."""
    _, ai, _, make = GAMES[name]
    assert bots.player(name) is ai
    for i, (state, seat) in enumerate(decision_points(ai, make, 3, seed=7)):
        lvl = ("normal", "hard")[i % 2]
        assert thinking.pooled(name, ai, lvl)
        here = botplayer.think(ai, state, seat, lvl, f"t{i}", 60.0)
        there = await thinking.think(name, ai, state, seat, lvl, f"t{i}", 60.0)
        assert there == here and there is not None, (name, i)
    assert thinking._pool is not None        # it did go to a child


async def test_light_levels_and_unknown_games_stay_in_a_thread(pool):
    _, ai, _, make = GAMES["klash"]
    assert not thinking.pooled("klash", ai, "easy")
    assert not thinking.pooled("duel", ai, "hard")          # a game the rules do not know by name
    assert not thinking.pooled("carnevale", ai, "hard")     # another game's player than the one registered
    state, seat = decision_points(ai, make, 1, seed=3)[0]
    assert await thinking.think("klash", ai, state, seat, "easy", "s", 60.0) == botplayer.think(
        ai, state, seat, "easy", "s", 60.0)
    assert thinking._pool is None


async def test_a_child_past_its_cap_is_stopped_and_the_next_decision_starts_anew(pool, monkeypatch):
    _, ai, _, make = GAMES["klash"]
    state, seat = decision_points(ai, make, 1, seed=5)[0]
    monkeypatch.setattr(thinking, "MARGIN", 0.0)
    # no time at all: the child is still starting when its wait ends
    with pytest.raises(thinking.Hung):
        await thinking.think("klash", ai, state, seat, "hard", "s", 0.0)
    assert thinking._pool is None            # ended with its child
    monkeypatch.setattr(thinking, "MARGIN", 30.0)
    assert await thinking.think("klash", ai, state, seat, "normal", "s", 30.0) == botplayer.think(
        ai, state, seat, "normal", "s", 30.0)
