"""Universal abilities (digest §2.12) are data on the model ({name, x}); one test per ability."""

import pytest

import i18n
from i18n.present import Presenter

from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.carnevale import mechanics as M
from rules.carnevale.squad import SquadMember
from rules.common import IllegalAction

from .helpers import GM_ACTOR, P1, P2, apply, game, kinds, rolls, rolls_of, said, script, squad, start


def base(**kw):
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Butcher", "Pulcinella"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid", "Citizen of Venice"), **kw)
    return start(s, P1)


def give(s, uid, name, x=None, **extra):
    s.models[uid].abilities.append({"name": name, **({"x": x} if x is not None else {}), **extra})


def attack_pool(s, att, tgt, actor=P1, **kw):
    s, _ = apply(s, A.Activate(att), actor)
    s, ev = apply(s, A.Attack(att, tgt, **kw), actor)
    return s, ev, rolls_of(ev, "roll_combat")[0]


def test_ambidextrous_two_weapons_reroll_a_miss():
    s = base()
    s.models["a2"].weapons.append(s.models["a2"].weapons[0].__class__(name="Cleaver", kind="melee", damage=0))
    with pytest.raises(IllegalAction, match=r"^two_weapons\b"):
        apply(apply(s, A.Activate("a2"), P1)[0], A.Attack("a2", "b2", two_weapons=True), P1)
    give(s, "a2", "Ambidextrous")
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 8, 2, 9, 9, 9, 5)
    s, ev = apply(s, A.Attack("a2", "b2", two_weapons=True), P1)
    assert any(r["rerolled"][1] for r in rolls_of(ev, "roll_two_weapons"))
    # the reroll says what it is in the reader's language (it had no term: the log showed a raw key)
    reroll = next(e for e in ev if e.kind == "roll" and e.data["rerolled"][1])
    with i18n.watch() as notes:
        italian = Presenter("it", "carnevale").event(reroll)
    assert italian.startswith("Butcher: la seconda arma ritira un dado mancato — ")
    assert [n for n in notes if n.fallback] == []


def test_berserk_after_the_last_threshold():
    s = base()
    s, _ = apply(s, A.Damage("a2", 8, ignore_protection=True), GM_ACTOR)     # Butcher past −2 (index 7)
    assert M.attr(s.models["a2"], "COM") == 5 + 3 and M.pain_penalty(s.models["a2"]) == 0


def test_brave_uses_unmodified_mind():
    s = base()
    s.models["a1"].stunned = True
    give(s, "a1", "Brave")
    s, ev = apply(s, A.Morale(("a1",)), P1)
    assert len(rolls(ev)[0]["dice"]) == 5


def test_reckless_doubles_mind_for_single_morale():
    s = base()
    give(s, "a3", "Reckless")
    s.models["a3"].stunned = True
    s, ev = apply(s, A.Morale(("a3",)), P1)
    assert len(rolls(ev)[0]["dice"]) == 6


def test_cautious_counts_one_cover_level_better():
    s = base()
    give(s, "b2", "Cautious")
    s, _ = apply(s, A.Activate("a1"), P1)                  # Capodecime, pistol, SHO 4
    s, ev = apply(s, A.Shoot("a1", "b2", cover_size="medium", cover_hardness="light"), P1)
    assert "−3 cover" in said(rolls(ev)[0]["pool"]) and len(rolls(ev)[0]["dice"]) == 1


def test_companion_adds_dice():
    s = base()
    give(s, "a2", "Companion", 2, target="Pulcinella")
    s, ev, r = attack_pool(s, "a2", "b2", companion=True)
    assert len(r["dice"]) == 5 + 2


def test_defensive_combat_raises_dex_for_the_turn():
    s = base()
    give(s, "a3", "Defensive Combat", 2)
    s, _ = apply(s, A.SpendKarma("a3", 2, "defensive"), P1)
    assert M.attr(s.models["a3"], "DEX", s) == 8
    with pytest.raises(IllegalAction, match=r"^defensive_max\b"):
        apply(s, A.SpendKarma("a3", 1, "defensive"), P1)


