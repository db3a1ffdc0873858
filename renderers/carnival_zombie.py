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

from rules.common.packs import in_language

from .common import (BLUE, GOLD, GREEN, GREY, INK, PAPER, RED, Pen, blank, canvas, fit, palette_png, paste,
                     per_scale, size_of, stamp, text_width)

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


# Every colour the pictures use, and the grounds they are drawn on: the palette the PNGs are encoded
# with is made of these and their anti-aliased blends (see `_png`).
PURE = (PAPER, INK, WATER, RED, BLUE, GREEN, GREY, GOLD, BROWN, *CUBE_COLOURS.values(), (110, 140, 170), (90, 80, 70),
        (235, 228, 214), (225, 210, 190), (214, 198, 176), (250, 220, 120), (170, 180, 215), (230, 170, 170))
GROUNDS = (PAPER, WATER, (235, 228, 214), (225, 210, 190), (214, 198, 176), GOLD, RED, (110, 140, 170),
           (250, 220, 120), (170, 180, 215), (230, 170, 170), INK)


def _png(image: Image.Image) -> bytes:
    return palette_png(image, PURE, GROUNDS)


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
    stamp(draw, xy, text, size, fill, bold, anchor)


# ------------------------------------------------------------------------------ Venice
def _venice_key(view: dict, width: int, height: int) -> tuple:
    """What the Venice map's static layers are drawn from: the pack's map and the words they show
    (a cache key of values, never of object identity)."""
    m = view["map"]
    locations = tuple((loc["id"], loc["name"], loc["x"], loc["y"], bool(loc.get("special")),
                       tuple(loc.get("finale", ()))) for loc in m["locations"])
    finales = tuple(sorted({f for loc in m["locations"] for f in loc.get("finale", [])}))
    words = (_w(view, "venice_provisional" if view.get("provisional") else "venice"), _w(view, "special"),
             tuple(_name(view, "finales", f) for f in finales))
    return locations, tuple(tuple(a) for a in m["alleys"]), words, width, height


class _Layout:
    """Where each Location sits on a Venice map of this size."""

    def __init__(self, locations: tuple, width: int, height: int, pad: int = 70):
        xs = [loc[2] for loc in locations]
        ys = [loc[3] for loc in locations]
        sx = (width - 2 * pad) / max(1, max(xs) - min(xs))
        sy = (height - 2 * pad - 30) / max(1, max(ys) - min(ys))
        self.at = {loc[0]: (pad + (loc[2] - min(xs)) * sx, 30 + pad + (max(ys) - loc[3]) * sy) for loc in locations}


def _location(draw, x: float, y: float, number, tags: list, sunk: bool) -> None:
    """A Location's disc with its number and icons (its name goes under it, in the static layer)."""
    draw.ellipse([x - 24, y - 24, x + 24, y + 24], fill=(110, 140, 170) if sunk else PAPER, outline=INK, width=2)
    _txt(draw, (x, y - 5), number, 15, INK, True)
    for k, (tag, colour) in enumerate(tags):
        _txt(draw, (x - 8 + 14 * k, y + 12), tag, 11, colour, True)
    if sunk:
        draw.line([x - 18, y - 18, x + 18, y + 18], fill=BLUE, width=3)


def _tags(special: bool, finales: tuple) -> list:
    return ([("★", GOLD)] if special else []) + [(FINALE_ICONS.get(f, "F"), RED) for f in finales]


@per_scale(maxsize=16)
def _venice_layers(key: tuple) -> tuple[Image.Image, Image.Image, Image.Image]:
    """The map's static layers, drawn once per map and language: the water with every Alley (under),
    and the Locations, +1/+2 costs, compass, title and legend (over, pasted through its mask), so a
    step only draws what moves (highlighted Alleys, sunken Locations, the Group, the route costs)."""
    locations, alleys, (title, special, finale_names), width, height = key
    at = _Layout(locations, width, height).at
    under, draw = canvas(width, height, WATER)
    for a, _d, b, _extra in alleys:
        draw.line([at[a], at[b]], fill=(90, 80, 70), width=3)
    over = blank(width, height, PAPER)
    mask = blank(width, height, 0, "L")
    for target, fill in ((over, None), (mask, 255)):
        d = Pen(target)
        for a, _d, b, extra in alleys:
            if extra:
                pa, pb = at[a], at[b]
                mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
                d.ellipse([mid[0] - 11, mid[1] - 11, mid[0] + 11, mid[1] + 11], fill=fill or PAPER, outline=fill or RED)
                _txt(d, mid, f"+{extra}", 11, fill or RED, True)
        for loc_id, name, _x, _y, is_special, finales in locations:
            x, y = at[loc_id]
            if fill is None:
                _location(d, x, y, loc_id, _tags(is_special, finales), False)
            else:
                d.ellipse([x - 24, y - 24, x + 24, y + 24], fill=fill)
            _txt(d, (x, y + 34), name, 10, fill or INK)
        _txt(d, (width - 40, 30), "N", 14, fill or INK, True)
        d.line([width - 40, 42, width - 40, 70], fill=fill or INK, width=2)
        _txt(d, (12, 14), title, 14, fill or INK, True, anchor="lm")
        x = 12
        finales_shown = sorted({f for loc in locations for f in loc[5]})
        for icon, words in [("★", special)] + [(FINALE_ICONS.get(f, "F"), n) for f, n in zip(finales_shown, finale_names)]:
            _txt(d, (x, height - 14), icon, 11, fill or (GOLD if icon == "★" else RED), True, anchor="lm")
            _txt(d, (x + 14, height - 14), words, 10, fill or INK, anchor="lm")
            x += 30 + int(text_width(words, 10))
    return under, over, mask


