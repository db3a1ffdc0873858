"""Catalogue keys must stay text: YAML reads bare `yes:`/`no:`/`on:` as booleans, and the button then
shows its raw key (`karmic.deck.yes`)."""
from pathlib import Path

import yaml

from i18n import t

I18N = Path(__file__).resolve().parents[1] / "i18n"


def _keys(tree, path=""):
    for key, value in tree.items():
        yield f"{path}{key!r}", key
        if isinstance(value, dict):
            yield from _keys(value, f"{path}{key}.")


def test_every_catalogue_key_is_a_string():
    for path in sorted(I18N.glob("*.yaml")):
        tree = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        bad = [where for where, key in _keys(tree) if not isinstance(key, str)]
        assert not bad, f"{path.name}: quote these keys: {bad}"


def test_the_deck_buttons_have_their_words():
    assert (t("karmic.deck.yes"), t("karmic.deck.no")) == ("Reshuffle", "Not now")
