"""Ranged combat: T7 (fractional rate of fire), T8 (aiming), T9 (firing into melee), bands, dodge, block."""

from rules.common import Actor, Rng
from rules.karmic import ENGINE
from rules.karmic.actions import PlayCard
from rules.karmic.character import character_from_sheet
from rules.karmic.ranged import aim, best_aim_card, can_fire, fired, turn_passes
from rules.karmic.tables import range_band_mod
from tests.rules.karmic.helpers import refused_as

ENRIS = {"name": "Enris", "attributes": {"finesse": 1, "might": 0},
         "skills": {"spear_throwing": 3, "bow": 2},
         "weapons": [{"name": "Thrown Spear", "skill": "spear_throwing", "range": 30, "force": 0,
                      "max_maneuvers": 1, "edge": 1, "max_damage": 5, "ranged": True, "aim": 3},
                     {"name": "Short Bow", "skill": "bow", "range": 60, "max_maneuvers": 0.5, "edge": 1,
                      "max_damage": 4, "ranged": True, "aim": 2}]}


def test_T7_short_bow_fires_every_other_turn():
    c = character_from_sheet(ENRIS)
    bow = c.weapons[1]
    assert can_fire(c, bow)            # turn 1
    fired(c, bow)
    turn_passes(c)
    assert not can_fire(c, bow)        # turn 2
    turn_passes(c)
    assert can_fire(c, bow)            # turn 3


def test_T7_through_a_check_the_bow_is_refused_while_readying():
    c = character_from_sheet(ENRIS)
    c.reload["Short Bow"] = 1
    with refused_as("still being readied"):
        ENGINE.new_game(["u1"], {"mode": "check", "actor": {"character": c, "player": "u1"},
                                 "ranged": {"weapon": "Short Bow", "distance": 10}})


def test_T8_enris_aims_a_thrown_spear_at_a_deer():
    rng = Rng.from_seed(8)
    c = character_from_sheet(ENRIS)
    spear = c.weapons[0]
    c.deck.stack(["2S", "4H", "7H", "5S"])
    for _ in range(3):
        aim(c, spear, rng)
    assert c.aim_row == ["2S", "4H", "7H"]
    before = len(c.deck.discards)
    dropped = aim(c, spear, rng)
    assert dropped == ["2S"] and c.aim_row == ["4H", "7H", "5S"]
    assert len(c.deck.discards) == before + 1
    assert best_aim_card(c) == "5S"
    # turn 5: he throws; the best aim card is the check's card for attack and damage
    out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": c, "player": "u1"},
                                "skill": "spear_throwing",
                                "ranged": {"weapon": "Thrown Spear", "distance": 5, "from_aim": True,
                                           "situation": ["stationary"]}}, 8)
    state = out.state
    assert sorted(state.check.sides[0].hand) == ["4H", "5S", "7H"]
    out = ENGINE.apply(state, PlayCard("5S"), Actor("u1"))
    res = out.state.check.result
    # 5 + finesse 1 + force 0 + stationary +1 + short range (5 ≤ 30/4) −2 = 5
    assert res["attack_total"] == 5 and res["success"]
    assert res["damage_total"] == 5 + 0 + 1 and res["damage"] == 5
    assert len(out.state.characters["c1"].deck.discards) == before + 1 + 3


def test_T9_firing_into_melee():
    def shoot(card):
        out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": ENRIS, "player": "u1"},
                                    "skill": "spear_throwing",
                                    "ranged": {"weapon": "Thrown Spear", "distance": 1, "into_melee": True},
                                    "stack": {"c1": [card, "AS", "2S"]}}, 9)
        return ENGINE.apply(out.state, PlayCard(card), Actor("u1")).state.check.result
    neg = shoot("5H")                   # −5 + 1 = −4: hits another combatant
    assert neg["attack_total"] == -4 and neg["into_melee"] == "other"
    assert neg["damage_total"] == 5 + 0 + 1       # inverse card value (+5) + might 0 + edge 1
    zero = shoot("AH")                  # −1 + 1 = 0: misses everyone
    assert zero["into_melee"] == "miss" and zero["damage"] is None
    pos = shoot("3S")
    assert pos["into_melee"] == "target" and pos["damage"] == 4


def test_range_bands_dodge_and_shield_block():
    assert range_band_mod(1, 60) == 0
    assert range_band_mod(15, 60) == -2
    assert range_band_mod(30, 60) == -4
    assert range_band_mod(60, 60) == -6
    with refused_as("out of range"):
        range_band_mod(61, 60)
    out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": ENRIS, "player": "u1"},
                                "skill": "spear_throwing",
                                "ranged": {"weapon": "Thrown Spear", "distance": 1, "dodge": 3, "block": 1},
                                "stack": {"c1": ["6S", "AH", "2H"]}}, 3)
    res = ENGINE.apply(out.state, PlayCard("6S"), Actor("u1")).state.check.result
    assert res["attack_total"] == 6 + 1 - 3 and res["success"]      # 4 > block 1
    out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": ENRIS, "player": "u1"},
                                "skill": "spear_throwing",
                                "ranged": {"weapon": "Thrown Spear", "distance": 1, "block": 5},
                                "stack": {"c1": ["3S", "AH", "2H"]}}, 3)
    res = ENGINE.apply(out.state, PlayCard("3S"), Actor("u1")).state.check.result
    assert res["attack_total"] == 4 and res.get("blocked") and not res["success"]


def test_target_dodges_or_blocks_with_its_own_check():
    deer = {"name": "Deer", "npc": True, "attributes": {"awareness": 1}, "skills": {"dodge": 1, "shield": 1}}
    out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": ENRIS, "player": "u1"},
                                "skill": "spear_throwing", "bot_plays_npcs": True,
                                "opponent": {"character": deer, "player": "gm"},
                                "ranged": {"weapon": "Thrown Spear", "distance": 1, "defense": "dodge"},
                                "stack": {"c1": ["6S", "AH", "2H"], "o1": ["2S"]}}, 3)
    res = ENGINE.apply(out.state, PlayCard("6S"), Actor("u1")).state.check.result
    assert res["attack_total"] == 6 + 1 - (2 + 1) and res["success"]       # dodge MT 3 subtracted
    out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": ENRIS, "player": "u1"},
                                "skill": "spear_throwing", "bot_plays_npcs": True,
                                "opponent": {"character": deer, "player": "gm"},
                                "ranged": {"weapon": "Thrown Spear", "distance": 1, "defense": "block"},
                                "stack": {"c1": ["4S", "AH", "2H"], "o1": ["5S"]}}, 3)
    res = ENGINE.apply(out.state, PlayCard("4S"), Actor("u1")).state.check.result
    assert res["attack_total"] == 5 and res.get("blocked") and not res["success"]   # 5 does not beat 5


def test_a_shot_without_a_named_skill_draws_the_weapon_skill_hand():
    """§5.2: the shot is a basic check with the weapon's skill: spear throwing 3 → three cards."""
    out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": ENRIS, "player": "u1"},
                                "ranged": {"weapon": "Thrown Spear", "distance": 5}}, 3)
    side = out.state.check.sides[0]
    assert side.skill == "spear_throwing" and len(side.hand) == 3
