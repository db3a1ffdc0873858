"""Answering an interaction: within Discord's 3-second deadline, once, privately or not."""
from __future__ import annotations

import asyncio
import logging
from typing import Any
from collections.abc import Awaitable, Callable

import discord

from .errors import fit
from .text import HELD

log = logging.getLogger("bauta.replies")


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False,
                **kwargs: Any) -> None:
    """Answer an interaction whether or not it has been responded to yet (cut to 2,000 characters)."""
    content = fit(content)
    await settle(interaction)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)



class Deadline:
    """Discord's 3-second deadline for an interaction whose answer waits for a commit: when the
    work runs past `seconds`, a private "thinking…" holds the interaction open (it promises
    nothing; the answer comes after the commit). Whoever answers calls `settle()` first."""

    def __init__(self, interaction: discord.Interaction, seconds: float):
        self.interaction = interaction
        self.deferring = False
        self.task = asyncio.get_running_loop().create_task(self._expire(seconds))

    async def _expire(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.deferring = True       # from here on not cancelled: the defer may be on the wire
        if not self.interaction.response.is_done():
            try:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
            except discord.HTTPException as exc:
                log.info("could not defer a slow interaction: %s", exc)

    async def settle(self) -> None:
        """Stop the timer, or let its deferral finish: afterwards `response.is_done()` is true."""
        if not self.deferring:
            self.task.cancel()
        else:
            await asyncio.shield(self.task)


class Held:
    """A click whose answer waits for its step's publish, so that the message it was made on (the
    table) takes its next state in the click's own response (UPDATE_MESSAGE: one edit, outside the
    channel's rate limit) rather than an answered mark and then an edit. Whoever answers first
    claims the response: the publish's edit of that message (`claim`), else `ack` (the mark), when
    the publish is done without editing it (`release`) or runs past `seconds` (Discord gives 3)."""

    def __init__(self, interaction: discord.Interaction, ack: Callable[[], Awaitable[None]], seconds: float):
        self.interaction, self._ack = interaction, ack
        self.claimed = False
        self.done = asyncio.Event()         # the claimer's response is out (or failed)
        self.task = asyncio.get_running_loop().create_task(self._expire(seconds))

    def claim(self) -> bool:
        """Take the response (True once): the caller answers with it, then sets `done`. (None to
        take when something answered the interaction already: a private reply, an error.)"""
        if self.claimed:
            return False
        self.claimed = True
        if asyncio.current_task() is not self.task:
            self.task.cancel()
        if self.interaction.response.is_done():
            self.done.set()
            return False
        return True

    async def _expire(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        await self.release()

    async def answer(self, respond: Callable[[], Awaitable[Any]]) -> bool:
        """Answer with `respond` when the response is still to take (True); else wait until
        whoever took it has answered (False)."""
        if self.claim():
            try:
                await respond()
            finally:
                self.done.set()
            return True
        await self.done.wait()
        return False

    async def release(self) -> None:
        """Answer with the mark unless the response was taken; afterwards it is out."""
        await self.answer(self._ack)


async def settle(interaction: discord.Interaction) -> None:
    """Before answering an interaction otherwise: its deadline's timer stopped, and a click's
    response held for its table given its mark (see `Held`)."""
    deadline = interaction.extras.pop("bauta_deadline", None)
    if deadline is not None:
        await deadline.settle()
    held = interaction.extras.get(HELD)
    if held is not None:
        await held.release()

