"""``view_for``: what one viewer may see. Event Card hands are the only secret (plus, in the secret-team
variant, a team choice until both are locked, and GM-only forced dice)."""
from __future__ import annotations

from rules.common.engine import GM

from . import arena, core


def _model(state, m) -> dict:
    return {"id": m.id, "card": m.card, "name": state.label(m), "owner": m.owner, "x": round(m.x, 2), "y": round(m.y, 2),
            "placed": m.placed, "activated": m.activated, "stunned": m.stunned, "removed": m.removed,
            "armour": m.armour, "boost": m.boost, "hex": m.hex, "reroll_armed": m.reroll_armed,
            "huge": core.has(state, m, "huge"), "radius": core.radius(state, m)}


def view(engine, state, viewer: str) -> dict:
    gm = viewer == GM
    secret_team = bool(state.house_rules.get("secret_team")) and len(state.team_choice) < 2
    used = set(state.revealed) | {c for p in state.seats for c in state.picks[p]} | set(state.discarded)
    v: dict = {
        "system": "klash",
        "viewer": viewer,
        "phase": state.phase,
        "seats": list(state.seats),
        "player_a": state.player_a,
        "player_b": state.player_b,
        "house_rules": dict(state.house_rules),
        "pack": {"name": state.pack_name, "sample": state.sample},
        "cards": {cid: state.cards[cid] for cid in sorted(used)},
        "draft": {
            "round": state.draft_round,
            "revealed": list(state.revealed),
            "picker": engine.picker(state) if state.phase == "draft" else "",
            "picks": {p: list(state.picks[p]) for p in state.seats},
            "discarded": list(state.discarded),
            "deck_left": len(state.char_deck),
            "log": [list(x) for x in state.draft_log],
        },
        "team": {
            "chosen": {p: (list(state.team_choice[p]) if (not secret_team or p == viewer or gm) else "locked")
                       for p in state.team_choice},
            "team_vp": dict(state.team_vp),
        },
        "arena": {"diameter": arena.DIAMETER, "centre": list(arena.CENTRE), "altar_radius": arena.ALTAR_RADIUS,
                  "gate_radius": arena.GATE_RADIUS, "gates": [list(g) for g in arena.GATES],
                  "gate_of": dict(state.gates), "base_normal": arena.BASE_NORMAL, "base_large": arena.BASE_LARGE},
        "models": [_model(state, m) for m in state.models],
        "deploy_turn": state.deploy_turn,
        "match": {
            "hourglass": state.hourglass,
            "stage": state.stage,
            "initiative": dict(state.initiative),
            "init_winner": state.init_winner,
            "turn_player": state.turn_player,
            "active": ({"model": state.acts[-1].model, "controller": state.acts[-1].controller,
                        "actions_used": state.acts[-1].used, "actions_allowed": state.acts[-1].allowed,
                        "dominated": state.acts[-1].dominated} if state.acts else None),
            "tokens": dict(state.tokens),
            "vp": dict(state.vp),
            "vp_log": [list(x) for x in state.vp_log],
            "cast_this_phase": list(state.cast),
        },
        "event_deck": {
            "deck": len(state.event_deck.cards),
            "discards": len(state.event_deck.discards),
            "hand_sizes": {p: len(state.hands[p]) for p in state.seats},
            "stack": [{"player": e["player"], "card": e["card"], "target": e["target"]} for e in state.stack],
        },
        "result": {"over": state.over, "winner": state.winner, "result": state.result},
    }
    if viewer in state.seats:
        v["hand"] = [{"card": c, **state.event_cards[c]} for c in state.hands[viewer]]
    if gm:
        v["hands"] = {p: list(state.hands[p]) for p in state.seats}
        v["dice_queue"] = list(state.dice_queue)
    return v
