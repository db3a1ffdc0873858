"""Rounds and registers: new hands, the declaring order, moving on from one register to the next
(digest §2.4–§2.6)."""
from __future__ import annotations

from rules.common import PUBLIC, Event

from ..base import draw, name
from ..state import KarmicState, Turn
from ..tables import (MANEUVERS)

from .common import _live_engagements, _register, hand_size, init_engagement
# The flow loops (a round ends and the next begins, resolution ends the declaring): sibling
# modules on that loop are imported as modules, their functions looked up when called.
from . import resolve


def _start_round(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    cb.round += 1
    cb.registers = []
    for f in cb.fighters.values():
        f.hand, f.used, f.played, f.counted = [], {}, 0, 0
        f.dodged = f.bashed = f.done = False
        f.max_round = 0
        f.charged = False
    if cb.charge and cb.round == 1:
        for e in cb.engagements:
            if e.has(cb.charge):
                cb.fighters[e.a].max_round = cb.fighters[e.b].max_round = 1
        cb.fighters[cb.charge].charged = True
    if cb.surprise.get("active"):
        cb.fighters[cb.surprise["attacker"]].max_round = 1
    sizes = []
    for f in cb.fighters.values():
        if f.out or not _live_engagements(state, f.id):
            continue
        n = hand_size(state, f)
        f.hand = draw(state, f.id, n, events) if n else []
        sizes.append({"term": "hand_size", "name": name(state, f.id), "n": len(f.hand)})
        # No private "your hand" line: it would be a DM with nothing to decide. The fighter reads the
        # hand with their first decision of the round (its picture and its card buttons) and in /hand.
    events.append(Event("round_start", {"round": cb.round, "hands": sizes}, PUBLIC))
    state.phase = "declare"
    _begin_register(state, 1, events)


def _begin_register(state: KarmicState, n: int, events: list[Event]) -> None:
    cb = state.combat
    cb.reg = n
    _register(state, n)
    cb.acted = []
    cb.stage = "attack"
    cb.turn = None
    cb.queue = [[k, "attack", -1] for k in _attackers(state)]
    _advance(state, events)


def _attackers(state: KarmicState) -> list[str]:
    cb = state.combat
    out = []
    for f in sorted(cb.fighters.values(), key=lambda f: -f.init_mt):
        if f.out or f.done or not f.hand:
            continue
        if init_engagement(state, f.id) is not None:
            out.append(f.id)
    return out


def _can_continue(state: KarmicState) -> bool:
    cb = state.combat
    for k in _attackers(state):
        f = cb.fighters[k]
        if f.max_round and f.played >= f.max_round:
            continue
        return True
    return False


def _advance(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    while cb.turn is None and state.phase == "declare":
        if cb.queue:
            who, stage, answers = cb.queue.pop(0)
            f = cb.fighters[who]
            if f.out or not f.hand:
                continue
            if stage == "attack":
                if who in cb.acted or f.done or init_engagement(state, who) is None:
                    continue
                if f.max_round and f.played >= f.max_round:
                    continue
            else:
                if who in cb.acted or (f.max_round and f.played >= f.max_round):
                    continue
                if cb.surprise.get("active") and who == cb.surprise.get("target"):
                    continue
            cb.turn = Turn(who, stage, answers)
            return
        if cb.stage == "attack":
            cb.stage = "defense"
            reg = _register(state, cb.reg)
            for i, d in enumerate(reg.decls):
                m = MANEUVERS[d.man]
                if d.owner not in cb.acted or m.kind in ("defense", "change", "stand"):
                    continue
                for t in [d.target] + d.extra:
                    if t and t not in cb.acted:
                        cb.queue.append([t, "defense", i])
            continue
        _end_register_declarations(state, events)
        return


def _end_register_declarations(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    reg = _register(state, cb.reg)
    ri = any(MANEUVERS[d.man].ri for d in reg.decls)
    more = _can_continue(state)
    if ri or not more:
        cb.resolve_to = cb.reg
        state.phase = "resolve"
        if ri:
            events.append(Event("interrupt", {"register": cb.reg}, PUBLIC))
        resolve._continue_resolution(state, events)
    else:
        _begin_register(state, cb.reg + 1, events)
