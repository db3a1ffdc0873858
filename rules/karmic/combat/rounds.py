"""The flow of a combat (digest §2.4–§2.6, §2.11): new hands, the declaring order, moving on from one
register to the next, resolving the registers declared, the end of a round and the next one's
initiative by prompts; and the answers that move it on (a hit, a joker ruling, a reshuffle offer, an
initiative card or hit).

The flow loops (a round ends and the next begins, resolution ends the declaring), so every step on
that loop is here; what a step does (`resolve`, `initiative`) is below, what starts a combat
(`setup`) and declares in it (`declaration`) above."""
from __future__ import annotations

from rules.common import PUBLIC, Event, IllegalAction

from .. import views
from ..base import card_term, discard, draw, name, owner_audience
from ..cards import is_face, value
from ..state import Engagement, KarmicState, Play, Turn
from ..tables import (MANEUVERS)

from .common import _live_engagements, _register, hand_size, init_engagement
from .initiative import _assign_initiative, _init_draw, _initiative_events
from .resolve import _check_over, _joker, _resolve_register, _reveal, next_hit


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
        _continue_resolution(state, events)
    else:
        _begin_register(state, cb.reg + 1, events)


def _continue_resolution(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    while state.phase == "resolve":
        pending = [r for r in cb.registers if not r.resolved and r.n <= cb.resolve_to]
        if not pending:
            break
        reg = pending[0]
        if not reg.revealed:
            _reveal(state, reg, events)
        if any(d.open for d in reg.decls) or any(_joker(d) and not d.ruling for d in reg.decls):
            return          # waiting for a hit decision or a GM ruling
        _resolve_register(state, reg, events)
        reg.resolved = True
        if _check_over(state, events):
            return
    if state.phase != "resolve":
        return
    state.phase = "declare"
    if _can_continue(state) and cb.reg < 99:
        _begin_register(state, cb.reg + 1, events)
    else:
        _end_round(state, events)


def hit(state: KarmicState, reg_n: int, i: int, do_hit: bool, events: list[Event]) -> None:
    reg = state.combat.registers[reg_n - 1]
    d = reg.decls[i]
    if not d.open or next_hit(state, reg) != i:
        raise IllegalAction("no_hit_owed")
    if do_hit:
        card = draw(state, d.owner, 1, events)[0]
        d.chain.append(card)
        d.open = is_face(card)
        total = sum(value(c) for c in [d.card] + d.chain)
        events.append(Event("hit", {"name": name(state, d.owner), "drawn": card_term(card), "who": d.owner,
                                    "card": card, "total": total, "register": reg_n}, PUBLIC))
    else:
        d.open = False
        last = d.card if not d.chain else d.chain[-1]
        events.append(Event("stand", {"name": name(state, d.owner), "drawn": card_term(last), "who": d.owner,
                                      "register": reg_n, "card": last}, PUBLIC))
    _continue_resolution(state, events)


def rule_joker(state: KarmicState, reg_n: int, i: int, outcome: str, events: list[Event]) -> None:
    if outcome not in ("success", "failure"):
        raise IllegalAction("rule_success_or_failure")
    d = state.combat.registers[reg_n - 1].decls[i]
    d.ruling = outcome
    events.append(Event("ruling", {"name": name(state, d.owner), "verdict": {"term": outcome}, "who": d.owner,
                                   "outcome": outcome, "register": reg_n}, PUBLIC))
    _continue_resolution(state, events)


def _end_round(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    for f in cb.fighters.values():
        if f.hand:
            discard(state, f.id, f.hand)
            f.hand = []
    if cb.surprise.get("active"):
        cb.surprise["active"] = False
        cb.need_init = True
    events.append(Event("round_end", {"round": cb.round, "track": views.public_track(state)}, PUBLIC))
    cb.offers = [k for k in cb.fighters if state.characters[k].deck is not None and state.characters[k].deck.offer]
    if cb.offers:
        state.phase = "offers"          # each offer is its player's prompt (no separate notice)
    else:
        _next_round(state, events)


def _next_round(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    if cb.need_init:
        cb.need_init = False
        _init_begin(state, [e for e in cb.engagements if e.live], events)
    else:
        _start_round(state, events)


def answer_offer(state: KarmicState, key: str, accept: bool, events: list[Event]) -> None:
    cb = state.combat
    if key not in cb.offers:
        raise IllegalAction("no_reshuffle_offered")
    deck = state.characters[key].deck
    if accept:
        deck.reshuffle(state.rng)
        events.append(Event("reshuffle", {"name": name(state, key), "who": key}, PUBLIC))
    else:
        deck.decline()
        events.append(Event("reshuffle_declined", {"name": name(state, key), "who": key}, PUBLIC))
    cb.offers.remove(key)
    if not cb.offers:
        _next_round(state, events)


def _init_begin(state: KarmicState, engagements: list[Engagement], events: list[Event]) -> None:
    """Initiative by prompts: each fighter draws his combat-training (fast-draw) hand and plays one
    card (hits allowed); a single plain card is played for him. Then the first round starts."""
    cb = state.combat
    cb.init_engs = [cb.engagements.index(e) for e in engagements]
    cb.init_mts = {}
    cb.init_try = 0
    state.phase = "initiative"
    _init_draw(state, sorted({k for e in engagements for k in (e.a, e.b) if not cb.fighters[k].out}), events)
    _init_continue(state, events)


def init_play(state: KarmicState, key: str, card: str, events: list[Event]) -> None:
    cb = state.combat
    if key not in cb.init_hands or key in cb.init_plays:
        raise IllegalAction("no_initiative_owed")
    if card not in cb.init_hands[key]:
        raise IllegalAction("card_not_in_hand")
    cb.init_plays[key] = Play(card, [], is_face(card))
    events.append(Event("initiative_chosen", {"name": name(state, key), "who": key}, PUBLIC))
    _init_continue(state, events)


def init_hit(state: KarmicState, key: str, do_hit: bool, events: list[Event]) -> None:
    play = state.combat.init_plays.get(key)
    if play is None or not play.open:
        raise IllegalAction("no_hit_owed")
    if do_hit:
        card = draw(state, key, 1, events)[0]
        play.chain.append(card)
        play.open = is_face(card)
        events.append(Event("initiative_hit", {"name": name(state, key), "drawn": card_term(card), "who": key,
                                               "card": card}, owner_audience(state, key)))
    else:
        play.open = False
    _init_continue(state, events)


def _init_continue(state: KarmicState, events: list[Event]) -> None:
    cb = state.combat
    if any(k not in cb.init_plays or cb.init_plays[k].open for k in cb.init_hands):
        return
    jr = state.house_rules["joker_initiative"]
    if jr == "gm" and any(p.joker and k not in cb.init_rulings for k, p in cb.init_plays.items()):
        return          # waiting for the GM's ruling
    attr = state.house_rules["initiative_attr"]
    for k, hand in cb.init_hands.items():
        char = state.characters[k]
        play = cb.init_plays[k]
        if play.joker:
            mt = 99 if cb.init_rulings.get(k, jr) == "win" else -99
        else:
            mt = play.total + char.attr(attr) + char.wound_penalty(int(state.house_rules["wound_row_penalty"]))
        cb.init_mts[k] = mt
        cb.fighters[k].init_mt = mt
        discard(state, k, hand + play.chain)
        _initiative_events(state, k, play.cards(), hand, mt, events, chain=list(play.chain))
    cb.init_hands, cb.init_plays, cb.init_rulings = {}, {}, {}
    engs = [cb.engagements[i] for i in cb.init_engs]
    mts = cb.init_mts
    ties = {k for e in engs for k in (e.a, e.b) if mts.get(e.a) == mts.get(e.b)}
    if ties and state.house_rules["initiative_ties"] == "redraw" and cb.init_try < 10:
        for k in ties:
            mts.pop(k, None)
        events.append(Event("initiative_tie", {}, PUBLIC))
        _init_draw(state, sorted(ties), events)
        _init_continue(state, events)
        return
    _assign_initiative(state, engs, mts, events)
    cb.init_mts, cb.init_engs = {}, []
    _start_round(state, events)
