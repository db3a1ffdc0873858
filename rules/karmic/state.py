"""Serial game state for Karmic: one state type for both a check and a combat (`mode`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.common import Rng, Serial

from .cards import is_face, is_joker, value
from .character import Character
from .cards import KarmaDeck

SCHEMA = 1

# Every ambiguity (★ in the digest §8) and switch (§9.5), with the digest's recommended default.
HOUSE_RULES: dict[str, Any] = {
    "card_rules_enabled": True,          # Rule of Fives / Five Rules; off = discards reshuffled at once
    "world_deck_size": 42,               # A5: 42 (karma recipe, no jokers) | 52
    "initiative_attr": "will",           # A9: will | awareness
    "initiative_ties": "redraw",         # A10: redraw
    "damage_attr": "might",              # A7: might | fortitude
    "offhand_rules": "combat",           # A6: combat (L8) | skilllist (L840/L847/L850)
    "unopposed_needs_positive_total": False,      # A11 (disarms always need > 0)
    "unstoppable_defense_is_unopposed": True,     # A11: a defense that cannot stop it = unopposed
    "h2h_defender_may_strike": False,    # A14
    "aim_card_mode": "replace",          # A17: replace | bonus
    "range_parry_inside_reach": False,   # A29: a weapon cannot parry inside its own reach
    "surprise_mode": "basic",            # A20: basic (CT + Will at −3/−5) | opposed
    "wound_row_penalty": 1,              # A25: −1 per filled hit-point row to all checks
    "fatigue_card_effect": 1,            # A40: −1 card per fatigue card
    "flank_chop_sign": -1,               # A13: modifier = −finesse / −vitality
    "max_helpers_default": 12,           # T10: GM cap on co-operating helpers
    "distinction_cap": None,             # L653: GM limit on negative distinctions (None = none)
    "prone_must_stand": True,            # A34: a prone fighter must Stand Up before attacking
    "hold_checks_per_round": 1,          # A32: one Fortitude check per round in a choke hold
    "joker_default": "success",          # A3: default offered for a joker ruling
    "location_max_damage_bonus": 1,      # suggested house default: head/vitals hits +1 max damage
    "reshuffle_mode": "uniform",         # A41: uniform shuffle of remaining deck + discards
    "hide_npc_check_cards": True,        # §9.3: world/NPC draws in checks are GM-only
    "medicine_heals_mt": True,           # A39: medicine heals max(0, MT) boxes (False: GM decides)
    "shots_are_separate_checks": True,   # A19: several shots a turn = separate checks with fresh draws
    "extra_advanced_skills": [],         # A36: skills the GM marks advanced (no default use)
    "extra_skills": ["stealth", "diplomacy", "bow"],   # A37: skills used but not listed, as normal skills
    "joker_initiative": "gm",            # A3: a joker played for initiative: gm (ruling) | win | lose
    "languages_learned_in_play": False,  # L789 optional rule: a gist check won in a new language teaches it
}


def house_rules(overrides: dict | None = None) -> dict:
    rules = dict(HOUSE_RULES)
    for key, val in (overrides or {}).items():
        if key not in HOUSE_RULES:
            from rules.common import IllegalAction
            raise IllegalAction("unknown_house_rule", key=str(key)[:40])
        rules[key] = val
    return rules


@dataclass
class Play(Serial):
    """One played card and its hit chain."""

    card: str = ""
    chain: list[str] = field(default_factory=list)
    open: bool = False          # a hit decision is owed

    def cards(self) -> list[str]:
        return ([self.card] if self.card else []) + self.chain

    @property
    def total(self) -> int:
        return sum(value(c) for c in self.cards())

    @property
    def joker(self) -> bool:
        return any(is_joker(c) for c in self.cards())

    @property
    def last(self) -> str:
        return self.cards()[-1] if self.cards() else ""

    def can_hit(self) -> bool:
        return bool(self.card) and is_face(self.last)


# --- checks -----------------------------------------------------------------------------
@dataclass
class CheckSide(Serial):
    key: str
    skill: str = ""
    attribute: str = ""
    foe_field: str = ""
    modifier: int = 0             # public modifiers (difficulty included for the actor)
    hidden: int = 0               # GM-only modifiers
    hand: list[str] = field(default_factory=list)
    helper_cards: dict[str, str] = field(default_factory=dict)   # helper key -> best card offered
    play: Play | None = None
    played_from: str = ""         # whose card was played (a helper's key, or "")
    ruling: str = ""              # joker: success/failure
    mt: int | None = None


@dataclass
class Check(Serial):
    label: str = ""
    sides: list[CheckSide] = field(default_factory=list)
    difficulty: int = 0
    ranged: dict = field(default_factory=dict)
    result: dict = field(default_factory=dict)
    situations: list[str] = field(default_factory=list)   # named rows of the skill tables (skill_tables)


# --- combat ----------------------------------------------------------------------------
@dataclass
class Fighter(Serial):
    id: str
    side: str = ""
    hand: list[str] = field(default_factory=list)
    used: dict[int, int] = field(default_factory=dict)   # weapon index -> maneuvers this round
    played: int = 0            # cards played this round
    counted: int = 0           # maneuvers counted toward the total cap this round
    dodged: bool = False
    bashed: bool = False
    done: bool = False         # no more declarations this round
    changed_round: int = -99   # the round in which he changed weapons
    prone: bool = False
    out: bool = False
    init_mt: int = 0
    dodge_hand: bool = False
    max_round: int = 0         # 0 = normal; 1 on a charge or surprise round
    flanked_by: dict[str, int] = field(default_factory=dict)   # flanker -> last round it lasts
    cling: str = ""
    charged: bool = False
    multitask: str = ""        # a second skill used all along (riding…): the hand is the lower (§1.10)
    gm_mod: int = 0            # the GM's standing modifier on every maneuver total (public)
    gm_hidden: int = 0         # the GM's hidden standing modifier: only the GM sees it and the totals
    lance_rounds: dict[str, int] = field(default_factory=dict)   # target -> round of the last lance attack (L846)
    entangled_by: dict[str, int] = field(default_factory=dict)   # creature -> its limb's vitality (L56)


@dataclass
class Engagement(Serial):
    a: str
    b: str
    range: int = 1             # -1 = wrestling range
    init: str = ""
    hesitations: int = 0
    live: bool = True

    def other(self, who: str) -> str:
        return self.b if who == self.a else self.a

    def has(self, who: str) -> bool:
        return who in (self.a, self.b)


@dataclass
class Decl(Serial):
    owner: str
    man: str
    card: str = ""
    target: str = ""
    extra: list[str] = field(default_factory=list)   # more targets (swipe)
    weapon: int = -1
    loc: str = "torso"
    nostep: bool = False
    answers: int = -1          # index (in its register) of the maneuver this one answers
    chain: list[str] = field(default_factory=list)
    open: bool = False
    revealed: bool = False
    ruling: str = ""

    @property
    def play(self) -> Play:
        return Play(self.card, list(self.chain), self.open)


@dataclass
class Register(Serial):
    n: int
    decls: list[Decl] = field(default_factory=list)
    resolved: bool = False
    revealed: bool = False


@dataclass
class Turn(Serial):
    """The declaration in progress: who, which stage, and the choices made so far."""

    who: str
    stage: str = "attack"      # attack | defense
    answers: int = -1
    step: str = "man"          # man | loc | card
    man: str = ""
    weapon: int = -1
    nostep: bool = False
    loc: str = "torso"
    page: int = 0


@dataclass
class Combat(Serial):
    round: int = 0
    reg: int = 1
    fighters: dict[str, Fighter] = field(default_factory=dict)
    engagements: list[Engagement] = field(default_factory=list)
    registers: list[Register] = field(default_factory=list)
    queue: list[list] = field(default_factory=list)    # [who, stage, answers]
    stage: str = "attack"                                # attack | defense (of register `reg`)
    resolve_to: int = 0                                  # resolve unresolved registers up to this one
    acted: list[str] = field(default_factory=list)
    turn: Turn | None = None
    offers: list[str] = field(default_factory=list)
    charge: str = ""
    surprise: dict = field(default_factory=dict)
    holds: list[dict] = field(default_factory=list)
    show_down: bool = False
    ended: str = ""
    init_hands: dict[str, list[str]] = field(default_factory=dict)   # initiative draws (secret)
    init_plays: dict[str, Play] = field(default_factory=dict)
    init_mts: dict[str, int] = field(default_factory=dict)
    init_engs: list[int] = field(default_factory=list)
    init_try: int = 0
    init_rulings: dict[str, str] = field(default_factory=dict)     # joker rulings: win | lose
    need_init: bool = False


@dataclass
class KarmicState(Serial):
    schema: int = SCHEMA
    mode: str = "check"            # check | combat
    rng: Rng = field(default_factory=Rng)
    house_rules: dict = field(default_factory=lambda: dict(HOUSE_RULES))
    seats: list[str] = field(default_factory=list)
    characters: dict[str, Character] = field(default_factory=dict)
    controllers: dict[str, str] = field(default_factory=dict)   # key -> player id or "gm"
    world: KarmaDeck = field(default_factory=KarmaDeck)
    options: dict = field(default_factory=dict)
    phase: str = ""
    seq: int = 0
    check: Check | None = None
    combat: Combat | None = None
    over: bool = False
