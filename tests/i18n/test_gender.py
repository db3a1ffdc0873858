"""Italian and Spanish agree with the subject's grammatical gender: "Harlot è Stordita", "Butcher è
Stordito", a mixed group in the masculine plural. The template says both forms after the subject's
parameter (`{name:Stordito|Stordita}`); the language's catalogue says which names are feminine."""
import string

import pytest
import yaml

from i18n import HERE
from i18n.present import Presenter, add_catalogues
from rules.common import Event, term

STUN = {"model": "b1", "source": "Critical in close combat", "why": term("stun_melee_critical")}


# ---------------------------------------------------------------------------- the mechanism
@pytest.fixture
def agreeing(tmp_path):
    """A tiny game whose catalogues exercise agreement alone (singular, plural by count, lists)."""
    (tmp_path / "it.agreeing.yaml").write_text(yaml.safe_dump({
        "events": {
            "stunned": "{name} è {name:Stordito|Stordita}.",
            "group": {"one": "{names} è {names:caduto|caduta}.", "other": "{names} sono {names:caduti|cadute}."},
            "spaced": "{name} {name:è stato ferito|è stata ferita} da {by}.",
            "padded": "[{name:>8}]",
            "player": "{player} è {player:pronto|pronta}.",
        },
        "terms": {"guard": "Guardia", "doctor": "Dottore"},
        "genders": {"Harlot": "f", "Maid": "f", "Guardia": "f"},
    }, allow_unicode=True), encoding="utf-8")
    add_catalogues(tmp_path)
    return Presenter("it", "agreeing", names={"7": "Lucia", "8": "Marco"}, genders={"Lucia": "f"})


def test_a_feminine_subject_takes_the_feminine_form(agreeing):
    assert agreeing.event(Event("stunned", {"name": "Harlot"})) == "Harlot è Stordita."


def test_a_subject_nobody_gendered_stays_masculine(agreeing):
    assert agreeing.event(Event("stunned", {"name": "Butcher"})) == "Butcher è Stordito."
    assert agreeing.counts["catalogue"] == 1 and agreeing.fallbacks == 0


def test_a_form_may_be_several_words(agreeing):
    assert agreeing.event(Event("spaced", {"name": "Maid", "by": "Butcher"})) == "Maid è stata ferita da Butcher."
    assert agreeing.event(Event("spaced", {"name": "Butcher", "by": "Maid"})) == "Butcher è stato ferito da Maid."


def test_a_translated_term_has_the_gender_of_its_translation(agreeing):
    assert agreeing.event(Event("stunned", {"name": term("guard")})) == "Guardia è Stordita."
    assert agreeing.event(Event("stunned", {"name": term("doctor")})) == "Dottore è Stordito."


def test_a_group_is_feminine_only_when_everyone_in_it_is(agreeing):
    assert agreeing.event(Event("group", {"names": ["Harlot", "Maid"], "n": 2})) == "Harlot, Maid sono cadute."
    assert agreeing.event(Event("group", {"names": ["Harlot", "Butcher"], "n": 2})) == "Harlot, Butcher sono caduti."
    assert agreeing.event(Event("group", {"names": ["Maid"], "n": 1})) == "Maid è caduta."


def test_a_player_agrees_through_the_gender_the_table_declared(agreeing):
    assert agreeing.event(Event("player", {"player": "7"})) == "<@7> è pronta."
    assert agreeing.event(Event("player", {"player": "8"})) == "<@8> è pronto."


def test_a_table_may_give_a_name_a_gender_per_language(tmp_path, agreeing):
    """{"Guardia": {"it": "f"}}: the reader's language decides; one the table does not name asks the
    catalogues (here none: masculine)."""
    table = {"Guardia": {"it": "f", "es": "m"}, "Piero": {"es": "f"}, "Lucia": "f"}
    say = Presenter("it", "agreeing", genders=table)
    assert [say.event(Event("stunned", {"name": n})) for n in ("Guardia", "Piero", "Lucia")] == [
        "Guardia è Stordita.", "Piero è Stordito.", "Lucia è Stordita."]
    assert [Presenter(lang, genders=table).gender("Guardia") for lang in ("it", "es", "en")] == ["f", "m", "m"]


def test_a_table_name_comes_before_the_catalogue(agreeing):
    assert Presenter("it", "agreeing", genders={"Harlot": "m"}).event(Event("stunned", {"name": "Harlot"})) == \
        "Harlot è Stordito."


