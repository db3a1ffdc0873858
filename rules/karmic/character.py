"""Characters: the sheet (attributes, skills, fields, distinctions, gear) plus the karma deck.

A `Character` is a Serial value the cog stores per owner and guild; a check or a combat copies the
characters in and the cog writes them back from `engine.characters_out(state)` when it ends.
Sheets are YAML/JSON documents validated by `SHEET_SCHEMA` (errors name the field).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rules.common import IllegalAction, PackError, Rng, Serial, Where
from rules.common.packs import parse_yaml, quote, validate
from rules.common.safe_yaml import load_json, refused, shorten

from .cards import KarmaDeck, is_face, valid_card, value
from .names import (GENDER_SCHEMA, NAME_SCHEMA, NAMES_SCHEMA, entry_matches, gender_in_languages, matches, name_schema,
                    said, sheet_gender, split)
from .tables import ADVANCED_SKILLS, ATTRIBUTES, FOE_SKILLS, attribute_name, skill_cost, skill_key, skill_word


@dataclass
class Weapon(Serial):
    name: str
    skill: str = "brawling"
    range: int = 0              # melee reach in yards; for ranged weapons the maximum range
    force: int = 0
    max_maneuvers: float = 1    # a fraction for slow ranged weapons (0.5 = once every 2 turns)
    edge: int = 0
    max_damage: int = 1
    hands: int = 1
    impact: bool = False        # clubs and maces: may Smash
    shield: bool = False
    small_shield: bool = False  # may Shield Bash
    ranged: bool = False
    aim: int = 0
    entangles: bool = False     # a creature's entangling limb (L56): a hit holds the victim until chopped free
    vitality: int = 0           # that limb's vitality: the Chop modifier (L56, A13)
    names: dict[str, str] = field(default_factory=dict)    # the pack's forms per language (names.py)

    @property
    def shown(self):
        """The name as event data, worded for each reader (names.said)."""
        return said(self.name, self.names)


@dataclass
class Armor(Serial):
    name: str = "none"
    finesse_mod: int = 0        # ≤ 0, added
    might_mod: int = 0          # ≤ 0, added
    protection: int = 0         # unused unless a house rule says so
    names: dict[str, str] = field(default_factory=dict)

    @property
    def shown(self):
        return said(self.name, self.names)


@dataclass
class Distinction(Serial):
    name: str
    karma_value: int = 0
    description: str = ""
    names: dict[str, str] = field(default_factory=dict)

    @property
    def shown(self):
        return said(self.name, self.names)


@dataclass
class Character(Serial):
    name: str
    owner: str = ""
    npc: bool = False
    attributes: dict[str, int] = field(default_factory=lambda: {a: 0 for a in ATTRIBUTES})
    skills: dict[str, int] = field(default_factory=dict)
    advanced: list[str] = field(default_factory=list)        # extra skills the GM marks advanced
    fields: dict[str, list[str]] = field(default_factory=dict)
    distinctions: list[Distinction] = field(default_factory=list)
    weapons: list[Weapon] = field(default_factory=list)
    wielding: list[int] = field(default_factory=list)         # indexes into weapons: main, secondary
    armor: Armor | None = None
    size: float = 1.0
    hp_marked: int = 0
    fatigue: int = 0            # fatigue cards (L773; rules/karmic/fatigue.py)
    bleeding: bool = False      # losing hit points to bleeding until first aid stops it (L780; wounds.py)
    deck: KarmaDeck | None = None   # None: an NPC drawing from the GM's world deck
    aim_row: list[str] = field(default_factory=list)
    reload: dict[str, int] = field(default_factory=dict)      # weapon name -> turns until it may fire
    saved_checks: int = 0
    training: dict[str, int] = field(default_factory=dict)    # skill/attribute -> months trained

    # --- numbers ------------------------------------------------------------------------
    def attr(self, name: str) -> int:
        return int(self.attributes.get(attribute_name(name), 0))

    def skill(self, name: str) -> int:
        return int(self.skills.get(skill_key(name), 0))

    def is_advanced(self, name: str) -> bool:
        key = skill_key(name)
        return key in ADVANCED_SKILLS or key in self.advanced

    fatigue_effect: int = 1     # cards lost per fatigue card (house rule fatigue_card_effect)
    names: dict[str, str] = field(default_factory=dict)     # an NPC's name per language (names.py)
    gender: dict[str, str] = field(default_factory=dict)    # grammatical, per language; {}: as the catalogue says

    @property
    def shown(self):
        """The character's name as event data, worded for each reader (names.said)."""
        return said(self.name, self.names)

    def hand_for(self, skill: str | None) -> int:
        """Cards drawn for a skill: its level, default 1; advanced skills need training."""
        if not skill:
            n = 1
        else:
            lvl = self.skill(skill)
            if lvl <= 0 and self.is_advanced(skill):
                raise IllegalAction("advanced_untrained", name=self.shown, skill=skill_word(skill[:40]))
            n = max(1, lvl)
        return max(1, n - self.fatigue * self.fatigue_effect)

    @property
    def finesse_armored(self) -> int:
        return self.attr("finesse") + (self.armor.finesse_mod if self.armor else 0)

    def might_armored(self, damage_attr: str = "might") -> int:
        base = self.attr(damage_attr)
        return base + (self.armor.might_mod if self.armor else 0)

    def combat_mod(self, weapon: Weapon | None) -> int:
        return self.finesse_armored + (weapon.force if weapon else 0)

    def damage_mod(self, weapon: Weapon | None, damage_attr: str = "might") -> int:
        return self.might_armored(damage_attr) + (weapon.edge if weapon else 0)

    @property
    def hp_row(self) -> int:
        return max(1, 6 + self.attr("fortitude"))

    @property
    def hp_max(self) -> int:
        return 5 * self.hp_row

    @property
    def rows_filled(self) -> int:
        return min(5, self.hp_marked // self.hp_row)

    @property
    def incapacitated(self) -> bool:
        return self.hp_marked >= self.hp_max

    def wound_penalty(self, per_row: int = 1) -> int:
        return -per_row * self.rows_filled

    def wielded(self) -> list[Weapon]:
        return [self.weapons[i] for i in self.wielding if 0 <= i < len(self.weapons)]

    def weapon_index(self, name: str) -> int:
        for i, w in enumerate(self.weapons):
            if matches(name, w.name, w.names):
                return i
        raise IllegalAction("no_such_weapon", name=self.shown, weapon=name[:40])

    def foe_bonus(self, skill: str, field_name: str | None) -> int:
        """Fields of expertise: the skill only works in a field taken; +1 per repeat, max +4."""
        key = skill_key(skill)
        if key not in FOE_SKILLS and key not in self.fields:
            return 0
        taken = self.fields.get(key, [])
        if field_name is None:
            raise IllegalAction("name_the_field", skill=skill_word(skill[:40]))
        count = sum(1 for f in taken if f.lower() == field_name.lower())
        if count == 0:
            raise IllegalAction("no_such_field", name=self.shown, skill=skill_word(skill[:40]), field=field_name[:40])
        return min(4, count - 1)


# --- sheet schema ---------------------------------------------------------------------------
_INT = {"type": "integer"}
WEAPON_SCHEMA = {
    "type": "object", "required": ["name"], "additionalProperties": False,
    "properties": {
        "name": NAME_SCHEMA, "names": NAMES_SCHEMA, "skill": {"type": "string"},
        "range": _INT, "force": _INT, "max_maneuvers": {"type": "number", "exclusiveMinimum": 0},
        "edge": _INT, "max_damage": {"type": "integer", "minimum": 0},
        "hands": {"type": "integer", "minimum": 0, "maximum": 2},
        "impact": {"type": "boolean"}, "shield": {"type": "boolean"},
        "small_shield": {"type": "boolean"}, "ranged": {"type": "boolean"},
        "aim": {"type": "integer", "minimum": 0}, "sample": {"type": "boolean"},
        "entangles": {"type": "boolean"}, "vitality": {"type": "integer", "minimum": -10, "maximum": 10},
        "description": {"type": "string"},
    },
}
ARMOR_SCHEMA = {
    "type": "object", "required": ["name"], "additionalProperties": False,
    "properties": {"name": NAME_SCHEMA, "names": NAMES_SCHEMA, "finesse_mod": {"type": "integer", "maximum": 0},
                   "might_mod": {"type": "integer", "maximum": 0}, "protection": _INT,
                   "sample": {"type": "boolean"}, "description": {"type": "string"}},
}
DISTINCTION_SCHEMA = {
    "type": "object", "required": ["name", "karma_value"], "additionalProperties": False,
    "properties": {"name": NAME_SCHEMA, "names": NAMES_SCHEMA, "karma_value": _INT,
                   "description": {"type": "string"}, "sample": {"type": "boolean"},
                   "effects": {"type": "array", "items": {"type": "object"}}},
}
SHEET_SCHEMA = {
    "type": "object", "required": ["name"], "additionalProperties": False,
    "properties": {
        "name": name_schema(60),
        "names": NAMES_SCHEMA,
        "gender": GENDER_SCHEMA,                # f or m (or one per language): it/es words agree with it
        "npc": {"type": "boolean"},
        "own_deck": {"type": "boolean"},
        "attributes": {"type": "object", "additionalProperties": False,
                       "properties": {a: {"type": "integer", "minimum": -10, "maximum": 10}
                                      for a in ATTRIBUTES}},
        "skills": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0,
                                                              "maximum": 12}},
        "advanced": {"type": "array", "items": {"type": "string"}},
        "fields": {"type": "object", "additionalProperties": {"type": "array",
                                                              "items": {"type": "string"}}},
        "distinctions": {"type": "array", "items": {"anyOf": [{"type": "string"}, DISTINCTION_SCHEMA]}},
        "weapons": {"type": "array", "items": {"anyOf": [{"type": "string"}, WEAPON_SCHEMA]}},
        "wielding": {"type": "array", "maxItems": 2, "items": {"type": "string"}},
        "armor": {"anyOf": [{"type": "string"}, {"type": "null"}, ARMOR_SCHEMA]},
        "size": {"type": "number", "exclusiveMinimum": 0},
        "hp_marked": {"type": "integer", "minimum": 0},
        "fatigue": {"type": "integer", "minimum": 0, "maximum": 44},   # fatigue cards (L773; fatigue.py), ≤ a deck
        "bleeding": {"type": "boolean"},
        "description": {"type": "string"},
        "sample": {"type": "boolean"},
    },
}