def test_elusive_and_slippery_and_engage_when_disengaging():
    s = base()
    s, _ = apply(s, A.Activate("a3"), P1)
    give(s, "a3", "Slippery")
    s, ev = apply(s, A.Disengage("a3", ("b2",)), P1)
    assert "disengaged" in kinds(ev) and not s.sub
    s = base()
    s, _ = apply(s, A.Activate("a3"), P1)
    give(s, "b2", "Engage")
    script(s, 2, 2, 2, 2, 2, 2, 9, 9, 9, 9, 9)
    s, ev = apply(s, A.Disengage("a3", ("b2",)), P1)
    assert "blocked" in kinds(ev)
    s = base()
    s, _ = apply(s, A.Activate("a3"), P1)
    give(s, "a3", "Elusive")
    script(s, 9, 9, 9, 9, 9, 9, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.Disengage("a3", ("b2",)), P1)
    assert "elusive" in kinds(ev) and "disengaged" in kinds(ev)


def test_disengage_reactions_by_prompt():
    from rules.common import Choose
    s = base()
    s, _ = apply(s, A.Activate("a3"), P1)
    s, _ = apply(s, A.Disengage("a3", ("b2", "b3")), P1)
    p = ENGINE.pending(s)[0]
    assert p.player == P2 and {o.id for o in p.options} == {"aoo", "block", "none"}
    s, ev = apply(s, Choose(p.id, ("aoo",)), P2)
    assert "opportunity_attack" in kinds(ev)
    p = ENGINE.pending(s)[0]
    s, ev = apply(s, Choose(p.id, ("none",)), P2)
    assert "disengaged" in kinds(ev) and ENGINE.pending(s)[0].id.startswith("do-")


def test_erratic_movement_counts_as_cover():
    s = base()
    give(s, "b2", "Erratic Movement", 2)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, ev = apply(s, A.Shoot("a1", "b2"), P1)
    assert "−2 cover" in said(rolls(ev)[0]["pool"]) and len(rolls(ev)[0]["dice"]) == 2


@pytest.mark.parametrize("name,x", [("Ethereal", 1), ("Incorporeal", 3), ("Spiritual Protection", 2)])
def test_spiritual_protection_sources(name, x):
    s = base()
    give(s, "b2", name, x if name == "Spiritual Protection" else None)
    s, ev = apply(s, A.Damage("b2", 4, spiritual=True), GM_ACTOR)
    assert [e.data["lost"] for e in ev if e.kind == "damage"] == [4 - x]


def test_expert_marksman_aims_with_karma():
    s = base()
    with pytest.raises(IllegalAction, match=r"^not_marksman\b"):
        apply(s, A.SpendKarma("a1", 1, "aim"), P1)
    give(s, "a1", "Expert Marksman")
    s, _ = apply(s, A.Activate("a1"), P1)
    s, _ = apply(s, A.SpendKarma("a1", 2, "aim"), P1)
    s, ev = apply(s, A.Shoot("a1", "b2", aim=2, cover_size="big", cover_hardness="light"), P1)
    assert s.models["a1"].ap == 3 - 1 and len(rolls(ev)[0]["dice"]) == 4 - 3 + 2


def test_fascination_and_mindless():
    s = base()
    give(s, "b2", "Fascination", 2)
    s, ev, r = attack_pool(s, "a2", "b2")
    assert len(r["dice"]) == 5 - 2
    s = base()
    give(s, "b2", "Fascination", 2)
    give(s, "a2", "Mindless")
    s, ev, r = attack_pool(s, "a2", "b2")
    assert len(r["dice"]) == 5


