"""The gaps closed after the first build: reroll windows after Magic and Morale rolls, the Events
and the Geyser resolved by the engine, the Fire Breath and Lightning Bolt Powers, reaction prompts."""
import pytest

from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.common import Choose, IllegalAction

from .helpers import GM_ACTOR, P1, P2, apply, game, kinds, rolls, rolls_of, script, squad, start


def base(first=P1, **kw):
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Butcher", "Pulcinella"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid", "Citizen of Venice"), **kw)
    return start(s, first)


def give(s, uid, name, x=None):
    s.models[uid].abilities.append({"name": name, **({"x": x} if x is not None else {})})


# ------------------------------------------------------------------ 1. reroll windows: Magic and Morale
def test_reroll_window_after_a_magic_roll():
    s = base(P2)
    s.models["b1"].spells = ["Blessing"]
    give(s, "b1", "Reroll All Dice")
    s, _ = apply(s, A.Activate("b1"), P2)
    script(s, 3, 2, 2, 4, 5, 6)                      # Mind 6, Blessing +0d10: no Ace, no Fumble
    s, ev = apply(s, A.Cast("b1", "Blessing", target="b2", attribute="COM"), P2)
    assert "reroll_window" in kinds(ev) and "cast_fail" not in kinds(ev) and "effect" not in kinds(ev)
    assert s.models["b1"].karma == 5 - 1                           # the spell's cost is paid already
    p = ENGINE.pending(s)[0]
    assert p.id.startswith("rr-") and p.player == P2 and {o.id for o in p.options} == {"keep", "all"}
    with pytest.raises(IllegalAction, match="pending"):
        apply(s, A.EndActivation("b1"), P2)
    script(s, 9, 9, 2, 2, 2, 2)
    s, ev = apply(s, Choose(p.id, ("all",)), P2)
    assert rolls(ev)[0]["rerolled"] == [True] * 6 and rolls(ev)[0]["aces"] == 2
    assert s.models["b1"].karma == 3 and not s.models["b1"].cast_locked
    assert [(e.attr, e.delta) for e in s.models["b2"].effects] == [("COM", 1)]


def test_a_failed_magic_roll_that_stands_locks_casting():
    s = base(P2)
    s.models["b1"].spells = ["Blessing"]
    give(s, "b1", "Reroll All Dice")
    s, _ = apply(s, A.Activate("b1"), P2)
    script(s, 3, 2, 2, 4, 5, 6)
    s, ev = apply(s, A.Cast("b1", "Blessing", target="b2", attribute="COM"), P2)
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("keep",)), P2)
    assert "cast_fail" in kinds(ev) and s.models["b1"].cast_locked and not s.models["b2"].effects
    assert s.models["b1"].karma == 4


def test_reroll_window_after_a_single_morale_roll():
    s = base()
    give(s, "a3", "Reroll Dice", 1)                    # Pulcinella, Mind 3, Karma 2
    script(s, 5, 3, 2)
    s, ev = apply(s, A.Morale(("a3",)), P1)
    assert "reroll_window" in kinds(ev) and "stun" not in kinds(ev)
    p = ENGINE.pending(s)[0]
    assert p.player == P1 and {o.id for o in p.options} == {"keep", "dice"}
    script(s, 9)
    s, ev = apply(s, Choose(p.id, ("dice",)), P1)
    assert rolls(ev)[0]["dice"] == [5, 3, 9] and rolls(ev)[0]["aces"] == 1
    assert "morale_pass" in kinds(ev) and not s.models["a3"].stunned and s.models["a3"].karma == 1