# A sheet is a few hundred characters; aliases may repeat parts of it, but a sheet standing for more
# than this (values plus characters, aliases written out) is refused before anything walks it.
SHEET_MAX_SIZE = 200_000


def parse_sheet(text: str, source: str = "sheet") -> dict:
    """YAML or JSON text → a validated sheet dict (PackError naming the field otherwise)."""
    text = text.strip()
    source = shorten(source, 60)
    if text.startswith("{"):
        doc = load_json(text, source)
    else:
        doc = parse_yaml(text, source, SHEET_MAX_SIZE)
    if not isinstance(doc, dict):
        raise refused(source, "not_a_mapping", needs="name")
    validate(doc, SHEET_SCHEMA, source)
    return doc


def _gear(item: dict) -> dict:
    """A pack's or a sheet's weapon/armour entry as the dataclass reads it (names split, notes dropped)."""
    return {k: v for k, v in split(item).items() if k not in ("sample", "description")}


def pack_entry(pack: dict | None, group: str, typed: str) -> dict | None:
    """The pack's entry of `group` a player named, in any of its languages."""
    return next((e for e in (pack or {}).get(group, []) if entry_matches(typed, e)), None)


def _weapon(item, pack: dict | None, where: Where) -> Weapon:
    if isinstance(item, dict):
        return Weapon.from_dict(_gear(item))
    found = pack_entry(pack, "weapons", str(item))
    if found is not None:
        return Weapon.from_dict(_gear(found))
    raise PackError.one("no_weapon", replace(where, field="weapons"), value=quote(item))


