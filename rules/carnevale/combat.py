"""Close combat, and what shooting and magic share with it: picking a weapon, Fear, the reroll windows
(digest §2.11, §3). The table tells the bot the geometry (who is in contact, distance, cover, who a
template touches); these functions build the pools, roll, and keep the books. Shooting
(`shooting.py`) and spells (`spells.py`) build on this module, which imports neither."""
from __future__ import annotations

from collections.abc import Callable

from rules.common import Event, IllegalAction, term

from .dice import PoolResult, compare, reroll_misses
from .mechanics import (stat, ability_x, apply_damage, attr, effective_protection, has, heal, hold_breath,
                        model_roll, morale_pool, morale_result, morale_what, record, said, say, stun, weapon_x)
from .schema import FEAR
from .state import GameState, ModelState, WeaponState

SIZES = {"Medium": 0, "Large": 1, "Huge": 2}

MANOEUVRES = {  # name: (AP, unarmed, dice)
    "": (1, False, 0),
    "charge": (1, False, 1),
    "low_blow": (2, False, -1),
    "push": (2, True, 0),
    "round_house": (2, False, 0),
    "strike_from_above": (1, False, 0),
    "trample": (1, True, 0),
    "drown": (2, True, 0),
}
# The catalogue term that names each manoeuvre (the plain attack has the empty name).
MANOEUVRE_TERMS = {name: "manoeuvre_" + (name or "attack") for name in MANOEUVRES}


def pick_weapon(m: ModelState, name: str, kind: str) -> WeaponState:
    cands = [w for w in m.weapons if w.kind == kind and not w.destroyed]
    if name:
        for w in cands:
            if w.name.lower() == name.lower():
                return w
        raise IllegalAction(f"no_{kind}_weapon_called", model=m.name, weapon=name)
    if not cands:
        raise IllegalAction(f"no_{kind}_weapon", model=m.name)
    if kind == "melee":
        return max(cands, key=lambda w: (w.damage, w.name != "Unarmed"))
    loaded = [w for w in cands if w.loaded and not w.jammed]
    return (loaded or cands)[0]


# The two Powers that are attacks (digest §5.7, Powers table 3 and 8; §7.31: the GM should confirm
# them). Fire Breath: a cone (Blast (−9)) of Flames with 1d10 damage, like the flamethrower; the
# extract's "Shot (3d10)" has no rule the bot can apply beyond that. Lightning Bolt: Aces+2, Reload (3),
# Multiple Shot (2), Multiple Targets (2), Stun; its range is not given (house rule
# lightning_bolt_range, 0 = no range penalty).
POWER_WEAPONS = ("Fire Breath", "Lightning Bolt")


def power_weapon(name: str, bolt_range: int = 0) -> WeaponState | None:
    if name == "Fire Breath":
        return WeaponState(name=name, kind="ranged", damage_dice="1d10",
                           abilities=[{"name": "Blast", "x": -9}, {"name": "Flames"}])
    if name == "Lightning Bolt":
        return WeaponState(name=name, kind="ranged", damage=2, range=int(bolt_range), shots_left=2,
                           abilities=[{"name": "Reload", "x": 3}, {"name": "Multiple Shot", "x": 2},
                                      {"name": "Multiple Targets", "x": 2}, {"name": "Stun"}])
    return None


def arm_powers(state: GameState, m: ModelState) -> list[str]:
    """Give a model the weapon of each attack Power it holds (and take it back when the Power is
    gone, e.g. the Infusion's Power at the End of Round). Returns the weapons added."""
    added = []
    for name in POWER_WEAPONS:
        holds = has(m, name)
        armed = any(w.name == name for w in m.weapons)
        if holds and not armed:
            m.weapons.append(power_weapon(name, int(state.house_rules.get("lightning_bolt_range", 0))))
            added.append(name)
        elif armed and not holds:
            m.weapons = [w for w in m.weapons if w.name != name]
    return added


def unarmed() -> WeaponState:
    return WeaponState(name="Unarmed", kind="melee", damage=-1)


def _sworn(a: ModelState, t: ModelState) -> int:
    best = 0
    for ab in a.abilities + a.item_abilities:
        if ab["name"] == "Sworn Enemy":
            tgt = ab.get("target", "")
            if tgt and (tgt == t.profile or tgt == t.name or tgt in t.descriptors):
                best = max(best, int(ab.get("x", 0)))
    return best


