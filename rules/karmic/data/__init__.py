"""Karmic content packs: weapons, armor, distinctions, characters and NPCs, as YAML.

`load_pack_text(text, source)` validates a pack's text (the bundled SAMPLE pack, which
`content.sample_pack("karmic")` reads from `content/karmic/sample.yaml`, or a guild's) and returns
the parsed dict (schema `PACK_SCHEMA`; errors name file, entry, field). Nothing here reads a file.
"""
from __future__ import annotations

from rules.common import Problem
from rules.common.packs import entry_where, load_pack, quote, refuse

from ..character import ARMOR_SCHEMA, DISTINCTION_SCHEMA, SHEET_SCHEMA, WEAPON_SCHEMA

PACK_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "pack": {"type": "object", "properties": {"name": {"type": "string"}, "sample": {"type": "boolean"},
                                                  "notice": {"type": "string"}}},
        "weapons": {"type": "array", "items": WEAPON_SCHEMA},
        "armor": {"type": "array", "items": ARMOR_SCHEMA},
        "distinctions": {"type": "array", "items": DISTINCTION_SCHEMA},
        "characters": {"type": "array", "items": SHEET_SCHEMA},
        "npcs": {"type": "array", "items": SHEET_SCHEMA},
    },
}

def load_pack_text(text: str, source: str = "pack.yaml") -> dict:
    doc = load_pack(text, PACK_SCHEMA, source) or {}
    _check_references(doc, source)
    return doc


def _check_references(doc: dict, source: str) -> None:
    weapons = {w["name"].lower() for w in doc.get("weapons", [])}
    armor = {a["name"].lower() for a in doc.get("armor", [])}
    problems = []
    for group in ("characters", "npcs"):
        for i, sheet in enumerate(doc.get(group, [])):
            for w in sheet.get("weapons", []):
                if isinstance(w, str) and w.lower() not in weapons:
                    problems.append(Problem("no_weapon", entry_where(source, doc, (group, i), "weapons"),
                                            {"value": quote(w)}))
            a = sheet.get("armor")
            if isinstance(a, str) and a.lower() not in armor:
                problems.append(Problem("no_armor", entry_where(source, doc, (group, i), "armor"), {"value": quote(a)}))
    refuse(problems, "karmic")