def _armor(item, pack: dict | None, where: Where) -> Armor | None:
    if item is None:
        return None
    if isinstance(item, dict):
        return Armor.from_dict(_gear(item))
    found = pack_entry(pack, "armor", str(item))
    if found is not None:
        return Armor.from_dict(_gear(found))
    raise PackError.one("no_armor", replace(where, field="armor"), value=quote(item))


def character_from_sheet(sheet: dict, pack: dict | None = None, owner: str = "",
                         rng: Rng | None = None, source: str = "sheet") -> Character:
    """Build a Character (with a fresh, shuffled karma deck unless it draws from the world deck)."""
    source = shorten(source, 60)
    validate(sheet, SHEET_SCHEMA, source)
    sheet = split(sheet)
    where = Where(source, name=shorten(sheet["name"], 30))
    attrs = {a: 0 for a in ATTRIBUTES}
    attrs.update(sheet.get("attributes", {}))
    weapons = [_weapon(w, pack, where) for w in sheet.get("weapons", [])]
    wielding = []
    for n in sheet.get("wielding", [w.name for w in weapons if not w.ranged][:1]):
        held = [i for i, w in enumerate(weapons) if matches(n, w.name, w.names)]
        if not held:
            raise PackError.one("not_own_weapon", replace(where, field="wielding"), value=quote(n))
        wielding.append(held[0])
    distinctions = []
    for d in sheet.get("distinctions", []):
        if isinstance(d, str):
            found = pack_entry(pack, "distinctions", d)
            if found is None:
                raise PackError.one("no_distinction", replace(where, field="distinctions"), value=quote(d))
            d = found
        d = split(d)
        distinctions.append(Distinction(d["name"], d["karma_value"], d.get("description", ""), dict(d.get("names", {}))))
    npc = bool(sheet.get("npc", False))
    own_deck = sheet.get("own_deck", not npc)
    char = Character(
        name=sheet["name"], owner=owner, npc=npc, attributes=attrs,
        skills={skill_key(k): v for k, v in sheet.get("skills", {}).items()},
        advanced=[skill_key(s) for s in sheet.get("advanced", [])],
        fields={skill_key(k): list(v) for k, v in sheet.get("fields", {}).items()},
        distinctions=distinctions, weapons=weapons, wielding=wielding,
        armor=_armor(sheet.get("armor"), pack, where), size=float(sheet.get("size", 1.0)),
        hp_marked=int(sheet.get("hp_marked", 0)), fatigue=int(sheet.get("fatigue", 0)),
        bleeding=bool(sheet.get("bleeding", False)),
        deck=KarmaDeck.new_karma(rng or Rng.from_seed(sheet["name"])) if own_deck else None,
        names=dict(sheet.get("names", {})), gender=gender_in_languages(sheet.get("gender")),
    )
    return char


