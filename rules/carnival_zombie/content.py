"""Content packs for Carnival Zombie: the JSON Schema, the loaders and a lookup wrapper.

The rules read no file: the caller parses the bundled sample pack (`content.sample_pack`, from
`content/carnival_zombie/sample.yaml`) and hands it over with `use_sample` once at start-up
(`content.install()`); a game without a pack of its own plays it. A guild pack is parsed by
`load_pack_text` and stored inside the game state (as a `Frozen` dict that deep copies for free).
"""
from __future__ import annotations

from typing import Any

from rules.common import Problem, Where
from rules.common.packs import load_pack, quote, refuse
from rules.common.safe_yaml import shorten


_str = {"type": "string"}
_int = {"type": "integer"}
_bool = {"type": "boolean"}
_hits = {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}
_cave = {"enum": ["N1", "N2", "E1", "E2", "S1", "S2", "W1", "W2", "choice"]}
_dir = {"enum": ["N", "E", "S", "W"]}
# A name in one language, or in several ({en: Campaign, it: Campagna, es: Campaña}, English first
# when the reader's language is missing), as Klash!'s packs write them. Characters, Infected and
# Locations are proper names, written once.
_words = {"anyOf": [_str, {"type": "object", "minProperties": 1, "additionalProperties": _str,
                           "propertyNames": {"pattern": "^[a-z]{2}$"}}]}
# Where a pack may name things in several languages (the entries of these lists, and a Character's firearm)
TRANSLATED = ("bosses", "items", "events", "terrains", "specials", "finales", "scenarios")


def _obj(required: list[str], props: dict, extra: bool = True) -> dict:
    return {"type": "object", "required": required, "properties": props, "additionalProperties": extra}


def _list(item: dict, min_items: int = 0) -> dict:
    return {"type": "array", "items": item, "minItems": min_items}


