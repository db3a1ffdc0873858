"""The rule tables: difficulty, result chart, hit locations, ranged modifiers, maneuvers."""
from __future__ import annotations

from dataclasses import dataclass

from rules.common import IllegalAction

DIFFICULTY = {
    "very_easy": 5, "easy": 3, "moderate": 0, "difficult": -3, "very_difficult": -5,
    "nigh_impossible": -8,
}

ATTRIBUTES = ("might", "fortitude", "finesse", "awareness", "will")
ATTRIBUTE_ALIASES = {
    "force": "might", "strength": "might", "vigor": "fortitude", "vitality": "fortitude",
    "health": "fortitude", "dexterity": "finesse", "perception": "awareness", "willpower": "will",
}


def attribute_name(name: str) -> str:
    key = name.strip().lower()
    key = ATTRIBUTE_ALIASES.get(key, key)
    if key not in ATTRIBUTES:
        raise IllegalAction("not_an_attribute", attribute=str(name)[:40])
    return key


def difficulty_mod(difficulty) -> int:
    if difficulty is None:
        return 0
    if isinstance(difficulty, int):
        return difficulty
    text = str(difficulty).strip()
    # A number first: "-2", "+3" and the typographic minus "−2" (the named ones use "-" between words).
    try:
        return int(text.replace("\u2212", "-"))
    except ValueError:
        pass
    key = text.lower().replace(" ", "_").replace("-", "_")
    if key in DIFFICULTY:
        return DIFFICULTY[key]
    raise IllegalAction("unknown_difficulty", difficulty=str(difficulty)[:40])


# Result chart, index -10..+10: (general, information, money %, reaction, speed factor)
_CHART = [
    ("Incompetence", "Erroneous Information", -200, "Loathing", 5.0),
    ("", "None", -150, "Hate", 5.0),
    ("Horrific", "None", -125, "Hate", 5.0),
    ("", "None", -100, "Aversion", 4.0),
    ("Awful", "None", -75, "Aversion", 4.0),
    ("", "None", -50, "Dislike", 4.0),
    ("Bad", "None", -35, "Dislike", 3.0),
    ("", "General Feeling", -25, "Annoyance", 3.0),
    ("Poor", "General Feeling", -15, "Annoyance", 3.0),
    ("", "General Feeling", -10, "Neutral", 2.0),
    ("", "General Feeling", 0, "Neutral", 2.0),
    ("Sufficient", "Basic Information", 10, "Neutral", 1.0),
    ("", "General Information", 15, "Fondness/Impressed", 1.0),
    ("Average", "General Information", 25, "Fondness/Impressed", 1.0),
    ("", "Additional Trivia", 35, "Pleased/Intimidated", 0.5),
    ("Good", "Additional Trivia", 50, "Pleased/Intimidated", 0.5),
    ("", "Commonly Known Secrets", 75, "Affection/Afraid", 0.5),
    ("Excellent", "Secrets Known to Some", 100, "Affection/Afraid", 1 / 3),
    ("", "Secrets Known to Few", 125, "Delighted/Scared", 1 / 3),
    ("Superb", "Secrets Known to Few", 150, "Delighted/Scared", 1 / 3),
    ("Extraordinary", "Anything", 200, "Love/Terrified", 0.25),
]


def result_chart(mt: int) -> dict:
    """The row for a total (or an opposed margin), clamped to -10..+10. The source names the General
    Result only on alternate rows; the others are '' (as printed)."""
    i = max(-10, min(10, mt))
    general, info, money, reaction, speed = _CHART[i + 10]
    return {"index": i, "general": general, "information": info, "money": money,
            "reaction": reaction, "speed": speed}


LOCATIONS = {
    # location: (same size, large creature, small creature); None = not allowed
    "torso": (0, 0, 0),
    "head": (-5, -5, -8),
    "head_vitals": (-8, -6, None),
    "torso_vitals": (-6, -4, -10),
    "legs": (-3, 0, -6),
    "arms": (-3, -2, -5),
}
LOCATION_NAMES = {"torso": "torso", "head": "head", "head_vitals": "head vitals",
                  "torso_vitals": "torso vitals", "legs": "legs", "arms": "arms"}


def location_mod(location: str, size_class: str = "same") -> int:
    if location not in LOCATIONS:
        raise IllegalAction("unknown_location", location=str(location)[:40])
    col = {"same": 0, "large": 1, "small": 2}[size_class]
    mod = LOCATIONS[location][col]
    if mod is None:
        raise IllegalAction("small_location", location={"term": f"location.{location}"})
    return mod


