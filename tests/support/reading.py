"""Everything the bot sent that a person reads, for the language tests: one helper instead of a
near-copy per game.

`Sent.texts()` (tests/support/fakes.py) is for leak checks: it includes each embed as the text of its
dict (keys, colours and urls too) and an empty string per missing field. These are the words alone,
each tagged with where a reader sees it: "text" (the message, an embed's title, description, fields,
author and footer), "label" (buttons, a select's placeholder, its options and their descriptions) and
"file" (an attachment's name). Persistent buttons and selects are `DynamicItem`s: their words are on
the item they wrap.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

KINDS = ("text", "label", "file")


def _embed_words(embed: Any) -> Iterator[str]:
    data = embed.to_dict()
    yield from (data.get(key) or "" for key in ("title", "description"))
    for part in ("author", "footer"):
        yield (data.get(part) or {}).get("name" if part == "author" else "text") or ""
    for field in data.get("fields") or ():
        yield field.get("name") or ""
        yield field.get("value") or ""


def read(message: Any) -> Iterator[tuple[str, str]]:
    """(kind, words) for each part of one sent message a reader sees; empty parts are left out."""
    parts: list[tuple[str, str]] = [("text", message.content or "")]
    for embed in [message.embed] if getattr(message, "embed", None) is not None else []:
        parts += [("text", words) for words in _embed_words(embed)]
    if message.file is not None:
        parts.append(("file", message.file.filename or ""))
    for item in (message.view.children if message.view is not None else []):
        inner = getattr(item, "item", item)
        parts += [("label", getattr(inner, "label", None) or ""), ("label", getattr(inner, "placeholder", None) or "")]
        for option in getattr(inner, "options", None) or []:
            parts += [("label", option.label or ""), ("label", option.description or "")]
    yield from ((kind, words) for kind, words in parts if words)


def said_parts(world: Any, kinds: Iterable[str] = KINDS) -> list[tuple[str, str]]:
    """(kind, words) of every message the bot sent, to anyone (channel, DMs, private replies)."""
    wanted = set(kinds)
    return [(kind, words) for message in world.sent for kind, words in read(message) if kind in wanted]


def said(world: Any, kinds: Iterable[str] = KINDS) -> list[str]:
    """The words alone, of the kinds asked for."""
    return [text for _, text in said_parts(world, kinds)]
