"""Carnevale content packs: the profile schema of digest §4.4, weapons, equipment and spells.

`load_pack_text(text, source, base=...)` validates a pack's YAML (errors name file, entry and
field). A guild pack may hold only factions: the weapon, equipment and spell tables are then taken
from its `base`, the SAMPLE pack. This module reads no file: the caller reads the bundled sample
(`content.sample_pack("carnevale")`) and hands it over once at start-up (`content.install()` calls
`use_sample`); `load_sample_pack()` is that pack, the default of a game given none and the base of
a guild pack given no other.
"""
from __future__ import annotations

from typing import Any

from rules.common import PackError, Problem, Where
from rules.common.packs import load_pack, quote, refuse
from rules.common.safe_yaml import refused, shorten

SYSTEM = "carnevale"      # whose catalogue words a pack problem's code

ATTRS = ("MOV", "COM", "DEX", "SHO", "MIN", "PRO")

_ability = {"type": "object", "required": ["name"], "additionalProperties": False,
            "properties": {"name": {"type": "string", "minLength": 1}, "x": {"type": "integer"},
                           "target": {"type": "string"}, "text": {"type": "string"}}}

# A profile's grammatical gender, for the Italian and Spanish text that agrees with it ("Harlot è
# Stordita"): f or m in every language, or one per language for a word that differs.
_gender = {"oneOf": [{"enum": ["f", "m"]},
                     {"type": "object", "minProperties": 1, "additionalProperties": False,
                      "properties": {lang: {"enum": ["f", "m"]} for lang in ("en", "it", "es")}}]}

_profile = {
    "type": "object",
    "required": ["name", "cost", "ap", "attributes", "life_track"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 60},
        "sample": {"type": "boolean"},
        "note": {"type": "string"},
        "gender": _gender,
        "size": {"enum": ["Medium", "Large", "Huge"]},
        "base_mm": {"type": "integer", "minimum": 10},
        "cost": {"type": "integer", "minimum": 0},
        "ap": {"type": "integer", "minimum": 0, "maximum": 10},
        "attributes": {"type": "object", "required": list(ATTRS), "additionalProperties": False,
                       "properties": {a: {"type": "integer", "minimum": 0, "maximum": 10} for a in ATTRS}},
        "karma": {"type": "integer", "minimum": 0, "maximum": 20},
        "command": {"type": "integer", "minimum": 0, "maximum": 10},
        "life_track": {"type": "array", "minItems": 1, "maxItems": 40,
                       "items": {"type": "integer", "minimum": -9, "maximum": 0}},
        "descriptors": {"type": "array", "items": {"type": "string"}},
        "universal_abilities": {"type": "array", "items": _ability},
        "special_abilities": {"type": "array", "items": _ability},
        "equipment": {"type": "array", "items": {"type": "string"}},
        "options": {"type": "array", "items": {"type": "object", "required": ["item", "cost"],
                                               "properties": {"item": {"type": "string"},
                                                              "cost": {"type": "integer"}}}},
        "maintenance_cost": {"type": ["integer", "null"]},
        "spell_discounts": {"type": "object", "additionalProperties": {"type": "integer"}},
        "unique": {"type": "boolean"},
        "frequency": {"type": "array", "items": {
            "type": "object", "required": ["limit"],
            "properties": {"max_points": {"type": ["integer", "null"]}, "limit": {"type": "integer", "minimum": 0}}}},
        "spells": {"type": "array", "items": {"type": "string"}},
    },
}

_weapon = {
    "type": "object", "required": ["name", "kind"], "additionalProperties": False,
    "properties": {
        "name": {"type": "string"}, "kind": {"enum": ["melee", "ranged"]},
        "cost": {"type": "integer", "minimum": 0}, "damage": {"type": "integer"},
        "damage_dice": {"type": "string", "pattern": "^1d10([+-][0-9]+)?$"},
        "range": {"type": "integer", "minimum": 0}, "abilities": {"type": "array", "items": _ability},
        "no_damage": {"type": "boolean"}, "firearm": {"type": "boolean"}, "note": {"type": "string"},
    },
}

_equipment = {
    "type": "object", "required": ["name", "kind"], "additionalProperties": False,
    "properties": {"name": {"type": "string"}, "kind": {"enum": ["armour", "basic", "magical", "special"]},
                   "cost": {"type": "integer", "minimum": 0}, "abilities": {"type": "array", "items": _ability},
                   "effect": {"type": "string"}, "note": {"type": "string"}},
}

_spell = {
    "type": "object", "required": ["name", "cost", "difficulty", "effect"], "additionalProperties": False,
    "properties": {"name": {"type": "string"}, "cost": {"type": "integer", "minimum": 0},
                   "difficulty": {"type": "integer", "minimum": -5, "maximum": 5},
                   "difficulty_rule": {"enum": ["half_target_caster_mind", "enemy_caster_mind", "target_mind"]},
                   "range": {"type": "string"}, "duration": {"type": "string"}, "effect": {"type": "string"},
                   "critical": {"type": "string"}, "fumble": {"type": "string"}, "text": {"type": "string"},
                   "reaction": {"type": "boolean"}},
}

