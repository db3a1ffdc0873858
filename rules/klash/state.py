"""Serial game state for Klash! (one dataclass tree, JSON round-trip, RNG inside)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from rules.common.deck import Deck
from rules.common.rng import Rng
from rules.common.serial import Serial

SCHEMA = 1

# Every ambiguity of digest §6 with its recommended reading; contested ones are switches.
HOUSE_RULES: dict = {
    "once_per": "turn",                  # §6.1: "once per Turn" limits reset each player turn ("hourglass")
    "initiative_tie_high_wins": True,    # §6.2: d12 roll-off, highest wins
    "stun_affects_discipline": False,    # §6.4: Stunned Decrease does not touch the 2d6 Discipline sum
    "destructive_touch_is_melee": False, # §6.9: Destructive Touch does not break the no-melee VP
    "dominated_marked_activated": True,  # §6.15: a dominated model counts as activated afterwards
    "annihilation_immediate": True,      # §6.26: end as soon as a team has no models left
    "secret_team": False,                # §6.27: team selection public (tabletop); True = simultaneous secret
    "charge_must_reach": True,           # §6.3: a Charge must reach its target to be declared
    "reroll_mode": "armed",              # §4.3: the re-roll token is armed in advance (see engine docs)
    "repel_charge_auto": True,           # Repel Charge is always used when allowed
}


@dataclass
class Model(Serial):
    id: str
    card: str
    owner: str
    name: str
    x: float = 0.0
    y: float = 0.0
    placed: bool = False
    activated: bool = False
    stunned: bool = False
    removed: str = ""          # "", defeated, massacred, petrified, terrified
    armour: bool = False
    boost: int = 0             # Event: next attack die Increased
    hex: int = 0               # Event: next attack/defence die Decreased
    reroll_armed: bool = False
    token_mark: int = -1       # limit key when a token was last used on it
    counter_mark: int = -1
    fury_mark: int = -1

    def __deepcopy__(self, memo):  # every field is immutable: a shallow copy is a deep copy
        import copy
        return copy.copy(self)


@dataclass
class Activation(Serial):
    model: str
    controller: str
    used: int = 0
    allowed: int = 2
    increased: bool = False
    free_assault: bool = False
    regen_used: bool = False
    ended: bool = False
    attacked: bool = False      # Madman: it has Assaulted or Charged
    dominated: bool = False
    extra_action: bool = False

    def __deepcopy__(self, memo):
        import copy
        return copy.copy(self)


@dataclass
class KlashState(Serial):
    seats: list[str]
    rng: Rng
    schema: int = SCHEMA
    house_rules: dict = field(default_factory=lambda: dict(HOUSE_RULES))
    pack_name: str = ""
    sample: bool = True
    cards: dict = field(default_factory=dict)        # character id -> profile
    event_cards: dict = field(default_factory=dict)  # event id -> card
    phase: str = "draft"        # draft | team | deploy | match | over
    seq: int = 0
    player_a: str = ""
    player_b: str = ""
    # auction
    char_deck: list[str] = field(default_factory=list)
    draft_round: int = 0
    revealed: list[str] = field(default_factory=list)
    round_picks: int = 0
    picks: dict[str, list[str]] = field(default_factory=dict)
    discarded: list[str] = field(default_factory=list)
    draft_log: list[Any] = field(default_factory=list)  # [round, player, card]
    # team
    team_choice: dict[str, list[int]] = field(default_factory=dict)
    team_vp: dict[str, int] = field(default_factory=dict)
    # deployment and match
    gates: dict[str, int] = field(default_factory=dict)
    deploy_turn: str = ""
    models: list[Model] = field(default_factory=list)
    hourglass: int = 0
    stage: str = ""             # initiative | action | final
    initiative: dict[str, int] = field(default_factory=dict)
    init_winner: str = ""
    turn_player: str = ""
    turn_no: int = 0
    turn_activations: int = 0
    extra_activation_used: bool = False
    ext_offer: bool = False
    acts: list[Activation] = field(default_factory=list)
    sel: Optional[dict] = None           # two-step selection {player, kind, ...}
    choices: list[Any] = field(default_factory=list)  # queued free attacks etc.
    melee_against: list[str] = field(default_factory=list)
    cast: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    vp: dict[str, int] = field(default_factory=dict)
    vp_log: list[Any] = field(default_factory=list)    # [player, amount, reason]
    hands: dict[str, list[str]] = field(default_factory=dict)
    event_deck: Deck = field(default_factory=Deck)
    stack: list[Any] = field(default_factory=list)     # [{player, card, target}]
    stack_next: str = ""
    esel: Optional[dict] = None
    final_order: list[str] = field(default_factory=list)
    winner: str = ""
    result: str = ""
    over: bool = False
    dice_queue: list[int] = field(default_factory=list)  # physical/forced dice, consumed before the Rng

    def __deepcopy__(self, memo):
        """Deep copy everything except the pack content (``cards``, ``event_cards``), which the engine
        never mutates: sharing it keeps the per-action copy cheap."""
        import copy
        new = object.__new__(type(self))
        for key, value in self.__dict__.items():
            if key in ("cards", "event_cards"):
                new.__dict__[key] = value
            else:
                new.__dict__[key] = copy.deepcopy(value, memo)
        return new

    # --- small helpers used everywhere ---
    def model(self, mid: str) -> Model:
        for m in self.models:
            if m.id == mid:
                return m
        from rules.common.errors import IllegalAction
        raise IllegalAction(f"There is no model '{mid}'.")

    def card(self, m: Model) -> dict:
        return self.cards[m.card]

    def other(self, player: str) -> str:
        return self.seats[1] if player == self.seats[0] else self.seats[0]

    def on_field(self, player: str | None = None) -> list[Model]:
        return [m for m in self.models if m.placed and not m.removed and (player is None or m.owner == player)]