def test_reroll_window_after_a_group_morale_roll_then_the_single_rolls_resume():
    s = base()
    give(s, "b1", "Reroll All Dice")                   # Mind 6 + Command 3 = 9 dice
    script(s, 3, 2, 2, 2, 2, 2, 2, 2, 2, 8, 8, 8, 8, 8, 8)
    s, ev = apply(s, A.Morale(group=True, player=P2), P1)
    assert len(rolls(ev)[0]["dice"]) == 9 and rolls(ev)[0]["aces"] == 0 and "reroll_window" in kinds(ev)
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("keep",)), P2)
    # the group failed: every model tests on its own, b1 first (6 Aces), and may reroll that too
    assert "morale_group_fail" in kinds(ev) and rolls(ev)[0]["aces"] == 6 and "reroll_window" in kinds(ev)
    script(s, 2, 2, 2, 2, 2, 2)                        # b2 and b3 (Mind 3 each): no Ace
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("keep",)), P2)
    assert "morale_pass" in kinds(ev)
    assert [e.data["model"] for e in ev if e.kind == "stun"] == ["b2", "b3"]
    assert not s.models["b1"].stunned and s.models["b1"].karma == 5
    assert ENGINE.pending(s)[0].id.startswith("do-") or ENGINE.pending(s)[0].id.startswith("turn-")


# ------------------------------------------------------------------ 2. Events and the Geyser, resolved
def with_event(s, pid=P1):
    s.players[pid].events_left = 1
    return s


def test_event_16_mad_minute_fires_every_loaded_firearm_for_0_ap():
    s = with_event(base())
    script(s, 7, 9)
    s, ev = apply(s, A.PlayEvent(P1), P1)
    assert ev[0].data["total"] == 16 and s.mad_minute == ["a1"]          # the Capodecime's pistol
    assert any(p.id.startswith("mm-") for p in ENGINE.pending(s))
    ap = s.models["a1"].ap
    script(s, 8, 8, 2, 2)                                               # SHO 4 at difficulty 7: 2 Aces
    s, ev = apply(s, A.Shoot("a1", "b2"), P1)                            # no activation
    assert s.models["a1"].ap == ap and not s.models["a1"].activated
    assert [(e.data["amount"], e.data["lost"]) for e in ev if e.kind == "damage"] == [(2 + 2, 2)]
    pistol = next(w for w in s.models["a1"].weapons if w.name == "Pistol")
    assert not pistol.loaded and s.mad_minute == []
    with pytest.raises(IllegalAction):
        apply(s, A.Shoot("a1", "b2"), P1)


def test_event_16_is_lost_without_a_loaded_firearm():
    s = with_event(base(), P2)
    s.turn_player = P2
    script(s, 7, 9)
    s, ev = apply(s, A.PlayEvent(P2), P2)
    assert "event_lost" in kinds(ev) and s.mad_minute == []


def test_event_8_good_cover_is_one_hardness_step_better_and_heavy_gives_minus_4():
    s = with_event(base())
    s, _ = apply(s, A.Activate("a1"), P1)
    with pytest.raises(IllegalAction, match=r"^no_good_cover\b"):
        apply(s, A.Shoot("a1", "b2", cover_size="medium", cover_hardness="light", good_cover=True), P1)
    script(s, 5, 3)
    s, ev = apply(s, A.PlayEvent(P1), P1)
    assert ev[0].data["total"] == 8 and s.good_cover == P1
    s, ev = apply(s, A.Shoot("a1", "b2", cover_size="medium", cover_hardness="light", good_cover=True), P1)
    assert len(rolls(ev)[0]["dice"]) == 4 - 1 - 2                      # medium −1, light→blunt −2
    s2 = s                                                               # reload and shoot again
    s2.models["a1"].weapons[1].loaded = True
    s2.models["a1"].ap = 3
    s2, ev = apply(s2, A.Shoot("a1", "b2", cover_size="medium", cover_hardness="blunt", good_cover=True), P1)
    assert len(rolls(ev)[0]["dice"]) == 4 - 1 - 3                      # blunt→heavy −3: 0 dice
    s2.models["a1"].weapons[1].loaded = True
    s2.models["a1"].ap = 3
    give(s2, "a1", "Sniper", 5)                                         # +5 dice, to see the −4
    s2, ev = apply(s2, A.Shoot("a1", "b3", cover_size="medium", cover_hardness="heavy", good_cover=True), P1)
    assert len(rolls(ev)[0]["dice"]) == 4 + 5 - 1 - 4                  # heavy → "+4 cover": −4 dice


