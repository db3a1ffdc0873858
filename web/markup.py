"""Discord's message text as safe HTML: what the presenter words for a channel (mentions,
timestamps, **bold**) shown on a page.

Everything is escaped first, so a name or a pack's word a member typed (`<script>`, `"><img …>`)
is text; the few Discord forms are then recognised in the escaped text and turned into markup we
write ourselves. No link is ever made from text (no `javascript:` can reach an href)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime

from markupsafe import Markup, escape

_MENTION = re.compile(r"&lt;@!?(\d{1,20})&gt;")
_ROLE = re.compile(r"&lt;@&amp;(\d{1,20})&gt;")
_CHANNEL = re.compile(r"&lt;#(\d{1,20})&gt;")
_TIME = re.compile(r"&lt;t:(-?\d{1,12})(?::([tTdDfFR]))?&gt;")
_EMOJI = re.compile(r"&lt;a?:(\w{1,32}):\d{1,20}&gt;")
_SPANS = ((re.compile(r"\*\*(.+?)\*\*"), "strong"), (re.compile(r"__(.+?)__"), "u"),
          (re.compile(r"~~(.+?)~~"), "s"), (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), "em"),
          (re.compile(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)"), "em"))
_CODE = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^(#{1,3}) (.+)$")


def when(seconds: int) -> str:
    """A Discord timestamp's time for a page without script: UTC, to the minute (the page's
    script shows it in the reader's own zone and language)."""
    try:
        return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (OverflowError, OSError, ValueError):
        return str(seconds)


def _time(match: re.Match) -> str:
    seconds = int(match.group(1))
    try:
        iso = datetime.fromtimestamp(seconds, UTC).isoformat()
    except (OverflowError, OSError, ValueError):
        return match.group(0)
    return f'<time datetime="{iso}" data-style="{match.group(2) or "f"}">{when(seconds)}</time>'


def _inline(text: str, names: Mapping[str, str], fallback: str) -> str:
    def name(match: re.Match) -> str:
        return f'<span class="who">@{escape(names.get(match.group(1)) or fallback)}</span>'

    # code first: what is inside backticks is shown as it is
    pieces = _CODE.split(text)
    out = []
    for i, piece in enumerate(pieces):
        if i % 2:
            out.append(f"<code>{piece}</code>")
            continue
        piece = _MENTION.sub(name, piece)
        piece = _ROLE.sub("@…", piece)
        piece = _CHANNEL.sub("#…", piece)
        piece = _TIME.sub(_time, piece)
        piece = _EMOJI.sub(r":\1:", piece)
        for pattern, tag in _SPANS:
            piece = pattern.sub(rf"<{tag}>\1</{tag}>", piece)
        out.append(piece)
    return "".join(out)


def html(text: str, names: Mapping[str, str] | None = None, fallback: str = "?") -> Markup:
    """`text` (Discord markdown) as HTML: a paragraph per blank-line block, lines kept, quotes and
    small print (`> `, `-# `) and headings as Discord shows them."""
    names = names or {}
    blocks = []
    for block in re.split(r"\n\s*\n", str(escape(text or ""))):
        lines = []
        for line in block.split("\n"):
            heading = _HEADING.match(line)
            if heading:
                level = len(heading.group(1)) + 2
                lines.append(f"<h{level}>{_inline(heading.group(2), names, fallback)}</h{level}>")
            elif line.startswith("&gt; "):
                lines.append(f'<span class="quote">{_inline(line[5:], names, fallback)}</span>')
            elif line.startswith("-# "):
                lines.append(f"<small>{_inline(line[3:], names, fallback)}</small>")
            else:
                lines.append(_inline(line, names, fallback))
        blocks.append("<p>" + "<br>".join(lines) + "</p>")
    return Markup("".join(blocks))
