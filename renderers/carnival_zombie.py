"""Carnival Zombie images, drawn from `view_for` dicts only (so an image never shows more than its viewer may see).

- `venice_map(view)`: Locations and Alleys (with +1/+2 costs), sunken Locations, the Group, Finale and
  Special icons, the forced Dawn direction and the route costs during Group Movement.
- `tactical_map(view)`: the Refuge with its Characters and Fortifications, the 24 Barricade boxes,
  8 Caves x 3 Rings with cube counts by type, Bosses with Wounds, Obstacles.
- `strip(view)`: Clock, Calendar and Terror Track.
- `board(view)`: the map of the moment (Venice by Day, tactical by Night) above the strip.
All functions return PNG bytes. Schematic drawings only.

Words: `view["words"]` (finished strings from the presenter, in the table's language: the cog adds
them) over the English `WORDS`; names of Terrains, Infected and Finales come from the pack
(`view["names"]`), never clipped.
"""
from __future__ import annotations

import math

from PIL import Image

from .common import BLUE, GOLD, GREEN, GREY, INK, PAPER, RED, canvas, font, png_bytes

CUBE_COLOURS = {"G": (120, 120, 120), "M": (140, 70, 170), "B": (235, 235, 235), "V": (70, 150, 60),
                "S": (50, 90, 200), "P": (20, 20, 20), "#": (140, 90, 40)}
WATER = (196, 214, 226)
FINALE_ICONS = {"bridge": "B", "boat": "⚓", "airship": "A", "holy_bomb": "✝"}
SLOT_MARKS = {"sunrise": "◓", "sunset": "◒", "dawn": "✦"}
BROWN = (140, 90, 40)
PIT_ANGLE = {"N": -90, "E": 0, "S": 90, "W": 180}
# Caves around the Refuge, clockwise from just right of North: N1 is on the right looking out.
CAVE_ANGLE = {"N1": -67.5, "E2": -22.5, "E1": 22.5, "S2": 67.5, "S1": 112.5, "W2": 157.5, "W1": 202.5,
              "N2": 247.5}


# The words an image shows when the cog gave none (a direct call, a test): English.
WORDS = {"venice": "Venice", "venice_provisional": "Venice (provisional map)", "day": "Day",
         "banner": "", "storage": "", "result": "", "paranoia": "Paranoia", "incapacitated": "INCAPACITATED",
         "cube_S": "Survivor", "cube_P": "Paranoia", "cube_#": "Barricade", "special": "Special Action"}


def _w(view: dict, key: str) -> str:
    return (view.get("words") or {}).get(key) or WORDS.get(key, "")


def _name(view: dict, kind: str, key: str) -> str:
    """A Terrain, Infected or Finale as the pack names it (the id when the view has no names)."""
    return str(((view.get("names") or {}).get(kind) or {}).get(key, key))


def _txt(draw, xy, text, size=12, fill=INK, bold=False, anchor="mm"):
    draw.text(xy, str(text), fill=fill, font=font(size, bold), anchor=anchor)


