"""Shooting (digest §3.4, §3.5): range, cover and the other modifiers, the shot and its reroll window,
the damage (split among several targets), the Fumble table, template weapons."""
from __future__ import annotations

from rules.common import Event, IllegalAction, term

from . import tables
from .dice import BASIC_DIFFICULTY, PoolResult, ceil_half, roll_pool, scatter
from .mechanics import ability_x, apply_damage, attr, has, model_roll, record, said, say, slug, stun, weapon_x
from .state import GameState, ModelState, WeaponState
from .combat import (_sworn, _walking_between_worlds, end_walk, fear_after, fear_then_attack, miss, offer_reroll,
                     pick_weapon)


def shoot(state: GameState, a: ModelState, t: ModelState | None, weapon_name: str = "", distance: float = 0,
          cover_size: str = "", cover_hardness: str = "", aim: int = 0, aim_at: str = "dice", moving: str = "",
          target_contacts: int = 0, shooter_enemies: int = 0, in_contact: bool = False, karma: int = 0,
          at_ready: bool = False, targets: tuple[ModelState, ...] = (), split: tuple[int, ...] = (),
          good_cover: bool = False, free: str = "") -> list[Event]:
    """`free`: a 0-AP shot outside the activation (the Mad Minute of Event 16)."""
    w = pick_weapon(a, weapon_name, "ranged")
    if free and not w.firearm:
        raise IllegalAction("mad_minute_firearms", weapon=w.name)
    if w.jammed:
        raise IllegalAction("jammed", model=a.name, weapon=w.name)
    if not w.loaded:
        raise IllegalAction("not_loaded", model=a.name, weapon=w.name)
    if t is not None and t.owner == a.owner:
        raise IllegalAction("friendly_shot")
    detected: list[Event] = []
    if t is not None and t.hidden:
        if not 0 < distance <= 3:
            raise IllegalAction("hidden_target", model=t.name)
        t.hidden = False
        detected.append(Event("detected", {"model": t.uid, "name": t.name, "by": a.name}))
    if aim < 0 or aim > 2:
        raise IllegalAction("aim_steps")
    if aim and (shooter_enemies or in_contact or moving or at_ready or free):
        raise IllegalAction("no_aim_now")
    if aim and has(a, "Expert Marksman"):
        pass
    if moving == "climb" and weapon_x(w.abilities, "Short Weapon") is None:
        raise IllegalAction("climb_short_weapon")
    cost = 0 if at_ready or free else 1 + aim
    if a.ap < cost:
        raise IllegalAction("needs_ap", model=a.name, cost=cost, ap=a.ap)
    blast = weapon_x(w.abilities, "Blast")
    throw = weapon_x(w.abilities, "Throwable")
    mods: list[tuple[str, int]] = []
    rng_ = w.range
    if a.in_darkness and not (has(a, "Night Vision") or "Lantern" in a.items):
        rng_ = ceil_half(rng_)
    if distance and rng_ and blast is None:
        pen = tables.range_penalty(rng_, distance)
        if pen is None:
            raise IllegalAction("beyond_range", distance=distance, weapon=w.name, range=rng_)
        if pen:
            mods.append(("range", pen))
    flames = weapon_x(w.abilities, "Flames") is not None
    if (t is not None and t.in_water and not (cover_size or cover_hardness)
            and state.house_rules.get("terrain") == "es_ttcombat"):
        cover_size, cover_hardness = "medium", "light"      # TTCombat: a model in the water is in cover
    if not flames and t is not None:
        hard = cover_hardness or ""
        if good_cover:
            if not state.good_cover:
                raise IllegalAction("no_good_cover")
            if not (cover_size or hard):
                raise IllegalAction("good_cover_size")
            hard = tables.better_hardness(hard or "none")
        if has(t, "Cautious") and (cover_size or hard):
            hard = tables.better_hardness(hard or "none")
        if hard == "heavy+":
            cov = -(tables.COVER_SIZE.get(cover_size.lower(), 0)) + int(state.house_rules.get("event8_heavy", -4))
        else:
            cov = tables.cover_penalty(cover_size, hard)
        em = ability_x(t, "Erratic Movement")
        if em:
            cov = min(cov, -abs(em))
        if cov:
            mods.append(("cover", cov))
    if moving:
        mods.append(("shooting on the move", -2 if moving == "jump" else -1))
    if target_contacts:
        mods.append(("target engaged", -abs(target_contacts)))
    if shooter_enemies:
        mods.append(("shooter engaged", -abs(shooter_enemies)))
    if t is not None:
        sn = ability_x(a, "Sniper")
        if sn and not t.activated:
            mods.append(("Sniper", sn))
        se = _sworn(a, t)
        if se:
            mods.append(("Sworn Enemy", se))
        if _walking_between_worlds(t):
            mods.append(("Walk Between Worlds", -4))
    hw = weapon_x(w.abilities, "Heavy Weapon")
    if hw:
        mods.append(("Heavy Weapon", -abs(hw)))
    if throw:
        mods.append(("Throwable", throw))
    aim_pen = 0
    if aim:
        if aim_at == "protection":
            aim_pen = aim
        else:
            negative = -sum(v for k, v in mods if v < 0 and k not in ("Throwable",))
            cancel = min(aim, negative)
            if cancel:
                mods.append(("aim", cancel))
    if not w.damage_dice:
        if t is None:
            raise IllegalAction("name_a_target")
        multi = max(weapon_x(w.abilities, "Multiple Targets", 0) or 0, ability_x(a, "Multiple Targets", 0) or 0)
        victims = [t] + [x for x in targets if x.uid != t.uid]
        if len(victims) > 1:
            if len(victims) > multi:
                raise IllegalAction("too_many_targets", model=a.name, n=max(1, multi))
            if any(v.owner == a.owner for v in victims):
                raise IllegalAction("friendly_shot")
    a.ap -= cost
    a.hidden = False
    how = ("shoot_ready" if at_ready else "shoot_free" if free else "shoot") + ("" if t else "_area")
    events: list[Event] = detected + [say(how, model=a.uid, target=t.uid if t else "", weapon=w.name, name=a.name,
                                          target_name=t.name if t else "", cost=cost, ap=a.ap,
                                          free=term(f"free_{slug(free)}") if free else "")]
    events += end_walk(a)
    ctx = {"a": a.uid, "t": t.uid if t else "", "weapon": w.name, "mods": [list(m) for m in mods], "karma": karma,
           "blast": blast, "targets": [x.uid for x in targets], "free": free, "at_ready": at_ready,
           "pen": aim_pen + (3 if in_contact else 0), "flames": flames, "split": list(split)}
    fear = weapon_x(w.abilities, "Fear")
    if fear is None:
        fear = ability_x(a, "Fear")
    return events + fear_then_attack(state, t, fear, {"type": "shot", **ctx}, shot_after_fear)


