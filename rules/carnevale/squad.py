"""Squad building (digest §4.1): costs, the checks, and turning a squad into models for a game.

`validate_squad(pack, squad)` returns every reason a squad is refused (empty = legal);
`check_squad` raises `SquadError` with them. A squad is a Serial value the cog can store.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.common import IllegalAction, Serial

from .content import Pack, as_ability_list
from .state import ModelState, WeaponState

EVENT_COST = 10
MAX_EVENTS = 2


class SquadError(IllegalAction):
    """The squad breaks a building rule; the message lists every reason."""


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


def validate_squad(pack: Pack, squad: Squad) -> list[str]:
    reasons: list[str] = []
    if not squad.members:
        return ["The squad has no models."]
    if squad.faction not in pack.factions:
        reasons.append(f"'{squad.faction}' is not a faction of {pack.name}.")
    counts: dict[str, int] = {}
    magical: list[str] = []
    leaders = []
    for i, m in enumerate(squad.members):
        label = m.name or m.profile
        if m.profile not in pack.profiles:
            reasons.append(f"Model {i + 1}: there is no profile called '{m.profile}'.")
            continue
        profile = pack.profile(m.profile)
        counts[m.profile] = counts.get(m.profile, 0) + 1
        fac = profile["faction"]
        if fac != squad.faction and fac not in pack.independent_factions:
            reasons.append(f"{label} belongs to {fac}: squads are single-affiliation ({squad.faction}).")
        if m.leader:
            leaders.append(m)
            if not profile.get("command"):
                reasons.append(f"{label} cannot lead: a Leader needs Command.")
        abilities = as_ability_list(profile.get("universal_abilities"))
        options = {o["item"] for o in profile.get("options", [])}
        for item in m.equipment:
            entry = pack.item(item)
            if entry is None:
                reasons.append(f"{label}: '{item}' is not in the equipment tables.")
                continue
            if pack.is_magical(item):
                magical.append(item)
            kind = entry.get("kind")
            if (not squad.campaign and item not in options and kind not in ("basic", "magical")):
                reasons.append(f"{label}: '{item}' can be bought only in a campaign or as a profile option "
                               "(basic adventures allow Basic Equipment and Magical Items).")
        if m.spells:
            mage = _ability_x(abilities, "Mage")
            if mage is None:
                reasons.append(f"{label} is no Mage and cannot learn spells.")
            elif len(m.spells) > mage:
                reasons.append(f"{label} has Mage ({mage}) and can know at most {mage} spells, not {len(m.spells)}.")
            for s in m.spells:
                if s not in pack.spells:
                    reasons.append(f"{label}: there is no spell called '{s}'.")
            if len(set(m.spells)) != len(m.spells):
                reasons.append(f"{label} learns the same spell twice.")
    if len(leaders) != 1:
        reasons.append("Nominate exactly one Leader (a model with Command)." if not leaders
                       else "Only one model can be the nominated Leader.")
    for name, n in counts.items():
        profile = pack.profile(name)
        limit = frequency_limit(profile, squad.points_limit)
        if limit is not None and n > limit:
            what = "Unique: one per squad" if limit == 1 and (profile.get("unique") or profile.get("independent")) \
                else f"its Frequency at {squad.points_limit} points is {limit}"
            reasons.append(f"Too many {name} ({n}): {what}.")
    if len(magical) > 1:
        reasons.append(f"A squad may carry at most one magical item, not {len(magical)} ({', '.join(magical)}).")
    if squad.events > MAX_EVENTS:
        reasons.append(f"At most {MAX_EVENTS} Events per adventure, not {squad.events}.")
    if squad.events < 0:
        reasons.append("Events cannot be negative.")
    try:
        total = squad_cost(pack, squad)
    except Exception:  # an unknown profile was already reported
        total = None
    if total is not None and total > squad.points_limit:
        reasons.append(f"The squad costs {total} points, over the limit of {squad.points_limit} "
                       f"by {total - squad.points_limit}.")
    return reasons


def check_squad(pack: Pack, squad: Squad) -> int:
    """Raise SquadError listing every problem; return the squad's cost when it is legal."""
    reasons = validate_squad(pack, squad)
    if reasons:
        raise SquadError("This squad cannot be fielded: " + " ".join(reasons))
    return squad_cost(pack, squad)


LEADER_REASONS = ("Nominate exactly one Leader", "Only one model can be the nominated Leader")


def add_member(pack: Pack, squad: Squad, member: SquadMember) -> Squad:
    """A new squad with the member added; refused (SquadError) when that breaks a rule other than
    'no Leader yet' (a squad is built one model at a time)."""
    trial = Squad.from_dict(squad.to_dict())
    if member.leader:
        for m in trial.members:
            m.leader = False
    trial.members.append(member)
    reasons = [r for r in validate_squad(pack, trial) if not r.startswith(LEADER_REASONS)]
    if reasons:
        raise SquadError("Cannot add " + (member.name or member.profile) + ": " + " ".join(reasons))
    return trial


def remove_member(squad: Squad, index: int) -> Squad:
    """A new squad without the member at `index` (1-based, as shown to players)."""
    if not 1 <= index <= len(squad.members):
        raise SquadError(f"There is no model number {index} in {squad.name}.")
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
        raise IllegalAction(f"'{faction[:60]}' is not a faction of {pack.name}: {', '.join(pack.factions)}.")
    classes = [p for p in pack.profiles.values() if p["faction"] == faction]
    leader = next((p for p in classes if p.get("command")), None)
    if leader is None:
        raise IllegalAction(f"{faction} has no profile with Command to lead a sample squad.")
    members = [SquadMember(leader["name"], leader=True)]
    others = sorted((p for p in classes if p is not leader), key=lambda p: p["cost"])
    squad = Squad(name=f"{faction} (sample)", faction=faction, points_limit=points, members=members)
    added = True
    while added:
        added = False
        for p in others:
            trial = Squad(squad.name, faction, points, squad.members + [SquadMember(p["name"])])
            if not validate_squad(pack, trial):
                squad = trial
                added = True
    return squad