# ------------------------------------------------------------------------------ Venice
def _venice(view: dict, width: int = 760, height: int = 560) -> Image.Image:
    image, draw = canvas(width, height, WATER)
    m = view["map"]
    locs = {loc["id"]: loc for loc in m["locations"]}
    xs = [loc["x"] for loc in locs.values()]
    ys = [loc["y"] for loc in locs.values()]
    pad = 70
    sx = (width - 2 * pad) / max(1, max(xs) - min(xs))
    sy = (height - 2 * pad - 30) / max(1, max(ys) - min(ys))

    def pos(loc_id):
        loc = locs[loc_id]
        return (pad + (loc["x"] - min(xs)) * sx, 30 + pad + (max(ys) - loc["y"]) * sy)

    route = {mv["to"]: mv for mv in m.get("moves", [])}
    for a, _d, b, extra in m["alleys"]:
        pa, pb = pos(a), pos(b)
        hot = (a == m["group_at"] and b in route) or (b == m["group_at"] and a in route)
        draw.line([pa, pb], fill=GOLD if hot else (90, 80, 70), width=5 if hot else 3)
        if extra:
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            draw.ellipse([mid[0] - 11, mid[1] - 11, mid[0] + 11, mid[1] + 11], fill=PAPER, outline=RED)
            _txt(draw, mid, f"+{extra}", 11, RED, True)
    for loc_id, loc in locs.items():
        x, y = pos(loc_id)
        sunk = loc_id in m["sunken"]
        fill = (110, 140, 170) if sunk else PAPER
        draw.ellipse([x - 24, y - 24, x + 24, y + 24], fill=fill, outline=INK, width=2)
        _txt(draw, (x, y - 5), loc_id, 15, INK, True)
        _txt(draw, (x, y + 34), loc["name"], 10)
        tags = []
        if loc.get("special"):
            tags.append(("★", GOLD))
        for f in loc.get("finale", []):
            tags.append((FINALE_ICONS.get(f, "F"), RED))
        for k, (tag, colour) in enumerate(tags):
            _txt(draw, (x - 8 + 14 * k, y + 12), tag, 11, colour, True)
        if sunk:
            draw.line([x - 18, y - 18, x + 18, y + 18], fill=BLUE, width=3)
        if loc_id in route:
            draw.rectangle([x + 16, y - 34, x + 44, y - 18], fill=GOLD)
            _txt(draw, (x + 30, y - 26), f"{route[loc_id]['cost']}h", 10, INK, True)
    gx, gy = pos(m["group_at"])
    draw.ellipse([gx - 30, gy - 30, gx + 30, gy + 30], outline=RED, width=4)
    if m.get("forced_dir"):
        ang = math.radians(PIT_ANGLE[m["forced_dir"]])
        draw.line([gx, gy, gx + 55 * math.cos(ang), gy + 55 * math.sin(ang)], fill=RED, width=4)
    # compass
    _txt(draw, (width - 40, 30), "N", 14, INK, True)
    draw.line([width - 40, 42, width - 40, 70], fill=INK, width=2)
    title = _w(view, "venice_provisional" if view.get("provisional") else "venice")
    _txt(draw, (12, 14), title, 14, INK, True, anchor="lm")
    # legend: the icons under the Locations
    finales = sorted({f for loc in locs.values() for f in loc.get("finale", [])})
    legend = [("★", _w(view, "special"))] + [(FINALE_ICONS.get(f, "F"), _name(view, "finales", f)) for f in finales]
    x = 12
    for icon, words in legend:
        _txt(draw, (x, height - 14), icon, 11, GOLD if icon == "★" else RED, True, anchor="lm")
        _txt(draw, (x + 14, height - 14), words, 10, INK, anchor="lm")
        x += 30 + int(draw.textlength(words, font=font(10)))
    return image


def venice_map(view: dict) -> bytes:
    return png_bytes(_venice(view))