def import_sheet(text: str, pack: dict | None, owner: str, seed: int, source: str) -> tuple[dict, Character]:
    """What `/karmic character import` does with the file: parse and validate the sheet, then build
    the character (with a karma deck shuffled from `seed`). One call, so the cog can run all of it
    away from the event loop."""
    sheet = parse_sheet(text, source)
    return sheet, character_from_sheet(sheet, pack, owner, Rng.from_seed(seed), source)


def sheet_of(character: Character) -> dict:
    """The editable sheet of a character (without its deck state)."""
    return {
        "name": character.shown, **({"names": dict(character.names)} if character.names else {}),
        **({"gender": sheet_gender(character.gender)} if character.gender else {}),
        "npc": character.npc, "attributes": dict(character.attributes),
        "skills": dict(character.skills), "advanced": list(character.advanced),
        "fields": {k: list(v) for k, v in character.fields.items()},
        "distinctions": [d.to_dict() for d in character.distinctions],
        "weapons": [w.to_dict() for w in character.weapons],
        "wielding": [character.weapons[i].name for i in character.wielding],
        "armor": character.armor.to_dict() if character.armor else None, "size": character.size,
        "fatigue": character.fatigue, "bleeding": character.bleeding,
    }


# --- creation: point method --------------------------------------------------------------------
CHARACTER_TYPES = {
    # type: (CP, starting money, card-method cards dealt, skill slots)
    "youth": (10, 50, 9, 4), "average_adult": (15, 150, 14, 8), "young_hero": (25, 250, 17, 11),
    "hero": (30, 400, 21, 14), "veteran_hero": (40, 600, 27, 20), "legendary_hero": (50, 1000, 31, 23),
}
MAGIC_ARTS = {"banishment", "divination", "enchantment", "metamorphosis"}
SPELL_BOOKS = {"loose_notes": 40, "unindexed_book": 30, "indexed_book": 20}


