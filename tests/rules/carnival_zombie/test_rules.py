"""Synthetic tests for the rules the digest has no worked example for (§4, §5, §6, §8)."""
from __future__ import annotations

import json

import pytest

from rules.carnival_zombie import ENGINE, census, load_pack_text, load_sample_pack
from rules.carnival_zombie.engine import CarnivalZombie
from content import sample_text
from rules.carnival_zombie.content import content_for
from rules.carnival_zombie.state import BossSlot
from rules.common import Event, GM, PUBLIC, Actor, Choose, IllegalAction, NotYourTurn, StalePrompt

from tests.support.packs import brief, problems

from .helpers import answer, assign_attacks, attack_rows, box, clear_board, kind, new, nm_top, options, prompt, put, said, until

OFF = {"pile_mode": "off"}


def ch(s, cid):
    return next(c for c in s.characters if c.id == cid)


def night(**opts):
    hr = {**OFF, **opts.pop("house_rules", {})}
    s = new(quick_night=True, location=opts.pop("location", 8), house_rules=hr, **opts)
    answer(s, "start")
    until(s, {"act"}, policy=lambda s, k, ids: "N" if k in ("enter", "terrain_pit") else None)
    clear_board(s)
    s.night.obstacles, s.night.forts = {}, {}
    for c in s.characters:
        c.stress, c.refuge = 0, "N"
        if c.paranoia:
            c.paranoia = False
            s.abyss["P"] += 1
    return s


# ------------------------------------------------------------------ setup and seats
@pytest.mark.parametrize("n,per_player,group", [(1, 6, 0), (2, 3, 0), (3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)])
def test_player_count_table(n, per_player, group):
    seats = [f"u{i}" for i in range(n)]
    s = ENGINE.new_game(seats, {}, 3)
    counts = {p: sum(1 for c in s.characters if c.controller == p) for p in seats}
    assert set(counts.values()) == {per_player}
    assert sum(1 for c in s.characters if not c.controller) == group
    assert len(s.characters) == 6


def test_group_characters_are_decided_by_the_first_player():
    s = ENGINE.new_game(["a", "b", "c", "d"], {"auto_start": True, "quick": True}, 3)
    group = [c for c in s.characters if not c.controller]
    assert ENGINE.owner(s, group[0].id) == ENGINE.first_player(s) == "a"


def test_start_returns_what_an_auto_started_set_up_says():
    """With the setup prompt only the dealing is said (who plays which Character: the prompt names
    Characters, not players); with `auto_start` the set-up's events (every seat's role in Just a
    Matter of Time, privately) come back from `start` for the host to publish."""
    seats = ["a", "b", "c"]
    prompted = ENGINE.start(seats, {"scenario": "jmot"}, 3)
    assert [(e.kind, e.data) for e in prompted.events] == [
        ("dealt", {"player": "a", "names": ["Capitan Spaventa"]}), ("dealt", {"player": "b", "names": ["Colombina"]}),
        ("dealt", {"player": "c", "names": ["Arlecchino"]})]
    assert ENGINE.dump_state(prompted.state) == ENGINE.dump_state(ENGINE.new_game(seats, {"scenario": "jmot"}, 3))
    started = ENGINE.start(seats, {"scenario": "jmot", "auto_start": True}, 3)
    s = started.state
    assert ENGINE.dump_state(s) == ENGINE.dump_state(ENGINE.new_game(seats, {"scenario": "jmot", "auto_start": True}, 3))
    roles = {e.audience: said(e) for e in started.events if e.audience != PUBLIC}
    assert set(roles) == set(seats)
    assert "You are the traitor" in roles[s.traitor]
    assert all("You are loyal" in text for seat, text in roles.items() if seat != s.traitor)
    public = " ".join(said(e) for e in started.events if e.audience == PUBLIC)
    assert "The Group gathers" in public and "traitor" not in public.lower()


def test_setup_prompt_swaps_and_orders():
    s = ENGINE.new_game(["a", "b"], {}, 3)
    p = prompt(s)
    assert p.player == "a" and {"start", "order", "swap"} <= set(options(s))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, Choose(p.id, ("start",)), Actor("b"))
    answer(s, "swap")
    answer(s, "medico")
    answer(s, "p0")
    assert ch(s, "medico").controller == "a"
    answer(s, "order")
    for cid in ["medico", "pantalone", "brighella", "arlecchino", "colombina"]:
        answer(s, cid, expect="order_pick")
    assert [c.id for c in s.characters] == ["medico", "pantalone", "brighella", "arlecchino", "colombina", "capitan"]
    assert [c.order for c in s.characters] == [1, 2, 3, 4, 5, 6]
    answer(s, "start")
    assert s.phase == "story"


def test_bad_setups_are_refused():
    with pytest.raises(IllegalAction):
        ENGINE.new_game([], {}, 1)
    with pytest.raises(IllegalAction):
        ENGINE.new_game([f"u{i}" for i in range(7)], {}, 1)
    with pytest.raises(IllegalAction):
        ENGINE.new_game(["a"], {"difficulty": "nightmare"}, 1)
    with pytest.raises(IllegalAction):
        ENGINE.new_game(["a"], {"house_rules": {"no_such_rule": 1}}, 1)
    with pytest.raises(IllegalAction):
        ENGINE.new_game(["a", "b"], {"scenario": "jmot"}, 1)


@pytest.mark.parametrize("level,start,surv,para", [("easy", 6, 2, 4), ("medium", 13, 1, 5), ("difficult", 17, 0, 6),
                                                   ("hard", 17, 0, 6)])
