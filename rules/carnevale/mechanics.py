"""Model-level mechanics (digest §1.8, §2.6-§2.10, §2.12): effective attributes, pools with the
automatic modifiers, damage through Protection, pain thresholds, Stun, healing, falls, drowning,
morale and falling in combat. Functions change the given state and return Events.

Universal abilities are data: each model holds a list of {name, x} entries (profile, items,
powers, spell effects) and the hook points below ask `ability_x`/`has` for what applies; the
same ability from two sources never stacks (the best X counts).
"""
from __future__ import annotations

import re
from typing import Any

from rules.common import PUBLIC, Event, IllegalAction, term

from . import tables
from .dice import BASIC_DIFFICULTY, PoolResult, build_pool, ceil_half, roll_pool
from .schema import FEAR
from .state import Effect, GameState, ModelState

# Penalty abilities: "best" for the bearer is the smallest penalty.
PENALTY_ABILITIES = {"Heavy Armor", "Heavy Weapon", "Rickety"}
INNATE_SPIRITUAL = {"Ethereal": 1, "Incorporeal": 3}


def say(kind: str, audience: str = PUBLIC, **data: Any) -> Event:
    """An event as protocol data: `events.<kind>` in the catalogues words it from `data`."""
    return Event(kind, data, audience)


def said(key: str, **params: Any) -> dict:
    """A term with its own parameters (`terms.<key>` filled with them), as a value in event data."""
    return {"term": key, **params}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


# The reasons a pool changes (digest §1.8, §2.3, §2.4, the abilities), said as terms.mod_<slug>; a
# reason no catalogue knows (what a player typed with /carnevale-game roll) is shown as given.
MODIFIERS = frozenset(slug(k) for k in (
    "pain threshold", "Stun", "no Karma left", "carrying the fragment", "Heavy Armor", "Karma", "modifier",
    "friends in contact with the target", "Grow Through Adversity", "other enemies in contact", "charge",
    "low blow", "push", "round house", "strike from above", "trample", "drown", "attack", "Water Creature",
    "Companion", "First Strike", "Sworn Enemy", "Heavy Weapon", "target's Save", "Fascination",
    "Walk Between Worlds", "range", "cover", "shooting on the move", "target engaged", "shooter engaged", "Sniper",
    "Throwable", "aim", "spell difficulty", "target's Mind", "enemy caster's Mind", "half the Mind of its caster",
    "climbing tools", "Leader's Command", "first-aid kit"))


# ------------------------------------------------------------------ abilities
def all_abilities(m: ModelState) -> list[dict]:
    out = list(m.abilities) + list(m.item_abilities) + list(m.magic_abilities)
    for e in m.effects:
        if e.kind == "ability":
            out.append({"name": e.ability, "x": e.x})
    return out


def has(m: ModelState, name: str) -> bool:
    return any(a["name"] == name for a in all_abilities(m))


def ability_x(m: ModelState, name: str, default: int | None = None) -> int | None:
    xs = [int(a.get("x", 0)) for a in all_abilities(m) if a["name"] == name]
    if not xs:
        return default
    if name in PENALTY_ABILITIES:
        return min(xs, key=abs)
    return max(xs)


def weapon_x(abilities: list[dict], name: str, default: int | None = None) -> int | None:
    xs = [int(a.get("x", 0)) for a in abilities if a["name"] == name]
    return max(xs) if xs else default


# ------------------------------------------------------------------ life track
def thresholds(track: list[int]) -> list[int]:
    """Indices of the boxes that are Pain Thresholds (the last box of each non-zero group,
    except the very last box, whose crossing is Falling in Combat)."""
    n = len(track)
    return [i for i in range(n - 1) if track[i] != 0 and track[i + 1] != track[i]]


def pain_penalty_for(track: list[int], damage: int) -> int:
    pen = 0
    for i in thresholds(track):
        if i < damage:
            pen = track[i]          # replaces, never adds
    return pen


def past_last_threshold(m: ModelState) -> bool:
    th = thresholds(m.life_track)
    return bool(th) and m.damage > th[-1]


def pain_penalty(m: ModelState) -> int:
    if has(m, "Berserk") and past_last_threshold(m):
        return 0
    return pain_penalty_for(m.life_track, m.damage)


