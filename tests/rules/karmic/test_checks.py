"""Checks: T10–T12, T19, T21, T25, T26, hit chains, jokers, hidden GM modifiers, advanced skills."""
import pytest

from i18n.present import Presenter

from rules.common import GM, PUBLIC, Actor, Choose, IllegalAction
from rules.karmic import ENGINE
from rules.karmic.actions import GmModifier, Hit, PlayCard, Ruling
from rules.karmic.character import (character_from_sheet, check_fields, cleansing_result,
                                    medicine_result)
from rules.karmic.tables import result_chart

from .helpers import GM_ACTOR, refused_as, said

ENRIS = {"name": "Enris", "attributes": {"awareness": 2, "finesse": 1},
         "skills": {"tracking": 3, "charm": 2, "stealth": 1, "lock_picking": 1, "medicine": 0}}
BARKEEP = {"name": "Barkeeper", "npc": True, "attributes": {"awareness": 0}}


def check(options, seed=1, seats=("u1",)):
    out = ENGINE.start(list(seats), dict({"mode": "check"}, **options), seed)
    return out.state, out.events


def test_T11_enris_tracks_the_dreaccle():
    state, events = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "tracking",
                           "attribute": "awareness", "difficulty": "easy",
                           "stack": {"c1": ["3H", "4H", "7H"]}})
    assert sorted(state.check.sides[0].hand) == ["3H", "4H", "7H"]
    hand_ev = [e for e in events if e.kind == "hand"][0]
    assert hand_ev.audience == "u1"
    out = ENGINE.apply(state, PlayCard("3H"), Actor("u1"))
    res = out.state.check.result
    assert res["mt"] == 2 and res["success"]
    said = Presenter(None, "karmic").events(e for e in out.events if e.audience == PUBLIC)
    assert said[-2:] == ["Enris plays 3♥ -3: card -3, Awareness +2, modifiers +3 = 2", "→ **SUCCESS** (margin +2)"]
    assert len(out.state.characters["c1"].deck.discards) == 3
    assert out.state.over


def test_T12_enris_charms_the_barkeeper_opposed():
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "charm", "attribute": "finesse",
                      "opponent": {"character": BARKEEP, "player": GM, "attribute": "awareness"},
                      "stack": {"c1": ["5S", "2H"], "o1": ["8S"]}})
    state = ENGINE.apply(state, PlayCard("5S"), Actor("u1")).state
    # the barkeeper's card comes from the world deck, chosen by the GM through a private prompt
    p = [p for p in ENGINE.pending(state) if p.player == GM][0]
    assert p.private and [o.id for o in p.options] == ["8S"]
    out = ENGINE.apply(state, Choose(p.id, ("8S",)), GM_ACTOR)
    res = out.state.check.result
    assert res["mt"] == 6 and out.state.check.sides[1].mt == 8
    assert not res["success"]
    assert res["margin"] == -2 and res["chart"]["general"] == "Poor" and res["chart"]["reaction"] == "Annoyance"
    pub = [e for e in out.events if e.audience == PUBLIC]
    assert "8S" not in repr([e.data for e in pub]) and "8♠" not in " ".join(said(e) for e in pub)


def test_T26_opposed_check_needs_no_positive_total():
    seeker = {"name": "Seeker", "npc": True}
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "stealth",
                      "opponent": {"character": seeker, "player": GM, "attribute": "awareness"},
                      "stack": {"c1": ["AH"], "o1": ["3H"]}, "bot_plays_npcs": True})
    out = ENGINE.apply(state, PlayCard("AH"), Actor("u1"))
    assert out.state.check.sides[0].mt == -1 and out.state.check.sides[1].mt == -3
    assert out.state.check.result["success"]


