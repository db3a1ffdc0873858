"""Answering an interaction: within Discord's 3-second deadline, once, privately or not."""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from .errors import fit

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


async def settle(interaction: discord.Interaction) -> None:
    deadline = interaction.extras.pop("bauta_deadline", None)
    if deadline is not None:
        await deadline.settle()

