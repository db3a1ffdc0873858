"""Text the bot echoes back to users: cut short and unable to ping."""
from __future__ import annotations

import discord


def echo(text: str, limit: int = 100) -> str:
    """`text` as it may appear inside a reply: mentions neutralised, at most `limit` characters."""
    text = discord.utils.escape_mentions(str(text))
    return text if len(text) <= limit else text[: limit - 1] + "…"
