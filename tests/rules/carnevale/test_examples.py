"""Every worked example of digest §6 (E1-E37) through the public API."""
import pytest

from rules.carnevale import ENGINE, load_pack_text, load_sample_pack
from rules.carnevale import actions as A
from rules.carnevale import campaign, mechanics, tables
from rules.carnevale.dice import ceil_half, d5_from_d10, opposed_roll, parse_pool, result_from_dice
from rules.carnevale.squad import SquadMember, validate_squad
from rules.common import Choose, IllegalAction, Rng

from .helpers import GM_ACTOR, P1, P2, apply, game, kinds, rolls, rolls_of, said, script, squad, start

TEST_PACK = """
pack: {name: test pack, game: carnevale}
factions:
  - name: Test House
    classes:
      - name: Test Mage
        cost: 10
        ap: 4
        attributes: {MOV: 5, COM: 2, DEX: 5, SHO: 3, MIN: 6, PRO: 2}
        karma: 12
        command: 3
        life_track: [0, 0, 0, -1, -1, -1, -2, -2, -3]
        descriptors: [Human, Leader, Mage]
        universal_abilities: [{name: Command, x: 3}, {name: Mage, x: 6}]
        spells: [Walk Between Worlds, Blessing, Protection of the Eye, Spiritual Bond, Naach-Tith Annulment,
                 Mother Hidra's Claws, Petrify, Immediate Healing, Infernal Images, Curse, Dispel Magic,
                 Mist from the Abyss]
      - name: Dull Mage
        cost: 10
        ap: 3
        attributes: {MOV: 5, COM: 2, DEX: 5, SHO: 3, MIN: 3, PRO: 2}
        karma: 6
        command: 2
        life_track: [0, 0, -1, -1, -2]
        descriptors: [Human, Leader, Mage]
        universal_abilities: [{name: Command, x: 2}, {name: Mage, x: 2}]
        spells: [Blessing]
      - name: Test Brute
        cost: 10
        ap: 3
        attributes: {MOV: 7, COM: 5, DEX: 4, SHO: 2, MIN: 3, PRO: 2}
        karma: 2
        life_track: [0, 0, 0, -1, -1, -1, -2, -2, -2, -3]
        descriptors: [Human]
        equipment: [Axe]
      - name: Test Flamer
        cost: 10
        ap: 3
        attributes: {MOV: 4, COM: 3, DEX: 4, SHO: 4, MIN: 4, PRO: 2}
        karma: 2
        life_track: [0, 0, -1, -1, -2]
        equipment: [Flamethrower]
      - name: Test Swimmer
        cost: 10
        ap: 3
        attributes: {MOV: 6, COM: 3, DEX: 4, SHO: 2, MIN: 3, PRO: 2}
        karma: 2
        life_track: [0, 0, -1, -1, -2]
        universal_abilities: [{name: Expert Swimmer}]
"""


def tpack():
    return load_pack_text(TEST_PACK, "test.yaml").doc


def test_E1_d5_and_pool_notation():
    assert d5_from_d10(7) == 4
    assert parse_pool("1d10") == 1 and parse_pool("5d10") == 5


def test_E2_inches():
    assert tables.inches("4''") == 4 and tables.inches('4"') == 4


