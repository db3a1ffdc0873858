"""Text a member typed, made safe to repeat in a message; lists that keep their newest lines.

Whatever a member types (a roll label, a skill name, a reason) may hold `@everyone`, `@here`,
a role or a user mention. The bot's global `allowed_mentions` (bot.py) already stops everyone,
here and roles from pinging; `echo` also makes every mention inert to the eye and to user pings
(a zero-width space after the `@`), keeps the text on one line (a typed line break cannot
forge a line of the bot's own) and caps its length, so an echoed text cannot crowd out the
message it sits in.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

MESSAGE_LIMIT = 2000     # Discord's limit on a message's content (the courier's chunks and every reply)
HELD = "bauta_held"      # interaction.extras: a click's response held for its table (replies.Held)


def echo(text: str, limit: int = 100) -> str:
    """`text` as it may appear inside a message: mentions neutralised, one line, at most `limit`
    characters (an ellipsis marks a cut)."""
    flat = " ".join(str(text).split())
    safe = discord.utils.escape_mentions(flat)
    if len(safe) <= limit:
        return safe
    return safe[: limit - 1] + "…" if limit > 0 else ""


def newest(header: str, lines: Sequence[str], limit: int = MESSAGE_LIMIT,
           older: Callable[[int], str] | None = None) -> str:
    """One message: `header`, then as many of the last `lines` as fit in `limit`, still oldest
    first. When older lines are left out, `older` (a format with `{n}`: how many) says so under
    the header (`older(n)`, so the catalogue can choose its plural form). A line longer than half the limit is cut, so one cannot hide all the others."""
    cap = limit // 2
    lines = [line if len(line) <= cap else line[: cap - 1] + "…" for line in lines]
    if len(header) + sum(len(line) + 1 for line in lines) <= limit:
        return "\n".join([header, *lines])
    size = len(header) + (len(older(len(lines))) + 1 if older else 0)
    start = len(lines)
    while start > 0 and size + len(lines[start - 1]) + 1 <= limit:
        start -= 1
        size += len(lines[start]) + 1
    note = [older(start)] if older and start else []
    return "\n".join([header, *note, *lines[start:]])
