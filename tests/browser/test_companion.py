"""The web companion in a real browser (Debian's Chromium through Playwright), through the real bot:
a member asks `/game web`, opens the link, sees the table and their own hand and not the other's;
a move made in Discord shows without a reload; the replay steps back to the earlier picture; an
answer made on the page changes Discord's table; an altered link is refused; a hostile name runs
no script; a phone needs no sideways scrolling. Screenshots go to the test's tmp_path."""
from __future__ import annotations

import pytest
import pytest_asyncio

from rules.klash import ENGINE
from tests.cogs.test_klash import answer, skirmish_game, state_of
from tests.support.browser import assert_no_sideways_scroll
from tests.web.helpers import ask_link, web_bot

pytest.importorskip("playwright.async_api")
from playwright.async_api import expect  # noqa: E402 - after the skip that names the missing package

TEAMS = {"2": [("orc", 20, 60), ("javelin", 30, 80)], "3": [("dwarf", 100, 60), ("wolf", 60, 95)]}
HERS, HIS = ("The Crowd Roars", "Sand in the Eyes"), "Water Bearer"     # the skirmish's Event Card hands


@pytest_asyncio.fixture(loop_scope="session")
async def bot(database):
    bot = await web_bot(database)
    yield bot
    await bot.close()


async def _klash(bot, world):
    game = await skirmish_game(bot, world, TEAMS)
    await bot.host.refresh(game)              # its table in the channel, as /game status brings it
    game = await bot.store.game(game.id)
    link = await ask_link(bot, world, world.users[2])
    return game, link


async def test_the_done_when_through_the_real_bot(bot, world, page, page_log, screenshot):
    game, link = await _klash(bot, world)
    await page.goto(link)
    await expect(page.locator("h1")).to_contain_text("Klash! Sangue & Sabbia")
    await expect(page.locator(".players")).to_contain_text("Alice, Bruno")
    board = page.locator("#board")
    await expect(board).to_be_visible()
    assert await board.evaluate("img => img.complete && img.naturalWidth > 0")
    text = await page.locator("body").inner_text()
    assert all(card in text for card in HERS)            # her own hand
    assert HIS not in text and HIS not in await page.content()        # and nowhere Bruno's
    await screenshot(page, "table")
    await page.evaluate("window.stillHere = true")       # gone if the page were loaded again

    # a move made in Discord: the page follows within a second, without a reload
    record, state = await state_of(bot, game.id)
    activate = next(p for p in ENGINE.pending(state) if p.kind == "activate")
    await answer(world, game.id, activate, ["m1"])
    await expect(page.locator("#now")).to_have_attribute("data-version", str(record.version + 1), timeout=1000)
    assert await page.evaluate("window.stillHere === true")
    await screenshot(page, "after_the_move")

    # the replay: one step back shows the picture before the move
    await page.locator("#to-replay").click()
    replay = page.locator("#replay-board")
    await expect(page.locator("#step")).to_have_attribute("data-k", "1")
    now = await replay.screenshot()
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator("#step")).to_have_attribute("data-k", "0")
    await expect(replay).to_have_attribute("src", f"/g/{link.split('/g/')[1]}/board.png?s=2&step=0&v={record.version + 1}")
    await page.wait_for_function("() => { const img = document.getElementById('replay-board');"
                                 " return img.complete && img.naturalWidth > 0 && img.src.includes('step=0'); }")
    assert await replay.screenshot() != now
    assert page.url.endswith("?step=0")
    await screenshot(page, "replay_step_0")
    await page_log.assert_clean(page)

    # an altered link: refused with a clear page
    token = link.split("/g/")[1].split("/")[0]
    altered = link.replace(token, token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB"))
    await page.goto(altered)
    await expect(page.locator("#refused")).to_have_attribute("data-code", "altered")
    await expect(page.locator("#refused")).to_contain_text("This link is not valid")


async def test_an_answer_on_the_page_changes_discords_table(bot, world, page, page_log):
    game, link = await _klash(bot, world)
    table_before = [m.content for m in world.public()]
    await page.goto(link)
    await page.get_by_role("button", name="Raging Orc 1").click()
    await expect(page.locator("#now")).to_have_attribute("data-version", str(game.version + 1))
    record, state = await state_of(bot, game.id)
    assert [a.model for a in state.acts] == ["m1"]          # the Orc activates
    # the same publish as the button's: Discord's table is brought up to date
    assert [m.content for m in world.public()] != table_before
    assert "Raging Orc 1" in world.public_text()
    await page_log.assert_clean(page)


async def test_a_hostile_name_runs_no_script(bot, world, page, page_log):
    world.users[2].display_name = world.users[2].name = '<img src=x onerror="window.pwned=1">'
    world.users[3].display_name = world.users[3].name = "<script>window.pwned=2</script>"
    _game, link = await _klash(bot, world)
    await page.goto(link)
    await page.goto(link.rsplit("/", 1)[0] + "/" + link.rsplit("/", 1)[1] + "/replay")
    for path in (link, link + "/replay"):
        await page.goto(path)
        await expect(page.locator(".players, #step").first).to_be_visible()
        assert await page.evaluate("window.pwned") is None
        assert await page.locator("img[src=x]").count() == 0
    await page.goto(link)
    await expect(page.locator(".players")).to_contain_text('<img src=x onerror="window.pwned=1">')
    await page_log.assert_clean(page)


async def test_a_phone_needs_no_sideways_scrolling(bot, world, phone_page, screenshot):
    _game, link = await _klash(bot, world)
    for path, name in ((link, "phone_table"), (link + "/replay", "phone_replay")):
        await phone_page.goto(path)
        await expect(phone_page.locator("img").first).to_be_visible()
        await assert_no_sideways_scroll(phone_page)
        await screenshot(phone_page, name)
