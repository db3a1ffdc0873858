"""Content as data: the SAMPLE pack and guild packs validated with file/entry/field errors."""
import pytest
import yaml

from content import sample_pack
from rules.klash import ENGINE, load_pack_text
from rules.klash.pack import QUALITIES, SPELLS

from .helpers import A, B
from tests.support.packs import brief, problems


def test_sample_pack_is_labelled_and_big_enough_for_the_auction():
    pack = sample_pack("klash")
    assert pack["sample"] and "SAMPLE" in pack["name"]
    assert sum(c["copies"] for c in pack["characters"].values()) >= 40
    for _cid, card in pack["characters"].items():
        assert "SAMPLE" in card["name"]
        assert set(card["qualities"]) <= set(QUALITIES) and set(card["spells"]) <= set(SPELLS)
    types = {c["type"] for c in pack["characters"].values()}
    assert types == {"gregario", "campione", "mostro", "bestia"}
    used = {q for c in pack["characters"].values() for q in c["qualities"]}
    assert used == set(QUALITIES)  # the sample pack shows every quality in play
    assert {s for c in pack["characters"].values() for s in c["spells"]} == set(SPELLS)
    assert pack["events"] and all("SAMPLE" in e["name"] for e in pack["events"].values())


def _doc():
    path = __import__("pathlib").Path(__file__).parents[3] / "content" / "klash" / "sample.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_errors_name_file_entry_and_field():
    doc = _doc()
    doc["characters"][1]["speed"] = "fast"
    [speed] = problems(load_pack_text, yaml.safe_dump(doc), "guild.yaml")
    assert brief(speed) == ("type", "guild.yaml", ("characters", 1), "javelin", "speed")
    assert speed.params == {"value": "'fast'", "expected": [{"term": "json_integer"}]}
    doc = _doc()
    doc["characters"][0]["melee_attack"] = "d7"      # a bilingual name: the entry is named by its id
    [die] = problems(load_pack_text, yaml.safe_dump(doc), "guild.yaml")
    assert brief(die) == ("pattern", "guild.yaml", ("characters", 0), "spearman", "melee_attack")
    assert die.params["value"] == "'d7'"
    doc = _doc()
    doc["characters"][0]["qualities"] = ["flying"]
    [quality] = problems(load_pack_text, yaml.safe_dump(doc), "guild.yaml")
    assert brief(quality) == ("enum", "guild.yaml", ("characters", 0, "qualities", 0), "spearman", "")
    assert quality.params["value"] == "'flying'" and quality.params["allowed"].startswith("winged_feet, ranged_attack")


def test_semantic_checks():
    doc = _doc()
    doc["characters"][1].pop("ranged_range")
    assert [brief(p) for p in problems(load_pack_text, yaml.safe_dump(doc), "g.yaml")] == [
        ("ranged_range_needed", "g.yaml", ("characters", 1), "javelin", "ranged_range")]
    doc = _doc()
    index, champ = next((i, c) for i, c in enumerate(doc["characters"]) if c["type"] == "campione")
    champ["copies"] = 2
    [copies] = problems(load_pack_text, yaml.safe_dump(doc), "g.yaml")
    assert brief(copies) == ("const", "g.yaml", ("characters", index), champ["id"], "copies")
    assert copies.params == {"value": "2", "expected": "1"}
    doc = _doc()
    doc["characters"] = doc["characters"][:3]
    doc["characters"][0]["spells"] = ["healing"]
    doc["characters"][2]["id"] = doc["characters"][1]["id"]
    found = problems(load_pack_text, yaml.safe_dump(doc), "g.yaml")
    assert [brief(p) for p in found] == [
        ("spells_need_spellcaster", "g.yaml", ("characters", 0), "spearman", "spells"),
        ("duplicate_id", "g.yaml", ("characters", 2), "javelin", "id"),
        ("auction_too_small", "g.yaml", ("characters",), "", "")]
    assert found[2].params == {"need": 40, "count": sum(c["copies"] for c in doc["characters"][:2])}


def test_a_guild_pack_plays():
    doc = _doc()
    doc["name"] = "Guild arena"
    doc["sample"] = False
    pack = load_pack_text(yaml.safe_dump(doc), "guild.yaml")
    state = ENGINE.new_game([A, B], {"pack": pack}, seed=3)
    assert state.pack_name == "Guild arena" and not state.sample
    assert ENGINE.view_for(state, A)["pack"] == {"name": "Guild arena", "sample": False}


def test_the_rules_read_no_file_and_take_the_pack_from_the_caller():
    """content/klash/sample.yaml is read by ``content``; rules/klash parses text it is given, and a
    match without a pack is refused (no hidden default read from disk)."""
    import pathlib
    import re

    from rules.common import IllegalAction
    here = pathlib.Path(__file__).parents[3] / "rules" / "klash"
    reading = [p.name for p in here.glob("*.py") if re.search(r"\bopen\(|read_text|Path\(__file__|id\(", p.read_text())]
    assert reading == [] and not (here / "data").exists()
    with pytest.raises(IllegalAction) as refused:
        ENGINE.new_game([A, B], {}, seed=1)
    assert refused.value.code == "no_pack"
    state = ENGINE.new_game([A, B], {"pack": sample_pack("klash")}, seed=1)
    state.cards["orc"] = {}                        # a state's own mapping: the cached pack is untouched
    assert sample_pack("klash")["characters"]["orc"]["speed"] > 0