def test_fear_makes_the_target_test_and_mindless_ignores_it():
    s = base()
    give(s, "a2", "Fear", -1)
    s, ev, r = attack_pool(s, "a2", "b2")
    morale = rolls_of(ev, "roll_morale")[0]
    assert len(morale["dice"]) == 3 - 1 and morale["model"] == "b2"
    s = base()
    give(s, "a2", "Fear", -1)
    give(s, "b2", "Mindless")
    s, ev, r = attack_pool(s, "a2", "b2")
    assert not rolls_of(ev, "roll_morale")


def test_fireproof_and_flames():
    s = base()
    give(s, "b2", "Fireproof", 2)
    s, ev = apply(s, A.Damage("b2", 5, flames=True), GM_ACTOR)
    assert [e.data["lost"] for e in ev if e.kind == "damage"] == [3]


def test_first_strike_only_the_first_attack_each_round():
    s = base()
    give(s, "a2", "First Strike", 2)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert len(rolls(ev)[0]["dice"]) == 7
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert len(rolls_of(ev, "roll_combat")[0]["dice"]) == 5


def test_grow_through_adversity():
    s = base()
    give(s, "a2", "Grow Through Adversity")
    s, ev, r = attack_pool(s, "a2", "b2", enemies=1)
    assert len(r["dice"]) == 5 + 1
    s = base()
    give(s, "a2", "Grow Through Adversity")
    s, ev, r = attack_pool(s, "a2", "b2", enemies=2)
    assert len(r["dice"]) == 5 + 2


def test_healing_and_first_aid_kit_and_regeneration():
    s = game(squad("Doctors of the Ospedale", ("Plague Doctor", {"leader": True}),
                   SquadMember("Nurse", equipment=["First-aid kit"]), "Warden"),
             squad("The Guild", ("Capodecime", {"leader": True})))
    s = start(s, P1)
    s, _ = apply(s, A.Damage("a3", 3, ignore_protection=True), GM_ACTOR)
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 2)
    s, ev = apply(s, A.Heal("a3", healer="a2"), P1)
    assert len(rolls(ev)[0]["dice"]) == 3 and s.models["a3"].damage == 1 and s.models["a2"].ap == 1
    with pytest.raises(IllegalAction, match=r"^no_regeneration\b"):
        apply(s, A.Heal("a2", healer="a2"), P1)
    s, _ = apply(s, A.EndActivation("a2"), P1)


def test_healing_critical_and_fumble():
    s = game(squad("Doctors of the Ospedale", ("Plague Doctor", {"leader": True}), "Warden"),
             squad("The Guild", ("Capodecime", {"leader": True})))
    s = start(s, P1)
    s, _ = apply(s, A.Damage("a2", 4, ignore_protection=True), GM_ACTOR)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 1, 2, 2)
    s, ev = apply(s, A.Heal("a2", healer="a1"), P1)
    assert s.models["a2"].damage == 5                       # Fumble: the target loses 1 LP
    give(s, "a1", "Regeneration", 2)


def test_heavy_armor_and_heavy_weapon():
    s = base()
    give(s, "a3", "Heavy Armor", -2)
    s, ev = apply(s, A.Roll(model="a3", attribute="DEX"), P1)
    assert len(rolls(ev)[0]["dice"]) == 6 - 2
    s = base()
    s.models["a2"].weapons[0].abilities.append({"name": "Heavy Weapon", "x": -1})
    s, ev, r = attack_pool(s, "a2", "b2")
    assert len(r["dice"]) == 5 - 1


def test_high_jump_rolls_for_extra_inches():
    s = base()
    s, _ = apply(s, A.Activate("a3"), P1)                   # the Pulcinella has High Jump
    script(s, 9, 9, 2, 2, 2, 2)
    s, ev = apply(s, A.SpendAP("a3", "jump"), P1)
    assert ev[0].data["inches"] == 3 + 2


