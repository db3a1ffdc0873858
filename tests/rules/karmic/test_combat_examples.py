"""Digest §7 worked examples for combat: T1–T6 (T4 register by register)."""

from rules.common import GM
from rules.karmic import ENGINE
from rules.karmic.combat import caps, hand_size

from .helpers import DEVON, SOLDIER, answer, declare, fight, outcomes, stand_all, refused_as, said
from tests.rules.karmic.helpers import why_said

SPEARMAN = {"name": "Spearman", "skills": {"spear": 2},
            "weapons": [{"name": "Spear", "skill": "spear", "range": 2, "force": 0, "max_maneuvers": 2,
                         "edge": 1, "max_damage": 5}], "wielding": ["Spear"]}
SWORDSMAN = {"name": "Swordsman", "npc": True, "skills": {"sword": 2},
             "weapons": [{"name": "Sword", "skill": "sword", "range": 1, "force": 1, "max_maneuvers": 3,
                          "edge": 1, "max_damage": 4}], "wielding": ["Sword"]}


def test_T1_range_starts_at_longest_weapon_and_reach_limits_attacks():
    # the spearman wins initiative (+9 vs -9), the swordsman cannot attack but may parry
    state, _ = fight(SPEARMAN, SWORDSMAN, stack={"c1": ["9S"], "c2": ["9H"]})
    e = state.combat.engagements[0]
    assert e.range == 2 and e.init == "c1"
    assert why_said(state, "c1", "atk", 0, "attack", -1) is None
    state, _ = declare(state, "atk", state.combat.fighters["c1"].hand[0])
    assert state.combat.turn.who == "c2" and state.combat.turn.stage == "defense"
    assert why_said(state, "c2", "par", 0, "defense", 0) is None
    # the swordsman's own attack is out of reach (he would need the initiative too: give it to him)
    state.combat.engagements[0].init = "c2"
    reason = why_said(state, "c2", "atk", 0, "attack", -1)
    assert reason == "Your Sword (reach 1) cannot reach at range 2."


def test_T2_axe_and_parrying_dagger_hand_and_maneuver_caps():
    fighter = {"name": "Devon", "skills": {"ax": 4, "dagger": 6},
               "weapons": [{"name": "Medium Axe", "skill": "ax", "range": 0, "max_maneuvers": 2},
                           {"name": "Poinard", "skill": "dagger", "range": 0, "max_maneuvers": 3}],
               "wielding": ["Medium Axe", "Poinard"]}
    foe = dict(SOLDIER, weapons=[{"name": "Knife", "skill": "dagger", "range": 0, "max_maneuvers": 9}],
               wielding=["Knife"], skills={"dagger": 9})
    state, _ = fight(fighter, foe, stack={"c1": ["10S"], "c2": ["10H"]}, range=0)
    f = state.combat.fighters["c1"]
    assert len(f.hand) == 4 == hand_size(state, f)
    total, per = caps(state, f)
    assert total == 4 and per == {0: 2, 1: 3}
    # axe attack ×2 is fine, a third axe maneuver is refused
    hand = list(f.hand)
    state, _ = declare(state, "atk", hand[0], weapon="Medium Axe")
    state, _ = declare(state, "pass")
    state, _ = declare(state, "atk", hand[1], weapon="Medium Axe")
    state, _ = declare(state, "pass")
    with refused_as("Medium Axe has already made its 2 maneuver"):
        declare(state, "atk", hand[2], weapon="Medium Axe")
    # the poinard may still act; after 4 maneuvers in total nothing more is allowed
    state.combat.fighters["c1"].counted = 4
    assert why_said(state, "c1", "atk", 1, "attack", -1) == "You have used all 4 of your maneuvers this round."


def test_T2_skilllist_variant_gives_five_cards():
    fighter = {"name": "Devon", "skills": {"ax": 4, "dagger": 6},
               "weapons": [{"name": "Medium Axe", "skill": "ax", "range": 0, "max_maneuvers": 2},
                           {"name": "Poinard", "skill": "dagger", "range": 0, "max_maneuvers": 3}],
               "wielding": ["Medium Axe", "Poinard"]}
    state, _ = fight(fighter, SOLDIER, stack={"c1": ["10S"], "c2": ["10H"]}, range=0,
                     house_rules={"offhand_rules": "skilllist"})
    f = state.combat.fighters["c1"]
    assert len(f.hand) == 5
    assert caps(state, f)[0] == 3


def test_T3_changing_weapons():
    noble = {"name": "Noble", "npc": True, "skills": {"sword": 3},
             "weapons": [{"name": "Long Sword", "skill": "sword", "range": 1, "force": 1, "max_maneuvers": 3}],
             "wielding": ["Long Sword"]}
    # Devon: initiative 9♠, then hand K♣? no: 9♠ 8♠ 7♠ (sword 3); noble: 2♥ init, then 5♠ 4♠ 3♠
    state, _ = fight(DEVON, noble, stack={"c1": ["9S", "8S", "7S", "6S"], "c2": ["2H", "5S", "4S", "3S"]})
    assert state.combat.engagements[0].init == "c1"
    # register 1: Devon attacks, the noble parries without stepping back (−2)
    state, _ = declare(state, "atk", "8S")
    state, _ = declare(state, "par", "5S", nostep=True)
    # register 2: Devon changes to the dagger (resolve-immediately: his round ends)
    state, ev = declare(state, "chw", "7S", weapon="Dagger")
    state, ev2 = stand_all(state, ev)
    res = outcomes(ev2)
    assert res[0]["defense_mt"] == 5 + 1 - 2          # parry card 5 + force 1 − 2 no step back
    assert state.combat.engagements[0].range == 0
    # range 1 → 0 happened in register 1
    resolve_events = [e for e in ev2 if e.kind == "resolve"]
    assert resolve_events[0].data["ranges"][0][2] == 0
    assert state.characters["c1"].weapons[state.characters["c1"].wielding[0]].name == "Dagger"
    # Round 2: Devon keeps the initiative; hand = min(dagger 2, fast draw default 1) = 1
    assert state.combat.round == 2
    assert state.combat.engagements[0].init == "c1"
    assert len(state.combat.fighters["c1"].hand) == 1
    # Round 3: dagger skill (2)
    f = state.combat.fighters["c1"]
    state.combat.round = 3
    assert hand_size(state, f) == 2


