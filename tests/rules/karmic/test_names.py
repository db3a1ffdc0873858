"""Pack names in several languages (rules/karmic/names.py): the parser splits `name: {en, it, es}` into
the English key and its forms, a plain name stays as it is, a name is found in any of its languages,
and events carry every form for the presenter."""
from __future__ import annotations

import pytest

from content import sample_pack
from i18n.present import Presenter
from rules.common import PackError, Rng
from rules.karmic import character_from_sheet, load_pack_text
from rules.karmic.character import Character, sheet_of
from rules.karmic.names import key_name, matches, said

PACK = """
weapons:
  - {name: {en: Medium Axe, it: Ascia media, es: Hacha mediana}, skill: ax, range: 1, max_damage: 5}
  - {name: Falchion, skill: sword, range: 1, max_damage: 4}
armor:
  - {name: {en: Leather, it: Cuoio}, finesse_mod: 0}
distinctions:
  - {name: {en: Keen Sighted, it: Vista acuta, es: Vista aguda}, karma_value: -3}
npcs:
  - name: {en: Soldier, it: Soldato, es: Soldado}
    skills: {ax: 2}
    weapons: [Ascia media, falchion]
    wielding: [hacha mediana]
    armor: cuoio
    distinctions: [Vista aguda]
"""


def test_the_parser_splits_names_and_keeps_plain_ones():
    pack = load_pack_text(PACK, "p.yaml")
    axe, falchion = pack["weapons"]
    assert (axe["name"], axe["names"]) == ("Medium Axe", {"en": "Medium Axe", "it": "Ascia media", "es": "Hacha mediana"})
    assert falchion["name"] == "Falchion" and "names" not in falchion
    assert pack["npcs"][0]["name"] == "Soldier" and pack["npcs"][0]["names"]["es"] == "Soldado"


def test_a_sheet_names_its_gear_in_any_language_and_events_carry_every_form():
    pack = load_pack_text(PACK, "p.yaml")
    npc = character_from_sheet(pack["npcs"][0], pack, rng=Rng.from_seed(1))
    assert [w.name for w in npc.weapons] == ["Medium Axe", "Falchion"]
    assert npc.wielded()[0].name == "Medium Axe"
    assert (npc.armor.name, npc.armor.names["it"]) == ("Leather", "Cuoio")
    assert npc.distinctions[0].names["it"] == "Vista acuta"
    assert npc.weapon_index("ASCIA MEDIA") == 0 and npc.weapon_index("Falchion") == 1
    assert npc.shown == {"text": {"en": "Soldier", "it": "Soldato", "es": "Soldado"}}
    assert npc.weapons[1].shown == "Falchion"
    it, es, en = (Presenter(lang, "karmic") for lang in ("it", "es", "en"))
    assert [p.text("errors.no_such_weapon", name=npc.shown, weapon="x") for p in (it, es, en)] == [
        it.text("errors.no_such_weapon", name="Soldato", weapon="x"),
        es.text("errors.no_such_weapon", name="Soldado", weapon="x"),
        en.text("errors.no_such_weapon", name="Soldier", weapon="x")]


def test_a_reference_to_nothing_is_still_refused_in_any_language():
    with pytest.raises(PackError) as refused:
        load_pack_text(PACK.replace("weapons: [Ascia media, falchion]", "weapons: [Ascia grande]"), "p.yaml")
    assert [p.code for p in refused.value.problems] == ["no_weapon"]


def test_a_sheet_round_trips_with_its_names_and_an_old_state_without_them_still_loads():
    pack = sample_pack("karmic")
    mara = character_from_sheet(next(c for c in pack["characters"] if c["name"] == "Mara"), pack, rng=Rng.from_seed(2))
    assert [w.names.get("it") for w in mara.weapons] == ["Ascia media", "Scudo piccolo"]
    again = character_from_sheet(sheet_of(mara), pack, rng=Rng.from_seed(2))
    assert [w.shown for w in again.weapons] == [w.shown for w in mara.weapons]
    old = mara.to_dict()
    for w in old["weapons"]:
        del w["names"]
    del old["names"]
    loaded = Character.from_dict(old)
    assert loaded.weapons[0].shown == "Medium Axe" and loaded.shown == "Mara"


def test_names_helpers():
    assert key_name({"it": "Spada", "en": "Sword"}) == "Sword" and key_name({"it": "Spada"}) == "Spada"
    assert matches(" spada ", "Sword", {"it": "Spada"}) and not matches("Spadone", "Sword", {"it": "Spada"})
    assert said("Sword", {}) == "Sword" and said("Sword", {"en": "Sword"}) == "Sword"


def test_a_pack_word_missing_in_the_readers_language_counts_as_an_english_fallback():
    from i18n import present
    with present.watch() as notes:
        line = Presenter("es", "karmic").text("errors.no_such_weapon", name={"text": {"en": "Soldier", "it": "Soldato"}},
                                              weapon="x")
    assert "Soldier" in line
    assert [(n.source, n.key) for n in notes if n.fallback] == [("english", "pack.words")]


# ---------------------------------------------------------------------------- grammatical gender
LUCIA = "name: Lucia\ngender: f\nskills: {sword: 2}\nweapons: [Sword]\n"
GUARD = "name: {en: Guard, it: Guardia, es: Guardia}\nnpc: true\ngender: {it: f, es: m}\n"


def test_a_sheet_may_say_its_characters_gender_in_every_language_or_in_each():
    from rules.karmic.character import parse_sheet
    lucia = character_from_sheet(parse_sheet(LUCIA), sample_pack("karmic"), rng=Rng.from_seed(1))
    guard = character_from_sheet(parse_sheet(GUARD), rng=Rng.from_seed(1))
    devon = character_from_sheet(parse_sheet("name: Devon\n"), rng=Rng.from_seed(1))
    assert (lucia.gender, guard.gender, devon.gender) == ({"en": "f", "it": "f", "es": "f"}, {"it": "f", "es": "m"}, {})
    assert [sheet_of(c).get("gender") for c in (lucia, guard, devon)] == ["f", {"it": "f", "es": "m"}, None]
    assert Character.from_json(lucia.to_json()).gender == lucia.gender


@pytest.mark.parametrize("gender", ["x", "female", "{it: n}", "{de: f}", "{}"])
def test_a_gender_other_than_f_or_m_is_refused_naming_the_field(gender):
    from rules.karmic.character import parse_sheet
    with pytest.raises(PackError) as refused:
        parse_sheet(f"name: Lucia\ngender: {gender}\n", "lucia.yaml")
    assert [p.where.field or p.where.entry for p in refused.value.problems] == ["gender"]


def test_a_tables_genders_key_every_form_of_every_name_and_leave_the_rest_to_the_catalogues():
    from rules.karmic import genders_of
    from rules.karmic.character import parse_sheet
    guard = character_from_sheet(parse_sheet(GUARD), rng=Rng.from_seed(1))
    assert genders_of([parse_sheet(LUCIA), guard.to_dict(), {"name": "Devon"},
                       {"name": "Soldier", "names": {"it": "Soldato"}, "gender": "m"}]) == {
        "Lucia": "f", "Guard": {"it": "f", "es": "m"}, "Guardia": {"it": "f", "es": "m"}, "Soldier": "m", "Soldato": "m"}
