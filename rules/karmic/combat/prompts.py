"""The combat's prompts (who decides what now) and the answers to them (digest §2)."""
from __future__ import annotations

from dataclasses import replace

from rules.common import GM, Event, IllegalAction, Option, Prompt

from ..base import card_term, cards_text, name
from ..cards import value
from ..character import Character
from ..state import KarmicState
from ..tables import (LOCATIONS, MANEUVERS, location_mod)

from .common import _register, _size_class, caps, init_engagement
from .legality import options_for
from ..base import offer_prompt
from . import declaration, resolve, rounds

PAGE = 23


def _maneuver(man_id: str) -> dict:
    return {"term": f"maneuver.{man_id}"}


def _head(state: KarmicState, who: str) -> dict:
    """The first words of a declaration prompt: whose, which register, cards and maneuvers left."""
    cb = state.combat
    t = cb.turn
    f = cb.fighters[who]
    total, _ = caps(state, f)
    left = {"term": "no_cap"} if total is None else {"term": "maneuvers_left", "n": max(0, total - f.counted)}
    # the hand is part of the decision (one DM: no separate "your hand" message)
    head = {"name": name(state, who), "register": cb.reg, "cards": len(f.hand), "left": left,
            "hand": cards_text(f.hand)}
    if t.stage == "attack":
        return {"term": "head_attack", **head}
    inc = _register(state, cb.reg).decls[t.answers]
    return {"term": "head_answer", **head, "attacker": name(state, inc.owner), "maneuver": _maneuver(inc.man)}


