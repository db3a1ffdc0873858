"""Squad building (digest §4.1): costs, the checks, and turning a squad into models for a game.

`validate_squad(pack, squad)` returns every reason a squad is refused (empty = legal), each a
term (`terms.squad_<reason>` with its parameters) the presenter words in the reader's language;
`check_squad` raises `SquadError` with them. A squad is a Serial value the cog can store.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.common import IllegalAction, Serial, term

from .content import Pack, as_ability_list
from .dice import refused
from .schema import SAMPLE
from .state import ModelState, WeaponState

EVENT_COST = 10
MAX_EVENTS = 2
# a squad is built one model at a time: no Leader yet is no reason to refuse a model
LEADER_REASONS = ("no_leader", "two_leaders")


class SquadError(IllegalAction):
    """The squad breaks a building rule; `reasons` lists every one (terms). Worded by Carnevale's
    catalogue also when a cog builds a squad outside the engine."""

    def __init__(self, code: str = "", /, **params):
        super().__init__(code, **params)
        self.system = "carnevale"


def reason(key: str, **params) -> dict:
    """One reason a squad is refused, as data: `terms.squad_<key>`."""
    return {"term": f"squad_{key}", **params}


@dataclass
class SquadMember(Serial):
    profile: str
    name: str = ""
    equipment: list[str] = field(default_factory=list)   # bought on top of the profile's own
    spells: list[str] = field(default_factory=list)
    leader: bool = False


@dataclass
class Squad(Serial):
    name: str
    faction: str
    points_limit: int = 200
    members: list[SquadMember] = field(default_factory=list)
    events: int = 0
    campaign: bool = False        # outside campaigns only basic and magical items may be bought
    built_by: str = ""            # "" a squad its player named; SAMPLE or BAUTA one the rules built (no name)


def squad_name(name: str, built_by: str = "") -> str | dict:
    """A squad's name as data: the name its player gave it, kept verbatim, or for a squad the rules
    built the term the presenter words in the reader's language (`terms.sample_squad`, `bauta_squad`)."""
    return term(f"{built_by}_squad") if built_by else name


def spell_cost(pack: Pack, profile: dict, spell: str) -> int:
    discounts = profile.get("spell_discounts") or {}
    if spell in discounts:
        return int(discounts[spell])
    if spell == "Spiritual Bond" and "Spirit Bond" in discounts:
        return int(discounts["Spirit Bond"])
    return int(pack.spells[spell]["cost"])


def member_cost(pack: Pack, member: SquadMember) -> int:
    profile = pack.profile(member.profile)
    cost = int(profile["cost"])
    options = {o["item"]: int(o["cost"]) for o in profile.get("options", [])}
    for item in member.equipment:
        cost += options.get(item, pack.item_cost(item))
    for spell in member.spells:
        if spell in pack.spells:
            cost += spell_cost(pack, profile, spell)
    return cost


def squad_cost(pack: Pack, squad: Squad) -> int:
    return sum(member_cost(pack, m) for m in squad.members) + EVENT_COST * squad.events


def _ability_x(abilities: list[dict], name: str) -> int | None:
    xs = [a.get("x", 0) for a in abilities if a["name"] == name]
    return max(xs) if xs else None


def frequency_limit(profile: dict, points: int) -> int | None:
    if profile.get("unique") or profile.get("independent"):
        return 1
    rows = profile.get("frequency") or []
    for row in sorted(rows, key=lambda r: (r.get("max_points") is None, r.get("max_points") or 0)):
        if row.get("max_points") is None or points <= row["max_points"]:
            return int(row["limit"])
    return None


