"""Klash! images from a ``view_for`` dict: the arena, the auction table and an Event Card hand.

Every function takes only a view (never the state), so an image can show no more than its viewer may
see: the channel gets ``view_for(state, PUBLIC)``, a DM gets the player's own view.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .common import BLUE, GOLD, GREY, INK, PAPER, RED, canvas, font, png_bytes

SCALE = 5          # pixels per cm
MARGIN = 20
PANEL = 230
SAND = (226, 205, 160)
STONE = (120, 110, 100)
TEAM = (BLUE, RED)


def _name(view: dict, player: str) -> str:
    """A player's display name when the caller added ``names`` to the view (the cog does), else the id."""
    return str((view.get("names") or {}).get(player) or player)


def _fit(text: str, n: int) -> str:
    """At most `n` characters, an ellipsis marking a cut (so two long names stay told apart by their ends)."""
    return text if len(text) <= n else text[: n - 1] + "…"


def _px(v: float) -> float:
    return MARGIN + v * SCALE


@lru_cache(maxsize=4)
def _background(diameter: float, altar_r: float, gate_r: float, gates: tuple) -> Image.Image:
    size = int(diameter * SCALE + 2 * MARGIN)
    image, draw = canvas(size + PANEL, size, PAPER)
    draw.ellipse([MARGIN, MARGIN, MARGIN + diameter * SCALE, MARGIN + diameter * SCALE], fill=SAND, outline=INK, width=3)
    c = diameter / 2
    for step in range(10, int(diameter), 10):  # a faint 10 cm grid clipped to the circle
        for x0 in range(0, int(diameter) + 1, 2):
            for (x, y) in ((step, x0), (x0, step)):
                if (x - c) ** 2 + (y - c) ** 2 < (c - 0.5) ** 2:
                    draw.point((_px(x), _px(diameter - y)), fill=(200, 180, 140))
    draw.ellipse([_px(c - altar_r), _px(c - altar_r), _px(c + altar_r), _px(c + altar_r)], fill=STONE, outline=INK, width=2)
    draw.text((_px(c), _px(c)), "Altar", fill=PAPER, font=font(12, True), anchor="mm")
    for i, (gx, gy) in enumerate(gates):
        box = [_px(gx - gate_r), _px(diameter - gy - gate_r), _px(gx + gate_r), _px(diameter - gy + gate_r)]
        draw.ellipse(box, fill=TEAM[i], outline=INK, width=2)
        draw.text((_px(gx), _px(diameter - gy)), f"G{i + 1}", fill=PAPER, font=font(11, True), anchor="mm")
    # scale bar: 10 cm
    draw.line([_px(2), size - 8, _px(12), size - 8], fill=INK, width=3)
    draw.text((_px(13), size - 8), "10 cm", fill=INK, font=font(11), anchor="lm")
    return image


def arena_png(view: dict, active: str | None = None) -> bytes:
    """The arena seen from above: models in team colours with names, Stunned markers, the Altar and
    Gates, range rings for the active model, the Hourglass and the VP score."""
    a = view["arena"]
    diameter = a["diameter"]
    image = _background(diameter, a["altar_radius"], a["gate_radius"], tuple(tuple(g) for g in a["gates"])).copy()
    from PIL import ImageDraw
    draw = ImageDraw.Draw(image)
    seats = view["seats"]
    gate_of = a.get("gate_of") or {}
    match = view["match"]
    active = active or (match.get("active") or {}).get("model")
    cards = view.get("cards", {})
    for m in view["models"]:
        if not m["placed"] or m["removed"]:
            continue
        colour = TEAM[gate_of.get(m["owner"], seats.index(m["owner"])) % 2]
        x, y, r = _px(m["x"]), _px(diameter - m["y"]), m["radius"] * SCALE
        if m["id"] == active:
            card = cards.get(m["card"], {})
            rings = [card.get("speed", 0)]
            if card.get("ranged_range"):
                rings += list(card["ranged_range"])
            for ring in rings:
                rr = (ring + m["radius"]) * SCALE
                draw.ellipse([x - rr, y - rr, x + rr, y + rr], outline=GOLD, width=1)
        # the team colour always; an activated model gets a light corner badge, never grey
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=INK, width=2)
        if m["activated"]:
            d = max(3.5, r / 2.5)
            draw.ellipse([x + r * 0.75 - d, y - r * 0.75 - d, x + r * 0.75 + d, y - r * 0.75 + d], fill=PAPER,
                         outline=INK, width=2)
        draw.text((x, y - r - 2), m["name"].replace("SAMPLE ", "")[:18], fill=INK, font=font(10), anchor="mb")
        draw.text((x, y), m["id"][1:], fill=PAPER, font=font(9, True), anchor="mm")
        if m["stunned"]:
            draw.text((x + r, y + r), "✶", fill=GOLD, font=font(14, True), anchor="mm")
    px = int(diameter * SCALE + 2 * MARGIN) + 10
    draw.text((px, 20), f"Hourglass {match['hourglass']}/8", fill=INK, font=font(18, True))
    draw.text((px, 48), f"Phase: {match.get('stage') or view['phase']}", fill=INK, font=font(13))
    yy = 80
    for i, p in enumerate(seats):
        colour = TEAM[gate_of.get(p, i) % 2]
        draw.rectangle([px, yy, px + 14, yy + 14], fill=colour)
        draw.text((px + 20, yy - 1), _fit(_name(view, p), 21), fill=INK, font=font(13, True))
        draw.text((px + 20, yy + 17), f"VP {match['vp'].get(p, 0)}   tokens {match['tokens'].get(p, 0)}", fill=INK, font=font(12))
        hand = view["event_deck"]["hand_sizes"].get(p, 0)
        alive = sum(1 for m in view["models"] if m["owner"] == p and m["placed"] and not m["removed"])
        draw.text((px + 20, yy + 33), f"models {alive}   Event cards {hand}", fill=INK, font=font(12))
        yy += 62
    if match.get("turn_player") and not view["result"]["over"]:
        draw.text((px, yy), f"Turn: {_fit(_name(view, match['turn_player']), 20)}", fill=INK, font=font(13))
    if view["result"]["over"]:
        # two short lines, both inside the panel: who won, then the score
        winner = view["result"]["winner"]
        draw.text((px, yy), "Winner:", fill=RED, font=font(14, True))
        draw.text((px, yy + 18), _fit(_name(view, winner), 22), fill=RED, font=font(14, True))
        draw.text((px, yy + 38), "VP " + " – ".join(str(match["vp"].get(p, 0)) for p in seats), fill=INK, font=font(13))
    return png_bytes(image)


