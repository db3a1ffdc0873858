"""Which maneuver a fighter may declare now, and the options offered for it (digest §2.7–§2.10, §3)."""
from __future__ import annotations

from rules.common import IllegalAction

from ..base import name
from ..state import KarmicState, Turn
from ..tables import (H2H_STRIKING, MANEUVERS, WRESTLING, WRESTLING_ONLY,
                     DODGE, location_mod)

from . import lance, unusual_foes
from .common import STRIKE_KINDS, _reach, _register, _size_class, _weapon, caps, engagement, init_engagement, rng_text


def why_illegal(state: KarmicState, who: str, man_id: str, w: int, stage: str, answers: int,
                nostep: bool = False, loc: str = "torso") -> str | IllegalAction | None:
    """Why this declaration is not allowed now (a sentence, or a typed refusal), or None if it is legal."""
    cb = state.combat
    f = cb.fighters[who]
    char = state.characters[who]
    if man_id not in MANEUVERS:
        return f"There is no maneuver called '{man_id}'."
    m = MANEUVERS[man_id]
    if not f.hand:
        return f"You have no card left for register {cb.reg}."
    if f.done:
        return "You cannot declare anything more this round."
    if f.max_round and f.played >= f.max_round:
        return "Only one maneuver is allowed this turn."
    incoming = None
    if stage == "defense":
        incoming = _register(state, cb.reg).decls[answers]
        target = incoming.owner
    else:
        e0 = init_engagement(state, who)
        if e0 is None:
            return f"{m.name} needs the initiative."
        target = e0.other(who)
    if stage == "attack" and m.kind == "defense":
        return f"{m.name} is a defense: it answers an opponent's maneuver."
    if stage == "defense" and m.kind == "defense":
        fam = m.family
        if fam not in MANEUVERS[incoming.man].stopped_by:
            return f"{m.name} cannot stop {MANEUVERS[incoming.man].name}."
    e = engagement(state, who, target)
    if e is None:
        return f"You are not engaged with {name(state, target)}."
    needs_init = m.init
    if man_id in ("hatk", "latk", "hbutt", "tdown") and state.house_rules["h2h_defender_may_strike"]:
        needs_init = False
    if needs_init and e.init != who:
        return f"{m.name} needs the initiative."
    r = e.range
    tf = cb.fighters[target]
    tchar = state.characters[target]
    weapon = _weapon(state, who, w)
    limit = lance.refusal(state, who, man_id, weapon, target)     # L846: once every 4 rounds per target
    if limit is None and man_id == "chop":                        # L56: Chop frees someone entangled
        limit = unusual_foes.chop_refusal(state, who, target)
    if limit is not None:
        return limit
    if f.dodge_hand and man_id != "dg":
        return "With a hand drawn from Dodge you may only dodge."
    if man_id == "dg" and not f.dodge_hand:
        return "Dodge (whole hand) needs a hand drawn from the Dodge skill; use Melee Dodge."
    if man_id in WRESTLING_ONLY and r != WRESTLING:
        return f"{m.name} can only be used at wrestling range (the range is {r})."
    if man_id in H2H_STRIKING and r not in (0, WRESTLING):
        return f"{m.name} needs close range (0) or wrestling range; the range is {r}."
    if man_id == "hlng" and r != 1:
        return f"{m.name} attacks an opponent at range 1; the range is {rng_text(r)}."
    if man_id == "tckl" and r not in (0, 1):
        return f"Tackle works from range 0 or 1; the range is {rng_text(r)}."
    if man_id == "bgrab" and r != 0:
        return "Block Grab works at close range (0)."
    armed = m.cat in ("armed", "shield", "small") or man_id in ("flank", "cling", "chop") and weapon is not None
    if m.cat in ("armed", "shield", "small") and man_id not in ("mdg",):
        if weapon is None:
            return f"{m.name} needs a weapon in hand."
        if w not in char.wielding:
            return f"You are not holding your {weapon.name} (change weapons first)."
        if weapon.ranged:
            return f"{weapon.name} is a ranged weapon: shoot with a ranged check."
        if r == WRESTLING:
            return "Weapons cannot be used at wrestling range."
    if armed and weapon is not None:
        if weapon.shield and man_id in ("atk", "lng", "darm", "odis", "par", "pars", "swipe", "smash", "swat"):
            return f"A shield blocks and bashes; it cannot be used for {m.name}."
    clinging = f.cling == target
    if man_id in ("atk", "darm", "odis", "swipe", "smash", "swat") and not clinging:
        if weapon.range != r:
            return f"Your {weapon.name} (reach {weapon.range}) cannot reach at {rng_text(r)}."
    if man_id == "lng" and not clinging and weapon.range not in (r, r - 1):
        return f"Even lunging, your {weapon.name} (reach {weapon.range}) cannot reach at {rng_text(r)}."
    if man_id in ("par", "pars"):
        reach = _reach(state, incoming)
        inside = state.house_rules["range_parry_inside_reach"]
        lunge_ok = incoming is not None and incoming.man == "lng" and weapon.range == r - 1
        if not (weapon.range == r or reach > weapon.range or lunge_ok or (inside and r < weapon.range)):
            return f"Your {weapon.name} (reach {weapon.range}) cannot parry at {rng_text(r)}."
    if man_id == "blk" and not weapon.shield:
        return "Block needs a shield."
    if man_id == "blk" and f.bashed:
        return "Your shield bashed this round and cannot block."
    if man_id == "sbash":
        if not weapon.small_shield:
            return "Only a small shield can bash."
        if r != 0:
            return f"Shield Bash works at range 0; the range is {rng_text(r)}."
        if f.bashed:
            return "Only one Shield Bash per round."
    if man_id == "mdg" and f.dodged:
        return "Melee Dodge can be used only once per round."
    if man_id == "cls" and r <= 0:
        return "You are already at close range: use Tackle or Block Grab to wrestle."
    if man_id == "ret":
        if r == WRESTLING:
            return "At wrestling range use Escape."
        longest = max([x.range for k in (who, target) for x in state.characters[k].wielded()] or [0])
        if r + 1 > longest:
            return f"You cannot retreat beyond the reach of the longest weapon in the fight ({longest})."
    if man_id == "psh" and r != 0:
        return f"Push works only at range 0; the range is {rng_text(r)}."
    if man_id == "esc" and r != WRESTLING:
        return "Escape works only at wrestling range."
    if man_id in ("darm", "hdis") and not tchar.wielded():
        return f"{tchar.name} holds no weapon to disarm."
    if man_id == "smash" and not weapon.impact:
        return "Only impact weapons (clubs, maces) can smash."
    if m.cat == "small" and _size_class(state, who, target) != "small":
        return f"{m.name} works only against small creatures (less than half your size)."
    if m.cat == "large" and _size_class(state, who, target) != "large":
        return f"{m.name} works only against a large creature (at least twice your size)."
    if man_id == "buck" and incoming.man != "cling" and cb.fighters[incoming.owner].cling != who:
        return "Buck throws off a clinging foe."
    if f.flanked_by.get(target, -1) >= cb.round and (m.kind in STRIKE_KINDS or m.family == DODGE):
        return f"{tchar.name} has flanked you: you cannot attack or dodge him."
    if tf.cling == who and m.kind in STRIKE_KINDS:
        if f.flanked_by.get(target, -1) >= cb.round:
            return f"{tchar.name} clings to you after flanking: you cannot attack him."
        if weapon is not None and weapon.range > 0:
            return f"{tchar.name} clings to you: only range-0 attacks reach him."
    if f.prone and state.house_rules["prone_must_stand"] and m.kind in STRIKE_KINDS + ("move",) \
            and man_id != "esc":
        return "You are on the ground: Stand Up first."
    if man_id == "stand" and not f.prone:
        return "You are not on the ground."
    if man_id == "chw":
        return None
    if m.kind in STRIKE_KINDS and loc != "torso":
        if man_id in ("sbash", "hbutt"):
            return f"{m.name} always goes to the head; it cannot be aimed elsewhere."
        try:
            location_mod(loc, _size_class(state, who, target))
        except IllegalAction as exc:
            return str(exc)
    if nostep and man_id not in ("atk", "par", "blk", "pars"):
        return f"{m.name} has no step to hold back."
    # maneuver caps
    exempt = incoming is not None and incoming.man in ("darm", "hdis")
    if m.counts and weapon is not None and m.cat in ("armed", "shield", "small", "large") and not exempt:
        total, per = caps(state, f)
        cap = per.get(w, 1)
        if f.used.get(w, 0) >= cap:
            return f"Your {weapon.name} has already made its {cap} maneuver(s) this round."
        if total is not None and f.counted >= total:
            return f"You have used all {total} of your maneuvers this round."
    return None


