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
    """The parameters a text shows; one used only to choose an agreeing form (`{name:Caduto|Caduta}`,
    i18n/present.py) is not shown, so Italian may agree with a subject the English need not name."""
    return sorted({name.split(".")[0].split("[")[0] for _, name, spec, _ in string.Formatter().parse(text)
                   if name and "|" not in (spec or "")})


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


# ---- reading as the languages do: plural forms, agreement, the commands the reader's Discord shows
SLASH_PLURAL = re.compile(r"\w\((?:s|es|e|i|a|o)\)|\w/(?:e|i|a|o|as|os|es)\b")


@pytest.mark.parametrize("lang", ["en", "it", "es"])
def test_no_slash_plurals(lang):
    """A count chooses a plural form: no "model(s)", "Bersaglio/i" or "personaje(s)"."""
    assert [k for k, v in sections(lang).items() if SLASH_PLURAL.search(str(v))] == []


@pytest.mark.parametrize("lang,one,many", [
    ("en", "<@1> deploys 1 model; reinforcements waiting: 1.", "<@1> deploys 5 models; reinforcements waiting: 2."),
    ("it", "<@1> schiera 1 modello; rinforzi in attesa: 1.", "<@1> schiera 5 modelli; rinforzi in attesa: 2."),
    ("es", "<@1> despliega 1 personaje; refuerzos en espera: 1.", "<@1> despliega 5 personajes; refuerzos en espera: 2."),
])
def test_a_count_takes_its_plural_form(lang, one, many):
    from i18n.present import Presenter
    from rules.common import Event
    say = Presenter(lang, "carnevale")
    assert say.event(Event("deploy", {"player": "1", "n": 1, "waiting": 1})) == one
    assert say.event(Event("deploy", {"player": "1", "n": 5, "waiting": 2})) == many


@pytest.mark.parametrize("lang,action,prompt", [
    ("it", "Harlot: Corri (1 PA, ne ha ancora 1)", "Harlot ha ancora 1 PA. Scegli un'azione."),
    ("es", "Harlot: Correr (1 PA, ahora tiene 1)", "Harlot tiene 1 PA. Elige una acción."),
])
def test_one_ap_left_agrees(lang, action, prompt):
    """ "ne restano 1", "le quedan 1" were wrong for one AP left: the phrasing now needs no agreement."""
    from i18n.present import Presenter
    say = Presenter(lang, "carnevale")
    assert say.text("events.action", name="Harlot", move={"term": "move_run"}, cost=1, ap=1, how="") == action
    assert say.text("prompts.action", model="Harlot", ap=1) == prompt


@pytest.mark.parametrize("lang", ["it", "es"])
def test_commands_are_named_as_the_readers_discord_shows_them(lang):
    """An Italian or Spanish Discord lists /carnevale-campagna registra, not /carnevale-campaign record."""
    english = re.compile(r"/(?:carnevale-campaign|carnevale-game|carnevale-table|carnevale squad|game end|pack list)\b")
    assert [k for k, v in sections(lang).items() if english.search(str(v))] == []
