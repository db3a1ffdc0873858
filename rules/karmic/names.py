"""A pack's names in several languages: `name: Sword` or `name: {en: Sword, it: Spada, es: Espada}`.

A weapon, an armour, a distinction or a character (an NPC above all) keeps `name`, one plain string:
the English form (else the first given), which is what the rules key on (a sheet's `wielding`, the
reload row, a stored character) so that English games and stored states read as before. The other
forms live in `names` ({lang: text}, empty for a plain name). In event data a name is `said(...)`:
the presenter's `{"text": {lang: ...}}` when there are several forms, else the plain string. A name
typed by a player (a slash command, a sheet's list of weapons) finds its entry in any of its forms.
"""
from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "it", "es")
DEFAULT = "en"



def name_schema(max_length: int | None = None) -> dict:
    """A name in a pack or a sheet: a plain string, or its forms per language."""
    text: dict = {"type": "string", "minLength": 1, **({"maxLength": max_length} if max_length else {})}
    return {"anyOf": [text, {"type": "object", "minProperties": 1, "additionalProperties": False,
                             "properties": {lang: text for lang in LANGUAGES}}]}


NAME_SCHEMA = name_schema()
# What a parsed entry carries once its name is split (`name` the key, `names` the forms).
NAMES_SCHEMA = {"type": "object", "additionalProperties": False,
                "properties": {lang: {"type": "string"} for lang in LANGUAGES}}


def key_name(name: Any) -> str:
    """The plain name the rules key on: the string, or the English form (else the first)."""
    if isinstance(name, dict):
        return str(name.get(DEFAULT) or next(iter(name.values()), ""))
    return str(name)


def forms(name: Any) -> dict[str, str]:
    """The forms of a name given in several languages; {} for a plain string."""
    return {str(k): str(v) for k, v in name.items()} if isinstance(name, dict) else {}


def split(entry: dict) -> dict:
    """An entry (a pack's weapon, a sheet) with its name split into `name` and `names`; an entry
    already split, or with a plain name, comes back as it is."""
    if not isinstance(entry.get("name"), dict):
        return entry
    return {**entry, "name": key_name(entry["name"]), "names": {**forms(entry["name"]), **entry.get("names", {})}}


def said(name: str, names: dict[str, str] | None) -> Any:
    """A name as event data: the presenter words `{"text": ...}` for each reader."""
    if names and len(names) > 1:
        return {"text": dict(names)}
    return next(iter(names.values())) if names else name


def all_forms(name: str, names: dict[str, str] | None) -> list[str]:
    return [name, *(names or {}).values()]


def matches(typed: str, name: Any, names: dict[str, str] | None = None) -> bool:
    """Whether a typed name is this entry's, in any language (case aside)."""
    wanted = str(typed).strip().lower()
    candidates = all_forms(key_name(name), {**forms(name), **(names or {})})
    return any(wanted == c.strip().lower() for c in candidates)


def entry_matches(typed: str, entry: dict) -> bool:
    """`matches` for a pack entry (split or not)."""
    return matches(typed, entry.get("name", ""), entry.get("names"))


def in_language(name: str, names: dict[str, str] | None, language: str) -> str:
    """One reader's form of a name (their language, else English, else the key name)."""
    names = names or {}
    return names.get(language) or names.get(DEFAULT) or name
