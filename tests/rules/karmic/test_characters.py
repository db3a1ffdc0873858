"""Characters and creation: T15–T18, T20, T23, T24, sheets, packs, advancement."""
import pytest

from rules.common import IllegalAction, Rng
from tests.support.packs import brief, problems
from content import sample_pack
from rules.karmic import load_pack_text
from rules.karmic.character import (Character, allocate_skill_checks, attribute_cost, card_method_deal,
                                    character_from_sheet, check_card_assignment, check_point_build,
                                    improvement_draw, parse_sheet, pay_distinction, sheet_of, trade_in)
from rules.karmic.tables import skill_cost
from tests.rules.karmic.helpers import refused_as


def test_T17_attribute_costs():
    assert attribute_cost(3) == 15 and attribute_cost(-2) == -10
    c = character_from_sheet({"name": "Hulk", "attributes": {"might": 5}})
    with refused_as("GM's approval"):
        check_point_build(c, "legendary_hero")
    assert check_point_build(c, "legendary_hero", gm_approved=True)["spent"] == 25


def test_T23_skill_cost_table():
    assert (skill_cost(3), skill_cost(3, True)) == (3, 4)
    assert (skill_cost(5), skill_cost(5, True)) == (10, 11)
    assert (skill_cost(9), skill_cost(9, True)) == (36, 37)
    assert skill_cost(1) == 0 and skill_cost(1, True) == 1


def test_point_build_budget_and_unspent_cp_lost():
    c = character_from_sheet({"name": "Kid", "attributes": {"finesse": 1}, "skills": {"sword": 3, "medicine": 2}})
    r = check_point_build(c, "youth")
    assert r["spent"] == 5 + 3 + 2 and r["lost"] == 0 and r["money"] == 50 and r["hp"] == 30
    c.skills["sword"] = 4
    with refused_as("costs 13 CP"):
        check_point_build(c, "youth")


def test_T20_hit_point_grid():
    for fort, total in ((2, 40), (-1, 25), (0, 30)):
        c = character_from_sheet({"name": "X", "attributes": {"fortitude": fort}})
        assert c.hp_max == total and c.hp_row == 6 + fort


def test_T24_card_method_deal():
    assert card_method_deal("young_hero") == {"cards": 17, "skill_slots": 11, "attribute_cards": 5, "money": 250}
    check_card_assignment("young_hero", 5, 11, [])
    with refused_as("Exactly five"):
        check_card_assignment("young_hero", 4, 11, [])
    with refused_as("11 skill slots"):
        check_card_assignment("young_hero", 5, 12, [])
    with refused_as("only once"):
        check_card_assignment("young_hero", 5, 5, ["sword", "sword"])
    deck = [f"card{i}" for i in range(20)]
    assert len(trade_in(deck, ["a", "b", "c"], Rng.from_seed(1))) == 2


def test_T18_paying_for_a_minus_4_distinction():
    for cards in (["4S"], ["AS", "3S"], ["2S", "2C"]):
        c = character_from_sheet({"name": "P"})
        pay_distinction(c, -4, cards, "remove_positive")
        assert all(x in c.deck.sideboard for x in cards) and not any(x in c.deck.cards for x in cards)
    c = character_from_sheet({"name": "P"})
    with pytest.raises(IllegalAction) as exc:
        pay_distinction(c, -4, ["5S"], "remove_positive")
    assert (exc.value.code, exc.value.params) == ("cards_do_not_add_up", {"total": 5, "want": 4})
    with pytest.raises(IllegalAction):                 # only −6…−10 in a starting sideboard
        pay_distinction(c, -4, ["4D"], "add_negative")
    assert len(c.deck.cards) == 44


def test_positive_distinction_mirror_payment():
    c = character_from_sheet({"name": "P"})
    pay_distinction(c, 3, ["3H"], "remove_negative")
    assert "3H" in c.deck.sideboard
    pay_distinction(c, 7, ["7C"], "add_positive")
    assert "7C" in c.deck.cards


def test_T15_T16_advancement_is_gm_gated():
    c = character_from_sheet({"name": "Devon", "skills": {"sailing": 1}})
    r = allocate_skill_checks(c, "hard", [{"skill": "sailing", "reason": "plausible"}], gm_approved={"sailing"})
    assert r["spent"] == ["sailing"] and r["saved"] == 2
    with pytest.raises(IllegalAction) as exc:
        allocate_skill_checks(c, "some", [{"skill": "diplomacy", "reason": "plausible"}], gm_approved=set())
    assert (exc.value.code, exc.value.params) == ("gm_must_approve", {"skill": {"term": "skill.diplomacy"},
                                                                      "reason": "plausible"})
    r = allocate_skill_checks(c, "some", [{"skill": "diplomacy", "reason": "teacher", "teacher": "Devon"}],
                              gm_approved={"diplomacy"})
    assert r["spent"] == ["diplomacy"]
    # T16: a "missing" skill needs the GM's approval
    with pytest.raises(IllegalAction) as exc:
        allocate_skill_checks(c, "some", [{"skill": "strategy", "reason": "missing"}])
    assert exc.value.code == "gm_must_approve"
    assert allocate_skill_checks(c, "some", [{"skill": "strategy", "reason": "missing"}],
                                 gm_approved={"strategy"})["spent"] == ["strategy"]


