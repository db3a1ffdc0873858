"""Carnival Zombie game state: plain Serial dataclasses (JSON round-trip), the Rng inside.

Tactical Map keys: a Ring space is "<cave>.<ring>" (e.g. "N2.3"); a Cave's three Barricade boxes
are `boxes[cave]`, each "" (vacant), "#" (Barricade), an Infected code ("G", "M"...) or "@<slot>"
(the Boss of that Boss Area slot). Cube codes: Infected ids from the pack, "S" Survivor,
"P" Paranoia.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.common import Rng, Serial

SCHEMA_VERSION = 1

CAVES = ("N1", "N2", "E1", "E2", "S1", "S2", "W1", "W2")
PITS = ("N", "E", "S", "W")
# DEFAULT clockwise cycle (digest A6): after S1 comes W2.
CLOCKWISE = ("N2", "N1", "E2", "E1", "S2", "S1", "W2", "W1")
BELLTOWER = {"N": ("W1", "E2"), "E": ("N1", "S2"), "S": ("E1", "W2"), "W": ("S1", "N2")}
CHAR_CUBES = ("S", "P")

DEFAULT_HOUSE_RULES: dict = {
    "barghest_bonus_mode": "once",        # A4: once | every_later_step
    "dawn_assault_scope": "pit",          # A3: pit | anywhere
    "day1_sunrise_rituals": False,        # A12
    "forced_first_move": True,            # A13
    "allow_early_finale": False,          # A14
    "pile_mode": "probabilistic",         # §10.4: probabilistic | reaction | honour
    "battle_focus": False,                # §4.11 optional rule
    "terror_spill_everyone_once": True,   # A25: everyone +1 (dropper once); False: the dropper gets +2
    "box_entry_costs_move": True,         # A18
    "boss_wounds_persist": True,          # A5
    "survivor_rescue_counts_boxes": True,  # §4.7 DEFAULT: enemies in the Cave's boxes also block a rescue
    "leviathan_check": "sunset",          # L188: sunset (no Finale engaged -> defeat at once) | dawn
}


@dataclass
class Character(Serial):
    id: str
    controller: str = ""          # player id; "" = a Group Character (the First Player decides)
    order: int = 0                # Terror Track starting box = Activation Order (1 = First Player)
    stress: int = 0
    incapacitated: bool = False
    paranoia: bool = False
    items: list[str] = field(default_factory=list)
    refuge: str = ""              # N/E/S/W at Night
    order_token: bool = False     # holds one of Capitan Spaventa's Order Tokens this Hour


@dataclass
class BossSlot(Serial):
    boss: str
    wounds: int = 0
    cubes: int = 0                # red Wound cubes actually on the Tarot (15 in the box)
    pos: str = ""                 # "" off the map, "N2.3" Ring space, "N2.b" in the boxes
    survivor: bool = False
    survivor_hour: int = 0        # Hour the Survivor was placed (A23)


@dataclass
class Night(Serial):
    hour: int = 0                 # 1..n ordinary Hours; n+1 = Dawn
    rings: dict[str, dict[str, int]] = field(default_factory=dict)
    boxes: dict[str, list[str]] = field(default_factory=dict)
    obstacles: dict[str, str] = field(default_factory=dict)   # ring space -> terrain id
    forts: dict[str, str] = field(default_factory=dict)       # pit -> terrain id
    focus: dict[str, list[int]] = field(default_factory=dict)  # "N2.1.G" -> wounds on individual cubes
    dawn_pit: str = ""
    finale: str = ""
    hull: int = 0                 # Boat Finale tokens left
    pile_killed: int = 0          # Infected put on the Pile this Night (scenario victories)


@dataclass
class GameState(Serial):
    schema: int
    rng: Rng
    seats: list[str]
    difficulty: str = "medium"
    scenario: str = "campaign"
    house_rules: dict = field(default_factory=dict)
    pack: Any = None              # None = the bundled sample pack; otherwise a guild pack dict
    quick: bool = False           # Quick Playtest (no Story so far, 8 Barricades)
    quick_night: bool = False     # ... and straight to Sunset (practice a Night)
    characters: list[Character] = field(default_factory=list)
    # Calendar / Clock
    ticket: int = 1
    half: str = "day"             # day | night (Calendar marker position on the Ticket)
    clock: str = "dawn"           # dawn | sunrise | day | sunset | night
    hour: int = 0                 # Day Hour 1..4, Night Hour 1..n (n+1 = Dawn)
    days_played: int = 0
    # Venice map
    group_at: int = 0
    sunken: list[int] = field(default_factory=list)
    forced_dir: str = ""
    airship_called: bool = False
    first_move_extra: int = 0
    fewer_obstacles: int = 0      # Colombina's Exploration / items, for the coming Night
    # Cubes
    abyss: dict[str, int] = field(default_factory=dict)
    bag_script: list[str] = field(default_factory=list)     # next Abyss draws, in order (a physical bag, or a test)
    pile: dict[str, int] = field(default_factory=dict)
    storage: dict[str, int] = field(default_factory=dict)   # "#" Barricades, "S" Survivors, "P" Paranoia
    supply: dict[str, int] = field(default_factory=dict)    # next to the board: "#", "S", "W" (Wounds)
    gamebox: dict[str, int] = field(default_factory=dict)   # removed for good ("S" used/lost Survivors)
    # Decks
    nightmare: list[str] = field(default_factory=list)
    nightmare_discard: list[str] = field(default_factory=list)
    boss_deck: list[str] = field(default_factory=list)
    item_decks: dict[str, list[str]] = field(default_factory=dict)
    tiles: list[int] = field(default_factory=list)           # obstacle tile indices still in the pile
    fort_tiles: list[str] = field(default_factory=list)
    boss_area: list[BossSlot | None] = field(default_factory=list)
    night: Night | None = None
    # Flow
    phase: str = "setup"          # setup | story | day | sunset | night | over
    stage: str = ""
    ctx: dict = field(default_factory=dict)                  # the current step's working data
    ask: dict = field(default_factory=dict)                  # the decision owed now ({} = none)
    queue: list[dict] = field(default_factory=list)          # decisions owed next (paranoia, rewards...)
    traitor: str = ""             # Just a Matter of Time (secret)
    sabotage: str = ""            # the traitor's Cave for the next Entrance (secret)
    sabotage_night: int = 0       # Ticket of the Night the traitor last sabotaged
    unmasked: bool = False        # the traitor revealed themself
    uncancellable: bool = False   # the next attack cannot be cancelled
    over: bool = False
    result: str = ""              # win | loss
    reason: str = ""              # why it ended: a code (`events.over_<code>`), with its `reason_args`
    reason_args: dict = field(default_factory=dict)
    score: dict | None = None
    seq: int = 0                  # number of answered prompts (keeps prompt ids unique)
    log: list = field(default_factory=list)    # last public events, {kind, data} (older games: English lines)