def _venice(view: dict, width: int = 760, height: int = 560) -> Image.Image:
    key = _venice_key(view, width, height)
    under, over, mask = _venice_layers(key)
    at = _Layout(key[0], width, height).at
    image = under.copy()
    draw = Pen(image)
    m = view["map"]
    route = {mv["to"]: mv for mv in m.get("moves", [])}
    for a, _d, b, _extra in m["alleys"]:
        if (a == m["group_at"] and b in route) or (b == m["group_at"] and a in route):
            draw.line([at[a], at[b]], fill=GOLD, width=5)
    paste(image, over, (0, 0), mask)
    for loc in m["locations"]:
        if loc["id"] in m["sunken"]:
            x, y = at[loc["id"]]
            _location(draw, x, y, loc["id"], _tags(bool(loc.get("special")), tuple(loc.get("finale", ()))), True)
    for loc_id in route:
        x, y = at[loc_id]
        draw.rectangle([x + 16, y - 34, x + 44, y - 18], fill=GOLD)
        _txt(draw, (x + 30, y - 26), f"{route[loc_id]['cost']}h", 10, INK, True)
    gx, gy = at[m["group_at"]]
    draw.ellipse([gx - 30, gy - 30, gx + 30, gy + 30], outline=RED, width=4)
    if m.get("forced_dir"):
        ang = math.radians(PIT_ANGLE[m["forced_dir"]])
        draw.line([gx, gy, gx + 55 * math.cos(ang), gy + 55 * math.sin(ang)], fill=RED, width=4)
    return image


def venice_map(view: dict) -> bytes:
    return _png(_venice(in_language(view, "en")))


# ------------------------------------------------------------------------------ Night
def _polar(cx, cy, r, deg):
    a = math.radians(deg)
    return cx + r * math.cos(a), cy + r * math.sin(a)


RING_R = (70, 120, 185, 255, 310)   # refuge, boxes, I, II, III (outer radii)
BOSS_LABEL = 80                     # the widest a Boss's line on a Ring space may be


@per_scale(maxsize=4)
def _tactical_base(size: int) -> Image.Image:
    """The Tactical Map itself (Rings, Caves and their names, the Refuge), drawn once per size."""
    image, draw = canvas(size, size)
    cx = cy = size / 2
    ring_r = RING_R
    for k in (4, 3, 2, 1):
        draw.ellipse([cx - ring_r[k], cy - ring_r[k], cx + ring_r[k], cy + ring_r[k]], outline=GREY, width=1,
                     fill=(235, 228, 214) if k > 1 else (225, 210, 190))
    for cave, ang in CAVE_ANGLE.items():
        a0 = ang - 22.5
        p1, p2 = _polar(cx, cy, ring_r[1], a0), _polar(cx, cy, ring_r[4], a0)
        draw.line([p1, p2], fill=GREY, width=1)
        # in the outer Ring's corner, clear of its cubes, counts and Boss lines (centred on `ang`)
        _txt(draw, _polar(cx, cy, ring_r[4] - 10, ang - 16), cave, 11, INK, True)
    draw.ellipse([cx - ring_r[0], cy - ring_r[0], cx + ring_r[0], cy + ring_r[0]], fill=PAPER, outline=INK, width=2)
    draw.line([cx - ring_r[0], cy, cx + ring_r[0], cy], fill=INK)
    draw.line([cx, cy - ring_r[0], cx, cy + ring_r[0]], fill=INK)
    return image


def _tactical(view: dict, size: int = 640) -> Image.Image:
    image = _tactical_base(size).copy()
    draw = Pen(image)
    night = view.get("night")
    cx = cy = size / 2
    ring_r = RING_R
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
                # fitted to a Ring space's width, else a long name runs into the next space or the boxes
                tail = f" {b['wounds']}/{b['life']}" + (" S" if b["survivor"] else "")
                label = fit(b["name"], BOSS_LABEL - text_width(tail, 8, True), 8, True) + tail
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
        x += 22 + int(text_width(words, 9))


def tactical_map(view: dict) -> bytes:
    return _png(_tactical(in_language(view, "en")))


# ------------------------------------------------------------------------------ strip
LINE = 16      # a line of the strip's 10-point text under the Terror Track


def _slots(night_hours: int) -> list[str]:
    return ["sunrise"] + [f"day{h}" for h in range(1, 5)] + ["sunset"] + \
           [f"night{h}" for h in range(1, night_hours + 1)] + ["dawn"]


