"""The web companion's pages over HTTP, through the real bot: `/game web` gives each member a
link of their own; the page shows what that member may see and nothing more; a seated player
answers their own decision from it, as their click would; altered, expired and revoked links
are refused with a short page."""
from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.duel import Duel
from tests.web.helpers import ask_link, fetch, serving, web_bot
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
    assert headers["Referrer-Policy"] == "same-origin"
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
    # the same narration in Discord as the button's, and the decision's buttons gone from the table
    assert world.said() == "<@2> plays first."
    assert not [m for m in world.public() if any(":start:" in c for c in m.custom_ids()) and not m.deleted]
    # her next decision is private: it went to her DM, as after a click
    assert any(m.where == "dm:2" and any(":play." in c for c in m.custom_ids()) for m in world.sent)


async def test_an_expired_link_is_refused(bot, world, fake_clock):
    await start_duel(bot, world)
    link = await ask_link(bot, world, world.users[2])
    assert (await fetch(link))[0] == 200
    fake_clock.advance(days=29, hours=23)
    assert (await fetch(link))[0] == 200
    fake_clock.advance(hours=1)
    status, page, _ = await fetch(link)
    assert status == 403 and 'data-code="expired"' in page and "This link has expired" in page


async def test_the_page_speaks_the_readers_language(bot, world):
    await start_duel(bot, world)
    link = await ask_link(bot, world, world.users[2], locale="it")
    said = [m for m in world.sent if m.ephemeral][-1].content
    assert said.startswith("🌐 La tua pagina di **Duel")
    status, page, _ = await fetch(link, headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert '<html lang="it">' in page and "A chi tocca" in page and "Le tue decisioni" in page
    status, page, _ = await fetch(link, headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert '<html lang="es">' in page and "A quién le toca" in page
    # the language chosen with /profile wins over the browser's
    await bot.store.save_profile(replace(await bot.store.profile(2), language="it"))
    status, page, _ = await fetch(link, headers={"Accept-Language": "es-ES"})
    assert '<html lang="it">' in page


async def test_a_refused_answer_is_shown_in_the_page_and_changes_nothing(bot, world):
    game = await start_duel(bot, world)
    bruno = await ask_link(bot, world, world.users[3])
    status, page, _ = await fetch(bruno)
    assert 'name="option"' not in page                 # not his decision: nothing to answer
    status, page, _ = await fetch(bruno + "/answer", "POST", data={"prompt": "start", "option": "you"})
    assert status == 409 and "That choice is not yours to make." in page
    alice = await ask_link(bot, world, world.users[2])
    status, page, _ = await fetch(alice + "/answer", "POST", data={"prompt": "nothing", "option": "me"})
    assert status == 409 and "That choice has already been made, or the game has moved on." in page
    assert (await bot.store.game(game.id)).version == game.version


async def test_a_form_posted_from_another_site_is_refused(bot, world):
    game = await start_duel(bot, world)
    link = await ask_link(bot, world, world.users[2])
    status, _, _ = await fetch(link + "/answer", "POST", data={"prompt": "start", "option": "me"},
                               headers={"Origin": "https://evil.example"})
    assert status == 403
    assert (await bot.store.game(game.id)).version == game.version


async def test_bodies_are_bounded_and_an_address_is_slowed_down(database, world, fake_clock):
    async with serving(database, world, rate=1.0, burst=5.0) as bot:      # the budget reads the one clock
        await start_duel(bot, world)
        link = await ask_link(bot, world, world.users[2])
        status, _, _ = await fetch(link + "/answer", "POST", data={"prompt": "x" * 40_000})
        assert status == 413
        # five at once, the refused POST among them; then none until a second has passed
        assert [(await fetch(link))[0] for _ in range(6)] == [200] * 4 + [429] * 2
        status, page, headers = await fetch(link)
        assert status == 429 and headers["Retry-After"] == "2" and 'data-code="slow_down"' in page
        fake_clock.advance(seconds=1)
        assert [(await fetch(link))[0] for _ in range(2)] == [200, 429]


async def test_behind_a_proxy_on_this_machine_each_player_has_a_budget_of_their_own(database, world):
    async with serving(database, world, rate=0.001, burst=2.0) as bot:      # (~nothing back in a test's time)
        await start_duel(bot, world)
        link = await ask_link(bot, world, world.users[2])
        alice, bruno = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "198.51.100.2, 203.0.113.9"}
        assert [(await fetch(link, headers=alice))[0] for _ in range(3)] == [200, 200, 429]
        assert [(await fetch(link, headers=bruno))[0] for _ in range(3)] == [200, 200, 429]


async def test_a_gm_without_a_game_here_gets_the_servers_list(bot, world):
    game = await start_duel(bot, world)
    world.channel(12, "lounge")
    link = await ask_link(bot, world, world.users[1], channel=world.channels[12])
    status, page, _ = await fetch(link)
    assert status == 200 and 'id="games"' in page and f"Duel (test game) #{game.id}" in page
    assert "waiting for Alice" in page
    status, page, _ = await fetch(f"{link}/{game.id}")
    assert status == 200 and "hands:" in page          # the GM's view: both hands


async def test_a_member_without_a_seat_is_refused_unless_the_server_allows_spectators(bot, world):
    game = await start_duel(bot, world)
    cog = bot.get_cog("GameCog")
    await cog.web.callback(cog, world.interaction(world.users[4], world.channels[10]))
    assert "this server does not let members watch" in [m for m in world.sent if m.ephemeral][-1].content
    await bot.store.set_house_rule(1, "duel", "web_spectators", True)
    link = await ask_link(bot, world, world.users[4])
    status, page, _ = await fetch(link)
    assert status == 200 and "spectator" in page
    assert "hand:" not in page and "hands:" not in page
    assert game.id
