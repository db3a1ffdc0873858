"""Content as data: the SAMPLE pack and guild packs validated with file/entry/field errors."""
import pytest
import yaml

from rules.common import PackError
from content import sample_pack
from rules.klash import ENGINE, load_pack_text
from rules.klash.pack import QUALITIES, SPELLS

from .helpers import A, B


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
    with pytest.raises(PackError) as err:
        load_pack_text(yaml.safe_dump(doc), "guild.yaml")
    assert "guild.yaml: characters[1] (javelin): field 'speed'" in str(err.value)
    doc = _doc()
    doc["characters"][0]["melee_attack"] = "d7"
    with pytest.raises(PackError, match=r"characters\[0\] \(spearman\): field 'melee_attack'"):
        load_pack_text(yaml.safe_dump(doc), "guild.yaml")
    doc = _doc()
    doc["characters"][0]["qualities"] = ["flying"]
    with pytest.raises(PackError, match="qualities"):
        load_pack_text(yaml.safe_dump(doc), "guild.yaml")


def test_semantic_checks():
    doc = _doc()
    doc["characters"][1].pop("ranged_range")
    with pytest.raises(PackError, match="ranged_range"):
        load_pack_text(yaml.safe_dump(doc), "g.yaml")
    doc = _doc()
    champ = next(c for c in doc["characters"] if c["type"] == "campione")
    champ["copies"] = 2
    with pytest.raises(PackError, match="copies"):
        load_pack_text(yaml.safe_dump(doc), "g.yaml")
    doc = _doc()
    doc["characters"] = doc["characters"][:3]
    with pytest.raises(PackError, match="at least 40"):
        load_pack_text(yaml.safe_dump(doc), "g.yaml")


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
