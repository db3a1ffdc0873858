"""Karmic images from `view_for` dicts only (so an image never shows more than its viewer may see):
`register_track(view)` — combatants × registers, face-down and revealed cards — and
`hand_image(view)` — the viewer's own hand, for DMs."""
from __future__ import annotations

from collections.abc import Callable

from rules.common.packs import in_language

from .common import BLUE, GOLD, GREY, INK, PAPER, RED, canvas, palette_png, stamp

CARD_W, CARD_H = 54, 76
SUITS = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}
Words = Callable[..., str]
WHITE = (255, 255, 255)
# The colours drawn and the grounds they are drawn on: PNGs are encoded on a fixed palette of these
# and their anti-aliased blends, one byte a pixel (a third of the RGB encode's time).
PURE = (PAPER, INK, WHITE, BLUE, RED, GOLD, GREY)
GROUNDS = (PAPER, WHITE, BLUE)



def words_of(say=None) -> Words:
    """The pictures' words (`words.img_*` of the Karmic catalogues) in the reader's language: `say`
    is that reader's presenter (English when None). `w("term", term_dict)` words a term of the
    game (a range, a maneuver)."""
    if say is None:
        from i18n.present import Presenter
        say = Presenter(None, game="karmic")

    def w(key: str, term: dict | None = None, **params) -> str:
        if term is not None:
            return say.text(f"terms.{term['term']}", plain=True, **{k: v for k, v in term.items() if k != "term"})
        return say.text(f"words.img_{key}", plain=True, **params)
    return w


def _card(draw, w: Words, x: int, y: int, card: str | None, caption: str = "") -> None:
    """A card face (card id) or a card back (None)."""
    if card is None:
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 6, fill=BLUE, outline=INK, width=2)
        draw.rounded_rectangle((x + 6, y + 6, x + CARD_W - 6, y + CARD_H - 6), 4, outline=GOLD, width=2)
    else:
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 6, fill=WHITE, outline=INK, width=2)
        if card.startswith("JK"):
            stamp(draw, (x + CARD_W // 2, y + CARD_H // 2), w("joker"), 11, GOLD, True, "mm")
        else:
            rank, suit = card[:-1], card[-1]
            colour = RED if suit in "HD" else INK
            stamp(draw, (x + 6, y + 4), rank, 16, colour, True)
            stamp(draw, (x + CARD_W // 2, y + CARD_H // 2 + 6), SUITS[suit], 26, colour, False, "mm")
            if rank in ("J", "Q", "K"):
                stamp(draw, (x + CARD_W - 6, y + CARD_H - 6), w("hit"), 10, GOLD, True, "rb")
    if caption:
        stamp(draw, (x + CARD_W // 2, y + CARD_H + 4), caption[:18], 10, INK, False, "ma")


def register_track(view: dict, say=None) -> bytes:
    """`say`: the reader's presenter, for the words and for the pack's names (an NPC's) in its language."""
    w = words_of(say)
    view = in_language(view, getattr(say, "language", None) or "en")
    combat = view.get("combat") or {}
    fighters = combat.get("fighters", [])
    registers = combat.get("registers", [])
    n_regs = max(3, len(registers))
    row_h, col_w, left, top = CARD_H + 44, CARD_W * 2 + 16, 170, 56
    width = left + n_regs * col_w + 20
    height = top + max(1, len(fighters)) * row_h + 20
    image, draw = canvas(width, height, PAPER)
    title = w("title", round=combat.get("round", 0), register=combat.get("register", 1))
    ranges = ", ".join(w("term", e["range_text"]) for e in combat.get("engagements", []) if e.get("live"))
    stamp(draw, (12, 10), title, 18, INK, True)
    stamp(draw, (12, 34), ranges, 12, GREY)
    for i in range(n_regs):
        stamp(draw, (left + i * col_w + col_w // 2, top - 16), w("register", n=i + 1), 13, INK, True, "mm")
    holders = {e["initiative"] for e in combat.get("engagements", []) if e.get("live")}
    for r, f in enumerate(fighters):
        y = top + r * row_h
        draw.line((10, y - 4, width - 10, y - 4), fill=GREY)
        name = f["name"] + (" ★" if f["key"] in holders else "")
        stamp(draw, (12, y + 6), name[:18], 14, INK, True)
        stamp(draw, (12, y + 26), w("hp", marked=f["hp_marked"], max=f["hp_max"]), 12, RED if f.get("out") else INK)
        left_txt = "∞" if f.get("maneuvers_left") is None else str(f["maneuvers_left"])
        stamp(draw, (12, y + 44), w("cards", n=f["hand_count"], left=left_txt), 12, INK)
        for reg in registers:
            mine = [d for d in reg["decls"] if d["owner"] == f["key"]]
            for j, d in enumerate(mine[:2]):
                x = left + (reg["n"] - 1) * col_w + j * (CARD_W + 8)
                card = d.get("card") if d.get("revealed") else None
                _card(draw, w, x, y + 4, card, w("term", {"term": f"maneuver.{d['maneuver_id']}"}))
    return palette_png(image, PURE, GROUNDS)


def hand_image(view: dict, say=None) -> bytes:
    """The viewer's own hand (combat or check); an empty table if the view holds no hand."""
    cards: list[str] = []
    for f in (view.get("combat") or {}).get("fighters", []):
        cards += f.get("hand", [])
    for s in (view.get("check") or {}).get("sides", []):
        cards += s.get("hand", [])
    width = 24 + max(1, len(cards)) * (CARD_W + 10)
    image, draw = canvas(width, CARD_H + 30, PAPER)
    w = words_of(say)
    for i, c in enumerate(cards):
        _card(draw, w, 12 + i * (CARD_W + 10), 10, c)
    return palette_png(image, PURE, GROUNDS)
