"""Carnevale images, drawn from `view_for` dicts only (an image never shows more than its viewer may see).

- `squad_sheet(view, player=None)`: one card per model — attributes, AP, Karma pips, Command
  current/max, the Life track with crossed boxes and Pain Thresholds marked, status badges,
  weapons (loaded / jammed / destroyed) and spells.
- `roll_image(roll)`: a row of d10 faces, the Destiny Die distinct, Aces highlighted, Critical/Fumble.
Both return PNG bytes.
"""
from __future__ import annotations

from .common import BLUE, GOLD, GREEN, GREY, INK, PAPER, RED, canvas, font, png_bytes

CARD_W = 760
CARD_H = 150
MARGIN = 12
BOX = 18
DARK_PAPER = (230, 222, 204)
PURPLE = (110, 60, 150)


def _txt(draw, xy, text, size=13, fill=INK, bold=False, anchor="la"):
    draw.text(xy, str(text), fill=fill, font=font(size, bold), anchor=anchor)


def _badges(m: dict) -> list[tuple[str, tuple]]:
    out = []
    if m.get("fallen"):
        out.append(("FLED" if m.get("fled") else "FALLEN", GREY))
    if m.get("active"):
        out.append(("ACTIVE", GREEN))
    elif m.get("activated") and not m.get("fallen"):
        out.append(("Activated", GREY))
    if m.get("stunned"):
        out.append(("STUNNED", RED))
    if m.get("at_ready"):
        out.append((f"At the Ready ({m['at_ready']})", BLUE))
    for key, label, colour in (("hidden", "Hidden", GREY), ("drowning", "Drowning", BLUE),
                               ("fleeing", "Fleeing", RED), ("petrified", "Petrified", GREY),
                               ("in_darkness", "Darkness", INK), ("in_water", "In water", BLUE)):
        if m.get(key):
            out.append((label, colour))
    if not m.get("on_table", True) and not m.get("fallen"):
        out.append(("Reserve", GREY))
    if m.get("carrying"):
        out.append((m["carrying"].title(), GOLD))
    return out