def options_for(state: KarmicState, turn: Turn) -> list[tuple[str, str, dict]]:
    """(option id, label, spec) for every declaration legal for this turn."""
    cb = state.combat
    who, stage, answers = turn.who, turn.stage, turn.answers
    char = state.characters[who]
    f = cb.fighters[who]
    out: list[tuple[str, str, dict]] = []
    wielded = [i for i in char.wielding if 0 <= i < len(char.weapons) and not char.weapons[i].ranged]
    multi = len(wielded) > 1

    def add(man_id, w, nostep=False, called=False):
        if why_illegal(state, who, man_id, w, stage, answers, nostep) is not None:
            return
        m = MANEUVERS[man_id]
        oid = f"{man_id}.{w if w >= 0 else 'h'}" + (".n" if nostep else "") + (".c" if called else "")
        lab = m.name
        if w >= 0 and (multi or m.cat in ("large", "small")):
            lab += f" ({char.weapons[w].name})"
        if nostep:
            lab += " — no step forward (−2)" if man_id == "atk" else " — stand ground (−2)"
        if called:
            lab += " — called shot…"
        out.append((oid, lab, {"man": man_id, "weapon": w, "nostep": nostep, "called": called,
                               "show_weapon": w >= 0 and (multi or m.cat in ("large", "small"))}))

    for man_id, m in MANEUVERS.items():
        if man_id == "chw":
            continue
        if stage == "attack" and m.kind == "defense":
            continue
        if stage == "defense" and m.kind != "defense" and (m.init and not (
                man_id in ("hatk", "latk", "hbutt", "tdown") and state.house_rules["h2h_defender_may_strike"])):
            continue
        ws = wielded if m.cat in ("armed", "shield", "small") and man_id != "mdg" else \
            (wielded or [-1]) if m.cat == "large" else [-1]
        if man_id == "mdg":
            ws = [wielded[0]] if wielded else [-1]
        for w in ws:
            add(man_id, w)
            if man_id in ("atk", "par", "blk", "pars"):
                add(man_id, w, nostep=True)
            if man_id in ("atk", "lng", "hatk", "latk", "darm"):
                if why_illegal(state, who, man_id, w, stage, answers) is None:
                    add(man_id, w, called=True)
    # change weapon: to another carried melee weapon, or to bare hands
    if f.hand and not f.done and not (f.max_round and f.played >= f.max_round):
        for i, wpn in enumerate(char.weapons):
            if i not in char.wielding and not wpn.ranged:
                out.append((f"chw.{i}", f"Change weapon → {wpn.name}", {"man": "chw", "weapon": i}))
        if wielded:
            out.append(("chw.x", "Change weapon → drop to bare hands", {"man": "chw", "weapon": -1}))
    if stage == "attack":
        e = init_engagement(state, who)
        first = f.played == 0 and e is not None and e.hesitations == 0 and cb.reg == 1
        out.append(("hes", "Yield the initiative" if first else "Hesitate (give up the initiative)",
                    {"man": "hes", "option": "yield" if first else "hesitate"}))
        if f.played > 0 or not any(s.get("man") not in ("hes",) for _, _, s in out):
            out.append(("stop", "Stop declaring this round", {"man": "stop"}))
    else:
        out.append(("pass", "No response (keep the card)", {"man": "pass"}))
    return out