def shot_after_fear(state: GameState, ctx: dict) -> list[Event]:
    a = state.model(ctx["a"])
    t = state.models.get(ctx["t"]) if ctx["t"] else None
    w = next(x for x in a.weapons if x.name == ctx["weapon"])
    mods = [(str(k), int(v)) for k, v in ctx["mods"]]
    targets = tuple(state.model(u) for u in ctx["targets"])
    events: list[Event] = []
    _unload(w)
    if ctx["free"]:
        w.loaded = False          # fired in the Mad Minute: it must be reloaded before firing again
    else:
        a.last_action = "shoot"
    if w.damage_dice:
        events += _template_weapon(state, a, t, w, mods, ctx["karma"], ctx["blast"], targets)
        return events + fear_after(state)
    if t is None or not t.in_play or not a.in_play:
        return events
    victims = [t] + [x for x in targets if x.uid != t.uid]
    difficulty = max([BASIC_DIFFICULTY] + [attr(v, "DEX", state) for v in victims])
    r = model_roll(state, a, attr(a, "SHO"), difficulty, mods=mods,
                   karma=ctx["karma"], events=events, stat="SHO", what=said("roll_shooting", difficulty=difficulty))
    pen = max(weapon_x(w.abilities, "Penetration", 0) or 0, ability_x(a, "Penetration", 0) or 0) + ctx["pen"]
    shot = {"type": "shoot", "a": a.uid, "t": t.uid, "weapon": w.name, "victims": [v.uid for v in victims],
            "pen": pen, "flames": ctx["flames"], "split": ctx["split"]}
    if state.house_rules.get("reroll_window", True) and not ctx["at_ready"] and offer_reroll(state, a, r, shot,
                                                                                               events):
        return events
    return events + finish_shot(state, shot, r)


