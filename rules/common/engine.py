"""The contract every game engine follows, and the values that cross it.

Shape (after boardgame.io and python-chess):
- `new_game(seats, options, seed)` builds the starting state.
- `apply(state, action, actor)` checks legality and returns an `Outcome`: a *new* state
  (the old one is never touched) and the events it caused. Illegal actions raise
  `IllegalAction` with a sentence a player can read, and nothing changes.
- `pending(state)` lists the `Prompt`s: who must decide what now, with the legal options.
  A cog turns them into buttons and selects; a click becomes `Choose(prompt_id, option_ids)`.
- `view_for(state, viewer)` returns only what that viewer may see.

Viewers and actors are strings: a player's id (the cog uses the Discord user id), or `GM`.
Events carry an audience: `PUBLIC`, `GM`, or one player's id.
"""
from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Iterable, Mapping, TypeVar, cast

from .errors import GameOver, IllegalAction, NotYourTurn, StalePrompt
from .serial import Serial

PUBLIC = "public"
GM = "gm"
ANYONE = "*"          # a prompt anyone at the table may answer (e.g. "Join" in a lobby)


@dataclass(frozen=True)
class Actor:
    """Who sent an action. `gm` is true when the cog has checked the sender holds the GM role;
    `seated` when the sender also holds a seat in the game. A GM without a seat runs the table and
    may decide for anyone (NPCs, an absent player); a GM playing a seat decides only for that seat
    (and for GM and open prompts), like the other players: their GM powers stay with GM commands."""

    id: str
    gm: bool = False
    seated: bool = False

    def may_act_for(self, player_id: str) -> bool:
        if player_id in (self.id, ANYONE):
            return True
        if player_id == GM:
            return self.gm
        return self.gm and not self.seated


@dataclass(frozen=True)
class Event(Serial):
    """Something that happened. `text` is a finished English sentence; `kind` and `data`
    let a cog or renderer present it differently (e.g. translated or as an image)."""

    kind: str
    text: str
    audience: str = PUBLIC
    data: dict = field(default_factory=dict)

    @property
    def public(self) -> bool:
        return self.audience == PUBLIC


@dataclass(frozen=True)
class Option(Serial):
    id: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class Prompt(Serial):
    """A decision someone owes the game.

    `id` is unique among the state's current prompts and stable until answered (the cog puts it
    in a button's custom_id, at most ~40 characters). `player` is the player id who must answer,
    or GM. `private` prompts (choosing from a secret hand) are offered by DM or `/hand`, never in
    the channel. `min_choices`/`max_choices` > 1 make a multi-select.
    """

    id: str
    player: str
    text: str
    options: tuple[Option, ...]
    private: bool = False
    min_choices: int = 1
    max_choices: int = 1

    def option(self, option_id: str) -> Option:
        for option in self.options:
            if option.id == option_id:
                return option
        raise IllegalAction(f"'{option_id}' is not one of the choices here.")


@dataclass(frozen=True)
class Choose(Serial):
    """The generic action: the answer to a prompt."""

    prompt: str
    options: tuple[str, ...]

    type: ClassVar[str] = "choose"


St = TypeVar("St", bound=Serial)


@dataclass
class Outcome:
    state: Any
    events: list[Event]


class Engine(ABC, Generic[St]):
    """Base class for a game's rules. Subclasses set `system`, `state_type`, `actions`
    (the action classes they accept, keyed by their `type`) and implement `setup`, `step`,
    `pending` and `view_for`.

    `step` may mutate the state it is given: `apply` hands it a private deep copy, so the
    caller's state is never touched and a raised error discards every partial change.
    """

    system: ClassVar[str] = ""
    state_type: ClassVar[type[Serial]]
    # A Mapping (read-only, covariant) so each engine can declare its own action classes.
    actions: ClassVar[Mapping[str, type[Serial]]] = {"choose": Choose}

    # --- to implement -------------------------------------------------------------------
    @abstractmethod
    def setup(self, seats: list[str], options: dict, seed: int) -> St:
        ...

    @abstractmethod
    def step(self, state: St, action: Any, actor: Actor) -> list[Event]:
        ...

    @abstractmethod
    def pending(self, state: St) -> list[Prompt]:
        ...

    @abstractmethod
    def view_for(self, state: St, viewer: str) -> dict:
        ...

    def is_over(self, state: St) -> bool:
        return bool(getattr(state, "over", False))

    # --- provided -------------------------------------------------------------------------
    def new_game(self, seats: list[str], options: dict | None = None, seed: int = 0) -> St:
        return self.setup(list(seats), dict(options or {}), seed)

    def start(self, seats: list[str], options: dict | None = None, seed: int = 0) -> "Outcome":
        """The starting state and the events set-up caused (e.g. first hands dealt, by DM).
        Engines whose set-up tells players something override this; the host publishes them."""
        return Outcome(state=self.new_game(seats, options, seed), events=[])

    def apply(self, state: St, action: Any, actor: Actor) -> Outcome:
        if self.is_over(state):
            raise GameOver("This game is over.")
        work = copy.deepcopy(state)
        events = self.step(work, action, actor)
        return Outcome(state=work, events=list(events))

    def prompt(self, state: St, prompt_id: str) -> Prompt:
        for prompt in self.pending(state):
            if prompt.id == prompt_id:
                return prompt
        raise StalePrompt("That choice has already been made, or the game has moved on.")

    def check_choice(self, state: St, choice: Choose, actor: Actor) -> Prompt:
        """The prompt a `Choose` answers, after checking it is live, the actor's and well-formed."""
        prompt = self.prompt(state, choice.prompt)
        if not actor.may_act_for(prompt.player):
            raise NotYourTurn("That choice is not yours to make.")
        n = len(choice.options)
        if not prompt.min_choices <= n <= prompt.max_choices:
            if prompt.min_choices == prompt.max_choices:
                raise IllegalAction(f"Choose exactly {prompt.min_choices}.")
            raise IllegalAction(f"Choose between {prompt.min_choices} and {prompt.max_choices}.")
        if len(set(choice.options)) != n:
            raise IllegalAction("The same choice was given twice.")
        for option_id in choice.options:
            prompt.option(option_id)
        return prompt

    # --- (de)serialisation ------------------------------------------------------------------
    def dump_state(self, state: St) -> dict:
        return state.to_dict()

    def load_state(self, data: dict) -> St:
        return cast(St, self.state_type.from_dict(data))

    def dump_action(self, action: Any) -> dict:
        return {"type": action.type, **action.to_dict()}

    def load_action(self, data: dict) -> Any:
        data = dict(data)
        kind = data.pop("type")
        try:
            cls = self.actions[kind]
        except KeyError:
            raise IllegalAction(f"Unknown action '{kind}'.") from None
        return cls.from_dict(data)


def audience_filter(events: Iterable[Event], viewer: str, is_gm: bool = False) -> list[Event]:
    """The events a viewer may read: public ones, their own, and the GM's if they are a GM."""
    return [e for e in events if e.audience in (PUBLIC, viewer) or (is_gm and e.audience == GM)]