def test_infiltration_rolls_two_dice_for_reinforcements():
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Pulcinella", "Harlot"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid"), deploy_all=False)
    s, _ = apply(s, A.Deploy(P1, ("a1", "a2")), P1)
    s, _ = apply(s, A.Deploy(P2, ("b1", "b2")), P2)
    s = start(s, P1)
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    s = start(s, P1)
    give(s, "a3", "Infiltration")
    script(s, 3, 9)
    s, ev = apply(s, A.Reinforce("a3", "sneak"), P1)
    assert s.models["a3"].on_table and ev[0].data["rolls"] == [3, 9]


def test_life_drain_and_vampiric_attack_and_mighty_blow():
    s = base()
    s, _ = apply(s, A.Damage("a2", 3, ignore_protection=True), GM_ACTOR)
    give(s, "a2", "Life Drain")
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 2, 2, 2)                                 # 2 Aces + axe 1 + Mighty Blow 1 − PRO 2, Pen 1
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    lost = [e.data["lost"] for e in ev if e.kind == "damage"][0]
    assert lost == 2 + 1 + 1 - (2 - 1) and s.models["a2"].damage == 0
    s = base()
    s, _ = apply(s, A.Damage("a2", 3, ignore_protection=True), GM_ACTOR)
    give(s, "a2", "Vampiric Attack", 1)
    s.models["b2"].descriptors.append("Undead")
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 2, 2, 2)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert s.models["a2"].damage == 3                      # not against the Undead


def test_long_reach_and_penetration_from_weapon_data():
    from rules.carnevale import load_sample_pack
    w = load_sample_pack().weapons
    assert {"name": "Long Reach", "x": 2} in w["Halberd"]["abilities"]
    assert {"name": "Penetration", "x": 1} in w["Axe"]["abilities"]


def test_mind_control_controller_tests_when_a_mindless_falls():
    s = game(squad("Doctors of the Ospedale", ("Plague Doctor", {"leader": True}), "Madman of the Ospedale"),
             squad("The Guild", ("Capodecime", {"leader": True})))
    s = start(s, P1)
    script(s, 2, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.Damage("a2", 30, ignore_protection=True), GM_ACTOR)
    assert rolls_of(ev, "roll_mind_control") and s.models["a1"].stunned


def test_rickety_lowers_protection():
    s = base()
    give(s, "b2", "Rickety", 1)
    s, ev = apply(s, A.Damage("b2", 3), GM_ACTOR)
    assert [e.data["protection"] for e in ev if e.kind == "damage"] == [1]


def test_reroll_dice_on_a_free_roll():
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "The Duke"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True})))
    s = start(s, P1)
    script(s, 8, 2, 3, 9)
    s, _ = apply(s, A.Roll(pool=4, difficulty=7), P1)
    s, ev = apply(s, A.Reroll("a2", "dice", 2), P1)
    assert rolls(ev)[0]["rerolled"] == [False, True, True, False] and s.models["a2"].karma == 3
    with pytest.raises(IllegalAction, match=r"^once_per_roll\b"):
        apply(s, A.Reroll("a2", "dice", 1), P1)
    with pytest.raises(IllegalAction, match=r"^no_reroll_all\b"):
        apply(s, A.Reroll("a2", "all"), P1)


def test_savage_gains_d5_ap():
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "The Aberration"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True})))
    s = start(s, P1)
    s, _ = apply(s, A.Damage("a2", 9, ignore_protection=True), GM_ACTOR)   # past the −2 group (index 8)
    script(s, 7)
    s, ev = apply(s, A.Activate("a2"), P1)
    assert "savage" in kinds(ev) and s.models["a2"].ap == 3 + 4


def test_slow_activates_last():
    s = base()
    give(s, "a2", "Slow")
    with pytest.raises(IllegalAction, match="slow"):
        apply(s, A.Activate("a2"), P1)


def test_sniper_against_unactivated_targets():
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "White Dove"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.Shoot("a2", "b2"), P1)
    assert len(rolls(ev)[0]["dice"]) == 5 + 1


