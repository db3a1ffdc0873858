"""Declaring a maneuver face down in a register, or hesitating (digest §2.7–§2.9)."""
from __future__ import annotations

from rules.common import PUBLIC, Event, IllegalAction

from ..base import chain, name
from ..state import Decl, KarmicState
from ..tables import MANEUVERS

from . import lance
from .common import _live_engagements, _register, _size_class, _weapon, init_engagement
from .legality import why_illegal
from . import resolve, rounds


def declare(state: KarmicState, spec: dict, card: str, loc: str, events: list[Event]) -> None:
    cb = state.combat
    turn = cb.turn
    who = turn.who
    f = cb.fighters[who]
    man_id = spec["man"]
    if man_id == "stop":
        if turn.stage != "attack":
            raise IllegalAction("only_holder_stops")
        f.done = True
        cb.acted.append(who)
        events.append(Event("stop", {"name": name(state, who), "who": who}, PUBLIC))
        cb.turn = None
        rounds._advance(state, events)
        return
    if man_id == "pass":
        if turn.stage != "defense":
            raise IllegalAction("only_defender_passes")
        incoming = _register(state, cb.reg).decls[turn.answers].man
        events.append(Event("pass", {"name": name(state, who), "maneuver": {"term": f"maneuver.{incoming}"},
                                     "who": who, "register": cb.reg}, PUBLIC))
        cb.turn = None
        rounds._advance(state, events)
        return
    if man_id == "hes":
        if turn.stage != "attack":
            raise IllegalAction("only_holder_hesitates")
        _hesitate(state, who, events)
        return
    w = spec.get("weapon", -1)
    if man_id == "chw":
        if not f.hand:
            raise IllegalAction("no_card_left", register=cb.reg)
        if f.max_round and f.played >= f.max_round:
            raise IllegalAction("one_maneuver_this_turn")
    else:
        reason = why_illegal(state, who, man_id, w, turn.stage, turn.answers, spec.get("nostep", False), loc)
        if isinstance(reason, IllegalAction):
            raise reason
        if reason:
            raise IllegalAction(reason[0], **reason[1])
    if card not in f.hand:
        raise IllegalAction("card_not_in_hand")
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
    events.append(Event("declare", {**declaration_text(state, decl, cb.reg), "who": who, "maneuver": man_id,
                                    "register": cb.reg, "target": target, "answers": decl.answers,
                                    "location": loc}, PUBLIC))
    # (no private line "you put X face down": the answered prompt already shows the card chosen,
    # and a DM less per declaration keeps a round within its message budget)
    cb.turn = None
    rounds._advance(state, events)


def declaration_text(state: KarmicState, d: Decl, n: int) -> dict:
    """What the table reads of a face-down declaration (the words of the `declare` event): who,
    which maneuver with its weapon change, location and step, against whom, in which register."""
    m = MANEUVERS[d.man]
    what: list = [{"term": f"maneuver.{d.man}"}]
    if d.man == "chw":
        char = state.characters[d.owner]
        what.append({"term": "decl_weapon", "weapon": char.weapons[d.weapon].shown} if d.weapon >= 0
                    else {"term": "decl_bare_hands"})
    if d.loc != "torso":
        what.append({"term": "decl_location", "location": {"term": f"location.{d.loc}"}})
    if d.nostep:
        what.append({"term": "decl_nostep"})
    vs: dict = {"term": "nothing"}
    if d.answers >= 0:
        att = state.combat.registers[n - 1].decls[d.answers]
        vs = {"term": "decl_answering", "name": name(state, att.owner), "maneuver": {"term": f"maneuver.{att.man}"}}
    elif d.target and m.kind not in ("change", "stand"):
        vs = {"term": "decl_vs", "name": name(state, d.target)}
    return {"name": name(state, d.owner), "what": chain(what, "seq"), "versus": vs, "n": n}


def _hesitate(state: KarmicState, who: str, events: list[Event]) -> None:
    cb = state.combat
    e = init_engagement(state, who)
    other = e.other(who)
    e.init = other
    e.hesitations += 1
    events.append(Event("hesitate", {"name": name(state, who), "other": name(state, other), "who": who, "to": other},
                        PUBLIC))
    cb.turn = None
    if e.hesitations >= 2:
        e.live = False
        events.append(Event("engagement_end", {"name": name(state, e.a), "other": name(state, e.b), "a": e.a,
                                               "b": e.b}, PUBLIC))
        if resolve._check_over(state, events):
            return
    elif other not in cb.acted:
        cb.queue.insert(0, [other, "attack", -1])
    if cb.stage == "defense":
        pass
    rounds._advance(state, events)
