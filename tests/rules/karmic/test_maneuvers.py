"""Every maneuver of digest §3 through the engine: legality, arithmetic and effects."""
import pytest

from i18n.present import Presenter

from rules.common import GM, Actor, IllegalAction
from rules.karmic import ENGINE
from rules.karmic.actions import Ruling
from rules.karmic.tables import MANEUVERS, WRESTLING

from .helpers import GM_ACTOR, answer, declare, fight, outcomes, stand_all, said
from tests.rules.karmic.helpers import why_said


def sw(name, skill=3, might=0, fin=0, **extra):
    d = {"name": name, "attributes": {"might": might, "finesse": fin}, "skills": {"sword": skill, "dagger": skill},
         "weapons": [{"name": "Sword", "skill": "sword", "range": 1, "force": 1, "max_maneuvers": 3, "edge": 1,
                      "max_damage": 4},
                     {"name": "Dagger", "skill": "dagger", "range": 0, "force": 1, "max_maneuvers": 3, "edge": 0,
                      "max_damage": 3}],
         "wielding": ["Sword"]}
    d.update(extra)
    return d


def br(name, skill=3, might=0, fin=0, **extra):
    d = {"name": name, "attributes": {"might": might, "finesse": fin}, "skills": {"brawling": skill}}
    d.update(extra)
    return d


def duel(a, b, a_hand, b_hand, a_init=True, **opts):
    stack = {"c1": ["10S" if a_init else "10H"] + a_hand, "c2": ["10H" if a_init else "10S"] + b_hand}
    return fight(a, b, stack=stack, b_player="u2", **opts)


def run(state, *steps):
    """steps: (maneuver, card, kwargs) for whoever must declare; then stand on every hit card."""
    events = []
    for step in steps:
        man, card, kw = (step + ({},))[:3] if len(step) < 3 else step
        state, ev = declare(state, man, card, **kw)
        events += ev
    return stand_all(state, events)


# --- armed basic ------------------------------------------------------------------------------------------
def test_attack_hits_for_card_plus_might_plus_edge_capped_by_max_damage():
    state, _ = duel(sw("A", might=0), sw("B", skill=2), ["9S", "2S", "3S"], ["2H", "3H"])
    state, ev = run(state, ("atk", "9S"), ("par", "2H"), ("stop", ""))
    o = outcomes(ev)[0]
    assert (o["mt"], o["defense_mt"], o["total"], o["success"]) == (10, -1, 10, True)
    assert o["damage"] == 4 and state.characters["c2"].hp_marked == 4      # 9 + 0 + 1 = 10, max 4


def test_attack_without_stepping_forward_is_minus_2_and_opens_the_range():
    state, _ = duel(sw("A"), sw("B"), ["5S", "2S", "3S"], ["2S", "3H", "4H"])
    state, ev = run(state, ("atk", "5S", {"nostep": True}), ("par", "2S"), ("stop", ""))
    o = outcomes(ev)[0]
    assert (o["mt"], o["defense_mt"], o["total"]) == (4, 3, 1)
    assert [e for e in ev if e.kind == "resolve"][0].data["ranges"][0][2] == 2


def test_melee_dodge_no_force_minus_2_once_per_round_and_free_of_the_cap():
    state, _ = duel(sw("A"), sw("B"), ["5S", "6S", "3S"], ["5S", "3H", "4H"])
    state, ev = declare(state, "atk", "5S")
    state, ev = declare(state, "mdg", "5S")
    assert state.combat.fighters["c2"].counted == 0 and state.combat.fighters["c2"].dodged
    state, ev = declare(state, "atk", "6S")
    assert why_said(state, "c2", "mdg", 0, "defense", 0) == "Melee Dodge can be used only once per round."
    state, ev = declare(state, "pass")
    state, ev = run(state, ("stop", ""))
    o = outcomes(ev)[0]
    assert (o["mt"], o["defense_mt"], o["total"]) == (6, 3, 3)


