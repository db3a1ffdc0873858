"""The web companion: a member's signed link shows a game as they may see it, live, with its
replay; served by the bot process (aiohttp.web), from the store and the engines' per-viewer views,
never from Discord. `web.server.Companion` is the entrance; see docs/architecture.md."""