# ------------------------------------------------------------------ attributes
def attr(m: ModelState, name: str, state: GameState | None = None) -> int:
    """The current value of an attribute, with spell effects (best bonus, worst malus),
    Berserk, Defensive Combat and the Protection rules."""
    base = int(m.attrs.get(name, 0))
    ups = [e.delta for e in m.effects if e.kind == "attr" and e.attr == name and e.delta > 0]
    downs = [e.delta for e in m.effects if e.kind == "attr" and e.attr == name and e.delta < 0]
    value = base + (max(ups) if ups else 0) + (min(downs) if downs else 0)
    if name == "PRO":
        printed_extra = weapon_x(m.abilities, "Extra Protection", 0) or 0
        best_extra = ability_x(m, "Extra Protection", 0) or 0
        value = value - printed_extra + best_extra - abs(ability_x(m, "Rickety", 0) or 0)
        return max(0, value)
    if name == "COM" and has(m, "Berserk") and past_last_threshold(m):
        value += 3
    if name == "DEX" and state is not None and m.defensive_turn == state.turn:
        value += m.defensive_dex
    if ups or downs or name in ("COM", "DEX"):
        value = max(1, min(10, value)) if base > 0 else value
    return value


def first_leader(state: GameState, pid: str) -> ModelState | None:
    p = state.players[pid]
    if p.leader and p.leader in state.models and state.models[p.leader].in_play:
        return state.models[p.leader]
    return None


# ------------------------------------------------------------------ pools
def roll_mods(state: GameState, m: ModelState, kind: str = "") -> list[tuple[str, int]]:
    """The automatic dice modifiers every roll of this model gets."""
    mods: list[tuple[str, int]] = []
    pen = pain_penalty(m)
    if pen:
        mods.append(("pain threshold", pen))
    if m.stunned:
        mods.append(("Stun", -1))
    if m.karma == 0 and m.karma_max > 0 and state.house_rules.get("zero_karma_penalty", True):
        mods.append(("no Karma left", -1))
    if m.carrying == "fragment":
        mods.append(("carrying the fragment", -int(state.house_rules.get("fragment_bearer_penalty", 1))))
    if kind == "DEX":
        ha = ability_x(m, "Heavy Armor")
        if ha:
            mods.append(("Heavy Armor", -abs(ha)))
    return mods


def spend_karma(m: ModelState, n: int, why: str) -> None:
    if n < 0:
        raise IllegalAction("karma_negative")
    if n > m.karma:
        raise IllegalAction("karma_short", model=m.name, karma=m.karma, n=n)
    m.karma -= n


def modifier(reason: str, value: int) -> dict:
    why = term(f"mod_{slug(reason)}") if slug(reason) in MODIFIERS else reason
    return said("modifier", n=f"{'+' if value >= 0 else '−'}{abs(value)}", why=why)


STATS = ("MOV", "COM", "DEX", "SHO", "MIN", "PRO")     # the profile's attributes, as the rules name them


def stat(code: str) -> Any:
    """An attribute as a term, so each language shows its own abbreviation (DEX is DES in Italian);
    anything else (a free label) as it is."""
    return term(f"stat_{code.lower()}") if code.upper() in STATS else code


def explained_pool(result: PoolResult, stat_code: str) -> dict:
    """The attribute and its value, each modifier with its reason, the cap, then the dice rolled."""
    pool = result.pool
    if pool is None:
        return said("pool_dice", dice=len(result.dice))
    mods = [modifier(k, v) for k, v in pool.modifiers if v]
    key = "pool" + ("_mods" if mods else "") + ("_cap" if pool.lost_to_cap else "")
    base = said("pool_base", stat=stat(stat_code), n=pool.base) if stat_code else str(pool.base)
    return said(key, base=base, mods=mods, dice=pool.dice, lost=pool.lost_to_cap)


def outcome(result: PoolResult) -> dict:
    """The faces (the Destiny Die first, in brackets) against the difficulty, and what they make."""
    if not result.dice:
        return term("roll_no_dice")
    faces = " ".join([f"[{result.dice[0]}]"] + [str(d) for d in result.dice[1:]])
    key = ("outcome_critical" if result.critical else "outcome_fumble" if result.fumble
           else "outcome_discarded" if result.discarded else "outcome")
    return said(key, faces=faces, difficulty=result.difficulty,
                aces=said("aces_one" if result.aces == 1 else "aces", n=result.aces))


def roll_label(what: Any) -> str:
    """A roll's tag for the log, the tests and the tools: the key of the term its reader reads
    (roll_combat, roll_morale, event_14, move_climb, heal_healing…), whose parameters are in `what`;
    roll_free for what a player typed. Rolls stored before the tags were codes keep their English
    label: nothing reads it but the raw export, and `what` words them."""
    return str(what["term"]) if isinstance(what, dict) and "term" in what else "roll_free"


