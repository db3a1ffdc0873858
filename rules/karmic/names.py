"""A pack's names in several languages: `name: Sword` or `name: {en: Sword, it: Spada, es: Espada}`.

A weapon, an armour, a distinction or a character (an NPC above all) keeps `name`, one plain string:
the English form (else the first given), which is what the rules key on (a sheet's `wielding`, the
reload row, a stored character) so that English games and stored states read as before. The other
forms live in `names` ({lang: text}, empty for a plain name). In event data a name is `said(...)`:
the presenter's `{"text": {lang: ...}}` when there are several forms, else the plain string. A name
typed by a player (a slash command, a sheet's list of weapons) finds its entry in any of its forms.

A character's grammatical gender (a sheet's `gender`: `f` or `m` in every language, or one per
language, `{it: f, es: m}`, for a name whose word is not the same gender everywhere) lets Italian and
Spanish agree with it: `genders_of(characters)` gives the presenter's table of genders, keyed by each
form of each name as its readers read it. A character without one agrees as the language's catalogue
says (the bundled NPCs are there), else in the masculine.
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
GENDERS = ("f", "m")
GENDER_SCHEMA = {"anyOf": [{"enum": list(GENDERS)},
                           {"type": "object", "minProperties": 1, "additionalProperties": False,
                            "properties": {lang: {"enum": list(GENDERS)} for lang in LANGUAGES}}]}
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


def gender_in_languages(gender: Any) -> dict[str, str]:
    """A sheet's `gender` as one per language (`f` -> every language's `f`; {} when it says none)."""
    if isinstance(gender, dict):
        return {str(lang): str(g) for lang, g in gender.items() if g in GENDERS}
    return {lang: str(gender) for lang in LANGUAGES} if gender in GENDERS else {}


def sheet_gender(gender: dict[str, str]) -> str | dict[str, str]:
    """A character's gender as a sheet writes it: one letter when every language has the same."""
    same = set(gender.values())
    return next(iter(same)) if len(same) == 1 and set(gender) == set(LANGUAGES) else dict(gender)


def genders_of(characters: list[dict]) -> dict[str, Any]:
    """The grammatical genders the presenter reads a table's characters with (`Presenter(genders=)`):
    each form of each name -> its gender, `f` or `m`, or {language: gender} when the sheet gives the
    languages different ones. `characters`: sheets or `Character.to_dict()`s; one without a gender
    is left to the catalogues."""
    out: dict[str, Any] = {}
    for character in characters:
        gender = gender_in_languages(character.get("gender"))
        if not gender:
            continue
        said_as = sheet_gender(gender)
        name = character.get("name", "")
        for form in all_forms(key_name(name), {**forms(name), **(character.get("names") or {})}):
            out[form] = said_as
    return out
