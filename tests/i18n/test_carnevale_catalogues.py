"""The Carnevale catalogues speak the same keys with the same placeholders in en, it and es, so a
prompt, option, error or event of the engine reads the same facts in every language."""
import re
import string
from pathlib import Path

import pytest
import yaml

from rules.carnevale import prompts as P

I18N = Path(__file__).resolve().parents[2] / "i18n"
SECTIONS = ("events", "prompts", "options", "errors", "terms")


def flat(prefix, tree):
    """Leaves by dotted key: a plural entry's forms (`.one`, `.other`) are keys of their own."""
    for key, value in tree.items():
        if isinstance(value, dict):
            yield from flat(f"{prefix}{key}.", value)
        else:
            yield f"{prefix}{key}", value


def sections(lang):
    tree = yaml.safe_load((I18N / f"{lang}.carnevale.yaml").read_text(encoding="utf-8"))
    out = dict(flat("", {s: tree.get(s) or {} for s in SECTIONS}))
    # the cog's own words (rolls, odds, squads, the campaign ledger, the game's description)
    out.update(flat("carnevale.", tree.get("carnevale") or {}))
    return out


def fields(text):
    return sorted({name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name})


@pytest.mark.parametrize("lang", ["it", "es"])
def test_every_key_is_translated_with_the_same_placeholders(lang):
    en, other = sections("en"), sections(lang)
    assert sorted(set(en) - set(other)) == [] and sorted(set(other) - set(en)) == []
    assert {k: fields(v) for k, v in other.items()} == {k: fields(v) for k, v in en.items()}
    same = [k for k, v in other.items() if v == en[k] and re.search(r"[a-z]{4}", re.sub(r"{[^}]*}|Karma", "", v))]
    assert same == [], f"{lang}: left in English: {same}"


def test_every_prompt_and_option_kind_the_engine_uses_has_its_english():
    source = (I18N.parent / "rules" / "carnevale" / "prompts.py").read_text(encoding="utf-8")
    en = sections("en")
    kinds = set(re.findall(r'kind="([a-z_]+)"', source))
    options = set(re.findall(r'Option\.of\([^,]+, "([a-z_]+)"', source)) | set(re.findall(r'model_option\(\w+, "([a-z_]+)"', source)) | {"model"}
    asked = set(re.findall(r'Prompt\.ask\("([a-z_]+)"', source))
    cover = {"options.cover_" + k.replace("-", "_") for k in P.COVER_OPTIONS}
    actions = {f"options.action_{k}" for k in P.BUTTON_ACTIONS}
    options = {k for k in options if not k.endswith("_")}          # built names: the two sets below
    wanted = {f"prompts.{k}" for k in kinds | asked} | {f"options.{k}" for k in options} | cover | actions
    missing = sorted(wanted - set(en))
    assert missing == []
