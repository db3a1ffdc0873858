"""The contract every game engine follows, and the values that cross it.

Shape (after boardgame.io and python-chess):
- `new_game(seats, options, seed)` builds the starting state.
- `apply(state, action, actor)` checks legality and returns an `Outcome`: a *new* state
  (the old one is never touched) and the events it caused. Illegal actions raise
  `IllegalAction(code, **params)`, and nothing changes.
- `pending(state)` lists the `Prompt`s: who must decide what now, with the legal options.
  A cog turns them into buttons and selects; a click becomes `Choose(prompt_id, option_ids)`.
- `view_for(state, viewer)` returns only what that viewer may see.

Rules speak data, not prose: an `Event` is a kind and its data, a `Prompt` a kind and its args
with `Option`s that carry an id and the kind/args of their label, an error a code and parameters.
The presenter (`i18n/present.py`) makes the sentences, for one reader in one language. A player is
always their id in the data, under a key named `player`/`players` or ending in `_player`/
`_players` (`{"player": "123"}`): the presenter makes it a mention in messages and a display name
in button labels and images. No Discord markup, no English in `rules/`.

Viewers and actors are strings: a player's id (the cog uses the Discord user id), or `GM`.
Events carry an audience: `PUBLIC`, `GM`, or one player's id.
"""
from __future__ import annotations

import copy
from collections import Counter
import hashlib
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass, field
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar, Generic, TypeVar, cast

from .errors import BautaError, GameOver, IllegalAction, NotYourTurn, StalePrompt
from .serial import Serial

PUBLIC = "public"
GM = "gm"
ANYONE = "*"          # a prompt anyone at the table may answer (e.g. "Join" in a lobby)
FORCED = "forced_choice"   # the event of a decision with one legal option, applied without a click
PROMPT_ID_MAX = 40    # a prompt id rides in a custom_id (100 characters) with the game id and an option


def prompt_id(kind: str, *key: Any) -> str:
    """The id of a prompt of `kind`: unique among the current prompts and stable until answered,
    because `key` holds what tells it apart and changes once it is answered (a seat, a round, a
    count of cards played). Ids longer than PROMPT_ID_MAX end in a digest of the whole, so they
    stay deterministic. Nothing outside `rules/` reads an id: cogs read `Prompt.kind`/`args`."""
    text = ".".join([kind, *map(str, key)])
    if len(text) <= PROMPT_ID_MAX:
        return text
    digest = hashlib.blake2s(text.encode(), digest_size=6).hexdigest()
    return f"{kind[:PROMPT_ID_MAX - len(digest) - 1]}.{digest}"


def term(key: str) -> dict:
    """A word of the game's vocabulary as a value in event data or prompt args (a maneuver, a
    location, a card type): the presenter shows `terms.<key>` in the reader's language."""
    return {"term": key}


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


@dataclass(frozen=True, init=False)
class Event(Serial):
    """Something that happened: `kind` (its catalogue key is `events.<kind>`), `data` (players as
    ids, numbers, `term(...)`s) and `audience` (PUBLIC, GM or a player's id).

    `Event("join", {"player": "123"})`. DEPRECATED: `text`, a finished English sentence, given as
    the second argument (`Event("move", "Orc moves.", audience, data)`) or as `text=`; kept for
    engines not converted yet and shown as is (the presenter counts it as a fallback).
    """

    kind: str
    data: dict = field(default_factory=dict)
    audience: str = PUBLIC
    text: str = ""

    def __init__(self, kind: str, *args: Any, data: Mapping | None = None, audience: str | None = None,
                 text: str = ""):
        rest = list(args)
        if rest and isinstance(rest[0], str):   # legacy order: (kind, text, audience, data)
            if text:
                raise TypeError("Event got its text twice")
            text = rest.pop(0)
            named = ("audience", "data")
        else:                                   # (kind, data, audience)
            named = ("data", "audience")
        given: dict[str, Any] = {"data": data, "audience": audience}
        for name in named:
            if not rest:
                break
            if given[name] is not None:
                raise TypeError("Event: an argument given twice", name)
            given[name] = rest.pop(0)
        if rest:
            raise TypeError("Event takes at most (kind, data, audience)")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "data", dict(given["data"] or {}))
        object.__setattr__(self, "audience", PUBLIC if given["audience"] is None else given["audience"])
        object.__setattr__(self, "text", text or "")

    @property
    def public(self) -> bool:
        return self.audience == PUBLIC

    @property
    def legacy(self) -> bool:
        """True for an event of an unconverted engine: its words are `text`, not a catalogue's."""
        return bool(self.text)


