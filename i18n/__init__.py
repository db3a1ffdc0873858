"""One translation function for every user-facing sentence the cogs write.

Catalogues are YAML files named by language (`en.yaml`, later `it.yaml`, `es.yaml`); keys are
dotted names. A Discord locale such as `it` or `es-419` falls back to its language and then to
English; a key missing everywhere shows itself, so a gap is visible rather than silent.
"""
from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
DEFAULT = "en"
# The sections of a game's catalogue that belong to its presenter (i18n/present.py), not to t():
# each game has its own `events.*`, so they are not merged into the one flat catalogue.
PROTOCOL_SECTIONS = ("events", "prompts", "options", "errors", "terms", "words")
log = logging.getLogger("bauta.i18n")


def _flatten(tree: dict, prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = str(value)
    return flat


@lru_cache(maxsize=None)
def catalogue(language: str) -> dict[str, str]:
    """`en.yaml` plus every `en.<part>.yaml` (one per game, so each game owns its file)."""
    flat: dict[str, str] = {}
    for path in sorted(HERE.glob(f"{language}.yaml")) + sorted(HERE.glob(f"{language}.*.yaml")):
        tree = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if path.name != f"{language}.yaml":
            tree = {k: v for k, v in tree.items() if k not in PROTOCOL_SECTIONS}
        flat.update(_flatten(tree))
    return flat


def language_of(locale: Any) -> str:
    """'en-US' -> 'en', Locale.italian -> 'it'; None -> the default."""
    if locale is None:
        return DEFAULT
    text = str(getattr(locale, "value", locale))
    return text.split("-")[0].lower() or DEFAULT


def t(key: str, locale: Any = None, **params: Any) -> str:
    language = language_of(locale)
    text = catalogue(language).get(key) or catalogue(DEFAULT).get(key)
    if text is None:
        log.warning("missing translation key %s", key)
        return key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad parameters for %s: %s", key, params)
        return text
