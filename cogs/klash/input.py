"""What a Klash! player types, read: a model by its disc number, id or name in any language, a
direction, a goal (a model, the Altar, a Gate) and a destination; and a card as a short sheet."""
from __future__ import annotations

import math

from i18n import t
from i18n.present import Presenter
from renderers import klash as R
from rules.common import BautaError
from rules.klash import ENGINE, arena

from .board import NAME, _clean
from cogs.host import echo

WORDS = {"EAST": "E", "NORTH": "N", "WEST": "W", "SOUTH": "S", "NORTHEAST": "NE", "NORTHWEST": "NW",
         "SOUTHEAST": "SE", "SOUTHWEST": "SW", "EST": "E", "NORD": "N", "OVEST": "W", "SUD": "S"}
COMPASS = {"E": 0, "ENE": 22.5, "NE": 45, "NNE": 67.5, "N": 90, "NNW": 112.5, "NW": 135, "WNW": 157.5, "W": 180,
           "WSW": 202.5, "SW": 225, "SSW": 247.5, "S": 270, "SSE": 292.5, "SE": 315, "ESE": 337.5}


def _shown_name(state, m, locale=None) -> str:
    """A model's name as its reader sees it (the card's name in the reader's language, numbered)."""
    return R.model_name(state.label(m), Presenter(locale, game=NAME))


def _find_model(state, text: str | None, locale=None):
    """A typed model: the number on its disc, its id, or its name as shown in the reader's
    language or in English (the name an old state stored counts too)."""
    if not text:
        return None
    text = text.strip()
    number = text.lstrip("#")
    if number.isdigit():
        text = f"m{int(number)}"      # the number the arena draws on the model's disc
    for m in state.models:
        if m.id == text:
            return m
    low = text.lower()
    names = [(m, {_shown_name(state, m, loc).lower() for loc in (locale, None)} | {_clean(m.name).lower()} - {""})
             for m in state.models]
    exact = [m for m, known in names if low in known]
    if exact:
        return exact[0]
    partial = [m for m, known in names if any(low in name for name in known)]
    return partial[0] if len(partial) == 1 else None


def _model_id(state, text: str | None, locale=None) -> str:
    m = _find_model(state, text, locale)
    if m is None:
        raise BautaError(t("klash.unknown_model", locale, name=echo(text or "", 40)))
    return m.id


def _direction(text: str, locale=None) -> float:
    text = (text or "").strip().upper().replace("-", "").replace(" ", "")
    text = WORDS.get(text, text)
    if text in COMPASS:
        return float(COMPASS[text])
    try:
        value = float(text.rstrip("°"))
    except ValueError:
        raise BautaError(t("klash.bad_direction", locale)) from None
    if not math.isfinite(value):
        raise BautaError(t("klash.bad_direction", locale))
    return value % 360


def _goal(state, text: str | None, locale=None) -> str | None:
    if not text:
        return None
    low = text.strip().lower()
    if low in ("alt", "altar", "altare", "altar of chaos"):
        return "alt"
    if low in ("g0", "g1"):
        return low
    if low in ("gate 1", "gate1"):
        return "g0"
    if low in ("gate 2", "gate2"):
        return "g1"
    m = _find_model(state, text, locale)
    return m.id if m else low


def _destination(state, mid: str, x, y, toward, distance, direction, *, double=False, disengage=False,
                 locale=None) -> list[tuple[float, float]]:
    m = state.model(mid)
    if x is not None and y is not None:
        return [(float(x), float(y))]
    if toward:
        return ENGINE.route_toward(state, mid, _goal(state, toward, locale), distance, double=double, disengage=disengage)
    if distance is not None and direction is not None:
        return [arena.polar(m.x, m.y, float(distance), _direction(direction, locale))]
    raise BautaError(t("klash.where", locale))


def card_text(card: dict, locale=None) -> str:
    """A character card (public: profiles are on the table) as a short sheet, in the reader's
    language: the card's own name in it when the pack has one, types, qualities and spells by the
    catalogue's (the rulebook's) names."""
    say = Presenter(locale, game=NAME)

    def terms(prefix: str, keys) -> str:
        return ", ".join(say.text(f"terms.{prefix}_{k}", plain=True) for k in keys)

    name = _clean((card.get("names") or {}).get(say.language) or card["name"])
    dice = t("klash.card.dice", locale, ma=card["melee_attack"], md=card["melee_defence"], ra=card["ranged_attack"],
             rd=card["ranged_defence"], ga=card["magic_attack"], gd=card["magic_defence"], te=card["tenacity"])
    lines = [t("klash.card.header", locale, name=name, type=terms("type", [card["type"]]), vp=card["vp"],
               copies=card.get("copies", 1)),
             t("klash.card.stats", locale, stats=dice, initiative=card["initiative"], speed=card["speed"],
               discipline=card["discipline"])]
    if card.get("ranged_range"):
        lines.append(t("klash.card.range", locale, short=card["ranged_range"][0], long=card["ranged_range"][-1]))
    if card.get("qualities"):
        lines.append(t("klash.card.qualities", locale, q=terms("quality", card["qualities"])))
    if card.get("spells"):
        lines.append(t("klash.card.spells", locale, s=terms("spell", card["spells"])))
    for req in card.get("requirements") or []:
        lines.append(t("klash.card.requires", locale, r=", ".join(f"{k} {v}" for k, v in req.items())))
    return "\n".join(lines)