# ------------------------------------------------------------------------------ Night
def _polar(cx, cy, r, deg):
    a = math.radians(deg)
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _tactical(view: dict, size: int = 640) -> Image.Image:
    image, draw = canvas(size, size)
    night = view.get("night")
    cx = cy = size / 2
    ring_r = [70, 120, 185, 255, 310]   # refuge, boxes, I, II, III (outer radii)
    for k in (4, 3, 2, 1):
        draw.ellipse([cx - ring_r[k], cy - ring_r[k], cx + ring_r[k], cy + ring_r[k]], outline=GREY, width=1,
                     fill=(235, 228, 214) if k > 1 else (225, 210, 190))
    for cave, ang in CAVE_ANGLE.items():
        a0 = ang - 22.5
        p1, p2 = _polar(cx, cy, ring_r[1], a0), _polar(cx, cy, ring_r[4], a0)
        draw.line([p1, p2], fill=GREY, width=1)
        _txt(draw, _polar(cx, cy, ring_r[4] - 10, ang), cave, 11, INK, True)
    draw.ellipse([cx - ring_r[0], cy - ring_r[0], cx + ring_r[0], cy + ring_r[0]], fill=PAPER, outline=INK, width=2)
    draw.line([cx - ring_r[0], cy, cx + ring_r[0], cy], fill=INK)
    draw.line([cx, cy - ring_r[0], cx, cy + ring_r[0]], fill=INK)
    if not night:
        _txt(draw, (cx, cy), _w(view, "day"), 16, INK, True)
        return image
    chars = {c["id"]: c for c in view["characters"]}
    for pit, ang in PIT_ANGLE.items():
        px, py = _polar(cx, cy, 36, ang + 45 - 45)
        names = [chars[c]["name"][:3] for c in night["refuge"].get(pit, [])]
        fort = night["forts"].get(pit)
        _txt(draw, (px, py - 10), pit, 10, BROWN if fort else INK, True)
        if fort:           # the Fortification's name, whole, just outside the Refuge
            _txt(draw, _polar(cx, cy, ring_r[0] + 12, ang), _name(view, "terrains", fort), 8, BROWN, True)
        for row in range(0, len(names), 3):
            _txt(draw, (px, py + 3 + 10 * (row // 3)), " ".join(names[row:row + 3]), 9)
    bosses = {f"@{b['slot'] - 1}": b for b in view["bosses"]}
    for cave, ang in CAVE_ANGLE.items():
        for k, occ in enumerate(night["boxes"][cave]):
            bx, by = _polar(cx, cy, 95, ang - 15 + 15 * k)
            colour = CUBE_COLOURS["#"] if occ == "#" else (CUBE_COLOURS.get(occ, RED) if occ else (214, 198, 176))
            draw.rectangle([bx - 7, by - 7, bx + 7, by + 7], fill=colour, outline=INK if occ else GREY)
            if occ.startswith("@"):
                _txt(draw, (bx, by), "B", 9, PAPER, True)
        for ring in (1, 2, 3):
            r = (ring_r[ring] + ring_r[ring + 1]) / 2
            sp = f"{cave}.{ring}"
            cubes = night["rings"].get(sp, {})
            obstacle = night["obstacles"].get(sp)
            x0, y0 = _polar(cx, cy, r, ang)
            if obstacle:
                _txt(draw, (x0, y0 - 22), _name(view, "terrains", obstacle), 8, RED, True)
            items = [(code, n) for code, n in sorted(cubes.items()) if n]
            for j, (code, n) in enumerate(items):
                x = x0 - 18 + 13 * (j % 4)
                y = y0 - 6 + 13 * (j // 4)
                draw.rectangle([x - 5, y - 5, x + 5, y + 5], fill=CUBE_COLOURS.get(code, GREY), outline=INK)
                _txt(draw, (x, y + 10), n, 8)
            here = [b for b in bosses.values() if b["pos"] == sp]
            for j, b in enumerate(here):
                label = f"{b['name']} {b['wounds']}/{b['life']}" + (" S" if b["survivor"] else "")
                _txt(draw, (x0, y0 + 24 + 11 * j), label, 8, GREY if b["survivor"] else RED, True)
    boxed = [b for b in bosses.values() if b["pos"].endswith(".b")]
    for j, b in enumerate(boxed):
        _txt(draw, (10, size - 36 - 14 * j), f"{b['name']}: {b['pos'][:2]} ▣ {b['wounds']}/{b['life']}",
             10, RED, True, anchor="lm")
    hour = night["hour"]
    banner = _w(view, "banner") or (f"Night {view['calendar']['ticket']} - " + (
        "Dawn" if hour > view["clock"]["night_hours"] else f"Hour {hour}"))
    _txt(draw, (10, 14), banner, 13, INK, True, anchor="lm")
    _legend(draw, view, 10, size - 14)
    return image


def _legend(draw, view: dict, x: int, y: int) -> None:
    """What the cube colours mean: the pack's Infected, then Survivors, Paranoia and Barricades."""
    infected = (view.get("names") or {}).get("infected") or {}
    for code in [*infected, "S", "P", "#"]:
        if code not in CUBE_COLOURS:
            continue
        draw.rectangle([x, y - 5, x + 10, y + 5], fill=CUBE_COLOURS[code], outline=INK)
        words = infected.get(code) or _w(view, f"cube_{code}")
        _txt(draw, (x + 14, y), words, 9, INK, anchor="lm")
        x += 22 + int(draw.textlength(words, font=font(9)))


def tactical_map(view: dict) -> bytes:
    return png_bytes(_tactical(view))


# ------------------------------------------------------------------------------ strip
def _strip(view: dict, width: int = 760) -> Image.Image:
    chars = view["characters"]
    track = view["terror_track"]
    height = 90 + 22 * len(chars)
    image, draw = canvas(width, height)
    clock, cal = view["clock"], view["calendar"]
    x = 10
    for t in (1, 2, 3):
        for half in ("day", "night"):
            here = cal["ticket"] == t and cal["half"] == half
            draw.rectangle([x, 10, x + 56, 40], fill=GOLD if here else PAPER, outline=INK)
            _txt(draw, (x + 28, 19), f"{t} {'☀' if half == 'day' else '☾'}", 11, INK, here)
            if half == "night" and isinstance(cal["bosses"], dict):
                _txt(draw, (x + 28, 32), f"{cal['bosses'][t]} ☠", 9, RED)
            x += 60
    x += 20
    slots = ["sunrise"] + [f"day{h}" for h in range(1, 5)] + ["sunset"] + \
            [f"night{h}" for h in range(1, clock["night_hours"] + 1)] + ["dawn"]
    now = clock["phase"] + (str(clock["hour"]) if clock["phase"] in ("day", "night") else "")
    for slot in slots:
        here = slot == now
        colour = (250, 220, 120) if slot.startswith(("day", "sunrise")) else (170, 180, 215)
        draw.rectangle([x, 10, x + 32, 40], fill=RED if here else colour, outline=INK)
        # Hours by number; Sunrise, Sunset and Dawn by a symbol (no word to clip)
        mark = SLOT_MARKS.get(slot) or slot.lstrip("daynight")
        _txt(draw, (x + 16, 25), mark, 11, PAPER if here else INK, True)
        x += 34
        if x > width - 40:
            break
    y = 60
    cell = min(40, (width - 170) // (track["spaces"] + 2))
    for c in sorted(chars, key=lambda c: c["order"]):
        star = "★ " if c["order"] == 1 else ""
        _txt(draw, (10, y + 8), f"{star}{c['order']}. {c['name'][:18]}", 11, INK, c["order"] == 1, anchor="lm")
        for k in range(track["spaces"] + 1):
            x0 = 160 + k * cell
            fill = (230, 170, 170) if k >= track["terror_from"] else PAPER
            draw.rectangle([x0, y, x0 + cell - 2, y + 16], fill=fill, outline=GREY)
            if not c["incapacitated"] and c["stress"] == k:
                draw.ellipse([x0 + 3, y + 2, x0 + cell - 5, y + 14], fill=INK)
        if c["incapacitated"]:
            _txt(draw, (160 + (track["spaces"] + 1) * cell + 8, y + 8), _w(view, "incapacitated"), 10, RED, True,
                 anchor="lm")
        elif c["paranoia"]:
            _txt(draw, (160 + (track["spaces"] + 1) * cell + 8, y + 8), _w(view, "paranoia"), 10, INK, True,
                 anchor="lm")
        y += 22
    st = view["storage"]
    storage = _w(view, "storage") or (f"Storage: {st.get('#', 0)} Barricades, {st.get('S', 0)} Survivors   "
                                      f"Abyss: {sum(view['abyss'].values())} cubes   Pile: {sum(view['pile'].values())}")
    _txt(draw, (10, height - 12), storage, 10, INK, anchor="lm")
    if view.get("over"):
        result = _w(view, "result") or f"{view['result'].upper()}: {view['reason']}"
        _txt(draw, (width - 10, height - 12), result, 10, GREEN if view["result"] == "win" else RED, True, anchor="rm")
    return image


def strip(view: dict) -> bytes:
    return png_bytes(_strip(view))


def board(view: dict) -> bytes:
    top = _tactical(view) if view.get("night") else _venice(view)
    bottom = _strip(view, width=max(top.width, 760))
    image = Image.new("RGB", (max(top.width, bottom.width), top.height + bottom.height), PAPER)
    image.paste(top, (0, 0))
    image.paste(bottom, (0, top.height))
    return png_bytes(image)
