"""Content packs: YAML files of game components, validated on load.

Each game describes its pack format as a JSON Schema (a plain dict). `load_pack` parses the YAML
(within the bounds of `safe_yaml`) and validates it. A refusal is data, like every error of the
rules: a `PackError` carrying `Problem(code, where, params)`s in document order, where `where` (a
`Where`) names the file, the path to the entry, the entry's own name and the field. The presenter
(`i18n/problems.py`) words each one from `errors.pack.<code>` in the reader's language and keeps
the reply within one Discord message: e.g. `sample.yaml: characters[3] (Brutus): field 'speed':
'fast' is not of type integer`, then "… and N more".

jsonschema's errors become codes by their validator (`SCHEMA_CODES`: required, type, enum, minimum,
maxLength, pattern, additionalProperties, minItems, …) with the validator's values as parameters;
a validator without a code of its own is `invalid` with its name. A game's own checks (a duplicate
id, a reference to nothing) are `Problem`s too, with codes in the game's catalogue (`refuse`).
Values quoted from the file are cut short (`quote`), so no problem carries much of the file.
"""
from __future__ import annotations

import itertools
import reprlib
from typing import Any
from collections.abc import Iterable

import jsonschema

from .errors import PackError, Problem, Where
from .safe_yaml import MAX_SIZE, load_yaml, shorten

__all__ = ["MAX_COUNTED", "MAX_SHOWN", "PackError", "Problem", "SCHEMA_CODES", "Where", "entry_where", "in_language",
           "load_pack", "parse_yaml", "quote", "refuse", "validate"]

MAX_SHOWN = 10            # problems a reply shows (the presenter's bound; kept here beside the others)
# Counting stops here: a pack with 40,000 bad entries is told "at least 990 more" instead of the
# validator spending seconds (and one problem each) on all of them.
MAX_COUNTED = 1_000
QUOTE = 40                # characters of a value a problem quotes

# The validators a problem names by their own code; every other one is `invalid` (with its name).
SCHEMA_CODES = frozenset({
    "required", "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "pattern", "additionalProperties",
    "anyOf", "oneOf", "minProperties", "maxProperties", "multipleOf",
})

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = QUOTE
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 4
_REPR.maxlevel = 2


