"""Campaign ledger (digest §5.6-§5.9) as pure functions over a Serial `CampaignRecord`.

Every roll takes the caller's `Rng` (the record keeps one), so a campaign replays exactly.
Functions change the record they are given and return what happened as data: numbers, and terms
(`{"term": key, ...}`, worded by the catalogues' `terms.*`) for results such as an improvement or
an injury. `ledger.py` makes each change an action whose events are the ledger's entries.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.common import Rng, Serial, term

from . import tables
from .content import Pack, as_ability_list
from .dice import BASIC_DIFFICULTY, opposed_roll, refused
from .mechanics import said
from .schema import RECORD_SCHEMA
from .squad import Squad, member_cost
from .stored import campaign_record

MAX_IMPROVEMENTS = 3
LEGACY_IMPROVEMENT = "gain_legacy_command"      # Command (3) and Leader from a promotion
STANDARD_LENGTH = 5
WIN_BONUS = 5


@dataclass
class CampaignMember(Serial):
    name: str
    profile: str
    cost: int = 0
    leader: bool = False
    independent: bool = False
    trifling: bool = False
    command: int = 0
    abilities: list[dict] = field(default_factory=list)        # the profile's, then gains and losses
    attr_mods: dict[str, int] = field(default_factory=dict)
    equipment: list[str] = field(default_factory=list)
    # each a term (a plain English string in records kept before the ledger spoke data)
    improvements: list[Any] = field(default_factory=list)
    powers: list[str] = field(default_factory=list)
    injuries: list[Any] = field(default_factory=list)
    maintenance: int = 0                 # compulsory maintenance (injury or independent)
    dead: bool = False
    captured: bool = False
    misses_next: bool = False
    improved_this_adventure: bool = False
    unpaid: bool = False


@dataclass
class AdventureRecord(Serial):
    number: int
    name: str
    vp: int
    won: bool
    cp: int
    notes: list[str] = field(default_factory=list)
    from_game: bool = False              # recorded from a game the bot ran: `fallen` is known
    fallen: list[str] = field(default_factory=list)        # the members who Fell in Combat in it
    injuries_rolled: list[str] = field(default_factory=list)


@dataclass
class LedgerEntry(Serial):
    """One change of the campaign: the action as given, what happened (events as dicts: kind +
    data), and the record as it was before (the last UNDO_DEPTH entries keep it, for undo)."""
    number: int
    action: dict
    events: list[dict] = field(default_factory=list)
    before: dict | None = None


@dataclass
class CampaignRecord(Serial):
    player: str
    squad: str
    faction: str
    rng: Rng = field(default_factory=lambda: Rng.from_seed(0))
    members: list[CampaignMember] = field(default_factory=list)
    bank: int = 0
    adventures: list[AdventureRecord] = field(default_factory=list)
    length: int = STANDARD_LENGTH
    campaign_no: int = 1
    history: list[str] = field(default_factory=list)     # schema 1's English lines, shown as they are
    ledger: list[LedgerEntry] = field(default_factory=list)
    # 1: no ledger (its changes are the history lines); 2: an adventure without a name was stored
    # as "Adventure N" (`stored.campaign_record` reads 1 and 2 as 3: no name is "")
    schema: int = RECORD_SCHEMA

    @classmethod
    def from_dict(cls, data: dict) -> CampaignRecord:
        """A stored record (or a ledger entry's copy of one), of any schema."""
        if data.get("schema", RECORD_SCHEMA) < RECORD_SCHEMA:
            data = campaign_record(data)
        return super().from_dict(data)

    def member(self, name: str) -> CampaignMember:
        for m in self.members:
            if m.name == name:
                return m
        raise refused("no_member", member=name, squad=self.squad)


def new_campaign(pack: Pack, squad: Squad, player: str, seed: int | str = 0,
                 length: int = STANDARD_LENGTH) -> CampaignRecord:
    rec = CampaignRecord(player=player, squad=squad.name, faction=squad.faction, rng=Rng.from_seed(seed),
                         length=length)
    seen: dict[str, int] = {}
    for sm in squad.members:
        p = pack.profile(sm.profile)
        base = sm.name or p["name"]
        seen[base] = seen.get(base, 0) + 1
        name = base if seen[base] == 1 else f"{base} {seen[base]}"
        abilities = as_ability_list(p.get("universal_abilities"))
        rec.members.append(CampaignMember(
            name=name, profile=p["name"], cost=member_cost(pack, sm), leader=sm.leader,
            independent=bool(p.get("independent")), trifling=any(a["name"] == "Trifling" for a in abilities),
            command=int(p.get("command", 0)), abilities=abilities,
            equipment=list(p.get("equipment", [])) + list(sm.equipment),
            maintenance=int(p.get("maintenance_cost") or 0) if p.get("independent") else 0))
    return rec


# ------------------------------------------------------------------ points
def title(adventure: AdventureRecord) -> str | dict:
    """The adventure's name, or its number when it has none."""
    if adventure.name:
        return adventure.name
    return said("adventure_numbered", n=adventure.number)


def campaign_points(vp: int, won: bool) -> int:
    """Campaign Points after an adventure: the VP scored, +5 to the winner."""
    return int(vp) + (WIN_BONUS if won else 0)


def record_adventure(rec: CampaignRecord, name: str, vp: int, won: bool, notes: list[str] | None = None,
                     fallen: list[str] | None = None) -> int:
    """`fallen`: the members who fell in the game (None when the adventure was played without the
    bot: then any member may roll on the Fallen table)."""
    cp = campaign_points(vp, won)
    rec.adventures.append(AdventureRecord(len(rec.adventures) + 1, name, vp, won, cp, list(notes or []),
                                          from_game=fallen is not None, fallen=list(fallen or [])))
    rec.bank += cp
    for m in rec.members:
        m.improved_this_adventure = False
    return cp


def spend(rec: CampaignRecord, amount: int, what: str) -> None:
    if amount < 0:
        raise refused("spend_positive")
    if amount > rec.bank:
        raise refused("bank_short", what=what, amount=amount, bank=rec.bank)
    rec.bank -= amount


def discard(rec: CampaignRecord, name: str) -> None:
    raise refused("no_discard")


def pay_upkeep(rec: CampaignRecord) -> list[dict]:
    """Before every adventure after the first: compulsory maintenance first, then independents.
    Unpaid models miss the next adventure (an independent leaves until paid again). One
    {member, cost, paid} per model that owes maintenance."""
    if not rec.adventures:
        return []
    out = []
    order = sorted((m for m in rec.members if m.maintenance and not m.dead),
                   key=lambda m: (m.independent, m.name))
    for m in order:
        if rec.bank >= m.maintenance:
            rec.bank -= m.maintenance
            m.misses_next = m.unpaid = False
        else:
            m.misses_next = m.unpaid = True
        out.append({"member": m.name, "cost": m.maintenance, "paid": not m.unpaid})
    return out


# ------------------------------------------------------------------ experience and powers
def can_improve(m: CampaignMember) -> dict | None:
    """None when the member may improve, else why not (a term)."""
    if m.dead:
        return term("why_dead")
    if m.independent:
        return term("why_independent")
    if m.trifling:
        return term("why_trifling")
    if m.powers:
        return term("why_power")
    if len(m.improvements) >= MAX_IMPROVEMENTS:
        return said("why_improvements", n=MAX_IMPROVEMENTS)
    return None


def _has(m: CampaignMember, ability: str) -> bool:
    return any(a["name"] == ability for a in m.abilities)


def _duplicate(m: CampaignMember, row: tuple) -> bool:
    kind, what, _ = row
    if kind == "ability":
        return _has(m, what)
    if kind == "command":
        return False
    return False


def roll_improvement(rng: Rng, m: CampaignMember, leader_table: bool, first: int | None = None) -> dict:
    """Roll on the Basic or Leaders' table; a duplicate from 6-9 rerolls at −1 (cumulative);
    a final 0 or less gives nothing. `first` fixes the first die (for tests)."""
    table = tables.LEADER_TABLE if leader_table else tables.BASIC_TABLE
    faces = []
    penalty = 0
    face = first if first is not None else rng.die(10)
    while True:
        faces.append(face)
        value = face - penalty
        if value <= 0:
            return {"faces": faces, "result": term("gain_nothing"), "value": value}
        row = table[value]
        if 6 <= value <= 9 and _duplicate(m, row):
            penalty += 1
            face = rng.die(10)
            continue
        return {"faces": faces, "value": value, **apply_improvement(rng, m, row)}


def apply_improvement(rng: Rng, m: CampaignMember, row: tuple) -> dict:
    kind, what, x = row
    gain: dict
    if kind == "attr":
        m.attr_mods[what] = m.attr_mods.get(what, 0) + x
        gain = said("gain_attr", attr=what, x=x)
    elif kind == "ability":
        m.abilities.append({"name": what, **({"x": x} if x is not None else {})})
        if what == "Command":
            m.command = max(m.command, x or 0)
        gain = said("gain_ability", ability=what) if x is None else said("gain_ability_x", ability=what, x=x)
    elif kind == "command":
        m.command += x
        for a in m.abilities:
            if a["name"] == "Command":
                a["x"] = a.get("x", 0) + x
        gain = said("gain_command", x=x)
    else:
        power = roll_power(rng, m)
        gain = said("gain_power", powers=power["result"])
    m.improvements.append(gain)
    m.improved_this_adventure = True
    return {"result": gain}


def roll_power_names(rng: Rng, existing: set[str], first: int | None = None) -> tuple[list[tuple[str, int | None]], list[int]]:
    """Roll on the Powers table; duplicates reroll at −1; a 10 gives two more rolls (further 10s ignored)."""
    faces: list[int] = []
    gained: list[tuple[str, int | None]] = []

    def one(allow_ten: bool, fixed: int | None = None) -> None:
        penalty = 0
        face = fixed if fixed is not None else rng.die(10)
        while True:
            faces.append(face)
            value = face - penalty
            if value <= 0:
                return
            if value == 10:
                if allow_ten:
                    one(False)
                    one(False)
                    return
                face = rng.die(10)   # further 10s are ignored: roll again
                continue
            name, x = tables.POWERS[value]
            if name in existing or name in (g[0] for g in gained):
                penalty += 1
                face = rng.die(10)
                continue
            gained.append((name, x))
            return

    one(True, first)
    return gained, faces


def roll_power(rng: Rng, m: CampaignMember, first: int | None = None) -> dict:
    """`result`: the names of the Powers gained (none when every roll was a duplicate)."""
    gained, faces = roll_power_names(rng, {a["name"] for a in m.abilities} | set(m.powers), first)
    for name, x in gained:
        m.powers.append(name if x is None else f"{name} ({x})")
        m.abilities.append({"name": name, **({"x": x} if x is not None else {})})
    return {"faces": faces, "result": [p for p, _ in gained]}


def is_leader(m: CampaignMember) -> bool:
    """The Leader descriptor: the squad's nominated Leader, and every model with Command (§2), including
    one that gained Command from the Basic improvement table."""
    return m.leader or m.command > 0 or any(a.get("name") == "Command" for a in m.abilities)


def experience_roll(rng: Rng, m: CampaignMember, first: int | None = None) -> dict:
    """After an adventure, a surviving character rolls 1d10: a Leader needs 9+ (Leaders' table),
    anyone else 8+ (Basic table)."""
    why = can_improve(m)
    if why:
        return {"member": m.name, "eligible": False, "why": why}
    leader = is_leader(m)
    need = 9 if leader else 8
    face = first if first is not None else rng.die(10)
    out = {"member": m.name, "eligible": True, "roll": face, "needed": need}
    if face >= need:
        out.update(roll_improvement(rng, m, leader))
    return out


def bonus_experience(rng: Rng, rec: CampaignRecord, vp: int, chosen: list[str]) -> list[dict]:
    """For every 5 VP, a chosen non-Leader that has not improved this adventure rolls: 9+ = Basic table."""
    allowed = vp // 5
    if len(chosen) > allowed:
        raise refused("bonus_rolls", vp=vp, allowed=allowed, n=len(chosen))
    out = []
    for name in chosen:
        m = rec.member(name)
        if is_leader(m):
            raise refused("bonus_non_leader", member=m.name)
        if m.improved_this_adventure:
            raise refused("improved_already", member=m.name)
        why = can_improve(m)
        if why:
            out.append({"member": m.name, "eligible": False, "why": why})
            continue
        face = rng.die(10)
        res = {"member": m.name, "eligible": True, "roll": face, "needed": 9}
        if face >= 9:
            res.update(roll_improvement(rng, m, False))
        out.append(res)
    return out


# ------------------------------------------------------------------ fallen in combat
def fallen_in_game(rec: CampaignRecord, models: list[tuple[str, bool]]) -> list[str]:
    """The campaign members who fell, from the game's models of this squad in squad order, (name,
    fallen): matched by position when the squad has as many models as the ledger members, else by name."""
    if len(models) == len(rec.members):
        return [m.name for m, (_, fell) in zip(rec.members, models) if fell]
    names = {m.name for m in rec.members}
    return [name for name, fell in models if fell and name in names]


def injury_roll(rec: CampaignRecord, name: str, first: int | None = None, second: int | None = None) -> dict:
    """The Fallen-table roll of a member after the last adventure: refused for a member who did not
    fall in a game the bot recorded, and for a second roll after the same adventure."""
    m = rec.member(name)
    last = rec.adventures[-1] if rec.adventures else None
    if last is not None and last.from_game and m.name not in last.fallen:
        raise refused("not_fallen", member=m.name, adventure=title(last))
    if last is not None and m.name in last.injuries_rolled:
        raise refused("injury_rolled", member=m.name, adventure=title(last))
    if m.dead:
        raise refused("member_dead", member=m.name)
    if last is not None:
        last.injuries_rolled.append(m.name)
    return fallen_roll(rec.rng, m, first, second)


def fallen_roll(rng: Rng, m: CampaignMember, first: int | None = None, second: int | None = None) -> dict:
    """A model that fell rolls 1d10: 5+ recovers; otherwise a roll on the injury table."""
    face = first if first is not None else rng.die(10)
    if face >= 5:
        return {"member": m.name, "roll": face, "result": term("injury_recovers")}
    inj = second if second is not None else rng.die(10)
    kind, what = tables.FALLEN_TABLE[inj]
    hurt: dict
    if kind == "dies":
        m.dead = True
        hurt = term("injury_dies")
    elif kind == "attr":
        m.attr_mods[str(what)] = m.attr_mods.get(str(what), 0) - 1
        hurt = said("injury_attr", attr=what)
    elif kind == "lose_ability":
        if not m.abilities:
            hurt = term("injury_no_ability")
        else:
            a = m.abilities[rng.below(len(m.abilities))]
            if "x" in a and a["x"] > 1:
                a["x"] -= 1
                hurt = said("injury_ability_drops", ability=a["name"], x=a["x"])
            else:
                m.abilities.remove(a)
                if a["name"] in [p.split(" (")[0] for p in m.powers]:
                    m.powers = [p for p in m.powers if p.split(" (")[0] != a["name"]]
                hurt = said("injury_loses", what=a["name"])
    elif kind == "lose_item":
        if not m.equipment:
            hurt = term("injury_no_item")
        else:
            item = m.equipment.pop(rng.below(len(m.equipment)))
            hurt = said("injury_loses", what=item)
    else:
        m.maintenance = max(m.maintenance, int(what or 0))
        hurt = said("injury_maintenance", cp=what)
    m.injuries.append(hurt)
    return {"member": m.name, "roll": face, "injury_roll": inj, "result": hurt}


def hostage(rec: CampaignRecord, died_now: list[str]) -> CampaignMember | None:
    """Rescue of the Prisoner: a model of the losing squad that 'died' was in fact captured
    (the cheapest one if several); it becomes the hostage."""
    cands = [rec.member(n) for n in died_now if rec.member(n).dead]
    if not cands:
        return None
    h = min(cands, key=lambda m: m.cost)
    h.dead = False
    h.captured = True
    return h


# ------------------------------------------------------------------ legacy (multi-campaign)
def legacy_promote(rec: CampaignRecord, name: str) -> dict:
    """The old Leader retires; promote a veteran. With Command: +2 Command, keeps its 3 slots.
    Without: Command (3) and Leader, using one slot, for +10 points. Returns {member, command,
    gained}: `gained` when the veteran had no Command before."""
    m = rec.member(name)
    for old in rec.members:
        if old.leader and old is not m:
            old.leader = False
            old.dead = False
            old.misses_next = True
            old.injuries.append(term("injury_retired_leader"))
    gained = not m.command
    if m.command:
        m.command += 2
    else:
        if len(m.improvements) >= MAX_IMPROVEMENTS:
            raise refused("no_command_slot", member=m.name)
        m.command = 3
        m.abilities.append({"name": "Command", "x": 3})
        m.improvements.append(term(LEGACY_IMPROVEMENT))
        m.cost += 10
    m.leader = True
    return {"member": m.name, "command": m.command, "gained": gained}


def legacy_retire(rng: Rng, rec: CampaignRecord, name: str, first: int | None = None) -> dict:
    """1d10 per member to retire: 5+ leaves; otherwise it stays and must be paid for."""
    m = rec.member(name)
    face = first if first is not None else rng.die(10)
    left = face >= 5
    if left:
        rec.members.remove(m)
    return {"member": m.name, "roll": face, "left": left}


def legacy_cost(m: CampaignMember) -> int:
    """A kept member costs its normal cost +10 per Experience improvement."""
    return m.cost + 10 * len([i for i in m.improvements if not _legacy(i)])


def _legacy(improvement: Any) -> bool:
    """The Command a promotion gives is no Experience improvement (a schema-1 record said so in words)."""
    if isinstance(improvement, dict):
        return improvement.get("term") == LEGACY_IMPROVEMENT
    return "legacy" in str(improvement)


def new_legacy_campaign(rec: CampaignRecord) -> int:
    """Start the next campaign with the same squad: returns the points the kept squad costs."""
    rec.campaign_no += 1
    rec.adventures = []
    for m in rec.members:
        m.improved_this_adventure = False
    return sum(legacy_cost(m) for m in rec.members if not m.dead)


# ------------------------------------------------------------------ The Fragment of the Black Statue
BLACK_STATUE = (
    {"id": "unexpected_clash", "name": "Unexpected Clash", "rounds": 5,
     "objective": "more points of surviving characters than the enemy, and your leader alive",
     "terrain": "2 buildings, 2 obstacles, 1 canal",
     "deployment": "quadrants with a 6'' circle at the centre; the Initiative winner picks a quadrant and "
                   "places a model outside the circle, then alternate; the first to deploy starts",
     "special": [], "campaign": []},
    {"id": "fight_for_the_fragment", "name": "Fight for the Fragment", "rounds": 5,
     "objective": "hold the fragment inside your own deployment zone at the end",
     "terrain": "2 buildings, 2 obstacles, 1 canal",
     "deployment": "the Initiative winner picks an edge and deploys within 5'' of it; the opponent opposite",
     "special": ["fragment starts at the centre; pick up: contact and 1 AP", "the bearer has −1 die on every roll",
                 "it drops where the bearer falls", "steal: contact, 1 AP, opposed Dex (ties: the bearer keeps it)"],
     "campaign": ["the winner of adventure 1 places the fragment on open ground >12'' from every edge"]},
    {"id": "fountains_of_life", "name": "The Fountains of Life", "rounds": 5,
     "objective": "collect more vials than the opponent (each vial +1 VP)",
     "terrain": "3 buildings, 2 obstacles, 1 canal",
     "deployment": "as Unexpected Clash",
     "special": ["four fountains ≥5'' apart (placed alternately, Initiative winner first)",
                 "each player may add one: 1d10 ≥7, +1 per Magician; >6'' from deployment zones",
                 "fill a vial: next to it, 1 AP, the counter is removed", "End of Round: 1d10 per fountain, on 1 it dries"],
     "campaign": ["the previous winner may place one extra fountain"]},
    {"id": "nighttime_ambush", "name": "Nighttime Ambush", "rounds": 10,
     "objective": "the defender touches the opposite edge with at least half its models (each is evacuated)",
     "terrain": "4 buildings, 2 obstacles, 2 canals; buildings ≥5'' either side of a central street",
     "deployment": "defender: whole squad within 5'' of its edge and of the axis; attacker: advance party >10'' "
                   "from the defender's edge and from the axis",
     "special": ["the defender deploys first and plays first every round", "no reinforcements for the defender"],
     "campaign": ["the defender is the squad with more vials in adventure 3"]},
    {"id": "rescue_of_the_prisoner", "name": "Rescue of the Prisoner", "rounds": 7,
     "objective": "defender: the hostage still in the central building at the end of round 7; otherwise the "
                  "attacker wins",
     "terrain": "4 buildings, 2 obstacles, 2 canals; central building ≥2 levels",
     "deployment": "defender in or within 5'' of the central building (hostage and guard on top); attacker >12'' "
                   "from it",
     "special": ["a Magician guard within 5'' may drain 1 Karma a round from the hostage",
                 "free the hostage: contact and 1 AP; the attacker then controls it",
                 "the hostage has the Venice Citizen profile without equipment"],
     "campaign": ["the winner of Nighttime Ambush defends",
                  "a losing model that 'died' was captured and is the hostage (the cheapest if several)"]},
)


def adventure(index_or_id: int | str) -> dict:
    if isinstance(index_or_id, int):
        return BLACK_STATUE[index_or_id - 1]
    for a in BLACK_STATUE:
        if a["id"] == index_or_id:
            return a
    raise refused("no_adventure", adventure=str(index_or_id))


def extra_fountain(rng: Rng, magicians: int, first: int | None = None) -> tuple[int, bool]:
    face = first if first is not None else rng.die(10)
    return face, face + magicians >= 7


def fountains_dry(rng: Rng, counters: int) -> tuple[list[int], int]:
    """End of Round: 1d10 per remaining fountain; each 1 removes one. Returns (faces, left)."""
    faces = [rng.die(10) for _ in range(counters)]
    return faces, counters - sum(1 for f in faces if f == 1)


def steal_fragment(rng: Rng, thief_dex: int, bearer_dex: int, tie_rule: str = "bearer_keeps") -> tuple[bool, object]:
    """Opposed Dex (difficulty 7). True when the thief takes it; ties keep it with the bearer."""
    res = opposed_roll(rng, thief_dex, bearer_dex, BASIC_DIFFICULTY, BASIC_DIFFICULTY,
                       "reroll" if tie_rule == "reroll" else "b_wins")
    return res.winner == "a", res