def test_spiritual_damage_power_and_spiritual_spill():
    s = base()
    give(s, "a2", "Spiritual Damage")
    give(s, "b2", "Spiritual Spill", 1)
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 2, 2, 2, 2)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    dmg = [e.data for e in ev if e.kind == "damage"]
    assert dmg[0]["protection"] == 0 and dmg[0]["lost"] == 1 + 1 + 1
    assert dmg[1]["model"] if "model" in dmg[1] else True
    assert s.models["a2"].damage == 1


def test_stun_ability_on_club():
    s = game(squad("Doctors of the Ospedale", ("Plague Doctor", {"leader": True}), "Warden"),
             squad("The Guild", ("Capodecime", {"leader": True}), "Harlot"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 9, 9)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert any(e.kind == "stun" and e.data["source"] == "Stun ability" for e in ev)


def test_swift_and_sworn_enemy():
    s = base()
    with pytest.raises(IllegalAction, match=r"^not_swift\b"):
        apply(s, A.SpendKarma("a3", 1, "swift"), P1)
    give(s, "a3", "Swift")
    s, ev = apply(s, A.SpendKarma("a3", 1, "swift"), P1)
    assert "12''" in said(ev[0])
    s = base()
    give(s, "a2", "Sworn Enemy", 2, target="Rashaar")
    s, ev, r = attack_pool(s, "a2", "b2")
    assert len(r["dice"]) == 5 + 2


def test_water_creature_drowns_for_one_ap_with_two_dice_and_cannot_drown():
    s2 = base()
    give(s2, "b2", "Water Creature")
    for uid, pid in (("a3", P1), ("b2", P2)):
        s2, _ = apply(s2, A.SetStatus(uid, "in_water"), pid)
    s2, _ = apply(s2, A.Activate("a3"), P1)
    s2, _ = apply(s2, A.EndActivation("a3"), P1)
    s2, _ = apply(s2, A.Activate("b2"), P2)
    s2, ev = apply(s2, A.Attack("b2", "a3", manoeuvre="drown"), P2)
    assert s2.models["b2"].ap == 2 and len(rolls(ev)[0]["dice"]) == 4 + 2
    ev = M.hold_breath(s2, s2.models["b2"])
    assert "cannot drown" in said(ev[0])


def test_trifling_gives_no_vp():
    s = base()
    s, _ = apply(s, A.Damage("b3", 30, ignore_protection=True, attacker="a2"), P1)
    s.max_rounds = 1
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert s.result["vp"][P1]["kills"] == 0


def test_petrify_and_low_blow_and_push():
    s = base()
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 9, 2, 2)
    s, ev = apply(s, A.Attack("a2", "b2", manoeuvre="low_blow"), P1)
    assert s.models["b2"].damage == 1 and s.models["b2"].stunned and s.models["a2"].ap == 1
    s = base()
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 9, 2, 2)
    s, ev = apply(s, A.Attack("a2", "b2", manoeuvre="push"), P1)
    assert [e.data["inches"] for e in ev if e.kind == "push"] == [3] and s.models["b2"].damage == 0
    with pytest.raises(IllegalAction, match=r"^charge_run_up\b"):
        apply(s, A.Attack("a2", "b2", manoeuvre="charge"), P1)


def test_round_house_stops_at_the_first_failure():
    s = base()
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 9, 9, 9, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.Attack("a2", "b2", manoeuvre="round_house", targets=("b2", "b1", "b3")), P1)
    assert "round_house_stop" in kinds(ev) and s.models["b3"].damage == 0