def test_improvement_draw():
    c = character_from_sheet({"name": "Devon", "skills": {"sword": 3}, "attributes": {"will": -3}})
    rng = Rng.from_seed(1)
    c.deck.stack(["5S"])
    r = improvement_draw(c, "sword", rng)
    assert r["success"] and c.skill("sword") == 4
    c.deck.stack(["2S"])
    assert not improvement_draw(c, "sword", rng)["success"]
    c.deck.stack(["AH"])                 # A50: −1 beats a −3 attribute, as written
    assert improvement_draw(c, "will", rng)["success"] and c.attributes["will"] == -2
    c.deck.stack(["4H"])
    assert not improvement_draw(c, "will", rng)["success"] and c.attributes["will"] == -2
    # learning from default: a check against level 1, success gives level 2
    c.deck.stack(["3S"])
    improvement_draw(c, "stealth", rng)
    assert c.skill("stealth") == 2


def test_sheet_errors_name_the_field():
    [might] = problems(parse_sheet, "name: Bad\nattributes: {might: strong}\n", "bad.yaml")
    assert brief(might) == ("type", "bad.yaml", ("attributes",), "", "might")
    [wielding] = problems(character_from_sheet, {"name": "X", "weapons": [], "wielding": ["Sword"]})
    assert (brief(wielding), wielding.params) == (("not_own_weapon", "sheet", (), "X", "wielding"), {"value": "'Sword'"})
    [laser] = problems(character_from_sheet, {"name": "X", "weapons": ["Laser"]}, sample_pack("karmic"))
    assert (brief(laser), laser.params) == (("no_weapon", "sheet", (), "X", "weapons"), {"value": "'Laser'"})
    [mapping] = problems(parse_sheet, "- just\n- a list\n", "list.yaml")
    assert (brief(mapping), mapping.params) == (("not_a_mapping", "list.yaml", (), "", ""), {"needs": "name"})
    assert parse_sheet('{"name": "J", "skills": {"sword": 2}}')["skills"] == {"sword": 2}


def test_character_round_trip_keeps_the_deck():
    c = character_from_sheet({"name": "Devon", "weapons": ["Sword"]}, sample_pack("karmic"), owner="u1")
    c.deck.discard(c.deck.draw(Rng.from_seed(2), 3))
    again = Character.from_json(c.to_json())
    assert again == c and again.deck.since_shuffle == 3
    assert sheet_of(again)["wielding"] == ["Sword"]


def test_sample_pack_is_labelled_and_valid():
    pack = sample_pack("karmic")
    assert pack["pack"]["sample"] is True
    names = {w["name"] for w in pack["weapons"]}
    assert {"Sword", "Spear", "Medium Axe", "Poinard", "Dagger", "Short Bow", "Small Shield"} <= names
    assert {c["name"] for c in pack["characters"]} >= {"Devon", "Enris"}
    assert {c["name"] for c in pack["npcs"]} >= {"Soldier"}
    [axe] = problems(load_pack_text, "weapons:\n  - {name: Axe, range: far}\n", "guild.yaml")
    assert brief(axe) == ("type", "guild.yaml", ("weapons", 0), "Axe", "range")
    [plate] = problems(load_pack_text, "npcs:\n  - {name: Orc, armor: Plate}\n", "guild.yaml")
    assert (brief(plate), plate.params) == (("no_armor", "guild.yaml", ("npcs", 0), "Orc", "armor"), {"value": "'Plate'"})


def test_teacher_and_training_months():
    from rules.karmic.character import teacher_check, train_month
    devon = character_from_sheet({"name": "Devon", "attributes": {"awareness": 1},
                                  "skills": {"instruction": 2, "diplomacy": 3}})
    devon.deck.stack(["2H", "AS"])
    r = teacher_check(devon, "diplomacy", Rng.from_seed(1))
    assert r["mt"] == 1 + 1 + 3 and r["success"]
    student = character_from_sheet({"name": "Enris"})
    assert train_month(student, "diplomacy")["check_due"]
    for _ in range(7):
        assert not train_month(student, "will")["check_due"]
    assert train_month(student, "will", interrupted=True)["months"] == 0
    for _ in range(7):
        train_month(student, "will")
    assert train_month(student, "will")["check_due"]
