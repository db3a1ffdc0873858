"""Klash! images from a ``view_for`` dict: the arena, the auction table and an Event Card hand.

Every function takes only a view (never the state), so an image can show no more than its viewer may
see: the channel gets ``view_for(state, PUBLIC)``, a DM gets the player's own view.
"""
from __future__ import annotations

from collections.abc import Callable
from PIL import Image

from .common import BLUE, GOLD, GREY, INK, PAPER, RED, Pen, canvas, palette_png, per_scale, stamp

Words = Callable[..., str]

SCALE = 5          # pixels per cm
MARGIN = 20
PANEL = 230
SAND = (226, 205, 160)
STONE = (120, 110, 100)
GRID = (200, 180, 140)
CARD = (255, 252, 240)
TEAM = (BLUE, RED)
# Every colour the pictures use and the grounds text and lines are drawn on: the PNG is encoded on a
# fixed palette of these and their anti-aliased blends, one byte a pixel (the RGB encode was over half
# of an arena picture's cost).
PURE = (PAPER, INK, SAND, STONE, GRID, CARD, BLUE, RED, GOLD, GREY)
GROUNDS = (PAPER, SAND, STONE, CARD, BLUE, RED)


def _name(view: dict, player: str) -> str:
    """A player's display name when the caller added ``names`` to the view (the cog does), else the id."""
    return str((view.get("names") or {}).get(player) or player)


def words_of(say=None) -> Words:
    """The pictures' words (``words.img_*`` of the Klash! catalogues) in the reader's language:
    ``say`` is that reader's presenter (English when None)."""
    if say is None:
        from i18n.present import Presenter
        say = Presenter(None, game="klash")
    return lambda key, **params: say.text(f"words.img_{key}", plain=True, **params)


def _clean(name: str) -> str:
    return name.replace("SAMPLE ", "")


def model_name(label, say=None) -> str:
    """A model's name (``state.label(m)``, the view's ``name``) in the reader's language: the
    catalogue's ``terms.model*`` around the card's name; an old state's stored name as it is."""
    if isinstance(label, dict) and "term" in label:
        if say is None:
            from i18n.present import Presenter
            say = Presenter(None, game="klash")
        return say.text(f"terms.{label['term']}", plain=True, **{k: v for k, v in label.items() if k != "term"})
    return _clean(str(label))


def _fit(text: str, n: int) -> str:
    """At most `n` characters, an ellipsis marking a cut (so two long names stay told apart by their ends)."""
    return text if len(text) <= n else text[: n - 1] + "…"



def _px(v: float) -> float:
    return MARGIN + v * SCALE


@per_scale(maxsize=8)
def _background(diameter: float, altar_r: float, gate_r: float, gates: tuple, altar: str, gate: tuple,
                scale: str) -> Image.Image:
    size = int(diameter * SCALE + 2 * MARGIN)
    image, draw = canvas(size + PANEL, size, PAPER)
    draw.ellipse([MARGIN, MARGIN, MARGIN + diameter * SCALE, MARGIN + diameter * SCALE], fill=SAND, outline=INK, width=3)
    c = diameter / 2
    for step in range(10, int(diameter), 10):  # a faint 10 cm grid clipped to the circle
        for x0 in range(0, int(diameter) + 1, 2):
            for (x, y) in ((step, x0), (x0, step)):
                if (x - c) ** 2 + (y - c) ** 2 < (c - 0.5) ** 2:
                    draw.dot((_px(x), _px(diameter - y)), fill=GRID)
    draw.ellipse([_px(c - altar_r), _px(c - altar_r), _px(c + altar_r), _px(c + altar_r)], fill=STONE, outline=INK, width=2)
    stamp(draw, (_px(c), _px(c)), altar, 12, PAPER, True, "mm")
    for i, (gx, gy) in enumerate(gates):
        box = [_px(gx - gate_r), _px(diameter - gy - gate_r), _px(gx + gate_r), _px(diameter - gy + gate_r)]
        draw.ellipse(box, fill=TEAM[i], outline=INK, width=2)
        stamp(draw, (_px(gx), _px(diameter - gy)), gate[i], 11, PAPER, True, "mm")
    # scale bar: 10 cm
    draw.line([_px(2), size - 8, _px(12), size - 8], fill=INK, width=3)
    stamp(draw, (_px(13), size - 8), scale, 11, INK, False, "lm")
    return image