def test_spiritual_bond_takes_a_model_and_can_be_fought_off():
    from .test_examples import tpack
    s = game(squad("Test House", ("Test Mage", {"leader": True}), "Test Brute"),
             squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute"), pack=tpack())
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 9, 9, 9)                                     # MIN 6 − target MIN 3
    s, ev = apply(s, A.Cast("a1", "Spiritual Bond", target="b2"), P1)
    assert s.models["b2"].owner == P1
    with pytest.raises(IllegalAction, match=r"^bond_walk_only\b"):
        apply(s, A.Cast("a1", "Blessing", target="a2", attribute="COM"), P1)
    s, _ = apply(s, A.EndActivation("a1"), P1)
    s, _ = apply(s, A.Activate("b1"), P2)
    s, _ = apply(s, A.EndActivation("b1"), P2)
    s, _ = apply(s, A.Activate("b2"), P1)                  # the bound Brute now activates for P1
    script(s, 2, 2, 2)
    karma = s.models["a1"].karma
    s, ev = apply(s, A.BondRoll("b2"), P2)                 # its owner fights back: the roll fails
    assert "bond_end" in kinds(ev) and s.models["b2"].owner == P2 and s.models["b2"].stunned
    assert s.models["a1"].karma == karma - 1 and s.models["b2"].karma == 1


def test_gondola_rider_rolls_dex_before_acting_en_rules():
    s = base()
    s, _ = apply(s, A.SetStatus("a3", "on_gondola"), P1)
    s, _ = apply(s, A.Activate("a3"), P1)
    script(s, 1, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.SpendAP("a3", "walk"), P1)
    assert "gondola_fall" in kinds(ev) and s.models["a3"].in_water


def test_multiple_shot_night_vision_and_ointment():
    s = base()
    pistol = s.models["a1"].weapons[1]
    pistol.abilities.append({"name": "Multiple Shot", "x": 2})
    pistol.shots_left = 2
    s, _ = apply(s, A.Activate("a1"), P1)
    s, _ = apply(s, A.Shoot("a1", "b2"), P1)
    assert s.models["a1"].weapons[1].loaded
    s, _ = apply(s, A.Shoot("a1", "b2"), P1)
    assert not s.models["a1"].weapons[1].loaded
    s = base()
    s.models["a1"].in_darkness = True
    s, _ = apply(s, A.Activate("a1"), P1)
    with pytest.raises(IllegalAction, match=r"^beyond_range\b.*range=4"):
        apply(s, A.Shoot("a1", "b2", distance=9), P1)     # pistol 8'' halved in darkness
    give(s, "a1", "Night Vision")
    apply(s, A.Shoot("a1", "b2", distance=9), P1)
    from rules.carnevale import load_sample_pack
    from rules.carnevale.squad import make_model
    m = make_model(load_sample_pack(), SquadMember("Butcher", equipment=["Venom"]), "1", "x1")
    assert {"name": "Penetration", "x": 2} in m.weapons[0].abilities


def test_es_water_counts_as_cover_for_shooting():
    s = base(house_rules={"terrain": "es_ttcombat"})
    s, _ = apply(s, A.SetStatus("b2", "in_water"), P2)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, ev = apply(s, A.Shoot("a1", "b2"), P1)
    assert "−2 cover" in said(rolls(ev)[0]["pool"])


def test_fixed_first_player_and_adventure_length():
    s = game(squad("The Guild", ("Capodecime", {"leader": True})), squad("The Rashaar", ("Magi-Rashaar", {"leader": True})),
             adventure="nighttime_ambush", first_player_every_round=P2)
    assert s.max_rounds == 10 and s.phase == "activation" and s.turn_player == P2
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert s.turn_player == P2 and s.round == 2


def test_multiple_targets_split_the_damage():
    s = base()
    give(s, "a1", "Multiple Targets", 2)
    s, _ = apply(s, A.Activate("a1"), P1)
    with pytest.raises(IllegalAction, match=r"^too_many_targets\b"):
        apply(s, A.Shoot("a1", "b2", targets=("b2", "b1", "b3")), P1)
    script(s, 9, 9, 9, 2)                                   # 3 Aces + pistol 2 = 5
    s, ev = apply(s, A.Shoot("a1", "b2", targets=("b2", "b3"), split=(4, 1)), P1)
    assert rolls(ev)[0]["difficulty"] == 7
    assert [e.data["amount"] for e in ev if e.kind == "damage"] == [4, 1]


