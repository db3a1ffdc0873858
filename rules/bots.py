"""The bot's player of each game by the system name stored on a game, for a process that has
only the rules: the bot's thinking pool (cogs/host/thinking.py) sends a child plain data (the
system's name, the state as its engine's JSON, the seat, the level, the salt, the time cap) and
the child rebuilds the engine and the player here, without the cogs that register the games for
Discord (importing them would import discord.py and the whole host into every child).

A game's system name is its package's under `rules/`; each exports its player as `AI` (the same
object its cog registers as `System.ai`)."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .common.engine import Choose
from .common.player import GameAI, timed

GAMES = ("karmic", "klash", "carnevale", "carnival_zombie")


def player(system: str) -> GameAI | None:
    """The game's player (`rules.<system>.AI`), or None for a system the rules do not know (a
    test's own game: its decisions stay in the bot's process)."""
    if system not in GAMES:
        return None
    return getattr(importlib.import_module(f"rules.{system}"), "AI", None)


def think(system: str, data: dict, seat: str, lvl: str, salt: str, seconds: float,
          clock: Callable[[], float]) -> Choose | None:
    """One decision from plain data (in the pool's child): the state rebuilt from its JSON, then
    `timed` as the bot's process would run it, so the choice is the same."""
    ai = player(system)
    if ai is None:
        raise LookupError("no player for this game system", system)
    return timed(ai, ai.engine.load_state(data), seat, lvl, salt, seconds, clock)


def prepare(*then: Callable[[], Any]) -> None:
    """A child's start: every game imported once (not on its first decision, inside its time cap),
    then `then` (the bot passes `content.install`: the games' bundled sample packs, which `rules/`
    does not read itself)."""
    for system in GAMES:
        player(system)
    for step in then:
        step()
