"""The skill list's tables as named situations of a check, tracking's lost trail, the smith's quality
bands and the day's ride that costs a fatigue card (rulebook seed 004, digest §6.10, §4.4, A40)."""
import pytest

from i18n import watch
from i18n.present import Presenter

from rules.common import PUBLIC, Actor, IllegalAction
from rules.karmic import ENGINE
from rules.karmic.actions import PlayCard
from rules.karmic.character import character_from_sheet, parse_sheet, sheet_of
from rules.karmic.fatigue import FATIGUE_HOURS, recover
from rules.karmic.skill_tables import SITUATIONS, pick, situations_for

CLIMBER = {"name": "Ilse", "attributes": {"finesse": 1}, "skills": {"climbing": 2, "lock_picking": 1,
                                                                     "languages": 2, "riding": 1, "tracking": 3}}
SMITH = {"name": "Bruno", "skills": {"blacksmithing": 2}}


def check(options, cards, seed=1):
    """A check of Ilse's (or another sheet's) with her hand stacked; the first card is played."""
    opts = {"mode": "check", "actor": {"character": options.pop("character", CLIMBER), "player": "u1"},
            "stack": {"c1": list(cards)}}
    opts.update(options)
    state = ENGINE.start(["u1"], opts, seed).state
    out = ENGINE.apply(state, PlayCard(cards[0]), Actor("u1"))
    return out.state, out.events


def said(events):
    return Presenter("en", "karmic").events(e for e in events if e.audience == PUBLIC)


def test_climbing_adds_the_surface_and_the_equipment():
    # L755: surface and equipment added together; L760 stone wall −3, L765 top rope +4, L768 shoes +2
    state, events = check({"skill": "climbing", "situations": ["stone_wall", "top_rope", "climbing_shoes"]},
                          ["2H", "5S"])
    assert state.check.result["mt"] == -2 - 3 + 4 + 2 and state.check.result["success"]
    assert "card -2, stone wall -3, top rope +4, climbing shoes +2 = 1" in said(events)[-2]


def test_the_rulebook_numbers_of_every_table():
    table = {s.id: s.mod for s in SITUATIONS.values()}
    # CLIMBING surfaces L757–L763 and equipment L765–L769
    assert [table[k] for k in ("average_tree", "rock_many_holds", "rock_some_holds", "stone_wall", "brick_wall",
                               "rough_rock", "smooth_rock")] == [0, -1, -2, -3, -4, -5, -7]
    assert [table[k] for k in ("top_rope", "knotted_top_rope", "pitons", "climbing_shoes", "belay")] == \
        [4, 5, 2, 2, 3]
    # LOCK PICKING: equipment L807–L811, lock quality L813–L817, no mark L819
    assert [table[k] for k in ("lock_picks", "basic_tools", "utility_knife", "hair_pin", "straw")] == \
        [2, 0, -2, -4, -7]
    assert [table[k] for k in ("poor_lock", "door_lock", "fine_door_lock", "strongbox_lock", "prison_lock")] == \
        [2, 0, -2, -3, -5]
    assert table["leave_no_mark"] == -3
    # LANGUAGES L784–L788
    assert [table[k] for k in ("derived_language", "same_tradition_language", "same_root_language",
                               "cultures_met_language", "unrelated_language")] == [-1, -3, -5, -8, -10]
    assert {s.id for s in situations_for("lock picking")} == {
        "lock_picks", "basic_tools", "utility_knife", "hair_pin", "straw", "poor_lock", "door_lock",
        "fine_door_lock", "strongbox_lock", "prison_lock", "leave_no_mark"}


def test_lock_picking_with_a_hair_pin_on_a_strongbox_leaving_no_mark():
    state, events = check({"skill": "lock picking", "attribute": "finesse",
                           "situations": ["hair_pin", "strongbox_lock", "leave_no_mark"]}, ["9S"])
    assert state.check.result["mt"] == 9 + 1 - 4 - 3 - 3 and not state.check.result["success"]   # = 0


def test_a_language_check_uses_the_similarity_row():
    state, _ = check({"skill": "languages", "situations": ["same_tradition_language"], "difficulty": "easy"},
                     ["2S", "3S"])
    assert state.check.result["mt"] == 2 - 3 + 3


@pytest.mark.parametrize("skill, names, code", [
    ("climbing", ["stone_wall", "brick_wall"], "situations_exclude"),            # one surface
    ("climbing", ["top_rope", "knotted_top_rope"], "situations_exclude"),        # one rope
    ("lock_picking", ["lock_picks", "hair_pin"], "situations_exclude"),          # one set of tools
    ("lock_picking", ["door_lock", "prison_lock"], "situations_exclude"),        # one lock
    ("languages", ["derived_language", "same_root_language"], "situations_exclude"),
    ("climbing", ["pitons", "pitons"], "situation_twice"),
    ("climbing", ["strongbox_lock"], "situation_of_another_skill"),              # a lock on a climbing check
    ("climbing", ["glass_wall"], "unknown_situation"),
])
def test_situations_that_do_not_fit_are_refused(skill, names, code):
    with pytest.raises(IllegalAction) as err:
        pick(skill, names)
    assert err.value.code == code
    with watch() as notes:
        Presenter("it", "karmic").error(err.value)
    assert not [n for n in notes if n.fallback]