def _ticket_box(draw, x: int, t: int, half: str, here: bool, bosses) -> None:
    draw.rectangle([x, 10, x + 56, 40], fill=GOLD if here else PAPER, outline=INK)
    _txt(draw, (x + 28, 19), f"{t} {'☀' if half == 'day' else '☾'}", 11, INK, here)
    if half == "night" and isinstance(bosses, dict):
        _txt(draw, (x + 28, 32), f"{bosses[t]} ☠", 9, RED)


def _slot_box(draw, x: int, slot: str, here: bool) -> None:
    colour = (250, 220, 120) if slot.startswith(("day", "sunrise")) else (170, 180, 215)
    draw.rectangle([x, 10, x + 32, 40], fill=RED if here else colour, outline=INK)
    # Hours by number; Sunrise, Sunset and Dawn by a symbol (no word to clip)
    mark = SLOT_MARKS.get(slot) or slot.lstrip("daynight")
    _txt(draw, (x + 16, 25), mark, 11, PAPER if here else INK, True)


def _strip_geometry(width: int, night_hours: int, spaces: int) -> tuple[list[tuple[int, str]], int]:
    """Where the Clock's slots sit (as many as fit) and the Terror Track's cell size."""
    x, placed = 10 + 6 * 60 + 20, []
    for slot in _slots(night_hours):
        placed.append((x, slot))
        x += 34
        if x > width - 40:
            break
    return placed, min(40, (width - 170) // (spaces + 2))


@per_scale(maxsize=16)
def _strip_base(width: int, rows: tuple, spaces: int, terror_from: int, night_hours: int, bosses: tuple,
                lines: int) -> Image.Image:
    """The strip as it is before anything happens: the Calendar, the Clock and one Terror Track row per
    Character (`rows`: (order, name)), none highlighted, and room for `lines` lines of text under them
    (the Storage; the result too once the game is over); drawn once per game."""
    image, draw = canvas(width, 74 + 22 * len(rows) + LINE * lines)
    by_ticket = dict(bosses) if bosses else None
    x = 10
    for t in (1, 2, 3):
        for half in ("day", "night"):
            _ticket_box(draw, x, t, half, False, by_ticket)
            x += 60
    slots, cell = _strip_geometry(width, night_hours, spaces)
    for x, slot in slots:
        _slot_box(draw, x, slot, False)
    y = 60
    for order, name in rows:
        star = "★ " if order == 1 else ""
        _txt(draw, (10, y + 8), f"{star}{order}. {name[:18]}", 11, INK, order == 1, anchor="lm")
        for k in range(spaces + 1):
            x0 = 160 + k * cell
            draw.rectangle([x0, y, x0 + cell - 2, y + 16], fill=(230, 170, 170) if k >= terror_from else PAPER,
                           outline=GREY)
        y += 22
    return image


def _strip(view: dict, width: int = 760) -> Image.Image:
    chars = sorted(view["characters"], key=lambda c: c["order"])
    track = view["terror_track"]
    clock, cal = view["clock"], view["calendar"]
    bosses = tuple(sorted(cal["bosses"].items())) if isinstance(cal["bosses"], dict) else ()
    image = _strip_base(width, tuple((c["order"], c["name"]) for c in chars), track["spaces"], track["terror_from"],
                        clock["night_hours"], bosses, 2 if view.get("over") else 1).copy()
    draw = Pen(image)
    height = size_of(image)[1]
    x = 10
    for t in (1, 2, 3):
        for half in ("day", "night"):
            if cal["ticket"] == t and cal["half"] == half:
                _ticket_box(draw, x, t, half, True, cal["bosses"])
            x += 60
    now = clock["phase"] + (str(clock["hour"]) if clock["phase"] in ("day", "night") else "")
    slots, cell = _strip_geometry(width, clock["night_hours"], track["spaces"])
    for x, slot in slots:
        if slot == now:
            _slot_box(draw, x, slot, True)
    y = 60
    for c in chars:
        if not c["incapacitated"] and 0 <= c["stress"] <= track["spaces"]:
            x0 = 160 + c["stress"] * cell
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
    _txt(draw, (10, height - 12), fit(storage, width - 20, 10), 10, INK, anchor="lm")
    if view.get("over"):       # a line of its own, over the Storage's: a long ending would print over it
        result = _w(view, "result") or f"{view['result'].upper()}: {view['reason']}"
        _txt(draw, (10, height - 12 - LINE), fit(result, width - 20, 10, True), 10,
             GREEN if view["result"] == "win" else RED, True, anchor="lm")
    return image


def strip(view: dict) -> bytes:
    return _png(_strip(in_language(view, "en")))


def board(view: dict) -> bytes:
    """The whole board. The cog gives the view with the pack's names in its reader's language
    (`in_language`); names still in several languages (a direct call) are drawn in English."""
    view = in_language(view, "en")
    top = _tactical(view) if view.get("night") else _venice(view)
    bottom = _strip(view, width=max(size_of(top)[0], 760))
    (top_w, top_h), (bottom_w, bottom_h) = size_of(top), size_of(bottom)
    image = blank(max(top_w, bottom_w), top_h + bottom_h, PAPER)
    paste(image, top, (0, 0))
    paste(image, bottom, (0, top_h))
    return _png(image)