def test_event_11_the_geyser_attacks_the_models_named_now_and_at_each_end_of_round():
    s = with_event(base())
    script(s, 5, 6)
    s, ev = apply(s, A.PlayEvent(P1), P1)
    assert ev[0].data["total"] == 11 and s.geyser
    p = next(p for p in ENGINE.pending(s) if p.id.startswith("gy-"))
    assert p.player == P1 and p.max_choices == len(p.options)
    script(s, 5, 6, 2, 2, 10, 4, 1, 1)
    s, ev = apply(s, Choose(p.id, ("b2", "a2")), P1)
    # b2: 4 dice at its DEX 5 → 2 Aces; Penetration 4 against Protection 2 → 2 LP
    # a2: DEX 4, the Destiny Die 10 → 2 Aces and a Critical → 2 LP and a Stun
    assert [r["difficulty"] for r in rolls(ev)] == [5, 4]
    assert [(e.data["model"], e.data["protection"], e.data["lost"]) for e in ev if e.kind == "damage"] == \
        [("b2", 0, 2), ("a2", 0, 2)]
    assert s.models["a2"].stunned and not s.models["b2"].stunned
    assert not any(p.id.startswith("gy-") for p in ENGINE.pending(s))
    s, ev = apply(s, A.EndRound(), GM_ACTOR)
    assert any(p.id.startswith("gy-") for p in ENGINE.pending(s))


def test_event_13_evil_eye_fumble_lets_the_opponent_clear_a_stun():
    s = with_event(base())
    s.models["b3"].stunned = True
    script(s, 6, 7, 1, 2, 3, 4)                                         # 13; then 4 dice, Destiny 1, no Ace
    s, ev = apply(s, A.PlayEvent(P1, target="b2"), P1)
    assert ev[0].data["total"] == 13 and rolls(ev)[0]["fumble"]
    p = next(p for p in ENGINE.pending(s) if p.id.startswith("ee-"))
    assert p.player == P2 and [o.id for o in p.options] == ["none", "b3"]
    s, ev = apply(s, Choose(p.id, ("b3",)), P2)
    assert not s.models["b3"].stunned


# ------------------------------------------------------------------ 3. the attack Powers
def drink(s, face):
    s.models["a1"].magic_item = "Infusion of the Rent in the Sky"
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, face)
    return apply(s, A.SpendAP("a1", "drink_infusion"), P1)


def test_lightning_bolt_power_aces_plus_2_two_targets_two_shots_stun_reload_3():
    s, ev = drink(base(), 8)
    assert "power_weapon" in kinds(ev)
    bolt = next(w for w in s.models["a1"].weapons if w.name == "Lightning Bolt")
    assert (bolt.damage, bolt.shots_left) == (2, 2)
    script(s, 8, 8, 8, 2)                   # SHO 4 at max(7, DEX 5, DEX 4) = 7: 3 Aces → 3 + 2 = 5 damage
    s, ev = apply(s, A.Shoot("a1", "b2", weapon="Lightning Bolt", targets=("b3",), split=(3, 2)), P1)
    assert rolls(ev)[0]["difficulty"] == 7
    assert [(e.data["model"], e.data["lost"]) for e in ev if e.kind == "damage"] == [("b2", 1), ("b3", 0)]
    assert s.models["b2"].stunned and not s.models["b3"].stunned        # Stun only where LP were lost
    bolt = next(w for w in s.models["a1"].weapons if w.name == "Lightning Bolt")
    assert bolt.loaded and bolt.shots_left == 1
    with pytest.raises(IllegalAction, match=r"^too_many_targets\b"):
        apply(s, A.Shoot("a1", "b2", weapon="Lightning Bolt", targets=("b3", "b1")), P1)
    s, ev = apply(s, A.Shoot("a1", "b1", weapon="Lightning Bolt"), P1)  # the second shot of Multiple Shot (2)
    assert not next(w for w in s.models["a1"].weapons if w.name == "Lightning Bolt").loaded
    from rules.carnevale.shooting import reload_cost
    assert reload_cost(next(w for w in s.models["a1"].weapons if w.name == "Lightning Bolt")) == 3