TARGET_SITUATION = {
    "running": -1, "walking": 0, "stationary": 1, "prone": -3, "obscured": -3, "low_light": -2,
    "riding": -2,
}


def range_band_mod(distance_yards: float, weapon_range: float) -> int:
    """Point blank (within 1 yard) 0; short (≤ ¼) −2; medium (≤ ½) −4; long (≤ max) −6."""
    if distance_yards <= 1:
        return 0
    if distance_yards <= weapon_range / 4:
        return -2
    if distance_yards <= weapon_range / 2:
        return -4
    if distance_yards <= weapon_range:
        return -6
    raise IllegalAction("out_of_range", distance=distance_yards, reach=weapon_range)


# --- skills -------------------------------------------------------------------------------
ADVANCED_SKILLS = {"medicine", "blacksmithing"}
FOE_SKILLS = {"etiquette", "history", "languages", "wilderness_survival", "artistry",
              "musical_instrument"}


# The rulebook's skill list (digest §6.2) and the skills its text names outside it (stealth, diplomacy,
# bow): each is a word of the game (`terms.skill.<key>`), worded in the reader's language; a skill a
# sheet invents is its own word, shown as written.
SKILLS = (
    "acrobatics", "climbing", "driving", "endurance", "escape_artist", "riding", "running", "sailing",
    "self_discipline", "swimming", "etiquette", "first_aid", "history", "instruction", "languages",
    "lip_reading", "lore", "medicine", "navigation", "politics", "religion", "strategy", "tracking",
    "wilderness_survival", "animal_training", "artistry", "blacksmithing", "disguise", "engineering",
    "lock_picking", "machinery", "pick_pockets", "acting", "bard", "charm", "con", "command", "gambling",
    "interrogation", "intimidation", "musical_instrument", "prestidigitation", "brawling", "combat_training",
    "crossbow", "ax", "ax_throwing", "dagger", "dodge", "fast_draw", "flail", "impact_weapon",
    "knife_throwing", "lance", "off_hand_weapon", "polearm", "rapier", "shield", "shot_put", "spear",
    "spear_throwing", "sword", "staff", "augury", "banishment", "cleansing", "control", "divination",
    "enchantment", "metamorphosis", "research", "stealth", "diplomacy", "bow",
)


def skill_key(name: str) -> str:
    return name.strip().lower().replace(" ", "_").replace("-", "_")


def skill_word(name: str):
    """A skill as event data: the game's word for a skill of the rulebook, else the sheet's own text."""
    key = skill_key(name)
    return {"term": f"skill.{key}"} if key in SKILLS else name.replace("_", " ")


def skill_cost(level: int, advanced: bool = False) -> int:
    """Total CP to reach a level: L(L−1)/2, +1 for advanced skills."""
    if level < 1:
        return 0
    return level * (level - 1) // 2 + (1 if advanced else 0)


# --- maneuvers ----------------------------------------------------------------------------
PARRY, BLOCK, DODGE, COUNTER, BUCK = "parry", "block", "dodge", "counter", "buck"


@dataclass(frozen=True)
class Man:
    id: str
    name: str
    mod: int
    init: bool          # needs the initiative
    ri: bool            # resolve immediately
    kind: str           # strike, disarm, move, hold, takedown, flank, cling, chop, swat, defense, change, stand
    cat: str            # armed, h2h, wrestle, large, small, shield, special, dodgehand
    stopped_by: tuple = ()
    family: str = ""    # for defenses: parry/block/dodge/counter/buck
    max_dmg: int | None = None   # None = weapon's
    edge: int | None = None      # None = weapon's
    counts: bool = True          # counts toward the weapon's maximum maneuvers
    seize: bool = False          # a successful defense takes the initiative


