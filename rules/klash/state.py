"""Serial game state for Klash! (one dataclass tree, JSON round-trip, RNG inside)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    "secret_team": False,
    "reroll_window": True,                # §4.3/§7.2: Training Token re-roll decided after seeing the dice (False = armed in advance)                # §6.27: team selection public (tabletop); True = simultaneous secret
}

# Readings of digest §6 that are fixed (not switches), for the record:
# §6.3 a Charge must reach its target in a straight line within Speed (checked before it is declared);
#      a one- or two-action Charge ends the activation; an engaged model cannot Charge.
# §6.5 Increases/Decreases are netted and clamped at "0"; a printed 0 can never attack.
# §6.6 extra Damage only on a successful hit; bonuses stack.  §6.7 each 1 is re-rolled once.
# §6.8 every removal scores for the owner's opponent; petrified/terrified = Defeated.
# §6.10 underdog VP once at the final count.  §6.11 Stunned enemies do not engage.
# §6.12 AoO and free attacks are normal melee attacks.  §6.13 a failed Instinct replaces the activation.
# §6.14 Two Heads tests before every action, double 5/6 = self attack (own Melee Attack vs Defence).
# §6.16 Fear test when the Charge is declared; Repel Charge is used whenever allowed, after Fear.
# §6.18 Mystic Dart: Magic dice, ranged restrictions, 25 cm, cover.  §6.19 Armour to the next activation.
# §6.20 Teleport: unoccupied, in sight, inside, 1 cm from enemies.  §6.21 Destructive Touch after a
#      two-action Charge is Increased.  §6.22 one spell per caster per Action Phase, tokens included.
# §6.24 empty Event deck: reshuffle the discards; no hand limit.  §6.25 the side with more models
#      deploys the rest.  §6.26 both teams wiped out at once: VP, then d12.
# Training Token re-roll (§4.3, §7.2): after a failed roll the engine opens a window (``window``) asking the
# model's player "Re-roll with a Training Token?" before the outcome applies (house rule ``reroll_window``;
# False = the old way: the token is spent in advance and re-rolls that model's next failed roll).


@dataclass
class Model(Serial):
    id: str
    card: str
    owner: str
    name: str = ""             # the English name stored by states older than ``n`` (shown as is for them)
    # which of its card's models this is, numbered across both teams so every name is unique in the
    # match ("Raging Orc 1" and "Raging Orc 2" even when each team holds one); 0 = the card's only model
    # (a Champion); -1 = a state stored before models were named by card + number: show ``name``
    n: int = -1
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
        return _shallow(self)


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
        return _shallow(self)


_FLAT = (str, int, float, bool, type(None))
# fields typed as lists of names or numbers, and dicts of numbers: a shallow copy is a deep one
_NAME_LISTS = frozenset({"seats", "char_deck", "revealed", "discarded", "melee_against", "cast", "final_order",
                         "dice_queue"})
_NUMBER_DICTS = frozenset({"team_vp", "gates", "initiative", "tokens", "vp"})


def _shallow(x: Any) -> Any:
    """``copy.copy`` of a Model or an Activation (all their fields are immutable), without the
    ``__reduce_ex__`` round that makes ``copy.copy`` the dearest part of copying a state."""
    new = object.__new__(type(x))
    new.__dict__ = x.__dict__.copy()     # twice as fast as updating the new empty one
    return new


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
    sel: dict | None = None           # two-step selection {player, kind, ...}
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
    esel: dict | None = None
    final_order: list[str] = field(default_factory=list)
    winner: str = ""
    result: str = ""
    over: bool = False
    dice_queue: list[int] = field(default_factory=list)  # physical/forced dice, consumed before the Rng
    # an open Training Token re-roll window: {action, actor, decisions, rolled, shown, player, model, what}
    window: dict | None = None
    # while one action runs under a re-roll window: {decisions, asked, rolled, at, log} (the answers so far
    # and the dice already seen, replayed in order); None between actions, so it is never stored
    replay: dict | None = None

    def __deepcopy__(self, memo):
        """A fast deep copy that knows the shape of every field. The pack content (``cards``,
        ``event_cards``) is shared, not copied: the engine never mutates it."""
        import copy
        new = object.__new__(type(self))
        d = new.__dict__
        copier = _COPIERS.get
        for key, value in self.__dict__.items():
            how = copier(key)
            if how is not None:
                d[key] = how(value)
            elif isinstance(value, (str, int, float, bool)) or value is None:
                d[key] = value
            elif type(value) is list and all(type(x) in _FLAT for x in value):
                d[key] = list(value)       # most fields: lists and dicts of names and numbers
            elif type(value) is dict and all(type(x) in _FLAT for x in value.values()):
                d[key] = dict(value)
            else:
                d[key] = copy.deepcopy(value, memo)
        return new

    # --- small helpers used everywhere ---
    def model(self, mid: str) -> Model:
        for m in self.models:
            if m.id == mid:
                return m
        from rules.common.errors import IllegalAction
        raise IllegalAction("no_such_model", model=str(mid)[:40])

    def label(self, m: Model) -> dict | str:
        """A model's name as event data, worded by the presenter in the reader's language
        (``terms.model`` / ``terms.model_numbered`` around the card's own name in the pack)."""
        if m.n < 0:
            return m.name
        names = self.cards[m.card].get("names") or {"en": self.cards[m.card]["name"]}
        card = {"text": {lang: text.replace("SAMPLE ", "") for lang, text in names.items()}}
        return {"term": "model_numbered", "card": card, "n": m.n} if m.n else {"term": "model", "card": card}

    def card(self, m: Model) -> dict:
        return self.cards[m.card]

    def other(self, player: str) -> str:
        return self.seats[1] if player == self.seats[0] else self.seats[0]

    def on_field(self, player: str | None = None) -> list[Model]:
        # two comprehensions, so the common question (everyone) tests no player on each model
        if player is None:
            return [m for m in self.models if m.placed and not m.removed]
        return [m for m in self.models if m.placed and not m.removed and m.owner == player]


def _shared(value: Any) -> Any:
    return value


# How ``KlashState.__deepcopy__`` copies each field whose shape it knows, looked up once per field (a
# chain of name tests per field was a third of the copy, and the bot's search copies states by the
# ten thousand); the other fields go by their value's type.
_COPIERS: dict[str, Any] = {
    "cards": _shared, "event_cards": _shared,
    "models": lambda v: [_shallow(x) for x in v], "acts": lambda v: [_shallow(x) for x in v],
    "rng": lambda v: Rng(v.state),
    "event_deck": lambda v: Deck(cards=list(v.cards), discards=list(v.discards)),
    **{k: list for k in _NAME_LISTS}, **{k: dict for k in _NUMBER_DICTS},
    **{k: (lambda v: {p: list(x) for p, x in v.items()}) for k in ("picks", "team_choice", "hands")},
    **{k: (lambda v: [list(x) for x in v]) for k in ("draft_log", "vp_log")},
    **{k: (lambda v: [dict(x) for x in v]) for k in ("choices", "stack")},
}