SCHEMA: dict = _obj(
    ["ruleset", "terror_track", "calendar", "difficulty", "infected", "bosses", "characters", "items",
     "nightmare", "events", "terrains", "obstacle_tiles", "map", "finales", "scenarios"],
    {
        "ruleset": _str, "name": _str, "provisional": _bool,
        "terror_track": _obj(["spaces", "terror_from"], {"spaces": {"type": "integer", "minimum": 2},
                                                          "terror_from": {"type": "integer", "minimum": 1}}),
        "boss_area_slots": {"type": "integer", "minimum": 1},
        "calendar": _list(_obj(["ticket", "easy", "medium", "difficult"], {
            "ticket": {"enum": [1, 2, 3]}, "easy": _int, "medium": _int, "difficult": _int}), 3),
        "difficulty": _list(_obj(["id", "start", "survivors", "paranoia"], {
            "id": {"enum": ["easy", "medium", "difficult"]}, "start": _int, "survivors": _int, "paranoia": _int,
            "starting_items": _bool, "start_founderings": _int, "score": _int}), 3),
        "infected": _list(_obj(["id", "name", "count", "attack", "life", "move"], {
            "id": {"type": "string", "pattern": "^[A-OQRT-Z]$"}, "name": _str, "colour": _str,
            "count": {"type": "integer", "minimum": 0}, "attack": _int, "life": {"type": "integer", "minimum": 1},
            "move": {"type": "integer", "minimum": 0}}), 1),
        "bosses": _list(_obj(["id", "name", "attack", "life", "move"], {
            "id": {"type": "string", "pattern": "^[a-z0-9_]{1,12}$"}, "name": _words, "attack": _int,
            "life": {"type": "integer", "minimum": 1}, "move": {"type": "integer", "minimum": 0},
            "power": {"enum": ["none", "summon", "rally", "fury"]}, "power_value": _int, "placeholder": _bool}), 1),
        "characters": _list(_obj(["id", "name", "assault", "firearm", "day_ability", "night_ability"], {
            "id": {"type": "string", "pattern": "^[a-z0-9_]{1,10}$"}, "name": _str, "assault": _hits,
            "firearm": _obj(["hits", "wounds", "range"], {"name": _words, "hits": _int, "wounds": _int,
                                                          "range": _int, "explosive": _bool}),
            "day_ability": {"enum": ["rally", "exploration", "scavenge", "fortify", "barter", "treatment", "none"]},
            "night_ability": {"enum": ["orders", "free_move", "brute", "medico_heal", "none"]},
            "placeholder": _bool}), 1),
        "items": _list(_obj(["id", "name", "owner", "kind"], {
            "id": {"type": "string", "pattern": "^[a-z0-9_]{1,14}$"}, "name": _words, "owner": _str,
            "kind": {"enum": ["equipment", "firearm", "assault"]},
            "when": _list({"enum": ["day", "night", "night_step1", "night_first_hour"]}),
            "effect": {"enum": ["none", "recover", "group_recover", "barricades", "survivor", "fireworks",
                                "fewer_obstacles", "holy_bomb"]},
            "value": _int, "single_use": _bool, "starting": _bool,
            "hits": _int, "wounds": _int, "range": _int, "explosive": _bool, "assault": _hits})),
        "nightmare": _list(_obj(["id", "event", "character", "location", "search", "cave"], {
            "id": _str, "event": _str, "character": _str, "location": _int,
            "search": {"enum": ["item", "survivor", "infected"]}, "cave": _cave}), 1),
        "events": _list(_obj(["id", "name", "effect"], {
            "id": _str, "name": _words, "value": _int,
            "effect": {"enum": ["none", "extra_foundering", "barricades", "random_stress", "first_move_extra"]}})),
        "terrains": _list(_obj(["id", "name", "kind"], {
            "id": {"enum": ["building", "catacomb", "manhole", "pier", "altar", "belltower", "jerrycans", "alley"]},
            "name": _words, "kind": {"enum": ["obstacle", "fortification"]},
            "colour": {"enum": ["black", "blue"]}, "ring": {"enum": [1, 2, 3]}})),
        "obstacle_tiles": _list({"type": "array", "items": _str, "minItems": 2, "maxItems": 2}),
        "map": _obj(["locations", "alleys"], {
            "placeholder": _bool,
            "locations": _list(_obj(["id", "name", "x", "y"], {
                "id": {"type": "integer", "minimum": 1}, "name": _str, "x": {"type": "number"}, "y": {"type": "number"},
                "black": _int, "blue": _int, "forts": _int, "special": _str,
                "finale": _list(_str)}), 2),
            "alleys": _list({"type": "array", "prefixItems": [_int, _dir, _int, _int], "minItems": 4, "maxItems": 4}, 1)}),
        "specials": _list(_obj(["id", "name"], {"id": {"enum": ["arsenal_search", "call_airship"]}, "name": _words})),
        "finales": _list(_obj(["id", "name", "locations"], {
            "id": {"type": "string", "pattern": "^[a-z0-9_]{1,12}$"}, "name": _words, "kind": _str,
            "locations": _list(_int, 1), "requires": {"enum": ["none", "airship_called", "item", "holy_bomb"]},
            "item": _str, "win": _list({"enum": ["active", "hull", "bearer_safe"]}), "text": _str,
            "entrance_pits": _list(_dir), "entrance_cubes": _int, "hull": _int, "tile": _str,
            "placeholder": _bool})),
        "scenarios": _list(_obj(["id", "name", "kind"], {
            "id": _str, "name": _words, "kind": {"enum": ["day_night", "night_only"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 3}, "story": _bool,
            "night_hours": {"type": "integer", "minimum": 1, "maximum": 9},
            "disabled": _list({"enum": ["bosses", "foundering"]}), "finale": _str, "ticket": {"enum": [1, 2, 3]},
            "pile_mode": {"enum": ["probabilistic", "reaction", "honour"]}, "spill_adds": _int,
            "one_character_each": _bool, "min_players": _int, "traitor": _bool, "extra_bosses_hour": _int,
            "victory": {"type": "object"}})),
    },
)

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class Frozen(dict):
    """A dict that deep-copies to itself: pack content is never mutated by the engine. Its index for
    play (`content_for`) is kept as an attribute, which serialising the dict never sees."""

    indexed: Content

    def __deepcopy__(self, memo):  # noqa: D401
        return self


def _check_semantics(doc: dict, source: str) -> None:
    problems: list[Problem] = []
    source = shorten(source, 40)

    def problem(code: str, entry: tuple[str | int, ...], name: str = "", field: str = "", **params) -> None:
        problems.append(Problem(code, Where(source, entry, shorten(name, 30), field), params))

    chars = {c["id"] for c in doc["characters"]}
    locs = {loc["id"] for loc in doc["map"]["locations"]}
    at: tuple[str | int, ...]
    for i, item in enumerate(doc["items"]):
        at = ("items", i)
        if item["owner"] not in chars:
            problem("unknown_character", at, item["id"], "owner", value=quote(item["owner"]))
        if item["kind"] == "firearm" and not all(k in item for k in ("hits", "wounds", "range")):
            problem("firearm_needs", at, item["id"])
        if item["kind"] == "assault" and "assault" not in item:
            problem("assault_needs", at, item["id"])
    seen_dirs: dict[tuple[int, str], int] = {}
    for i, (a, d, b, _extra) in enumerate(doc["map"]["alleys"]):
        at = ("map", "alleys", i)
        for loc in (a, b):
            if loc not in locs:
                problem("unknown_location", at, value=quote(loc))
        for key in ((a, d), (b, OPPOSITE[d])):
            if key in seen_dirs:
                problem("alley_twice", at, location=key[0], direction={"term": f"dir_{key[1]}"})
            seen_dirs[key] = i
    events = {e["id"] for e in doc["events"]}
    for i, card in enumerate(doc["nightmare"]):
        if card["event"] not in events:
            problem("unknown_event", ("nightmare", i), card["id"], "event", value=quote(card["event"]))
        if card["location"] not in locs:
            problem("unknown_location", ("nightmare", i), card["id"], "location", value=quote(card["location"]))
    for i, diff in enumerate(doc["difficulty"]):
        if diff["start"] not in locs:
            problem("unknown_location", ("difficulty", i), diff["id"], "start", value=quote(diff["start"]))
    terrain_ids = {t["id"] for t in doc["terrains"]}
    for i, tile in enumerate(doc["obstacle_tiles"]):
        for face in tile:
            if face not in terrain_ids:
                problem("unknown_terrain", ("obstacle_tiles", i), value=quote(face))
    refuse(problems, "carnival_zombie")


def load_pack_text(text: str, source: str = "pack") -> Frozen:
    """Parse and validate a pack (YAML text). Raises PackError naming file, entry and field."""
    doc = load_pack(text, SCHEMA, source)
    _check_semantics(doc, source)
    return _freeze(_named(doc))


def _named(doc: dict) -> dict:
    """Names given in several languages become the pack's words as the presenter reads them,
    `{"text": {lang: name}}` (so an event or a prompt that names a Boss or an Item carries all of
    them, and each reader reads their own); a name in one language stays a plain string."""
    def words(name: Any) -> Any:
        if isinstance(name, dict):
            return {"text": dict(name)} if len(name) > 1 else next(iter(name.values()))
        return name
    for kind in TRANSLATED:
        for entry in doc.get(kind, ()):
            entry["name"] = words(entry["name"])
    for character in doc["characters"]:
        if "name" in character["firearm"]:
            character["firearm"]["name"] = words(character["firearm"]["name"])
    return doc


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return Frozen({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


_SAMPLE: Frozen | None = None


def use_sample(pack: Frozen) -> None:
    """The bundled sample pack, parsed by the caller: what a game without a pack of its own plays."""
    global _SAMPLE
    _SAMPLE = pack


def load_sample_pack() -> Frozen:
    if _SAMPLE is None:
        raise RuntimeError("the sample pack was not given: call content.install() at start-up")
    return _SAMPLE


class Content:
    """Indexed, read-only view of a pack."""

    def __init__(self, pack: dict):
        self.pack = pack
        self.track = pack["terror_track"]["spaces"]
        self.terror_from = pack["terror_track"]["terror_from"]
        self.slots = pack.get("boss_area_slots", 10)
        self.infected = {i["id"]: i for i in pack["infected"]}
        self.infected_order = [i["id"] for i in pack["infected"]]  # board order, strongest first
        # "the stronger comes first": Attack, then board order
        self.strength_order = sorted(self.infected_order,
                                     key=lambda t: (-self.infected[t]["attack"], self.infected_order.index(t)))
        self.bosses = {b["id"]: b for b in pack["bosses"]}
        self.characters = {c["id"]: c for c in pack["characters"]}
        self.char_order = [c["id"] for c in pack["characters"]]
        self.items = {i["id"]: i for i in pack["items"]}
        self.decks: dict[str, list[str]] = {c: [] for c in self.char_order}
        for item in pack["items"]:
            self.decks[item["owner"]].append(item["id"])
        self.nightmare = {c["id"]: c for c in pack["nightmare"]}
        self.events = {e["id"]: e for e in pack["events"]}
        self.terrains = {t["id"]: t for t in pack["terrains"]}
        self.tiles = [tuple(t) for t in pack["obstacle_tiles"]]
        self.locations = {loc["id"]: loc for loc in pack["map"]["locations"]}
        self.alleys: dict[int, dict[str, tuple[int, int]]] = {loc: {} for loc in self.locations}
        for a, d, b, extra in pack["map"]["alleys"]:
            self.alleys[a][d] = (b, extra)
            self.alleys[b][OPPOSITE[d]] = (a, extra)
        self.difficulty = {d["id"]: d for d in pack["difficulty"]}
        self.calendar = {c["ticket"]: c for c in pack["calendar"]}
        self.finales = {f["id"]: f for f in pack["finales"]}
        self.scenarios = {s["id"]: s for s in pack["scenarios"]}
        self.specials = {s["id"]: s for s in pack.get("specials", ())}
        self.cubes_total = sum(i["count"] for i in pack["infected"])


def content_for(pack: dict | None) -> Content:
    """The pack indexed for play. A frozen pack keeps its index on itself (made once per pack, however
    many states share it), so no cache is keyed by an object's id()."""
    pack = load_sample_pack() if pack is None else pack
    made = pack.__dict__.get("indexed") if isinstance(pack, Frozen) else None
    if made is None:
        made = Content(pack)
        if isinstance(pack, Frozen):
            pack.indexed = made
    return made