def _walking_between_worlds(m: ModelState) -> bool:
    return any(e.kind == "walk" for e in m.effects)


def end_walk(m: ModelState) -> list[Event]:
    if _walking_between_worlds(m):
        m.effects = [e for e in m.effects if e.kind != "walk"]
        return [say("walk_ends", model=m.uid, name=m.name)]
    return []


def fear_test(state: GameState, t: ModelState, x: int, then: dict) -> tuple[list[Event], bool]:
    """Fear (X): the target's Morale roll modified by X — now (after the attack is declared, before its
    roll: the default reading) or, with fear_timing = after_attack, once the attack is resolved.
    (events, suspended): suspended when the roll opened a reroll window; the attack goes on with
    `reactions.resume_attack(state, then)` once the roll stands."""
    if state.house_rules.get("fear_timing", "before_attack_roll") == "after_attack":
        state.fear_after = {"t": t.uid, "x": x}
        return [], False
    events: list[Event] = []
    if not t.in_play:
        return events, False
    base, mods, auto = morale_pool(state, t, x)
    r = model_roll(state, t, base, mods=mods, auto_mods=auto, events=events,
                   what=morale_what(FEAR, modifier=x))
    ctx = {"type": "morale", "a": t.uid, "t": t.uid, "rest": [], "modifier": x, "reason": FEAR, "then": then}
    if state.house_rules.get("reroll_window", True) and offer_reroll(state, t, r, ctx, events):
        return events, True
    return events + morale_result(state, t, r), False


def fear_after(state: GameState) -> list[Event]:
    """The deferred Fear test of an attack that is now resolved (fear_timing = after_attack): rolled
    once the action is done, with its reroll window (the engine's Morale queue)."""
    if state.fear_after:
        pending, state.fear_after = state.fear_after, {}
        state.morale_due.append({"kind": "single", "models": [pending["t"]], "modifier": pending["x"],
                                 "reason": FEAR})
    return []


def fear_then_attack(state: GameState, t: ModelState | None, fear: int | None, then: dict,
                     attack: Callable[[GameState, dict], list[Event]]) -> list[Event]:
    """The target's Fear test (when the attacker causes Fear), then the attack `then` describes, made by
    `attack(state, then)` (the caller's: a melee's or a shot's, so this module needs not import
    shooting); a reroll window on the test holds the attack until the roll stands."""
    events: list[Event] = []
    if fear is not None and t is not None and not has(t, "Mindless"):
        events, suspended = fear_test(state, t, fear, then)
        if suspended:
            return events
    return events + attack(state, then)


def melee_mods(state: GameState, a: ModelState, t: ModelState, weapon: WeaponState, manoeuvre: str,
               allies: int, enemies: int, companion: bool) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    if allies:
        mods.append(("friends in contact with the target", min(2, max(0, allies))))
    if has(a, "Grow Through Adversity"):
        foes = enemies + 1
        if foes >= 2:
            mods.append(("Grow Through Adversity", 2 if foes >= 3 else 1))
    elif enemies:
        mods.append(("other enemies in contact", -min(2, max(0, enemies))))
    ap, unarmed_m, dice = MANOEUVRES[manoeuvre]
    if dice:
        mods.append((manoeuvre.replace("_", " "), dice))
    if manoeuvre == "trample":
        diff = SIZES.get(a.size, 0) - SIZES.get(t.size, 0)
        if diff <= 0:
            raise IllegalAction("trample_size")
        mods.append(("Trample", diff))
    if manoeuvre == "drown" and has(a, "Water Creature"):
        mods.append(("Water Creature", 2))
    if companion:
        x = ability_x(a, "Companion", 0)
        if x:
            mods.append(("Companion", x))
    fs = ability_x(a, "First Strike")
    if fs and not a.first_strike_used:
        mods.append(("First Strike", fs))
    se = _sworn(a, t)
    if se:
        mods.append(("Sworn Enemy", se))
    hw = weapon_x(weapon.abilities, "Heavy Weapon")
    if hw:
        mods.append(("Heavy Weapon", -abs(hw)))
    saves: list[int] = [int(x.get("x", 0)) for x in t.abilities + t.item_abilities if x["name"] == "Save"]
    saves += [int(x.get("x", 0)) for w in t.weapons if w.kind == "melee" and not w.destroyed
              for x in w.abilities if x["name"] == "Save"]
    best_save = max(saves, default=0)
    if best_save:
        mods.append(("target's Save", -best_save))
    fas = ability_x(t, "Fascination")
    if fas and not has(a, "Mindless"):
        mods.append(("Fascination", -abs(fas)))
    if _walking_between_worlds(t):
        mods.append(("Walk Between Worlds", -4))
    return mods


