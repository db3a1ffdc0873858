"""Ranged combat (digest §5): a basic check with the weapon skill, plus aiming, rate of fire,
range bands, dodge, shield block and firing into melee.

Check option `ranged` = {weapon, distance, situation: [running|prone|…], location, dodge (the
target's dodge total), block (the target's shield-block MT, opposed), into_melee, from_aim}.
"""
from __future__ import annotations

import math

from rules.common import IllegalAction, Rng

from .cards import value
from .character import Character, Weapon
from .tables import TARGET_SITUATION, location_mod, range_band_mod, skill_key


def weapon_named(char: Character, wname: str) -> Weapon:
    return char.weapons[char.weapon_index(wname)]


def can_fire(char: Character, weapon: Weapon) -> bool:
    return char.reload.get(weapon.name, 0) <= 0


def fired(char: Character, weapon: Weapon) -> None:
    """After a shot, a fractional rate waits: ½ → fires again two turns later (call turn_passes each turn)."""
    rate = float(weapon.max_maneuvers)
    char.reload[weapon.name] = math.ceil(1 / rate) if rate < 1 else 0


def turn_passes(char: Character) -> None:
    for k in list(char.reload):
        char.reload[k] = max(0, char.reload[k] - 1)


def aim(char: Character, weapon: Weapon, rng: Rng, card_rules: bool = True) -> list[str]:
    """One round of aiming: deal a card face up; beyond the weapon's Aim the oldest is discarded."""
    if weapon.aim <= 0:
        raise IllegalAction("cannot_aim", weapon=weapon.shown)
    deck = char.deck
    assert deck is not None, "a character on the table always carries its karma deck"
    card = deck.draw(rng, 1)[0]
    char.aim_row.append(card)
    dropped = []
    while len(char.aim_row) > weapon.aim:
        dropped.append(char.aim_row.pop(0))
    if dropped:
        deck.discard(dropped, card_rules)
    return dropped


def best_aim_card(char: Character) -> str:
    if not char.aim_row:
        raise IllegalAction("no_aim_cards")
    return max(char.aim_row, key=value)


def shots_allowed(weapon: Weapon) -> int:
    return max(1, int(weapon.max_maneuvers)) if weapon.max_maneuvers >= 1 else 1


def prepare(state, char: Character, opts: dict, side) -> None:
    if "weapon" not in opts:
        raise IllegalAction("ranged_needs_weapon")
    weapon = weapon_named(char, opts["weapon"])
    if not weapon.ranged:
        raise IllegalAction("not_ranged", weapon=weapon.shown)
    if not can_fire(char, weapon):
        raise IllegalAction("readying", weapon=weapon.shown, turns=math.ceil(1 / weapon.max_maneuvers))
    mod = weapon.force
    mod += location_mod(opts.get("location", "torso"), opts.get("size_class", "same"))
    for s in opts.get("situation", []):
        if s not in TARGET_SITUATION:
            raise IllegalAction("unknown_target_situation", situation=str(s)[:40])
        mod += TARGET_SITUATION[s]
    lance = opts.get("lance") or skill_key(weapon.skill) == "lance"    # L846: no modifier for distance
    if "distance" in opts and not lance:
        mod += range_band_mod(float(opts["distance"]), float(weapon.range))
    if not opts.get("into_melee"):
        mod -= max(0, int(opts.get("dodge", 0)))
    side.attribute = "finesse"
    side.modifier += mod
    side.skill = side.skill or weapon.skill
    opts["_weapon"] = weapon.name


def resolve(state, char: Character, opts: dict, actor_side, success: bool, defender=None) -> dict:
    """defender: the target's check side when it dodges (its positive total is subtracted) or
    blocks with a shield (opposed: the shot must beat the block), per A49."""
    weapon = weapon_named(char, opts["_weapon"])
    fired(char, weapon)
    total = actor_side.mt
    if defender is not None and opts.get("defense") == "dodge" and not opts.get("into_melee"):
        total -= max(0, defender.mt)
    elif defender is not None and opts.get("defense") == "block" and not opts.get("into_melee"):
        opts = dict(opts, block=defender.mt)
    card_value = actor_side.play.total
    out: dict = {"attack_total": total}
    if opts.get("into_melee"):
        if total > 0:
            outcome, dmg_card = "target", card_value
        elif total == 0:
            outcome, dmg_card = "miss", None
        else:
            outcome, dmg_card = "other", -card_value
        out["into_melee"] = outcome
    else:
        hit = total > 0
        if hit and "block" in opts and not total > int(opts["block"]):
            hit = False
            out["blocked"] = True
        outcome, dmg_card = ("target", card_value) if hit else ("miss", None)
    out["success"] = outcome != "miss"
    if dmg_card is not None:
        dmg_total = dmg_card + char.damage_mod(weapon, state.house_rules["damage_attr"])
        out["damage_total"] = dmg_total
        out["damage"] = max(0, min(dmg_total, weapon.max_damage))
        out["max_damage"] = weapon.max_damage
    else:
        out["damage"] = None
    return out