def test_fire_breath_power_is_a_flaming_cone_and_the_infusion_power_ends_at_end_of_round():
    s, ev = drink(base(), 3)
    fire = next(w for w in s.models["a1"].weapons if w.name == "Fire Breath")
    assert fire.damage_dice == "1d10" and {a["name"]: a.get("x") for a in fire.abilities} == \
        {"Blast": -9, "Flames": None}
    # Blast slide 1d10 − 9 (a 9: 0''), one shared 1d10 = 4 damage; each victim's Dex roll takes 1 per Ace;
    # Flames ignore Protection
    script(s, 9, 4, 8, 2, 2, 2, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.Shoot("a1", "", weapon="Fire Breath", targets=("b2", "b3")), P1)
    assert [e.data["inches"] for e in ev if e.kind == "blast"] == [0]
    assert [(e.data["model"], e.data["protection"], e.data["lost"]) for e in ev if e.kind == "damage"] == \
        [("b2", 0, 3), ("b3", 0, 4)]
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert not any(w.name == "Fire Breath" for w in s.models["a1"].weapons)


def test_a_profile_power_comes_with_its_weapon_and_the_bolt_range_house_rule():
    s = game(squad("The Guild", ("Capodecime", {"leader": True})),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True})),
             house_rules={"lightning_bolt_range": 12})
    s.models["a1"].abilities.append({"name": "Lightning Bolt"})
    from rules.carnevale.combat import arm_powers
    assert arm_powers(s, s.models["a1"]) == ["Lightning Bolt"]
    assert next(w for w in s.models["a1"].weapons if w.name == "Lightning Bolt").range == 12


# ------------------------------------------------------------------ 4. reactions before the roll
def test_defensive_combat_is_asked_of_the_defender_before_the_enemys_roll():
    s = base()
    give(s, "b2", "Defensive Combat", 2)                # Hybrid: DEX 5, Karma 2
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)          # Butcher, COM 5
    assert "defensive_window" in kinds(ev) and not rolls(ev)
    p = ENGINE.pending(s)[0]
    assert p.id.startswith("dc-") and p.player == P2 and [o.id for o in p.options] == ["0", "1", "2"]
    with pytest.raises(IllegalAction, match="pending"):
        apply(s, A.EndActivation("a2"), P1)
    script(s, 7, 7, 6, 6, 6)
    s, ev = apply(s, Choose(p.id, ("2",)), P2)
    r = rolls(ev)[0]
    assert r["difficulty"] == 5 + 2 and r["aces"] == 2 and s.models["b2"].karma == 0
    assert s.models["a2"].ap == 3 - 1
    # the same Turn: nothing left to spend, so no prompt; the +2 DEX still counts
    script(s, 7, 7, 6, 6, 6)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert "defensive_window" not in kinds(ev) and rolls(ev)[0]["difficulty"] == 7


def test_defensive_combat_declined_keeps_the_karma():
    s = base()
    give(s, "b2", "Defensive Combat", 1)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("0",)), P2)
    assert rolls(ev)[0]["difficulty"] == 5 and s.models["b2"].karma == 2


def test_at_the_ready_shooting_interrupts_when_an_enemy_ends_an_action():
    s = base()
    s, _ = apply(s, A.Activate("a1"), P1)                              # Capodecime, pistol (Aces+2), SHO 4
    s, _ = apply(s, A.SpendAP("a1", "at_ready_shooting"), P1)
    assert s.models["a1"].at_ready == "shooting" and s.turn_player == P2
    s, _ = apply(s, A.Activate("b2"), P2)
    s, ev = apply(s, A.SpendAP("b2", "walk"), P2)
    assert "ready_window" in kinds(ev)
    p = ENGINE.pending(s)[0]
    assert p.id.startswith("ar-") and p.player == P1 and [o.id for o in p.options] == ["no", "a1"]
    with pytest.raises(IllegalAction, match="pending"):
        apply(s, A.SpendAP("b2", "walk"), P2)
    s, _ = apply(s, Choose(p.id, ("a1",)), P1)
    p = ENGINE.pending(s)[0]
    assert p.id.startswith("ar-") and "m-light" in [o.id for o in p.options]
    script(s, 8, 8)                                                     # 4 dice − Medium 1 − Light 1 = 2 dice
    s, ev = apply(s, Choose(p.id, ("m-light",)), P1)
    assert len(rolls(ev)[0]["dice"]) == 2 and rolls(ev)[0]["difficulty"] == 7
    assert [(e.data["amount"], e.data["lost"]) for e in ev if e.kind == "damage"] == [(2 + 2, 2)]
    assert s.models["a1"].at_ready == "" and ENGINE.pending(s)[0].id.startswith("do-b2")
    s, ev = apply(s, A.SpendAP("b2", "walk"), P2)                      # the counter is spent: no window
    assert "ready_window" not in kinds(ev)