def melee_attack(state: GameState, a: ModelState, t: ModelState, weapon_name: str = "", manoeuvre: str = "",
                 allies: int = 0, enemies: int = 0, karma: int = 0, companion: bool = False,
                 opportunity: bool = False, two_weapons: bool = False, drown_attr: str = "COM",
                 targets: tuple[str, ...] = ()) -> list[Event]:
    if manoeuvre not in MANOEUVRES:
        raise IllegalAction("unknown_manoeuvre", manoeuvre=manoeuvre, choices=", ".join(k for k in MANOEUVRES if k))
    if a.owner == t.owner:
        raise IllegalAction("friendly_attack")
    if not t.in_play:
        raise IllegalAction("not_on_table", model=t.name)
    if opportunity and manoeuvre:
        raise IllegalAction("opportunity_plain")
    cost, unarmed_m, _ = MANOEUVRES[manoeuvre]
    if manoeuvre == "drown":
        if not (a.in_water and t.in_water):
            raise IllegalAction("drown_water")
        if has(a, "Water Creature"):
            cost = 1
    if manoeuvre == "strike_from_above" and a.last_action not in ("running_jump", "jump_down"):
        raise IllegalAction("strike_from_above_jump")
    if manoeuvre == "charge" and a.last_action not in ("walk", "run"):
        raise IllegalAction("charge_run_up")
    if two_weapons:
        melee_ws = [w for w in a.weapons if w.kind == "melee" and w.name != "Unarmed" and not w.destroyed]
        if not has(a, "Ambidextrous") or len(melee_ws) < 2 or any(
                weapon_x(w.abilities, "Two-Handed Weapon", None) is not None for w in melee_ws[:2]):
            raise IllegalAction("two_weapons")
    events: list[Event] = []
    if not opportunity:
        if a.ap < cost:
            raise IllegalAction("needs_ap", model=a.name, cost=cost, ap=a.ap)
        a.ap -= cost
    weapon = unarmed() if unarmed_m else pick_weapon(a, weapon_name, "melee")
    told = {"model": a.uid, "target": t.uid, "weapon": weapon.name, "manoeuvre": manoeuvre, "name": a.name,
            "target_name": t.name}
    if opportunity:
        events.append(Event("opportunity_attack", told))
    else:
        events.append(Event("attack", {**told, "how": term(MANOEUVRE_TERMS[manoeuvre]), "cost": cost,
                                       "ap": a.ap}))
    a.hidden = False
    if t.hidden:
        t.hidden = False          # in base contact, well within 3'': detected
        events.append(Event("detected", {"model": t.uid, "name": t.name, "by": a.name}))
    events += end_walk(a)
    ctx = {"a": a.uid, "t": t.uid, "weapon": weapon.to_dict(), "manoeuvre": manoeuvre, "allies": allies,
           "enemies": enemies, "karma": karma, "companion": companion, "two_weapons": two_weapons,
           "opportunity": opportunity, "drown_attr": drown_attr, "targets": list(targets)}
    # Fear: the target tests before the roll
    return events + fear_then_attack(state, t, ability_x(a, "Fear"), {"type": "melee", **ctx}, melee_after_fear)