def quote(value: Any) -> str:
    """A short excerpt of a value from the file, as YAML writes it: 'fast', 12, true, null, [1, 2, ...]."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"'{shorten(value, QUOTE)}'"
    if isinstance(value, (int, float)):
        return shorten(value, QUOTE)
    return shorten(_REPR.repr(value), QUOTE)


def _label(node: Any) -> str:
    """An entry's own name for a reader: its `name` when it is text, else its `id` (a pack's
    bilingual name `{en: ..., it: ...}` is named by its id, which is also what the file says)."""
    for key in ("name", "id"):
        value = node.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return shorten(value, 30)
    return ""


def entry_where(source: str, document: Any, path: Iterable[str | int], field: str = "") -> Where:
    """The `Where` of a path into a document: the entry (list indexes included) and the name of
    the innermost listed entry on the way, e.g. characters[3] (Brutus)."""
    steps: list[str | int] = []
    name = ""
    node = document
    for step in path:
        steps.append(shorten(step, 30) if isinstance(step, str) else step)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
            continue
        if isinstance(step, int) and isinstance(node, dict):
            name = _label(node) or name
    return Where(shorten(source, 40), tuple(steps), name, shorten(field, 30) if field else "")


def refuse(problems: list[Problem], system: str | None = None, at_least: bool = False) -> None:
    """Raise one PackError for a list of problems (no-op when the list is empty). `system` names
    the game whose catalogue words its own codes (`errors.pack.<code>` in i18n/<lang>.<game>.yaml)."""
    if problems:
        error = PackError(problems=problems, at_least=at_least)
        error.system = system
        raise error


def _path_key(error) -> list[tuple[int, Any]]:
    """Document order: list indexes as numbers (2 before 10), keys as text."""
    return [(0, step) if isinstance(step, int) else (1, str(step)) for step in error.path]


def _listing(values: Iterable[Any]) -> str:
    """Identifiers of the pack format (allowed values, unexpected keys), cut to a short excerpt."""
    return shorten(", ".join(str(v) for v in values), 90)


def _schema_problem(error, document: Any, source: str, missing: dict[tuple, list[str]]) -> Problem:
    """One jsonschema error as a Problem: its validator as the code, its values as parameters."""
    path = list(error.path)
    field = path[-1] if path and isinstance(path[-1], str) else ""
    entry = path[:-1] if field else path
    kind, value, instance = error.validator, error.validator_value, error.instance
    params: dict[str, Any] = {}
    if kind == "required":
        # one error per missing property, in the schema's order: the n-th error at a path is its n-th
        left = missing.setdefault(tuple(path), [p for p in value if isinstance(instance, dict) and p not in instance])
        params = {"property": shorten(left.pop(0) if left else _listing(value), 30)}
    elif kind == "type":
        params = {"value": quote(instance),
                  "expected": [{"term": f"json_{t}"} for t in ([value] if isinstance(value, str) else value)]}
    elif kind == "enum":
        params = {"value": quote(instance), "allowed": _listing(value)}
    elif kind == "const":
        params = {"value": quote(instance), "expected": quote(value)}
    elif kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
        params = {"value": quote(instance), "limit": value}
    elif kind in ("minLength", "maxLength"):
        params = {"value": quote(instance), "limit": value, "length": len(instance) if isinstance(instance, str) else 0}
    elif kind in ("minItems", "maxItems", "minProperties", "maxProperties"):
        params = {"limit": value, "count": len(instance) if isinstance(instance, (list, dict)) else 0}
    elif kind == "pattern":
        params = {"value": quote(instance), "pattern": shorten(value, 60)}
    elif kind == "additionalProperties":
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = [k for k in instance if k not in known] if isinstance(instance, dict) else []
        params = {"fields": _listing(f"'{shorten(k, 30)}'" for k in extra[:10]), "count": len(extra)}
    elif kind in SCHEMA_CODES:           # anyOf, oneOf, uniqueItems: the value is what is wrong
        params = {"value": quote(instance)}
    else:
        params = {"value": quote(instance), "rule": shorten(kind, 30)}
    code = kind if kind in SCHEMA_CODES else "invalid"
    return Problem(code, entry_where(source, document, entry, field if isinstance(field, str) else ""), params)


def validate(document: Any, schema: dict, source: str = "pack") -> None:
    """Raise PackError listing schema violations, each naming file, entry and field."""
    validator = jsonschema.Draft202012Validator(schema)
    errors = list(itertools.islice(validator.iter_errors(document), MAX_COUNTED + 1))
    missing: dict[tuple, list[str]] = {}
    problems = [_schema_problem(error, document, source, missing) for error in sorted(errors[:MAX_COUNTED],
                                                                                     key=_path_key)]
    refuse(problems, at_least=len(errors) > MAX_COUNTED)


def parse_yaml(text: str, source: str = "pack", max_size: int = MAX_SIZE) -> Any:
    return load_yaml(text, source, max_size)


def load_pack(text: str, schema: dict, source: str = "pack") -> Any:
    document = parse_yaml(text, source)
    validate(document, schema, source)
    return document


def in_language(value: Any, language: str, default: str = "en") -> Any:
    """`value` (a view, a list, a name) with every pack word given in several languages, a
    `{"text": {lang: ...}}` as the presenter reads it, replaced by its text in `language` (else
    `default`, else the first): for a picture or a summary drawn from a view, which has no reader."""
    if isinstance(value, dict):
        texts = value.get("text")
        if len(value) == 1 and isinstance(texts, dict):
            return texts.get(language) or texts.get(default) or next(iter(texts.values()), "")
        return {key: in_language(item, language, default) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [in_language(item, language, default) for item in value]
    return value