def test_difficulty_levels(level, start, surv, para):
    s = ENGINE.new_game(["a"], {"difficulty": level}, 5)
    assert s.abyss["S"] == surv and s.abyss["P"] == para and sum(s.abyss[t] for t in "GMBV") == 140
    assert s.supply["S"] == 10 - surv and census(s)["total"] == 195
    if level == "easy":
        assert all(c.items for c in s.characters)          # Starting Items
    else:
        assert not any(c.items for c in s.characters)
    if level in ("difficult", "hard"):
        assert len(s.sunken) == 1                          # one Foundering at the start
    else:
        assert s.group_at == start and not s.sunken


# ------------------------------------------------------------------ Day
def test_foundering_sinks_the_next_higher_then_lower_location():
    s = new(quick=True, auto_start=True)
    s.sunken = [5, 6, 7]
    from rules.carnival_zombie.engine import G, _content
    g = G(s, _content(s))
    assert ENGINE._foundering(g, 5) == 8
    s.sunken = [17, 18]
    assert ENGINE._foundering(g, 18) == 16                 # nothing higher: the nearest lower one (A16)
    s.sunken = [1, 2, 3, 4, 5, 6]
    assert ENGINE._foundering(g, 9) is None                # all 6 Foundering Tokens used


def test_sunrise_rituals_from_day_two_and_the_sunken_penalty():
    s = new(quick=True, auto_start=True, location=6)
    assert not s.sunken                                    # A12: no Sunrise on Day 1
    s.sunken.append(6)
    opts = {d: cost for d, dest, cost in ENGINE.move_options(s)}
    assert opts["W"] == 2                                  # leaving a Sunken Location: +1 Hour


def test_ending_the_day_in_a_sunken_location_loses():
    s = new(quick=True, auto_start=True, location=6)
    s.sunken.append(6)
    assert "Sunken" in next(said(o) for o in prompt(s).options if o.id == "stop")
    answer(s, "stop")
    while not s.over:
        answer(s, options(s)[0] if kind(s) != "dayact" else "rest")
    assert s.result == "loss" and s.reason == "sunken"


def test_search_results_item_and_survivor():
    s = new(quick=True, auto_start=True)
    answer(s, "stop")
    nm_top(s, "nm01")                                      # Item
    answer(s, "search", expect="dayact")
    assert len(ch(s, "capitan").items) == 1
    nm_top(s, "nm09")                                      # Survivor -> into the Abyss
    before = s.abyss["S"]
    answer(s, "search", expect="dayact")
    assert s.abyss["S"] == before + 1
    s.supply["S"], s.gamebox["S"] = 0, s.gamebox.get("S", 0) + s.supply["S"]
    nm_top(s, "nm10")                                      # Survivor with none left: an Item instead
    answer(s, "search", expect="dayact")
    assert len(ch(s, "arlecchino").items) == 1


def test_day_abilities():
    s = new(quick=True, auto_start=True)
    answer(s, "stop")
    for c in s.characters:
        c.stress = 3
    answer(s, "abil")                                      # Capitan: Rally
    assert ch(s, "capitan").stress == 3 and ch(s, "colombina").stress == 2
    answer(s, "abil")                                      # Colombina: Exploration
    assert s.fewer_obstacles == 2
    nm_top(s, "nm01", "nm14")
    answer(s, "abil")                                      # Arlecchino: Scavenge, item or infected
    answer(s, "r.item", expect="scavenge")
    assert len(ch(s, "arlecchino").items) == 1
    barr = s.storage["#"]
    answer(s, "abil")                                      # Brighella: Fortify
    assert s.storage["#"] == barr + 4
    answer(s, "abil")                                      # Pantalone: Barter
    answer(s, "c.medico", expect="target")
    assert len(ch(s, "medico").items) == 1
    answer(s, "abil")                                      # Medico: Treatment
    answer(s, "c.brighella")
    assert ch(s, "brighella").stress == 0 and s.hour == 2


def test_arsenal_and_campanile_specials_and_the_airship_finale():
    s = new(quick=True, auto_start=True, location=5)
    answer(s, "stop")
    assert "spec" in options(s)
    answer(s, "spec")
    assert s.airship_called
    assert "spec" not in options(s)


def test_stress_incapacitation_and_reanimate():
    s = new(quick=True, auto_start=True)
    answer(s, "stop")
    from rules.carnival_zombie.engine import G, _content
    g = G(s, _content(s))
    c = ch(s, "colombina")
    ENGINE._stress(g, c, 20)
    assert c.incapacitated and c.stress == 9
    assert "rean.colombina" in options(s)
    answer(s, "rean.colombina")
    assert not c.incapacitated and c.stress == 5
    # Colombina acts this Hour: her turn comes after Capitan's
    assert said(prompt(s)).startswith("Day 1, Hour 1: Colombina")


def test_all_incapacitated_loses_at_once():
    s = new(quick=True, auto_start=True)
    from rules.carnival_zombie.engine import G, _content
    g = G(s, _content(s))
    for c in s.characters:
        ENGINE._stress(g, c, 9)
    assert s.over and s.result == "loss" and s.reason == "incapacitated"
    assert ENGINE.pending(s) == []


# ------------------------------------------------------------------ Sunset
def test_exploration_lets_the_group_drop_obstacles():
    s = new(quick=True, auto_start=True, location=4)
    s.fewer_obstacles = 2
    answer(s, "go.S")
    answer(s, "go.N")
    answer(s, "go.S")
    answer(s, "go.N")                                     # 4 Hours of walking: straight to Sunset
    assert kind(s) == "explore"
    assert set(options(s)) == {"b0", "b1", "b2"}
    answer(s, "b2")
    until(s, {"barricades"}, policy=lambda s, k, ids: ids[0] if k.startswith("terrain") else None)
    colours = [ENGINE_T[t] for t in s.night.obstacles.values()]
    assert colours.count("black") == 0 and colours.count("blue") == 2