def test_fragment_pick_up_steal_and_bearer_penalty():
    s = base()
    s, _ = apply(s, A.Activate("a3"), P1)
    s, _ = apply(s, A.SpendAP("a3", "pick_up_fragment"), P1)
    s, ev = apply(s, A.Roll(model="a3", attribute="DEX"), P1)
    assert len(rolls(ev)[0]["dice"]) == 6 - 1
    s, _ = apply(s, A.EndActivation("a3"), P1)
    s, _ = apply(s, A.Activate("b2"), P2)
    script(s, 9, 2, 2, 2, 2,  9, 2, 2, 2, 2)               # a tie: the bearer keeps it
    s, ev = apply(s, A.StealFragment("b2", "a3"), P2)
    assert s.models["a3"].carrying == "fragment"


def test_fountains_of_life_vials_and_drying():
    s = game(squad("The Guild", ("Capodecime", {"leader": True})), squad("The Rashaar", ("Magi-Rashaar", {"leader": True})),
             adventure="fountains_of_life")
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, _ = apply(s, A.SpendAP("a1", "fill_vial"), P1)
    assert s.fountains == 3 and s.players[P1].vials == 1
    script(s, 1, 5, 5)
    s, ev = apply(s, A.EndRound(), GM_ACTOR)
    assert s.fountains == 2


def test_reroll_window_after_a_close_combat_roll():
    from rules.common import Choose
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "The Duke"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)                  # the Duke: Reroll Dice (2), COM 6
    script(s, 8, 2, 3, 9, 4, 5)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert "reroll_window" in kinds(ev) and "damage" not in kinds(ev)
    p = ENGINE.pending(s)[0]
    assert p.player == P1 and {o.id for o in p.options} == {"keep", "dice"}
    with pytest.raises(IllegalAction, match="pending"):
        apply(s, A.EndActivation("a2"), P1)
    script(s, 9, 9)
    s, ev = apply(s, Choose(p.id, ("dice",)), P1)
    r = rolls(ev)[0]
    assert r["rerolled"] == [False, True, True, False, False, False] and r["aces"] == 5   # DEX 5: 8, 9, 9, 9, 5
    assert [e.data["amount"] for e in ev if e.kind == "damage"] == [5]
    assert s.models["a2"].karma == 3 and ENGINE.pending(s)[0].id.startswith("do-")
    # a Destiny 1 forbids it: no window
    s, _ = apply(s, A.SpendAP("a2", "walk"), P1)
    script(s, 1, 2, 3, 9, 4, 5)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert "reroll_window" not in kinds(ev)


def test_bodyguard_takes_the_blow_with_its_own_protection():
    from rules.common import Choose
    s = base()
    give(s, "b2", "Bodyguard")
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 9, 2, 2)
    s, ev = apply(s, A.Attack("a2", "b1"), P1)
    p = ENGINE.pending(s)[0]
    assert p.player == P2 and [o.id for o in p.options] == ["no", "b2"]
    s, ev = apply(s, Choose(p.id, ("b2",)), P2)
    assert [e.data["model"] for e in ev if e.kind == "damage"] == ["b2"] and s.models["b1"].damage == 0


