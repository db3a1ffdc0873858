"""Carnevale actions: small frozen Serial values, slash-command style.

Every action that names a model may be sent only by that model's owner (or a GM).
`Choose(prompt, options)` answers any prompt from `pending()`, so buttons can drive a whole game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.common import Choose, Serial


@dataclass(frozen=True)
class Deploy(Serial):
    """Name the advance party (at least half the squad); the rest are reinforcements."""
    player: str
    models: tuple[str, ...]
    type: ClassVar[str] = "deploy"


@dataclass(frozen=True)
class ChooseOrder(Serial):
    """The Initiative winner says who activates first: 'me' or 'opponent'."""
    first: str = "me"
    type: ClassVar[str] = "order"


@dataclass(frozen=True)
class Activate(Serial):
    """Activate a model; `partner` names its Partner within 5'' (both activate and share AP)."""
    model: str
    partner: str = ""
    type: ClassVar[str] = "activate"


@dataclass(frozen=True)
class Reinforce(Serial):
    """Bring a reserve model on instead of an activation: assault | flanking | sneak."""
    model: str
    method: str = "assault"
    type: ClassVar[str] = "reinforce"


@dataclass(frozen=True)
class Pass(Serial):
    player: str = ""
    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class SpendAP(Serial):
    """Spend AP on an action of the catalogue (walk, run, jump, swim, climb, hide, jump_down,
    running_jump, rappel, run_on_walls, clear_stun, reload, fix_jam, at_ready_melee,
    at_ready_shooting, aim, interact, row, other). Rolls that the action needs are made."""
    model: str
    action: str
    n: int = 0                 # 0 = the action's own cost
    karma: int = 0             # Karma dice for the action's roll
    note: str = ""
    type: ClassVar[str] = "spend_ap"


@dataclass(frozen=True)
class EndActivation(Serial):
    model: str
    type: ClassVar[str] = "end_activation"


@dataclass(frozen=True)
class Attack(Serial):
    """A close-combat attack or manoeuvre (charge, low_blow, push, round_house, strike_from_above,
    trample, drown). `allies`/`enemies`: the outnumbering counts of §3.1 (from the table)."""
    model: str
    target: str
    weapon: str = ""
    manoeuvre: str = ""
    allies: int = 0
    enemies: int = 0
    karma: int = 0
    companion: bool = False
    opportunity: bool = False  # a free Attack of Opportunity (0 AP, any time)
    two_weapons: bool = False
    targets: tuple[str, ...] = ()   # Round-House order
    drown_attr: str = "COM"
    type: ClassVar[str] = "attack"


@dataclass(frozen=True)
class StealFragment(Serial):
    """Fight for the Fragment: in contact with the enemy bearer, 1 AP, opposed Dex."""
    model: str
    bearer: str
    type: ClassVar[str] = "steal"


@dataclass(frozen=True)
class Disengage(Serial):
    """Leave close combat with a Move (1 AP): each enemy in contact (named here, from the table)
    answers with an Attack of Opportunity or a Block (a prompt each); Elusive, Engage and
    Slippery change this."""
    model: str
    enemies: tuple[str, ...]
    type: ClassVar[str] = "disengage"


@dataclass(frozen=True)
class Shoot(Serial):
    """A shot (or a throw, or a template weapon). `distance` in inches (0 = within range);
    cover size none|medium|big and hardness none|light|blunt|heavy; `aim` extra AP (0-2) with
    `aim_at` "dice" or "protection"; `moving` "" | "move" | "jump"; `targets` for templates."""
    model: str
    target: str = ""
    weapon: str = ""
    distance: float = 0
    cover_size: str = ""
    cover_hardness: str = ""
    aim: int = 0
    aim_at: str = "dice"
    moving: str = ""
    target_contacts: int = 0
    shooter_enemies: int = 0
    in_contact: bool = False
    karma: int = 0
    at_ready: bool = False     # a 0-AP At the Ready shot
    targets: tuple[str, ...] = ()
    split: tuple[int, ...] = ()    # Multiple Targets: damage per target, in `targets` order
    good_cover: bool = False   # the target is behind the piece of cover Event 8 improved
    type: ClassVar[str] = "shoot"


@dataclass(frozen=True)
class Damage(Serial):
    """Apply damage: `amount` before Protection (Aces + weapon modifier)."""
    model: str
    amount: int
    penetration: int = 0
    spiritual: bool = False
    flames: bool = False
    ignore_protection: bool = False
    source: str = ""
    attacker: str = ""
    type: ClassVar[str] = "damage"


@dataclass(frozen=True)
class Heal(Serial):
    """With `healer` (Healing X, 2 AP, or Regeneration when healer == model) a roll is made;
    without, `amount` LP are restored directly (GM or effect)."""
    model: str
    healer: str = ""
    amount: int = 0
    karma: int = 0
    type: ClassVar[str] = "heal"


@dataclass(frozen=True)
class Stun(Serial):
    model: str
    source: str = ""
    type: ClassVar[str] = "stun"


@dataclass(frozen=True)
class SpendKarma(Serial):
    """use: protection (≤2, against the next attack), defensive (Defensive Combat X: +1 DEX each
    until the end of the Turn), swift, other."""
    model: str
    n: int = 1
    use: str = "other"
    type: ClassVar[str] = "spend_karma"


@dataclass(frozen=True)
class SpendCommand(Serial):
    """The main Leader gives `n` AP to the activating model (≤2 per model per Turn)."""
    model: str
    target: str
    n: int = 1
    type: ClassVar[str] = "spend_command"


@dataclass(frozen=True)
class ChainActivation(Serial):
    """Once per Round, 1 Command: another model activates right after this one."""
    model: str
    type: ClassVar[str] = "chain"


@dataclass(frozen=True)
class Cast(Serial):
    """Cast a spell. `attribute` for Blessing/Curse; `targets` for many-target spells;
    `target_mind` / `enemy_mind` when the difficulty depends on a model not in the game."""
    model: str
    spell: str
    target: str = ""
    targets: tuple[str, ...] = ()
    attribute: str = ""
    karma: int = 0
    use_diamond: bool = False
    enemies: tuple[str, ...] = ()  # enemies in base contact: their Attacks of Opportunity come before the roll
    type: ClassVar[str] = "cast"


@dataclass(frozen=True)
class BondRoll(Serial):
    """The original owner of a model held by a Spiritual Bond spends 1 of its Karma to force
    a new Magic roll (at each activation of that model)."""
    model: str
    type: ClassVar[str] = "bond_roll"


@dataclass(frozen=True)
class Morale(Serial):
    """Morale test: one model or, with group=True, the squad of the named player."""
    models: tuple[str, ...] = ()
    group: bool = False
    player: str = ""
    modifier: int = 0
    type: ClassVar[str] = "morale"


@dataclass(frozen=True)
class Fall(Serial):
    model: str
    height: float
    voluntary: bool = False     # a Jump Down (1 AP, per-Ace reduction)
    type: ClassVar[str] = "fall"


@dataclass(frozen=True)
class SetStatus(Serial):
    """Table facts the bot cannot see: in_water, hidden, immobilised, drowning, darkness,
    fragment, off_table (a fleeing model reached an edge)."""
    model: str
    status: str
    value: bool = True
    gondola: str = ""          # on_gondola: which gondola (capacity is checked per gondola; "" = the only one)
    type: ClassVar[str] = "set_status"


@dataclass(frozen=True)
class Roll(Serial):
    """A free roll: `pool` dice (or a model's attribute) at `difficulty` with Karma dice."""
    pool: int = 0
    difficulty: int = 7
    karma: int = 0
    label: str = ""
    model: str = ""
    attribute: str = ""
    type: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Reroll(Serial):
    """Reroll the last roll: mode 'all' (Reroll All Dice) or 'dice' with `count` missed dice."""
    model: str
    mode: str = "dice"
    count: int = 1
    type: ClassVar[str] = "reroll"


@dataclass(frozen=True)
class PlayEvent(Serial):
    player: str
    model: str = ""
    target: str = ""
    type: ClassVar[str] = "event"


@dataclass(frozen=True)
class Objective(Serial):
    """The GM (or both players agreeing through the GM) awards the adventure objective."""
    player: str
    achieved: bool = True
    type: ClassVar[str] = "objective"


@dataclass(frozen=True)
class ClaimAgenda(Serial):
    """Declare a table-judged agenda (4-6) achieved."""
    player: str
    type: ClassVar[str] = "claim_agenda"


@dataclass(frozen=True)
class EndRound(Serial):
    type: ClassVar[str] = "end_round"


@dataclass(frozen=True)
class Concede(Serial):
    player: str
    type: ClassVar[str] = "concede"


ACTIONS = {cls.type: cls for cls in (
    Choose, Deploy, ChooseOrder, Activate, Reinforce, Pass, SpendAP, EndActivation, Attack, Disengage, StealFragment, Shoot,
    Damage, Heal, Stun, SpendKarma, SpendCommand, ChainActivation, Cast, BondRoll, Morale, Fall, SetStatus,
    Roll, Reroll, PlayEvent, Objective, ClaimAgenda, EndRound, Concede)}