ENGINE_T = {"building": "black", "catacomb": "black", "manhole": "blue", "pier": "blue"}


def test_pier_brings_bosses_and_infected_to_ring_two():
    s = night()
    s.night.obstacles = {"E1.3": "pier"}
    from rules.carnival_zombie.engine import G, _content
    g = G(s, _content(s))
    s.boss_deck.remove("joker")
    s.boss_area[0] = BossSlot(boss="joker")
    ENGINE.place_boss(g, 0, "E1")
    assert s.boss_area[0].pos == "E1.2"


# ------------------------------------------------------------------ Night
def test_paranoia_goes_to_a_character_in_that_pit():
    s = night()
    for c in s.characters:
        c.refuge = "S"
    ch(s, "medico").refuge = "N"
    s.bag_script = ["P"] + ["V"] * 40
    while s.night.hour == 1:
        answer(s, "end" if "end" in options(s) else "auto")
    # the Paranoia cube was drawn for N1 (first Cave): the only Character in the North is Medico
    assert ch(s, "medico").paranoia


def test_paranoia_choice_is_asked_when_several_can_take_it():
    s = night()
    s.bag_script = ["P"] + ["V"] * 40
    while kind(s) == "act":
        answer(s, "end")
    while kind(s) == "attack":
        answer(s, "auto")
    assert kind(s) == "paranoia" and len(options(s)) == 6
    answer(s, "brighella")
    assert ch(s, "brighella").paranoia


def test_second_action_costs_one_stress_and_order_tokens_waive_it():
    s = night()
    c = s.characters[0]
    assert c.id == "capitan"
    answer(s, "order.colombina")
    answer(s, "mv.E")
    answer(s, "mv.N")
    assert c.stress == 1
    answer(s, "end")
    col = ch(s, "colombina")
    answer(s, "mv.E")
    answer(s, "mv.N")
    assert col.stress == 0 and not col.order_token


def test_survivor_action_stops_a_boss_until_next_hour():
    s = night()
    s.boss_deck.remove("martyr")
    s.boss_area[0] = BossSlot(boss="martyr", pos="N1.1")
    s.storage["S"], s.supply["S"] = 1, s.supply["S"] - 1
    answer(s, "surv.0")
    assert s.boss_area[0].survivor and s.storage["S"] == 0
    while s.night.hour == 1:
        answer(s, "end" if "end" in options(s) else "auto")
    assert all(c.stress == 0 for c in s.characters)        # the Martyr did not attack
    assert s.boss_area[0].pos == "N1.1"                     # ...nor move
    assert not s.boss_area[0].survivor                       # released at Hour 2's activation
    assert census(s)["total"] == 195


def test_building_limits_fire_to_ring_one():
    s = night()
    s.night.obstacles = {"N1.1": "building"}
    put(s, "N1.2", V=1)
    put(s, "N2.2", V=1)
    assert ENGINE.fire_spaces(s, s.characters[0]) == ["N2.2"]


def test_belltower_adds_the_adjacent_caves():
    s = night()
    s.night.forts = {"N": "belltower"}
    put(s, "W1.1", V=1)
    put(s, "E2.1", V=1)
    put(s, "W2.1", V=1)
    assert sorted(ENGINE.fire_spaces(s, s.characters[0])) == ["E2.1", "W1.1"]


def test_catacomb_lets_infected_past_barricades():
    s = night()
    s.night.obstacles = {"N1.1": "catacomb"}
    box(s, "N1", "#", "#", "")
    put(s, "N1.1", M=1, V=1)
    ENGINE.movement(s)
    assert s.night.boxes["N1"] == ["#", "#", "M"] and s.night.rings["N1.1"]["V"] == 1


def test_altar_sends_kills_back_to_the_abyss():
    s = night()
    s.night.forts = {"N": "altar"}
    put(s, "N1.1", V=1)
    abyss = s.abyss["V"]
    answer(s, "fire.s")                 # the Vermin is the only target: the Hit lands without a question
    assert s.abyss["V"] == abyss + 1 and not sum(s.pile.values())


def test_jerrycans_make_hits_explosive_for_a_barricade():
    s = night()
    s.night.forts = {"N": "jerrycans"}
    box(s, "N1", "#")
    put(s, "N1.1", V=3)
    answer(s, "fireJ.s")
    assert s.night.boxes["N1"][0] == ""      # N1 Ring I is the only space in range: no question
    assert s.night.rings["N1.1"]["V"] == 0


def test_alley_fortification_blocks_outside_attackers():
    s = night()
    s.night.forts = {"N": "alley"}
    put(s, "N1.1", M=2)
    while kind(s) == "act":
        answer(s, "end")
    assert all(c.stress == 0 for c in s.characters)


def test_fire_costs_stress_when_enemies_are_in_this_pits_boxes():
    s = night()
    box(s, "N1", "V")
    put(s, "N2.1", V=1)
    answer(s, "fire.s")
    assert s.characters[0].stress == 1
    assert "N1.b.V" not in options(s)                     # boxes are never Fire targets


def test_focus_the_attacks_within_one_activation_only():
    s = night()
    put(s, "N1.1", G=1, V=1)             # two targets, so the player is asked where each Hit goes
    cap = s.characters[0]
    answer(s, "fire.s")                 # the sample Pistol: 3 Hits of 1; one on the Goliath, two wasted
    answer(s, "N1.1.G")
    answer(s, "waste")
    answer(s, "waste")
    assert s.night.rings["N1.1"]["G"] == 1
    answer(s, "fire.s")                 # second Action: the Wound carries over (Focus)
    answer(s, "N1.1.G")
    assert s.night.rings["N1.1"]["G"] == 0 and cap.stress == 1
    put(s, "N1.1", G=1)
    answer(s, "end")
    answer(s, "fire.s")                 # Colombina: one Rifle Hit of 2 kills a Goliath alone (her only target)
    assert s.night.rings["N1.1"]["G"] == 0