def melee_after_fear(state: GameState, ctx: dict) -> list[Event]:
    a, t = state.model(ctx["a"]), state.model(ctx["t"])
    weapon = WeaponState.from_dict(ctx["weapon"])
    manoeuvre, opportunity = ctx["manoeuvre"], ctx["opportunity"]
    events: list[Event] = []
    if not (a.in_play and t.in_play):
        return events
    if manoeuvre == "round_house":
        order = [state.model(u) for u in (ctx["targets"] or (t.uid,))]
        for victim in order:
            lost = _one_melee(state, a, victim, weapon, "", ctx["allies"], ctx["enemies"], 0, ctx["companion"],
                              ctx["two_weapons"], events, ask_bodyguard=False)
            if not lost:
                events.append(say("round_house_stop", model=a.uid, name=victim.name))
                break
        a.first_strike_used = True
        return events
    if manoeuvre == "drown":
        return events + _drown(state, a, t, ctx["drown_attr"], ctx["karma"])
    if not opportunity and defensive_allowance(state, t) and state.sub.get("kind") is None:
        state.counter += 1
        state.sub = {"kind": "defensive", "n": state.counter, "player": t.owner, "ctx": ctx}
        a.last_action = "attack"
        events.append(say("defensive_window", model=t.uid, name=t.name, attacker=a.name))
        return events
    return events + resume_melee(state, ctx, opportunity)


def defensive_allowance(state: GameState, t: ModelState) -> int:
    """Karma the target may still put into Defensive Combat (X) this Turn (+1 DEX each)."""
    x = ability_x(t, "Defensive Combat")
    if x is None or not t.in_play or not state.house_rules.get("defensive_prompt", True):
        return 0
    already = t.defensive_dex if t.defensive_turn == state.turn else 0
    return max(0, min(x - already, t.karma))


def resume_melee(state: GameState, ctx: dict, opportunity: bool = False) -> list[Event]:
    """The attack roll and its effects, once every reaction before the roll is answered."""
    a, t = state.model(ctx["a"]), state.model(ctx["t"])
    events: list[Event] = []
    _one_melee(state, a, t, WeaponState.from_dict(ctx["weapon"]), ctx["manoeuvre"], ctx["allies"], ctx["enemies"],
               ctx["karma"], ctx["companion"], ctx["two_weapons"], events,
               defer=bool(state.house_rules.get("reroll_window", True)) and not opportunity,
               ask_bodyguard=not opportunity)
    a.first_strike_used = True
    a.last_action = "attack"
    return events


def _one_melee(state: GameState, a: ModelState, t: ModelState, weapon: WeaponState, manoeuvre: str,
               allies: int, enemies: int, karma: int, companion: bool, two_weapons: bool,
               events: list[Event], defer: bool = False, ask_bodyguard: bool = True) -> int:
    if not t.in_play or not a.in_play:
        return 0
    mods = melee_mods(state, a, t, weapon, manoeuvre, allies, enemies, companion)
    difficulty = attr(t, "DEX", state)
    if t.at_ready == "melee" and manoeuvre != "push":
        return _at_ready_melee(state, a, t, weapon, mods, karma, events)
    r = model_roll(state, a, attr(a, "COM"), difficulty, mods=mods,
                   karma=karma, events=events, stat="COM", what=said("roll_combat", difficulty=difficulty))
    if two_weapons and r.can_reroll and any(not f for f in r.ace_flags[1:]):
        r = reroll_misses(state.rng, r, 1, "two weapons")
        events.append(record(state, a, r, term("roll_two_weapons")))
    if defer and offer_reroll(state, a, r, {"type": "melee", "a": a.uid, "t": t.uid, "weapon": weapon.to_dict(),
                                             "manoeuvre": manoeuvre}, events):
        return -1
    return finish_melee(state, a, t, weapon, manoeuvre, r, events, ask_bodyguard)


def foe_reroll_options(state: GameState, roller: ModelState, r: PoolResult) -> list[str]:
    """Option ids ("all:<uid>", "dice:<uid>") for the roller's opponents who could force a reroll (1 Karma each)."""
    if not r.can_reroll:
        return []
    out = []
    for m in state.squad(state.opponent(roller.owner)):
        if m.karma < 1:
            continue
        if has(m, "Reroll All Dice") and not any(r.rerolled) and "Reroll All Dice" not in r.reroll_sources:
            out.append(f"all:{m.uid}")
        x = ability_x(m, "Reroll Dice")
        if x and "Reroll Dice" not in r.reroll_sources and any(
                f and not rr for f, rr in zip(r.ace_flags[1:], r.rerolled[1:])):
            out.append(f"dice:{m.uid}")
    return out[:24]


