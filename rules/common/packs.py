"""Content packs: YAML files of game components, validated on load.

Each game describes its pack format as a JSON Schema (a plain dict). `load_pack` parses the
YAML (within the bounds of `safe_yaml`) and validates it; every problem becomes one line naming
the file, the entry and the field, e.g.
`sample.yaml: characters[3] (Brutus): field 'speed': 'fast' is not of type 'integer'`.
A refusal shows the first MAX_SHOWN problems, each cut to MAX_LINE characters, and how many more
there are, so it always fits one Discord reply whatever the file holds.
"""
from __future__ import annotations

import itertools
from typing import Any

import jsonschema

from .errors import PackError
from .safe_yaml import MAX_SIZE, load_yaml, shorten

MAX_SHOWN = 10
MAX_LINE = 160
# Counting stops here: a pack with 40,000 bad entries is told "at least 990 more" instead of the
# validator spending seconds (and one formatted message each) on all of them.
MAX_COUNTED = 1_000


def _entry_name(document: Any, path: list) -> str:
    """'characters[3] (Brutus)' for a path into a list of named entries."""
    parts: list[str] = []
    node = document
    label = ""
    for step in path:
        if isinstance(step, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{step}]"]
        else:
            parts.append(shorten(step, 30))
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(step, int) and isinstance(node, dict):
            name = node.get("name") or node.get("id")
            if name:
                label = f" ({shorten(name, 30)})"
    return shorten(".".join(parts), 60) + label if parts else "(top level)"


def summary(problems: list[str], at_least: bool = False) -> str:
    """The first MAX_SHOWN problems, each shortened, and a count of the rest."""
    shown = [shorten(p, MAX_LINE) for p in problems[:MAX_SHOWN]]
    rest = len(problems) - len(shown)
    if rest > 0:
        shown.append(f"… and {'at least ' if at_least else ''}{rest:,} more")
    return "\n".join(shown)


def refuse(problems: list[str]) -> None:
    """Raise one PackError for a list of problem lines (no-op when the list is empty)."""
    if problems:
        raise PackError(summary(problems))


def _path_key(error) -> list[tuple[int, Any]]:
    """Document order: list indexes as numbers (2 before 10), keys as text."""
    return [(0, step) if isinstance(step, int) else (1, str(step)) for step in error.path]


def validate(document: Any, schema: dict, source: str = "pack") -> None:
    """Raise PackError listing schema violations, each naming file, entry and field."""
    source = shorten(source, 40)
    validator = jsonschema.Draft202012Validator(schema)
    errors = list(itertools.islice(validator.iter_errors(document), MAX_COUNTED + 1))
    problems = []
    for error in sorted(errors[:MAX_COUNTED], key=_path_key):
        path = list(error.path)
        field = path[-1] if path and isinstance(path[-1], str) else None
        entry_path = path[:-1] if field is not None else path
        where = _entry_name(document, entry_path)
        what = f"field '{shorten(field, 30)}': " if field else ""
        if error.validator == "required":
            what = ""
        problems.append(f"{source}: {where}: {what}{shorten(error.message, 90)}")
    if problems:
        raise PackError(summary(problems, at_least=len(errors) > MAX_COUNTED))


def parse_yaml(text: str, source: str = "pack", max_size: int = MAX_SIZE) -> Any:
    return load_yaml(text, source, max_size)


def load_pack(text: str, schema: dict, source: str = "pack") -> Any:
    document = parse_yaml(text, source)
    validate(document, schema, source)
    return document

