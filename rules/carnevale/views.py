"""What each viewer may see. Secrets in Carnevale: each player's Agenda (until the end) and the
magical item a squad carries (equipment is shown to the opponent, magical items are not)."""
from __future__ import annotations

from rules.common import GM, term

from . import tables
from .mechanics import attr, pain_penalty, thresholds
from .squad import squad_name
from .state import GameState, ModelState


def model_view(state: GameState, m: ModelState, viewer: str) -> dict:
    secret_ok = viewer == GM or viewer == m.owner or state.over or "diamond" in m.used_once \
        or "infusion" in m.used_once
    abilities = list(m.abilities) + list(m.item_abilities) + (list(m.magic_abilities) if secret_ok else [])
    effects_abilities = [{"name": e.ability, "x": e.x} for e in m.effects if e.kind == "ability"]
    return {
        "uid": m.uid, "owner": m.owner, "name": m.name, "profile": m.profile, "faction": m.faction,
        "size": m.size, "cost": m.cost,
        "ap": m.ap, "ap_max": m.ap_max,
        "attributes": {k: attr(m, k, state) for k in ("MOV", "COM", "DEX", "SHO", "MIN", "PRO")},
        "base_attributes": dict(m.attrs),
        "karma": m.karma, "karma_max": m.karma_max, "command": m.command, "command_max": m.command_max,
        "life_track": list(m.life_track), "damage": m.damage, "life_left": m.life_left, "life": m.life,
        "thresholds": thresholds(m.life_track), "pain_penalty": pain_penalty(m),
        "stunned": m.stunned, "activated": m.activated, "active": state.active == m.uid,
        "at_ready": m.at_ready, "hidden": m.hidden, "in_water": m.in_water, "drowning": m.drowning,
        "immobilised": m.immobilised, "fleeing": m.fleeing, "in_darkness": m.in_darkness,
        "petrified": m.petrified, "carrying": m.carrying, "on_gondola": m.on_gondola, "gondola": m.gondola,
        "entering": m.entering,
        "fallen": m.fallen, "fled": m.fled, "evacuated": m.evacuated, "on_table": m.on_table,
        "leader": state.players[m.owner].leader == m.uid if m.owner in state.players else False,
        "descriptors": list(m.descriptors),
        "abilities": [{"name": a["name"], **({"x": a["x"]} if "x" in a else {})} for a in abilities]
        + effects_abilities,
        "specials": [s["name"] for s in m.specials],
        "weapons": [{"name": w.name, "kind": w.kind, "damage": w.damage_dice or w.damage, "range": w.range,
                     "loaded": w.loaded, "jammed": w.jammed, "destroyed": w.destroyed} for w in m.weapons],
        "equipment": [i for i in m.items if i != m.magic_item or secret_ok],
        "magic_item": m.magic_item if secret_ok else ("hidden" if m.magic_item else ""),
        "spells": list(m.spells), "casts_this_round": m.casts_this_round, "cast_locked": m.cast_locked,
        "next_spell_cost": 1 + m.casts_this_round,
        "effects": [{"name": e.name, "kind": e.kind, "attr": e.attr, "delta": e.delta, "expires": e.expires}
                    for e in m.effects],
    }


def game_view(engine, state: GameState, viewer: str) -> dict:
    players = {}
    for pid in state.seats:
        p = state.players[pid]
        show = viewer == GM or viewer == pid or state.over
        players[pid] = {
            "name": p.name, "squad": squad_name(p.squad, p.squad_built_by), "faction": p.faction, "leader": p.leader,
            "events_left": p.events_left, "vp": p.vp, "objective": p.objective, "chain_used": p.chain_used,
            "points": p.points, "vials": p.vials,
            # the Agenda's name and condition are terms: the reader's catalogue words them
            "agenda": ({"roll": p.agenda, "name": term(f"agenda_{p.agenda}"), "vp": tables.AGENDAS[p.agenda][1],
                        "condition": term(f"agenda_{p.agenda}_condition")} if p.agenda else None) if show else None,
        }
    return {
        "system": "carnevale", "schema": state.schema, "viewer": viewer, "adventure": state.adventure,
        "round": state.round, "max_rounds": state.max_rounds, "phase": state.phase, "turn": state.turn,
        "first_player": state.first_player, "turn_player": state.turn_player, "active": state.active,
        "deploy_first": state.deploy_first, "initiative": state.initiative,
        "players": players, "seats": list(state.seats),
        "models": [model_view(state, m, viewer) for m in state.models.values()],
        "last_roll": {k: v for k, v in state.last_roll.items() if k != "result"}
        | ({"result": state.last_roll["result"]} if "result" in state.last_roll else {}),
        "log": list(state.log[-15:]), "house_rules": dict(state.house_rules),
        "aqua_alta": bool(state.aqua_alta), "geyser": state.geyser, "good_cover": bool(state.good_cover), "mad_minute": list(state.mad_minute), "fountains": state.fountains,
        "fixed_first": state.fixed_first,
        "over": state.over, "winner": state.winner, "result": state.result if state.over else {},
    }


def squad_view(pack, squad, player: str = "owner", viewer: str | None = None) -> dict:
    """A view-shaped dict of a squad outside any game (for `/carnevale squad show` and its sheet).

    `viewer` defaults to the owner (everything shown); any other viewer (e.g. PUBLIC, when the
    sheet is posted in a channel) sees the magical item only as "hidden", as in a game."""
    from rules.common import Rng

    from .squad import make_model, squad_cost, validate_squad
    from .state import PlayerState

    models = {}
    leader = ""
    for i, member in enumerate(squad.members):
        uid = f"m{i + 1}"
        models[uid] = make_model(pack, member, player, uid)
        models[uid].ap = models[uid].ap_max
        if member.leader:
            leader = uid
    state = GameState(rng=Rng(0), seats=[player], players={player: PlayerState(
        id=player, name=player, squad=squad.name, faction=squad.faction, squad_built_by=squad.built_by,
        leader=leader)}, models=models)
    name = squad_name(squad.name, squad.built_by)
    return {
        "system": "carnevale", "squad": name, "faction": squad.faction, "points_limit": squad.points_limit,
        "cost": squad_cost(pack, squad) if not any(m.profile not in pack.profiles for m in squad.members) else None,
        "events": squad.events, "round": 0, "max_rounds": 0,
        # a refusal may name the magical item: only the owner reads the reasons
        "problems": validate_squad(pack, squad) if viewer in (None, player) else [],
        "players": {player: {"name": player, "squad": name, "faction": squad.faction, "leader": leader}},
        "models": [model_view(state, m, player if viewer is None else viewer) for m in models.values()],
    }