def test_boss_kill_reward_item_for_a_random_character():
    s = night()
    s.boss_deck.remove("bride")
    s.boss_area[0] = BossSlot(boss="bride", pos="N1.1")    # Life 2
    answer(s, "fire.s")                 # the Bride is the only target: both Hits land on her, unasked
    assert s.boss_area[0] is None and kind(s) == "reward"
    items = sum(len(c.items) for c in s.characters)
    answer(s, "item")
    assert sum(len(c.items) for c in s.characters) == items + 1
    assert s.supply["W"] == 15


def test_attack_cancelled_by_a_survivor_or_an_item():
    s = night()
    put(s, "N1.1", M=2)
    s.storage["S"], s.supply["S"] = 1, s.supply["S"] - 1
    ch(s, "colombina").items = ["spyglass"]
    while kind(s) == "act":
        answer(s, "end")
    assert assign_attacks(s, [("Moloch", "N1", "surv"), ("Moloch", "N1", "x.colombina")]) == 1
    assert all(c.stress == 0 for c in s.characters) and not ch(s, "colombina").items
    assert s.gamebox["S"] >= 1


def _four_attacks_on_the_north():
    """Hour 1's attack step with four attacks from N1 on the two Characters in the North."""
    s = night()
    clear_board(s)
    s.night.obstacles, s.night.forts = {}, {}
    put(s, "N1.1", M=2, V=2)
    s.supply["S"], s.storage["S"] = s.supply["S"] + s.storage["S"], 0
    for c in s.characters:
        c.refuge, c.stress, c.items, c.paranoia = ("N" if c.id in ("capitan", "colombina") else "S"), 0, [], False
    while kind(s) == "act":
        answer(s, "end")
    return s


def test_a_step_with_several_attacks_asks_once():
    """Issue 13: the attack assignments of one step are ONE multi-choice question, not one per attack."""
    s = _four_attacks_on_the_north()
    p = prompt(s)
    assert p.kind == "attack" and p.min_choices == 1 and p.max_choices == len(p.options) == 9
    assert [(a, c) for _k, a, c in attack_rows(p)] == [("Moloch", "N1")] * 2 + [("Vermin", "N1")] * 2
    assert said(p).startswith("4 attacks to assign: 1. the Moloch in N1 (2 Stress), 2. the Moloch in N1")
    rows = [k for k, _a, _c in attack_rows(p)]
    # both Molochs on the Capitan, the first Vermin on Colombina; the last one is left to be spread
    ENGINE.step(s, Choose(p.id, (f"{rows[0]}.t.capitan", f"{rows[1]}.t.capitan", f"{rows[2]}.t.colombina")),
                Actor(p.player))
    assert (ch(s, "capitan").stress, ch(s, "colombina").stress) == (4, 2)    # the last Vermin: the least stressed
    assert kind(s) != "attack" and s.night.hour == 2


def test_two_choices_for_one_attack_are_refused():
    s = _four_attacks_on_the_north()
    p = prompt(s)
    first = attack_rows(p)[0][0]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(s, Choose(p.id, (f"{first}.t.capitan", f"{first}.t.colombina")), Actor(p.player))
    assert refused.value.code == "one_choice_per_attack" and refused.value.params == {"n": 1}


def test_auto_alone_spreads_every_attack_of_the_step():
    s = _four_attacks_on_the_north()
    answer(s, "auto", expect="attack")
    assert (ch(s, "capitan").stress, ch(s, "colombina").stress) == (3, 3)    # 2+1 each, lowest Stress first


def test_an_item_thrown_away_asks_which_when_there_are_several():
    s = _four_attacks_on_the_north()
    ch(s, "colombina").items = ["spyglass", "m16"]
    p = prompt(s)
    first = attack_rows(p)[0][0]
    ENGINE.step(s, Choose(p.id, (f"{first}.x.colombina",)), Actor(p.player))
    assert kind(s) == "discard"
    answer(s, "i1")
    assert ch(s, "colombina").items == ["spyglass"] and s.night.hour == 2
    assert ch(s, "capitan").stress + ch(s, "colombina").stress == 4         # 3 attacks landed: 2+1+1


def test_pile_spill_honour_mode_and_terror():
    s = night(house_rules={"pile_mode": "honour"})
    put(s, "N1.1", V=2)
    cap = s.characters[0]
    cap.stress = 5                          # in Terror
    answer(s, "fire.s")                     # both Vermin, the only targets, are hit unasked
    assert kind(s) == "pile_honour"
    answer(s, "f2")
    assert all(c.stress == (6 if c is cap else 1) for c in s.characters)   # everyone +1, the dropper once
    assert kind(s) == "spill_split"
    answer(s, "k1")
    assert s.night.rings["N1.3"].get("V") == 1 and s.night.rings["N2.3"].get("V") == 1
    assert census(s)["total"] == 195


def test_probabilistic_spill_formula():
    eng = CarnivalZombie()
    assert eng.spill_chance(1, 0) == pytest.approx(0.02)
    assert eng.spill_chance(5, 50) == pytest.approx(0.4)
    assert eng.spill_chance(10, 100) == 0.6


def _a_drop_in_reaction_mode():
    s = night(house_rules={"pile_mode": "reaction"})
    put(s, "N1.1", V=1)
    answer(s, "fire.s")
    assert kind(s) == "pile_react" and options(s) == ["drop"] and prompt(s).confirm
    return s


