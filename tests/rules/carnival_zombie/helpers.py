"""Shared helpers for the Carnival Zombie tests: drive the engine through its public API."""
from __future__ import annotations

from i18n.present import Presenter
from rules.carnival_zombie import ENGINE
from rules.carnival_zombie.state import CAVES
from rules.common import Actor, Choose, Option, Prompt
from rules.common.packs import in_language

ALL = ["capitan", "colombina", "arlecchino", "brighella", "pantalone", "medico"]


SAY = Presenter("en", ENGINE.system)


def said(x) -> str:
    """What a prompt, an option or an event reads in English (the presenter words the engine's data)."""
    if isinstance(x, Prompt):
        return SAY.prompt(x)
    if isinstance(x, Option):
        return SAY.option(x)
    return SAY.event(x)


def prompt(s):
    ps = ENGINE.pending(s)
    assert len(ps) == 1, ps
    return ps[0]


def kind(s) -> str:
    p = prompt(s)
    return p.kind


def answer(s, option_id: str, *, expect: str | None = None):
    """Answer the live prompt (mutating s through ENGINE.step); returns the events."""
    p = prompt(s)
    if expect:
        assert p.kind == expect, (p.id, said(p), [o.id for o in p.options])
    ids = [o.id for o in p.options]
    assert option_id in ids, (p.id, said(p), ids)
    return ENGINE.step(s, Choose(p.id, (option_id,)), Actor(p.player))


def options(s) -> list[str]:
    return [o.id for o in prompt(s).options]


def new(seats=("u1",), seed: int = 1, **opts):
    return ENGINE.new_game(list(seats), opts, seed=seed)


def clear_board(s):
    """Empty the Tactical Map, putting every cube back where it came from (the 195 stay conserved)."""
    for sp in s.night.rings:
        for code, n in s.night.rings[sp].items():
            if code == "S":
                s.supply["S"] += n
            else:
                s.abyss[code] += n
        s.night.rings[sp] = {}
    for cv in CAVES:
        box(s, cv)
    for k, b in enumerate(s.boss_area):
        if b:
            s.supply["W"] += b.cubes
            if b.survivor:
                s.supply["S"] += 1
            s.boss_deck.append(b.boss)
            s.boss_area[k] = None


def put(s, space: str, **cubes):
    """Move cubes from the Abyss onto a Ring space (keeps the 195 cubes conserved)."""
    for code, n in cubes.items():
        assert s.abyss[code] >= n
        s.abyss[code] -= n
        s.night.rings[space][code] = s.night.rings[space].get(code, 0) + n


def box(s, cave: str, *slots: str):
    """Fill a Cave's boxes: '#' Barricades come from the supply, Infected from the Abyss."""
    for x in s.night.boxes[cave]:
        if x == "#":
            s.supply["#"] += 1
        elif x and not x.startswith("@"):
            s.abyss[x] += 1
    new_slots = list(slots) + [""] * (3 - len(slots))
    for x in new_slots:
        if x == "#":
            s.supply["#"] -= 1
        elif x and not x.startswith("@"):
            s.abyss[x] -= 1
    s.night.boxes[cave] = new_slots


def until(s, kinds: set[str], policy=None, limit=2000):
    """Answer prompts with a passive policy until one of `kinds` is pending."""
    for _ in range(limit):
        if s.over:
            return
        k = kind(s)
        if k in kinds:
            return
        ids = options(s)
        pick = None
        passive = ("end", "auto", "done", "hide", "no", "stop", "even", "pass", "waste", "clean", "k0", "n0")
        for pref in (("waste",) if k == "hit" else ()) + passive:     # a passive player wastes Hits
            if pref in ids:
                pick = pref
                break
        if policy:
            pick = policy(s, k, ids) or pick
        answer(s, pick or ids[0])
    raise AssertionError("prompt never came")


def nm_top(s, *cards: str):
    """Stack the Nightmare deck: the first card named is drawn first."""
    for card in cards:
        (s.nightmare if card in s.nightmare else s.nightmare_discard).remove(card)
    s.nightmare.extend(reversed(cards))


def attack_rows(p) -> list[tuple[str, str, str]]:
    """The rows of a step's attack prompt, in attack order: (option prefix, attacker, Cave)."""
    rows: dict[str, tuple[str, str]] = {}
    for o in p.options:
        if o.id != "auto":
            rows.setdefault(o.id.split(".")[0], (in_language(o.args["attacker"], "en"), o.args["cave"]))
    return [(k, *where) for k, where in rows.items()]


def assign_attacks(s, plan) -> int:
    """Answer the step's attack prompts from `plan`, a list of (attacker, Cave, pick) in attack order
    (pick: "t.<character>", "x.<character>" or "surv"); returns how many prompts were asked."""
    plan = list(plan)
    asked = 0
    while not s.over and kind(s) == "attack":
        p = prompt(s)
        asked += 1
        picks = []
        for k, attacker, cave in attack_rows(p):
            name, where, pick = plan.pop(0)
            assert (attacker, cave) == (name, where), (attacker, cave, name, where)
            picks.append(f"{k}.{pick}")
        ENGINE.step(s, Choose(p.id, tuple(picks)), Actor(p.player))
    assert plan == [], plan
    return asked