def test_combinable_equipment_adds_up():
    assert sum(s.mod for s in pick("climbing", ["smooth_rock", "knotted_top_rope", "pitons", "belay"])) == \
        -7 + 5 + 2 + 3


@pytest.mark.parametrize("card, lost", [("4H", True), ("3H", False)])
def test_tracking_loses_the_trail_at_minus_10(card, lost):
    # L797: "on a deal of −10 or less the trail is lost completely" (tracking 3, awareness +2)
    sheet = {"name": "Enris", "attributes": {"awareness": 2}, "skills": {"tracking": 3}}
    state, events = check({"character": sheet, "skill": "tracking", "attribute": "awareness",
                           "difficulty": "nigh impossible"}, [card, "2H", "5H"])
    assert state.check.result["mt"] == (-10 if lost else -9)
    assert state.check.result.get("trail_lost", False) is lost
    assert ("has lost the trail for good (a total of -10 or less)" in said(events)[-1]) is lost


@pytest.mark.parametrize("card, band", [("7S", "fine"), ("6S", "common"), ("4H", "common"), ("5H", "poor")])
def test_blacksmith_quality_bands(card, band):
    # L802: above 6 fine quality, below −4 poor quality
    state, events = check({"character": SMITH, "skill": "blacksmithing"}, [card, "2H"])
    assert state.check.result["quality"] == band
    assert [e.data["band"] for e in events if e.kind == "smith_quality"] == [band]


def test_a_failed_day_ride_costs_a_fatigue_card_for_12_hours():
    # L773: a riding check at the end of a day's ride; failure = one card of fatigue for 12 hours
    state, events = check({"skill": "riding", "situations": ["day_ride"]}, ["2H"])
    assert not state.check.result["success"]
    rider = state.characters["c1"]
    assert rider.fatigue == 1 and state.check.result["fatigue"] == 1
    ev = [e for e in events if e.kind == "fatigue_taken"][0]
    assert ev.data["hours"] == FATIGUE_HOURS == 12 and ev.audience == PUBLIC
    assert "one card of fatigue for the next 12 hours" in said(events)[-1]
    # A40: a fatigue card is one card fewer on every draw: climbing 2 now draws 1
    assert rider.hand_for("climbing") == 1 and rider.hand_for("tracking") == 2
    assert recover(rider) == 0 and rider.hand_for("climbing") == 2


def test_a_ride_that_succeeds_or_is_not_a_days_ride_costs_nothing():
    state, events = check({"skill": "riding", "situations": ["day_ride"]}, ["3S"])
    assert state.check.result["success"] and state.characters["c1"].fatigue == 0
    state, events = check({"skill": "riding"}, ["2H"])
    assert not state.check.result["success"] and state.characters["c1"].fatigue == 0
    assert not [e for e in events if e.kind == "fatigue_taken"]


def test_fatigue_is_on_the_sheet():
    sheet = parse_sheet("name: Ilse\nskills: {climbing: 3}\nfatigue: 2\n")
    char = character_from_sheet(sheet)
    assert char.fatigue == 2 and char.hand_for("climbing") == 1
    assert sheet_of(char)["fatigue"] == 2
    assert character_from_sheet(parse_sheet("name: Ilse\n")).fatigue == 0
    with pytest.raises(Exception, match="fatigue"):
        parse_sheet("name: Ilse\nfatigue: -1\n")


MEDIC = {"name": "Greta", "skills": {"first_aid": 2, "medicine": 1}, "hp_marked": 3, "bleeding": True}


def test_first_aid_stops_bleeding_with_minus_the_marked_hit_points():
    # L780: a successful first aid check stops the hit points lost to bleeding; a negative modifier equal
    # to the subject's hit points (A39: the 3 boxes marked); it restores none of them
    state, events = check({"character": MEDIC, "skill": "first aid"}, ["4S", "2S"])
    assert state.check.result["mt"] == 4 - 3 and state.check.result["success"]
    greta = state.characters["c1"]
    assert not greta.bleeding and greta.hp_marked == 3 and state.check.result["bleeding_stopped"]
    assert said(events)[-3].endswith("card +4, hit points marked -3 = 1")
    assert "Greta's bleeding stops" in said(events)[-1]


def test_failed_first_aid_leaves_the_bleeding_and_medicine_takes_the_same_modifier():
    state, events = check({"character": MEDIC, "skill": "first aid"}, ["3S", "2S"])
    assert state.check.result["mt"] == 0 and state.characters["c1"].bleeding
    assert not [e for e in events if e.kind == "bleeding_stopped"]
    state, _ = check({"character": MEDIC, "skill": "medicine"}, ["5S"])
    assert state.check.result["mt"] == 5 - 3 and state.characters["c1"].bleeding      # medicine: not first aid
    assert character_from_sheet(parse_sheet("name: Greta\nbleeding: true\n")).bleeding
    assert sheet_of(character_from_sheet(MEDIC))["bleeding"] is True