def finish_shot(state: GameState, ctx: dict, r: PoolResult) -> list[Event]:
    a, t = state.model(ctx["a"]), state.model(ctx["t"])
    w = next(x for x in a.weapons if x.name == ctx["weapon"])
    victims = [state.model(u) for u in ctx["victims"]]
    split, pen, flames = ctx["split"], ctx["pen"], ctx["flames"]
    events: list[Event] = []
    if r.fumble:
        events += shooting_fumble(state, a, w)
        return events + fear_after(state)
    if r.aces:
        total = r.aces + w.damage
        if len(victims) > 1:
            if len(split) != len(victims) or any(x < 0 for x in split) or sum(split) != total:
                shares = [total // len(victims) + (1 if i < total % len(victims) else 0) for i in range(len(victims))]
                events.append(say("split", total=total, shares=shares))
            else:
                shares = list(split)
        else:
            shares = [total]
        for v, share in zip(victims, shares):
            lost, evs = apply_damage(state, v, share, pen, has(a, "Spiritual Damage"), flames,
                                     source=w.name, attacker=a.uid)
            events += evs
            if lost and (weapon_x(w.abilities, "Stun") is not None or has(a, "Stun")):
                events += stun(state, v, "Stun ability")
    else:
        events.append(miss(a, t))
    if r.critical:
        events += stun(state, t, "Critical shot")
    return events + fear_after(state)


def _unload(w: WeaponState) -> None:
    if weapon_x(w.abilities, "Reload") or weapon_x(w.abilities, "Throwable") is not None:
        w.shots_left -= 1
        if w.shots_left <= 0:
            w.loaded = False


def reload(w: WeaponState) -> None:
    w.loaded = True
    w.shots_left = max(1, weapon_x(w.abilities, "Multiple Shot", 1) or 1)


def reload_cost(w: WeaponState) -> int:
    return weapon_x(w.abilities, "Reload", 0) or (1 if weapon_x(w.abilities, "Throwable") is not None else 0)


def shooting_fumble(state: GameState, a: ModelState, w: WeaponState) -> list[Event]:
    d = state.rng.die(10)
    res = tables.shooting_fumble(d, w.firearm)
    events = [say("shooting_fumble", model=a.uid, name=a.name, weapon=w.name, d10=d, result=res,
                  what=term(f"shot_fumble_{res}"))]
    if res == "jam":
        w.jammed = True
        w.loaded = False
    elif res == "backfire":
        w.jammed = True
        w.loaded = False
        pen = weapon_x(w.abilities, "Penetration", 0) or 0
        events += apply_damage(state, a, max(0, w.damage), pen, source="backfire")[1]
    else:
        w.destroyed = True
        w.loaded = False
        events.append(say("explosion", model=a.uid, name=a.name, weapon=w.name, damage=w.damage))
        events += apply_damage(state, a, max(0, w.damage), source="explosion")[1]
    return events


def _template_weapon(state: GameState, a: ModelState, t: ModelState | None, w: WeaponState,
                     mods: list[tuple[str, int]], karma: int, blast: int | None,
                     targets: tuple[ModelState, ...]) -> list[Event]:
    events: list[Event] = []
    flames = weapon_x(w.abilities, "Flames") is not None
    if blast is not None:
        d = roll_pool(state.rng, 1, BASIC_DIFFICULTY)
        events.append(record(state, a, d, term("roll_blast_slide")))
        if d.fumble:
            return events + shooting_fumble(state, a, w)
        slide = max(0, d.dice[0] + blast)
        events.append(say("blast", model=a.uid, inches=slide))
    else:
        r = model_roll(state, a, attr(a, "SHO"), BASIC_DIFFICULTY, mods=mods,
                       karma=karma, events=events, stat="SHO", what=said("roll_throw", weapon=w.name))
        if r.fumble and w.firearm:
            return events + shooting_fumble(state, a, w)
        if r.aces == 0:
            s = scatter(state.rng, int(a.attrs.get("SHO", 0)))
            events.append(say("scatter", model=a.uid, die=s.die, distance=s.distance, bearing=s.bearing,
                              clock=s.clock, sho=a.attrs.get("SHO", 0)))
        else:
            events.append(say("lands", model=a.uid, weapon=w.name))
    if w.no_damage:
        events.append(say("cloud", model=a.uid))
        return events
    victims = list(targets) or ([t] if t is not None else [])
    extra = 0
    if "+" in w.damage_dice:
        extra = int(w.damage_dice.split("+")[1])
    shared = state.rng.die(10) + extra
    for v in victims:
        if v.owner == a.owner and v is t:
            continue
        base = shared if state.house_rules.get("template_damage_roll", "shared") == "shared" \
            else state.rng.die(10) + extra
        dodge = model_roll(state, v, attr(v, "DEX", state), what=term("roll_dex_against_the_template"), kind="DEX",
                           events=events)
        amount = max(0, base - dodge.aces)
        events.append(say("template", model=v.uid, name=v.name, base=base, aces=dodge.aces, amount=amount))
        events += apply_damage(state, v, amount, flames=flames, source=w.name, attacker=a.uid)[1]
    return events
