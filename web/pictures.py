"""A viewer's picture of a game at one step, drawn by the game's own renderer from the viewer's
view (so it can show no more than they may see), at the page's scale, in their language; kept in a
small cache, since a step's picture never changes and many viewers ask for the same one."""
from __future__ import annotations

import asyncio
import logging

from cogs.host import systems
from i18n import present
from i18n.present import Presenter
from renderers.common import scaled

from .kept import Kept

log = logging.getLogger("bauta.web")

SCALES = (1, 2, 3)
KEPT_BYTES = 48 * 1024 * 1024       # the cache's budget: a board at scale 2 weighs 0.2-1 MB


def draw(system_name: str, view: dict, say: Presenter, scale: int) -> bytes | None:
    system = systems.get(system_name)
    if system.render is None:
        return None
    reading = present.READER.set(say)
    try:
        with scaled(scale):          # the renderers' own scale: drawn sharp, not enlarged
            return system.render(view)
    finally:
        present.READER.reset(reading)


class Pictures:
    def __init__(self) -> None:
        self._kept: Kept[bytes | None] = Kept(KEPT_BYTES, weigh=lambda png: len(png or b""))

    async def picture(self, key: tuple, system_name: str, view: dict, say: Presenter, scale: int) -> bytes | None:
        """`key` names the picture (game, version or step, viewer, language, scale); the same key
        asked by many viewers at once is drawn once."""
        async def drawn() -> bytes | None:
            try:
                return await asyncio.to_thread(draw, system_name, view, say, scale)
            except Exception:  # noqa: BLE001 - a picture that fails leaves the page without it
                log.exception("web picture failed for %s", key)
                return None
        return await self._kept.get(key, drawn)