def record(state: GameState, m: ModelState | None, result: PoolResult, what: Any, stat: str = "") -> Event:
    """The roll as an event that explains itself: the attribute and its value, each modifier with
    its reason, the cap, the dice rolled, then the faces and the result. `what` is what the roll is
    for, as data: a term with its parameters (said("roll_combat", difficulty=7)), or the text a player
    typed for their own roll; the event's `label` is its code (`roll_label`)."""
    data = result.to_public()
    label = roll_label(what)
    data["model"] = m.uid if m else ""
    # d10s, and whose they are: a chronicle's dice luck per player (cogs/host/recap.luck)
    data["sides"] = 10
    data["player"] = m.owner if m else ""
    data["label"] = label
    data["stat"] = stat
    if result.pool is not None:
        data["base"] = result.pool.base
        data["modifiers"] = [[k, v] for k, v in result.pool.modifiers if v]
    data["pool"] = explained_pool(result, stat)
    data["what"] = what
    data["who"] = said("roll_who", name=m.name) if m else ""
    data["outcome"] = outcome(result)
    state.last_roll = {"model": m.uid if m else "", "label": label, "result": result.to_dict()}
    return Event("roll", data)


def model_roll(state: GameState, m: ModelState, base: int, difficulty: int = BASIC_DIFFICULTY, *, what: Any,
               kind: str = "", mods: list[tuple[str, int]] | None = None, karma: int = 0,
               auto_mods: bool = True, default_effects: bool = False,
               events: list[Event] | None = None, stat: str = "") -> PoolResult:
    """Roll for a model with its automatic modifiers and up to 2 Karma dice (paid here).
    `what`: what the roll is for (see `record`); `stat`: the attribute the pool comes from (COM, SHO,
    MIN, DEX…), named in the roll's line."""
    if karma > 2:
        raise IllegalAction("karma_dice_max")
    all_mods = (roll_mods(state, m, kind) if auto_mods else []) + list(mods or [])
    spend_karma(m, karma, "Karma dice")
    if karma:
        all_mods.append(("Karma", karma))
    pool = build_pool(base, all_mods, state.house_rules.get("pool_order", "net_then_clamp"))
    result = roll_pool(state.rng, pool, difficulty)
    if events is not None:
        events.append(record(state, m, result, what, stat or kind))
        if default_effects:
            events.extend(default_crit_fumble(m, result))
    return result


def default_crit_fumble(m: ModelState, result: PoolResult) -> list[Event]:
    """Defaults when nothing else is said: a Critical gives back 1 lost Karma, a Fumble costs 1."""
    out = []
    if result.critical and m.karma < m.karma_max:
        m.karma += 1
        out.append(say("karma_critical", model=m.uid, name=m.name, karma=m.karma, karma_max=m.karma_max))
    if result.fumble and m.karma > 0:
        m.karma -= 1
        out.append(say("karma_fumble", model=m.uid, name=m.name, karma=m.karma, karma_max=m.karma_max))
    return out


# ------------------------------------------------------------------ Spiritual Bond
def bonds_of(state: GameState, m: ModelState) -> list[tuple[ModelState, Effect]]:
    """(bound model, effect) pairs where m is the bound model or the caster."""
    out = []
    for t in state.models.values():
        for e in t.effects:
            if e.kind == "bond" and (t.uid == m.uid or e.caster == m.uid):
                out.append((t, e))
    return out


def break_bond(state: GameState, t: ModelState, e, why: dict) -> list[Event]:
    """`why`: a term (terms.bond_<why>) saying what broke it."""
    if e in t.effects:
        t.effects.remove(e)
    t.owner = e.ability or t.owner
    events = [say("bond_end", model=t.uid, name=t.name, why=why)]
    return events + stun(state, t, "freed from a Spiritual Bond")


def bond_maintenance(state: GameState, t: ModelState, e, why: dict) -> list[Event]:
    """A new Magic roll to keep the Bond: the caster pays 1 Karma; a failure frees the model."""
    c = state.models.get(e.caster)
    if c is None or not c.in_play:
        return break_bond(state, t, e, term("bond_caster_gone"))
    if c.karma < 1:
        return break_bond(state, t, e, said("bond_no_karma", name=c.name))
    c.karma -= 1
    events: list[Event] = [say("bond_roll", model=c.uid, name=c.name, why=why)]
    r = model_roll(state, c, attr(c, "MIN"), what=term("roll_bond"),
                   mods=[("target's Mind", -attr(t, "MIN"))], events=events, stat="MIN")
    if not r.success:
        events += break_bond(state, t, e, term("bond_roll_failed"))
    return events


