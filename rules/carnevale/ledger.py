"""The campaign ledger as logged, undoable records (digest §5.6-§5.9).

Each change of a campaign is an action (`RecordAdventure`, `Experience`, `Injury`, `Spend` …)
applied by `apply(rec, action)`: the record changes (its own Rng rolls the dice), and the change
becomes an entry of `rec.ledger`, the action as given and its events (kind + data), which the
presenter words in each reader's language (`events.campaign_*`). A campaign lives with its squad,
not in a channel's game, so it keeps its own undo: every entry of the last UNDO_DEPTH keeps the
record as it was before it, and `undo(rec, steps)` puts that back exactly (the Rng too: the same
roll made again rolls the same dice). A refused action changes nothing.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.common import BautaError, Event, Serial

from . import campaign as C
from .campaign import CampaignRecord, LedgerEntry
from .dice import refused
from .mechanics import said

SCHEMA = C.RECORD_SCHEMA   # the CampaignRecord with a ledger (and an unnamed adventure's name "")
UNDO_DEPTH = 20          # entries that can be taken back; older ones drop their copy of the record


# ------------------------------------------------------------------ the actions
@dataclass(frozen=True)
class RecordAdventure(Serial):
    """An adventure's VP and the win (+5) as Campaign Points. `fallen`: the members who fell in the
    game the bot ran; None when it was played elsewhere (then any member may roll on the Fallen table)."""
    name: str = ""
    vp: int = 0
    won: bool = False
    notes: tuple[str, ...] = ()
    fallen: tuple[str, ...] | None = None
    type: ClassVar[str] = "record_adventure"


@dataclass(frozen=True)
class Experience(Serial):
    member: str
    type: ClassVar[str] = "experience"


@dataclass(frozen=True)
class Bonus(Serial):
    """Bonus Experience: one roll per 5 VP, for chosen non-Leaders."""
    vp: int
    members: tuple[str, ...]
    type: ClassVar[str] = "bonus"


@dataclass(frozen=True)
class Injury(Serial):
    member: str
    type: ClassVar[str] = "injury"


@dataclass(frozen=True)
class Spend(Serial):
    amount: int
    what: str
    type: ClassVar[str] = "spend"


@dataclass(frozen=True)
class Upkeep(Serial):
    type: ClassVar[str] = "upkeep"


@dataclass(frozen=True)
class Power(Serial):
    member: str
    type: ClassVar[str] = "power"


@dataclass(frozen=True)
class Hostage(Serial):
    """Rescue of the Prisoner: of the members that died, the cheapest was captured."""
    members: tuple[str, ...]
    type: ClassVar[str] = "hostage"


@dataclass(frozen=True)
class Promote(Serial):
    member: str
    type: ClassVar[str] = "promote"


@dataclass(frozen=True)
class Retire(Serial):
    member: str
    type: ClassVar[str] = "retire"


@dataclass(frozen=True)
class Legacy(Serial):
    type: ClassVar[str] = "legacy"


ACTIONS: dict[str, type[Serial]] = {c.type: c for c in (RecordAdventure, Experience, Bonus, Injury, Spend, Upkeep, Power,
                                                Hostage, Promote, Retire, Legacy)}


def action_from_dict(data: dict) -> Any:
    """An action as an entry stored it."""
    cls = ACTIONS[data["type"]]
    return cls.from_dict({k: v for k, v in data.items() if k != "type"})


# ------------------------------------------------------------------ what each action does
def _record(rec: CampaignRecord, a: RecordAdventure) -> list[Event]:
    cp = C.record_adventure(rec, a.name, a.vp, a.won, list(a.notes), None if a.fallen is None else list(a.fallen))
    adv = rec.adventures[-1]
    title = said("adventure_named", n=adv.number, name=adv.name) if adv.name else said("adventure_numbered", n=adv.number)
    return [Event("campaign_adventure_won" if a.won else "campaign_adventure",
                  {"title": title, "vp": a.vp, "cp": cp, "bank": rec.bank})]


def _roll(res: dict) -> Event:
    """An Experience (or bonus) roll: who could not roll and why, a miss, or the improvement gained."""
    if not res["eligible"]:
        return Event("campaign_cannot_improve", {"member": res["member"], "why": res["why"]})
    data = {"member": res["member"], "roll": res["roll"], "needed": res["needed"]}
    if "result" not in res:
        return Event("campaign_experience_miss", data)
    return Event("campaign_experience", {**data, "faces": res["faces"], "result": res["result"]})


def _experience(rec: CampaignRecord, a: Experience) -> list[Event]:
    return [_roll(C.experience_roll(rec.rng, rec.member(a.member)))]


def _bonus(rec: CampaignRecord, a: Bonus) -> list[Event]:
    return [_roll(res) for res in C.bonus_experience(rec.rng, rec, a.vp, list(a.members))]


def _injury(rec: CampaignRecord, a: Injury) -> list[Event]:
    res = C.injury_roll(rec, a.member)
    if "injury_roll" not in res:
        return [Event("campaign_recovers", {"member": res["member"], "roll": res["roll"]})]
    return [Event("campaign_injury", {"member": res["member"], "roll": res["roll"], "injury_roll": res["injury_roll"],
                                      "result": res["result"]})]


def _spend(rec: CampaignRecord, a: Spend) -> list[Event]:
    C.spend(rec, a.amount, a.what)
    return [Event("campaign_spend", {"amount": a.amount, "what": a.what, "bank": rec.bank})]


def _upkeep(rec: CampaignRecord, a: Upkeep) -> list[Event]:
    paid = C.pay_upkeep(rec)
    if not paid:
        return [Event("campaign_no_upkeep", {})]
    return [Event("campaign_upkeep_paid" if p["paid"] else "campaign_upkeep_unpaid",
                  {"member": p["member"], "cost": p["cost"]}) for p in paid]


def _power(rec: CampaignRecord, a: Power) -> list[Event]:
    m = rec.member(a.member)
    res = C.roll_power(rec.rng, m)
    data = {"member": m.name, "faces": res["faces"]}
    if not res["result"]:
        return [Event("campaign_power_none", data)]
    return [Event("campaign_power", {**data, "powers": res["result"]})]


def _hostage(rec: CampaignRecord, a: Hostage) -> list[Event]:
    h = C.hostage(rec, list(a.members))
    return [Event("campaign_no_hostage", {}) if h is None else Event("campaign_hostage", {"member": h.name})]


def _promote(rec: CampaignRecord, a: Promote) -> list[Event]:
    res = C.legacy_promote(rec, a.member)
    kind = "campaign_promoted_leader" if res["gained"] else "campaign_promoted"
    return [Event(kind, {"member": res["member"], "command": res["command"]})]


def _retire(rec: CampaignRecord, a: Retire) -> list[Event]:
    res = C.legacy_retire(rec.rng, rec, a.member)
    return [Event("campaign_retires" if res["left"] else "campaign_stays", {"member": res["member"], "roll": res["roll"]})]


def _legacy(rec: CampaignRecord, a: Legacy) -> list[Event]:
    points = C.new_legacy_campaign(rec)
    return [Event("campaign_legacy", {"no": rec.campaign_no, "points": points})]


HANDLERS: dict[type, Callable[[CampaignRecord, Any], list[Event]]] = {
    RecordAdventure: _record, Experience: _experience, Bonus: _bonus, Injury: _injury, Spend: _spend,
    Upkeep: _upkeep, Power: _power, Hostage: _hostage, Promote: _promote, Retire: _retire, Legacy: _legacy}


# ------------------------------------------------------------------ apply and undo
def _snapshot(rec: CampaignRecord) -> dict:
    return {k: v for k, v in rec.to_dict().items() if k != "ledger"}


def _restore(rec: CampaignRecord, snapshot: dict) -> None:
    old = CampaignRecord.from_dict(snapshot)
    for f in dataclasses.fields(rec):
        if f.name != "ledger":
            setattr(rec, f.name, getattr(old, f.name))


def apply(rec: CampaignRecord, action: Any) -> list[Event]:
    """Change the campaign; the events say what happened and are kept as its ledger's new entry.
    A refusal (IllegalAction) leaves the record as it was."""
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise refused("unknown_campaign_action", action=type(action).__name__)
    before = _snapshot(rec)
    try:
        events = handler(rec, action)
    except BautaError:
        _restore(rec, before)
        raise
    rec.schema = SCHEMA                  # a record of schema 1 (history lines) now keeps a ledger too
    number = rec.ledger[-1].number + 1 if rec.ledger else 1
    rec.ledger.append(LedgerEntry(number, {"type": action.type, **action.to_dict()}, [e.to_dict() for e in events],
                                  before))
    for old in rec.ledger[:-UNDO_DEPTH]:
        old.before = None
    return events


def undoable(rec: CampaignRecord) -> int:
    """How many of the latest entries can be taken back."""
    n = 0
    for entry in reversed(rec.ledger):
        if entry.before is None:
            break
        n += 1
    return n


def undo(rec: CampaignRecord, steps: int = 1) -> list[LedgerEntry]:
    """Take back the last `steps` entries: the record is as it was before the oldest of them.
    Returns the entries taken back, the latest first."""
    available = undoable(rec)
    if available == 0:
        raise refused("campaign_nothing_to_undo")
    if not 1 <= steps <= available:
        raise refused("campaign_undo_steps", n=available)
    taken = [rec.ledger.pop() for _ in range(steps)]
    before = taken[-1].before
    assert before is not None                     # undoable() counted only entries that keep it
    _restore(rec, before)
    return taken
