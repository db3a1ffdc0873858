"""What many viewers ask for at once, made once: a bounded memo of async computations by key. A
key asked again while its value is being made waits for that one (a move sends every open page for
the same fragment and picture at the same moment); a made value is kept, the newest asked first,
within a budget (a count, or the values' weight: a picture's bytes)."""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    def __init__(self, budget: int, weigh: Callable[[V], int] = lambda _value: 1):
        self.budget, self.weigh = budget, weigh
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._weight = 0
        self._making: dict[Hashable, asyncio.Future] = {}

    async def get(self, key: Hashable, make: Callable[[], Awaitable[V]]) -> V:
        """The value of `key`: kept, being made by another caller, or made now by `make()` (a
        value that is None or empty is given back but not kept; a failure reaches every waiter)."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        if key in self._making:
            return await asyncio.shield(self._making[key])
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            value = await make()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()          # retrieved: whoever waits for it raises it too
            raise
        finally:
            self._making.pop(key, None)
        future.set_result(value)
        if value:
            self._keep(key, value)
        return value

    def _keep(self, key: Hashable, value: V) -> None:
        self._kept[key] = value
        self._weight += self.weigh(value)
        while self._weight > self.budget and self._kept:
            _, gone = self._kept.popitem(last=False)
            self._weight -= self.weigh(gone)