# ------------------------------------------------------------------ stun, damage, healing
# The rules' own causes of a Stun, said in the reader's language (terms.stun_<key>); any other source
# (a spell's name, what a player typed with /carnevale-table stun) is shown as given.
STUN_SOURCES = {
    "failed Morale": "failed_morale", "Stun ability": "stun_ability", "Critical in close combat": "melee_critical",
    "Critical shot": "shot_critical", "fumbled Magic roll": "magic_fumble", "the Geyser's Critical": "geyser_critical",
    "fumbled Run on Walls": "run_on_walls_fumble", "fumbled Rappel": "rappel_fumble",
    "freed from a Spiritual Bond": "bond_freed", "failed Hold Breath": "hold_breath_failed",
    "a fall as high as its Dexterity": "high_fall", "Pain Threshold": "pain_threshold",
    "Naach-Tith Critical": "annulment_critical", "Mind Control": "mind_control", "Low Blow": "low_blow",
    "Evil Eye": "evil_eye", "Combat Stress": "combat_stress", "an effect": "an_effect",
}


def stun_source(source: str) -> str | dict:
    key = STUN_SOURCES.get(source)
    return term(f"stun_{key}") if key else source


def stun(state: GameState, m: ModelState, source: str = "", drown: bool = False) -> list[Event]:
    if not m.in_play:
        return []
    told = {"model": m.uid, "name": m.name, "source": source, "why": stun_source(source)}
    if m.stun_turn == state.turn and not drown and state.house_rules.get("second_stun_same_turn") == "ignored":
        return [Event("stun_ignored", told)]
    m.stun_turn = state.turn
    if m.stunned:
        events = [Event("stun_damage", told)]
        events += apply_damage(state, m, 1, ignore_protection=True, source="second Stun")[1]
        return events
    m.stunned = True
    events = [Event("stun", told)]
    if source != "freed from a Spiritual Bond":
        for t, e in bonds_of(state, m):
            events += bond_maintenance(state, t, e, said("bond_stunned", name=m.name))
    return events


def effective_protection(state: GameState, m: ModelState, penetration: int = 0, spiritual: bool = False,
                         flames: bool = False, ignore_protection: bool = False, fall: bool = False) -> int:
    up = ability_x(m, "Universal Protection", 0) or 0
    if ignore_protection:
        return 0
    if spiritual:
        sp = max([ability_x(m, "Spiritual Protection", 0) or 0, up]
                 + [x for k, x in INNATE_SPIRITUAL.items() if has(m, k)])
        return sp
    if flames:
        return max(abs(ability_x(m, "Fireproof", 0) or 0), abs(ability_x(m, "Flameproof", 0) or 0), up)
    if fall:
        base = 2 if state.house_rules.get("fall_protection", "base_only") == "base_only" else 0
        return max(0, base - penetration)
    prot = max(attr(m, "PRO"), up) + m.protection_boost
    return max(0, prot - penetration)


def apply_damage(state: GameState, m: ModelState, amount: int, penetration: int = 0, spiritual: bool = False,
                 flames: bool = False, ignore_protection: bool = False, source: Any = "",
                 attacker: str = "", fall: bool = False) -> tuple[int, list[Event]]:
    """Damage before Protection → Life boxes crossed; thresholds, Stun, falling in combat. `source`
    tags the damage event for tools (a weapon's name with the `attacker`, an ability, a term); no
    catalogue words it."""
    if not m.in_play:
        return 0, []
    prot = effective_protection(state, m, penetration, spiritual, flames, ignore_protection, fall)
    if m.protection_boost and not (spiritual or flames or ignore_protection or fall):
        m.protection_boost = 0     # the Karma boost is used up by this attack
    lost = max(0, int(amount) - prot)
    lost = min(lost, m.life_left)
    events: list[Event] = []
    before = m.damage
    m.damage += lost
    kind = "damage_spiritual" if spiritual else ("damage_flame" if flames else "damage_plain")
    events.append(Event("damage", {"model": m.uid, "name": m.name, "amount": amount, "nature": term(kind),
                                   "protection": prot, "lost": lost, "life_left": m.life_left, "life": m.life,
                                   "source": source, **({"attacker": attacker} if attacker else {})}))
    if lost and m.damage >= m.life:
        events += fall_in_combat(state, m, attacker)
        return lost, events
    for i in thresholds(m.life_track):
        if before <= i < m.damage:
            events.append(Event("pain", {"model": m.uid, "name": m.name, "penalty": m.life_track[i]}))
            if m.at_ready:
                m.at_ready = ""
                events.append(Event("at_ready_lost", {"model": m.uid, "name": m.name, "why": term("ready_pain")}))
            for t, e in bonds_of(state, m):
                if e.caster == m.uid:
                    events += break_bond(state, t, e, said("bond_pain", name=m.name))
            events += stun(state, m, "Pain Threshold")
    if lost >= 3 and m.in_play and m.on_gondola and state.house_rules.get("terrain") == "es_ttcombat":
        m.on_gondola, m.gondola = False, ""
        m.in_water = True
        events.append(say("gondola_fall", model=m.uid, how=said("gondola_knocked", name=m.name, lost=lost)))
    return lost, events


