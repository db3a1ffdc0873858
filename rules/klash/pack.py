"""Klash! content packs: character cards and Event Cards as YAML, validated by a JSON Schema.

``load_sample_pack()`` returns the bundled SAMPLE pack; ``load_pack_text(text, source)`` validates a guild's
pack (``/pack import``). Both return a plain dict ``{"name", "sample", "characters": {id: card},
"events": {id: card}}`` that the engine copies into the game state, so a game never reads files.
"""
from __future__ import annotations

from rules.common import Problem, Where
from rules.common.packs import parse_yaml, quote, refuse, validate
from rules.common.safe_yaml import shorten

from . import dice

QUALITIES = (
    "winged_feet", "ranged_attack", "savage_beast", "big_game_hunter", "impetuous_charge",
    "devastating_blow", "counterattack", "defender", "tamer", "double_attack", "two_heads", "huge",
    "fury", "crowd_idol", "spellcaster", "hinder", "lethal", "weapon_master", "hawk_eye", "opportunist",
    "madman", "mighty", "destructive_power", "shorty", "requirements", "repel_charge", "regeneration",
    "lightning_reflexes", "sprint", "taunt", "feral", "lifeless", "elusive", "petrifying_gaze",
    "frightening", "stupid", "daredevil", "multiple_heads", "mighty_shot", "rapid_fire", "veteran",
    "mystic_vocation",
)
INSTINCTS = ("savage_beast", "feral", "stupid")
SPELLS = ("armour", "mystic_dart", "domination", "healing", "stun", "terror", "teleport", "destructive_touch")
TYPES = ("gregario", "campione", "mostro", "bestia")
EFFECT_KINDS = ("vp", "recover", "token", "boost", "hex", "cancel")
TIMINGS = ("own_turn", "any")
AUCTION_CARDS = 40       # character cards a pack needs at least, for the auction to deal from

DIE = {"type": "string", "pattern": r"^(0|1|[1-9]?d(3|4|6|8|10|12)|[1-9]?d12\+[1-9])$"}
TEXT = {"anyOf": [{"type": "string"}, {"type": "object", "additionalProperties": {"type": "string"}}]}

SCHEMA = {
    "type": "object",
    "required": ["name", "characters", "events"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "sample": {"type": "boolean"},
        "note": {"type": "string"},
        "characters": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["id", "name", "type", "copies", "initiative", "vp", "melee_attack", "melee_defence",
                         "ranged_attack", "ranged_defence", "magic_attack", "magic_defence", "tenacity",
                         "speed", "discipline"],
            "properties": {
                "id": {"type": "string", "pattern": "^[a-z0-9_]{1,16}$"},
                "name": TEXT,
                "type": {"enum": list(TYPES)},
                "copies": {"type": "integer", "minimum": 1, "maximum": 4},
                "initiative": {"type": "integer", "minimum": 0, "maximum": 20},
                "vp": {"type": "integer", "minimum": 0, "maximum": 50},
                "melee_attack": DIE, "melee_defence": DIE, "ranged_attack": DIE, "ranged_defence": DIE,
                "magic_attack": DIE, "magic_defence": DIE, "tenacity": DIE,
                "speed": {"type": "integer", "minimum": 1, "maximum": 40},
                "discipline": {"type": "integer", "minimum": 2, "maximum": 12},
                "ranged_range": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 1},
                                 "minItems": 2, "maxItems": 2},
                "qualities": {"type": "array", "items": {"enum": list(QUALITIES)}},
                "spells": {"type": "array", "items": {"enum": list(SPELLS)}},
                "requirements": {"type": "array", "items": {
                    "type": "object", "required": ["kind"], "additionalProperties": False,
                    "properties": {"kind": {"enum": ["min_type", "with_card", "max_models"]},
                                   "type": {"enum": list(TYPES)}, "card": {"type": "string"},
                                   "count": {"type": "integer", "minimum": 0}}}},
                "text": TEXT,
            },
            "allOf": [
                {"if": {"properties": {"type": {"const": "campione"}}},
                 "then": {"properties": {"copies": {"const": 1}}}},
                {"if": {"properties": {"type": {"enum": ["gregario", "mostro", "bestia"]}}},
                 "then": {"properties": {"copies": {"minimum": 2}}}},
            ],
        }},
        "events": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["id", "name", "copies", "timing", "effect"],
            "properties": {
                "id": {"type": "string", "pattern": "^[a-z0-9_]{1,14}$"},
                "name": TEXT,
                "copies": {"type": "integer", "minimum": 1, "maximum": 6},
                "timing": {"enum": list(TIMINGS)},
                "effect": {"enum": list(EFFECT_KINDS)},
                "amount": {"type": "integer", "minimum": 1, "maximum": 5},
                "text": TEXT,
            },
        }},
    },
}


