"""Spells (digest §4): the cost in Karma, the difficulty, the Magic roll and each spell's effect."""
from __future__ import annotations

from rules.common import Event, IllegalAction, term

from .dice import PoolResult, ceil_half, scatter
from .mechanics import (apply_damage, attr, heal, healing_roll, model_roll, record, said, say, spend_karma,
                        stun)
from .state import Effect, GameState, ModelState
from .combat import _walking_between_worlds, end_walk, melee_attack, offer_reroll


def spell_cost_now(m: ModelState) -> int:
    """Karma for the next spell: 1 + the spells already cast this Round (1, 2, 3, 4 …)."""
    return 1 + m.casts_this_round


def spell_difficulty(state: GameState, spell: dict, caster: ModelState, target: ModelState | None) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    if spell.get("difficulty"):
        mods.append(("spell difficulty", int(spell["difficulty"])))
    rule = spell.get("difficulty_rule")
    if rule and target is None:
        raise IllegalAction("spell_target", spell=spell["name"])
    if rule == "target_mind":
        mods.append(("target's Mind", -attr(target, "MIN")))
    elif rule == "enemy_caster_mind":
        mods.append(("enemy caster's Mind", -attr(target, "MIN")))
    elif rule == "half_target_caster_mind":
        spells = [e for e in target.effects if e.caster]
        if not spells:
            raise IllegalAction("nothing_to_dispel", model=target.name)
        mods.append(("half the Mind of its caster", -ceil_half(spells[-1].caster_mind)))
    if target is not None and target.owner != caster.owner and _walking_between_worlds(target):
        mods.append(("Walk Between Worlds", -4))
    return mods


def cast(state: GameState, c: ModelState, spell: dict, target: ModelState | None, targets: list[ModelState],
         attribute: str = "", karma: int = 0, use_diamond: bool = False,
         enemies: tuple[ModelState, ...] = ()) -> tuple[dict, list[Event]]:
    """Pay and roll. Returns the cast context (to resolve now or after an Annulment window)."""
    name = spell["name"]
    if c.cast_locked:
        raise IllegalAction("cast_locked", model=c.name)
    if name not in c.spells:
        raise IllegalAction("unknown_spell_of", model=c.name, spell=name)
    if spell.get("reaction"):
        raise IllegalAction("reaction_spell", spell=name)
    if c.ap < 1:
        raise IllegalAction("needs_ap", model=c.name, cost=1, ap=c.ap)
    cost = spell_cost_now(c)
    diamond = use_diamond and c.magic_item == "Cagliostro's Diamond" and "diamond" not in c.used_once
    if use_diamond and not diamond:
        raise IllegalAction("no_diamond")
    if not diamond and c.karma < cost + karma:
        raise IllegalAction("spell_karma_dice" if karma else "spell_karma", spell=name, cost=cost,
                            n=c.casts_this_round + 1, dice=karma, model=c.name, karma=c.karma)
    eff = spell["effect"]
    if eff in ("blessing", "curse"):
        if attribute.upper() not in ("MOV", "COM", "DEX", "SHO", "MIN", "PRO"):
            raise IllegalAction("spell_attribute", spell=name)
    needs_target = eff in ("blessing", "curse", "dispel", "heal_aces", "stun", "petrify", "eye", "bond")
    if needs_target and target is None:
        if eff == "eye":
            target = c
        else:
            raise IllegalAction("spell_target", spell=name)
    if eff == "bond" and target is not None and ({"Undead", "Animal"} & set(target.descriptors)):
        raise IllegalAction("bond_undead")
    if eff == "heal_aces" and target is not None and target.uid == c.uid:
        raise IllegalAction("touch_not_caster")
    mods = spell_difficulty(state, spell, c, target)
    c.ap -= 1
    if not diamond:
        spend_karma(c, cost, name)
    else:
        c.used_once.append("diamond")
    c.casts_this_round += 1
    c.hidden = False
    events: list[Event] = [say("cast", model=c.uid, name=c.name, spell=name, karma_cost=0 if diamond else cost,
                               ap=c.ap, karma=c.karma, karma_max=c.karma_max)]
    if not _walking_between_worlds(c):
        for e in enemies:
            if e.owner != c.owner and e.in_play and c.in_play:
                events += melee_attack(state, e, c, opportunity=True)
    if eff != "walk_worlds":
        events += end_walk(c)
    if not c.in_play:
        return {"caster": c.uid, "spell": name, "target": "", "targets": [], "attribute": "", "aces": 0,
                "critical": False, "fumble": False, "paid": cost, "interrupted": True}, events
    r = model_roll(state, c, attr(c, "MIN"), mods=mods, karma=karma, events=events,
                   stat="MIN", what=said("roll_magic", spell=name))
    ctx = {"caster": c.uid, "spell": name, "target": target.uid if target else "",
           "targets": [x.uid for x in targets], "attribute": attribute.upper(), "paid": 0 if diamond else cost}
    if state.house_rules.get("reroll_window", True) and offer_reroll(
            state, c, r, {"type": "cast", "a": c.uid, "t": c.uid, "cast": ctx}, events):
        return {**ctx, "deferred": True}, events
    return magic_roll_stands(state, c, ctx, r, events), events