def test_T3_no_declaration_after_changing_weapon():
    state, _ = fight(DEVON, SOLDIER, stack={"c1": ["9S", "8S", "7S", "6S"], "c2": ["2H", "5S", "4S"]})
    state, ev = declare(state, "chw", "8S", weapon="Dagger")
    # Devon still held 7♠ and 6♠, but changing weapons ends his round at once
    assert [e.kind for e in ev].count("round_end") == 1
    assert state.combat.round == 2
    discards = state.characters["c1"].deck.discards
    assert "7S" in discards and "6S" in discards


def _t4():
    return fight(DEVON, SOLDIER, stack={"c1": ["2S", "KS", "2H", "10S"], "c2": ["4H", "QH", "5S"]})


def test_T4a_initiative_devon_is_attacker():
    state, events = _t4()
    mts = {e.data["who"]: e.data["mt"] for e in events if e.kind == "initiative"}
    assert mts == {"c1": 2, "c2": -4}
    assert state.combat.engagements[0].init == "c1"


def test_T4b_hands():
    state, _ = _t4()
    assert sorted(state.combat.fighters["c1"].hand) == sorted(["KS", "2H", "10S"])
    assert sorted(state.combat.fighters["c2"].hand) == sorted(["QH", "5S"])


def test_T4_full_round_register_by_register():
    state, _ = _t4()
    # T4c declaring, alternating, face down
    state, _ = declare(state, "atk", "KS")
    assert state.combat.turn.who == "c2"
    state, _ = declare(state, "par", "5S")
    state, _ = declare(state, "atk", "2H")
    state, _ = declare(state, "par", "QH")
    assert state.combat.turn.who == "c1" and state.combat.reg == 3
    state, ev = declare(state, "darm", "10S")          # R3: the soldier has no card: unopposed
    assert state.combat.turn is None                    # no soldier declaration in R3
    assert state.phase == "resolve"
    # T4d: Devon stands on K♠ (his hit prompt comes first: he holds the initiative)
    p = ENGINE.pending(state)[0]
    assert p.player == "u1" and p.kind == "combat_hit"
    state, ev1 = answer(state, "stand")
    r1 = outcomes(ev1)[0]
    assert (r1["mt"], r1["defense_mt"], r1["total"], r1["success"]) == (4, 5, -1, False)
    # T4e: the soldier declines his hit after seeing Devon's −2
    p = ENGINE.pending(state)[0]
    assert p.player == GM
    state, ev2 = answer(state, "stand")
    r2, r3 = outcomes(ev2)
    assert (r2["mt"], r2["defense_mt"], r2["total"], r2["success"]) == (-1, -2, -1, False)
    # T4f: disarm MT 10 + 1 − 5 = +6, unopposed but still needs > 0: the soldier is disarmed
    assert (r3["mt"], r3["unopposed"], r3["success"]) == (6, True, True)
    assert state.characters["c2"].wielding == []
    assert not state.over                                # combat does not end by itself
    assert state.combat.round == 2                        # the round is over
    assert state.combat.engagements[0].range == 1         # range 1 throughout
    texts = " ".join(said(e) for e in ev1 + ev2)
    assert "4 − 5 = -1 → fails" in texts and "-2 − 0 = -2" not in texts


def test_T4_refuses_soldier_declaration_in_register_3():
    state, _ = _t4()
    state, _ = declare(state, "atk", "KS")
    state, _ = declare(state, "par", "5S")
    state, _ = declare(state, "atk", "2H")
    state, _ = declare(state, "par", "QH")
    assert why_said(state, "c2", "par", 0, "attack", -1) == "You have no card left for register 3."


def test_T5_take_down_modifier():
    from rules.karmic.combat import maneuver_mod
    from rules.karmic.state import Decl
    for fin, expected in ((2, -2), (-1, 1)):
        target = dict(SOLDIER, attributes={"finesse": fin})
        state, _ = fight(DEVON, target, stack={"c1": ["9S"], "c2": ["9H"]}, range=0)
        assert maneuver_mod(state, Decl("c1", "tdown", "5S", "c2"), "c2") == expected


def test_T6_gouge_modifier():
    from rules.karmic.combat import maneuver_mod
    from rules.karmic.state import Decl
    target = dict(SOLDIER, attributes={"fortitude": 2}, skills={"sword": 2, "self_discipline": 3})
    state, _ = fight(DEVON, target, stack={"c1": ["9S"], "c2": ["9H"]}, range=0)
    assert maneuver_mod(state, Decl("c1", "gouge", "5S", "c2"), "c2") == -7