def test_T10_combining_skills_cap_and_best_card():
    helper = {"name": "Bob", "skills": {"lock_picking": 2}}
    with pytest.raises(IllegalAction, match="too_many_helpers"):
        check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "lock_picking", "max_helpers": 1,
               "helpers": [{"character": helper, "player": "u2"}, {"character": dict(helper, name="Cy"),
                                                                     "player": "u3"}]})
    state, events = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "lock_picking",
                           "attribute": "finesse", "max_helpers": 12,
                           "helpers": [{"character": helper, "player": "u2"}],
                           "stack": {"c1": ["2S"], "h1": ["9S", "3H"]}})
    p = ENGINE.pending(state)[0]
    assert [o.id for o in p.options] == ["2S", "h1:9S"]
    out = ENGINE.apply(state, Choose(p.id, ("h1:9S",)), Actor("u1"))
    assert out.state.check.result["mt"] == 9 + 1          # the lead's finesse applies (A12)
    assert "9S" in out.state.characters["h1"].deck.discards


def test_hit_chain_cannot_be_undone_and_can_make_it_worse():
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "tracking",
                      "attribute": "awareness", "stack": {"c1": ["KS", "2S", "3S", "QS", "5H"]}})
    state = ENGINE.apply(state, PlayCard("KS"), Actor("u1")).state
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, PlayCard("3S"), Actor("u1"))       # no changing his mind
    state = ENGINE.apply(state, Hit(True), Actor("u1")).state   # Q♠ +2: may hit again
    assert state.check.sides[0].play.chain == ["QS"] and state.check.sides[0].play.open
    out = ENGINE.apply(state, Hit(True), Actor("u1"))           # 5♥ −5
    side = out.state.check.sides[0]
    assert side.play.total == 3 + 2 - 5 and side.mt == 0 + 2 and out.state.check.result["success"]
    assert sorted(out.state.characters["c1"].deck.discards) == sorted(["KS", "2S", "3S", "QS", "5H"])


def test_joker_is_a_gm_ruling():
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "tracking",
                      "stack": {"c1": ["JK1", "2H", "3H"]}})
    state = ENGINE.apply(state, PlayCard("JK1"), Actor("u1")).state
    p = ENGINE.pending(state)[0]
    assert p.player == GM and {o.id for o in p.options} == {"success", "failure"}
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, Ruling("success"), Actor("u1"))
    out = ENGINE.apply(state, Ruling("success"), GM_ACTOR)
    assert out.state.check.result["success"]


def test_hidden_gm_modifier_is_seen_by_the_gm_only():
    state, events = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "tracking",
                           "attribute": "awareness", "stack": {"c1": ["4S", "2H", "3H"]}})
    out = ENGINE.apply(state, GmModifier(-5, hidden=True), GM_ACTOR)
    assert all(e.audience == GM for e in out.events)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, GmModifier(-5), Actor("u1"))
    out = ENGINE.apply(out.state, PlayCard("4S"), Actor("u1"))
    assert out.state.check.sides[0].mt == 4 + 2 - 5 and out.state.check.result["success"]
    pub = [e for e in out.events if e.audience == PUBLIC]
    said = " ".join(Presenter(None, "karmic").events(pub))
    assert "-5" not in said and "= ?" in said and "hidden GM modifier" in said
    assert all(e.data.get("mt") is None for e in pub if e.kind == "check_result")
    view = ENGINE.view_for(out.state, PUBLIC)
    assert "hidden_modifier" not in repr(view) and "mt" not in view["check"]["result"]
    assert ENGINE.view_for(out.state, GM)["check"]["sides"][0]["hidden_modifier"] == -5


def test_advanced_skill_has_no_default_and_multiple_skills_use_the_lower():
    with pytest.raises(IllegalAction, match="advanced_untrained"):
        check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "medicine"})
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "tracking", "skill2": "charm"})
    assert len(state.check.sides[0].hand) == 2
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "sailing"})
    assert len(state.check.sides[0].hand) == 1       # unskilled default: 1 card


