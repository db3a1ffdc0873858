"""Real-browser tests: Debian's Chromium driven by Playwright (no browser download of Playwright's own).

The fixtures that use these are in tests/browser/conftest.py. Here: finding the browser, launching it,
serving an aiohttp.web app on an ephemeral loopback port, and the checks a page test makes
(a screenshot into tmp_path, no sideways scroll on a phone, no console error or CSP violation).
"""
from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from aiohttp import web
    from playwright.async_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright

# Root has no sandbox to give Chromium (it refuses to start without --no-sandbox); /dev/shm may be
# small in a container; there is no GPU here, and the software fallback only adds start-up time.
CHROMIUM_ARGS = ("--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu")
INSTALL_HINT = "apt-get install chromium (Debian's package; `playwright install` cannot download here)"

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}      # a common phone's CSS viewport (iPhone 12-15)


def chromium_path() -> str | None:
    """The Chromium to drive: `BAUTA_CHROMIUM` (.ci/run sets it), else `chromium` or
    `chromium-browser` on PATH; None when there is none. A `BAUTA_CHROMIUM` that names no
    executable file is a mistake, not a missing browser: it fails."""
    named = os.environ.get("BAUTA_CHROMIUM", "").strip()
    if named:
        if not (os.path.isfile(named) and os.access(named, os.X_OK)):
            pytest.fail(f"BAUTA_CHROMIUM={named!r} is not an executable file", pytrace=False)
        return named
    return shutil.which("chromium") or shutil.which("chromium-browser")


def require_chromium() -> str:
    """The browser's path, or skip the test with how to get one (CI turns a skip into a failure,
    tests/conftest.py)."""
    path = chromium_path()
    if path is None:
        pytest.skip(f"no Chromium (BAUTA_CHROMIUM unset, none on PATH): {INSTALL_HINT}")
    try:
        import playwright  # noqa: F401
    except ImportError:
        pytest.skip("Playwright is not installed: python3 -m pip install -r requirements-dev.txt")
    return path


async def launch(playwright: Playwright, executable: str) -> Browser:
    return await playwright.chromium.launch(executable_path=executable, headless=True, args=list(CHROMIUM_ARGS))


# --- a page's errors -------------------------------------------------------------------------------

# Runs in every document before the page's own scripts: each CSP violation goes to the test through
# the binding (a structured record, whatever the console says about it).
_CSP_LISTENER = """
document.addEventListener('securitypolicyviolation', (e) => {
    window.__bautaReport('csp', {directive: e.effectiveDirective, blocked: e.blockedURI,
                                 source: e.sourceFile, line: e.lineNumber, sample: e.sample,
                                 document: e.documentURI});
});
"""
# A violation event is a task of its own, queued after the script or load that caused it; its
# report is a binding call, handled in order with the page's other binding calls.
_SETTLE = """async () => {
    await new Promise((done) => setTimeout(done, 0));
    await window.__bautaReport('settle', null);
}"""


@dataclass
class PageLog:
    """What went wrong in a context's pages: console errors, uncaught exceptions, CSP violations.
    Attach it before the page opens (the `page` fixture does); read it after `settle(page)`."""
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    csp_violations: list[dict[str, Any]] = field(default_factory=list)

    async def attach(self, context: BrowserContext) -> None:
        await context.expose_binding("__bautaReport", self._on_report)
        await context.add_init_script(_CSP_LISTENER)
        context.on("console", self._on_console)
        context.on("page", self._watch)
        for page in context.pages:
            self._watch(page)

    def _watch(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.page_errors.append(f"{page.url}: {error}"))

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.location.get('url', '')}: {message.text}")

    def _on_report(self, source: Any, kind: str, payload: Any) -> None:
        if kind == "csp":
            self.csp_violations.append(payload)

    async def settle(self, page: Page) -> None:
        """Let the reports the page has already queued reach this log: one more task in the page,
        then one more binding call, answered after those before it."""
        await page.evaluate(_SETTLE)

    async def assert_clean(self, page: Page) -> None:
        """No console error, no uncaught exception, no CSP violation so far."""
        await self.settle(page)
        assert self.console_errors == [], f"console errors: {self.console_errors}"
        assert self.page_errors == [], f"uncaught exceptions: {self.page_errors}"
        assert self.csp_violations == [], f"CSP violations: {self.csp_violations}"


# --- checks ----------------------------------------------------------------------------------------

async def save_screenshot(page: Page, directory: Path, name: str, *, full_page: bool = True) -> Path:
    """A PNG of the page in `directory` (a test's tmp_path: never the repository); its path."""
    path = Path(directory) / f"{name}.png"
    await page.screenshot(path=str(path), full_page=full_page)
    return path


async def assert_no_sideways_scroll(page: Page) -> None:
    """The page fits its viewport's width: `document.documentElement.scrollWidth <= innerWidth`, and
    the page was laid out at the screen's width. On a phone (`is_mobile`) a page without
    `<meta name="viewport" content="width=device-width">` is laid out 980 px wide and shrunk, and one
    whose content is too wide makes the phone zoom out until it fits (innerWidth grows): no
    scroll bar in either case, and both unreadable, so both fail here."""
    found = await page.evaluate("""() => ({
        scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
        meta: document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? null})""")
    viewport = page.viewport_size
    screen = viewport["width"] if viewport is not None else found["inner"]
    if found["inner"] != screen and "width=device-width" not in (found["meta"] or "").replace(" ", ""):
        raise AssertionError(
            f"laid out {found['inner']} px wide on a {screen} px screen, meta viewport {found['meta']!r}: "
            'add <meta name="viewport" content="width=device-width, initial-scale=1">')
    widest = max(found["scroll"], found["inner"])
    assert widest <= screen, (
        f"scrolls sideways: content {found['scroll']} px wide on a {screen} px screen"
        + (f" (the phone zoomed out to {found['inner']} px to fit it)" if found["inner"] > screen else ""))


# --- a server to open -------------------------------------------------------------------------------

@asynccontextmanager
async def serving(app: web.Application, host: str = "127.0.0.1") -> AsyncIterator[str]:
    """Run an aiohttp.web app on an ephemeral loopback port; yields its base URL (no trailing /)."""
    from aiohttp import web

    runner = web.AppRunner(app)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, 0)
        await site.start()
        port = runner.addresses[0][1]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()
