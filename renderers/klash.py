"""Klash! images from a ``view_for`` dict: the arena, the auction table and an Event Card hand.

Every function takes only a view (never the state), so an image can show no more than its viewer may
see: the channel gets ``view_for(state, PUBLIC)``, a DM gets the player's own view.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image

from .common import BLUE, GOLD, GREY, INK, PAPER, RED, canvas, font, png_bytes

Words = Callable[..., str]

SCALE = 5          # pixels per cm
MARGIN = 20
PANEL = 230
SAND = (226, 205, 160)
STONE = (120, 110, 100)
TEAM = (BLUE, RED)


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


@lru_cache(maxsize=8)
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
                    draw.point((_px(x), _px(diameter - y)), fill=(200, 180, 140))
    draw.ellipse([_px(c - altar_r), _px(c - altar_r), _px(c + altar_r), _px(c + altar_r)], fill=STONE, outline=INK, width=2)
    draw.text((_px(c), _px(c)), altar, fill=PAPER, font=font(12, True), anchor="mm")
    for i, (gx, gy) in enumerate(gates):
        box = [_px(gx - gate_r), _px(diameter - gy - gate_r), _px(gx + gate_r), _px(diameter - gy + gate_r)]
        draw.ellipse(box, fill=TEAM[i], outline=INK, width=2)
        draw.text((_px(gx), _px(diameter - gy)), gate[i], fill=PAPER, font=font(11, True), anchor="mm")
    # scale bar: 10 cm
    draw.line([_px(2), size - 8, _px(12), size - 8], fill=INK, width=3)
    draw.text((_px(13), size - 8), scale, fill=INK, font=font(11), anchor="lm")
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
    from PIL import ImageDraw
    draw = ImageDraw.Draw(image)
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
        draw.text((x, y), m["id"][1:], fill=PAPER, font=font(9, True), anchor="mm")
        if m["stunned"]:
            draw.text((x + r, y + r), "✶", fill=GOLD, font=font(14, True), anchor="mm")
    px = int(diameter * SCALE + 2 * MARGIN) + 10
    stage = "over" if view["result"]["over"] else ("deploy" if view["phase"] == "deploy" else match.get("stage"))
    draw.text((px, 20), w("hourglass", n=match["hourglass"]), fill=INK, font=font(18, True))
    if stage in ("deploy", "initiative", "action", "final", "over"):
        draw.text((px, 48), w("phase", stage=w(f"stage_{stage}")), fill=INK, font=font(13))
    yy = 80
    for i, p in enumerate(seats):
        colour = TEAM[gate_of.get(p, i) % 2]
        draw.rectangle([px, yy, px + 14, yy + 14], fill=colour)
        draw.text((px + 20, yy - 1), _fit(_name(view, p), 21), fill=INK, font=font(13, True))
        draw.text((px + 20, yy + 17), w("vp_tokens", vp=match["vp"].get(p, 0), tokens=match["tokens"].get(p, 0)),
                  fill=INK, font=font(12))
        hand = view["event_deck"]["hand_sizes"].get(p, 0)
        alive = sum(1 for m in view["models"] if m["owner"] == p and m["placed"] and not m["removed"])
        draw.text((px + 20, yy + 33), w("models_cards", models=alive, cards=hand), fill=INK, font=font(12))
        yy += 62
    if match.get("turn_player") and not view["result"]["over"]:
        draw.text((px, yy), w("turn", name=_fit(_name(view, match["turn_player"]), 20)), fill=INK, font=font(13))
    if view["result"]["over"]:
        # two short lines, both inside the panel: who won, then the score
        winner = view["result"]["winner"]
        draw.text((px, yy), w("winner"), fill=RED, font=font(14, True))
        draw.text((px, yy + 18), _fit(_name(view, winner), 22), fill=RED, font=font(14, True))
        draw.text((px, yy + 38), w("score", score=" – ".join(str(match["vp"].get(p, 0)) for p in seats)),
                  fill=INK, font=font(13))
        yy += 40          # the three lines above, before the legend's gap
    # the legend: each model's number (as on its disc) and name, in its team's colour
    yy += 30
    draw.text((px, yy), w("legend"), fill=INK, font=font(13, True))
    yy += 20
    bottom = image.height - 12
    rows = len(shown)
    step = max(11, min(16, (bottom - yy) // max(1, rows)))
    for k, m in enumerate(shown):
        if yy + step > bottom + 2:
            draw.text((px, yy), f"+{rows - k}", fill=GREY, font=font(10))
            break
        colour = TEAM[gate_of.get(m["owner"], seats.index(m["owner"])) % 2]
        draw.ellipse([px, yy, px + step - 3, yy + step - 3], fill=colour)
        draw.text((px + (step - 3) / 2, yy + (step - 3) / 2), m["id"][1:], fill=PAPER, font=font(8, True), anchor="mm")
        mark = " ✶" if m["stunned"] else ""
        draw.text((px + step + 2, yy - 1), _fit(model_name(m["name"], say), 25) + mark, fill=INK, font=font(min(11, step - 3)))
        yy += step
    return png_bytes(image)


def _tile(draw, x: int, y: int, width: int, card: dict, w: Words, number: int | None, say) -> None:
    """A card as a drafter weighs it: name, type and VP, the dice, Initiative, Speed, Discipline and
    the Special Qualities (by the catalogue's names)."""
    draw.rounded_rectangle([x, y, x + width, y + 158], radius=8, fill=(255, 252, 240), outline=INK, width=2)
    name = _clean((card.get("names") or {}).get(_language(say)) or card["name"])
    head = f"{number}. {name}" if number else name
    draw.text((x + 8, y + 6), _fit(head, width // 7), fill=INK, font=font(11, True))
    kind = _term(say, f"type_{card['type']}")
    draw.text((x + 8, y + 24), f"{kind} · {w('card_vp', vp=card['vp'])}", fill=RED, font=font(10, True))
    lines = [w("card_dice", ma=card["melee_attack"], md=card["melee_defence"], ra=card["ranged_attack"],
               rd=card["ranged_defence"]),
             w("card_magic", ga=card["magic_attack"], gd=card["magic_defence"], te=card["tenacity"]),
             w("card_stats", ini=card["initiative"], speed=card["speed"], disc=card["discipline"])]
    lines += [_term(say, f"quality_{q}") for q in card["qualities"][:4]]
    for j, line in enumerate(lines):
        draw.text((x + 8, y + 42 + j * 16), _fit(line, width // 6), fill=INK, font=font(10))


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
    draw.text((20, 14), w("auction", round=draft["round"]), fill=INK, font=font(20, True))
    if draft.get("picker"):
        taken = sum(1 for entry in draft.get("log", []) if entry and entry[0] == draft["round"])
        how = w("takes_one") if taken == 0 else w("takes_first" if taken == 1 else "takes_second")
        draw.text((20, 44), w("picking", name=_fit(_name(view, draft["picker"]), 32), how=how), fill=RED, font=font(14))
    elif not draft["revealed"]:
        draw.text((20, 44), w("auction_over"), fill=RED, font=font(14))
    for i, cid in enumerate(draft["revealed"]):
        _tile(draw, 20 + i * 174, 72, 164, cards[cid], w, i + 1, say)
    for k, p in enumerate(view["seats"]):
        y = 244 + k * 156
        picks = draft["picks"][p]
        draw.text((20, y), w("picks", name=_fit(_name(view, p), 32), n=len(picks)), fill=TEAM[k], font=font(13, True))
        for j, cid in enumerate(picks[:12]):
            c = cards[cid]
            tx, ty = 20 + (j % 6) * 143, y + 20 + (j // 6) * 62
            draw.rounded_rectangle([tx, ty, tx + 137, ty + 56], radius=6, fill=(255, 252, 240), outline=TEAM[k], width=2)
            name = _clean((c.get("names") or {}).get(_language(say)) or c["name"])
            draw.text((tx + 6, ty + 4), _fit(name, 19), fill=INK, font=font(10, True))
            draw.text((tx + 6, ty + 20), f"{_term(say, 'type_' + c['type'])} · {w('card_vp', vp=c['vp'])}",
                      fill=RED, font=font(9, True))
            quals = ", ".join(_term(say, f"quality_{q}") for q in c["qualities"][:2])
            draw.text((tx + 6, ty + 36), _fit(quals, 24), fill=GREY, font=font(9))
    return png_bytes(image)


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
        draw.text((20, 70), w("no_cards"), fill=INK, font=font(14))
    lang = _language(say)
    for i, card in enumerate(hand):
        x = 20 + i * 190
        draw.rounded_rectangle([x, 15, x + 175, 155], radius=8, fill=(255, 252, 240), outline=INK, width=2)
        name = _clean((card.get("names") or {}).get(lang) or card["name"])
        draw.text((x + 8, 22), _fit(f"{i + 1}. {name}", 24), fill=INK, font=font(11, True))
        draw.text((x + 8, 42), w(f"timing_{card['timing']}"), fill=GREY, font=font(10))
        text = (card.get("texts") or {}).get(lang) or card.get("text", "")
        for j, line in enumerate(_wrap(text, 28)[:6]):
            draw.text((x + 8, 62 + j * 15), line, fill=INK, font=font(10))
    return png_bytes(image)
