"""The web companion's defences, as aiohttp middlewares: the security headers every answer
carries (a Content-Security-Policy that allows no inline script), a per-address request budget,
and one error page for whatever goes wrong. Request bodies are bounded by the application
(`client_max_size`, web/server.py)."""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from clock import source

log = logging.getLogger("bauta.web")

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # a page's address holds its link: never send it to another site (same-origin, not no-referrer:
    # with no-referrer a browser posts our own forms with `Origin: null`, which cannot be checked)
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Budget:
    """A token bucket per address: `rate` requests a second, `burst` at once."""

    def __init__(self, rate: float, burst: float, kept: int = 10_000):
        self.rate, self.burst, self.kept = rate, burst, kept
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, address: str) -> bool:
        now = source.timestamp()
        tokens, at = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if len(self._buckets) >= self.kept and address not in self._buckets:
            self._buckets.clear()         # a flood of addresses: forget them all rather than grow
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True


# Peers whose X-Forwarded-For is believed: a reverse proxy on this machine (README). Behind one,
# every request comes from it, and one budget for all would soon refuse every player.
PROXIES = frozenset({"127.0.0.1", "::1"})


def address(request: web.Request) -> str:
    """Whose request this is, for the per-address budget: the peer, or, when the peer is a proxy
    on this machine, the address it says it forwards (the last one it added)."""
    peer = request.remote or "?"
    if peer in PROXIES:
        forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()[:64]
        if forwarded:
            return forwarded
    return peer


def middlewares(budget: Budget, refused: Callable[[web.Request, str, int], web.Response]) -> list[Any]:
    @web.middleware
    async def headers(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            if exc.status >= 400:
                response = refused(request, "not_found" if exc.status in (404, 405) else "bad_request", exc.status)
            else:
                exc.headers.update(HEADERS)
                raise
        except Exception:  # noqa: BLE001 - the visitor sees a short page, the log the trace
            log.exception("web: %s %s failed", request.method, request.path)
            response = refused(request, "broken", 500)
        if not response.prepared:
            response.headers.update(HEADERS)
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not budget.take(address(request)):
            response = refused(request, "slow_down", 429)
            response.headers["Retry-After"] = "2"
            return response
        return await handler(request)

    return [headers, limit]