def test_E3_E11_every_action_costs_one_AP():
    s = game(squad("The Patricians", ("Noble", {"leader": True}), "Barnaboti"),
             squad("The Guild", ("Capodecime", {"leader": True}), "Pulcinella"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, _ = apply(s, A.SpendAP("a1", "jump"), P1)
    s, ev = apply(s, A.Shoot("a1", "b2"), P1)
    s, ev2 = apply(s, A.SpendAP("a1", "walk"), P1)
    assert s.models["a1"].ap == 0
    assert [e.data["ap"] for e in ev2 if e.kind == "action"] == [0]
    with pytest.raises(IllegalAction):
        apply(s, A.SpendAP("a1", "walk"), P1)


def test_E4_unique_per_squad_both_players_may_field_it():
    pack = load_sample_pack()
    one = squad("The Guild", ("Capodecime", {"leader": True}), "White Dove")
    two = squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "White Dove")
    s = game(one, two)
    assert sum(1 for m in s.models.values() if m.profile == "White Dove") == 2
    bad = squad("The Guild", ("Capodecime", {"leader": True}), "White Dove", "White Dove")
    assert [said(r) for r in validate_squad(pack, bad)] == ["too many White Dove (2): Unique, one per squad"]


def _swim_game():
    return game(squad("Test House", ("Test Mage", {"leader": True}), "Test Swimmer", "Test Brute"),
                squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute"), pack=tpack())


def test_E5_expert_swimmer_swims_full_MOV():
    s = start(_swim_game(), P1)
    s, _ = apply(s, A.SetStatus("a2", "in_water"), P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.SpendAP("a2", "swim"), P1)
    assert ev[0].data["inches"] == 6
    s, _ = apply(s, A.EndActivation("a2"), P1)
    s, _ = apply(s, A.SetStatus("b1", "in_water"), P2)
    s, _ = apply(s, A.Activate("b1"), P2)
    s, ev = apply(s, A.SpendAP("b1", "swim"), P2)
    assert ev[0].data["inches"] == 3          # MOV 5 halved, rounded up


def test_E6_E7_dex_pool_and_aces():
    s = start(_swim_game(), P1)
    script(s, 7, 6, 9, 1)
    s, ev = apply(s, A.Roll(model="a3", attribute="DEX"), P1)   # Test Brute DEX 4
    r = rolls(ev)[0]
    assert len(r["dice"]) == 4 and r["destiny"] == 7 and r["aces"] == 2 and r["difficulty"] == 7
    s, ev = apply(s, A.Roll(pool=14, difficulty=7), P1)
    assert len(rolls(ev)[0]["dice"]) == 10       # cap


def test_E8_combat_5_against_dex_6():
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Butcher"),
             squad("The Guild", ("Capodecime", {"leader": True}), "Pulcinella"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 6, 5, 6, 9, 2)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    r = rolls(ev)[0]
    assert len(r["dice"]) == 5 and r["difficulty"] == 6 and r["aces"] == 3


def test_E9_opposed_mind_roll():
    res = opposed_roll(Rng.from_seed(9), 5, 4)
    assert res.a.difficulty == 7 and res.b.difficulty == 7
    assert len(res.a.dice) == 5 and len(res.b.dice) == 4
    assert res.winner == ("a" if res.a_aces > res.b_aces else "b" if res.b_aces > res.a_aces else "tie")


def test_E10_halving_rounds_up():
    assert ceil_half(7) == 4


def test_E12_karma_dice():
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Pulcinella"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "The Aberration"))
    s = start(s, P2)
    s, _ = apply(s, A.Activate("b2"), P2)
    s, ev = apply(s, A.Attack("b2", "a2", karma=2), P2)
    attack = rolls_of(ev, "roll_combat")[0]
    assert len(attack["dice"]) == 7 and attack["difficulty"] == 6
    assert s.models["b2"].karma == 3 - 2


def _grenade_game():
    return game(squad("The Rashaar", ("Magi-Rashaar", {"leader": True})),
                squad("The Guild", ("Capodecime", {"leader": True}), "Harlot", "Pulcinella"))


def test_E13_template_affects_only_models_under_it_and_they_dodge():
    s = start(_grenade_game(), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, ev = apply(s, A.Shoot("a1", "b2", weapon="Grenade", targets=("b2", "b1")), P1)
    dodgers = [r["model"] for r in rolls_of(ev, "roll_dex_against_the_template")]
    assert dodgers == ["b2", "b1"]
    assert "b3" not in {e.data.get("model") for e in ev if e.kind in ("template", "damage")}


def test_E14_swimming_uses_half_the_remaining_allowance():
    s = _swim_game()
    brute = s.models["a3"]                  # MOV 7
    assert mechanics.swim_allowance(brute, 7 - 3) == 2


def test_E15_jump_down_inside_a_move():
    s = start(_swim_game(), P1)
    s, _ = apply(s, A.Activate("a3"), P1)
    s, _ = apply(s, A.SpendAP("a3", "walk"), P1)
    script(s, 9, 9, 9, 9)
    s, ev = apply(s, A.Fall("a3", 3, voluntary=True), P1)
    assert s.models["a3"].ap == 1 and s.models["a3"].damage == 0
    assert [e.data["category"] for e in ev if e.kind == "fall"] == [0]


def _melee_game():
    return game(squad("The Patricians", ("Noble", {"leader": True}), ("Barnaboti", {"name": "Roberto"})),
                squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Ugdru-Rashaar", "Ugdru-Rashaar"))


def test_E16_E17_outnumbering():
    s = start(_melee_game(), P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.Attack("a2", "b1", allies=1), P1)
    assert len(rolls(ev)[0]["dice"]) == 3 + 1
    s, _ = apply(s, A.EndActivation("a2"), P1)
    s, _ = apply(s, A.Activate("b1"), P2)
    s, ev = apply(s, A.Attack("b1", "a2", enemies=1), P2)
    assert len(rolls(ev)[0]["dice"]) == 3 - 1 - 1       # −1 other enemy, −1 Roberto's sword (Save 1)
    s, _ = apply(s, A.EndActivation("b1"), P2)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, ev = apply(s, A.Attack("a1", "b1", allies=5, enemies=5), P1)   # both capped at 2
    assert len(rolls(ev)[0]["dice"]) == 4


def test_E18_roberto_against_the_ugdru():
    s = start(_melee_game(), P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 7, 7, 8, 8)
    s, ev = apply(s, A.Attack("a2", "b2", enemies=1, karma=2), P1)
    r = rolls(ev)[0]
    assert r["dice"] == [7, 7, 8, 8] and r["difficulty"] == 5 and r["aces"] == 4
    dmg = [e.data for e in ev if e.kind == "damage"][0]
    assert dmg["amount"] == 5 and dmg["protection"] == 3 and dmg["lost"] == 2
    assert s.models["b2"].life_left == s.models["b2"].life - 2
    assert s.models["a2"].karma == 3 - 2


def test_E19_at_the_ready_duke_against_the_soldier():
    s = game(squad("The Patricians", ("Noble", {"leader": True}), "Venice City Guard"),
             squad("The Guild", ("Capodecime", {"leader": True}), "The Duke"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.SpendAP("a2", "at_ready_melee"), P1)
    assert s.models["a2"].at_ready == "melee" and s.active == ""
    s, _ = apply(s, A.Activate("b2"), P2)
    script(s, 8, 1, 2, 4, 6, 6, 7, 7, 6, 3, 6, 7)
    s, ev = apply(s, A.Attack("b2", "a2", karma=2), P2)
    duke, soldier = rolls(ev)
    assert len(duke["dice"]) == 8 and duke["aces"] == 5 and duke["difficulty"] == 5
    assert len(soldier["dice"]) == 4 and soldier["aces"] == 3 and soldier["difficulty"] == 6
    opp = [e.data for e in ev if e.kind == "opposed"][0]
    assert opp["winner"] == "a" and opp["margin"] == 2
    dmg = [e.data for e in ev if e.kind == "damage"][0]
    assert dmg["amount"] == 2 and dmg["lost"] == 0


def test_E21_range_bands():
    assert [tables.range_penalty(8, d) for d in (8, 11, 15, 16, 17)] == [0, -1, -2, -2, None]
    assert tables.range_penalty(10, 20) == -3 and tables.range_penalty(10, 19) == -2 and tables.range_penalty(20, 31) == -3 and tables.range_penalty(10, 21) is None
    s = start(_grenade_game(), P1)
    s = game(squad("The Patricians", ("Noble", {"leader": True})),
             squad("The Guild", ("Capodecime", {"leader": True})))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    with pytest.raises(IllegalAction, match=r"^beyond_range\b"):
        apply(s, A.Shoot("a1", "b1", distance=17), P1)
    s, ev = apply(s, A.Shoot("a1", "b1", distance=11), P1)        # pistol 8'': +3 → −1
    assert len(rolls(ev)[0]["dice"]) == 5 - 1


def test_E22_grenade_profile():
    g = load_sample_pack().weapons["Grenade"]
    assert g["damage_dice"] == "1d10" and g["range"] == 6
    assert {a["name"] for a in g["abilities"]} == {"Throwable", "Explosion", "Flames"}
    assert [a["x"] for a in g["abilities"] if a["name"] == "Throwable"] == [-2]


def test_E23_scatter_of_a_missed_grenade():
    s = start(_grenade_game(), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 3)
    s, ev = apply(s, A.Shoot("a1", "b1", weapon="Grenade", targets=()), P1)
    sc = [e.data for e in ev if e.kind == "scatter"][0]
    assert sc["die"] == 3 and sc["distance"] == 1


def test_E24_pain_thresholds_replace_and_one_stun_per_turn():
    s = start(_swim_game(), P2)
    s, _ = apply(s, A.Activate("b2"), P2)                    # Test Brute, COM 5
    s, ev = apply(s, A.Damage("b2", 6, ignore_protection=True), GM_ACTOR)
    assert "pain" in kinds(ev) and s.models["b2"].stunned
    s, _ = apply(s, A.SpendAP("b2", "clear_stun"), P2)
    s, ev = apply(s, A.Roll(model="b2", attribute="COM"), P2)
    assert len(rolls(ev)[0]["dice"]) == 4
    s, ev = apply(s, A.Damage("b2", 3, ignore_protection=True), GM_ACTOR)
    assert "pain" in kinds(ev) and "stun_ignored" in kinds(ev) and not s.models["b2"].stunned
    s, ev = apply(s, A.Roll(model="b2", attribute="COM"), P2)
    assert len(rolls(ev)[0]["dice"]) == 3                    # −2 replaces −1


def test_E25_flamethrower_fear_and_flames_both_apply():
    s = game(squad("Test House", ("Test Mage", {"leader": True}), "Test Flamer"),
             squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute"), pack=tpack())
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    # Fear (−2) Morale: Brute MIN 3 − 2 = 1 die; Blast die; damage die; the Brute's Dex dodge (4 dice)
    script(s, 9, 5, 4, 2, 2, 2, 2)
    s, ev = apply(s, A.Shoot("a2", "b2", targets=("b2",)), P1)
    morale = rolls_of(ev, "roll_morale")[0]
    assert len(morale["dice"]) == 1
    dmg = [e.data for e in ev if e.kind == "damage"][0]
    assert dmg["amount"] == 6 and dmg["protection"] == 0 and dmg["lost"] == 6


def test_E26_same_ability_does_not_stack():
    s = game(squad("The Patricians", ("Noble", {"leader": True}), "Barnaboti"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}),
                   SquadMember("Ugdru-Rashaar", equipment=["Metal breastplate"]), campaign=True))
    v = ENGINE.view_for(s, P1)
    ug = [m for m in v["models"] if m["uid"] == "b2"][0]
    assert ug["attributes"]["PRO"] == 5           # Extra Protection (1) printed + item (3) → (3), PRO 2+3


def test_E28_they_sleep_underwater_heals_aces():
    s = game(squad("The Patricians", ("Noble", {"leader": True})),
             squad("The Rashaar", SquadMember("Magi-Rashaar", leader=True, spells=["They Sleep Underwater"]),
                   "Ugdru-Rashaar", "Hybrid"))
    s = start(s, P2)
    for uid in ("b2", "b3"):
        s, _ = apply(s, A.Damage(uid, 3, ignore_protection=True), GM_ACTOR)
    s, _ = apply(s, A.Activate("b1"), P2)
    script(s, 9, 9, 2, 2)                 # MIN 6 − 2 = 4 dice, 2 Aces
    s, ev = apply(s, A.Cast("b1", "They Sleep Underwater", targets=("b2", "b3")), P2)
    assert s.models["b2"].damage == 1 and s.models["b3"].damage == 1


def _mage_game(**kw):
    return game(squad("Test House", ("Test Mage", {"leader": True}), "Test Brute"),
                squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute"), pack=tpack(), **kw)


def test_E29_four_spells_in_a_round_cost_ten_karma():
    s = start(_mage_game(), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    paid = []
    for _ in range(4):
        script(s, 9, 9, 9, 9)
        s, ev = apply(s, A.Cast("a1", "Walk Between Worlds"), P1)
        paid += [e.data["karma_cost"] for e in ev if e.kind == "cast"]
    assert paid == [1, 2, 3, 4]
    assert s.models["a1"].karma == 12 - 10 and s.models["a1"].ap == 0


def test_failed_magic_roll_stops_casting_for_the_round():
    s = start(_mage_game(), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 2, 2, 2, 2)
    s, ev = apply(s, A.Cast("a1", "Walk Between Worlds"), P1)
    assert "cast_fail" in kinds(ev) and s.models["a1"].cast_locked
    with pytest.raises(IllegalAction, match=r"^cast_locked\b"):
        apply(s, A.Cast("a1", "Walk Between Worlds"), P1)


def test_E30_protection_spells_do_not_stack():
    s = start(_mage_game(), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    for _ in range(2):
        script(s, 9, 9, 9, 9, 9, 9, 9)   # MIN 6 + 1 = 7 dice
        s, _ = apply(s, A.Cast("a1", "Protection of the Eye", target="a2"), P1)
    s, ev = apply(s, A.Damage("a2", 5, spiritual=True), GM_ACTOR)
    assert [e.data["lost"] for e in ev if e.kind == "damage"] == [3]     # Universal Protection (2), not 4


def test_E31_durations_end_at_the_right_end_of_round():
    s = start(_mage_game(), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 9, 9, 2, 2, 2, 2, 2)       # Eye: 2 Aces → 2 rounds
    s, _ = apply(s, A.Cast("a1", "Protection of the Eye", target="a2"), P1)
    script(s, 9, 9, 9, 2, 2, 2)          # Blessing: 1 round
    s, _ = apply(s, A.Cast("a1", "Blessing", target="a1", attribute="COM"), P1)
    assert mechanics.attr(s.models["a1"], "COM") == 3
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert mechanics.attr(s.models["a1"], "COM") == 2
    assert any(e.name == "Protection of the Eye" for e in s.models["a2"].effects)
    s = start(s, P1)
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert not s.models["a2"].effects


def test_E32_naach_tith_against_a_mind_3_caster():
    s = game(squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute"),
             squad("Test House", ("Test Mage", {"leader": True}), "Test Brute"), pack=tpack())
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 9, 9, 9)                                    # the Dull Mage's Blessing: MIN 3
    s, ev = apply(s, A.Cast("a1", "Blessing", target="a2", attribute="COM"), P1)
    prompt = [p for p in ENGINE.pending(s) if p.id.startswith("annul-")][0]
    assert prompt.player == P2 and {o.id for o in prompt.options} == {"no", "b1"}
    script(s, 9, 9, 9)
    s, ev = apply(s, Choose(prompt.id, ("b1",)), P2)
    annul = [r for r in rolls_of(ev, "roll_magic") if r["what"]["spell"] == "Naach-Tith Annulment"][0]
    assert len(annul["dice"]) == 6 - 3
    assert s.models["b1"].karma == 12 - (1 + 1)         # what the opponent paid + 1
    assert "annulled" in kinds(ev) and not s.models["a2"].effects


def test_E33_spirit_bond_against_mind_3():
    s = start(_mage_game(), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, ev = apply(s, A.Cast("a1", "Spiritual Bond", target="b2"), P1)   # Test Brute MIN 3
    magic = rolls_of(ev, "roll_magic")[0]
    assert len(magic["dice"]) == 6 - 3


def test_E34_duplicate_improvement_rerolled_at_minus_one():
    m = campaign.CampaignMember(name="x", profile="Barnaboti", abilities=[{"name": "Swift"}])
    rng = Rng.from_seed(1)
    from .helpers import FixedRng
    rng = FixedRng(state=1, faces=[1])
    res = campaign.roll_improvement(rng, m, leader_table=False, first=9)
    assert res["faces"] == [9, 1] and said(res["result"]) == "nothing" and res["value"] == 0


def test_E35_rowing_table():
    assert tables.row_distance(result_from_dice([8, 9, 3], 7)) == 4
    assert tables.row_distance(result_from_dice([3, 2], 7)) == 2
    assert tables.row_distance(result_from_dice([10, 9, 9, 2], 7)) == 4 + 3
    assert tables.row_distance(result_from_dice([1, 2, 3], 7)) is None
    s = start(game(squad("Test House", ("Test Mage", {"leader": True})), squad("Test House", ("Dull Mage", {"leader": True})),
                   pack=tpack(), house_rules={"terrain": "es_ttcombat"}), P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 10, 9, 9, 2, 2)             # DEX 5: Critical with 3 Aces
    s, ev = apply(s, A.SpendAP("a1", "row"), P1)
    assert "7''" in said(ev[0])


def test_E36_gondola_rider_losing_three_LP_falls_in():
    s = game(squad("Test House", ("Test Mage", {"leader": True})), squad("Test House", ("Dull Mage", {"leader": True})),
             pack=tpack(), house_rules={"terrain": "es_ttcombat"})
    s, _ = apply(s, A.SetStatus("a1", "on_gondola"), P1)
    s, ev = apply(s, A.Damage("a1", 5), GM_ACTOR)
    assert "gondola_fall" in kinds(ev) and s.models["a1"].in_water and not s.models["a1"].on_gondola


def test_E37_sample_plague_doctor_sheet():
    p = load_sample_pack().profile("Plague Doctor")
    assert p["ap"] == 3 and p["cost"] == 45 and p["command"] == 4
    assert p["attributes"] == {"MOV": 4, "COM": 2, "DEX": 5, "SHO": 5, "MIN": 6, "PRO": 2}
    assert set(p["descriptors"]) == {"Human", "Leader", "Scientist", "Mage"}
    assert {a["name"] for a in p["universal_abilities"]} == {"Command", "Healing", "Cautious", "Mind Control", "Mage"}
    assert p["spell_discounts"] == {"Spiritual Bond": 10} and p["sample"] is True


def test_E20_E27_geometry_is_the_tables_call():
    """Line of sight (E20) and Fly onto a roof (E27) are judged on the table: the engine takes
    the outcome as action fields (cover, distance, in_water …) and has no hidden default."""
    f = A.Shoot("a1", "b1")
    assert f.cover_size == "" and f.distance == 0
