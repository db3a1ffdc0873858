"""Declaring a maneuver face down in a register, or hesitating (digest §2.7–§2.9)."""
from __future__ import annotations

from rules.common import PUBLIC, Event, IllegalAction

from ..base import name
from ..state import Decl, KarmicState
from ..tables import (LOCATION_NAMES, MANEUVERS)

from . import lance
from .common import _live_engagements, _register, _size_class, _weapon, init_engagement
from .legality import why_illegal
# The flow loops (a round ends and the next begins, resolution ends the declaring): sibling
# modules on that loop are imported as modules, their functions looked up when called.
from . import resolve, rounds


def declare(state: KarmicState, spec: dict, card: str, loc: str, events: list[Event]) -> None:
    cb = state.combat
    turn = cb.turn
    who = turn.who
    f = cb.fighters[who]
    man_id = spec["man"]
    if man_id == "stop":
        if turn.stage != "attack":
            raise IllegalAction("Only the initiative holder stops declaring.")
        f.done = True
        cb.acted.append(who)
        events.append(Event("stop", f"{name(state, who)} declares nothing more this round.", PUBLIC, {"who": who}))
        cb.turn = None
        rounds._advance(state, events)
        return
    if man_id == "pass":
        if turn.stage != "defense":
            raise IllegalAction("Only a defender may pass.")
        events.append(Event("pass", f"{name(state, who)} does not answer "
                                    f"{MANEUVERS[_register(state, cb.reg).decls[turn.answers].man].name} "
                                    f"in register {cb.reg}.", PUBLIC, {"who": who, "register": cb.reg}))
        cb.turn = None
        rounds._advance(state, events)
        return
    if man_id == "hes":
        if turn.stage != "attack":
            raise IllegalAction("Only the initiative holder may hesitate.")
        _hesitate(state, who, events)
        return
    w = spec.get("weapon", -1)
    if man_id == "chw":
        if not f.hand:
            raise IllegalAction(f"You have no card left for register {cb.reg}.")
        if f.max_round and f.played >= f.max_round:
            raise IllegalAction("Only one maneuver is allowed this turn.")
    else:
        reason = why_illegal(state, who, man_id, w, turn.stage, turn.answers, spec.get("nostep", False), loc)
        if isinstance(reason, IllegalAction):
            raise reason
        if reason:
            raise IllegalAction(reason)
    if card not in f.hand:
        raise IllegalAction("That card is not in your hand.")
    m = MANEUVERS[man_id]
    if turn.stage == "defense":
        target = _register(state, cb.reg).decls[turn.answers].owner
    else:
        target = init_engagement(state, who).other(who)
    extra = []
    if man_id == "swipe":
        extra = [e.other(who) for e in _live_engagements(state, who)
                 if e.other(who) != target and _size_class(state, who, e.other(who)) == "small"]
    f.hand.remove(card)
    decl = Decl(who, man_id, card, target, extra, w, loc, bool(spec.get("nostep")),
                turn.answers if turn.stage == "defense" else -1)
    reg = _register(state, cb.reg)
    reg.decls.append(decl)
    lance.mark(state, who, man_id, _weapon(state, who, w), target)
    f.played += 1
    if m.counts and w >= 0 and m.cat in ("armed", "shield", "small", "large"):
        f.used[w] = f.used.get(w, 0) + 1
        f.counted += 1
    if man_id == "mdg":
        f.dodged = True
    if man_id == "sbash":
        f.bashed = True
    if man_id in ("chw", "smash"):
        f.done = True
    for e in _live_engagements(state, who):
        e.hesitations = 0
    if turn.stage == "attack":
        cb.acted.append(who)
    events.append(Event("declare", declaration_text(state, decl, cb.reg), PUBLIC,
                        {"who": who, "maneuver": man_id, "register": cb.reg, "target": target,
                         "answers": decl.answers, "location": loc}))
    # (no private line "you put X face down": the answered prompt already shows the card chosen,
    # and a DM less per declaration keeps a round within its message budget)
    cb.turn = None
    rounds._advance(state, events)


def declaration_text(state: KarmicState, d: Decl, n: int) -> str:
    m = MANEUVERS[d.man]
    what = m.name
    if d.man == "chw":
        char = state.characters[d.owner]
        what += f" → {char.weapons[d.weapon].name}" if d.weapon >= 0 else " → bare hands"
    if d.loc != "torso":
        what += f" ({LOCATION_NAMES[d.loc]})"
    if d.nostep:
        what += " (no step)"
    vs = ""
    if d.answers >= 0:
        att = state.combat.registers[n - 1].decls[d.answers]
        vs = f" answering {name(state, att.owner)}'s {MANEUVERS[att.man].name}"
    elif d.target and m.kind not in ("change", "stand"):
        vs = f" vs {name(state, d.target)}"
    return f"{name(state, d.owner)} — {what}{vs} — register {n} — face down"


def _hesitate(state: KarmicState, who: str, events: list[Event]) -> None:
    cb = state.combat
    e = init_engagement(state, who)
    other = e.other(who)
    e.init = other
    e.hesitations += 1
    events.append(Event("hesitate", f"{name(state, who)} gives the initiative to {name(state, other)}.", PUBLIC,
                        {"who": who, "to": other}))
    cb.turn = None
    if e.hesitations >= 2:
        e.live = False
        events.append(Event("engagement_end", f"Both hesitate: {name(state, e.a)} and {name(state, e.b)} "
                                              f"stop fighting.", PUBLIC, {"a": e.a, "b": e.b}))
        if resolve._check_over(state, events):
            return
    elif other not in cb.acted:
        cb.queue.insert(0, [other, "attack", -1])
    if cb.stage == "defense":
        pass
    rounds._advance(state, events)
