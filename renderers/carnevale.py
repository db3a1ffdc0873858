"""Carnevale images, drawn from `view_for` dicts only (an image never shows more than its viewer may see).

- `squad_sheet(view, player=None)`: one card per model — attributes, AP, Karma pips, Command
  current/max, the Life track with crossed boxes and Pain Thresholds marked, status badges,
  weapons (loaded / jammed / destroyed) and spells.
- `game_sheet(view)`: both squads of a game side by side.
- `roll_image(roll)`: a row of d10 faces, the Destiny Die distinct, Aces highlighted, Critical/Fumble.
All return PNG bytes.

Words: every function takes `words(key, **params) -> str` (the presenter's, in the reader's language);
without one the pictures speak the English of `WORDS`.

Speed: a sheet is the same cards step after step, and one action changes one or two of them. Each card
is drawn once per *value* (`CardFace`: every string, number and colour the card shows, nothing else —
the drawing reads only the face, so the cache key cannot miss a drawn value), mapped once onto a fixed
palette and kept; a sheet is its cached frame with the cards pasted in, encoded one byte a pixel.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from .common import (BLUE, GOLD, GREEN, GREY, INK, PAPER, RED, Pen, blank, canvas, fixed_palette, on_palette,
                     palette_png, paste, per_scale, stamp, text_width)

CARD_W = 760
CARD_H = 150
MARGIN = 12
BOX = 18
DARK_PAPER = (230, 222, 204)
PURPLE = (110, 60, 150)
BOX_FILL = (250, 250, 250)
DIE_FILL = (245, 245, 245)
ATTRIBUTES = ("MOV", "COM", "DEX", "SHO", "MIN", "PRO")

# Every colour the pictures use and the grounds they are drawn on: the palette is these and their
# anti-aliased blends (renderers.common.fixed_palette).
PURE = (PAPER, INK, RED, BLUE, GREEN, GREY, GOLD, PURPLE, DARK_PAPER, BOX_FILL, DIE_FILL)
GROUNDS = (PAPER, DARK_PAPER, BOX_FILL, DIE_FILL, GOLD, GREY, GREEN, RED, BLUE, INK, PURPLE)

Words = Callable[..., str]

# The words the pictures show when the caller gives none (a direct call, a test): English, the same as
# `words.image_*` in i18n/en.carnevale.yaml (a test holds them equal). A key with a `_one` twin takes
# it when `n` is 1, as the presenter's plural forms do.
WORDS = {
    "title": "{name} — {squad} ({faction})", "title_plain": "Carnevale", "round": "Round {round}/{max_rounds}",
    "subtitle": "{profile} · {uid} · {size}", "size_medium": "Medium", "size_large": "Large", "size_huge": "Huge",
    "leader": "{name} ★", "attribute": "{name} {value}",
    "attr_mov": "MOV", "attr_com": "COM", "attr_dex": "DEX", "attr_sho": "SHO", "attr_min": "MIN", "attr_pro": "PRO",
    "ap": "AP {ap}/{ap_max}", "karma": "Karma", "command": "Command {command}/{command_max}", "life": "Life",
    "life_left": "{left}/{life} LP", "pain_one": "{left}/{life} LP   pain: −1 die",
    "pain": "{left}/{life} LP   pain: −{n} dice",
    "fled": "FLED", "fallen": "FALLEN", "active": "ACTIVE", "activated": "Activated", "stunned": "STUNNED",
    "at_ready_melee": "At the Ready (melee)", "at_ready_shooting": "At the Ready (shooting)", "hidden": "Hidden",
    "drowning": "Drowning", "fleeing": "Fleeing", "petrified": "Petrified", "in_darkness": "Darkness",
    "in_water": "In water", "reserve": "Reserve", "carrying_fragment": "Fragment",
    "weapons": "Weapons: {list}", "no_weapons": "Weapons: —", "weapon_destroyed": "{name} (destroyed)",
    "weapon_jammed": "{name} (jammed)", "weapon_unloaded": "{name} (unloaded)",
    "spells": "Spells: {list} (next costs {cost} Karma)", "spells_locked": "Spells: {list} (next costs {cost} Karma, locked)",
    "magic_item": "Magic item: {item}", "magic_hidden": "Magic item: hidden",
    "destiny": "Destiny", "no_dice": "No dice to roll — automatic failure",
    "aces_one": "1 Ace at difficulty {difficulty}", "aces": "{n} Aces at difficulty {difficulty}",
    "critical": "{aces} — CRITICAL", "fumble": "{aces} — FUMBLE",
}


def english(key: str, **params) -> str:
    if params.get("n") == 1 and f"{key}_one" in WORDS:
        key = f"{key}_one"
    return WORDS[key].format(**{k: _english_term(v) if isinstance(v, Mapping) else v for k, v in params.items()})


def _english_term(value: Mapping) -> str:
    """A value given as data (a squad the rules built is named by a term): the catalogue's English."""
    from i18n.present import Presenter
    return str(Presenter(None, game="carnevale").value(dict(value), plain=True))


