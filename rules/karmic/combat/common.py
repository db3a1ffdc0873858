"""Shared helpers of a combat: range words, hand sizes and maneuver caps, engagements, registers,
weapons and reach (digest §2.2–§2.6)."""
from __future__ import annotations


from ..character import Weapon
from ..state import Decl, Engagement, Fighter, KarmicState, Register
from ..tables import (WRESTLING)


STRIKE_KINDS = ("strike", "disarm", "takedown", "hold")
STEP_ATTACKS = ("atk", "lng", "darm")


def rng_text(r: int) -> dict:
    """A range as a word of the game: wrestling range, or range n."""
    return {"term": "range_wrestling"} if r == WRESTLING else {"term": "range_n", "n": r}


def hand_size(state: KarmicState, f: Fighter) -> int:
    n = _hand_size(state, f)
    if f.multitask and n:
        n = min(n, state.characters[f.id].hand_for(f.multitask))
    return n


def _hand_size(state: KarmicState, f: Fighter) -> int:
    char = state.characters[f.id]
    cb = state.combat
    if cb.surprise.get("active") and f.id == cb.surprise.get("target"):
        return 0
    if f.dodge_hand:
        return char.hand_for("dodge")
    wielded = [w for w in char.wielded() if not w.ranged]
    if not wielded:
        return char.hand_for("brawling")
    if f.changed_round == cb.round - 1:
        return min(char.hand_for(wielded[0].skill), char.hand_for("fast_draw"))
    sizes = [char.hand_for(w.skill) for w in wielded]
    n = min(sizes)
    if len(wielded) > 1 and state.house_rules["offhand_rules"] == "skilllist":
        n += 1
    return n


def caps(state: KarmicState, f: Fighter) -> tuple[int | None, dict[int, int]]:
    """(total maneuvers allowed this round or None, per-weapon maximum) for the wielded weapons."""
    char = state.characters[f.id]
    per = {i: max(1, int(char.weapons[i].max_maneuvers)) for i in char.wielding
           if 0 <= i < len(char.weapons) and not char.weapons[i].ranged}
    if not per:
        return None, per
    total = max(per.values())
    if len(per) > 1:
        if state.house_rules["offhand_rules"] == "combat":
            total += 1
        elif any(char.weapons[i].shield for i in per):
            total += 1
    return total, per


def _live_engagements(state: KarmicState, who: str) -> list[Engagement]:
    return [e for e in state.combat.engagements if e.live and e.has(who)]


def engagement(state: KarmicState, a: str, b: str) -> Engagement | None:
    for e in state.combat.engagements:
        if e.live and e.has(a) and e.has(b):
            return e
    return None


def init_engagement(state: KarmicState, who: str) -> Engagement | None:
    for e in _live_engagements(state, who):
        if e.init == who:
            return e
    return None


def _register(state: KarmicState, n: int) -> Register:
    cb = state.combat
    while len(cb.registers) < n:
        cb.registers.append(Register(len(cb.registers) + 1))
    return cb.registers[n - 1]


def _weapon(state: KarmicState, who: str, w: int) -> Weapon | None:
    char = state.characters[who]
    return char.weapons[w] if 0 <= w < len(char.weapons) else None


def _size_class(state: KarmicState, who: str, target: str) -> str:
    a, t = state.characters[who].size, state.characters[target].size
    if t >= 2 * a:
        return "large"
    if t < a / 2:
        return "small"
    return "same"


def _reach(state: KarmicState, decl: Decl | None) -> int:
    if decl is None:
        return 0
    w = _weapon(state, decl.owner, decl.weapon)
    return w.range if w is not None else 0