def test_T19_fields_of_expertise():
    bard = dict(ENRIS, skills={"musical_instrument": 3}, fields={"musical_instrument": ["lute", "flute", "piccolo"]})
    c = character_from_sheet(bard)
    check_fields(c)
    assert c.foe_bonus("musical_instrument", "flute") == 0
    c.fields["musical_instrument"] = ["lute", "piccolo", "piccolo"]
    assert c.foe_bonus("musical_instrument", "piccolo") == 1
    with pytest.raises(IllegalAction, match="no_such_field.*'flute'"):
        c.foe_bonus("musical_instrument", "flute")
    c.fields["musical_instrument"] = ["piccolo"] * 6
    assert c.foe_bonus("musical_instrument", "piccolo") == 4
    # through a check: the field bonus is added; a missing field is refused
    bard2 = dict(ENRIS, skills={"musical_instrument": 3}, fields={"musical_instrument": ["lute", "piccolo", "piccolo"]})
    state, _ = check({"actor": {"character": bard2, "player": "u1"}, "skill": "musical_instrument",
                      "field": "piccolo", "stack": {"c1": ["5S", "2H", "3H"]}})
    out = ENGINE.apply(state, PlayCard("5S"), Actor("u1"))
    assert out.state.check.result["mt"] == 6
    with pytest.raises(IllegalAction):
        check({"actor": {"character": bard2, "player": "u1"}, "skill": "musical_instrument", "field": "flute"})


def test_T21_foe_counts():
    c = character_from_sheet(dict(ENRIS, skills={"etiquette": 2, "languages": 4},
                                  fields={"etiquette": ["aristocratic", "street"],
                                          "languages": ["common", "elvish", "dwarvish", "old tongue"]}))
    check_fields(c)
    c.fields["languages"].append("fifth")
    with refused_as("exactly 4"):
        check_fields(c)


def test_T25_one_check_one_result():
    assert cleansing_result(5) == {"cards_returned": 1, "minutes": 30, "retry_wait_minutes": 0, "success": True}
    r = cleansing_result(-3)
    assert r["minutes"] == 180 and r["retry_wait_minutes"] == 60 and r["cards_returned"] == 0
    assert medicine_result(4) == {"minutes": 30, "healed": 4}
    assert medicine_result(-2) == {"minutes": 30, "healed": 0}


def test_result_chart_clamps_and_columns():
    assert result_chart(-14)["general"] == "Incompetence"
    assert result_chart(12)["general"] == "Extraordinary"
    assert result_chart(7)["money"] == 100 and result_chart(-2)["speed"] == 3.0


def test_rule_of_fives_offer_after_a_check():
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "tracking",
                      "stack": {"c1": ["3H", "4H", "7H"]}})
    state.characters["c1"].deck.since_shuffle = 3
    out = ENGINE.apply(state, PlayCard("3H"), Actor("u1"))
    # the check is over at once (the channel is free); the window stays open on the deck
    assert out.state.over and ENGINE.pending(out.state) == []
    deck = out.state.characters["c1"].deck
    assert deck.offer and deck.since_shuffle == 6


def test_gm_marked_advanced_skills_have_no_default():
    with pytest.raises(IllegalAction, match="advanced_untrained"):
        check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "engineering",
               "house_rules": {"extra_advanced_skills": ["engineering"]}})
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "engineering"})
    assert len(state.check.sides[0].hand) == 1


@pytest.mark.parametrize("given, mod", [("-2", -2), ("−2", -2), ("+3", 3), ("4", 4), (-1, -1),
                                        ("very difficult", -5), ("Very-Easy", 5), ("nigh_impossible", -8)])
def test_difficulty_by_name_or_any_number(given, mod):
    from rules.karmic.tables import difficulty_mod

    assert difficulty_mod(given) == mod


def test_unknown_difficulty_is_refused():
    from rules.karmic.tables import difficulty_mod

    with pytest.raises(IllegalAction, match="unknown_difficulty.*'hardish'"):
        difficulty_mod("hardish")