@dataclass(frozen=True)
class Option(Serial):
    """One answer to a prompt: `id` (what a click sends back) and the `kind`/`args` of its label
    (catalogue key `options.<kind>`; players in `args` become display names, as labels cannot
    show mentions). `detail`, when set, is the kind of a second line (a select's description).

    Build one with `Option.of("card", "card", card="7")`. DEPRECATED: `label`/`description`,
    finished English (`Option("a", "Attack")`), kept for engines not converted yet.
    """

    id: str
    label: str = ""
    description: str = ""
    kind: str = ""
    args: dict = field(default_factory=dict)
    detail: str = ""

    @classmethod
    def of(cls, id: str, kind: str = "", *, detail: str = "", **args: Any) -> Option:
        """An option whose label is `options.<kind>` (the id when no kind is given) with `args`."""
        return cls(id=id, kind=kind or id, args=args, detail=detail)

    @property
    def legacy(self) -> bool:
        return not self.kind


@dataclass(frozen=True)
class Prompt(Serial):
    """A decision someone owes the game.

    `kind` names the decision (catalogue key `prompts.<kind>`, filled with `args`); `id` is made by
    `prompt_id` from the kind and a key, unique among the state's current prompts and stable until
    answered (the cog puts it in a button's custom_id but never reads it). `player` is the player id
    who must answer, GM or ANYONE. `private` prompts (choosing from a secret hand) are offered by DM
    or `/hand`, never in the channel. `min_choices`/`max_choices` > 1 make a multi-select.
    `thread`: private decisions of one player with the same thread share one DM. A decision that
    follows a wait (one that follows the player's own click always takes the clicked DM's place)
    is edited into their newest DM when that DM is of the same thread and asks nothing any more:
    no new message, so no new notification. Of another thread, it is a new DM, which notifies.
    Empty: each decision that follows a wait is a DM of its own.

    Build one with `Prompt.ask(kind, args, player, options, key=...)`. DEPRECATED: positional
    `Prompt(id, player, text, options)` with `text` a finished English sentence.
    """

    id: str
    player: str
    text: str = ""
    options: tuple[Option, ...] = ()
    private: bool = False
    min_choices: int = 1
    max_choices: int = 1
    kind: str = ""
    args: dict = field(default_factory=dict)
    confirm: bool = False     # the click itself matters (a reaction timed): never answered for the player
    thread: str = ""

    @classmethod
    def ask(cls, kind: str, args: Mapping | None, player: str, options: Iterable[Option], *,
            key: Iterable[Any] = (), private: bool = False, min_choices: int = 1,
            max_choices: int = 1, confirm: bool = False, thread: str = "") -> Prompt:
        return cls(id=prompt_id(kind, *key), player=player, options=tuple(options), private=private,
                   min_choices=min_choices, max_choices=max_choices, kind=kind, args=dict(args or {}),
                   confirm=confirm, thread=thread)

    @property
    def legacy(self) -> bool:
        return not self.kind

    def option(self, option_id: str) -> Option:
        for option in self.options:
            if option.id == option_id:
                return option
        raise IllegalAction("not_a_choice", option=option_id)


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