def test_reaction_mode_the_click_carries_its_timing():
    """The "Drop!" click is ONE action carrying the reaction time: nothing is left waiting after it."""
    from rules.carnival_zombie import PileTiming
    s = _a_drop_in_reaction_mode()
    first = prompt(s).id
    with pytest.raises(IllegalAction):                         # a timing alone answers nothing now
        ENGINE.apply(s, PileTiming(ms=900), Actor("u1"))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, PileTiming(first, ("drop",), 900), Actor("someone else"))
    with pytest.raises(StalePrompt):
        ENGINE.apply(s, PileTiming("pile_react.1", ("drop",), 900), Actor("u1"))
    out = ENGINE.apply(s, ENGINE.load_action({"type": "pile_timing", "prompt": first, "options": ["drop"],
                                              "ms": 1500}), Actor("u1"))
    timed = [e for e in out.events if e.kind == "pile_timing"]
    assert timed and "quick hand (1.5 s)" in said(timed[0]) and timed[0].data["factor"] == 0.5
    assert sum(out.state.pile.values()) == 1 and census(out.state)["total"] == 195
    assert not ENGINE.pending(out.state) or ENGINE.pending(out.state)[0].kind != "pile_react"
    # any other driver answers "Drop!" with a plain choice: the drop lands at once, untimed
    events = answer(s, "drop")
    assert [e.data["factor"] for e in events if e.kind == "pile_untimed"] == [1.0]
    assert not ENGINE.pending(s) or ENGINE.pending(s)[0].id != first


def test_a_drop_left_waiting_for_its_timing_by_an_older_version_still_lands():
    from rules.carnival_zombie import PileTiming
    s = _a_drop_in_reaction_mode()
    s.ask = {**s.ask, "timing": True}                        # as the two-action version left it
    waiting = prompt(s)
    assert options(s) == ["untimed"]
    out = ENGINE.apply(s, PileTiming(ms=20000), Actor("u1"))
    assert [e.data["factor"] for e in out.events if e.kind == "pile_timing"] == [2.0]
    answer(s, "untimed")
    assert not ENGINE.pending(s) or ENGINE.pending(s)[0].id != waiting.id


def test_reaction_windows():
    assert ENGINE.reaction_factor(-1) == (1.0, "untimed")
    assert ENGINE.reaction_factor(2999)[0] == 0.5
    assert ENGINE.reaction_factor(15000)[0] == 1.0
    assert ENGINE.reaction_factor(15001)[0] == 2.0


def test_battle_focus_penalty():
    s = night(house_rules={"battle_focus": True})
    before = sum(s.abyss.values())
    out = ENGINE.apply(s, ENGINE.load_action({"type": "focus_penalty", "reason": "chatter"}), Actor("u1"))
    assert sum(out.state.abyss.values()) == before - 3
    s2 = night()
    with pytest.raises(IllegalAction):
        ENGINE.apply(s2, ENGINE.load_action({"type": "focus_penalty"}), Actor("u1"))


def calm(s, k, ids):
    """A policy that keeps the Night quiet: the board cleared and Stress reset before each action,
    entering from the North."""
    if k == "act":
        clear_board(s)
        for c in s.characters:
            c.stress = 0
    return "N" if k in ("enter", "terrain_pit") else None


def test_survivors_rescued_at_dawn_only_from_empty_caves():
    s = new(quick_night=True, location=6, house_rules=OFF)
    answer(s, "start")

    until(s, {"dawn_exit"}, policy=calm)
    clear_board(s)
    for sp, _code in (("S1.3", "S"), ("S2.3", "S")):
        s.supply["S"] -= 1
        s.night.rings[sp]["S"] = 1
    put(s, "S2.2", V=1)
    answer(s, "N")
    while not s.phase == "day":
        answer(s, options(s)[-1] if kind(s) != "attack" else "auto")
    assert s.storage["S"] == 1 and s.gamebox["S"] >= 1


# ------------------------------------------------------------------ Finales and the end
def _to_sunset(s):
    until(s, {"finale", "explore", "barricades", "terrain_cave", "terrain_pit", "enter"},
          policy=lambda s, k, ids: "stop" if "stop" in ids else ("rest" if "rest" in ids else None))


def test_leviathan_rises_on_the_third_night_without_a_finale():
    s = new(quick=True, auto_start=True, ticket=3, location=6)
    _to_sunset(s)
    assert s.over and s.result == "loss" and s.reason == "leviathan_sunset"


def test_leviathan_at_dawn_house_rule():
    s = new(quick=True, auto_start=True, ticket=3, location=6, house_rules={"leviathan_check": "dawn"})
    _to_sunset(s)
    assert not s.over


def test_airship_finale_needs_the_pilot():
    s = new(quick=True, auto_start=True, ticket=3, location=3)
    _to_sunset(s)
    assert s.over                                           # the pilot was never called
    s = new(quick=True, auto_start=True, ticket=3, location=3)
    s.airship_called = True
    _to_sunset(s)
    assert kind(s) == "finale" and "fin.airship" in options(s)
    answer(s, "fin.airship")
    assert s.night.finale == "airship" and not s.over


def _finish_night(s):
    until(s, {"dawn_exit", "dawn_asl"}, policy=calm)     # one Alley out: the Dawn exit is not asked
    if not s.over and kind(s) == "dawn_exit":
        answer(s, options(s)[0])
    while not s.over:
        answer(s, options(s)[-1] if kind(s) != "attack" else "auto")