def test_shield_block_and_shield_bash():
    mara = {"name": "Mara", "skills": {"ax": 3, "shield": 3},
            "weapons": [{"name": "Axe", "skill": "ax", "range": 0, "max_maneuvers": 2, "edge": 2, "max_damage": 5},
                        {"name": "Buckler", "skill": "shield", "range": 0, "max_maneuvers": 2, "shield": True,
                         "small_shield": True}], "wielding": ["Axe", "Buckler"]}
    foe = sw("B", wielding=["Dagger"])
    state, _ = duel(foe, mara, ["4S", "3S", "2S"], ["5S", "9S", "8S"], range=0)
    state, ev = run(state, ("atk", "4S", {"weapon": "Dagger"}), ("blk", "5S"), ("stop", ""))
    o = outcomes(ev)[0]
    assert (o["mt"], o["defense_mt"], o["total"], o["success"]) == (5, 5, 0, False)
    # Mara's turn with the initiative: a shield bash does at most 1, to the head
    state, _ = duel(mara, foe, ["9S", "8S", "7S"], ["AH", "2H", "3H"], range=0)
    state, ev = run(state, ("sbash", "9S"), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["success"] and o["damage"] == 1


def test_joker_in_combat_is_ruled_by_the_gm_and_does_max_damage():
    state, _ = duel(sw("A"), sw("B"), ["JK1", "2S", "3S"], ["2H", "3H", "4H"])
    state, ev = run(state, ("atk", "JK1"), ("par", "2H"), ("stop", ""))
    p = ENGINE.pending(state)[0]
    assert p.player == GM and p.kind == "combat_joker"
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, Ruling("success"), Actor("u1"))
    out = ENGINE.apply(state, Ruling("success"), GM_ACTOR)
    o = outcomes(out.events)[0]
    assert o["success"] and o["damage"] == 4


# --- armed complex ------------------------------------------------------------------------------------------
def test_offensive_disengage_ends_combat():
    state, _ = duel(sw("A"), sw("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"])
    state, ev = run(state, ("odis", "9S"), ("par", "2H"))
    o = outcomes(ev)[0]
    assert (o["mt"], o["defense_mt"], o["success"]) == (9 + 1 - 4, -1, True)
    assert state.over and not state.combat.engagements[0].live


def test_parry_seize_the_initiative():
    state, _ = duel(sw("A"), sw("B"), ["2S", "3S", "4S"], ["9S", "3H", "4H"])
    state, ev = run(state, ("atk", "2S"), ("pars", "9S"))
    o = outcomes(ev)[0]
    assert (o["mt"], o["defense_mt"], o["total"], o["success"]) == (3, 7, -4, False)
    assert state.combat.engagements[0].init == "c2"
    assert state.combat.turn.who == "c2" and state.combat.reg == 2     # plays the rest of his hand first
    assert why_said(state, "c1", "atk", 0, "attack", -1) == "Attack needs the initiative."


def test_disarming_attack_may_always_be_defended():
    state, _ = duel(sw("A"), sw("B", skill=3), ["9S", "8S", "7S"], ["2S", "3S", "4S"])
    state.combat.fighters["c2"].counted = 3
    state.combat.fighters["c2"].used = {0: 3}
    state, ev = declare(state, "darm", "9S")
    assert why_said(state, "c2", "par", 0, "defense", 0) is None      # whatever his maneuver count


