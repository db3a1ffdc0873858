"""What each viewer may see. The rulebook has no hidden information: everything on the table is
public. Hidden only: the order of the decks and of the Abyss draws (the Rng), and the traitor of
"Just a Matter of Time" (shown to that player and to the GM only)."""
from __future__ import annotations

from rules.common import GM

from .state import CAVES, PITS


def census(s) -> dict:
    """Where every cube is: {colour code: {place: n}} plus 'total' (must stay 195)."""
    places: dict[str, dict[str, int]] = {}

    def add(code: str, place: str, n: int) -> None:
        if n:
            places.setdefault(code, {})
            places[code][place] = places[code].get(place, 0) + n

    for code, n in s.abyss.items():
        add(code, "abyss", n)
    for code, n in s.pile.items():
        add(code, "pile", n)
    for code, n in s.storage.items():
        add(code, "storage", n)
    for code, n in s.supply.items():
        add(code, "supply", n)
    for code, n in s.gamebox.items():
        add(code, "gamebox", n)
    for ch in s.characters:
        if ch.paranoia:
            add("P", "characters", 1)
    for b in s.boss_area:
        if b:
            add("W", "bosses", b.cubes)
            if b.survivor:
                add("S", "bosses", 1)
    if s.night:
        for _sp, cubes in s.night.rings.items():
            for code, n in cubes.items():
                add(code, "map", n)
        for _cv, box in s.night.boxes.items():
            for x in box:
                if x and not x.startswith("@"):
                    add(x, "map", 1)
    if s.phase == "story" and isinstance(s.ctx, dict):
        for code, n in (s.ctx.get("drawn") or {}).items():
            add(code, "aside", n)
    h = s.ctx.get("hit") if isinstance(s.ctx, dict) else None
    for code in (h or {}).get("killed", ()):
        add(code, "aside", 1)
    spill = s.ctx.get("spill") if isinstance(s.ctx, dict) else None
    for code, n in ((spill or {}).get("cubes") or {}).items():
        add(code, "aside", n)
    total = sum(sum(v.values()) for v in places.values())
    return {"by_colour": places, "total": total, "in_hand": bool(h)}


def view(eng, s, c, viewer: str) -> dict:
    first = eng.first_player(s)
    chars = []
    for ch in s.characters:
        cd = c.characters[ch.id]
        chars.append({
            "id": ch.id, "name": cd["name"], "player": ch.controller, "group_character": not ch.controller,
            "order": ch.order, "stress": ch.stress, "terror": ch.stress >= c.terror_from and not ch.incapacitated,
            "incapacitated": ch.incapacitated, "paranoia": ch.paranoia, "refuge": ch.refuge,
            "order_token": ch.order_token,
            "items": [{"id": it, "name": c.items[it]["name"], "kind": c.items[it]["kind"]} for it in ch.items],
            "assault": list(cd["assault"]), "firearm": dict(cd["firearm"]),
            "day_ability": cd["day_ability"], "night_ability": cd["night_ability"],
        })
    bosses = []
    for k, b in enumerate(s.boss_area):
        if b:
            bd = c.bosses[b.boss]
            bosses.append({"slot": k + 1, "id": b.boss, "name": bd["name"], "attack": bd["attack"], "life": bd["life"],
                           "move": bd["move"], "power": bd.get("power", "none"), "wounds": b.wounds,
                           "pos": b.pos, "survivor": b.survivor, "provisional": bool(bd.get("placeholder"))})
    night = None
    if s.night:
        nt = s.night
        night = {
            "hour": nt.hour, "rings": {sp: {k: v for k, v in cubes.items() if v} for sp, cubes in nt.rings.items()},
            "boxes": {cv: list(nt.boxes[cv]) for cv in CAVES}, "obstacles": dict(nt.obstacles),
            "forts": dict(nt.forts), "dawn_pit": nt.dawn_pit, "finale": nt.finale, "hull": nt.hull,
            "refuge": {p: [ch.id for ch in s.characters if ch.refuge == p and not ch.incapacitated] for p in PITS},
        }
    moves = []
    if s.stage == "move" and not s.over:
        moves = [{"dir": d, "to": dest, "cost": cost} for d, dest, cost in eng.move_options(s)]
    out = {
        "system": "carnival_zombie", "ruleset": c.pack.get("ruleset", ""), "provisional": bool(c.pack.get("provisional")),
        "viewer": viewer, "seats": list(s.seats), "first_player": first,
        "difficulty": s.difficulty, "scenario": s.scenario, "scenario_name": c.scenarios[s.scenario]["name"],
        "house_rules": dict(s.house_rules),
        "phase": s.phase, "stage": s.stage,
        "calendar": {"ticket": s.ticket, "half": s.half,
                     "bosses": {t: c.calendar[t][s.difficulty] for t in (1, 2, 3)}},
        "clock": {"phase": s.clock, "hour": s.hour, "night_hours": eng.night_hours(s)},
        "terror_track": {"spaces": c.track, "terror_from": c.terror_from},
        "map": {
            "group_at": s.group_at, "sunken": list(s.sunken), "forced_dir": s.forced_dir,
            "airship_called": s.airship_called, "moves": moves,
            "locations": [{"id": loc["id"], "name": loc["name"], "x": loc["x"], "y": loc["y"],
                           "special": loc.get("special", ""), "finale": list(loc.get("finale", ())),
                           "terrains": [loc.get("black", 0), loc.get("blue", 0), loc.get("forts", 0)]}
                          for loc in c.pack["map"]["locations"]],
            "alleys": [list(a) for a in c.pack["map"]["alleys"]],
        },
        "names": {"terrains": {k: v["name"] for k, v in c.terrains.items()},
                  "infected": {k: c.infected[k]["name"] for k in c.infected_order},
                  "finales": {k: v["name"] for k, v in c.finales.items()}},
        "characters": chars,
        "bosses": bosses,
        "storage": dict(s.storage), "supply": dict(s.supply), "abyss": {k: v for k, v in s.abyss.items() if v},
        "pile": {k: v for k, v in s.pile.items() if v},
        "decks": {"nightmare": len(s.nightmare), "nightmare_discard": len(s.nightmare_discard),
                  "bosses": len(s.boss_deck), "items": {k: len(v) for k, v in s.item_decks.items()}},
        "night": night,
        "log": list(s.log[-12:]),
        "waiting_for": ([{"prompt": p.id, "player": p.player, "kind": p.kind, "args": dict(p.args)}
                         for p in eng.pending(s)]),
        "over": s.over, "result": s.result, "reason": s.reason, "reason_args": dict(s.reason_args), "score": s.score,
    }
    if s.traitor and (viewer == GM or viewer == s.traitor or s.unmasked or s.over):
        out["traitor"] = s.traitor
        if viewer in (GM, s.traitor):
            out["sabotage"] = {"cave": s.sabotage, "used_this_night": s.sabotage_night == s.ticket,
                               "unmasked": s.unmasked}
    return out
