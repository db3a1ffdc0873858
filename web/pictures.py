"""A viewer's picture of a game at one step, drawn by the game's own renderer from the viewer's
view (so it can show no more than they may see), at the page's scale, in their language; kept in a
small cache, since a step's picture never changes and many viewers ask for the same one."""
from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from cogs.host import systems
from i18n import present
from i18n.present import Presenter
from renderers.common import scaled

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
        self._kept: OrderedDict[tuple, bytes] = OrderedDict()
        self._bytes = 0
        self._drawing: dict[tuple, asyncio.Future] = {}

    async def picture(self, key: tuple, system_name: str, view: dict, say: Presenter, scale: int) -> bytes | None:
        """`key` names the picture (game, version or step, viewer, language, scale); the same key
        asked by many viewers at once is drawn once."""
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        if key in self._drawing:
            return await asyncio.shield(self._drawing[key])
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            png = await asyncio.to_thread(draw, system_name, view, say, scale)
        except Exception:  # noqa: BLE001 - a picture that fails leaves the page without it
            log.exception("web picture failed for %s", key)
            png = None
        finally:
            self._drawing.pop(key, None)
        future.set_result(png)
        if png:
            self._keep(key, png)
        return png

    def _keep(self, key: tuple, png: bytes) -> None:
        self._kept[key] = png
        self._bytes += len(png)
        while self._bytes > KEPT_BYTES and self._kept:
            _, gone = self._kept.popitem(last=False)
            self._bytes -= len(gone)
