"""Karmic's catalogues count in words, not slashes: "1 prova di abilità", "3 prove di abilità", never
"3 prova/e" (docs/cogs.md "Plurals")."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from i18n.present import Presenter

SLASHED = re.compile(r"\w/(e|i|a|o|s|es)\b|\((s|es|e|i)\)")


def _strings(node, path=""):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, str):
        yield path, node


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_no_slash_plural_is_left_in_the_karmic_catalogue(language):
    doc = yaml.safe_load((Path("i18n") / f"{language}.karmic.yaml").read_text(encoding="utf-8"))
    assert [(k, v) for k, v in _strings(doc) if SLASHED.search(v)] == []


@pytest.mark.parametrize("language,one,other", [
    ("it", "prova di abilità in questa avventura", "3 prove di abilità"),
    ("es", "tirada de habilidad en esta aventura", "3 tiradas de habilidad"),
    ("en", "1 skill check this adventure", "3 skill checks this adventure")])
def test_an_effort_counts_its_checks_in_words(language, one, other):
    say = Presenter(language, "karmic")
    effort = {"term": "effort.hard"}
    assert one in say.text("events.advance_effort", name="Devon", effort=effort, n=1)
    assert other in say.text("events.advance_effort", name="Devon", effort=effort, n=3)


def test_a_declaration_head_counts_the_maneuvers_left_in_italian():
    say = Presenter("it", "karmic")
    head = {"name": "Mara", "register": 1, "cards": 3, "hand": "—"}
    assert say.text("terms.head_attack", **head, left={"term": "maneuvers_left", "n": 1}) == \
        "Mara — registro 1: dichiara una manovra (3 in mano, 1 manovra rimasta). Mano: —."
    assert say.text("terms.head_attack", **head, left={"term": "maneuvers_left", "n": 2}) == \
        "Mara — registro 1: dichiara una manovra (3 in mano, 2 manovre rimaste). Mano: —."