def test_lunge_reach_plus_one_might_plus_2_and_max_damage_plus_1():
    state, _ = duel(sw("A", wielding=["Dagger"]), sw("B"), ["5S", "2S", "3S"], ["2H", "3H", "4H"])
    assert state.combat.engagements[0].range == 1
    assert "reach 0" in why_said(state, "c1", "atk", 1, "attack", -1)
    state, ev = run(state, ("lng", "5S", {"weapon": "Dagger"}), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 5 + 1 - 2 and o["unopposed"] and o["damage"] == 4     # 5+2+0 = 7, max 3+1


def test_close_retreat_and_push_move_the_range():
    state, _ = duel(sw("A"), sw("B"), ["9S", "8S", "7S"], ["2H", "3H", "4H"])
    assert "longest weapon" in why_said(state, "c1", "ret", 0, "attack", -1)
    state, ev = run(state, ("cls", "9S"), ("pass", ""))
    assert state.combat.engagements[0].range == 0
    assert why_said(state, "c1", "cls", 0, "attack", -1).startswith("You are already at close range")
    state, ev = run(state, ("psh", "8S"), ("pass", ""))
    assert state.combat.engagements[0].range == 1
    spear = {"name": "S", "skills": {"spear": 3},
             "weapons": [{"name": "Spear", "skill": "spear", "range": 2, "max_maneuvers": 3}], "wielding": ["Spear"]}
    state, _ = duel(sw("A"), spear, ["9S", "8S", "7S"], ["2H", "3H", "4H"], range=1)
    state, ev = run(state, ("ret", "9S"), ("pass", ""))
    assert state.combat.engagements[0].range == 2


def test_called_shot_to_the_head():
    state, _ = duel(sw("A"), sw("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"])
    state, ev = run(state, ("atk", "9S", {"location": "head"}), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 9 + 1 - 5 and o["damage"] == 5         # house rule: head +1 max damage


def test_called_shot_through_prompts():
    state, _ = duel(sw("A"), sw("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"])
    state, _ = answer(state, "atk.0.c")
    p = ENGINE.pending(state)[0]
    assert "head" in [o.id for o in p.options]
    state, _ = answer(state, "torso_vitals")
    state, ev = answer(state, "9S")
    assert "(torso vitals)" in said(ev[0]) and "face down" in said(ev[0])


# --- hand to hand -----------------------------------------------------------------------------------------
def test_hand_attack_block_and_leg_attack():
    state, _ = duel(br("A", might=1), br("B"), ["5S", "6S", "7S"], ["2S", "3H", "4H"], range=0)
    state, ev = run(state, ("hatk", "5S"), ("hblk", "2S"), ("latk", "6S"), ("pass", ""), ("stop", ""))
    r1, r2 = outcomes(ev)
    assert (r1["mt"], r1["defense_mt"], r1["total"]) == (5, 1, 4)          # H2H block −1 (might not higher)
    assert r1["damage"] == 1                                              # max damage 1
    assert r2["mt"] == 5 and r2["damage"] == 1


def test_head_butt_hurts_both():
    state, _ = duel(br("A", might=3), br("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"], range=0)
    state, ev = run(state, ("hbutt", "9S"), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 7 and o["damage"] == 1 and state.characters["c1"].hp_marked == 0   # half of 1 = 0


def test_h2h_lunge_at_range_1_loses_the_initiative():
    state, _ = duel(br("A"), br("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"], range=1)
    state, ev = run(state, ("hlng", "9S"), ("pass", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 7 and o["success"] and o["damage"] == 1
    assert state.combat.engagements[0].init == "c2"


def test_h2h_disarm_take_down_and_standing_up():
    state, _ = duel(br("A"), sw("B", wielding=["Dagger"]), ["9S", "8S", "7S"], ["2H", "3H", "4H"], range=0)
    state, ev = run(state, ("hdis", "9S"), ("pass", ""))
    assert outcomes(ev)[0]["mt"] == 4 and state.characters["c2"].wielding == []
    state, ev = run(state, ("tdown", "8S"), ("pass", ""), ("stop", ""))
    assert state.combat.fighters["c2"].prone
    state.combat.engagements[0].init = "c2"
    assert why_said(state, "c2", "hatk", -1, "attack", -1) == "You are on the ground: Stand Up first."
    assert why_said(state, "c2", "stand", -1, "attack", -1) is None


def test_tackle_goes_to_wrestling_and_redraws_initiative():
    state, _ = duel(br("A"), br("B"), ["9S", "8S", "7S"], ["2H", "3H", "4H"], range=1)
    state, ev = run(state, ("tckl", "9S"), ("mdg", "2H"))
    o = outcomes(ev)[0]
    assert o["mt"] == 9 - 5 and o["success"]                        # −5 from range 1
    assert state.combat.engagements[0].range == WRESTLING
    assert any(e.kind == "initiative" for e in ev)


def test_block_grab_and_dodge_seize():
    state, _ = duel(br("A"), br("B", might=2), ["2S", "3S", "4S"], ["10S", "3H", "4H"], range=0)
    state, ev = run(state, ("hatk", "2S"), ("bgrab", "10S"))
    o = outcomes(ev)[0]
    assert o["defense_mt"] == 10 - 4 and not o["success"]           # −4: the grabber is mightier
    e = state.combat.engagements[0]
    assert e.range == WRESTLING and e.init == "c2"
    state, _ = duel(br("A"), br("B"), ["2S", "3S", "4S"], ["9S", "3H", "4H"], range=0)
    state, ev = run(state, ("hatk", "2S"), ("dseize", "9S"))
    assert state.combat.engagements[0].init == "c2"


def test_disengage_ends_the_fight():
    state, _ = duel(br("A"), br("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"], range=0)
    state, ev = run(state, ("dis", "9S"), ("pass", ""))
    assert state.over


# --- wrestling ---------------------------------------------------------------------------------------------------
def test_suffocate_and_pin_start_holds():
    for man, mod in (("suf", -4), ("pin", -5)):
        state, _ = duel(br("A"), br("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"], range=WRESTLING)
        state, ev = run(state, (man, "9S"), ("pass", ""), ("stop", ""))
        o = outcomes(ev)[0]
        assert o["mt"] == 9 + mod and o["success"]
        h = state.combat.holds[0]
        assert (h["holder"], h["target"], h["kind"], h["card_value"]) == ("c1", "c2", man, 9)
        assert state.phase == "hold" and not state.over and not state.combat.engagements[0].live
        # the held fighter struggles: might check above the original card value (9)
        state.characters["c2"].deck.stack(["10S"] if man == "pin" else ["2S", "3H"])
        state, ev = answer(state, "struggle", player="u2")
        if man == "pin":
            assert any(e.kind == "hold_break" for e in ev) and state.over
        else:
            assert any(e.kind == "hold_struggle" for e in ev)
            assert [e.data["conscious"] for e in ev if e.kind == "choke_check"] == [False]
            assert state.combat.fighters["c2"].out and state.over


def test_bash_counter_reversal_escape_and_gouge():
    state, _ = duel(br("A"), br("B"), ["5S", "2S", "3S"], ["6S", "7S", "4H"], range=WRESTLING)
    state, ev = run(state, ("bash", "5S"), ("ctr", "6S"))
    state, ev = run(state, ("bash", "2S"), ("rev", "7S"))
    r1, r2 = outcomes(ev)
    assert (r1["mt"], r1["defense_mt"], r1["success"]) == (5, 6, False)
    assert (r2["defense_mt"], r2["success"]) == (5, False)
    assert state.combat.engagements[0].init == "c2"
    state, _ = duel(br("A"), br("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"], range=WRESTLING, a_init=False)
    # B holds the initiative; A escapes as his answer (no initiative needed)
    state, ev = run(state, ("bash", "2H"), ("esc", "9S"))
    assert state.combat.engagements[0].range == 0
    state, _ = duel(br("A"), br("B", attributes={"fortitude": 1}), ["9S", "2S", "3S"], ["2H", "3H", "4H"],
                    range=WRESTLING)
    state, ev = run(state, ("gouge", "9S"), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 9 - 2 - 1 and o["damage"] == 1


# --- unusual foes ------------------------------------------------------------------------------------------------
BEAR = {"name": "Bear", "size": 3, "attributes": {"finesse": -1, "fortitude": 3, "might": 4},
        "skills": {"brawling": 3}, "weapons": [{"name": "Claws", "skill": "brawling", "range": 0,
                                                "max_maneuvers": 3, "edge": 1, "max_damage": 3}],
        "wielding": ["Claws"]}
RAT = {"name": "Rat", "size": 0.2, "attributes": {"finesse": 2}, "skills": {"brawling": 2}}


def test_flank_cling_chop_and_buck_against_a_large_creature():
    state, _ = duel(sw("A", wielding=["Dagger"]), BEAR, ["5S", "6S", "7S"], ["2H", "3H", "4H"], range=0)
    state, ev = run(state, ("flank", "5S", {"weapon": "Dagger"}), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 5 + 1 + 1 and o["success"]            # −(target finesse −1) = +1
    state.combat.engagements[0].init = "c2"
    assert "flanked you" in why_said(state, "c2", "atk", 0, "attack", -1)
    state, _ = duel(sw("A", wielding=["Dagger"]), BEAR, ["5S", "6S", "7S"], ["2H", "3H", "4H"], range=0)
    state, ev = run(state, ("cling", "6S", {"weapon": "Dagger"}), ("buck", "2H"), ("stop", ""))
    o = outcomes(ev)[0]
    assert (o["mt"], o["defense"], o["success"]) == (6 + 1 - 4, "buck", True)
    assert state.combat.fighters["c1"].cling == "c2"
    from rules.karmic.combat import maneuver_mod
    from rules.karmic.state import Decl
    assert maneuver_mod(state, Decl("c1", "chop", "5S", "c2"), "c2") == -3
    assert "large creature" in why_said(
        duel(sw("A"), sw("B"), ["5S"], ["2H"])[0], "c1", "flank", 0, "attack", -1)


def test_swipe_swat_and_smash_against_small_creatures():
    mace = {"name": "Ogre", "size": 2, "skills": {"impact_weapon": 3},
            "weapons": [{"name": "Mace", "skill": "impact_weapon", "range": 0, "max_maneuvers": 3, "edge": 1,
                         "max_damage": 2, "impact": True}], "wielding": ["Mace"]}
    state, _ = duel(mace, RAT, ["5S", "6S", "7S"], ["2H", "3H"], range=0)
    state, ev = run(state, ("smash", "5S"), ("pass", ""))
    o = outcomes(ev)[0]
    assert o["mt"] == 3 and o["damage"] == 6                   # min(5+0+1, 2) × 3
    assert state.combat.engagements[0].init == "c2"            # the smasher surrenders the initiative
    assert state.combat.fighters["c1"].done
    state, _ = duel(mace, RAT, ["5S", "6S", "7S"], ["2H", "3H"], range=0)
    state, ev = run(state, ("swat", "5S"), ("pass", ""))
    assert "swatted 2 feet" in " ".join(said(e) for e in ev)
    assert "small creatures" in why_said(duel(sw("A"), sw("B"), ["5S"], ["2H"], range=1)[0],
                                            "c1", "swipe", 0, "attack", -1)


def test_swipe_hits_several_small_creatures_with_one_card():
    mace = {"name": "Ogre", "size": 2, "skills": {"impact_weapon": 3},
            "weapons": [{"name": "Mace", "skill": "impact_weapon", "range": 0, "max_maneuvers": 3, "edge": 1,
                         "max_damage": 2, "impact": True}], "wielding": ["Mace"]}
    out = ENGINE.start(["u1", "u2", "u3"], {"mode": "combat", "range": 0, "combatants": [
        {"character": mace, "player": "u1", "side": "a"}, {"character": RAT, "player": "u2", "side": "b"},
        {"character": dict(RAT, name="Rat2"), "player": "u3", "side": "b"}],
        "stack": {"c1": ["10S", "9S", "8S", "7S"], "c2": ["AH", "2H", "3H"], "c3": ["2D", "4H", "5H"]}}, 1)
    state = out.state
    assert state.combat.turn.who == "c1"
    state, ev = declare(state, "swipe", "9S")
    assert state.combat.turn.who == "c3"        # the second rat holds the initiative over the ogre
    state, ev = declare(state, "stop")
    assert state.combat.turn.who == "c2"        # the first rat answers the swipe
    state, ev = declare(state, "pass")
    state, ev = run(state, ("stop", ""))
    res = outcomes(ev)
    assert [r["target"] for r in res] == ["c2", "c3"] and all(r["mt"] == 9 - 2 for r in res)


def test_dodge_hand():
    out = ENGINE.start(["u1", "u2"], {"mode": "combat", "combatants": [
        {"character": sw("A"), "player": "u1"},
        {"character": br("B", skills={"dodge": 2}), "player": "u2", "dodge_only": True}],
        "stack": {"c1": ["10S", "5S", "6S", "7S"], "c2": ["10H", "2S", "3S"]}}, 1)
    state = out.state
    assert len(state.combat.fighters["c2"].hand) == 2
    state, _ = declare(state, "atk", "5S")
    ids = [o.id for o in ENGINE.pending(state)[0].options]
    assert "dg.h" in ids and not any(i.startswith(("par", "mdg")) for i in ids)


# --- special situations ---------------------------------------------------------------------------------------------
def test_charge_one_maneuver_each_and_plus_one_max_damage():
    out = ENGINE.start(["u1", "u2"], {"mode": "combat", "charge": 0, "combatants": [
        {"character": sw("A"), "player": "u1"}, {"character": sw("B"), "player": "u2"}],
        "stack": {"c1": ["9S", "8S", "7S"], "c2": ["2H", "3H", "4H"]}}, 1)
    state = out.state
    assert state.combat.engagements[0].init == "c1"
    state, ev = declare(state, "atk", "9S")
    state, ev = declare(state, "par", "2H")
    state, ev = stand_all(state, ev)
    o = outcomes(ev)[0]
    assert o["damage"] == 5                       # max 4 + 1 for the charge
    assert state.combat.round == 2                # only one maneuver each


def test_surprise_gives_one_undefended_attack():
    out = ENGINE.start(["u1", "u2"], {"mode": "combat", "surprise": {"attacker": 0, "target": 1},
                                      "combatants": [{"character": sw("A"), "player": "u1"},
                                                     {"character": sw("B", skill=2), "player": "u2"}],
                                      "stack": {"c1": ["9S", "8S", "7S", "5S"], "c2": ["4S"]}}, 1)
    state = out.state
    assert state.combat.fighters["c2"].hand == []
    state, ev = declare(state, "atk", "9S")
    state, ev = stand_all(state, ev)
    o = outcomes(ev)[0]
    assert o["unopposed"] and o["success"]
    assert state.combat.round == 2 and len(state.combat.fighters["c2"].hand) == 2


def test_hesitating_twice_ends_combat_and_yield_is_offered_first():
    state, _ = duel(sw("A"), sw("B"), ["9S", "2S", "3S"], ["2H", "3H", "4H"])
    labels = {o.id: Presenter(None, "karmic").option(o) for o in ENGINE.pending(state)[0].options}
    assert labels["hes"] == "Yield the initiative" and labels["atk.0"] == "Attack"
    assert labels["atk.0.n"] == "Attack — no step forward (−2)" and labels["atk.0.c"] == "Attack — called shot…"
    state, ev = declare(state, "hes")
    assert state.combat.engagements[0].init == "c2" and state.combat.turn.who == "c2"
    state, ev = declare(state, "hes")
    assert state.over


def test_multiple_opponents_parry_each_attacker_with_its_own_card():
    soldier = sw("S", skill=2, npc=True)
    # the soldiers draw from the GM's world deck: 10♠ and 9♠ for initiative, then their hands
    out = ENGINE.start(["u1"], {"mode": "combat", "world": None, "combatants": [
        {"character": sw("Devon"), "player": "u1"}, {"character": soldier, "player": GM},
        {"character": dict(soldier, name="S2"), "player": GM}],
        "stack": {"c1": ["2H", "9S", "8S", "7S"], "c2": ["10S", "9S", "3H", "4H", "5H", "6H"]}}, 1)
    state = out.state
    e1, e2 = state.combat.engagements
    assert e1.init == "c2" and e2.init == "c3"            # Devon has the initiative over nobody
    state, _ = declare(state, "atk", state.combat.fighters[state.combat.turn.who].hand[0])
    state, _ = declare(state, "atk", state.combat.fighters[state.combat.turn.who].hand[0])
    assert state.combat.turn.who == "c1" and state.combat.turn.stage == "defense"
    state, _ = declare(state, "par", "9S")
    assert state.combat.turn.who == "c1"                   # a second parry, with its own card
    state, ev = declare(state, "par", "8S")
    reg = state.combat.registers[0]
    assert [(d.owner, d.answers) for d in reg.decls if d.man == "par"] == [("c1", 0), ("c1", 1)]


def test_unopposed_needs_positive_total_house_rule():
    state, _ = duel(sw("A"), sw("B"), ["5H", "2S", "3S"], ["2H", "3H", "4H"],
                    house_rules={"unopposed_needs_positive_total": True})
    state, ev = run(state, ("atk", "5H"), ("pass", ""), ("stop", ""))
    assert not outcomes(ev)[0]["success"]
    state, _ = duel(sw("A"), sw("B"), ["5H", "2S", "3S"], ["2H", "3H", "4H"])
    state, ev = run(state, ("atk", "5H"), ("pass", ""), ("stop", ""))
    o = outcomes(ev)[0]
    assert o["success"] and o["damage"] == 0          # card −5 + 0 + 1: no damage


def test_every_maneuver_has_a_row():
    assert set(MANEUVERS) >= {"atk", "par", "blk", "mdg", "odis", "pars", "darm", "lng", "cls", "ret", "psh",
                              "sbash", "chw", "hatk", "latk", "hbutt", "hlng", "hdis", "tdown", "tckl", "hblk",
                              "bgrab", "hdg", "dseize", "dis", "suf", "pin", "bash", "ctr", "rev", "esc",
                              "gouge", "flank", "cling", "chop", "swipe", "swat", "smash", "buck"}


def test_a_joker_ruling_says_what_it_means_and_its_damage_line_says_the_maximum_applies():
    """A3: a joker played for an attack is ruled by the GM; the prompt says what success does (it
    lands for the maximum damage, 4 with this sword) and the damage line says the maximum applies,
    rather than a card sum "= 1, max 4 → 4" that the maximum silently overrides."""
    state, _ = duel(sw("A"), sw("B"), ["JK1", "2S", "3S"], ["2H", "3H", "4H"])
    state, _ = run(state, ("atk", "JK1"), ("par", "2H"), ("stop", ""))
    prompt = ENGINE.pending(state)[0]
    assert Presenter(None, "karmic").prompt(prompt) == ("A played a joker for Attack against B in register 1 (Joker (GM rules)). Rule it — "
                           "success: it lands, whatever the defense, for the maximum damage (4); failure: it fails.")
    out = ENGINE.apply(state, Ruling("success"), GM_ACTOR)
    line = next(said(e) for e in out.events if e.kind == "resolve")
    assert "damage: joker ruled a success → the maximum, 4: B takes 4" in line and "max 4 →" not in line


def test_a_joker_drawn_in_a_hit_chain_reaches_the_gm_as_what_it_is():
    """A3: a joker drawn while hitting turns the whole maneuver into a joker outcome; the GM reads
    the chain (K♠ → Joker), not just "A played a joker"."""
    state, _ = duel(sw("A"), sw("B"), ["KS", "2S", "3S", "JK1"], ["2H", "3H", "4H"])
    for man, card in (("atk", "KS"), ("par", "2H"), ("stop", "")):
        state, _ = declare(state, man, card)
    state, _ = answer(state, "hit", "u1")
    state, _ = stand_all(state)
    prompt = next(p for p in ENGINE.pending(state) if p.player == GM)
    assert Presenter(None, "karmic").prompt(prompt).startswith(
        "A's hit chain for Attack against B in register 1 drew a joker (K♠ +3 hit, Joker (GM rules)): the whole "
        "maneuver is a joker outcome. Rule it — success: it lands, whatever the defense, for the maximum damage (4)")


def test_a_capped_damage_line_says_so():
    state, _ = duel(sw("A", might=0), sw("B", skill=2), ["9S", "2S", "3S"], ["2H", "3H"])
    state, ev = run(state, ("atk", "9S"), ("par", "2H"), ("stop", ""))
    line = next(said(e) for e in ev if e.kind == "resolve")
    assert "damage +9 card +0 might +1 edge = 10, capped at max 4 → 4" in line
