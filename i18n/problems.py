"""The words of a refused file: each `Problem` of a `PackError` (rules/common/packs.py) for one
reader, in one language, within one Discord reply.

A problem's sentence is `errors.pack.<code>` (the game's catalogue first, then
`common.errors.pack.<code>` in i18n/<lang>.common.yaml), with its parameters; its place (`Where`: file,
entry, field) is written around it by `errors.pack.in_file` / `in_entry` / `in_field`. The reply shows
the first MAX_SHOWN problems, each cut to MAX_LINE characters, and how many more there are, so it
fits one message (2,000 characters) whatever the file holds.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from rules.common import PackError, Problem
from rules.common.packs import MAX_SHOWN
from rules.common.safe_yaml import shorten


class Presenter(Protocol):
    """What these words need of their reader (`i18n.present.Presenter`, which imports this module)."""
    game: str | None
    counts: Counter[str]

    def text(self, key: str, *, plain: bool = False, game: str | None = None, **params: Any) -> str: ...

    def for_game(self, game: str | None) -> Presenter: ...


MAX_LINE = 160


def entry_text(say: Presenter, problem: Problem, game: str | None) -> str:
    """`characters[3] (Brutus)`, `map.alleys[2]`; the catalogue's "(top level)" for the document itself."""
    parts: list[str] = []
    for step in problem.where.entry:
        if isinstance(step, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{step}]"]
        else:
            parts.append(str(step))
    name = problem.where.name
    if not parts:      # the document itself: a sheet is named by its character, a pack by "(top level)"
        return name or say.text("errors.pack.top_level", plain=True, game=game)
    text = shorten(".".join(parts), 60)
    return f"{text} ({name})" if name else text


def line(say: Presenter, problem: Problem, game: str | None) -> str:
    """One problem: where, then what (`guild.yaml: characters[1] (javelin): field 'speed': …`)."""
    where = problem.where
    said = say.text(f"errors.pack.{problem.code}", plain=True, game=game, **problem.params)
    if where.field:
        key = "errors.pack.in_field"
    elif where.entry or where.name:
        key = "errors.pack.in_entry"
    else:
        key = "errors.pack.in_file"
    entry = entry_text(say, problem, game) if key != "errors.pack.in_file" else ""
    return shorten(say.text(key, plain=True, game=game, file=where.file, entry=entry, field=where.field,
                            problem=said), MAX_LINE)


def refusal(say: Presenter, error: PackError) -> str:
    """The whole reply: the first MAX_SHOWN problems, then "… and N more" (or "at least N")."""
    game = error.system or say.game
    # the game's reader, so the terms inside a problem (a direction, a type) are the game's words too
    reader = say.for_game(game)
    lines = [line(reader, problem, game) for problem in error.problems[:MAX_SHOWN]]
    rest = len(error.problems) - len(lines)
    if rest > 0:
        lines.append(reader.text("errors.pack.more_at_least" if error.at_least else "errors.pack.more",
                                 plain=True, game=game, count=rest))
    if reader is not say:
        say.counts.update(reader.counts)
    return "\n".join(lines)