def arena_png(view: dict, active: str | None = None, say=None) -> bytes:
    """The arena seen from above: models in team colours with their numbers, Stunned markers, the
    Altar and Gates, range rings for the active model; beside it the Hourglass, the score and a
    numbered legend of the models (names never overlap, however tight a melee cluster is)."""
    w = words_of(say)
    a = view["arena"]
    diameter = a["diameter"]
    gates = tuple(tuple(g) for g in a["gates"])
    image = _background(diameter, a["altar_radius"], a["gate_radius"], gates, w("altar"),
                        tuple(w("gate", n=i + 1) for i in range(len(gates))), w("scale")).copy()
    draw = Pen(image)
    seats = view["seats"]
    gate_of = a.get("gate_of") or {}
    match = view["match"]
    active = active or (match.get("active") or {}).get("model")
    cards = view.get("cards", {})
    shown = [m for m in view["models"] if m["placed"] and not m["removed"]]
    for m in shown:
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
        stamp(draw, (x, y), m["id"][1:], 9, PAPER, True, "mm")
        if m["stunned"]:      # a gold ring, not a ✶ beside the disc: in a melee that star printed over a neighbour's number
            draw.ellipse([x - r - 3, y - r - 3, x + r + 3, y + r + 3], outline=GOLD, width=2)
    px = int(diameter * SCALE + 2 * MARGIN) + 10
    stage = "over" if view["result"]["over"] else ("deploy" if view["phase"] == "deploy" else match.get("stage"))
    stamp(draw, (px, 20), w("hourglass", n=match["hourglass"]), 18, INK, True)
    if stage in ("deploy", "initiative", "action", "final", "over"):
        stamp(draw, (px, 48), w("phase", stage=w(f"stage_{stage}")), 13, INK)
    yy = 80
    for i, p in enumerate(seats):
        colour = TEAM[gate_of.get(p, i) % 2]
        draw.rectangle([px, yy, px + 14, yy + 14], fill=colour)
        stamp(draw, (px + 20, yy - 1), _fit(_name(view, p), 21), 13, INK, True)
        stamp(draw, (px + 20, yy + 17), w("vp_tokens", vp=match["vp"].get(p, 0), tokens=match["tokens"].get(p, 0)),
              12, INK)
        hand = view["event_deck"]["hand_sizes"].get(p, 0)
        alive = sum(1 for m in view["models"] if m["owner"] == p and m["placed"] and not m["removed"])
        stamp(draw, (px + 20, yy + 33), w("models_cards", models=alive, cards=hand), 12, INK)
        yy += 62
    if match.get("turn_player") and not view["result"]["over"]:
        stamp(draw, (px, yy), w("turn", name=_fit(_name(view, match["turn_player"]), 20)), 13, INK)
    if view["result"]["over"]:
        # two short lines, both inside the panel: who won, then the score
        winner = view["result"]["winner"]
        stamp(draw, (px, yy), w("winner"), 14, RED, True)
        stamp(draw, (px, yy + 18), _fit(_name(view, winner), 22), 14, RED, True)
        stamp(draw, (px, yy + 38), w("score", score=" – ".join(str(match["vp"].get(p, 0)) for p in seats)), 13, INK)
        yy += 40          # the three lines above, before the legend's gap
    # the legend: each model's number (as on its disc) and name, in its team's colour
    yy += 30
    stamp(draw, (px, yy), w("legend"), 13, INK, True)
    yy += 20
    bottom = int(diameter * SCALE + 2 * MARGIN) - 12
    rows = len(shown)
    step = max(11, min(16, (bottom - yy) // max(1, rows)))
    for k, m in enumerate(shown):
        if yy + step > bottom + 2:
            stamp(draw, (px, yy), f"+{rows - k}", 10, GREY)
            break
        colour = TEAM[gate_of.get(m["owner"], seats.index(m["owner"])) % 2]
        draw.ellipse([px, yy, px + step - 3, yy + step - 3], fill=colour, outline=GOLD if m["stunned"] else None,
                     width=2)
        stamp(draw, (px + (step - 3) / 2, yy + (step - 3) / 2), m["id"][1:], 8, PAPER, True, "mm")
        mark = " ✶" if m["stunned"] else ""
        stamp(draw, (px + step + 2, yy - 1), _fit(model_name(m["name"], say), 25) + mark, min(11, step - 3), INK)
        yy += step
    return palette_png(image, PURE, GROUNDS)


def _tile(draw, x: int, y: int, width: int, card: dict, w: Words, number: int | None, say) -> None:
    """A card as a drafter weighs it: name, type and VP, the dice, Initiative, Speed, Discipline and
    the Special Qualities (by the catalogue's names)."""
    draw.rounded_rectangle([x, y, x + width, y + 158], radius=8, fill=CARD, outline=INK, width=2)
    name = _clean((card.get("names") or {}).get(_language(say)) or card["name"])
    head = f"{number}. {name}" if number else name
    stamp(draw, (x + 8, y + 6), _fit(head, width // 7), 11, INK, True)
    kind = _term(say, f"type_{card['type']}")
    stamp(draw, (x + 8, y + 24), f"{kind} · {w('card_vp', vp=card['vp'])}", 10, RED, True)
    lines = [w("card_dice", ma=card["melee_attack"], md=card["melee_defence"], ra=card["ranged_attack"],
               rd=card["ranged_defence"]),
             w("card_magic", ga=card["magic_attack"], gd=card["magic_defence"], te=card["tenacity"]),
             w("card_stats", ini=card["initiative"], speed=card["speed"], disc=card["discipline"])]
    lines += [_term(say, f"quality_{q}") for q in card["qualities"][:4]]
    for j, line in enumerate(lines):
        stamp(draw, (x + 8, y + 42 + j * 16), _fit(line, width // 6), 10, INK)


def _language(say) -> str:
    return getattr(say, "language", None) or "en"


def _term(say, key: str) -> str:
    if say is None:
        from i18n.present import Presenter
        say = Presenter(None, game="klash")
    return say.text(f"terms.{key}", plain=True)


def draft_png(view: dict, say=None) -> bytes:
    """The auction table: the revealed cards as tiles (type, VP, dice and qualities: what a drafter
    weighs), who picks and how many, and both players' picks so far as small tiles."""
    w = words_of(say)
    cards = view["cards"]
    draft = view["draft"]
    image, draw = canvas(900, 560)
    stamp(draw, (20, 14), w("auction", round=draft["round"]), 20, INK, True)
    if draft.get("picker"):
        taken = sum(1 for entry in draft.get("log", []) if entry and entry[0] == draft["round"])
        how = w("takes_one") if taken == 0 else w("takes_first" if taken == 1 else "takes_second")
        stamp(draw, (20, 44), w("picking", name=_fit(_name(view, draft["picker"]), 32), how=how), 14, RED)
    elif not draft["revealed"]:
        stamp(draw, (20, 44), w("auction_over"), 14, RED)
    for i, cid in enumerate(draft["revealed"]):
        _tile(draw, 20 + i * 174, 72, 164, cards[cid], w, i + 1, say)
    for k, p in enumerate(view["seats"]):
        y = 244 + k * 156
        picks = draft["picks"][p]
        stamp(draw, (20, y), w("picks", name=_fit(_name(view, p), 32), n=len(picks)), 13, TEAM[k], True)
        for j, cid in enumerate(picks[:12]):
            c = cards[cid]
            tx, ty = 20 + (j % 6) * 143, y + 20 + (j // 6) * 62
            draw.rounded_rectangle([tx, ty, tx + 137, ty + 56], radius=6, fill=CARD, outline=TEAM[k], width=2)
            name = _clean((c.get("names") or {}).get(_language(say)) or c["name"])
            stamp(draw, (tx + 6, ty + 4), _fit(name, 19), 10, INK, True)
            stamp(draw, (tx + 6, ty + 20), f"{_term(say, 'type_' + c['type'])} · {w('card_vp', vp=c['vp'])}",
                  9, RED, True)
            quals = ", ".join(_term(say, f"quality_{q}") for q in c["qualities"][:2])
            stamp(draw, (tx + 6, ty + 36), _fit(quals, 24), 9, GREY)
    return palette_png(image, PURE, GROUNDS)


def _wrap(text: str, width: int) -> list[str]:
    """Whole words per line (a word longer than the line is cut, never split mid-line otherwise)."""
    lines: list[str] = []
    row = ""
    for word in text.split():
        piece = f"{row} {word}" if row else word
        if len(piece) <= width:
            row = piece
            continue
        if row:
            lines.append(row)
        row = word[:width]
    if row:
        lines.append(row)
    return lines


def hand_png(view: dict, say=None) -> bytes:
    """A player's own Event Card hand (for their DMs). Needs that player's view."""
    w = words_of(say)
    hand = view.get("hand") or []
    image, draw = canvas(max(200, 20 + 190 * max(1, len(hand))), 170)
    if not hand:
        stamp(draw, (20, 70), w("no_cards"), 14, INK)
    lang = _language(say)
    for i, card in enumerate(hand):
        x = 20 + i * 190
        draw.rounded_rectangle([x, 15, x + 175, 155], radius=8, fill=CARD, outline=INK, width=2)
        name = _clean((card.get("names") or {}).get(lang) or card["name"])
        stamp(draw, (x + 8, 22), _fit(f"{i + 1}. {name}", 24), 11, INK, True)
        stamp(draw, (x + 8, 42), w(f"timing_{card['timing']}"), 10, GREY)
        text = (card.get("texts") or {}).get(lang) or card.get("text", "")
        for j, line in enumerate(_wrap(text, 28)[:6]):
            stamp(draw, (x + 8, 62 + j * 15), line, 10, INK)
    return palette_png(image, PURE, GROUNDS)