def validate_squad(pack: Pack, squad: Squad) -> list[dict]:
    reasons: list[dict] = []
    if not squad.members:
        return [reason("no_models")]
    if squad.faction not in pack.factions:
        reasons.append(reason("not_a_faction", faction=squad.faction, pack=pack.name))
    counts: dict[str, int] = {}
    magical: list[str] = []
    leaders = []
    for i, m in enumerate(squad.members):
        label = m.name or m.profile
        if m.profile not in pack.profiles:
            reasons.append(reason("no_profile", n=i + 1, profile=m.profile))
            continue
        profile = pack.profile(m.profile)
        counts[m.profile] = counts.get(m.profile, 0) + 1
        fac = profile["faction"]
        if fac != squad.faction and fac not in pack.independent_factions:
            reasons.append(reason("single_affiliation", name=label, faction=fac, squad_faction=squad.faction))
        if m.leader:
            leaders.append(m)
            if not profile.get("command"):
                reasons.append(reason("leader_needs_command", name=label))
        abilities = as_ability_list(profile.get("universal_abilities"))
        options = {o["item"] for o in profile.get("options", [])}
        for item in m.equipment:
            entry = pack.item(item)
            if entry is None:
                reasons.append(reason("no_item", name=label, item=item))
                continue
            if pack.is_magical(item):
                magical.append(item)
            kind = entry.get("kind")
            if (not squad.campaign and item not in options and kind not in ("basic", "magical")):
                reasons.append(reason("campaign_item", name=label, item=item))
        if m.spells:
            mage = _ability_x(abilities, "Mage")
            if mage is None:
                reasons.append(reason("no_mage", name=label))
            elif len(m.spells) > mage:
                reasons.append(reason("mage_limit", name=label, x=mage, n=len(m.spells)))
            for s in m.spells:
                if s not in pack.spells:
                    reasons.append(reason("no_spell", name=label, spell=s))
            if len(set(m.spells)) != len(m.spells):
                reasons.append(reason("spell_twice", name=label))
    if len(leaders) != 1:
        reasons.append(reason(LEADER_REASONS[0] if not leaders else LEADER_REASONS[1]))
    for name, n in counts.items():
        profile = pack.profile(name)
        limit = frequency_limit(profile, squad.points_limit)
        if limit is not None and n > limit:
            unique = limit == 1 and (profile.get("unique") or profile.get("independent"))
            reasons.append(reason("unique", profile=name, n=n) if unique else
                           reason("frequency", profile=name, n=n, points=squad.points_limit, limit=limit))
    if len(magical) > 1:
        reasons.append(reason("magic_items", n=len(magical), items=magical))
    if squad.events > MAX_EVENTS:
        reasons.append(reason("events_max", max=MAX_EVENTS, n=squad.events))
    if squad.events < 0:
        reasons.append(reason("events_negative"))
    try:
        total = squad_cost(pack, squad)
    except Exception:  # an unknown profile was already reported
        total = None
    if total is not None and total > squad.points_limit:
        reasons.append(reason("over_limit", total=total, limit=squad.points_limit, over=total - squad.points_limit))
    return reasons


def check_squad(pack: Pack, squad: Squad) -> int:
    """Raise SquadError listing every problem; return the squad's cost when it is legal."""
    reasons = validate_squad(pack, squad)
    if reasons:
        raise SquadError("squad_unfit", reasons=reasons)
    return squad_cost(pack, squad)


def add_member(pack: Pack, squad: Squad, member: SquadMember) -> Squad:
    """A new squad with the member added; refused (SquadError) when that breaks a rule other than
    'no Leader yet' (a squad is built one model at a time)."""
    trial = Squad.from_dict(squad.to_dict())
    if member.leader:
        for m in trial.members:
            m.leader = False
    trial.members.append(member)
    reasons = [r for r in validate_squad(pack, trial) if r["term"] not in [f"squad_{k}" for k in LEADER_REASONS]]
    if reasons:
        raise SquadError("squad_cannot_add", name=member.name or member.profile, reasons=reasons)
    return trial


def remove_member(squad: Squad, index: int) -> Squad:
    """A new squad without the member at `index` (1-based, as shown to players)."""
    if not 1 <= index <= len(squad.members):
        raise SquadError("squad_no_number", n=index, squad=squad.name)
    trial = Squad.from_dict(squad.to_dict())
    trial.members.pop(index - 1)
    return trial