def offer_reroll(state: GameState, roller: ModelState, r: PoolResult, ctx: dict, events: list[Event],
                 stages: tuple[str, ...] = ("own", "foe")) -> bool:
    """Open a reroll window (the roller's own abilities first, then its opponents'); True if one opened.
    Never while another reaction is pending (a roll made then stands)."""
    if state.sub.get("kind") in ("reroll", "annul", "disengage", "bodyguard", "defensive", "ready_shot"):
        return False
    for stage in stages:
        opts = reroll_options(roller, r) if stage == "own" else foe_reroll_options(state, roller, r)
        if opts:
            state.counter += 1
            player = roller.owner if stage == "own" else state.opponent(roller.owner)
            state.sub = {"kind": "reroll", "n": state.counter, "player": player,
                         "ctx": {**ctx, "result": r.to_dict(), "stage": stage}}
            who = said("reroller", name=roller.name) if stage == "own" else term("reroller_foe")
            events.append(say("reroll_window", model=roller.uid, name=roller.name, stage=stage, who=who))
            return True
    return False


def reroll_options(m: ModelState, r: PoolResult) -> list[str]:
    """Which of its own reroll abilities a model could use on this roll now (1 Karma each)."""
    if m.karma < 1 or not r.can_reroll:
        return []
    out = []
    if has(m, "Reroll All Dice") and not any(r.rerolled) and "Reroll All Dice" not in r.reroll_sources:
        out.append("all")
    x = ability_x(m, "Reroll Dice")
    if x and "Reroll Dice" not in r.reroll_sources and any(
            not f and not rr for f, rr in zip(r.ace_flags[1:], r.rerolled[1:])):
        out.append("dice")
    return out


def bodyguards(state: GameState, t: ModelState) -> list[ModelState]:
    return [m for m in state.squad(t.owner) if m.uid != t.uid and has(m, "Bodyguard")]


def finish_melee(state: GameState, a: ModelState, t: ModelState, weapon: WeaponState, manoeuvre: str,
                 r: PoolResult, events: list[Event], ask_bodyguard: bool = True) -> int:
    if ask_bodyguard and r.aces > 0 and manoeuvre not in ("push", "drown") and bodyguards(state, t):
        state.counter += 1
        state.sub = {"kind": "bodyguard", "n": state.counter, "player": t.owner,
                     "ctx": {"type": "melee", "a": a.uid, "t": t.uid, "weapon": weapon.to_dict(),
                             "manoeuvre": manoeuvre, "result": r.to_dict()}}
        events.append(say("bodyguard_window", model=t.uid, name=t.name, attacker=a.name))
        return -1
    if manoeuvre == "push":
        if r.aces:
            events.append(say("push", model=t.uid, name=t.name, attacker=a.name, inches=r.aces))
        if r.critical:
            events += stun(state, t, "Critical in close combat")
        if r.fumble:
            offer_opportunity(state, t, a, events)
        events += fear_after(state)
        return r.aces
    lost = melee_damage(state, a, t, weapon, r.aces, manoeuvre, events, critical=r.critical, fumble=r.fumble)
    events += fear_after(state)
    return lost


def melee_damage(state: GameState, a: ModelState, t: ModelState, weapon: WeaponState, aces: int, manoeuvre: str,
                 events: list[Event], critical: bool = False, fumble: bool = False, crit_stun: bool = True) -> int:
    lost = 0
    if aces > 0:
        amount = aces + weapon.damage + (ability_x(a, "Mighty Blow", 0) or 0) \
            + (1 if manoeuvre == "strike_from_above" else 0)
        pen = max(weapon_x(weapon.abilities, "Penetration", 0) or 0, ability_x(a, "Penetration", 0) or 0)
        spiritual = has(a, "Spiritual Damage")
        flames = weapon_x(weapon.abilities, "Flames") is not None
        if manoeuvre == "low_blow":
            prot = effective_protection(state, t, pen, spiritual, flames)
            if amount - prot >= 1:
                lost, evs = apply_damage(state, t, 1, ignore_protection=True, source="Low Blow", attacker=a.uid)
                events += evs
                events += stun(state, t, "Low Blow")
            else:
                events.append(say("no_damage", model=t.uid, name=t.name))
        else:
            lost, evs = apply_damage(state, t, amount, pen, spiritual, flames, source=weapon.name,
                                     attacker=a.uid)
            events += evs
    else:
        events.append(miss(a, t))
    if critical and crit_stun:
        events += stun(state, t, "Critical in close combat")
    if lost and t.in_play and (weapon_x(weapon.abilities, "Stun") is not None or has(a, "Stun")):
        events += stun(state, t, "Stun ability")
    if lost:
        if has(a, "Life Drain"):
            events += heal(state, a, lost, term("heal_life_drain"))
        v = ability_x(a, "Vampiric Attack")
        if v and not ({"Ghost", "Undead"} & set(t.descriptors)):
            events += heal(state, a, v, term("heal_vampiric_attack"))
        spill = ability_x(t, "Spiritual Spill")
        if spill:
            events += apply_damage(state, a, spill, spiritual=True, source="Spiritual Spill", attacker=t.uid)[1]
    if fumble:
        offer_opportunity(state, t, a, events)
    return lost