_STRIKE_DEF = (PARRY, BLOCK, DODGE)
_H2H_DEF = (BLOCK, DODGE, COUNTER)
MANEUVERS: dict[str, Man] = {m.id: m for m in [
    # armed, basic
    Man("atk", "Attack", 0, True, False, "strike", "armed", _STRIKE_DEF),
    Man("par", "Parry", 0, False, False, "defense", "armed", family=PARRY),
    Man("blk", "Block", 0, False, False, "defense", "shield", family=BLOCK),
    Man("mdg", "Melee Dodge", -2, False, False, "defense", "armed", family=DODGE, counts=False),
    # armed, complex
    Man("odis", "Offensive Disengage", -4, True, True, "move", "armed", (PARRY, BLOCK)),
    Man("pars", "Parry/Seize the Initiative", -3, False, True, "defense", "armed", family=PARRY, seize=True),
    Man("darm", "Disarming Attack", -5, True, True, "disarm", "armed", _STRIKE_DEF),
    Man("lng", "Lunge", -2, True, False, "strike", "armed", _STRIKE_DEF),
    Man("cls", "Close", -3, True, True, "move", "armed", (PARRY, BLOCK)),
    Man("ret", "Retreat", -3, True, True, "move", "armed", (PARRY, BLOCK)),
    Man("psh", "Push", 0, True, True, "move", "armed", (DODGE,)),
    # other melee
    Man("sbash", "Shield Bash", 0, True, False, "strike", "shield", _STRIKE_DEF, max_dmg=1, edge=0),
    Man("chw", "Change Weapon", 0, False, True, "change", "special", counts=False),
    Man("stand", "Stand Up", 0, False, False, "stand", "special", counts=False),
    # hand to hand, striking
    Man("hatk", "Hand Attack", 0, True, False, "strike", "h2h", _H2H_DEF, max_dmg=1, edge=-1),
    Man("latk", "Leg Attack", -1, True, False, "strike", "h2h", _H2H_DEF, max_dmg=1, edge=-1),
    Man("hbutt", "Head Butt", -2, True, False, "strike", "h2h", _H2H_DEF, max_dmg=1, edge=-1),
    Man("hlng", "Lunge (hand to hand)", -2, True, True, "strike", "h2h", (BLOCK, DODGE), max_dmg=1, edge=-3),
    Man("hdis", "Disarm", -5, True, True, "disarm", "h2h", (BLOCK, DODGE)),
    Man("tdown", "Take Down", 0, True, False, "takedown", "h2h", _H2H_DEF),
    Man("tckl", "Tackle", -3, True, True, "move", "h2h", (BLOCK, DODGE)),
    Man("hblk", "Block (hand to hand)", -1, False, False, "defense", "h2h", family=BLOCK),
    Man("bgrab", "Block Grab", -6, False, True, "defense", "h2h", family=BLOCK, seize=True),
    Man("hdg", "Dodge (hand to hand)", 0, False, False, "defense", "h2h", family=DODGE),
    Man("dseize", "Dodge/Seize the Initiative", -3, False, True, "defense", "h2h", family=DODGE, seize=True),
    Man("dis", "Disengage", -4, True, True, "move", "h2h", (DODGE, BLOCK)),
    # wrestling
    Man("suf", "Suffocate", -4, True, False, "hold", "wrestle", (COUNTER,)),
    Man("pin", "Pin", -5, True, False, "hold", "wrestle", (COUNTER,)),
    Man("bash", "Bash", 0, True, False, "strike", "wrestle", (COUNTER,), max_dmg=1, edge=-2),
    Man("ctr", "Counter", 0, False, False, "defense", "wrestle", family=COUNTER),
    Man("rev", "Reversal", -2, False, True, "defense", "wrestle", family=COUNTER, seize=True),
    Man("esc", "Escape", -4, False, True, "move", "wrestle", (COUNTER,)),
    Man("gouge", "Gouge", -2, False, False, "strike", "wrestle", (COUNTER,), max_dmg=1, edge=0),
    # large creatures (used against them)
    Man("flank", "Flank", 0, True, False, "flank", "large", (DODGE,)),
    Man("cling", "Cling", -4, True, False, "cling", "large", (BUCK,)),
    Man("chop", "Chop", 0, False, False, "chop", "large", ()),
    # small creatures (used by the bigger combatant)
    Man("swipe", "Swipe", 0, True, False, "strike", "small", _STRIKE_DEF),
    Man("swat", "Swat", 0, False, True, "swat", "small", _STRIKE_DEF),
    Man("smash", "Smash", -2, True, True, "strike", "small", _STRIKE_DEF),
    Man("buck", "Buck", 0, False, False, "defense", "large_self", family=BUCK),
    # a hand drawn from the DODGE skill
    Man("dg", "Dodge", 0, False, False, "defense", "dodgehand", family=DODGE, counts=False),
]}

# Maneuvers usable only at wrestling range.
WRESTLING_ONLY = {"suf", "pin", "bash", "ctr", "rev", "esc", "gouge"}
# Hand-to-hand striking maneuvers: range 0 or wrestling range.
H2H_STRIKING = {"hatk", "latk", "hbutt", "hdis", "tdown", "hblk", "bgrab", "hdg", "dseize", "dis"}
WRESTLING = -1   # the range value for wrestling range
# The maneuvers an NPC played by the bot fights with, best first: the fixed policy (engine.py) declares
# the first one offered, the generic player (ai.py) weighs them all.
BOT_POLICY_PREFS = ["atk", "hatk", "bash", "latk", "par", "blk", "hblk", "ctr", "hdg", "mdg", "dg"]