def combat_prompts(state: KarmicState) -> list[tuple[Prompt, dict]]:
    cb = state.combat
    out: list[tuple[Prompt, dict]] = []
    if state.phase == "declare" and cb.turn is not None:
        t = cb.turn
        who = t.who
        ctl = state.controllers[who]
        key = (cb.round, cb.reg, who, f"{t.stage[0]}{t.answers}")
        args = {"head": _head(state, who)}
        meta = {"key": who, "kind": "declare"}
        if t.step == "man":
            opts = [declare_option(state, who, oid, spec) for oid, _, spec in options_for(state, t)]
            if len(opts) > PAGE + 1:
                pages = [opts[i:i + PAGE] for i in range(0, len(opts), PAGE)]
                page = pages[min(t.page, len(pages) - 1)]
                opts = page + [Option.of("more", "more_maneuvers")]
            out.append((Prompt.ask("declare", args, ctl, opts, key=(*key, f"m{t.page}"), private=True), meta))
        elif t.step == "loc":
            foe = init_engagement(state, who).other(who) if t.stage == "attack" else \
                _register(state, cb.reg).decls[t.answers].owner
            size = _size_class(state, who, foe)
            opts = []
            for loc in LOCATIONS:
                if loc == "torso":
                    continue
                try:
                    mod = location_mod(loc, size)
                except IllegalAction:
                    continue
                opts.append(Option.of(loc, "location", location={"term": f"location.{loc}"}, mod=mod))
            opts.append(Option.of("back", "back"))
            out.append((Prompt.ask("declare_location", {**args, "maneuver": _maneuver(t.man)}, ctl, opts,
                                   key=(*key, "l"), private=True), meta))
        else:
            opts = [Option.of(c, "card", card=card_term(c)) for c in f_hand(state, who)] + [Option.of("back", "back")]
            out.append((Prompt.ask("declare_card", {**args, "maneuver": _maneuver(t.man)}, ctl, opts,
                                   key=(*key, "c"), private=True), meta))
    elif state.phase == "resolve":
        pending = [r for r in cb.registers if not r.resolved and r.n <= cb.resolve_to]
        if pending:
            reg = pending[0]
            i = resolve.next_hit(state, reg)
            if i >= 0:
                d = reg.decls[i]
                total = sum(value(c) for c in [d.card] + d.chain)
                last = (d.chain or [d.card])[-1]
                out.append((Prompt.ask("combat_hit", {"name": name(state, d.owner), "card": card_term(last),
                                                      "maneuver": _maneuver(d.man), "register": reg.n, "total": total},
                                       state.controllers[d.owner], [Option.of("hit", "hit"), Option.of("stand", "stand")],
                                       key=(cb.round, reg.n, i, len(d.chain)), private=True),
                            {"key": d.owner, "kind": "hit", "reg": reg.n, "i": i}))
            else:
                for i, d in enumerate(reg.decls):
                    if resolve._joker(d) and not d.ruling:
                        kind, jargs = resolve.joker_prompt(state, reg.n, d)
                        out.append((Prompt.ask(kind, jargs, GM, [Option.of("success", "success"),
                                                                 Option.of("failure", "failure")],
                                               key=(cb.round, reg.n, i), private=True),
                                    {"key": d.owner, "kind": "ruling", "reg": reg.n, "i": i}))
                        break
    elif state.phase == "initiative":
        for k in sorted(cb.init_hands):
            ctl = state.controllers[k]
            if k not in cb.init_plays:
                out.append((Prompt.ask("initiative", {
                    "name": name(state, k), "skill": {"term": "fast_draw" if cb.show_down else "combat_training"},
                    "attribute": {"term": f"attribute.{state.house_rules['initiative_attr']}"}}, ctl,
                    [Option.of(c, "card", card=card_term(c)) for c in cb.init_hands[k]],
                    key=(cb.round, cb.init_try, k), private=True), {"key": k, "kind": "iniplay"}))
            elif cb.init_plays[k].joker and not cb.init_plays[k].open and k not in cb.init_rulings \
                    and state.house_rules["joker_initiative"] == "gm" \
                    and all(x in cb.init_plays and not cb.init_plays[x].open for x in cb.init_hands):
                out.append((Prompt.ask("initiative_joker", {"name": name(state, k)}, GM,
                                       [Option.of("win", "wins_initiative"), Option.of("lose", "loses_initiative")],
                                       key=(cb.round, cb.init_try, k), private=True), {"key": k, "kind": "iniruling"}))
            elif cb.init_plays[k].open:
                play = cb.init_plays[k]
                out.append((Prompt.ask("initiative_hit", {"name": name(state, k), "card": card_term(play.last),
                                                          "total": play.total}, ctl,
                                       [Option.of("hit", "hit"), Option.of("stand", "stand")],
                                       key=(cb.round, cb.init_try, k, len(play.chain)), private=True),
                            {"key": k, "kind": "inihit"}))
    elif state.phase == "hold":
        for i, h in enumerate(cb.holds):
            if h.get("active"):
                t = h["target"]
                out.append((Prompt.ask("hold", {"name": name(state, t), "holder": name(state, h["holder"]),
                                                "hold": {"term": "choke_hold" if h["kind"] == "suf" else "pin_hold"},
                                                "value": h["card_value"]}, state.controllers[t],
                                       [Option.of("struggle", "struggle")], key=(i, h.get("rounds", 0))),
                            {"key": t, "kind": "hold", "i": i}))
    elif state.phase == "offers":
        for k in cb.offers:
            out.append((offer_prompt(state, k, f"rs{cb.round}.{k}"), {"key": k, "kind": "offer"}))
    thread = dm_thread(state)
    return [(replace(p, thread=thread), m) for p, m in out]


def dm_thread(state: KarmicState) -> str:
    """Which of a fighter's (at most) two DMs of the round a decision is edited into: one from the
    round's first decision (with its hand) until the round's first reveal, then one for everything
    after it (hits, declarations after an interrupt, the Rule-of-Fives offer). So a fighter is
    notified when their round begins and again when the revealed cards need them, and the
    decisions in between follow in the DM they are reading (a decision that follows their own
    click at once takes that DM's place, whatever its thread). The initiative belongs to round 1."""
    cb = state.combat
    if state.phase == "initiative":
        return str(cb.round + 1)
    revealed = state.phase != "declare" or any(r.resolved for r in cb.registers)
    return str(cb.round) + ("+" if revealed else "")       # a key, compared, never shown


def f_hand(state: KarmicState, who: str) -> list[str]:
    return state.combat.fighters[who].hand