def miss(a: ModelState, t: ModelState) -> Event:
    return Event("miss", {"model": a.uid, "target": t.uid, "attacker": a.name, "target_name": t.name})


def offer_opportunity(state: GameState, t: ModelState, a: ModelState, events: list[Event]) -> None:
    """A fumbled melee attack gives its target a free Attack of Opportunity on the attacker (digest
    §3.1), resolved at once: an offer its owner takes or declines (a prompt, or the attack command
    with opportunity) before anything else happens in the game."""
    events.append(Event("opportunity", {"model": t.uid, "target": a.uid, "name": t.name, "target_name": a.name}))
    if t.in_play and a.in_play and t.owner != a.owner:
        state.counter += 1
        state.opportunities.append({"n": state.counter, "model": t.uid, "target": a.uid})


def _at_ready_melee(state: GameState, a: ModelState, t: ModelState, weapon: WeaponState,
                    mods: list[tuple[str, int]], karma: int, events: list[Event]) -> int:
    """An attack on a model At the Ready: opposed Combat rolls, each at the other's DEX."""
    events.append(Event("at_ready_melee", {"model": t.uid, "name": t.name}))
    ra = model_roll(state, a, attr(a, "COM"), attr(t, "DEX", state), mods=mods,
                    karma=karma, events=events, stat="COM", what=term("roll_combat_ready"))
    tw = pick_weapon(t, "", "melee")
    rt = model_roll(state, t, attr(t, "COM"), attr(a, "DEX", state), events=events,
                    stat="COM", what=term("roll_combat_ready"))
    return resolve_at_ready(state, a, t, weapon, tw, ra, rt, events)


def resolve_at_ready(state: GameState, a: ModelState, t: ModelState, wa: WeaponState, wt: WeaponState,
                     ra: PoolResult, rt: PoolResult, events: list[Event]) -> int:
    res = compare(ra, rt)
    events.append(say("opposed", a=res.a_aces, b=res.b_aces, winner=res.winner, margin=res.margin,
                      how=said("opposed_ready", name=a.name, target_name=t.name, a=res.a_aces, b=res.b_aces)))
    crit_stun = bool(state.house_rules.get("at_ready_melee_critical_stun", False))
    lost = 0
    if res.winner == "a":
        lost = melee_damage(state, a, t, wa, res.margin, "", events, critical=ra.critical, crit_stun=crit_stun)
    elif res.winner == "b":
        melee_damage(state, t, a, wt, res.margin, "", events, critical=rt.critical, crit_stun=crit_stun)
    else:
        events.append(Event("tie", {}))
    events += fear_after(state)
    return lost


def _drown(state: GameState, a: ModelState, t: ModelState, which: str, karma: int) -> list[Event]:
    events: list[Event] = []
    which = "DEX" if which.upper().startswith("D") else "COM"
    mods = [("Water Creature", 2)] if has(a, "Water Creature") else []
    ra = model_roll(state, a, attr(a, which, state), kind=which, mods=mods,
                    karma=karma, events=events, what=said("roll_drown", stat=stat(which)))
    rt = model_roll(state, t, attr(t, which, state), kind=which, events=events,
                    what=said("roll_drown_resist", stat=stat(which)))
    res = compare(ra, rt)
    if res.winner == "a":
        t.drowning = True
        t.drowned_by = a.uid
        events.append(say("drown", model=t.uid, name=a.name, target_name=t.name, margin=res.margin))
        events += hold_breath(state, t, res.margin, drown=True)
    else:
        t.drowned_by = ""
        events.append(say("drown_free", model=t.uid, name=t.name))
    a.last_action = "drown"
    return events + fear_after(state)
