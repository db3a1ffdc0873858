"""The web companion's pages: a member's signed link opens a game as they may see it (web/sight.py),
live (web/live.py), with its replay (web/replay.py), its pictures (web/pictures.py), and, for a
seated player, their own decisions answered through the host, as a click would answer them.

Every route begins with the link (`/g/<token>`): a token that is altered, expired or revoked, or
that names another game, gets the same short page, and nothing of the game is read before it is
checked. Words come from the catalogues (`web.*`) in the reader's language: their `/profile`
language, else their browser's, else the server's."""
from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import jinja2
from aiohttp import web

from clock import source
from db.records import _dumps
from cogs.host import systems
from i18n import SUPPORTED, supported, t
from i18n.present import Presenter
from rules.common import BautaError

from . import links, sight as seen_by
from .campaign import has_campaign, routes as campaign_routes
from .guard import HEADERS, address
from .kept import Kept
from .live import Watch
from .pictures import SCALES, Pictures
from .replay import Replays
from .visit import Visit, visiting

log = logging.getLogger("bauta.web")

HERE = Path(__file__).parent
LOG_STEPS = 30            # the newest actions narrated on a game's page
FIELD_MAX = 100           # a prompt's or an option's id as a form sends it
OPTIONS_MAX = 25          # Discord's own most options in one select
LIVE_PER_ADDRESS = 32     # open live streams one address may hold
SIGHTS_KEPT = 2048        # sights kept, the newest asked: a game's at its version, per kind of viewer and language
HEARTBEAT = 15.0          # seconds between comments on an idle live stream (proxies close silent ones)


class WebHost(Protocol):
    """What the pages ask of the table's host (`cogs.host.GameHost`)."""
    store: Any
    watchers: list[Any]

    def presenter(self, game: Any, locale: Any) -> Presenter: ...

    async def server_locale(self, game: Any, interaction: Any) -> Any: ...

    async def answer(self, game_id: int, prompt_id: str, options: list[str], user_id: int) -> Any: ...


def browser_language(request: web.Request) -> str | None:
    """The first of the browser's languages Bauta speaks (Accept-Language, in its order)."""
    header = request.headers.get("Accept-Language", "")[:200]
    for part in header.split(","):
        tag = part.split(";")[0].strip().split("-")[0].lower()
        if tag in SUPPORTED:
            return tag
    return None