@dataclass(frozen=True)
class Standing:
    """How a game stands (at its end, for its chronicle): the winners (seats; none for a draw or
    a co-op loss), each seat's score as the rules count it, and the kind of result, a catalogue
    word of the game (`won`, `lost`, `draw`...), with its data."""
    winners: tuple[str, ...] = ()
    scores: Mapping[str, int] = field(default_factory=dict)
    result: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)


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

    def step_answer(self, state: St, choice: Choose, actor: Actor, prompt: Prompt) -> list[Event]:
        """`step` for a choice whose prompt the caller has just taken from `pending(state)` (the bot's
        search). An engine whose `pending` is dear overrides it to skip looking the prompt up again."""
        return self.step(state, choice, actor)

    @abstractmethod
    def pending(self, state: St) -> list[Prompt]:
        ...

    @abstractmethod
    def view_for(self, state: St, viewer: str) -> dict:
        ...

    def is_over(self, state: St) -> bool:
        return bool(getattr(state, "over", False))

    # --- for games played over days (optional) ---------------------------------------------
    # The event kinds that open a chapter of the game (a round, a Night, an Hourglass): a recap
    # groups what happened by them. And the kinds that are turning points (a kill, a lost Night,
    # a Critical): a chronicle lists them.
    chapter_kinds: ClassVar[frozenset[str]] = frozenset()
    turning_kinds: ClassVar[frozenset[str]] = frozenset()

    def default_choice(self, state: St, prompt: Prompt) -> tuple[str, ...] | None:
        """The rulebook's answer to `prompt` for a player who let its deadline pass (pass, hold,
        the lowest card), as option ids of `prompt`; None where the rules give no default."""
        return None

    def standing(self, state: St) -> Standing | None:
        """Who won and the score, for a chronicle (None where the game keeps no score)."""
        return None

    # --- provided -------------------------------------------------------------------------
    @contextmanager
    def _speaking(self) -> Iterator[None]:
        """Errors leaving the engine name its system, so the presenter looks in its catalogue."""
        try:
            yield
        except BautaError as error:
            error.system = error.system or self.system
            raise

    def new_game(self, seats: list[str], options: dict | None = None, seed: int = 0) -> St:
        with self._speaking():
            return self.setup(list(seats), dict(options or {}), seed)

    def start(self, seats: list[str], options: dict | None = None, seed: int = 0) -> Outcome:
        """The starting state and the events set-up caused (e.g. first hands dealt, by DM).
        Engines whose set-up tells players something override this; the host publishes them."""
        return Outcome(state=self.new_game(seats, options, seed), events=[])

    def apply(self, state: St, action: Any, actor: Actor) -> Outcome:
        with self._speaking():
            if self.is_over(state):
                raise GameOver("game_over")
            work = copy.deepcopy(state)
            events = self.step(work, action, actor)
        return Outcome(state=work, events=list(events))

    def settle(self, outcome: Outcome, limit: int = 200, skip: Iterable[str] = ()) -> Outcome:
        """Answer every decision that is no decision (`forced`): applied at once, as its player, and
        told as a `forced_choice` event. A table convention, not a rule: the host skips it when the
        server keeps the confirmation (house rule `confirm_single_choice`). `skip`: seats whose
        decisions are made elsewhere (the bot's own seats: it plays them itself)."""
        state, events = outcome.state, list(outcome.events)
        for _ in range(limit):
            if self.is_over(state):
                break
            prompt = forced(self, state, skip)
            if prompt is None:
                break
            option = prompt.options[0]
            after = self.apply(state, Choose(prompt.id, (option.id,)), Actor(prompt.player, seated=True))
            events.append(Event(FORCED, {"player": prompt.player, "question": {"prompt": prompt.to_dict()},
                                         "choice": {"option": option.to_dict()}}))
            events += after.events
            state = after.state
        return Outcome(state=state, events=events)

    def prompt(self, state: St, prompt_id: str) -> Prompt:
        for prompt in self.pending(state):
            if prompt.id == prompt_id:
                return prompt
        with self._speaking():
            raise StalePrompt("stale_prompt")

    def check_choice(self, state: St, choice: Choose, actor: Actor, known: Prompt | None = None) -> Prompt:
        """The prompt a `Choose` answers, after checking it is live, the actor's and well-formed.
        `known`: that prompt, just taken from `pending(state)` by the caller (not looked up again)."""
        prompt = known if known is not None and known.id == choice.prompt else self.prompt(state, choice.prompt)
        if not actor.may_act_for(prompt.player):
            raise NotYourTurn("not_your_choice")
        n = len(choice.options)
        if not prompt.min_choices <= n <= prompt.max_choices:
            if prompt.min_choices == prompt.max_choices:
                raise IllegalAction("choose_exactly", n=prompt.min_choices)
            raise IllegalAction("choose_between", min=prompt.min_choices, max=prompt.max_choices)
        if len(set(choice.options)) != n:
            raise IllegalAction("same_choice_twice")
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
            raise IllegalAction("unknown_action", action=kind) from None
        return cls.from_dict(data)


def forced(engine: Engine, state: Any, skip: Iterable[str] = (), prompts: list[Prompt] | None = None,
           ) -> Prompt | None:
    """The first pending decision that is no decision: a seated player's public prompt with one
    legal option, and the only prompt that player has (with two, choosing which to answer is a
    choice: an Event Card before the activation). Private prompts are always asked: answering one
    at once would tell the table what the hand holds (no card to answer with). `prompts`: the
    state's pending prompts, when the caller has them already."""
    if engine.is_over(state):
        return None
    if prompts is None:
        prompts = engine.pending(state)
    owners = Counter(p.player for p in prompts)
    others = {ANYONE, GM, *skip}
    return next((p for p in prompts if p.player not in others and not p.private and not p.confirm
                 and owners[p.player] == 1 and len(p.options) == 1 and p.min_choices == 1), None)


def audience_filter(events: Iterable[Event], viewer: str, is_gm: bool = False) -> list[Event]:
    """The events a viewer may read: public ones, their own, and the GM's if they are a GM."""
    return [e for e in events if e.audience in (PUBLIC, viewer) or (is_gm and e.audience == GM)]