def draft_png(view: dict) -> bytes:
    """The auction table: the revealed cards, who picks, and both players' picks so far."""
    cards = view["cards"]
    draft = view["draft"]
    image, draw = canvas(900, 420)
    draw.text((20, 14), f"Gladiator Auction — round {draft['round']}/8", fill=INK, font=font(20, True))
    if draft.get("picker"):
        taken = sum(1 for entry in draft.get("log", []) if entry and entry[0] == draft["round"])
        how = "takes 1" if taken == 0 else f"takes 2 ({'first' if taken == 1 else 'second'})"
        draw.text((20, 44), f"Picking: {_fit(_name(view, draft['picker']), 32)} — {how}", fill=RED, font=font(14))
    elif not draft["revealed"]:
        draw.text((20, 44), "The auction is over: 12 cards each.", fill=RED, font=font(14))
    for i, cid in enumerate(draft["revealed"]):
        c = cards[cid]
        x = 20 + i * 174
        draw.rounded_rectangle([x, 72, x + 164, 230], radius=8, fill=(255, 252, 240), outline=INK, width=2)
        draw.text((x + 8, 78), f"{i + 1}. {c['name'].replace('SAMPLE ', '')[:20]}", fill=INK, font=font(11, True))
        lines = [f"{c['type']}  VP {c['vp']}  Ini {c['initiative']}",
                 f"M {c['melee_attack']}/{c['melee_defence']}  R {c['ranged_attack']}/{c['ranged_defence']}",
                 f"Mg {c['magic_attack']}/{c['magic_defence']}  T {c['tenacity']}",
                 f"Spd {c['speed']}  Disc {c['discipline']}"]
        lines += [q.replace("_", " ") for q in c["qualities"][:4]]
        for j, line in enumerate(lines):
            draw.text((x + 8, 98 + j * 16), line[:26], fill=INK, font=font(10))
    for k, p in enumerate(view["seats"]):
        y = 250 + k * 80
        picks = draft["picks"][p]
        draw.text((20, y), f"{_fit(_name(view, p), 32)} ({len(picks)}/12)", fill=TEAM[k], font=font(13, True))
        rows, row = [], ""
        for name in (cards[c]["name"].replace("SAMPLE ", "") for c in picks):   # wrap between names
            piece = f"{row}, {name}" if row else name
            if len(piece) > 120 and row:
                rows.append(row + ",")
                row = name
            else:
                row = piece
        if row:
            rows.append(row)
        for j, text in enumerate(rows[:3]):
            draw.text((20, y + 20 + j * 16), text[:130], fill=INK, font=font(10))
    return png_bytes(image)


def hand_png(view: dict) -> bytes:
    """A player's own Event Card hand (for their DMs). Needs that player's view."""
    hand = view.get("hand") or []
    image, draw = canvas(max(200, 20 + 190 * max(1, len(hand))), 170)
    if not hand:
        draw.text((20, 70), "No Event Cards in hand.", fill=INK, font=font(14))
    for i, card in enumerate(hand):
        x = 20 + i * 190
        draw.rounded_rectangle([x, 15, x + 175, 155], radius=8, fill=(255, 252, 240), outline=INK, width=2)
        draw.text((x + 8, 22), f"{i + 1}. {card['name'].replace('SAMPLE ', '')[:22]}", fill=INK, font=font(11, True))
        draw.text((x + 8, 42), f"{card['timing'].replace('_', ' ')} · {card['effect']}", fill=GREY, font=font(10))
        text = card.get("text", "")
        for j in range(0, min(len(text), 150), 28):
            draw.text((x + 8, 62 + (j // 28) * 15), text[j:j + 28], fill=INK, font=font(10))
    return png_bytes(image)
