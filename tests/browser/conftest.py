"""Fixtures of the real-browser tests (tests/browser): one Chromium for the whole run, a fresh
context per test. (The web companion's HTTP tests, tests/web, run in their own loops as usual.)

    async def test_lobby(page, page_log, screenshot):
        async with serving(make_app()) as url:           # tests/support/browser.py
            await page.goto(url + "/lobby")
            await expect(page.locator("h1")).to_have_text("Lobby")
            await screenshot(page, "lobby")               # into tmp_path
            await page_log.assert_clean(page)             # no console error, exception, CSP violation

The browser lives in the session's event loop (launching it costs ~0.5 s, a context ~20 ms), and a
Playwright object works only in the loop that made it. So every async test under tests/browser runs in
the session loop (the hook below marks them), and so must every async fixture they use: declare one
with `@pytest_asyncio.fixture(loop_scope="session")` (its scope stays per test). One that would run
in another loop fails the test with that advice rather than with a "different loop" error later.
`database` and `bot` (tests/conftest.py) are redefined here in the session loop for that reason.
"""
from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from tests.support.browser import DESKTOP, PHONE, PageLog, launch, require_chromium, save_screenshot
from tests.support.stores import Database

HERE = Path(__file__).resolve().parent
LOOP = "session"


def _here(node: pytest.Item | pytest.Collector) -> bool:
    return Path(node.path).resolve().is_relative_to(HERE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Called with the whole run's items, not only this folder's.
    marker = pytest.mark.asyncio(loop_scope=LOOP)
    for item in items:
        if pytest_asyncio.is_async_test(item) and _here(item):
            item.add_marker(marker, append=False)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_fixture_setup(fixturedef, request):
    """An async fixture of a test here must run in the session loop too (see the docstring above).
    Reads the loop scope as pytest-asyncio 1.5 does (its `_loop_scope` mark on the function)."""
    func = fixturedef.func
    if (inspect.iscoroutinefunction(func) or inspect.isasyncgenfunction(func)) and _here(request.node):
        loop = (getattr(func, "_loop_scope", None)
                or request.config.getini("asyncio_default_fixture_loop_scope") or fixturedef.scope)
        if loop != LOOP:
            pytest.fail(f"async fixture {fixturedef.argname!r} would run in a {loop!r} event loop, the browser "
                        f"test in the {LOOP!r} one: declare it @pytest_asyncio.fixture(loop_scope={LOOP!r})",
                        pytrace=False)
    return (yield)


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    """The Chromium binary's path (BAUTA_CHROMIUM, else PATH); skips when there is none."""
    return require_chromium()


@pytest_asyncio.fixture(scope="session", loop_scope=LOOP)
async def browser(chromium_executable):
    """One headless Chromium for the run (playwright.async_api.Browser)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await launch(playwright, chromium_executable)
        yield browser
        await browser.close()


@pytest_asyncio.fixture(loop_scope=LOOP)
async def page_log() -> PageLog:
    """This test's console errors, uncaught exceptions and CSP violations, in every page the
    `page` and `phone_page` fixtures open: `await page_log.assert_clean(page)`."""
    return PageLog()


async def _context(browser, page_log: PageLog, **options):
    context = await browser.new_context(**options)
    await page_log.attach(context)
    return context


@pytest_asyncio.fixture(loop_scope=LOOP)
async def context(browser, page_log):
    """A fresh browser context (no cookies, no storage) at a desktop size, for this test only."""
    context = await _context(browser, page_log, viewport=DESKTOP)
    yield context
    await context.close()


@pytest_asyncio.fixture(loop_scope=LOOP)
async def page(context):
    """A page of this test's own context (playwright.async_api.Page), 1280x800."""
    return await context.new_page()


@pytest_asyncio.fixture(loop_scope=LOOP)
async def phone_page(browser, page_log):
    """A page as a phone shows it: 390x844 CSS pixels, touch, the meta viewport honoured. Its own
    context, separate from `page`'s."""
    context = await _context(browser, page_log, viewport=PHONE, screen=PHONE, device_scale_factor=2,
                             is_mobile=True, has_touch=True)
    yield await context.new_page()
    await context.close()


@pytest.fixture
def screenshot(tmp_path) -> Callable[..., Awaitable[Path]]:
    """`await screenshot(page, "name")`: a full-page PNG in this test's tmp_path; returns its path."""
    def shoot(page, name: str, *, full_page: bool = True) -> Awaitable[Path]:
        return save_screenshot(page, tmp_path, name, full_page=full_page)
    return shoot


# tests/conftest.py's, in the browser's loop: the web companion runs inside the bot.

@pytest_asyncio.fixture(loop_scope=LOOP)
async def database(backend, tmp_path) -> AsyncIterator[Database]:
    database = Database(backend, tmp_path)
    yield database
    await database.drop()


@pytest_asyncio.fixture(loop_scope=LOOP)
async def bot(database):
    from tests.conftest import make_bot

    bot = await make_bot(database.config())
    yield bot
    await bot.close()
