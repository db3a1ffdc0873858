"""Content packs: YAML files of game components, validated on load.

Each game describes its pack format as a JSON Schema (a plain dict). `load_pack` parses the
YAML and validates it; every problem becomes one line naming the file, the entry and the field,
e.g. `sample.yaml: characters[3] (Brutus): field 'speed': 'fast' is not of type 'integer'`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import PackError


def _entry_name(document: Any, path: list) -> str:
    """'characters[3] (Brutus)' for a path into a list of named entries."""
    parts: list[str] = []
    node = document
    label = ""
    for step in path:
        if isinstance(step, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{step}]"]
        else:
            parts.append(str(step))
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(step, int) and isinstance(node, dict):
            name = node.get("name") or node.get("id")
            if name:
                label = f" ({name})"
    return ".".join(parts) + label if parts else "(top level)"


def validate(document: Any, schema: dict, source: str = "pack") -> None:
    """Raise PackError listing every schema violation, each naming file, entry and field."""
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.path))):
        path = list(error.path)
        field = path[-1] if path and isinstance(path[-1], str) else None
        entry_path = path[:-1] if field is not None else path
        where = _entry_name(document, entry_path)
        what = f"field '{field}': " if field else ""
        if error.validator == "required":
            what = ""
        problems.append(f"{source}: {where}: {what}{error.message}")
    if problems:
        shown = problems[:20]
        more = f"\n… and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise PackError("\n".join(shown) + more)


def parse_yaml(text: str, source: str = "pack") -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise PackError(f"{source}:{where}: not valid YAML ({getattr(exc, 'problem', exc)}).") from None
    except RecursionError:      # "[[[[…" thousands deep: refused, not a crash
        raise PackError(f"{source}: nested too deeply to be a pack or a sheet.") from None


def load_pack(text: str, schema: dict, source: str = "pack") -> Any:
    document = parse_yaml(text, source)
    validate(document, schema, source)
    return document


def load_pack_file(path: str | Path, schema: dict) -> Any:
    path = Path(path)
    return load_pack(path.read_text(encoding="utf-8"), schema, path.name)