def test_finale_win_scores():
    s = new(["a", "b"], quick=True, auto_start=True, ticket=3, location=1, difficulty="difficult",
            house_rules=OFF)
    _to_sunset(s)
    answer(s, "fin.bridge")
    _finish_night(s)
    assert s.result == "win" and s.reason == "finale_won" and s.reason_args["finale"] == "bridge"
    active = [c for c in s.characters if not c.incapacitated]
    assert s.score["characters"] == 5 * len(active) and s.score["players"] == 4
    assert s.score["difficulty"] == 20 and s.score["survivors"] == 3 * s.storage["S"]
    assert s.score["stress"] == -sum(c.stress for c in active)
    # the table is told the score and its parts (issue 13: the win message showed no score)
    final = [e for e in s.log if e["kind"] == "final_score"]
    assert [e["data"] for e in final] == [s.score]
    assert said(Event("final_score", s.score)).startswith(f"🏆 Score {s.score['total']}: Characters ")


def test_boat_finale_sinks_when_the_hull_is_gone():
    s = new(quick=True, auto_start=True, ticket=3, location=10, house_rules=OFF)
    _to_sunset(s)
    answer(s, "fin.boat")
    assert s.night.hull == content_for(s.pack).finales["boat"]["hull"] == 12     # the sample pack's Boat
    s.night.hull = 0
    _finish_night(s)
    assert s.result == "loss" and s.reason == "finale_sank"


def test_holy_bomb_finale_needs_the_bomb_bearer():
    s = new(quick=True, auto_start=True, ticket=3, location=12, house_rules=OFF)
    _to_sunset(s)
    assert s.over                                           # nobody holds the Holy Bomb
    s = new(quick=True, auto_start=True, ticket=3, location=12, house_rules=OFF)
    ch(s, "pantalone").items.append("holy_bomb")
    s.item_decks["pantalone"].remove("holy_bomb")
    _to_sunset(s)
    answer(s, "fin.holy_bomb")
    _finish_night(s)
    assert s.result == "win" and s.reason == "finale_won" and s.reason_args["finale_name"] == {
        "text": {"en": "Holy Bomb", "it": "Bomba Santa", "es": "Bomba Santa"}}    # the pack's name, in every language


def test_finales_as_scenarios_start_at_their_location():
    s = ENGINE.new_game(["a"], {"scenario": "finale_holy_bomb"}, 4)
    assert s.group_at == 12 and "holy_bomb" in ch(s, "pantalone").items
    assert s.phase == "setup"
    answer(s, "start")
    assert s.phase == "story"                               # Finale as Scenario keeps the Story so far


# ------------------------------------------------------------------ secrets, serialisation, packs
def test_traitor_never_leaks_to_public():
    for seed in range(6):
        s = ENGINE.new_game(["a", "b", "c"], {"scenario": "jmot"}, seed)
        out = ENGINE.apply(s, Choose(prompt(s).id, ("start",)), Actor("a"))
        traitor = out.state.traitor
        assert traitor in ("a", "b", "c")
        secret = [e for e in out.events if e.kind == "secret"]
        assert secret and all(e.audience == traitor for e in secret)
        assert all(e.audience != PUBLIC for e in secret)
        roles = [e for e in out.events if e.kind == "role"]       # every loyal seat gets a role DM too
        assert sorted(e.audience for e in roles) == sorted({"a", "b", "c"} - {traitor})
        public = ENGINE.view_for(out.state, PUBLIC)
        assert "traitor" not in json.dumps(public)
        for other in {"a", "b", "c"} - {traitor}:
            assert "traitor" not in ENGINE.view_for(out.state, other)
        assert ENGINE.view_for(out.state, traitor)["traitor"] == traitor
        assert ENGINE.view_for(out.state, GM)["traitor"] == traitor
        for e in out.events:
            if e.audience == PUBLIC:
                assert "traitor" not in said(e).lower()


def test_public_view_hides_deck_order_and_is_json():
    s = ENGINE.new_game(["a"], {}, 4)
    v = ENGINE.view_for(s, PUBLIC)
    text = json.dumps(v)
    assert "nm0" not in text and "rng" not in text and "bag_script" not in text
    assert v["decks"]["nightmare"] == 18 and v["decks"]["bosses"] == 10
    for key in ("calendar", "clock", "map", "characters", "bosses", "storage", "abyss", "pile", "night", "log"):
        assert key in v


def test_state_round_trips_through_json():
    s = night()
    put(s, "N1.1", G=1)
    answer(s, "fire.s")                 # the Goliath is the only target
    data = json.loads(json.dumps(ENGINE.dump_state(s)))
    again = ENGINE.load_state(data)
    assert again == s
    p = prompt(again)
    out = ENGINE.apply(again, Choose(p.id, (p.options[0].id,)), Actor(p.player))
    assert out.state is not again


def test_stale_prompt_is_refused():
    s = new(quick=True, auto_start=True)
    p = prompt(s)
    s2 = ENGINE.apply(s, Choose(p.id, ("stop",)), Actor("u1")).state
    with pytest.raises(StalePrompt):
        ENGINE.apply(s2, Choose(p.id, ("stop",)), Actor("u1"))


def test_sample_pack_and_guild_pack_errors():
    pack = load_sample_pack()
    assert pack["provisional"] and len(pack["items"]) == 60 and len(pack["nightmare"]) == 18
    import yaml
    doc = yaml.safe_load(sample_text("carnival_zombie"))
    doc["characters"][2]["assault"] = "strong"
    [assault] = problems(load_pack_text, yaml.safe_dump(doc), "guild.yaml")
    assert brief(assault) == ("type", "guild.yaml", ("characters", 2), "Arlecchino", "assault")
    doc = yaml.safe_load(sample_text("carnival_zombie"))
    doc["map"]["alleys"].append([6, "W", 13, 0])
    west, east = problems(load_pack_text, yaml.safe_dump(doc), "guild.yaml")     # both ends of the new Alley
    assert brief(west) == ("alley_twice", "guild.yaml", ("map", "alleys", len(doc["map"]["alleys"]) - 1), "", "")
    assert (west.params, east.params) == ({"location": 6, "direction": {"term": "dir_W"}},
                                          {"location": 13, "direction": {"term": "dir_E"}})