def attribute_cost(value: int) -> int:
    return 5 * value


def point_cost(character: Character) -> int:
    attrs = sum(attribute_cost(v) for v in character.attributes.values())
    skills = sum(skill_cost(lvl, character.is_advanced(s)) for s, lvl in character.skills.items())
    return attrs + skills


def check_point_build(character: Character, char_type: str, gm_approved: bool = False) -> dict:
    """Validate a point-based character against a CP budget. Unspent CP are lost."""
    cp, money, _, _ = CHARACTER_TYPES[char_type]
    for a, v in character.attributes.items():
        if v > 4 and not gm_approved:
            raise IllegalAction("superhuman", attribute={"term": f"attribute.{a}"}, value=v)
    spent = point_cost(character)
    if spent > cp:
        raise IllegalAction("costs_too_much", name=character.shown, spent=spent, type={"term": f"char_type.{char_type}"}, cp=cp)
    magic = sum(character.skills.get(s, 0) for s in MAGIC_ARTS)
    return {"cp": cp, "spent": spent, "lost": cp - spent, "money": money,
            "hp": character.hp_max, "wizard": magic > 3}


def card_method_deal(char_type: str) -> dict:
    _, money, cards, slots = CHARACTER_TYPES[char_type]
    return {"cards": cards, "skill_slots": slots, "attribute_cards": 5, "money": money}


def check_card_assignment(char_type: str, attribute_cards: int, skill_cards: int,
                          bonus_skills: list[str], distinction_cards: int = 0,
                          max_distinction_cards: int = 0) -> None:
    deal = card_method_deal(char_type)
    if attribute_cards != 5:
        raise IllegalAction("five_attribute_cards")
    if skill_cards > deal["skill_slots"]:
        raise IllegalAction("skill_slots", n=deal["skill_slots"], type={"term": f"char_type.{char_type}"})
    if len(set(bonus_skills)) != len(bonus_skills):
        raise IllegalAction("bonus_once")
    if distinction_cards > max_distinction_cards:
        raise IllegalAction("distinction_cards", n=max_distinction_cards)
    if 5 + skill_cards + len(bonus_skills) + distinction_cards > deal["cards"]:
        raise IllegalAction("too_many_cards")


def trade_in(deck: list[str], handed_in: list[str], rng: Rng) -> list[str]:
    """Trade N cards into the deck for N−1 new ones (the handed-in cards are gone for good)."""
    n = len(handed_in)
    if n < 2:
        raise IllegalAction("trade_two")
    if len(deck) < n - 1:
        raise IllegalAction("not_enough_cards")
    return [deck.pop() for _ in range(n - 1)]


# --- distinctions and karma -----------------------------------------------------------------------
PAYMENTS = ("add_positive", "remove_negative", "add_negative", "remove_positive")


def pay_distinction(character: Character, karma_value: int, cards: list[str], mode: str) -> None:
    """Pay a distinction (or a karma award/penalty) in cards; values must add up exactly.

    Negative V: mode 'remove_positive' (deck→sideboard, positive cards summing |V|) or
    'add_negative' (sideboard→deck, negative cards summing V). Positive V mirrors it:
    'remove_negative' or 'add_positive'.
    """
    deck = character.deck
    if deck is None:
        raise IllegalAction("no_karma_deck", name=character.shown)
    unknown = [c for c in cards if not valid_card(c)]
    if unknown:
        raise IllegalAction("not_a_card", card=unknown[0][:12])
    total = sum(value(c) for c in cards)
    if not cards or any(c.startswith("JK") for c in cards):
        raise IllegalAction("pay_with_numbered_cards")
    allowed = {"remove_positive": karma_value < 0, "add_negative": karma_value < 0,
               "remove_negative": karma_value > 0, "add_positive": karma_value > 0}
    if not allowed.get(mode, False):
        raise IllegalAction("wrong_payment", how={"term": f"payment.{mode}"} if mode in PAYMENTS else mode[:30],
                            value=karma_value)
    sign_ok = all(value(c) > 0 for c in cards) if mode in ("remove_positive", "add_positive") \
        else all(value(c) < 0 for c in cards)
    if not sign_ok:
        raise IllegalAction("wrong_colour")
    want = abs(karma_value)
    if abs(total) != want:
        raise IllegalAction("cards_do_not_add_up", total=abs(total), want=want)
    if mode.startswith("remove"):
        deck.move_to_sideboard(cards)
    else:
        deck.move_to_deck(cards)