def declare_option(state: KarmicState, who: str, oid: str, spec: dict) -> Option:
    """A declaration's button or select option, as data: the maneuver, the weapon when it tells
    options apart, and a variant (no step forward, standing ground, a called shot)."""
    man = spec["man"]
    char = state.characters[who]
    if man == "chw":
        w = spec.get("weapon", -1)
        if w < 0:
            return Option.of(oid, "drop_weapon")
        return Option.of(oid, "change_weapon", weapon=char.weapons[w].shown)
    if man in ("hes", "stop", "pass"):
        return Option.of(oid, spec.get("option", man))
    w = spec.get("weapon", -1)
    weapon = {"term": "with_weapon", "weapon": char.weapons[w].shown} if spec.get("show_weapon") else {"term": "nothing"}
    if spec.get("nostep"):
        variant = {"term": "no_step" if man == "atk" else "stand_ground"}
    elif spec.get("called"):
        variant = {"term": "called_shot"}
    else:
        variant = {"term": "nothing"}
    # `man`: the maneuver's id, what `/karmic combat declare maneuver:` takes (the cog offers it as typed)
    return Option.of(oid, "maneuver", maneuver=_maneuver(man), weapon=weapon, variant=variant, man=man)


def choose(state: KarmicState, meta: dict, option: str, events: list[Event]) -> None:
    cb = state.combat
    kind = meta["kind"]
    if kind == "declare":
        t = cb.turn
        if t.step == "man":
            if option == "more":
                t.page += 1
                n = len(options_for(state, t))
                if t.page * PAGE >= n:
                    t.page = 0
                return
            spec = {oid: s for oid, _, s in options_for(state, t)}[option]
            if spec["man"] in ("stop", "pass", "hes"):
                declaration.declare(state, spec, "", "torso", events)
                return
            t.man, t.weapon, t.nostep = spec["man"], spec.get("weapon", -1), spec.get("nostep", False)
            t.step = "loc" if spec.get("called") else "card"
        elif t.step == "loc":
            if option == "back":
                t.step, t.man = "man", ""
                return
            t.loc = option
            t.step = "card"
        else:
            if option == "back":
                t.step, t.man, t.loc = "man", "", "torso"
                return
            spec = {"man": t.man, "weapon": t.weapon, "nostep": t.nostep}
            declaration.declare(state, spec, option, t.loc, events)
    elif kind == "hit":
        rounds.hit(state, meta["reg"], meta["i"], option == "hit", events)
    elif kind == "ruling":
        rounds.rule_joker(state, meta["reg"], meta["i"], option, events)
    elif kind == "offer":
        rounds.answer_offer(state, meta["key"], option == "yes", events)
    elif kind == "hold":
        resolve.struggle(state, meta["i"], events)
    elif kind == "iniplay":
        rounds.init_play(state, meta["key"], option, events)
    elif kind == "inihit":
        rounds.init_hit(state, meta["key"], option == "hit", events)
    elif kind == "iniruling":
        state.combat.init_rulings[meta["key"]] = option
        events.append(Event("initiative_ruling", {"name": name(state, meta["key"]),
                                                  "verdict": {"term": f"initiative_{option}"},
                                                  "who": meta["key"], "outcome": option}))
        rounds._init_continue(state, events)


def declare_action(state: KarmicState, action, events: list[Event]) -> None:
    """The rich `Declare` action: same checks as the prompts."""
    cb = state.combat
    t = cb.turn
    char = state.characters[t.who]
    man = action.maneuver
    if man in ("stop", "pass", "hes", "hesitate", "yield"):
        declaration.declare(state, {"man": {"hesitate": "hes", "yield": "hes"}.get(man, man)}, "", "torso", events)
        return
    if man not in MANEUVERS:
        raise IllegalAction("no_such_maneuver", maneuver=man[:40])
    m = MANEUVERS[man]
    if man == "chw":
        w = char.weapon_index(action.weapon) if action.weapon else -1
        if w in char.wielding:
            raise IllegalAction("already_holding")
    elif action.weapon:
        w = char.weapon_index(action.weapon)
    elif m.cat in ("h2h", "wrestle", "special", "dodgehand") or man == "buck":
        w = -1
    else:
        melee = [i for i in char.wielding if not char.weapons[i].ranged]
        if man in ("blk", "sbash"):
            melee = [i for i in melee if char.weapons[i].shield] or melee
        else:
            melee = [i for i in melee if not char.weapons[i].shield] or melee
        w = melee[0] if melee else -1
    if not action.card:
        if not cb.fighters[t.who].hand:
            raise IllegalAction("no_card_left", register=cb.reg)
        raise IllegalAction("choose_a_card")
    t.man, t.weapon = man, w
    declaration.declare(state, {"man": man, "weapon": w, "nostep": action.nostep}, action.card, action.location, events)


def characters_out(state: KarmicState) -> dict[str, Character]:
    return dict(state.characters)