def test_limited_movement_and_short_weapon_while_climbing():
    s = base()
    give(s, "a2", "Limited Movement", target="Run")
    s, _ = apply(s, A.Activate("a2"), P1)
    with pytest.raises(IllegalAction, match=r"^limited_movement\b"):
        apply(s, A.SpendAP("a2", "run"), P1)
    with pytest.raises(IllegalAction, match=r"^limited_movement\b"):
        apply(s, A.SpendAP("a2", "climb"), P1)
    apply(s, A.SpendAP("a2", "walk"), P1)
    s = game(squad("The Patricians", ("Noble", {"leader": True}), "Venice City Guard"),
             squad("The Guild", ("Capodecime", {"leader": True})))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    with pytest.raises(IllegalAction, match=r"^climb_short_weapon\b"):
        apply(s, A.Shoot("a2", "b1", moving="climb"), P1)
    s, _ = apply(s, A.EndActivation("a2"), P1)
    s, _ = apply(s, A.Activate("b1"), P2)
    s, _ = apply(s, A.EndActivation("b1"), P2)
    s, _ = apply(s, A.Activate("a1"), P1)
    apply(s, A.Shoot("a1", "b1", moving="climb"), P1)      # the pistol is a Short Weapon


def test_partners_activate_together_and_share_ap():
    s = base()
    give(s, "a2", "Partners", target="Pulcinella")
    with pytest.raises(IllegalAction, match=r"^not_partner\b"):
        apply(s, A.Activate("a2", partner="a1"), P1)
    s, ev = apply(s, A.Activate("a2", partner="a3"), P1)
    assert s.models["a2"].ap == 6 and s.models["a3"].ap == 0
    s, _ = apply(s, A.SpendAP("a3", "walk"), P1)             # the partner spends from the shared pool
    s, _ = apply(s, A.SpendAP("a3", "run"), P1)
    assert s.models["a2"].ap == 4 and s.models["a3"].ap == 0
    s, _ = apply(s, A.EndActivation("a3"), P1)
    assert s.models["a2"].activated and s.models["a3"].activated and s.active == "" and s.turn_player == P2


def test_a_bonding_caster_that_does_more_than_walk_breaks_the_bond():
    from .test_examples import tpack
    s = game(squad("Test House", ("Test Mage", {"leader": True}), "Test Brute"),
             squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute"), pack=tpack())
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 9, 9, 9)
    s, _ = apply(s, A.Cast("a1", "Spiritual Bond", target="b2"), P1)
    s, ev = apply(s, A.SpendAP("a1", "walk"), P1)
    assert s.models["b2"].owner == P1
    s, ev = apply(s, A.SpendAP("a1", "jump"), P1)
    assert "bond_end" in kinds(ev) and s.models["b2"].owner == P2


def test_reroll_window_after_a_shot():
    from rules.common import Choose
    s = base()
    give(s, "a1", "Reroll All Dice")
    s, _ = apply(s, A.Activate("a1"), P1)                   # pistol, SHO 4
    script(s, 3, 2, 2, 2)
    s, ev = apply(s, A.Shoot("a1", "b2"), P1)
    assert "reroll_window" in kinds(ev)
    p = ENGINE.pending(s)[0]
    assert {o.id for o in p.options} == {"keep", "all"}
    script(s, 9, 9, 2, 2)
    s, ev = apply(s, Choose(p.id, ("all",)), P1)
    assert rolls(ev)[0]["rerolled"] == [True] * 4
    assert [e.data["amount"] for e in ev if e.kind == "damage"] == [2 + 2]


def test_an_opponent_forces_a_reroll_of_the_aces():
    from rules.common import Choose
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Butcher"),
             squad("The Guild", ("Capodecime", {"leader": True}), "The Duke"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)                  # Butcher COM 5 against the Duke (DEX 6)
    script(s, 5, 9, 8, 2, 3)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    p = ENGINE.pending(s)[0]
    assert p.player == P2 and [o.id for o in p.options] == ["keep", "dice:b2"]
    script(s, 2, 3)
    s, ev = apply(s, Choose(p.id, ("dice:b2",)), P2)
    r = rolls(ev)[0]
    assert r["dice"] == [5, 2, 3, 2, 3] and r["rerolled"] == [False, True, True, False, False] and r["aces"] == 0
    assert s.models["b2"].karma == 3 and "damage" not in kinds(ev)
