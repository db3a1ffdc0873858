"""The web companion's server, in the bot's own process and loop: aiohttp.web on `BAUTA_WEB`
(default 127.0.0.1:8080; `off` disables it), its links written with `BAUTA_PUBLIC_URL` (the
address players open, e.g. behind an HTTPS reverse proxy; default: the listening address).

Links are minted here (`/game web` calls `mint`), signed with `BAUTA_WEB_SECRET` when set, else
with a secret made once and kept in the store, so every process of a deployment signs and checks
the same links and may serve any game."""
from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from clock import source
from db.web import LinkRow

from . import links
from .guard import Budget, middlewares
from .pages import Pages, WebHost

log = logging.getLogger("bauta.web")

DEFAULT_BIND = ("127.0.0.1", 8080)
BODY_MAX = 16 * 1024          # a form's answer is a few hundred bytes
RATE, BURST = 10.0, 60.0      # requests a second per address, and at once


@dataclass(frozen=True)
class WebConfig:
    bind: tuple[str, int] | None            # None: no web companion
    public_url: str
    secret: bytes | None = None             # BAUTA_WEB_SECRET; None: the store's
    days: int = links.DAYS
    rate: float = RATE
    burst: float = BURST

    @classmethod
    def from_env(cls, env: Any = None) -> WebConfig:
        env = os.environ if env is None else env
        bind = parse_bind(env.get("BAUTA_WEB", ""))
        public = env.get("BAUTA_PUBLIC_URL", "").strip()
        if bind is not None and not public:
            host = bind[0] if bind[0] not in ("0.0.0.0", "::", "") else "127.0.0.1"
            public = f"http://{host}:{bind[1]}"
        secret = env.get("BAUTA_WEB_SECRET", "").strip()
        return cls(bind, public.rstrip("/"), secret.encode("utf-8") if secret else None)


def parse_bind(text: str) -> tuple[str, int] | None:
    """`off` → None; `host:port`, `:port` or `port` → where to listen; empty → the default."""
    text = text.strip()
    if not text:
        return DEFAULT_BIND
    if text.lower() in ("off", "no", "0", "false"):
        return None
    host, _, port = text.rpartition(":") if ":" in text else ("", "", text)
    host = host.strip("[]") or DEFAULT_BIND[0]
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise SystemExit(f"BAUTA_WEB must be off, host:port or a port, not {text!r}.")
    return host, int(port)


class Companion:
    def __init__(self, host: WebHost, config: WebConfig, **options: Any):
        self.host = host
        self.config = config
        secret = config.secret or host.store.web_secret
        self.pages = Pages(host, secret, **options)
        self.budget = Budget(config.rate, config.burst)
        self.app = web.Application(client_max_size=BODY_MAX,
                                   middlewares=middlewares(self.budget, self.pages.refused))
        self.app.add_routes(self.pages.routes())
        host.watchers.append(self.pages.watch.changed)     # a move made in this process: shown at once
        self.app.on_shutdown.append(self._closing)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self) -> None:
        assert self.config.bind is not None
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        # a move wakes every open page at once: many connections arrive together (the default
        # backlog of 128 makes the rest retry a second later)
        site = web.TCPSite(self._runner, *self.config.bind, backlog=1024)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.config.bind[1]
        log.info("web companion on %s:%s, links as %s", self.config.bind[0], self.port, self.public_url)

    @property
    def public_url(self) -> str:
        if self.config.bind is not None and self.config.bind[1] == 0 and self.port:
            # an ephemeral port (tests): the links name the port really taken
            return f"http://{self.config.bind[0]}:{self.port}"
        return self.config.public_url

    async def _closing(self, _app: web.Application) -> None:
        await self.pages.watch.close()

    async def stop(self) -> None:
        if self.pages.watch.changed in self.host.watchers:
            self.host.watchers.remove(self.pages.watch.changed)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def mint(self, guild_id: int, game_id: int, user_id: int, role: str) -> tuple[str, int]:
        """A new link for a member: (its address, when it expires in unix seconds)."""
        expires = int(source.timestamp()) + self.config.days * 86400
        link = links.Link(secrets.token_urlsafe(12), guild_id, game_id, user_id, role, expires)
        await self.host.store.add_link(LinkRow(link.id, guild_id, game_id, user_id, role, expires, False))
        token = links.sign(await self.pages.secret(), link)
        path = f"/g/{token}" if not game_id else f"/g/{token}/{game_id}"
        return f"{self.public_url}{path}", expires

    async def offer(self, guild_id: int, game: Any, user_id: int, gm: bool) -> tuple[str, int, str] | None:
        """`/game web`'s link for a member: to `game` in the role they have there (their seat, else
        the GM's view, else a spectator's where the server allows it; None: none), or, without a
        game, to the server's list. (address, expiry in unix seconds, role)"""
        if game is None:
            listing = links.GM if gm else links.MEMBER
            return (*await self.mint(guild_id, 0, user_id, listing), listing)
        role = await self.pages.role_of(game, user_id, gm)
        if role is None:
            return None
        return (*await self.mint(guild_id, game.id, user_id, role), role)

    async def revoke(self, guild_id: int, game_id: int | None, user_id: int | None) -> int:
        return await self.host.store.revoke_links(guild_id, game_id, user_id)
