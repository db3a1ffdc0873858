"""The web companion's pages over HTTP, through the real bot: `/game web` gives each member a
link of their own; the page shows what that member may see and nothing more; a seated player
answers their own decision from it, as their click would; altered, expired and revoked links
are refused with a short page."""
from __future__ import annotations

import pytest

from tests.support.duel import Duel
from tests.web.helpers import ask_link, fetch, web_bot
from web.guard import CSP

ENGINE = Duel()


@pytest.fixture
async def bot(database):
    bot = await web_bot(database)
    yield bot
    await bot.close()


async def start_duel(bot, world, seed=7):
    game = await bot.host.start(world.interaction(world.users[2], world.channels[10]), "duel", ["2", "3"], seed=seed)
    return await bot.store.game(game.id)


async def test_a_players_page_shows_their_hand_and_not_the_others(bot, world):
    game = await start_duel(bot, world)
    state = ENGINE.load_state(game.state)
    alice_link = await ask_link(bot, world, world.users[2])
    status, page, headers = await fetch(alice_link)
    assert status == 200
    assert headers["Content-Security-Policy"] == CSP
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "Duel" in page and "Alice" in page and "Bruno" in page
    view = ENGINE.view_for(state, "2")
    assert view["hand"] == state.hands["2"]
    for card in state.hands["2"]:                 # her hand, as the system describes it
        assert f"- &#39;{card}&#39;" in page
    for card in state.hands["3"]:                 # and not Bruno's
        assert f"- &#39;{card}&#39;" not in page


async def test_an_altered_link_is_refused_and_a_revoked_one_too(bot, world):
    await start_duel(bot, world)
    link = await ask_link(bot, world, world.users[2])
    status, page, _ = await fetch(link[:-8] + ("A" if link[-8] != "A" else "B") + link[-7:])
    assert status == 403 and 'data-code="altered"' in page
    cog = bot.get_cog("GameCog")
    await cog.web.callback(cog, world.interaction(world.users[2], world.channels[10]), revoke=True)
    assert "1 link revoked" in [m for m in world.sent if m.ephemeral][-1].content
    status, page, _ = await fetch(link)
    assert status == 403 and 'data-code="revoked"' in page


async def test_a_player_answers_from_the_page_and_the_table_moves(bot, world):
    game = await start_duel(bot, world)
    link = await ask_link(bot, world, world.users[2])
    status, page, _ = await fetch(link)
    assert 'name="option" value="me"' in page
    status, _, headers = await fetch(link + "/answer", "POST", data={"prompt": ENGINE.pending(ENGINE.load_state(game.state))[0].id,
                                                                      "option": "me"})
    assert status == 303
    fresh = await bot.store.game(game.id)
    assert fresh.version == game.version + 1
    assert ENGINE.load_state(fresh.state).phase == "play"
