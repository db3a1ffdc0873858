"""What every part of the Carnival Zombie engine shares: the step's working context and a few constants."""
from __future__ import annotations

from rules.common import PUBLIC, Event, term

from .content import Content, Frozen, _freeze, content_for
from .state import CAVES, DEFAULT_HOUSE_RULES, GameState

PIT_CW = ("N", "E", "S", "W")
SPACES = tuple(f"{c}.{r}" for c in CAVES for r in (1, 2, 3))
TOTAL_CUBES = {"S": 10, "#": 24, "W": 15, "P": 6}
ROMAN = {1: "I", 2: "II", 3: "III"}


def next_able(s: GameState, ctx: dict) -> int:
    """The index of the next Character still able to act, from `ctx["i"]` on (kept in `ctx`);
    len(s.characters) once every one has had their go."""
    i = ctx["i"]
    while i < len(s.characters) and s.characters[i].incapacitated:
        i += 1
    ctx["i"] = i
    return i


def dir_term(d: str) -> dict:
    """A compass direction (a Pit, a Refuge space, an Alley) as a word of the game's vocabulary."""
    return term(f"dir_{d}")


class G:
    """Working context for one step: the state, its content and the events emitted."""

    __slots__ = ("s", "c", "ev", "hr")

    def __init__(self, s: GameState, c: Content):
        self.s, self.c = s, c
        self.ev: list[Event] = []
        self.hr = {**DEFAULT_HOUSE_RULES, **(s.house_rules or {})}

    def say(self, kind: str, audience: str = PUBLIC, **data) -> None:
        """An event: its `kind` and data (names of Characters, Bosses, Items as the pack spells them;
        players as ids); the presenter words it."""
        self.ev.append(Event(kind, data, audience))
        if audience == PUBLIC:
            self.s.log.append({"kind": kind, "data": data})
            if len(self.s.log) > 30:
                del self.s.log[:-30]


def _content(s: GameState) -> Content:
    if s.pack is not None and not isinstance(s.pack, Frozen):
        s.pack = _freeze(s.pack)
    return content_for(s.pack)



# Day Abilities with their own option label (`options.ability_<name>`); a pack's other ones read `options.ability`.
DAY_ABILITIES = ("rally", "exploration", "scavenge", "fortify", "barter", "treatment")