def _name(value) -> str:
    if isinstance(value, dict):
        return value.get("en") or value.get("it") or next(iter(value.values()), "")
    return str(value)


def _normalise(doc: dict, source: str) -> dict:
    problems: list[Problem] = []
    source = shorten(source, 40)

    def problem(code: str, entry: tuple[str | int, ...], name: str, field: str = "", **params) -> None:
        problems.append(Problem(code, Where(source, entry, shorten(name, 30), field), params))

    chars: dict[str, dict] = {}
    for i, c in enumerate(doc["characters"]):
        at = ("characters", i)
        if c["id"] in chars:
            problem("duplicate_id", at, c["id"], "id", value=quote(c["id"]))
        quals = list(c.get("qualities") or [])
        if dice.usable(c["ranged_attack"]) and not c.get("ranged_range"):
            problem("ranged_range_needed", at, c["id"], "ranged_range")
        if c.get("ranged_range") and c["ranged_range"][0] > c["ranged_range"][1]:
            problem("short_over_max_range", at, c["id"], "ranged_range", short=c["ranged_range"][0],
                    max=c["ranged_range"][1])
        if c.get("spells") and "spellcaster" not in quals:
            problem("spells_need_spellcaster", at, c["id"], "spells")
        if c["type"] in ("bestia", "mostro") and sum(q in INSTINCTS for q in quals) > 1:
            problem("one_instinct", at, c["id"], "qualities")
        entry = dict(c)
        entry["name"] = _name(c["name"])
        entry["names"] = c["name"] if isinstance(c["name"], dict) else {"en": c["name"]}
        entry["qualities"] = quals
        entry["spells"] = list(c.get("spells") or [])
        entry["requirements"] = list(c.get("requirements") or [])
        entry["ranged_range"] = list(c["ranged_range"]) if c.get("ranged_range") else None
        entry["text"] = _name(c.get("text", ""))
        chars[c["id"]] = entry
    for cid, c in chars.items():
        for req in c["requirements"]:
            if req["kind"] == "with_card" and req.get("card") not in chars:
                problem("unknown_card", ("characters",), cid, "requirements", card=quote(req.get("card")))
    total = sum(c["copies"] for c in chars.values())
    if total < AUCTION_CARDS:
        problem("auction_too_small", ("characters",), "", need=AUCTION_CARDS, count=total)
    events: dict[str, dict] = {}
    for i, e in enumerate(doc.get("events") or []):
        if e["id"] in events:
            problem("duplicate_id", ("events", i), e["id"], "id", value=quote(e["id"]))
        entry = dict(e)
        entry["name"] = _name(e["name"])
        entry["names"] = e["name"] if isinstance(e["name"], dict) else {"en": e["name"]}
        entry["text"] = _name(e.get("text", ""))
        entry["texts"] = e["text"] if isinstance(e.get("text"), dict) else {"en": e.get("text", "")}
        entry.setdefault("amount", 1)
        events[e["id"]] = entry
    refuse(problems, "klash")
    return {"name": doc["name"], "sample": bool(doc.get("sample", False)), "characters": chars, "events": events}


def load_pack_text(text: str, source: str = "pack.yaml") -> dict:
    """Validate a YAML pack; raise PackError naming file, entry and field (an entry with a
    bilingual name is named by its id)."""
    doc = parse_yaml(text, source)
    validate(doc, SCHEMA, source)
    return _normalise(doc, source)