def test_a_guild_pack_plays():
    import yaml
    doc = yaml.safe_load(sample_text("carnival_zombie"))
    doc["terror_track"]["spaces"] = 10
    doc["ruleset"] = "guild-test"
    pack = load_pack_text(yaml.safe_dump(doc), "guild.yaml")
    s = ENGINE.new_game(["a"], {"pack": pack, "quick": True, "auto_start": True}, 2)
    assert ENGINE.view_for(s, PUBLIC)["terror_track"]["spaces"] == 10
    again = ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(s))))
    out = ENGINE.apply(again, Choose(prompt(again).id, ("stop",)), Actor("a"))
    assert out.state.pack["ruleset"] == "guild-test"


def test_sunrise_of_day_two_sinks_a_location_and_draws_an_event():
    s = new(quick_night=True, location=6, house_rules=OFF)
    answer(s, "start")
    nm_before = None
    _finish_dawn_only(s)
    assert s.phase == "day" and s.ticket == 2 and len(s.sunken) == 1
    assert any(line["kind"] == "event" for line in s.log)
    assert len(s.nightmare) + len(s.nightmare_discard) == 18
    del nm_before


def _finish_dawn_only(s):
    until(s, {"dawn_exit"}, policy=calm)
    clear_board(s)
    answer(s, "W")
    while s.phase == "dawn" and not s.over:
        answer(s, options(s)[-1] if kind(s) != "attack" else "auto")


def test_dawn_assault_scope_house_rule():
    for scope, expect in (("pit", False), ("anywhere", True)):
        s = new(quick_night=True, location=6, house_rules={**OFF, "dawn_assault_scope": scope})
        answer(s, "start")


        until(s, {"dawn_exit"}, policy=calm)
        clear_board(s)
        put(s, "E1.1", V=1)
        answer(s, "W")
        assert (kind(s) == "dawn_asl") is expect


def test_night_step_one_items():
    s = new(quick_night=True, location=8, house_rules=OFF)
    ch(s, "pantalone").items = ["laudanum"]
    s.item_decks["pantalone"].remove("laudanum")
    ch(s, "pantalone").stress = 4
    answer(s, "start")
    until(s, {"item_use"}, policy=lambda s, k, ids: "N" if k in ("enter", "terrain_pit") else None)
    assert options(s) == ["use.0", "done"]
    answer(s, "use.0")
    assert ch(s, "pantalone").stress == 1 and ch(s, "pantalone").items == []


def test_boss_powers_summon_and_fury():
    s = night()
    s.boss_deck.remove("admiral")
    s.boss_area[0] = BossSlot(boss="admiral", pos="S1.3")        # sample power: summon 1
    s.bag_script = ["G"]
    ENGINE.movement(s)
    assert s.night.rings["S1.2"].get("G") == 1 and s.boss_area[0].pos == "S1.3"   # summoned, then moved
    s.boss_deck.remove("cardinal")
    s.boss_area[1] = BossSlot(boss="cardinal", pos="W1.1")       # sample power: fury +1 in the boxes
    ENGINE.movement(s)
    assert s.boss_area[1].pos == "W1.b"
    from rules.carnival_zombie.engine import G, _content
    attackers = ENGINE._attackers(G(s, _content(s)), None)
    assert next(a for a in attackers if a["code"] == "@1")["atk"] == 3


def test_terror_spill_house_rule_hits_the_dropper_twice():
    s = night(house_rules={"pile_mode": "honour", "terror_spill_everyone_once": False})
    put(s, "N1.1", V=1)
    cap = s.characters[0]
    cap.stress = 5
    answer(s, "fire.s")
    answer(s, "f1")
    assert cap.stress == 7


def test_traitor_stays_secret_through_whole_games():
    import random as _random

    from .policies import random_policy
    for seed in range(5):
        r = _random.Random(seed)
        seats = ["seat-1001", "seat-1002", "seat-1003", "seat-1004"][: 3 + seed % 2]
        s = ENGINE.new_game(seats, {"scenario": "jmot"}, seed)
        assert len(s.characters) == len(seats)
        pick = random_policy(r)
        while True:
            p = ENGINE.pending(s)[0]
            out = ENGINE.apply(s, Choose(p.id, (pick(s, p),)), Actor(p.player))
            s = out.state
            if s.over:
                break
            assert "traitor" not in ENGINE.view_for(s, PUBLIC)
            for e in out.events:
                if e.audience == PUBLIC:
                    assert "traitor" not in said(e).lower()
                    assert "traitor" not in json.dumps(e.data)
                else:
                    assert e.audience == s.traitor or (e.kind == "role" and "traitor:" not in said(e))


