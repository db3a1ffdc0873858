"""Karmic content packs: weapons, armor, distinctions, characters and NPCs, as YAML.

`load_pack_text(text, source)` validates a pack's text (the bundled SAMPLE pack, which
`content.sample_pack("karmic")` reads from `content/karmic/sample.yaml`, or a guild's) and returns
the parsed dict (schema `PACK_SCHEMA`; errors name file, entry, field). Nothing here reads a file.
"""
from __future__ import annotations

from rules.common import Problem
from rules.common.packs import entry_where, load_pack, quote, refuse

from ..character import ARMOR_SCHEMA, DISTINCTION_SCHEMA, SHEET_SCHEMA, WEAPON_SCHEMA
from ..names import entry_matches, split

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
    """The pack, validated, with every name given in several languages split into `name` (the
    English, which sheets and the rules key on) and `names` (rules/karmic/names.py)."""
    doc = load_pack(text, PACK_SCHEMA, source) or {}
    _check_references(doc, source)
    return _split_names(doc)


def _split_names(doc: dict) -> dict:
    out = dict(doc)
    for group in ("weapons", "armor", "distinctions"):
        if group in doc:
            out[group] = [split(entry) for entry in doc[group]]
    for group in ("characters", "npcs"):
        if group in doc:
            out[group] = [_split_sheet(sheet) for sheet in doc[group]]
    return out


def _split_sheet(sheet: dict) -> dict:
    sheet = split(sheet)
    for group in ("weapons", "distinctions"):
        if group in sheet:
            sheet[group] = [split(item) if isinstance(item, dict) else item for item in sheet[group]]
    if isinstance(sheet.get("armor"), dict):
        sheet["armor"] = split(sheet["armor"])
    return sheet


def _check_references(doc: dict, source: str) -> None:
    weapons, armor = doc.get("weapons", []), doc.get("armor", [])
    problems = []
    for group in ("characters", "npcs"):
        for i, sheet in enumerate(doc.get(group, [])):
            for w in sheet.get("weapons", []):
                if isinstance(w, str) and not any(entry_matches(w, entry) for entry in weapons):
                    problems.append(Problem("no_weapon", entry_where(source, doc, (group, i), "weapons"),
                                            {"value": quote(w)}))
            a = sheet.get("armor")
            if isinstance(a, str) and not any(entry_matches(a, entry) for entry in armor):
                problems.append(Problem("no_armor", entry_where(source, doc, (group, i), "armor"), {"value": quote(a)}))
    refuse(problems, "karmic")