def magic_roll_stands(state: GameState, c: ModelState, ctx: dict, r: PoolResult, events: list[Event]) -> dict:
    """The Magic roll is final (after any reroll window): a failure locks casting for the Round."""
    if not r.success:
        c.cast_locked = True
        events.append(say("cast_fail", model=c.uid, name=c.name))
    return {**ctx, "aces": r.aces, "critical": r.critical, "fumble": r.fumble}


def resolve_spell(state: GameState, ctx: dict, spell: dict) -> list[Event]:
    c = state.model(ctx["caster"])
    t = state.models.get(ctx["target"]) if ctx["target"] else None
    targets = [state.models[u] for u in ctx["targets"] if u in state.models]
    aces, crit, fumble = ctx["aces"], ctx["critical"], ctx["fumble"]
    eff = spell["effect"]
    name = spell["name"]
    events: list[Event] = []
    rnd = state.round
    special_fumble = eff in ("heal_aces", "petrify", "claws", "kraken", "darkness")
    if crit:
        c.ap += 1
        events.append(say("spell_critical", model=c.uid, name=c.name))
    if fumble and not special_fumble:
        events += stun(state, c, "fumbled Magic roll")
    if eff == "kraken":
        return events + _kraken(state, c, targets, aces, crit, fumble)
    if eff == "darkness":
        if fumble:
            events.append(say("darkness_fumble", model=c.uid))
        if aces or fumble:
            for v in targets:
                v.in_darkness = True
                v.effects.append(Effect(name=name, kind="darkness", caster=c.uid, caster_mind=attr(c, "MIN"),
                                        expires=rnd + max(1, aces) - 1))
            events.append(say("darkness", n=len(targets), rounds=max(1, aces)))
        return events
    if eff == "claws":
        if fumble:
            if t is not None:
                events += apply_damage(state, t, 3, spiritual=True, source="Mother Hidra's Claws (fumble)",
                                       attacker=c.uid)[1]
            return events
        if not aces:
            return events
        chosen = targets or ([t] if t else [])
        if not crit and len({x.uid for x in chosen}) != len(chosen):
            raise IllegalAction("claws_targets")
        for v in chosen[:aces]:
            events += apply_damage(state, v, aces, spiritual=True, source=name, attacker=c.uid)[1]
        if len(chosen) < aces:
            events.append(say("claws_lost", n=aces - len(chosen)))
        return events
    if eff == "heal_aces":
        if fumble:
            return events + apply_damage(state, t, 1, ignore_protection=True, source="Immediate Healing fumble")[1]
        if aces:
            events += healing_roll(state, c, t, aces, "Immediate Healing")
        return events
    if eff == "petrify":
        if fumble:
            c.half_ap = True
            events.append(say("petrify_fumble", model=c.uid, name=c.name))
            return events
        if aces:
            for v in [t] + (targets[:1] if crit else []):
                v.ap = 0
                v.petrified = True
                v.effects.append(Effect(name=name, kind="petrify", caster=c.uid, caster_mind=attr(c, "MIN"),
                                        expires=rnd))
                events.append(say("petrify", model=v.uid, name=v.name))
        return events
    if not aces:
        return events
    if eff == "blessing":
        if any(e.name == "Blessing" for e in t.effects):
            events.append(say("spell_void", model=t.uid, how=said("blessed_already", name=t.name)))
            return events
        t.effects.append(Effect(name=name, kind="attr", attr=ctx["attribute"], delta=1, caster=c.uid,
                                caster_mind=attr(c, "MIN"), expires=rnd))
        events.append(say("blessing", model=t.uid, name=t.name, attribute=ctx["attribute"]))
    elif eff == "curse":
        if any(e.name == "Curse" for e in t.effects):
            events.append(say("spell_void", model=t.uid, how=said("cursed_already", name=t.name)))
            return events
        t.effects.append(Effect(name=name, kind="attr", attr=ctx["attribute"], delta=-aces, caster=c.uid,
                                caster_mind=attr(c, "MIN"), expires=rnd))
        events.append(say("curse", model=t.uid, name=t.name, n=aces, attribute=ctx["attribute"]))
    elif eff == "dispel":
        spells = [e for e in t.effects if e.caster]
        gone = spells[-1]
        t.effects.remove(gone)
        if gone.kind == "darkness":
            t.in_darkness = False
        if gone.kind == "petrify":
            t.petrified = False
        events.append(say("dispel", model=t.uid, name=t.name, spell=gone.name))
    elif eff == "stun":
        victims = [t] + (targets[:max(0, aces - 1)] if crit else [])
        for v in victims:
            events += stun(state, v, name)
    elif eff == "eye":
        t.effects.append(Effect(name=name, kind="ability", ability="Universal Protection", x=2, caster=c.uid,
                                caster_mind=attr(c, "MIN"), expires=0 if crit else rnd + aces - 1))
        events.append(say("eye_dispelled" if crit else "eye", model=t.uid, name=t.name, rounds=aces))
    elif eff == "bond":
        old = t.owner
        t.owner = c.owner
        t.effects.append(Effect(name=name, kind="bond", caster=c.uid, caster_mind=attr(c, "MIN"), x=0,
                                ability=old))
        events.append(say("bond", model=t.uid, name=t.name, caster=c.name))
    elif eff == "rashaar_heal":
        healed = targets or [m for m in state.squad(c.owner) if "Rashaar" in m.descriptors and m.uid != c.uid]
        for v in healed:
            if "Rashaar" in v.descriptors and v.uid != c.uid:
                events += heal(state, v, aces, said("heal_spell", spell=name))
    elif eff == "walk_worlds":
        c.effects.append(Effect(name=name, kind="walk", caster=c.uid, caster_mind=attr(c, "MIN"), expires=rnd))
        events.append(say("walk_worlds", model=c.uid, name=c.name))
    return events


def _kraken(state: GameState, c: ModelState, targets: list[ModelState], aces: int, crit: bool,
            fumble: bool) -> list[Event]:
    events: list[Event] = []
    if fumble:
        events.append(say("kraken_fumble", model=c.uid, name=c.name))
    elif not aces:
        s = scatter(state.rng, int(c.attrs.get("SHO", 0)))
        events.append(say("kraken_scatter", distance=s.distance, bearing=s.bearing, clock=s.clock))
    dice = [state.rng.die(10) for _ in range(5)]
    for v in targets:
        from .dice import result_from_dice
        r = result_from_dice(dice, attr(v, "DEX", state))
        events.append(record(state, None, r, said("roll_kraken", name=v.name)))
        amount = r.aces
        if state.house_rules.get("kraken_template_dex", True) and amount:
            dodge = model_roll(state, v, attr(v, "DEX", state), what=term("roll_dex_against_the_template"), kind="DEX",
                               events=events)
            amount = max(0, amount - dodge.aces)
        events += apply_damage(state, v, amount, flames=crit, source="Kraken's Breath", attacker=c.uid)[1]
    return events