def test_traitor_sabotage_and_unmask():
    from rules.carnival_zombie import Sabotage, Unmask
    seats = ["seat-1", "seat-2", "seat-3"]
    s = ENGINE.new_game(seats, {"scenario": "jmot", "quick_night": True, "location": 8,
                                "house_rules": {"pile_mode": "off"}}, 7)
    s = ENGINE.apply(s, Choose(prompt(s).id, ("start",)), Actor("seat-1")).state
    traitor = s.traitor
    loyal = next(p for p in seats if p != traitor)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, Sabotage("E1"), Actor(loyal))
    out = ENGINE.apply(s, Sabotage("E1"), Actor(traitor))
    assert all(e.audience in (traitor, GM) for e in out.events)
    assert "sabotage" not in ENGINE.view_for(out.state, PUBLIC)
    assert ENGINE.view_for(out.state, traitor)["sabotage"]["cave"] == "E1"
    with pytest.raises(IllegalAction):
        ENGINE.apply(out.state, Sabotage("N1"), Actor(traitor))     # once per Night
    s = out.state
    s.bag_script = ["V"] * 26
    events = []
    while not (s.night and s.night.hour >= 1 and s.stage == "n_activate"):
        p = prompt(s)
        ids = [o.id for o in p.options]
        out = ENGINE.apply(s, Choose(p.id, ("N" if "N" in ids else ids[0],)), Actor(p.player))
        s, events = out.state, events + out.events
    entrance = next(e for e in events if e.kind == "entrance" and "drawn" in e.data)
    assert entrance.data["drawn"]["V"] == 26
    assert any("spits 2 more" in said(e) for e in events)
    # unmask: the next attack ignores Barricades
    out = ENGINE.apply(s, Unmask(), Actor(traitor))
    s = out.state
    assert ENGINE.view_for(s, PUBLIC)["traitor"] == traitor
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, Unmask(), Actor(traitor))
    clear_board(s)
    box(s, "N1", "#", "#", "#")
    put(s, "N1.1", V=1)
    for c in s.characters:
        c.stress = 0
    hour = s.night.hour
    events = []
    while s.night.hour == hour and kind(s) == "act":
        events += answer(s, "end")
    assert any("cannot be stopped" in said(e) for e in events)
    assert [e.kind for e in events].count("stress") >= 1
    assert not any("smashes a Barricade in N1" in said(e) for e in events)


def test_night_items_during_activation_are_free():
    s = night()
    cap = s.characters[0]
    cap.items = ["brandy"]
    s.item_decks["capitan"].remove("brandy")
    cap.stress = 3
    assert "use.0" in options(s)
    answer(s, "use.0")
    assert cap.stress == 1 and cap.items == [] and s.ctx["acts"] == 0
    assert said(prompt(s)).startswith("Night Hour 1: Capitan")


# ------------------------------------------------------------------ every house-rule switch has an effect
def test_house_rule_day1_sunrise_rituals():
    s = new(quick=True, auto_start=True, house_rules={"day1_sunrise_rituals": True})
    assert len(s.sunken) == 1 and any(line["kind"] == "event" for line in s.log)
    s = new(quick=True, auto_start=True)
    assert not s.sunken


def test_house_rule_allow_early_finale():
    s = new(quick=True, auto_start=True, location=1, house_rules={"allow_early_finale": True})
    _to_sunset(s)
    assert kind(s) == "finale" and "fin.bridge" in options(s)
    s = new(quick=True, auto_start=True, location=1)
    _to_sunset(s)
    assert kind(s) != "finale"


def test_house_rule_forced_first_move():
    for forced in (True, False):
        s = new(quick_night=True, location=6, house_rules={**OFF, "forced_first_move": forced})
        answer(s, "start")
        _finish_dawn_only(s)
        assert s.phase == "day" and s.forced_dir == "W"
        ids = options(s)
        assert (ids == ["go.W"]) is forced and ("stop" in ids) is (not forced)


def test_house_rule_box_entry_costs_move():
    for costs, expect in ((True, ["", "", ""]), (False, ["V", "", ""])):
        s = night(house_rules={"box_entry_costs_move": costs})
        put(s, "N1.2", V=1)
        ENGINE.movement(s)
        assert s.night.boxes["N1"] == expect


def test_house_rule_boss_wounds_persist():
    for persist in (True, False):
        s = new(quick_night=True, location=6, house_rules={**OFF, "boss_wounds_persist": persist})
        answer(s, "start")


        until(s, {"dawn_exit"}, policy=calm)
        clear_board(s)
        s.boss_deck.remove("tenor")
        s.boss_area[0] = BossSlot(boss="tenor", wounds=2, cubes=2, pos="E1.3")
        s.supply["W"] -= 2
        answer(s, "W")
        while s.phase == "dawn":
            answer(s, options(s)[-1] if kind(s) != "attack" else "auto")
        assert s.boss_area[0].wounds == (2 if persist else 0)
        assert census(s)["total"] == 195


def test_house_rule_survivor_rescue_counts_boxes():
    for counts in (True, False):
        s = new(quick_night=True, location=6, house_rules={**OFF, "survivor_rescue_counts_boxes": counts})
        answer(s, "start")


        until(s, {"dawn_exit"}, policy=calm)
        clear_board(s)
        s.supply["S"] -= 1
        s.night.rings["E1.3"]["S"] = 1
        box(s, "E1", "V")
        before = s.storage["S"]
        answer(s, "W")
        while s.phase == "dawn":
            answer(s, options(s)[-1] if kind(s) != "attack" else "auto")
        assert s.storage["S"] == before + (0 if counts else 1)


def test_no_question_where_a_hit_can_only_go_one_way():
    """Issue 13: a Hit whose only target is one Infected type lands there unasked; between two
    targets the player is asked, and "auto" aims the rest of the Hits at the first target listed."""
    s = night()
    put(s, "N1.1", V=1)
    answer(s, "fire.s")                                  # the sample Pistol: 3 Hits of 1
    assert kind(s) == "act" and s.night.rings["N1.1"]["V"] == 0
    s = night()
    put(s, "N1.1", V=2, M=1)
    answer(s, "fire.s")
    assert kind(s) == "hit" and options(s) == ["N1.1.M", "N1.1.V", "auto", "waste"]
    answer(s, "auto")                                    # every Hit on the first target still standing
    assert kind(s) == "act" and s.night.rings["N1.1"] == {"V": 0, "M": 0}