def _card(draw, x: int, y: int, m: dict) -> None:
    draw.rectangle([x, y, x + CARD_W - 1, y + CARD_H - 1], fill=DARK_PAPER if m.get("fallen") else PAPER,
                   outline=INK, width=2)
    leader = " ★" if m.get("leader") else ""
    _txt(draw, (x + 10, y + 8), f"{m['name']}{leader}", 16, bold=True)
    _txt(draw, (x + 10, y + 30), f"{m['profile']} · {m['uid']} · {m.get('size', '')}", 11, GREY)
    a = m["attributes"]
    attrs = "  ".join(f"{k} {a[k]}" for k in ("MOV", "COM", "DEX", "SHO", "MIN", "PRO"))
    _txt(draw, (x + 300, y + 10), attrs, 13, bold=True)
    # AP, Karma, Command
    _txt(draw, (x + 300, y + 32), f"AP {m['ap']}/{m['ap_max']}", 13, BLUE, bold=True)
    _txt(draw, (x + 390, y + 32), "Karma", 12)
    for i in range(m["karma_max"]):
        cx = x + 440 + i * 14
        filled = i < m["karma"]
        draw.ellipse([cx, y + 33, cx + 10, y + 43], fill=PURPLE if filled else PAPER, outline=PURPLE)
    if m.get("command_max"):
        _txt(draw, (x + 600, y + 32), f"Command {m['command']}/{m['command_max']}", 13, GOLD, bold=True)
    # Life track
    track = m["life_track"]
    thresholds = set(m.get("thresholds", []))
    tx, ty = x + 10, y + 56
    _txt(draw, (tx, ty + 2), "Life", 12, bold=True)
    for i, mod in enumerate(track):
        bx = tx + 40 + i * (BOX + 3)
        crossed = i < m["damage"]
        outline = RED if i in thresholds else INK
        draw.rectangle([bx, ty, bx + BOX, ty + BOX], fill=(250, 250, 250), outline=outline,
                       width=3 if i in thresholds else 1)
        if mod:
            _txt(draw, (bx + BOX // 2, ty + BOX // 2), mod, 10, RED if i in thresholds else GREY, anchor="mm")
        if crossed:
            draw.line([bx + 2, ty + 2, bx + BOX - 2, ty + BOX - 2], fill=INK, width=2)
            draw.line([bx + 2, ty + BOX - 2, bx + BOX - 2, ty + 2], fill=INK, width=2)
    pen = m.get("pain_penalty", 0)
    px = tx + 50 + len(track) * (BOX + 3)
    _txt(draw, (px, ty + 2), f"{m['life_left']}/{m['life']} LP" + (f"   pain {pen} dice" if pen else ""),
         12, RED if pen else INK, bold=bool(pen))
    # badges
    bx = x + 10
    for label, colour in _badges(m):
        w = int(draw.textlength(label, font=font(11, True))) + 10
        draw.rounded_rectangle([bx, y + 84, bx + w, y + 100], radius=4, fill=colour)
        _txt(draw, (bx + 5, y + 86), label, 11, PAPER, bold=True)
        bx += w + 6
    # weapons, spells
    weapons = []
    for w in m.get("weapons", []):
        state = "destroyed" if w["destroyed"] else "jammed" if w["jammed"] else "" if w["loaded"] else "unloaded"
        weapons.append(w["name"] + (f" ({state})" if state else ""))
    _txt(draw, (x + 10, y + 106), "Weapons: " + (", ".join(weapons) or "—"), 11)
    extra = []
    if m.get("spells"):
        extra.append(f"Spells: {', '.join(m['spells'])} (next costs {m.get('next_spell_cost', 1)} Karma"
                     f"{', locked' if m.get('cast_locked') else ''})")
    if m.get("magic_item") and m["magic_item"] != "hidden":
        extra.append(f"Magic item: {m['magic_item']}")
    elif m.get("magic_item") == "hidden":
        extra.append("Magic item: hidden")
    _txt(draw, (x + 10, y + 124), "   ".join(extra)[:120], 11, PURPLE)


def squad_sheet(view: dict, player: str | None = None) -> bytes:
    """The squad sheet of one player (or every model when player is None)."""
    return png_bytes(_sheet_image(view, player))


def game_sheet(view: dict) -> bytes:
    """Both squads of a game side by side (one column per player, each with its own title),
    or the plain sheet when the view has one player or none."""
    seats = [pid for pid in view.get("seats") or view.get("players", {}) if pid in view.get("players", {})]
    if len(seats) < 2:
        return squad_sheet(view)
    columns = [_sheet_image(view, pid) for pid in seats]
    gap = MARGIN
    width = sum(c.width for c in columns) + gap * (len(columns) - 1)
    height = max(c.height for c in columns)
    image, draw = canvas(width, height)
    x = 0
    for column in columns:
        image.paste(column, (x, 0))
        x += column.width + gap
        if x < width:
            draw.line([x - gap // 2, 8, x - gap // 2, height - 8], fill=GREY, width=2)
    return png_bytes(image)


def _sheet_image(view: dict, player: str | None = None):
    models = [m for m in view["models"] if player is None or m["owner"] == player]
    title = "Carnevale"
    if player and player in view.get("players", {}):
        p = view["players"][player]
        title = f"{p['name']} — {p['squad']} ({p['faction']})"
    height = 50 + max(1, len(models)) * (CARD_H + MARGIN)
    image, draw = canvas(CARD_W + 2 * MARGIN, height)
    _txt(draw, (MARGIN, 12), title, 18, bold=True)
    if view.get("max_rounds"):        # a squad sheet outside a game has no Round to show
        _txt(draw, (CARD_W + MARGIN, 16), f"Round {view.get('round', 1)}/{view['max_rounds']}", 13, GREY,
             anchor="ra")
    for i, m in enumerate(models):
        _card(draw, MARGIN, 44 + i * (CARD_H + MARGIN), m)
    return image


def roll_image(roll: dict) -> bytes:
    """A rolled pool: `roll` is a PoolResult.to_public() dict (or an event's data)."""
    dice = roll.get("dice", [])
    flags = roll.get("ace_flags") or [False] * len(dice)
    w = max(420, 20 + len(dice) * 58)
    image, draw = canvas(w, 120)
    if not dice:
        _txt(draw, (w // 2, 50), "No dice to roll — automatic failure", 14, anchor="mm")
    for i, face in enumerate(dice):
        x = 12 + i * 58
        destiny = i == 0
        fill = GOLD if destiny else (245, 245, 245)
        outline = GREEN if flags[i] else INK
        draw.rounded_rectangle([x, 12, x + 48, 60], radius=8, fill=fill, outline=outline, width=4 if flags[i] else 2)
        _txt(draw, (x + 24, 36), face, 22, RED if face == 1 else INK, bold=True, anchor="mm")
        if destiny:
            _txt(draw, (x + 24, 66), "Destiny", 10, GREY, anchor="ma")
    aces = roll.get("aces", 0)
    text = f"{aces} Ace{'s' if aces != 1 else ''} at difficulty {roll.get('difficulty', 7)}"
    colour = INK
    if roll.get("critical"):
        text += " — CRITICAL"
        colour = GREEN
    if roll.get("fumble"):
        text += " — FUMBLE"
        colour = RED
    _txt(draw, (12, 88), text, 15, colour, bold=True)
    return png_bytes(image)