class Pages:
    def __init__(self, host: WebHost, secret: Any, *, live_per_address: int = LIVE_PER_ADDRESS):
        self.host = host
        self.store = host.store
        self._secret = secret          # bytes, or an async function that reads them from the store
        self.watch = Watch(self.store)
        self.replays = Replays(self.store)
        self.pictures = Pictures()
        self.live_per_address = live_per_address
        self._live: dict[str, int] = {}
        self._sights: Kept[seen_by.Sight] = Kept(SIGHTS_KEPT)
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                      autoescape=True, trim_blocks=True, lstrip_blocks=True)

    # ---------------------------------------------------------------- the routes
    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.get("/", self.home),
                web.get("/favicon.ico", self.no_icon),
                web.get("/g/{token}", self.front),
                web.get("/g/{token}/{game:\\d{1,18}}", self.page),
                web.get("/g/{token}/{game:\\d{1,18}}/table", self.table),
                web.get("/g/{token}/{game:\\d{1,18}}/board.png", self.board),
                web.get("/g/{token}/{game:\\d{1,18}}/live", self.live),
                web.get("/g/{token}/{game:\\d{1,18}}/replay", self.replay),
                web.get("/g/{token}/{game:\\d{1,18}}/step/{step:\\d{1,6}}", self.step),
                web.post("/g/{token}/{game:\\d{1,18}}/answer", self.answer),
                *campaign_routes(self),
                web.static("/static", HERE / "static")]

    async def secret(self) -> bytes:
        if callable(self._secret):
            self._secret = await self._secret()
        return self._secret

    # ---------------------------------------------------------------- who is asking
    async def link(self, request: web.Request) -> links.Link:
        link = links.verify(await self.secret(), request.match_info["token"], source.timestamp())
        row = await self.store.web_link(link.id)
        if row is None or row.revoked or (row.game_id, row.user_id, row.role) != (link.game_id, link.user_id, link.role):
            raise links.LinkRefused("revoked")
        return link

    async def game_of(self, request: web.Request, link: links.Link) -> tuple[Any, seen_by.Viewer]:
        """The game the route names, and the viewer the link makes of its member there."""
        wanted = int(request.match_info.get("game") or link.game_id)
        if link.game_id and wanted != link.game_id:
            raise links.LinkRefused("altered")
        game = await self.store.game(wanted) if wanted else None
        if game is None or game.guild_id != link.guild_id:
            raise links.LinkRefused("not_found")
        # a link to one game keeps the role it was given; the server's list opens each game in
        # the role its member has there
        role = link.role if link.game_id else await self.role_of(game, link.user_id, link.role == links.GM)
        if role is None:
            raise links.LinkRefused("not_allowed")
        return game, seen_by.viewer(role, link.user_id)

    async def role_of(self, game: Any, user_id: int, gm: bool) -> str | None:
        """A member's role on a game's page: their seat, else the GM's view, else a spectator's where
        the server lets members watch (`web_spectators`, /gm rules); None: no page of it."""
        rules = await self.store.house_rules(game.guild_id, game.system)
        return seen_by.role_for(str(user_id) in game.seats, gm, bool(rules.get(systems.WEB_SPECTATORS, False)))

    async def language(self, request: web.Request, link: links.Link | None, game: Any = None) -> str:
        if link is not None:
            chosen = (await self.store.profile(link.user_id)).language
            if chosen:
                return supported(chosen)
        found = browser_language(request)
        if found:
            return found
        if game is not None:
            return supported(await self.host.server_locale(game, None))
        return supported(None)

    def presenter(self, game: Any, language: str) -> Presenter:
        """The host's presenter for `game`, with a name for every seat: the table's remembered
        names, else the bot's cache of users (a page cannot show a mention)."""
        say = self.host.presenter(game, language)
        bot = getattr(self.host, "bot", None)
        for seat in game.seats:
            if seat.isdigit() and not say.names.get(seat) and bot is not None:
                user = bot.get_user(int(seat))
                name = getattr(user, "display_name", None) or getattr(user, "name", None)
                if name:
                    say.names[seat] = str(name)[:100]
        return say

    # ---------------------------------------------------------------- answers
    def render(self, name: str, language: str, status: int = 200, **context: Any) -> web.Response:
        def w(key: str, **params: Any) -> str:
            return t(f"web.{key}", language, **params)

        body = self.env.get_template(name).render(lang=language, w=w, **context)
        return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")

    def refused(self, request: web.Request, code: str, status: int) -> web.Response:
        language = browser_language(request) or supported(None)
        return self.render("refused.html", language, status=status, code=code)

    async def _refusing(self, request: web.Request, exc: links.LinkRefused) -> web.Response:
        status = {"not_found": 404, "not_allowed": 403}.get(exc.code, 403)
        return self.refused(request, exc.code, status)

    # ---------------------------------------------------------------- pages
    async def home(self, request: web.Request) -> web.Response:
        return self.refused(request, "home", 200)

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def visit(self, request: web.Request) -> Visit:
        """Who asks for which game, checked before anything of the game is read: raises
        LinkRefused (answered by `visiting`)."""
        link = await self.link(request)
        game, viewer = await self.game_of(request, link)
        return Visit(link, game, viewer, await self.language(request, link, game),
                     f"/g/{request.match_info['token']}/{game.id}")

    async def front(self, request: web.Request) -> web.StreamResponse:
        """`/g/<token>`: a game's page, or the server's list for a link to no game."""
        try:
            link = await self.link(request)
        except links.LinkRefused as exc:
            return await self._refusing(request, exc)
        if not link.game_id:
            return await self.server_list(request, link)
        return await self.page(request)

    @visiting
    async def page(self, request: web.Request, visit: Visit) -> web.Response:
        return self.render("game.html", visit.language, **await self._table(visit))

    @visiting
    async def table(self, request: web.Request, visit: Visit) -> web.Response:
        """The page's live part alone, fetched by its script when the game moved."""
        return self.render("table.html", visit.language, **await self._table(visit))

    async def _table(self, visit: Visit, error: str | None = None) -> dict[str, Any]:
        game = visit.game
        return {"sight": await self.sight(game, visit.viewer, visit.language), "viewer": visit.viewer,
                "here": visit.here, "error": error, "picture": systems.get(game.system).render is not None,
                "role": visit.viewer.role, "campaign": has_campaign(game.system)}

    async def sight(self, game: Any, viewer: seen_by.Viewer, language: str) -> seen_by.Sight:
        """What a kind of viewer sees of a game at its version, in a language: made once, however
        many viewers ask for it at once (each move sends every open page for its fragment), and kept
        for the next. The key holds what the sight is made of: the version (the state and the log),
        the meta (names and deadlines), the viewer's role and engine key, the language."""
        key = (game.id, game.version, _dumps(game.meta), viewer.role, viewer.key, language)

        async def made() -> seen_by.Sight:
            engine = systems.get(game.system).engine
            steps = await self.store.actions(game.id, limit=LOG_STEPS)
            return seen_by.sight(game, engine.load_state(game.state), viewer, self.presenter(game, language), steps)
        return await self._sights.get(key, made)

    async def server_list(self, request: web.Request, link: links.Link) -> web.Response:
        language = await self.language(request, link)
        games = await self.store.games(link.guild_id)
        rows = []
        for game in reversed(games[-200:]):
            say = self.presenter(game, language)
            engine = systems.get(game.system).engine
            waiting = []
            if game.active:
                waiting = sorted({say.player(p.player, plain=True) for p in engine.pending(engine.load_state(game.state))
                                  if p.player.isdigit()})
            rows.append({"id": game.id, "title": systems.title(game.system, language), "status": game.status,
                         "waiting": waiting, "updated": game.updated_at[:16].replace("T", " "),
                         "mine": str(link.user_id) in game.seats})
        token = request.match_info["token"]
        return self.render("games.html", language, games=rows, here=f"/g/{token}")

    @visiting
    async def board(self, request: web.Request, visit: Visit) -> web.Response:
        game, viewer, language = visit.game, visit.viewer, visit.language
        scale = _int(request.query.get("s"), 2)
        scale = scale if scale in SCALES else 2
        engine = systems.get(game.system).engine
        step = request.query.get("step")
        if step is not None and step.isdigit():
            timeline = await self.replays.timeline(game)
            k = min(int(step), timeline.last)
            state = timeline.state(k)
            mark = timeline.steps[k - 1].seq if k else 0
            key: tuple = (game.id, "step", k, mark, viewer.key, language, scale)
        else:
            state = game.state
            key = (game.id, game.version, viewer.key, language, scale)
        view = engine.view_for(engine.load_state(state), viewer.key)
        png = await self.pictures.picture(key, game.system, view, self.presenter(game, language), scale)
        if png is None:
            raise web.HTTPNotFound()
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=3600"})

    async def live(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the game's version, each time it changes. Not `visiting`: a stream
        stays open for hours, and keeps the game's id, not its decoded record (a Klash! state is
        some 55 KB a viewer)."""
        try:
            game = (await self.visit(request)).game
        except links.LinkRefused as exc:
            return await self._refusing(request, exc)
        game_id, sent = game.id, _int(request.query.get("v"), game.version)
        del game
        where = address(request)
        if self._live.get(where, 0) >= self.live_per_address:
            return self.refused(request, "slow_down", 429)
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        await response.prepare(request)
        event = self.watch.subscribe(game_id)
        self._live[where] = self._live.get(where, 0) + 1
        try:
            await response.write(b"retry: 1000\n\n")
            while not self.watch.closed:
                try:
                    await asyncio.wait_for(event.wait(), HEARTBEAT)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                event.clear()
                mark = self.watch.mark(game_id)
                if mark is not None and mark[0] != sent:
                    sent = mark[0]
                    await response.write(f"data: {sent}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.watch.unsubscribe(game_id, event)
            self._live[where] -= 1
            if not self._live[where]:
                self._live.pop(where)
        return response

    @visiting
    async def replay(self, request: web.Request, visit: Visit) -> web.Response:
        return self.render("replay.html", visit.language, **await self._step(visit, request.query.get("step")))

    @visiting
    async def step(self, request: web.Request, visit: Visit) -> web.Response:
        return self.render("step.html", visit.language, **await self._step(visit, request.match_info["step"]))

    async def _step(self, visit: Visit, asked: str | None) -> dict[str, Any]:
        """Step `asked` of the replay (the last one when not a number, the first past the end)."""
        game = visit.game
        timeline = await self.replays.timeline(game)
        k = min(_int(asked, timeline.last), timeline.last)
        say = self.presenter(game, visit.language)
        record = timeline.steps[k - 1] if k else None
        lines = seen_by.narration(record.events, visit.viewer, say) if record else []
        return {"title": systems.title(game.system, visit.language), "game_id": game.id, "k": k,
                "last": timeline.last, "lines": lines, "when": record.created_at[:16].replace("T", " ") if record else "",
                "here": visit.here, "picture": systems.get(game.system).render is not None, "version": game.version}

    @visiting
    async def answer(self, request: web.Request, visit: Visit) -> web.Response:
        """A seated player's own decision, from the page's form: the host's `answer`, then back
        to the page (303), or the page again with the refusal in the reader's words."""
        game, language = visit.game, visit.language
        origin = request.headers.get("Origin")
        if origin and origin.split("://", 1)[-1] != request.host:
            return self.refused(request, "bad_request", 403)       # a form posted from another site
        form = await request.post()
        prompt = str(form.get("prompt", ""))[:FIELD_MAX]
        options = [str(o)[:FIELD_MAX] for o in form.getall("option", [])][:OPTIONS_MAX]
        if visit.viewer.role != links.PLAYER:
            raise web.HTTPForbidden()
        try:
            await self.host.answer(game.id, prompt, options, visit.link.user_id)
        except BautaError as exc:
            fresh = replace(visit, game=await self.store.game(game.id) or game)
            context = await self._table(fresh, error=self.presenter(fresh.game, language).error(exc))
            return self.render("game.html", language, status=409, **context)
        self.watch.changed(game.id)
        raise web.HTTPSeeOther(location=visit.here)


def _int(value: str | None, default: int) -> int:
    return int(value) if value is not None and value.isdigit() and len(value) < 10 else default