def test_the_gms_condition_step_takes_fatigue_off_and_starts_or_stops_a_bleeding():
    from rules.common import GM
    from rules.karmic import Condition
    state = ENGINE.start(["gm"], {"mode": "advance"}, 1).state
    greta = character_from_sheet(dict(MEDIC, fatigue=3, bleeding=False), owner="u1").to_dict()
    gm = Actor(GM, gm=True)
    out = ENGINE.apply(state, Condition("g", 1, "start", character=greta, player="u1"), gm)
    g = out.state.characters["g"]
    assert (g.fatigue, g.bleeding) == (2, True)
    assert out.events[0].data["rested"] == 1
    out = ENGINE.apply(out.state, Condition("g", -1, "stop"), gm)           # all fatigue off
    assert (out.state.characters["g"].fatigue, out.state.characters["g"].bleeding) == (0, False)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(out.state, Condition("g"), gm)
    assert err.value.code == "condition_unchanged"
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(out.state, Condition("g", 1), Actor("u1"))
    assert err.value.code == "gm_only"


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_the_new_rules_speak_every_language_with_no_fallback(language):
    from rules.common import Event
    say = Presenter(language, "karmic")
    events = [Event("trail_lost", {"name": "Enris", "threshold": -10}),
              Event("fatigue_taken", {"name": "Ilse", "fatigue": 1, "hours": 12}),
              Event("bleeding_stopped", {"name": "Greta"}),
              Event("language_learned", {"name": "Marco", "language": "Spanish", "known": 2, "level": 2}),
              Event("advance_condition", {"name": "Greta", "fatigue": 0, "rested": 2,
                                          "bleeding": {"term": "bleeding_now"}})]
    events += [Event("smith_quality", {"name": "Bruno", "quality": {"term": f"smith.{band}"}, "fine_above": 6,
                                       "poor_below": -4}) for band in ("fine", "common", "poor")]
    errors = [IllegalAction("unknown_situation", situation="glass"),
              IllegalAction("situation_of_another_skill", situation={"term": "situation.pitons"}, skill="riding"),
              IllegalAction("situation_twice", situation={"term": "situation.pitons"}),
              IllegalAction("situations_exclude", situation={"term": "situation.straw"},
                            other={"term": "situation.hair_pin"}),
              IllegalAction("fatigue_negative", cards=-2), IllegalAction("unknown_bleeding", bleeding="x"),
              IllegalAction("condition_unchanged", name="Greta"),
              IllegalAction("lance_once_every_4_rounds", target="Adhemar", last=1, round=5, every=4),
              IllegalAction("nobody_entangled", target="Kraken")]
    with watch() as notes:
        texts = say.events(events) + [say.error(e) for e in errors]
        texts += [say.text("terms.situation_part", situation={"term": f"situation.{sid}"}, n=s.mod)
                  for sid, s in SITUATIONS.items()]
        texts.append(say.text("terms.first_aid_part", n=-3))
    assert not [n for n in notes if n.fallback], [n.key for n in notes if n.fallback]
    assert not [t for t in texts if "{" in t or "terms." in t or "errors." in t]


POLYGLOT = {"name": "Marco", "skills": {"languages": 2}, "fields": {"languages": ["Italian", "Italian"]}}


def test_the_gist_of_an_unknown_language_needs_none_of_his_fields():
    # L783–L785: a language he does not know, from the same root and tradition as Italian: −3;
    # his languages field (Italian) neither is asked for nor adds its bonus
    state, events = check({"character": POLYGLOT, "skill": "languages", "situations": ["same_tradition_language"],
                           "field": "Spanish"}, ["5S", "2S"])
    assert state.check.result["mt"] == 5 - 3 and state.check.result["success"]
    assert "language_learned" not in state.check.result           # the optional rule is off by default
    assert state.characters["c1"].fields["languages"] == ["Italian", "Italian"]


@pytest.mark.parametrize("known, learned", [(["Italian"], True), (["Italian", "German"], False)])
def test_the_optional_rule_teaches_the_new_language_up_to_the_skill_level(known, learned):
    # L789: with the GM's permission a won gist check makes it known, never more languages than the level (2)
    sheet = dict(POLYGLOT, fields={"languages": known})
    state, events = check({"character": sheet, "skill": "languages", "situations": ["same_tradition_language"],
                           "field": "Spanish", "house_rules": {"languages_learned_in_play": True}}, ["5S", "2S"])
    assert state.check.result["success"]
    assert ("Spanish" in state.characters["c1"].fields["languages"]) is learned
    if learned:
        assert "Marco now knows Spanish (2 of 2 languages)." in said(events)[-1]
