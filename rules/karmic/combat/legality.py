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
                nostep: bool = False, loc: str = "torso") -> tuple[str, dict] | None:
    """Why this declaration is not allowed now (an error code and its parameters), or None if it is legal."""
    cb = state.combat
    f = cb.fighters[who]
    char = state.characters[who]
    if man_id not in MANEUVERS:
        return "no_such_maneuver", {"maneuver": man_id[:40]}
    m = MANEUVERS[man_id]
    man = {"term": f"maneuver.{man_id}"}
    if not f.hand:
        return "no_card_left", {"register": cb.reg}
    if f.done:
        return "done_this_round", {}
    if f.max_round and f.played >= f.max_round:
        return "one_maneuver_this_turn", {}
    incoming = None
    if stage == "defense":
        incoming = _register(state, cb.reg).decls[answers]
        target = incoming.owner
    else:
        e0 = init_engagement(state, who)
        if e0 is None:
            return "needs_initiative", {"maneuver": man}
        target = e0.other(who)
    if stage == "attack" and m.kind == "defense":
        return "is_a_defense", {"maneuver": man}
    if stage == "defense" and m.kind == "defense":
        fam = m.family
        if fam not in MANEUVERS[incoming.man].stopped_by:
            return "cannot_stop", {"maneuver": man, "incoming": {"term": f"maneuver.{incoming.man}"}}
    e = engagement(state, who, target)
    if e is None:
        return "not_engaged", {"name": name(state, target)}
    needs_init = m.init
    if man_id in ("hatk", "latk", "hbutt", "tdown") and state.house_rules["h2h_defender_may_strike"]:
        needs_init = False
    if needs_init and e.init != who:
        return "needs_initiative", {"maneuver": man}
    r = e.range
    tf = cb.fighters[target]
    tchar = state.characters[target]
    weapon = _weapon(state, who, w)
    limit = lance.refusal(state, who, man_id, weapon, target)     # L846: once every 4 rounds per target
    if limit is None and man_id == "chop":                        # L56: Chop frees someone entangled
        limit = unusual_foes.chop_refusal(state, who, target)
    if limit is not None:                                          # a typed refusal: its code and parameters
        return limit.code, dict(limit.params)
    if f.dodge_hand and man_id != "dg":
        return "dodge_hand_only", {}
    if man_id == "dg" and not f.dodge_hand:
        return "dodge_needs_hand", {}
    if man_id in WRESTLING_ONLY and r != WRESTLING:
        return "wrestling_only", {"maneuver": man, "range": r}
    if man_id in H2H_STRIKING and r not in (0, WRESTLING):
        return "needs_close", {"maneuver": man, "range": r}
    if man_id == "hlng" and r != 1:
        return "needs_range_1", {"maneuver": man, "range": rng_text(r)}
    if man_id == "tckl" and r not in (0, 1):
        return "tackle_range", {"range": rng_text(r)}
    if man_id == "bgrab" and r != 0:
        return "block_grab_range", {}
    armed = m.cat in ("armed", "shield", "small") or man_id in ("flank", "cling", "chop") and weapon is not None
    if m.cat in ("armed", "shield", "small") and man_id not in ("mdg",):
        if weapon is None:
            return "needs_weapon", {"maneuver": man}
        if w not in char.wielding:
            return "not_holding", {"weapon": weapon.shown}
        if weapon.ranged:
            return "ranged_weapon", {"weapon": weapon.shown}
        if r == WRESTLING:
            return "no_weapons_wrestling", {}
    if armed and weapon is not None:
        if weapon.shield and man_id in ("atk", "lng", "darm", "odis", "par", "pars", "swipe", "smash", "swat"):
            return "shield_cannot", {"maneuver": man}
    clinging = f.cling == target
    if man_id in ("atk", "darm", "odis", "swipe", "smash", "swat") and not clinging:
        if weapon.range != r:
            return "cannot_reach", {"weapon": weapon.shown, "reach": weapon.range, "range": rng_text(r)}
    if man_id == "lng" and not clinging and weapon.range not in (r, r - 1):
        return "cannot_reach_lunging", {"weapon": weapon.shown, "reach": weapon.range, "range": rng_text(r)}
    if man_id in ("par", "pars"):
        reach = _reach(state, incoming)
        inside = state.house_rules["range_parry_inside_reach"]
        lunge_ok = incoming is not None and incoming.man == "lng" and weapon.range == r - 1
        if not (weapon.range == r or reach > weapon.range or lunge_ok or (inside and r < weapon.range)):
            return "cannot_parry", {"weapon": weapon.shown, "reach": weapon.range, "range": rng_text(r)}
    if man_id == "blk" and not weapon.shield:
        return "block_needs_shield", {}
    if man_id == "blk" and f.bashed:
        return "shield_bashed", {}
    if man_id == "sbash":
        if not weapon.small_shield:
            return "small_shield_only", {}
        if r != 0:
            return "bash_range", {"range": rng_text(r)}
        if f.bashed:
            return "one_bash", {}
    if man_id == "mdg" and f.dodged:
        return "one_melee_dodge", {}
    if man_id == "cls" and r <= 0:
        return "already_close", {}
    if man_id == "ret":
        if r == WRESTLING:
            return "use_escape", {}
        longest = max([x.range for k in (who, target) for x in state.characters[k].wielded()] or [0])
        if r + 1 > longest:
            return "retreat_limit", {"longest": longest}
    if man_id == "psh" and r != 0:
        return "push_range", {"range": rng_text(r)}
    if man_id == "esc" and r != WRESTLING:
        return "escape_range", {}
    if man_id in ("darm", "hdis") and not tchar.wielded():
        return "nothing_to_disarm", {"name": tchar.shown}
    if man_id == "smash" and not weapon.impact:
        return "impact_only", {}
    if m.cat == "small" and _size_class(state, who, target) != "small":
        return "small_only", {"maneuver": man}
    if m.cat == "large" and _size_class(state, who, target) != "large":
        return "large_only", {"maneuver": man}
    if man_id == "buck" and incoming.man != "cling" and cb.fighters[incoming.owner].cling != who:
        return "buck_clinging", {}
    if f.flanked_by.get(target, -1) >= cb.round and (m.kind in STRIKE_KINDS or m.family == DODGE):
        return "flanked", {"name": tchar.shown}
    if tf.cling == who and m.kind in STRIKE_KINDS:
        if f.flanked_by.get(target, -1) >= cb.round:
            return "clings_flanking", {"name": tchar.shown}
        if weapon is not None and weapon.range > 0:
            return "clings", {"name": tchar.shown}
    if f.prone and state.house_rules["prone_must_stand"] and m.kind in STRIKE_KINDS + ("move",) \
            and man_id != "esc":
        return "stand_up_first", {}
    if man_id == "stand" and not f.prone:
        return "not_on_ground", {}
    if man_id == "chw":
        return None
    if m.kind in STRIKE_KINDS and loc != "torso":
        if man_id in ("sbash", "hbutt"):
            return "always_head", {"maneuver": man}
        try:
            location_mod(loc, _size_class(state, who, target))
        except IllegalAction as exc:
            return exc.code, dict(exc.params)
    if nostep and man_id not in ("atk", "par", "blk", "pars"):
        return "no_step_to_hold", {"maneuver": man}
    # maneuver caps
    exempt = incoming is not None and incoming.man in ("darm", "hdis")
    if m.counts and weapon is not None and m.cat in ("armed", "shield", "small", "large") and not exempt:
        total, per = caps(state, f)
        cap = per.get(w, 1)
        if f.used.get(w, 0) >= cap:
            return "weapon_cap", {"weapon": weapon.shown, "n": cap}
        if total is not None and f.counted >= total:
            return "maneuvers_used", {"n": total}
    return None


def options_for(state: KarmicState, turn: Turn) -> list[tuple[str, str, dict]]:
    """(option id, maneuver id, spec) for every declaration legal for this turn (the prompt words
    each option from its spec)."""
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
        out.append((oid, man_id, {"man": man_id, "weapon": w, "nostep": nostep, "called": called,
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
                out.append((f"chw.{i}", "chw", {"man": "chw", "weapon": i}))
        if wielded:
            out.append(("chw.x", "chw", {"man": "chw", "weapon": -1}))
    if stage == "attack":
        e = init_engagement(state, who)
        first = f.played == 0 and e is not None and e.hesitations == 0 and cb.reg == 1
        out.append(("hes", "hes", {"man": "hes", "option": "yield" if first else "hesitate"}))
        if f.played > 0 or not any(s.get("man") not in ("hes",) for _, _, s in out):
            out.append(("stop", "stop", {"man": "stop"}))
    else:
        out.append(("pass", "pass", {"man": "pass"}))
    return out