SCHEMA: dict = {
    "type": "object",
    "required": ["factions"],
    "properties": {
        "pack": {"type": "object", "properties": {"name": {"type": "string"}, "game": {"const": "carnevale"},
                                                  "version": {"type": "integer"}, "sample": {"type": "boolean"}}},
        "factions": {"type": "array", "items": {
            "type": "object", "required": ["name", "classes"], "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "sample": {"type": "boolean"},
                           "independent": {"type": "boolean"},
                           "classes": {"type": "array", "items": _profile}}}},
        "weapons": {"type": "array", "items": _weapon},
        "equipment": {"type": "array", "items": _equipment},
        "spells": {"type": "array", "items": _spell},
    },
}


class Pack:
    """Read-only indexes over a validated pack document."""

    def __init__(self, doc: dict, base: Pack | None = None):
        self.doc = doc
        self.name = (doc.get("pack") or {}).get("name", "pack")
        self.sample = bool((doc.get("pack") or {}).get("sample", False))
        self.profiles: dict[str, dict] = {}
        self.faction_of: dict[str, str] = {}
        self.independent_factions: set[str] = set()
        for faction in doc.get("factions", []):
            if faction.get("independent"):
                self.independent_factions.add(faction["name"])
            for cls in faction["classes"]:
                if cls["name"] in self.profiles:
                    raise PackError.one("class_twice", Where(shorten(self.name, 40)), SYSTEM, value=quote(cls["name"]))
                p = dict(cls)
                p["faction"] = faction["name"]
                if faction.get("independent"):
                    p["independent"] = True
                    p["unique"] = True
                self.profiles[cls["name"]] = p
                self.faction_of[cls["name"]] = faction["name"]
        self.weapons = {w["name"]: w for w in (base.doc.get("weapons", []) if base else [])}
        self.weapons.update({w["name"]: w for w in doc.get("weapons", [])})
        self.equipment = {e["name"]: e for e in (base.doc.get("equipment", []) if base else [])}
        self.equipment.update({e["name"]: e for e in doc.get("equipment", [])})
        self.spells = {s["name"]: s for s in (base.doc.get("spells", []) if base else [])}
        self.spells.update({s["name"]: s for s in doc.get("spells", [])})

    @property
    def genders(self) -> dict[str, str | dict[str, str]]:
        """The profiles that say their grammatical gender, by name (the presenter's ``genders``)."""
        return {name: p["gender"] for name, p in self.profiles.items() if "gender" in p}

    @property
    def factions(self) -> list[str]:
        return [f["name"] for f in self.doc.get("factions", [])]

    def profile(self, name: str) -> dict:
        try:
            return self.profiles[name]
        except KeyError:
            raise PackError.one("no_profile", Where(shorten(self.name, 40)), SYSTEM, value=quote(name)) from None

    def item(self, name: str) -> dict | None:
        """A weapon or an equipment entry, or None."""
        return self.weapons.get(name) or self.equipment.get(name)

    def item_cost(self, name: str) -> int:
        item = self.item(name)
        return int(item.get("cost", 0)) if item else 0

    def is_magical(self, name: str) -> bool:
        item = self.equipment.get(name)
        return bool(item and item.get("kind") == "magical")


def _check_references(pack: Pack, source: str) -> None:
    problems = []
    for name, p in pack.profiles.items():
        for item in p.get("equipment", []):
            if pack.item(item) is None:
                problems.append(Problem("no_equipment", _class_where(source, name, "equipment"), {"value": quote(item)}))
        for spell in p.get("spells", []):
            if spell not in pack.spells:
                problems.append(Problem("no_spell", _class_where(source, name, "spells"), {"value": quote(spell)}))
    refuse(problems, SYSTEM)


def _class_where(source: str, name: str, field: str) -> Where:
    return Where(shorten(source, 40), ("classes",), shorten(name, 30), field)


_SAMPLE: Pack | None = None


def use_sample(pack: Pack) -> None:
    """The bundled SAMPLE pack, parsed by the caller: what a game given no pack plays, and the base
    (weapons, equipment, spells) of a guild pack given no other."""
    global _SAMPLE
    _SAMPLE = pack


def load_sample_pack() -> Pack:
    if _SAMPLE is None:
        raise RuntimeError("the Carnevale sample pack was not given: call content.install() at start-up")
    return _SAMPLE


def load_pack_text(text: str, source: str = "pack.yaml", base: Pack | None = None) -> Pack:
    """Validate a pack; the weapon/equipment/spell tables it lacks come from `base` (by default
    the SAMPLE pack once installed; the sample itself is parsed before, with none)."""
    doc = load_pack(text, SCHEMA, source)
    if not isinstance(doc, dict):
        raise refused(source, "not_a_mapping", needs="factions")
    pack = Pack(doc, base=base if base is not None else _SAMPLE)
    _check_references(pack, source)
    return pack


def pack_from_doc(doc: dict | Pack | None, base: Pack | None = None) -> Pack:
    """A Pack from an already-parsed document (as the cog stores it), validated again; a Pack is
    taken as it is, and None is the SAMPLE pack."""
    if isinstance(doc, Pack):
        return doc
    if doc is None:
        return load_sample_pack()
    from rules.common.packs import validate
    validate(doc, SCHEMA, (doc.get("pack") or {}).get("name", "pack"))
    pack = Pack(doc, base=base if base is not None else load_sample_pack())
    _check_references(pack, pack.name)
    return pack


def as_ability_list(items: Any) -> list[dict]:
    return [{"name": a["name"], **({"x": a["x"]} if "x" in a else {}),
             **({"target": a["target"]} if "target" in a else {})} for a in (items or [])]
