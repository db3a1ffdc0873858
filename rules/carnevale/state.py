"""Carnevale game state: Serial dataclasses that round-trip through JSON.

One `ModelState` per model on (or off) the table keeps everything the sheet shows: AP, Life track
and damage, Stun, Karma and Command, weapons (loaded / jammed / destroyed), spell effects with their
expiry round, the flags of §8.1. `GameState` keeps the round structure and both players' books.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

from rules.common import Rng, Serial

from .schema import SCHEMA_VERSION
from .stored import game_state

# Every ambiguity of digest §7 with its recommended reading as the default.
DEFAULT_HOUSE_RULES: dict[str, Any] = {
    "pool_order": "net_then_clamp",          # §7.13; or "cap_bonuses_first"
    "terrain": "en",                          # §2.9 / §7.3-4; or "es_ttcombat"
    "pass_rule": "fewer_unactivated",         # §7.2; or "fewer_activated" or "none"
    "second_stun_same_turn": "ignored",       # §7.15; or "damage"
    "fall_protection": "base_only",           # §7.10: base Protection 2 applies, Extra does not; or "none"
    "involuntary_fall_fumble": 1,             # §2.7: +1 category on a fumbled involuntary-fall roll
    "fear_timing": "before_attack_roll",      # §7.16; or "after_attack" (the test once the attack is resolved)
    "at_ready_melee_critical_stun": False,    # §7.17: only the opposed-roll adjustment
    "hide_distance": "half_mov",              # §7.18
    "template_damage_roll": "shared",         # §7.19; or "each"
    "kraken_template_dex": True,              # §7.19
    "evil_eye_ignores_protection": True,      # §7.20
    "fragment_steal_tie": "bearer_keeps",     # §7.25; or "reroll"
    "event8_heavy": -4,                       # §7.6
    "zero_karma_penalty": True,               # §1.8
    "leader_kill_karma": 3,                   # §1.8 (instead of the +1 for a fall)
    "agendas": True,                          # §5.5 optional rule
    "fragment_bearer_penalty": 1,             # §5.9 adventure 2
    "lightning_bolt_range": 0,                # §7.31: the Lightning Bolt Power's range (0 = no range penalty)
    "ready_shot_prompt": True,                # offer At the Ready shooters their interrupt after each enemy action
    "defensive_prompt": True,                 # ask a Defensive Combat model for Karma before the enemy's roll
    "reroll_window": True,                    # offer Reroll Dice / Reroll All Dice after a close-combat roll
}


@dataclass
class WeaponState(Serial):
    name: str
    kind: str                               # melee | ranged
    damage: int = 0
    damage_dice: str = ""                   # "1d10", "1d10+2" for template weapons
    range: int = 0
    abilities: list[dict] = field(default_factory=list)
    firearm: bool = False
    loaded: bool = True
    jammed: bool = False
    destroyed: bool = False
    shots_left: int = 1
    no_damage: bool = False


@dataclass
class Effect(Serial):
    name: str                               # the spell / event / source
    kind: str                               # attr | ability | petrify | darkness | walk | bond | power
    attr: str = ""
    delta: int = 0
    ability: str = ""
    x: int = 0
    caster: str = ""                        # uid of the caster
    caster_mind: int = 0
    expires: int = 0                        # ends at this round's End of Round; 0 = rest of the game


@dataclass
class ModelState(Serial):
    uid: str
    owner: str
    name: str
    profile: str
    faction: str = ""
    size: str = "Medium"
    cost: int = 0
    ap_max: int = 3
    ap: int = 0
    attrs: dict[str, int] = field(default_factory=dict)
    karma_max: int = 0
    karma: int = 0
    command_max: int = 0
    command: int = 0
    life_track: list[int] = field(default_factory=list)
    damage: int = 0
    descriptors: list[str] = field(default_factory=list)
    abilities: list[dict] = field(default_factory=list)     # universal abilities of the profile and powers
    specials: list[dict] = field(default_factory=list)
    weapons: list[WeaponState] = field(default_factory=list)
    items: list[str] = field(default_factory=list)          # non-weapon equipment, incl. a magical item
    item_abilities: list[dict] = field(default_factory=list)
    magic_abilities: list[dict] = field(default_factory=list)   # secret from the opponent
    magic_item: str = ""
    spells: list[str] = field(default_factory=list)
    independent: bool = False
    # table status
    on_table: bool = True
    fallen: bool = False
    fled: bool = False
    evacuated: bool = False
    killed_by: str = ""
    activated: bool = False
    stunned: bool = False
    stun_turn: int = -1
    at_ready: str = ""                      # "" | "melee" | "shooting"
    hidden: bool = False
    in_water: bool = False
    immobilised: bool = False
    drowning: bool = False
    drowned_by: str = ""
    fleeing: bool = False
    in_darkness: bool = False
    on_gondola: bool = False
    gondola: str = ""                       # which gondola it rides (capacity: two 30 mm or one 40 mm model)
    carrying: str = ""                      # "fragment" …
    # per round / per turn books
    casts_this_round: int = 0
    cast_locked: bool = False
    command_received: int = 0
    command_turn: int = -1
    protection_boost: int = 0
    defensive_dex: int = 0
    defensive_turn: int = -1
    first_strike_used: bool = False
    half_ap: bool = False
    petrified: bool = False
    last_action: str = ""
    entering: bool = False                  # a reinforcement that has not made its first Move yet
    savage_bonus: int = 0
    used_once: list[str] = field(default_factory=list)       # once-per-game items
    effects: list[Effect] = field(default_factory=list)

    @property
    def life(self) -> int:
        return len(self.life_track)

    @property
    def life_left(self) -> int:
        return max(0, len(self.life_track) - self.damage)

    @property
    def in_play(self) -> bool:
        return self.on_table and not self.fallen


@dataclass
class PlayerState(Serial):
    id: str
    name: str = ""
    squad: str = ""                         # the name its player gave it ("" for a squad the rules built)
    faction: str = ""
    squad_built_by: str = ""                # schema.SAMPLE or schema.BAUTA: the presenter names the squad
    leader: str = ""                        # uid of the main Leader
    events_left: int = 0
    agenda: int = 0                         # secret until the end
    agenda_claimed: bool = False
    objective: bool = False
    vp: int = 0
    chain_used: bool = False
    points: int = 0
    vials: int = 0


@dataclass
class GameState(Serial):
    rng: Rng
    seats: list[str]
    players: dict[str, PlayerState]
    models: dict[str, ModelState]
    schema: int = SCHEMA_VERSION
    system: str = "carnevale"
    adventure: str = ""
    round: int = 1
    max_rounds: int = 5
    phase: str = "deploy"                   # deploy | order | activation | end_round | over
    turn: int = 0                           # counts Turns (one model's activation, or an End of Round)
    first_player: str = ""
    turn_player: str = ""
    active: str = ""                        # uid of the activating model
    partner: str = ""                       # its Partner activating with it (shared AP pool)
    deploy_first: str = ""
    fixed_first: str = ""                   # a player who plays first every Round (adventure rule)
    held: list[str] = field(default_factory=list)   # players keeping reserves off this Round
    fountains: int = 0                      # Fountains of Life left on the table
    deployed: dict[str, list[str]] = field(default_factory=dict)
    initiative: dict = field(default_factory=dict)
    sub: dict = field(default_factory=dict) # a multi-step button choice in progress
    chain: dict = field(default_factory=dict)
    reinforce_tried: bool = False
    morale_queue: list[dict] = field(default_factory=list)
    last_roll: dict = field(default_factory=dict)
    log: list = field(default_factory=list)    # no longer written: the game's log is the store's (kept for old states)
    house_rules: dict = field(default_factory=lambda: dict(DEFAULT_HOUSE_RULES))
    spells: dict[str, dict] = field(default_factory=dict)   # the pack's spell table, copied in
    aqua_alta: str = ""                     # player who played it
    geyser: bool = False
    finish_after_geyser: bool = False   # the last End of Round waits for the Geyser's attacks
    good_cover: str = ""                    # Event 8: the player whose piece of cover was improved
    mad_minute: list[str] = field(default_factory=list)   # Event 16: models still to fire their free shot
    ready_due: str = ""                     # a model whose action ended while a reaction was pending
    fear_after: dict = field(default_factory=dict)   # fear_timing after_attack: {t: uid, x: modifier}
    opportunities: list[dict] = field(default_factory=list)   # free Attacks of Opportunity on offer: {n, model, target}
    morale_due: list[dict] = field(default_factory=list)   # Morale tests an action caused, rolled once it is done
    over: bool = False
    winner: str | None = None
    result: dict = field(default_factory=dict)
    counter: int = 0                        # makes prompt ids unique

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        """A stored state, of any schema (an older one read as today's: `stored.game_state`)."""
        if data.get("schema", SCHEMA_VERSION) < SCHEMA_VERSION:
            data = game_state(data)
        return super().from_dict(data)

    def __deepcopy__(self, memo: dict) -> GameState:
        # The engine deep-copies the state on every action; pickling is ~10× faster than
        # copy.deepcopy for these plain dataclasses and gives the same independent copy.
        return pickle.loads(pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL))

    def model(self, uid: str) -> ModelState:
        from rules.common import IllegalAction
        try:
            return self.models[uid]
        except KeyError:
            raise IllegalAction("no_model", model=uid[:40]) from None

    def opponent(self, pid: str) -> str:
        return self.seats[1] if pid == self.seats[0] else self.seats[0]

    def squad(self, pid: str, in_play_only: bool = True) -> list[ModelState]:
        return [m for m in self.models.values() if m.owner == pid and (m.in_play or not in_play_only)]