@pytest.mark.parametrize("lang,fallen", [("it", "caduta"), ("es", "caída")])
def test_a_cogs_own_sentence_agrees_with_a_name_as_another_word_does(lang, fallen):
    """`t()` knows only the catalogues: `say.agreeing("Lucrezia", like="Harlot")` carries the gender."""
    from i18n import t
    say = Presenter(lang, "carnevale")
    line = t("carnevale.choices.model_fallen", lang, uid="m1", name=say.agreeing("Lucrezia", like="Harlot"),
             owner="Ada", left=0, life=7)
    assert line.startswith("m1 — Lucrezia (Ada)") and line.endswith(fallen)
    unnamed = t("carnevale.choices.model_fallen", lang, uid="m1", name="Lucrezia", owner="Ada", left=0, life=7)
    assert unnamed.endswith({"it": "caduto", "es": "caído"}[lang])
    assert Presenter(lang, genders={"Ada": "f"}).agreeing("Ada").feminine()


def test_other_format_specs_still_format_the_text(agreeing):
    assert agreeing.event(Event("padded", {"name": "Maid"})) == "[    Maid]"


# ---------------------------------------------------------------------------- Carnevale
@pytest.mark.parametrize("lang,name,text", [
    ("it", "Harlot", "Harlot è Stordita (critico in corpo a corpo)."),
    ("it", "Butcher", "Butcher è Stordito (critico in corpo a corpo)."),
    ("es", "Harlot", "Harlot queda Aturdida (crítico cuerpo a cuerpo)."),
    ("es", "Butcher", "Butcher queda Aturdido (crítico cuerpo a cuerpo)."),
])
def test_a_carnevale_model_is_stunned_in_its_own_gender(lang, name, text):
    assert Presenter(lang, "carnevale").event(Event("stun", {**STUN, "name": name})) == text


@pytest.mark.parametrize("lang,text", [
    ("it", ["Nurse non è più Stordita.", "Warden non è più Stordito."]),
    ("es", ["Nurse ya no está Aturdida.", "Warden ya no está Aturdido."]),
])
def test_a_carnevale_model_is_no_longer_stunned_in_its_own_gender(lang, text):
    say = Presenter(lang, "carnevale")
    assert [say.event(Event("unstunned", {"model": "a1", "name": n})) for n in ("Nurse", "Warden")] == text


@pytest.mark.parametrize("lang,texts", [
    ("it", ["Maid lascia il tavolo e conta come Caduta.", "Warden lascia il tavolo e conta come Caduto."]),
    ("es", ["Maid abandona la mesa y cuenta como Caída.", "Warden abandona la mesa y cuenta como Caído."]),
])
def test_a_term_agrees_with_the_subject_of_its_sentence(lang, texts):
    """ "{name} {how}.": the term `fallen_fled` has no name of its own, it reads the sentence's."""
    say = Presenter(lang, "carnevale")
    assert [say.event(Event("fallen", {"model": "a1", "name": n, "how": term("fallen_fled")}))
            for n in ("Maid", "Warden")] == texts
    assert say.fallbacks == 0


# the bundled women: Carnevale's sample pack and the rulebook's other named women (for imported packs)
CARNEVALE_WOMEN = {"Harlot", "Maid", "Nurse", "White Dove", "Baba-Yaga", "Fadhila-Bint-Dahab", "Agláope-Rashaar"}


@pytest.mark.parametrize("lang", ["it", "es"])
def test_every_woman_of_carnevale_is_feminine(lang):
    say = Presenter(lang, "carnevale")
    assert {n for n in CARNEVALE_WOMEN if say.gender(n) == "f"} == CARNEVALE_WOMEN
    assert [say.gender(n) for n in ("Butcher", "The Duke", "Harlequin", "Plague Doctor")] == ["m"] * 4


# ---------------------------------------------------------------------------- the catalogues
def choices(text: str) -> list[tuple[str, str]]:
    return [(field, spec) for _, field, spec, _ in string.Formatter().parse(text) if field and spec and "|" in spec]


def leaves(tree, prefix=""):
    for key, value in (tree or {}).items():
        if isinstance(value, dict):
            yield from leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", str(value)