class _Frozen(tuple):
    """A mapping among a word's parameters (a term), as a hashable cache key."""


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return _Frozen(sorted((k, _frozen(v)) for k, v in value.items()))
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _thawed(value: Any) -> Any:
    return {k: _thawed(v) for k, v in value} if isinstance(value, _Frozen) else value


def presenter_words(say) -> Words:
    """A presenter's words for these pictures (`words.image_*`, in its reader's language). A sheet asks
    for the same few words on every card ("Karma", "Life", "MOV"…): each is worded once per key and
    values, which keeps a whole sheet's words under a millisecond. A value may be data the presenter
    words (a term, such as the name of a squad the rules built): it is cached by its contents."""
    @lru_cache(maxsize=1024)
    def worded(key: str, params: tuple) -> str:
        return say.text(f"words.image_{key}", plain=True, **{k: _thawed(v) for k, v in params})

    return lambda key, **params: worded(key, tuple(sorted((k, _frozen(v)) for k, v in params.items())))


def _png(image: Image.Image) -> bytes:
    return palette_png(image, PURE, GROUNDS)


def _palette() -> Image.Image:
    return fixed_palette(PURE, GROUNDS)


# ------------------------------------------------------------------------------ cards
@dataclass(frozen=True)
class CardFace:
    """Everything one model's card shows, as finished values: the cache key of its drawing."""
    fallen: bool
    name: str
    subtitle: str
    attributes: str
    ap: str
    karma_label: str
    karma: int
    karma_max: int
    command: str
    life_label: str
    track: tuple[tuple[str, bool], ...]       # (modifier shown, is a Pain Threshold) per box
    damage: int
    life_text: str
    in_pain: bool
    badges: tuple[tuple[str, tuple[int, int, int]], ...]
    weapons: str
    extra: str


def _badges(m: dict, words: Words) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    out = []
    name = m.get("name", "")       # a status word agrees with the model ("CADUTA"): see i18n/present.py
    if m.get("fallen"):
        out.append((words("fled" if m.get("fled") else "fallen", name=name), GREY))
    if m.get("active"):
        out.append((words("active", name=name), GREEN))
    elif m.get("activated") and not m.get("fallen"):
        out.append((words("activated", name=name), GREY))
    if m.get("stunned"):
        out.append((words("stunned", name=name), RED))
    if m.get("at_ready"):
        out.append((words(f"at_ready_{m['at_ready']}", name=name), BLUE))
    for key, colour in (("hidden", GREY), ("drowning", BLUE), ("fleeing", RED), ("petrified", GREY),
                        ("in_darkness", INK), ("in_water", BLUE)):
        if m.get(key):
            out.append((words(key, name=name), colour))
    if not m.get("on_table", True) and not m.get("fallen"):
        out.append((words("reserve", name=name), GREY))
    if m.get("carrying"):
        out.append((words(f"carrying_{m['carrying']}"), GOLD))
    return tuple(out)


def _weapon(w: dict, words: Words) -> str:
    state = "destroyed" if w["destroyed"] else "jammed" if w["jammed"] else "" if w["loaded"] else "unloaded"
    return words(f"weapon_{state}", name=w["name"]) if state else w["name"]


def card_face(m: dict, words: Words = english) -> CardFace:
    """What a model's card shows, in the reader's words."""
    a = m["attributes"]
    thresholds = set(m.get("thresholds", []))
    weapons = [_weapon(w, words) for w in m.get("weapons", [])]
    extra = []
    if m.get("spells"):
        extra.append(words("spells_locked" if m.get("cast_locked") else "spells", list=", ".join(m["spells"]),
                           cost=m.get("next_spell_cost", 1)))
    if m.get("magic_item") == "hidden":
        extra.append(words("magic_hidden"))
    elif m.get("magic_item"):
        extra.append(words("magic_item", item=m["magic_item"]))
    pain = m.get("pain_penalty", 0)
    lp = {"left": m["life_left"], "life": m["life"]}
    return CardFace(
        fallen=bool(m.get("fallen")),
        name=words("leader", name=m["name"]) if m.get("leader") else str(m["name"]),
        subtitle=words("subtitle", profile=m["profile"], uid=m["uid"],
                       size=words(f"size_{str(m['size']).lower()}") if m.get("size") else ""),
        attributes="  ".join(words("attribute", name=words(f"attr_{k.lower()}"), value=a[k]) for k in ATTRIBUTES),
        ap=words("ap", ap=m["ap"], ap_max=m["ap_max"]), karma_label=words("karma"),
        karma=int(m["karma"]), karma_max=int(m["karma_max"]),
        command=words("command", command=m["command"], command_max=m["command_max"]) if m.get("command_max") else "",
        life_label=words("life"),
        track=tuple((str(mod) if mod else "", i in thresholds) for i, mod in enumerate(m["life_track"])),
        damage=int(m["damage"]),
        life_text=words("pain", n=abs(pain), **lp) if pain else words("life_left", **lp), in_pain=bool(pain),
        badges=_badges(m, words),
        weapons=words("weapons", list=", ".join(weapons)) if weapons else words("no_weapons"),
        extra="   ".join(extra)[:120])