# --- advancement -----------------------------------------------------------------------------------
EFFORT_CHECKS = {"very_little": 0, "some": 1, "hard": 3, "very_difficult": 6, "long_and_tiring": 8}


SKILL_NAME = re.compile(r"[^\W\d_][^\W\d]{0,39}")       # tracking, wilderness_survival, équitation


def improvement_draw(character: Character, target: str, rng: Rng, teacher_bonus: bool = False,
                     hits: bool = True, joker_success: bool = True) -> dict:
    """Draw one card (two with a successful teacher, best used); success if it beats the level."""
    deck = character.deck
    if deck is None:
        raise IllegalAction("no_karma_deck", name=character.shown)
    is_attr = target in ATTRIBUTES
    if not is_attr and not SKILL_NAME.fullmatch(skill_key(target)):
        raise IllegalAction("not_a_skill", target=target[:40])
    level = character.attributes[target] if is_attr else max(1, character.skill(target))
    drawn = deck.draw(rng, 2 if teacher_bonus else 1)
    best = max(drawn, key=lambda c: (c.startswith("JK"), value(c)))
    chain = [best]
    total = value(best)
    card = best
    while hits and is_face(card):
        card = deck.draw(rng, 1)[0]
        chain.append(card)
        total += value(card)
    joker = any(c.startswith("JK") for c in chain)
    success = joker_success if joker else total > level
    if success:
        if is_attr:
            character.attributes[target] += 1
        else:
            character.skills[skill_key(target)] = level + 1
    deck.discard(drawn + chain[1:])
    return {"cards": drawn, "chain": chain, "total": total, "level": level, "success": success,
            "new_level": character.attributes[target] if is_attr else character.skill(target)}


def cleansing_minutes(mt: int) -> float:
    """Cleansing returns exactly one card; its total only scales the base hour (speed column)."""
    from .tables import result_chart
    return 60 * result_chart(mt)["speed"]


def medicine_heal(mt: int) -> int:
    return max(0, mt)


def healing_modifier(character: Character) -> int:
    return -character.hp_marked


def allocate_skill_checks(character: Character, effort: str, requests: list[dict],
                          gm_approved: set[str] | None = None, improved: set[str] | None = None) -> dict:
    """Spend an adventure's skill checks. Each request {skill, reason: used|plausible|missing|teacher,
    teacher?} must be approved by the GM (the bot asks per skill); 'missing' skills and skills the
    character never used need that approval. Unspent checks are saved; 8 checks = 1 attribute try.
    A skill may be listed several times but improves at most once per adventure (`improved`)."""
    if effort not in EFFORT_CHECKS:
        raise IllegalAction("unknown_effort", effort=effort[:40])
    gm_approved = {skill_key(s) for s in (gm_approved or set())}
    bank = character.saved_checks + EFFORT_CHECKS[effort]
    spent, attribute_tries = [], 0
    for req in requests:
        if req.get("attribute"):
            if bank < 8:
                raise IllegalAction("attribute_costs_8", checks=bank)
            bank -= 8
            attribute_tries += 1
            continue
        key = skill_key(req["skill"])
        reason = req.get("reason", "used")
        if reason not in ("used", "plausible", "missing", "teacher"):
            raise IllegalAction("unknown_reason", reason=str(reason)[:40])
        if key not in gm_approved:
            raise IllegalAction("gm_must_approve", skill=skill_word(str(req["skill"])[:40]), reason=reason)
        if reason == "teacher" and not req.get("teacher"):
            raise IllegalAction("name_the_teacher")
        if key in (improved or set()):
            raise IllegalAction("already_improved", skill=skill_word(str(req["skill"])[:40]))
        if bank < 1:
            raise IllegalAction("no_checks_left")
        bank -= 1
        spent.append(key)
    character.saved_checks = bank
    return {"spent": spent, "saved": bank, "attribute_tries": attribute_tries}


