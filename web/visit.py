"""A request for one game under a member's link, checked before anything of the game is read:
the `visiting` decorator gives each such route its `Visit`, and answers every refusal (altered,
expired, revoked, another game) with the same short page."""
from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import links
from .sight import Viewer


@dataclass(frozen=True)
class Visit:
    """A checked request: whose link, which game, seen as whom, in which language, and the
    game's address under that link (the base of its page's own links)."""
    link: links.Link
    game: Any
    viewer: Viewer
    language: str
    here: str


Route = Callable[[Any, web.Request, Visit], Awaitable[web.StreamResponse]]


def visiting(handler: Route) -> Callable[[Any, web.Request], Awaitable[web.StreamResponse]]:
    """A route of one game under a link (a method of `web.pages.Pages`, or a function given it):
    the link and the game are checked first (`Pages.visit`)."""
    @functools.wraps(handler)
    async def route(self: Any, request: web.Request) -> web.StreamResponse:
        try:
            visit = await self.visit(request)
        except links.LinkRefused as exc:
            return await self._refusing(request, exc)
        return await handler(self, request, visit)
    return route