def weapon_state(entry: dict) -> WeaponState:
    return WeaponState(name=entry["name"], kind=entry["kind"], damage=int(entry.get("damage", 0)),
                       damage_dice=entry.get("damage_dice", ""), range=int(entry.get("range", 0)),
                       abilities=as_ability_list(entry.get("abilities")), firearm=bool(entry.get("firearm")),
                       no_damage=bool(entry.get("no_damage")),
                       shots_left=max(1, _ability_x(as_ability_list(entry.get("abilities")), "Multiple Shot") or 1))


def make_model(pack: Pack, member: SquadMember, owner: str, uid: str) -> ModelState:
    profile = pack.profile(member.profile)
    weapons, items, item_abilities, magic, magic_abilities = [], [], [], "", []
    for name in list(profile.get("equipment", [])) + list(member.equipment):
        if name in pack.weapons:
            weapons.append(weapon_state(pack.weapons[name]))
        else:
            entry = pack.equipment.get(name, {})
            items.append(name)
            if entry.get("kind") == "magical":
                magic = name
                magic_abilities = as_ability_list(entry.get("abilities"))
            elif entry.get("kind") in ("armour", "special") or name in ("Lantern",):
                item_abilities.extend(as_ability_list(entry.get("abilities")))
            if entry.get("kind") == "basic" and any(a["name"] == "Ointment" for a in entry.get("abilities", [])):
                # an ointment adds its abilities to the first close-combat weapon
                extra = [a for a in as_ability_list(entry.get("abilities")) if a["name"] != "Ointment"]
                for w in weapons:
                    if w.kind == "melee" and w.name != "Unarmed":
                        w.abilities.extend(extra)
                        break
    if not any(w.kind == "melee" for w in weapons):
        weapons.append(weapon_state(pack.weapons.get("Unarmed", {"name": "Unarmed", "kind": "melee", "damage": -1})))
    spells = list(profile.get("spells", [])) + [s for s in member.spells if s not in profile.get("spells", [])]
    return ModelState(
        uid=uid, owner=owner, name=member.name or profile["name"], profile=profile["name"],
        faction=profile["faction"], size=profile.get("size", "Medium"), cost=member_cost(pack, member),
        ap_max=int(profile["ap"]), ap=0, attrs=dict(profile["attributes"]),
        karma_max=int(profile.get("karma", 0)), karma=int(profile.get("karma", 0)),
        command_max=int(profile.get("command", 0)), command=int(profile.get("command", 0)),
        life_track=list(profile["life_track"]), descriptors=list(profile.get("descriptors", [])),
        abilities=as_ability_list(profile.get("universal_abilities")),
        specials=[{"name": s["name"], "text": s.get("text", "")} for s in profile.get("special_abilities", [])],
        weapons=weapons, items=items, item_abilities=item_abilities, magic_item=magic, spells=spells,
        magic_abilities=magic_abilities,
        independent=bool(profile.get("independent")))


def sample_squad(pack: Pack, faction: str, points: int = 200) -> Squad:
    """A legal squad of the faction's cheapest-first profiles within the points (Leader first)."""
    if faction not in pack.factions:
        raise refused("not_a_faction", faction=faction[:60], pack=pack.name, factions=list(pack.factions))
    classes = [p for p in pack.profiles.values() if p["faction"] == faction]
    leader = next((p for p in classes if p.get("command")), None)
    if leader is None:
        raise refused("no_leader_profile", faction=faction)
    members = [SquadMember(leader["name"], leader=True)]
    others = sorted((p for p in classes if p is not leader), key=lambda p: p["cost"])
    squad = Squad(name="", faction=faction, points_limit=points, members=members, built_by=SAMPLE)
    added = True
    while added:
        added = False
        for p in others:
            trial = replace(squad, members=squad.members + [SquadMember(p["name"])])
            if not validate_squad(pack, trial):
                squad = trial
                added = True
    return squad
