"""A game's campaign page (`/g/<token>/<game>/campaign`): what its system keeps across games — a
Carnevale squad's ledger, a Karmic character's sheet and deck, a Carnival Zombie campaign's Days
and Nights — as the link's member may see it in Discord.

The words are the system's own (`System.campaign`, implemented by each game's cog package): text
for a channel, in the reader's language, shown through `web.markup.html` (escaped, then the few
Discord forms). A system without the hook has no campaign page: the link gets the refused page,
404; so does an altered, expired or revoked link, before anything of the game is read."""
from __future__ import annotations

from functools import partial
from typing import Any

from aiohttp import web

from cogs.host import systems

from .markup import html
from .visit import Visit, visiting

ROUTE = "/g/{token}/{game:\\d{1,18}}/campaign"


def routes(pages: Any) -> list[web.RouteDef]:
    """The campaign page's route, answered for `pages` (a `web.pages.Pages`)."""
    return [web.get(ROUTE, partial(campaign, pages))]


def has_campaign(system: str) -> bool:
    """Whether a game of `system` has a campaign page (its nav links to it)."""
    return systems.get(system).campaign is not None


@visiting
async def campaign(pages: Any, request: web.Request, visit: Visit) -> web.Response:
    game, language = visit.game, visit.language
    hook = systems.get(game.system).campaign
    if hook is None:
        return pages.refused(request, "not_found", 404)
    say = pages.presenter(game, language)
    text = await hook(pages.store, game, visit.viewer.key, say)
    return pages.render("campaign.html", language, title=systems.title(game.system, language), game_id=game.id,
                        here=visit.here, role=visit.viewer.role,
                        body=html(text, say.names, say.text("words.someone")) if text else None)
