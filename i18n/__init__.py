"""One translation function for every user-facing sentence the cogs write.

Catalogues are YAML files named by language (`en.yaml`, later `it.yaml`, `es.yaml`); keys are
dotted names. A Discord locale such as `it` or `es-419` falls back to its language and then to
English; a key missing everywhere shows itself, so a gap is visible rather than silent.

Every string made here or by the presenter (`i18n/present.py`) is reported to `HOOKS` as a `Note`
saying where it came from, so a test can check that nothing fell back (`with watch() as notes:`).
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
DEFAULT = "en"
# The sections of a game's catalogue that belong to its presenter (i18n/present.py), not to t():
# each game has its own `events.*`, so they are not merged into the one flat catalogue. `genders`
# is the grammatical gender of the game's names and words in that language (see present.py).
PROTOCOL_SECTIONS = ("events", "prompts", "options", "errors", "terms", "words", "genders")
log = logging.getLogger("bauta.i18n")
SUPPORTED = ("en", "it", "es")

# Where a string came from: CATALOGUE, or a fallback (see `Note`).
CATALOGUE, ENGLISH, LEGACY, MISSING, UNRESOLVED, NO_NAME, NO_READER = (
    "catalogue", "english", "legacy", "missing", "unresolved", "no_name", "no_reader")
FALLBACKS = frozenset({ENGLISH, LEGACY, MISSING, UNRESOLVED, NO_NAME, NO_READER})


@dataclass(frozen=True)
class Note:
    """Where one string (or one part of it) came from: `catalogue` (the reader's language), or a
    fallback: `english` (the reader's language lacks the key), `legacy` (an unconverted engine's
    English), `missing` (no catalogue has the key: the key is shown), `unresolved` (a placeholder
    the parameters did not fill), `no_name` (a player whose display name is unknown), `no_reader`
    (worded with no locale at all: the caller never said who reads it, so it is English whatever
    the table speaks)."""

    source: str
    key: str               # the catalogue key, or the event/prompt kind of a legacy text
    language: str
    game: str | None
    text: str

    @property
    def fallback(self) -> bool:
        return self.source in FALLBACKS


HOOKS: list[Callable[[Note], None]] = []


def report(source: str, key: str, language: str, text: str, game: str | None = None) -> None:
    if HOOKS:
        note = Note(source, key, language, game, text)
        for hook in HOOKS:
            hook(note)


@contextmanager
def watch() -> Iterator[list[Note]]:
    """Collect the notes of everything worded inside the block (a test's zero-fallback check)."""
    notes: list[Note] = []
    HOOKS.append(notes.append)
    try:
        yield notes
    finally:
        HOOKS.remove(notes.append)


def _flatten(tree: dict, prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = str(value)
    return flat


# The catalogues are our own files: libyaml's parser (the same safe types, ~10x faster: the
# first message after a start-up waited ~1.8 s for the pure-Python one) when it is built in.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def read_yaml(path: Path) -> Any:
    """A bundled catalogue file, parsed once per process (several catalogues read each file)."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}


@cache
def catalogue(language: str) -> dict[str, str]:
    """`en.yaml` plus every `en.<part>.yaml` (one per game, so each game owns its file)."""
    flat: dict[str, str] = {}
    for path in sorted(HERE.glob(f"{language}.yaml")) + sorted(HERE.glob(f"{language}.*.yaml")):
        tree = read_yaml(path)
        if path.name != f"{language}.yaml":
            tree = {k: v for k, v in tree.items() if k not in PROTOCOL_SECTIONS}
        flat.update(_flatten(tree))
    return flat


@cache
def genders(language: str) -> dict[str, str]:
    """The grammatical gender (`f`, `m`) of names and words as `language` reads them: every
    `genders` section of its catalogues (a word's gender is the language's, whatever the game)."""
    merged: dict[str, str] = {}
    for path in sorted(HERE.glob(f"{language}.*.yaml")):
        merged.update({str(k): str(v) for k, v in (read_yaml(path).get("genders") or {}).items()})
    return merged


class Agreeing(str):
    """A parameter's text that also chooses the words agreeing with it: formatted with the spec
    `masculine|feminine` it is one of those two forms (its gender asked only then); with any other
    spec it is its own text, as a plain string would be."""

    feminine: Callable[[], bool]

    def __new__(cls, text: str, feminine: Callable[[], bool]) -> Agreeing:
        word = super().__new__(cls, text)
        word.feminine = feminine
        return word

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            masculine, _, feminine = spec.partition("|")
            return feminine if self.feminine() else masculine
        return str.__format__(str(self), spec)


def _agreeing(params: dict[str, Any], language: str) -> dict[str, Any]:
    """`t()`'s parameters for a template that agrees with one of them (`{name:Stordito|Stordita}`)."""
    words = genders(language)

    def feminine(word: str) -> Callable[[], bool]:
        return lambda: words.get(word) == "f"
    # a value already Agreeing knows its gender (a table's own name: `Presenter.agreeing`)
    return {k: Agreeing(v, feminine(v)) if isinstance(v, str) and not isinstance(v, Agreeing) else v
            for k, v in params.items()}


def language_of(locale: Any) -> str:
    """'en-US' -> 'en', Locale.italian -> 'it'; None -> the default."""
    if locale is None:
        return DEFAULT
    text = str(getattr(locale, "value", locale))
    return text.split("-")[0].lower() or DEFAULT


def supported(locale: Any) -> str:
    """The catalogue language for a Discord locale: 'es-419' and 'es-ES' -> 'es', 'en-GB' -> 'en';
    a language Bauta does not speak (yet) -> English."""
    language = language_of(locale)
    return language if language in SUPPORTED else DEFAULT


def lookup(key: str, language: str, count: Any = None) -> str | None:
    """The unformatted text of `key` in one catalogue language, or None when that catalogue lacks
    it: `key`, or its plural form for `count` (`key.zero` for 0 where a language has it, `key.one`
    for 1, else `key.other`), as the presenter chooses them for the games' catalogues."""
    flat = catalogue(language)
    text = flat.get(key)
    if text is not None or count is None:
        return text
    forms = ["zero", "other"] if count == 0 else ["one", "other"] if count == 1 else ["other"]
    return next((flat[f"{key}.{form}"] for form in forms if f"{key}.{form}" in flat), None)


def t(key: str, locale: Any = None, **params: Any) -> str:
    language = supported(locale)
    count = params.get("count", params.get("n"))
    text = lookup(key, language, count)
    source = CATALOGUE
    if text is None:
        text, source = lookup(key, DEFAULT, count), ENGLISH
    if text is None:
        log.warning("missing translation key %s", key)
        report(MISSING, key, language, key)
        return key
    try:
        done = text.format(**(_agreeing(params, language) if "|" in text else params))
    except (KeyError, IndexError, ValueError):
        log.warning("bad parameters for %s: %s", key, params)
        report(UNRESOLVED, key, language, text)
        return text
    if locale is None:
        source = NO_READER
    report(source, key, language if source == CATALOGUE else DEFAULT, done)
    return done