def _txt(draw, xy, text, size=13, fill=INK, bold=False, anchor="la"):
    stamp(draw, xy, text, size, fill, bold, anchor)


@per_scale(maxsize=256)
def _card(face: CardFace) -> Image.Image:
    """A card drawn from its face alone, on the palette (~110 kB; a table of 16 models and a few
    changed ones fit many times over)."""
    image, draw = canvas(CARD_W, CARD_H, DARK_PAPER if face.fallen else PAPER)
    draw.rectangle([0, 0, CARD_W - 1, CARD_H - 1], outline=INK, width=2)
    _txt(draw, (10, 8), face.name, 16, bold=True)
    _txt(draw, (10, 30), face.subtitle, 11, GREY)
    _txt(draw, (300, 10), face.attributes, 13, bold=True)
    _txt(draw, (300, 32), face.ap, 13, BLUE, bold=True)
    _txt(draw, (390, 32), face.karma_label, 12)
    for i in range(face.karma_max):
        cx = 440 + i * 14
        draw.ellipse([cx, 33, cx + 10, 43], fill=PURPLE if i < face.karma else PAPER, outline=PURPLE)
    if face.command:
        _txt(draw, (600, 32), face.command, 13, GOLD, bold=True)
    tx, ty = 10, 56
    _txt(draw, (tx, ty + 2), face.life_label, 12, bold=True)
    for i, (mod, threshold) in enumerate(face.track):
        bx = tx + 40 + i * (BOX + 3)
        draw.rectangle([bx, ty, bx + BOX, ty + BOX], fill=BOX_FILL, outline=RED if threshold else INK,
                       width=3 if threshold else 1)
        if mod:
            _txt(draw, (bx + BOX // 2, ty + BOX // 2), mod, 10, RED if threshold else GREY, anchor="mm")
        if i < face.damage:
            draw.line([bx + 2, ty + 2, bx + BOX - 2, ty + BOX - 2], fill=INK, width=2)
            draw.line([bx + 2, ty + BOX - 2, bx + BOX - 2, ty + 2], fill=INK, width=2)
    _txt(draw, (tx + 50 + len(face.track) * (BOX + 3), ty + 2), face.life_text, 12, RED if face.in_pain else INK,
         bold=face.in_pain)
    bx = 10
    for k, (label, colour) in enumerate(face.badges):
        w = int(text_width(label, 11, True)) + 10
        if bx + w > CARD_W - 40 and k < len(face.badges) - 1 or bx + w > CARD_W - 10:
            _txt(draw, (bx, 86), f"+{len(face.badges) - k}", 11, INK, bold=True)     # the rest, counted
            break
        draw.rounded_rectangle([bx, 84, bx + w, 100], radius=4, fill=colour)
        _txt(draw, (bx + 5, 86), label, 11, PAPER, bold=True)
        bx += w + 6
    _txt(draw, (10, 106), face.weapons, 11)
    _txt(draw, (10, 124), face.extra, 11, PURPLE)
    return on_palette(image, _palette())


# ------------------------------------------------------------------------------ sheets
def _column(view: dict, player: str | None, words: Words) -> tuple[str, str, list[dict]]:
    """A column's title, Round line and models."""
    models = [m for m in view["models"] if player is None or m["owner"] == player]
    title = words("title_plain")
    if player and player in view.get("players", {}):
        p = view["players"][player]
        title = words("title", name=p["name"], squad=p["squad"], faction=p["faction"])
    # a squad sheet outside a game has no Round to show
    rounds = words("round", round=view.get("round", 1), max_rounds=view["max_rounds"]) if view.get("max_rounds") else ""
    return title, rounds, models


def _column_height(cards: int) -> int:
    return 50 + max(1, cards) * (CARD_H + MARGIN)


@per_scale(maxsize=64)
def _heading(title: str, rounds: str) -> Image.Image:
    """A column's title and Round, on the palette."""
    image, draw = canvas(CARD_W + 2 * MARGIN, 44)
    _txt(draw, (MARGIN, 12), title, 18, bold=True)
    if rounds:
        _txt(draw, (CARD_W + MARGIN, 16), rounds, 13, GREY, anchor="ra")
    return on_palette(image, _palette())


@lru_cache(maxsize=16)
def _index(colour: tuple[int, int, int]) -> int:
    """Where a pure colour sits in the palette."""
    return on_palette(Image.new("RGB", (1, 1), colour), _palette()).getpixel((0, 0))


def _paper(width: int, height: int) -> Image.Image:
    """Blank paper already on the palette (mapping a whole sheet's worth of paper costs as much as
    encoding it)."""
    image = blank(width, height, _index(PAPER), "P")
    image.putpalette(_palette().getpalette())
    return image


def _sheet(view: dict, players: list[str | None], words: Words) -> bytes:
    columns = [_column(view, pid, words) for pid in players]
    step = CARD_W + 3 * MARGIN                  # a column and the gap after it
    height = max(_column_height(len(models)) for _t, _r, models in columns)
    image = _paper(len(columns) * step - MARGIN, height)
    draw = Pen(image)
    for k, (title, rounds, models) in enumerate(columns):
        x = k * step
        paste(image, _heading(title, rounds), (x, 0))
        if k:
            draw.line([x - MARGIN // 2, 8, x - MARGIN // 2, height - 8], fill=_index(GREY), width=2)
        for i, m in enumerate(models):
            paste(image, _card(card_face(m, words)), (x + MARGIN, 44 + i * (CARD_H + MARGIN)))
    return _png(image)


def squad_sheet(view: dict, player: str | None = None, words: Words = english) -> bytes:
    """The squad sheet of one player (or every model when player is None)."""
    return _sheet(view, [player], words)


def game_sheet(view: dict, words: Words = english) -> bytes:
    """Both squads of a game side by side (one column per player, each with its own title),
    or the plain sheet when the view has one player or none."""
    seats = [pid for pid in view.get("seats") or view.get("players", {}) if pid in view.get("players", {})]
    return _sheet(view, list(seats) if len(seats) >= 2 else [None], words)


# ------------------------------------------------------------------------------ rolls
DIE_STEP = 58


@per_scale(maxsize=64)
def _die(face: int, destiny: bool, ace: bool, destiny_word: str) -> Image.Image:
    """One d10 as rolled (and the Destiny Die's name under it), on the palette."""
    image, draw = canvas(DIE_STEP, 66)       # stops above the result line
    draw.rounded_rectangle([0, 0, 48, 48], radius=8, fill=GOLD if destiny else DIE_FILL,
                           outline=GREEN if ace else INK, width=4 if ace else 2)
    _txt(draw, (24, 24), face, 22, RED if face == 1 else INK, bold=True, anchor="mm")
    if destiny:
        _txt(draw, (24, 54), destiny_word, 10, GREY, anchor="ma")
    return on_palette(image, _palette())


HEADING_H = 26


@per_scale(maxsize=64)
def _roll_frame(width: int, heading: str, result: str, colour: tuple[int, int, int], empty: str) -> Image.Image:
    """The roll's paper: how the pool came about (when the caller says), the result under the dice."""
    top = HEADING_H if heading else 0
    image, draw = canvas(width, 120 + top)
    if heading:
        _txt(draw, (12, 10), heading, 13, GREY, bold=True)
    if empty:
        _txt(draw, (width // 2, top + 50), empty, 14, anchor="mm")
    _txt(draw, (12, top + 88), result, 15, colour, bold=True)
    return on_palette(image, _palette())


def roll_image(roll: dict, words: Words = english, heading: str = "") -> bytes:
    """A rolled pool: `roll` is a PoolResult.to_public() dict (or an event's data). `heading`: the
    pool explained, as the roll's message words it (base, each modifier and its reason, the cap)."""
    dice = roll.get("dice", [])
    flags = roll.get("ace_flags") or [False] * len(dice)
    aces, difficulty = roll.get("aces", 0), roll.get("difficulty", 7)
    text = words("aces", n=aces, difficulty=difficulty)
    colour = INK
    if roll.get("critical"):
        text, colour = words("critical", aces=text), GREEN
    if roll.get("fumble"):
        text, colour = words("fumble", aces=text), RED
    width = max(420, 20 + len(dice) * DIE_STEP, 24 + int(text_width(heading, 13, True)) if heading else 0)
    image = _roll_frame(width, heading, text, colour, "" if dice else words("no_dice")).copy()
    destiny_word = words("destiny")
    top = 12 + (HEADING_H if heading else 0)
    for i, face in enumerate(dice):
        paste(image, _die(int(face), i == 0, bool(flags[i]), destiny_word), (12 + i * DIE_STEP, top))
    return _png(image)
