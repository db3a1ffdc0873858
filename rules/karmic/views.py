"""What each viewer may see: `view_for(engine, state, viewer)` → a JSON-safe dict.

viewer = a player id, GM, or PUBLIC. Hands, face-down cards, world/NPC draws and hidden GM
modifiers appear only for their owner (NPC hands: the GM)."""
from __future__ import annotations

from rules.common import GM, PUBLIC

from .combat.common import caps, rng_text
from .names import matches
from .state import KarmicState


def _sees(state: KarmicState, key: str, viewer: str) -> bool:
    if viewer == GM:
        return True
    if viewer == PUBLIC:
        return False
    return state.controllers.get(key) == viewer


def _deck_info(state: KarmicState, key: str) -> dict:
    char = state.characters[key]
    deck = char.deck
    if deck is None:
        return {"world_deck": True}
    return {"deck": len(deck.cards), "discards": len(deck.discards), "sideboard": len(deck.sideboard),
            "since_shuffle": deck.since_shuffle, "reshuffle_offered": deck.offer,
            "discard_cards": list(deck.discards), "sideboard_cards": sorted(deck.sideboard)}


def _char_public(state: KarmicState, key: str, viewer: str) -> dict:
    char = state.characters[key]
    out = {"key": key, "name": char.shown, "player": state.controllers.get(key), "npc": char.npc,
           "hp_marked": char.hp_marked, "hp_max": char.hp_max, "hp_row": char.hp_row,
           "weapons": [char.weapons[i].shown for i in char.wielding if 0 <= i < len(char.weapons)],
           "fatigue": char.fatigue, "bleeding": char.bleeding}          # conditions anyone can see
    if _sees(state, key, viewer):
        out["sheet"] = {"attributes": dict(char.attributes), "skills": dict(char.skills),
                        "fields": {k: list(v) for k, v in char.fields.items()},
                        "armor": char.armor.shown if char.armor else None,
                        "carried": [w.shown for w in char.weapons], "aim_row": list(char.aim_row)}
        out["karma"] = _deck_info(state, key)
    return out


def view_for(engine, state: KarmicState, viewer: str) -> dict:
    view = {"system": "karmic", "mode": state.mode, "phase": state.phase, "over": state.over,
            "viewer": viewer,
            "characters": [_char_public(state, k, viewer) for k in sorted(state.characters)]}
    if viewer == GM:
        view["world_deck"] = {"deck": len(state.world.cards), "discards": len(state.world.discards)}
        view["house_rules"] = dict(state.house_rules)
    if state.mode == "check" and state.check is not None:
        view["check"] = _check_view(state, viewer)
    if state.mode == "combat" and state.combat is not None:
        view["combat"] = _combat_view(state, viewer)
    view["prompts"] = [p.to_dict() for p in engine.pending(state)
                       if viewer == GM and p.player == GM or p.player == viewer]
    if viewer == PUBLIC:
        view["prompts"] = [{"player": p.player, "text": p.text} for p in engine.pending(state) if not p.private]
        view["waiting_for"] = sorted({p.player for p in engine.pending(state)})
    return view


def _check_view(state: KarmicState, viewer: str) -> dict:
    check = state.check
    sides = []
    done = state.phase in ("offers", "done")
    for s in check.sides:
        mine = _sees(state, s.key, viewer)
        npc_hidden = state.controllers.get(s.key) == GM and state.house_rules.get("hide_npc_check_cards", True)
        side = {"key": s.key, "name": state.characters[s.key].shown, "skill": s.skill, "attribute": s.attribute,
                "field": s.foe_field, "modifier": s.modifier, "cards_drawn": len(s.hand),
                "played": s.play is not None}
        if mine:
            side["hand"] = list(s.hand)
            side["helper_cards"] = dict(s.helper_cards)
        if viewer == GM:
            side["hidden_modifier"] = s.hidden
        if s.play is not None and (mine or (done and not npc_hidden)):
            side["card"] = s.play.card
            side["chain"] = list(s.play.chain)
        if done and (mine or not s.hidden):
            side["mt"] = s.mt
        sides.append(side)
    out = {"label": check.label, "difficulty": check.difficulty, "sides": sides}
    shot = check.ranged.get("_weapon") or check.ranged.get("weapon")
    if shot:                                   # a shot is told by its weapon, in the reader's language
        char = state.characters["c1"]
        found = [w for w in char.weapons if matches(shot, w.name, w.names)]
        out["weapon"] = found[0].shown if found else shot
    if done:
        res = dict(check.result)
        if viewer != GM and any(s.hidden for s in check.sides):
            res.pop("mt", None)
            res.pop("margin", None)
            res.pop("chart", None)
        if viewer != GM and len(check.sides) > 1 and state.house_rules.get("hide_npc_check_cards", True) \
                and state.controllers.get(check.sides[1].key) == GM:
            pass
        out["result"] = res
    return out