def heal(state: GameState, m: ModelState, n: int, source: Any = "") -> list[Event]:
    """`source`: a term saying what heals (Healing, Regeneration, an Event)."""
    if not m.in_play or n <= 0:
        return []
    healed = min(n, m.damage)
    m.damage -= healed
    return [say("heal", model=m.uid, name=m.name, healed=healed, life_left=m.life_left, life=m.life, source=source)]


def healing_roll(state: GameState, healer: ModelState, target: ModelState, x: int, source: str,
                 karma: int = 0, extra: list[tuple[str, int]] | None = None) -> list[Event]:
    """Healing/Regeneration (X): X dice at 7; 1 LP per Ace; Critical full; Fumble 1 damage to the target.
    `source`: "Healing" or "Regeneration" (or a spell's or an Event's name, said as terms.heal_<slug>)."""
    events: list[Event] = []
    how = said(f"heal_{slug(source)}", x=x)
    r = model_roll(state, healer, x, mods=extra or [], karma=karma, events=events, what=how)
    if r.critical:
        events += heal(state, target, target.damage, said("heal_critical", how=how))
    elif r.fumble:
        events.append(say("heal_fumble", model=target.uid, name=target.name, how=how))
        events += apply_damage(state, target, 1, ignore_protection=True, source=how)[1]
    else:
        events += heal(state, target, r.aces, how)
    return events


# ------------------------------------------------------------------ falling in combat, morale
def fall_in_combat(state: GameState, m: ModelState, attacker: str = "", fled: bool = False) -> list[Event]:
    m.fallen = True
    m.fled = fled
    m.killed_by = attacker
    m.activated = True
    m.at_ready = ""
    events = [Event("fallen", {"model": m.uid, "name": m.name, "attacker": attacker,
                               "how": term("fallen_fled" if fled else "fallen_in_combat")})]
    for t, e in bonds_of(state, m):
        if e.caster == m.uid and t.in_play:
            events += break_bond(state, t, e, said("bond_fell", name=m.name))
    if m.carrying:
        events.append(say("dropped", model=m.uid, name=m.name, item=term(f"carried_{m.carrying}")))
        m.carrying = ""
    owner = state.players[m.owner]
    was_leader = owner.leader == m.uid
    if attacker and attacker in state.models:
        a = state.models[attacker]
        gain = int(state.house_rules.get("leader_kill_karma", 3)) if was_leader else 1
        new = min(a.karma_max, a.karma + gain)
        if new > a.karma:
            events.append(say("karma_blow", model=a.uid, name=a.name, n=new - a.karma, karma=new,
                              karma_max=a.karma_max))
            a.karma = new
    # Mind Control: the controller of a Mindless model rolls Mind or is Stunned
    if has(m, "Mindless"):
        for c in state.squad(m.owner):
            if has(c, "Mind Control"):
                r = model_roll(state, c, attr(c, "MIN"), what=term("roll_mind_control"),
                               events=events, stat="MIN")
                if not r.success:
                    events += stun(state, c, "Mind Control")
                break
    if was_leader:
        successor = next((x for x in state.squad(m.owner) if x.command > 0 or x.command_max > 0), None)
        owner.leader = successor.uid if successor else ""
        if successor:
            events.append(say("leader", model=successor.uid, name=successor.name))
        if state.squad(m.owner):
            state.morale_due.append({"kind": "group", "player": m.owner, "reason": "the Leader fell"})
    left = state.squad(m.owner)
    if len(left) == 1 and not was_leader:
        state.morale_due.append({"kind": "single", "models": [left[0].uid], "reason": "last survivor of the squad"})
    elif len(left) > 1 and not was_leader:
        state.counter += 1
        state.morale_queue.append({"id": f"mor-{state.counter}", "player": m.owner, "fallen": m.uid})
    if m.drowned_by:
        m.drowned_by = ""
    return events