def test_every_gender_choice_has_two_forms_and_only_it_and_es_use_them():
    """`{name:Stordito|Stordita}` has exactly one bar; English has no agreement to choose."""
    bad, english = [], []
    for path in sorted(HERE.glob("*.yaml")):
        for key, text in leaves(yaml.safe_load(path.read_text(encoding="utf-8"))):
            for _field, spec in choices(text):
                if spec.count("|") != 1:
                    bad.append((path.name, key, spec))
                if path.name.startswith("en."):
                    english.append((path.name, key))
    assert bad == [] and english == []


def test_the_genders_sections_say_only_f_or_m():
    for path in sorted(HERE.glob("*.yaml")):
        genders = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("genders") or {}
        assert {v for v in genders.values()} <= {"f", "m"}, path.name


@pytest.mark.parametrize("lang,harlot,butcher", [
    ("it", "m1 — Harlot (Ada) PV 0/7, caduta", "m2 — Butcher (Ada) PV 0/7, caduto"),
    ("es", "m1 — Harlot (Ada) PV 0/7, caída", "m2 — Butcher (Ada) PV 0/7, caído"),
])
def test_t_agrees_too_with_the_genders_of_the_language(lang, harlot, butcher):
    """The cogs' own words (`t()`: a model's choice in an autocomplete) agree the same way."""
    from i18n import t
    assert [t("carnevale.choices.model_fallen", lang, uid=uid, name=name, owner="Ada", left=0, life=7)
            for uid, name in (("m1", "Harlot"), ("m2", "Butcher"))] == [harlot, butcher]


@pytest.mark.parametrize("lang,words", [("it", ["STORDITA", "STORDITO"]), ("es", ["ATURDIDA", "ATURDIDO"])])
def test_a_model_card_badge_agrees_with_the_model(lang, words):
    from renderers import carnevale as R
    say = R.presenter_words(Presenter(lang, "carnevale"))
    assert [R._badges({"name": n, "stunned": True}, say)[0][0] for n in ("Harlot", "Butcher")] == words


@pytest.mark.parametrize("lang,status", [("it", "caduta, stordita"), ("es", "caída, aturdida")])
def test_the_status_line_agrees_with_the_model(lang, status):
    from cogs.carnevale import _status_words
    assert ", ".join(_status_words({"name": "Maid", "fallen": True, "stunned": True}, lang)) == status


# ---------------------------------------------------------------------------- Carnival Zombie
MISTRESS = {"text": {"en": "Mistress", "it": "Padrona", "es": "Señora"}}
DOGE = {"text": {"en": "Doge", "it": "Doge", "es": "Dux"}}


@pytest.mark.parametrize("lang,texts", [
    ("it", ["Padrona è distrutta!", "Doge è distrutto!"]),
    ("es", ["¡Señora queda destruida!", "¡Dux queda destruido!"]),
])
def test_a_boss_is_destroyed_in_the_gender_of_its_translated_name(lang, texts):
    say = Presenter(lang, "carnival_zombie")
    assert [say.event(Event("boss_killed", {"boss_name": b, "boss": "x"})) for b in (MISTRESS, DOGE)] == texts
    assert say.fallbacks == 0


@pytest.mark.parametrize("lang", ["it", "es"])
def test_colombina_is_feminine(lang):
    say = Presenter(lang, "carnival_zombie")
    assert (say.gender("Colombina"), say.gender("Arlecchino")) == ("f", "m")


# ---------------------------------------------------------------------------- Karmic
RAT = {"text": {"en": "Giant Rat", "it": "Ratto gigante", "es": "Rata gigante"}}


@pytest.mark.parametrize("lang,name,text", [
    ("it", "Mara", "Mara è colta di sorpresa: Devon ha un attacco che non si può difendere."),
    ("it", RAT, "Ratto gigante è colto di sorpresa: Devon ha un attacco che non si può difendere."),
    ("es", "Mara", "Mara es tomada por sorpresa: Devon tiene un ataque que no se puede defender."),
    ("es", RAT, "Rata gigante es tomada por sorpresa: Devon tiene un ataque que no se puede defender."),
    ("es", "Enris", "Enris es tomado por sorpresa: Devon tiene un ataque que no se puede defender."),
])
def test_a_karmic_fighter_agrees_in_the_gender_of_its_name_in_that_language(lang, name, text):
    """"Ratto" is masculine in Italian, "Rata" feminine in Spanish: the same NPC agrees differently."""
    assert Presenter(lang, "karmic").event(Event("surprise", {"name": name, "by": "Devon"})) == text
