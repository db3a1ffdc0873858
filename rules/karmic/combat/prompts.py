"""The combat's prompts (who decides what now) and the answers to them (digest §2)."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Event, IllegalAction, Option, Prompt

from ..base import name, signed
from ..cards import label, value
from ..character import Character
from ..state import KarmicState
from ..tables import (LOCATION_NAMES, LOCATIONS, MANEUVERS, location_mod)

from .common import _register, _size_class, caps, init_engagement
from .legality import options_for
from ..base import offer_prompt
# The flow loops (a round ends and the next begins, resolution ends the declaring): sibling
# modules on that loop are imported as modules, their functions looked up when called.
from . import declaration, resolve, setup

PAGE = 23


def combat_prompts(state: KarmicState) -> list[tuple[Prompt, dict]]:
    cb = state.combat
    out: list[tuple[Prompt, dict]] = []
    if state.phase == "declare" and cb.turn is not None:
        t = cb.turn
        who = t.who
        ctl = state.controllers[who]
        base = f"d{cb.round}.{cb.reg}.{who}.{t.stage[0]}{t.answers}"
        f = cb.fighters[who]
        total, _ = caps(state, f)
        left = "" if total is None else f", {max(0, total - f.counted)} maneuver(s) left"
        if t.stage == "attack":
            head = f"{name(state, who)} — register {cb.reg}: declare a maneuver ({len(f.hand)} card(s){left})."
        else:
            inc = _register(state, cb.reg).decls[t.answers]
            head = f"{name(state, who)} — register {cb.reg}: answer {name(state, inc.owner)}'s " \
                   f"{MANEUVERS[inc.man].name} ({len(f.hand)} card(s){left})."
        meta = {"key": who, "kind": "declare"}
        if t.step == "man":
            opts = [Option(oid, lab[:80]) for oid, lab, _ in options_for(state, t)]
            if len(opts) > PAGE + 1:
                pages = [opts[i:i + PAGE] for i in range(0, len(opts), PAGE)]
                page = pages[min(t.page, len(pages) - 1)]
                opts = page + [Option("more", "More maneuvers…")]
            out.append((Prompt(f"{base}.m{t.page}", ctl, head, tuple(opts), private=True), meta))
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
                opts.append(Option(loc, f"{LOCATION_NAMES[loc]} ({signed(mod)})"))
            opts.append(Option("back", "← back"))
            out.append((Prompt(f"{base}.l", ctl, head + f" {MANEUVERS[t.man].name}: called shot where?",
                               tuple(opts), private=True), meta))
        else:
            opts = [Option(c, label(c)) for c in f.hand] + [Option("back", "← back")]
            out.append((Prompt(f"{base}.c", ctl, head + f" {MANEUVERS[t.man].name}: which card, face down?",
                               tuple(opts), private=True), meta))
    elif state.phase == "resolve":
        pending = [r for r in cb.registers if not r.resolved and r.n <= cb.resolve_to]
        if pending:
            reg = pending[0]
            i = resolve.next_hit(state, reg)
            if i >= 0:
                d = reg.decls[i]
                total = sum(value(c) for c in [d.card] + d.chain)
                last = (d.chain or [d.card])[-1]
                out.append((Prompt(f"h{cb.round}.{reg.n}.{i}.{len(d.chain)}", state.controllers[d.owner],
                                   f"{name(state, d.owner)}: {label(last)} for {MANEUVERS[d.man].name} in register "
                                   f"{reg.n} — hit or stand? (value {signed(total)})",
                                   (Option("hit", "Hit"), Option("stand", "Stand")), private=True),
                            {"key": d.owner, "kind": "hit", "reg": reg.n, "i": i}))
            else:
                for i, d in enumerate(reg.decls):
                    if resolve._joker(d) and not d.ruling:
                        out.append((Prompt(f"j{cb.round}.{reg.n}.{i}", GM, resolve._joker_question(state, reg.n, d),
                                           (Option("success", f"Success ({state.house_rules['joker_default']} "
                                                              f"is the default)"[:80]),
                                            Option("failure", "Failure")), private=True),
                                    {"key": d.owner, "kind": "ruling", "reg": reg.n, "i": i}))
                        break
    elif state.phase == "initiative":
        for k in sorted(cb.init_hands):
            ctl = state.controllers[k]
            if k not in cb.init_plays:
                out.append((Prompt(f"ini{cb.round}.{cb.init_try}.{k}", ctl,
                                   f"{name(state, k)} — initiative: play one card "
                                   f"({'fast draw' if cb.show_down else 'combat training'} + "
                                   f"{state.house_rules['initiative_attr']}).",
                                   tuple(Option(c, label(c)) for c in cb.init_hands[k]), private=True),
                            {"key": k, "kind": "iniplay"}))
            elif cb.init_plays[k].joker and not cb.init_plays[k].open and k not in cb.init_rulings \
                    and state.house_rules["joker_initiative"] == "gm" \
                    and all(x in cb.init_plays and not cb.init_plays[x].open for x in cb.init_hands):
                out.append((Prompt(f"inij{cb.round}.{cb.init_try}.{k}", GM,
                                   f"{name(state, k)} played a joker for initiative: rule it.",
                                   (Option("win", "Wins the initiative"), Option("lose", "Loses it")),
                                   private=True), {"key": k, "kind": "iniruling"}))
            elif cb.init_plays[k].open:
                play = cb.init_plays[k]
                out.append((Prompt(f"inih{cb.round}.{cb.init_try}.{k}.{len(play.chain)}", ctl,
                                   f"{name(state, k)} — initiative: {label(play.last)}, hit or stand? "
                                   f"(value {signed(play.total)})",
                                   (Option("hit", "Hit"), Option("stand", "Stand")), private=True),
                            {"key": k, "kind": "inihit"}))
    elif state.phase == "hold":
        for i, h in enumerate(cb.holds):
            if h.get("active"):
                t = h["target"]
                what = "choke hold" if h["kind"] == "suf" else "pin"
                out.append((Prompt(f"hold{i}.{h.get('rounds', 0)}", state.controllers[t],
                                   f"{name(state, t)} is held in a {what} by {name(state, h['holder'])}: struggle "
                                   f"(might check above {h['card_value']})?",
                                   (Option("struggle", "Struggle to break free"),), private=False),
                            {"key": t, "kind": "hold", "i": i}))
    elif state.phase == "offers":
        for k in cb.offers:
            out.append((offer_prompt(state, k, f"rs{cb.round}.{k}"), {"key": k, "kind": "offer"}))
    return out


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
        resolve.hit(state, meta["reg"], meta["i"], option == "hit", events)
    elif kind == "ruling":
        resolve.rule_joker(state, meta["reg"], meta["i"], option, events)
    elif kind == "offer":
        resolve.answer_offer(state, meta["key"], option == "yes", events)
    elif kind == "hold":
        resolve.struggle(state, meta["i"], events)
    elif kind == "iniplay":
        setup.init_play(state, meta["key"], option, events)
    elif kind == "inihit":
        setup.init_hit(state, meta["key"], option == "hit", events)
    elif kind == "iniruling":
        state.combat.init_rulings[meta["key"]] = option
        events.append(Event("ruling", f"The GM rules {name(state, meta['key'])}'s joker: {option}s the initiative.",
                            PUBLIC, {"who": meta["key"], "outcome": option}))
        setup._init_continue(state, events)


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
        raise IllegalAction(f"There is no maneuver called '{man}'.")
    m = MANEUVERS[man]
    if man == "chw":
        w = char.weapon_index(action.weapon) if action.weapon else -1
        if w in char.wielding:
            raise IllegalAction("You already hold that weapon.")
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
            raise IllegalAction(f"You have no card left for register {cb.reg}.")
        raise IllegalAction("Choose a card to put face down.")
    t.man, t.weapon = man, w
    declaration.declare(state, {"man": man, "weapon": w, "nostep": action.nostep}, action.card, action.location, events)


def characters_out(state: KarmicState) -> dict[str, Character]:
    return dict(state.characters)