def morale_pool(state: GameState, m: ModelState, modifier: int = 0, single: bool = True) -> tuple[int, list, bool]:
    """(base, modifiers, use automatic modifiers?) for a Morale roll (Brave, Reckless)."""
    if single and has(m, "Reckless"):
        return 2 * int(m.attrs.get("MIN", 0)), [], False
    if has(m, "Brave"):
        return int(m.attrs.get("MIN", 0)), [], False
    return attr(m, "MIN"), ([("modifier", modifier)] if modifier else []), True


def morale_why(reason: str, modifier: int = 0) -> dict:
    """Why a Morale roll is made, as a term: Fear (X), the Leader fell, the last survivor, fleeing…
    (`reason` is the engine's own tag: FEAR, "fleeing", "called", "Anxiety"…; `modifier` the test's,
    which is Fear's X)."""
    if reason == FEAR:
        return said("morale_fear", x=modifier)
    return term(f"morale_{slug(reason)}")


def morale_what(reason: str, group: bool = False, modifier: int = 0) -> dict:
    key = "roll_group_morale" if group else "roll_morale"
    return said(key, why=morale_why(reason, modifier)) if reason else term(f"{key}_plain")


def morale_result(state: GameState, m: ModelState, r: PoolResult) -> list[Event]:
    if r.success:
        return [Event("morale_pass", {"model": m.uid, "name": m.name})]
    events = stun(state, m, "failed Morale")
    if r.fumble:
        m.fleeing = True
        events.append(say("flee", model=m.uid, name=m.name))
    return events


def rally_result(state: GameState, m: ModelState, r: PoolResult) -> list[Event]:
    """A fleeing model's End-of-Round Morale roll: success restores control; a failure keeps it fleeing."""
    if not r.success:
        return []
    m.fleeing = False
    return [say("rally", model=m.uid, name=m.name)]


# ------------------------------------------------------------------ falls and water
def fall(state: GameState, m: ModelState, height: float, voluntary: bool = False, karma: int = 0) -> list[Event]:
    events: list[Event] = []
    cat = tables.fall_category(height)
    r = model_roll(state, m, attr(m, "DEX", state), what=term("roll_jump_down" if voluntary else "roll_falling"),
                   kind="DEX", karma=karma, events=events)
    if voluntary:
        cat = 0 if r.critical else max(0, cat - r.aces) + (1 if r.fumble else 0)
    else:
        if r.fumble:
            cat += int(state.house_rules.get("involuntary_fall_fumble", 1))
        elif r.success:
            cat -= 1
    cat = max(0, min(5, cat))
    _, _label, dmg, pen = tables.fall_row(cat)
    events.append(say("fall", model=m.uid, name=m.name, height=height, category=cat,
                      row=term(f"fall_{cat}")))
    if dmg is None:
        events += fall_in_combat(state, m, "")
        return events
    if dmg:
        lost, evs = apply_damage(state, m, dmg, penetration=pen, fall=True, source="fall")
        events += evs
        if lost and height >= attr(m, "DEX", state):
            events += stun(state, m, "a fall as high as its Dexterity")
    return events


def hold_breath(state: GameState, m: ModelState, penalty: int = 0, drown: bool = False) -> list[Event]:
    if has(m, "Water Creature") or "Newt Gill Potion" in m.items:
        return [say("hold_breath", model=m.uid, name=m.name)]
    events: list[Event] = []
    r = model_roll(state, m, attr(m, "DEX", state), what=term("roll_hold_breath"), kind="DEX",
                   mods=[("Drown", -penalty)] if penalty else [], events=events)
    if not r.success:
        events += stun(state, m, "failed Hold Breath", drown=drown)
    return events


def swim_allowance(m: ModelState, remaining: int | None = None) -> int:
    """Inches a model swims with its (remaining) movement: half, rounded up, unless it swims well."""
    mov = attr(m, "MOV") if remaining is None else remaining
    if has(m, "Expert Swimmer") or has(m, "Water Creature"):
        return mov
    return ceil_half(mov)