def _combat_view(state: KarmicState, viewer: str) -> dict:
    cb = state.combat
    fighters = []
    for k, f in cb.fighters.items():
        total, per = caps(state, f)
        entry = {"key": k, "name": state.characters[k].shown, "hand_count": len(f.hand),
                 "maneuvers_left": None if total is None else max(0, total - f.counted),
                 "played": f.played, "done": f.done, "prone": f.prone, "out": f.out, "cling": f.cling,
                 "init_mt": f.init_mt if not (state.controllers.get(k) == GM and viewer not in (GM,)) else None,
                 "hp_marked": state.characters[k].hp_marked, "hp_max": state.characters[k].hp_max,
                 "entangled_by": sorted(f.entangled_by)}        # creatures whose limb holds him (L56)
        if _sees(state, k, viewer):
            entry["hand"] = list(f.hand)
            if k in cb.init_hands:
                entry["initiative_hand"] = list(cb.init_hands[k])
        entry["initiative_cards"] = len(cb.init_hands.get(k, []))
        if f.gm_mod:
            entry["gm_modifier"] = f.gm_mod
        if viewer == GM and f.gm_hidden:
            entry["hidden_modifier"] = f.gm_hidden
        fighters.append(entry)
    registers = []
    for r in cb.registers:
        decls = []
        for _i, d in enumerate(r.decls):
            # ids, not words: the reader's catalogue words them (terms.maneuver.*, terms.location.*)
            item = {"owner": d.owner, "name": state.characters[d.owner].shown, "maneuver_id": d.man,
                    "target": d.target, "answers": d.answers, "location": d.loc, "nostep": d.nostep,
                    "revealed": d.revealed}
            if d.revealed:
                item["card"] = d.card
                item["chain"] = list(d.chain)
            elif _sees(state, d.owner, viewer):
                item["card"] = d.card
                item["face_down"] = True
            else:
                item["face_down"] = True
            decls.append(item)
        registers.append({"n": r.n, "resolved": r.resolved, "decls": decls})
    turn = None
    if cb.turn is not None:
        turn = {"who": cb.turn.who, "stage": cb.turn.stage, "answers": cb.turn.answers}
        if _sees(state, cb.turn.who, viewer):
            turn.update({"step": cb.turn.step, "maneuver": cb.turn.man})
    return {"round": cb.round, "register": cb.reg, "turn": turn, "fighters": fighters,
            "engagements": [{"a": e.a, "b": e.b, "range": e.range, "range_text": rng_text(e.range),
                             "initiative": e.init, "live": e.live} for e in cb.engagements],
            "registers": registers, "holds": list(cb.holds), "charge": cb.charge,
            "surprise": {k: v for k, v in cb.surprise.items()} if viewer == GM else
            ({"attacker": cb.surprise.get("attacker"), "target": cb.surprise.get("target")}
             if cb.surprise.get("active") else {}),
            "ended": cb.ended}


def public_track(state: KarmicState) -> dict:
    """The PUBLIC combat view of this moment, for a snapshot of a finished round (the round_end event
    carries it so a renderer can draw the round's revealed registers after the next round begins)."""
    return _combat_view(state, PUBLIC)