# ------------------------------------------------------------------ 5. enforcement from the table's input
def test_a_reinforcements_first_action_must_be_a_move():
    s = base()
    s.models["a3"].on_table = False
    s.round = 2
    s, ev = apply(s, A.Reinforce("a3", "assault"), P1)               # Assault Order: no roll
    assert s.active == "a3" and s.models["a3"].entering
    opts = {o.id for o in ENGINE.pending(s)[0].options}
    assert "melee" not in opts and "shoot" not in opts and {"walk", "run", "end"} <= opts
    for action in (A.Attack("a3", "b2"), A.Shoot("a3", "b2"), A.SpendAP("a3", "clear_stun"),
                   A.SpendAP("a3", "at_ready_melee"), A.Fall("a3", 3, voluntary=True)):
        with pytest.raises(IllegalAction, match="entering"):
            apply(s, action, P1)
    s, _ = apply(s, A.Fall("a3", 0.5), P1)                             # being pushed off is no action of its own
    s, _ = apply(s, A.SpendAP("a3", "walk"), P1)
    assert not s.models["a3"].entering
    s, ev = apply(s, A.Attack("a3", "b2"), P1)
    assert "attack" in kinds(ev)


def test_a_hidden_model_is_detected_by_an_enemy_within_3_inches():
    s = base()
    s.models["b2"].hidden = True
    s, _ = apply(s, A.Activate("a1"), P1)
    with pytest.raises(IllegalAction, match=r"^hidden_target\b"):
        apply(s, A.Shoot("a1", "b2", distance=5), P1)
    with pytest.raises(IllegalAction, match=r"^hidden_target\b"):
        apply(s, A.Shoot("a1", "b2"), P1)                              # no distance given: still hidden
    s, ev = apply(s, A.Shoot("a1", "b2", distance=3), P1)
    assert kinds(ev)[0] == "detected" and not s.models["b2"].hidden and rolls(ev)
    s.models["b3"].hidden = True
    s, ev = apply(s, A.Attack("a1", "b3"), P1)                         # base contact: detected
    assert "detected" in kinds(ev) and not s.models["b3"].hidden


def test_shoot_is_offered_only_with_an_enemy_to_pick():
    """Every enemy Hidden: the target prompt would hold only Back, and a bot went Shoot, Back, Shoot…
    for ever (strength bench, seed 1 game 12). The button waits for a target it can offer."""
    s = base()
    s, _ = apply(s, A.Activate("a1"), P1)
    assert "shoot" in {o.id for o in ENGINE.pending(s)[0].options}
    enemies = [m for m in s.models.values() if m.owner == P2]
    for m in enemies:
        m.hidden = True
    assert "shoot" not in {o.id for o in ENGINE.pending(s)[0].options}
    enemies[0].hidden = False
    prompt = ENGINE.pending(s)[0]
    assert "shoot" in {o.id for o in prompt.options}
    s, _ = apply(s, Choose(prompt.id, ("shoot",)), P1)
    target = ENGINE.pending(s)[0]
    assert target.kind == "target" and [o.id for o in target.options][:-1] == [enemies[0].uid]