def check_fields(character: Character) -> None:
    """Fields of expertise: one field per level (repeats allowed, each repeat gives +1, max +4)."""
    for key, taken in character.fields.items():
        level = character.skill(key)
        if len(taken) != level:
            raise IllegalAction("fields_count", skill=skill_word(key), level=level, listed=len(taken))


def cleansing_result(mt: int) -> dict:
    """Cleansing always returns exactly one card; the total only sets the time (base 1 hour)."""
    success = mt > 0
    return {"cards_returned": 1 if success else 0, "minutes": cleansing_minutes(mt),
            "retry_wait_minutes": 0 if success else 60, "success": success}


def medicine_result(mt: int, heals_mt: bool = True) -> dict:
    """Medicine always takes half an hour; the total only sets the hit points healed
    (house rule medicine_heals_mt; False leaves the amount to the GM: healed None)."""
    return {"minutes": 30, "healed": medicine_heal(mt) if heals_mt else None}


def karma_award(character: Character, amount: int, cards: list[str], mode: str) -> None:
    """A GM karma award (+N) or penalty (−N), paid like a distinction (§1.3 PROPOSAL): an award adds
    positive sideboard cards or removes negative deck cards totalling N; a penalty mirrors it."""
    if mode not in PAYMENTS:
        raise IllegalAction("unknown_payment", how=str(mode)[:40])
    pay_distinction(character, amount, cards, mode)


def cleanse_return(character: Character, card: str) -> None:
    """A successful CLEANSING returns exactly one card, chosen by the player, from the sideboard (A22)."""
    if character.deck is None:
        raise IllegalAction("cleanse_needs_deck")
    character.deck.move_to_deck([card])


def check_distinction_cap(character: Character, cap: int | None) -> None:
    """The GM may forbid going past −X in negative distinctions in total (L653)."""
    if cap is None:
        return
    total = sum(d.karma_value for d in character.distinctions if d.karma_value < 0)
    if total < -abs(cap):
        raise IllegalAction("distinction_cap", total=total, cap=abs(cap))


def deck_summary(character: Character) -> dict:
    """For `/karmic deck` (owner only): counts, the discard pile, the sideboard, and whether a
    Rule-of-Fives reshuffle may be taken now (`character.deck.reshuffle(rng)` / `.decline()`)."""
    deck = character.deck
    if deck is None:
        return {"world_deck": True}
    return {"deck": len(deck.cards), "discards": len(deck.discards), "sideboard": len(deck.sideboard),
            "discard_cards": list(deck.discards), "sideboard_cards": sorted(deck.sideboard),
            "since_shuffle": deck.since_shuffle, "reshuffle_offered": deck.offer}


def teacher_check(teacher: Character, skill: str, rng: Rng, modifier: int = 0) -> dict:
    """End of a training month: INSTRUCTION check + Awareness + the teacher's level in the skill.
    Success gives the student one extra card on the improvement draw (he uses the best)."""
    deck = teacher.deck
    if deck is None:
        raise IllegalAction("teacher_needs_deck")
    hand = deck.draw(rng, teacher.hand_for("instruction"))
    best = max(hand, key=value)
    mt = value(best) + teacher.attr("awareness") + teacher.skill(skill) + modifier
    deck.discard(hand)
    return {"cards": hand, "card": best, "mt": mt, "success": mt > 0}


def train_month(character: Character, target: str, interrupted: bool = False) -> dict:
    """Training bookkeeping: 1 month = one improvement check in a skill, 8 months = one attribute
    attempt; a significant interruption (GM) resets the count."""
    key = target if target in ATTRIBUTES else skill_key(target)
    if interrupted:
        character.training[key] = 0
        return {"months": 0, "check_due": False}
    character.training[key] = character.training.get(key, 0) + 1
    need = 8 if key in ATTRIBUTES else 1
    due = character.training[key] >= need
    if due:
        character.training[key] = 0
    return {"months": character.training[key], "check_due": due}
