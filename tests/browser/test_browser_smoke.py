"""The browser chain works: Debian's Chromium, driven by Playwright, opens an aiohttp.web page on a
loopback port under a strict Content-Security-Policy; the page's own script file runs, an inline
script is refused, a screenshot lands in tmp_path, and the phone check tells a page that fits from
one that does not."""
from __future__ import annotations

import pytest
import pytest_asyncio
from aiohttp import web

from tests.support.browser import assert_no_sideways_scroll, serving

expect = pytest.importorskip("playwright.async_api", reason="python3 -m pip install -r requirements-dev.txt").expect

CSP = "default-src 'self'; script-src 'self'"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
{meta}
<title>Bauta smoke</title>
<link rel="stylesheet" href="/style.css"></head>
<body class="{layout}">
<h1 id="status">waiting</h1>
<p id="inline">inline did not run</p>
<div class="block">a block</div>
<script src="/app.js"></script>
<script>document.getElementById('inline').textContent = 'inline ran';</script>
</body></html>"""

APP_JS = "document.getElementById('status').textContent = 'script ran';\n"
STYLE = ".block { width: 100%; } .wide .block { width: 2000px; }\n"


def make_app() -> web.Application:
    async def index(request: web.Request) -> web.Response:
        layout = "wide" if "wide" in request.query else "fits"
        meta = "" if "nometa" in request.query else '<meta name="viewport" content="width=device-width, initial-scale=1">'
        return web.Response(text=PAGE.format(layout=layout, meta=meta), content_type="text/html",
                            headers={"Content-Security-Policy": CSP})

    def static(text: str, content_type: str):
        async def handler(request: web.Request) -> web.Response:
            return web.Response(text=text, content_type=content_type)
        return handler

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/app.js", static(APP_JS, "application/javascript"))
    app.router.add_get("/style.css", static(STYLE, "text/css"))
    return app


@pytest_asyncio.fixture(loop_scope="session")
async def site():
    async with serving(make_app()) as url:
        yield url


async def test_script_file_runs_and_inline_script_is_refused(site, page, page_log, screenshot, tmp_path):
    response = await page.goto(site + "/")
    assert response is not None and response.headers["content-security-policy"] == CSP
    await expect(page.locator("#status")).to_have_text("script ran")
    await expect(page.locator("#inline")).to_have_text("inline did not run")

    await page_log.settle(page)
    assert [(v["directive"], v["blocked"]) for v in page_log.csp_violations] == [("script-src-elem", "inline")]
    assert page_log.page_errors == []

    shot = await screenshot(page, "smoke")
    assert shot == tmp_path / "smoke.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 1000


async def test_phone_viewport_check(site, phone_page, page_log):
    await phone_page.goto(site + "/")
    await assert_no_sideways_scroll(phone_page)

    await phone_page.goto(site + "/?wide")
    with pytest.raises(AssertionError, match="scrolls sideways"):
        await assert_no_sideways_scroll(phone_page)

    await phone_page.goto(site + "/?nometa")
    with pytest.raises(AssertionError, match="meta viewport None"):
        await assert_no_sideways_scroll(phone_page)

    await phone_page.set_viewport_size({"width": 2100, "height": 844})   # wide enough for the wide page
    await phone_page.goto(site + "/?wide")
    await assert_no_sideways_scroll(phone_page)


async def test_page_log_sees_exceptions_and_console_errors(page, page_log):
    await page.set_content("<p>x</p>")
    await page.evaluate("() => { console.error('broken'); setTimeout(() => { throw new Error('boom'); }, 0); }")
    with pytest.raises(AssertionError, match="console errors"):
        await page_log.assert_clean(page)
    assert any("broken" in line for line in page_log.console_errors)
    assert any("boom" in line for line in page_log.page_errors)