def test_gondola_capacity_two_30mm_or_one_40mm_model():
    s = game(squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Ugdru-Rashaar", "Hybrid", "Citizen of Venice"),
             squad("The Guild", ("Capodecime", {"leader": True})))
    assert s.models["a2"].size == "Large" and s.models["a1"].size == "Medium"
    s, _ = apply(s, A.SetStatus("a1", "on_gondola"), P1)
    s, _ = apply(s, A.SetStatus("a3", "on_gondola"), P1)
    with pytest.raises(IllegalAction, match="full"):
        apply(s, A.SetStatus("a4", "on_gondola"), P1)                  # a third 30 mm model
    with pytest.raises(IllegalAction, match="full"):
        apply(s, A.SetStatus("a2", "on_gondola"), P1)                  # a 40 mm model with riders aboard
    s, _ = apply(s, A.SetStatus("a2", "on_gondola", gondola="2"), P1)  # alone on another gondola
    with pytest.raises(IllegalAction, match="full"):
        apply(s, A.SetStatus("a4", "on_gondola", gondola="2"), P1)
    s, _ = apply(s, A.SetStatus("a1", "on_gondola", False), P1)
    s, _ = apply(s, A.SetStatus("a4", "on_gondola"), P1)               # a seat came free
    s.models["b1"].size = "Huge"
    with pytest.raises(IllegalAction, match=r"^gondola_too_big\b"):
        apply(s, A.SetStatus("b1", "on_gondola", gondola="3"), P2)


# ------------------------------------------------------------------ 7. house rules
def test_fear_timing_after_attack_tests_morale_once_the_attack_is_resolved():
    for timing, order in (("before_attack_roll", ["roll_morale", "roll_combat"]), ("after_attack", ["roll_combat", "roll_morale"])):
        s = base(house_rules={"fear_timing": timing})
        give(s, "a2", "Fear", -1)
        s, _ = apply(s, A.Activate("a2"), P1)
        # b2's Morale (Mind 3, Fear −1: 2 dice) and the Butcher's Combat roll (5 dice, all missing)
        script(s, *((8, 8, 3, 2, 2, 2, 2) if timing == "before_attack_roll" else (3, 2, 2, 2, 2, 8, 8)))
        s, ev = apply(s, A.Attack("a2", "b2"), P1)
        labels = [r["label"] for r in rolls(ev)]
        assert labels == order
        morale = rolls_of(ev, "roll_morale")[0]
        assert len(morale["dice"]) == 3 - 1 and morale["model"] == "b2"
        assert not s.fear_after and "morale_pass" in kinds(ev)


def test_the_retired_hostage_house_rule_is_ignored_and_unknown_ones_refused():
    s = base(house_rules={"hostage_freed_counts": "attacker_wins_when_freed"})
    assert "hostage_freed_counts" not in s.house_rules
    with pytest.raises(IllegalAction, match=r"^unknown_house_rule\b"):
        base(house_rules={"no_such_rule": 1})


def test_the_ready_shot_waits_for_a_reroll_window_to_close():
    s = base()
    s, _ = apply(s, A.Activate("a1"), P1)
    s, _ = apply(s, A.SpendAP("a1", "at_ready_shooting"), P1)
    give(s, "b2", "Reroll Dice", 1)
    s, _ = apply(s, A.Activate("b2"), P2)
    script(s, 8, 2, 3, 9)                                              # Hybrid COM 4 at the Butcher's DEX 4
    s, ev = apply(s, A.Attack("b2", "a2"), P2)
    assert "reroll_window" in kinds(ev) and "ready_window" not in kinds(ev)
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("keep",)), P2)
    assert "damage" in kinds(ev) and "ready_window" in kinds(ev)
    p = ENGINE.pending(s)[0]
    assert p.id.startswith("ar-") and p.player == P1 and [o.id for o in p.options] == ["no", "a1"]


def test_the_geyser_attacks_at_the_last_end_of_round_too():
    """Event 11: the Geyser attacks at every End of Round, the final one included; the game ends
    once its attacks are resolved (before, the last Round skipped them)."""
    s = with_event(base())
    script(s, 5, 6)
    s, _ = apply(s, A.PlayEvent(P1), P1)
    p = next(p for p in ENGINE.pending(s) if p.id.startswith("gy-"))
    s, _ = apply(s, Choose(p.id, ("none",)), P1)
    s.max_rounds = s.round
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert not s.over
    p = next(p for p in ENGINE.pending(s) if p.id.startswith("gy-"))
    script(s, 5, 6, 2, 2)
    s, ev = apply(s, Choose(p.id, ("b2",)), P1)
    assert [e.data["model"] for e in ev if e.kind == "damage"] == ["b2"]
    assert s.over and set(s.result["vp"]) == {P1, P2}
