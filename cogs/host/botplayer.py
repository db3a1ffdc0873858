"""The bot at the table: it answers the decisions of the seats it plays, like a player clicking.

It also stands in for a player whose deadline passed when the server asks (``/gm idle_bot``, the
turn clock of cogs/host/scheduler.py): ``stand_in`` answers that player's decisions from that
seat's own view, and ``take_back`` lets the player (or a GM) undo it with ``/game undo``.

A game's ``meta["bots"]`` maps a seat (the bot user's id string) to a level (easy, normal, hard). After
every publish the host calls ``drive``: while the game waits on a bot seat, the choice is computed off
the event loop (in a child process for the heavy levels, ``thinking``), committed through the host with the bot as actor (so it is
in ``/game log`` and ``/game undo`` takes it back like any click) and published like a player's: the same
narration and images. The bot's prompts are never posted (nobody may click them) and its private events
never DMed (``quiet``). The search sees only ``view_for(state, seat)`` (``rules.common.player``).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any, Literal

from i18n import t
from rules.common.engine import Actor, Choose, Prompt
from rules.common.errors import BautaError
from rules.common.player import GameAI, deciders

from . import systems, thinking
from .courier import bot_id

log = logging.getLogger("bauta.botplayer")

BOTS = "bots"                      # game.meta key: {seat: level}
LEVELS = ("easy", "normal", "hard")
# A ceiling on the wall time of one decision (the level's iteration budget normally ends it sooner).
SECONDS = {"easy": 2.0, "normal": 2.0, "hard": 6.0}
MAX_STEPS = 400                    # bot decisions in a row before it yields (a bot-only game cannot spin)

_running: set[int] = set()         # games a driver loop is working on (publish re-enters drive)


def ais() -> dict[str, GameAI]:
    """The games in which the bot can take a seat of its own, by system name."""
    return {name: system.ai for name, system in systems.SYSTEMS.items() if system.bot_seats and system.ai}


def players(system: str) -> GameAI | None:
    """The player for any seat of `system` (the idle-seat stand-in plays every game that has one)."""
    registered = systems.SYSTEMS.get(system)
    return registered.ai if registered is not None else None


def thinks(system: str, state_or_options: Any) -> bool:
    """Whether running the rules may make the bot think (the system says so from its set-up
    options, see `systems.System.thinks`)."""
    registered = systems.SYSTEMS.get(system)
    if registered is None or registered.thinks is None:
        return False
    options = state_or_options if isinstance(state_or_options, dict) else getattr(state_or_options, "options", {})
    return registered.thinks(options or {})


async def off_loop(system: str, state_or_options: Any, run, *args):
    """`run(*args)` (an engine's start or apply), in a worker thread when it may make the bot think
    (``thinks``), so the event loop stays free; else right here (a worker's hand-off costs more
    than most steps). A thread, not the thinking pool: such steps think at the easy level (Karmic's
    NPCs), a few ms, and a child would have to send back the whole outcome (docs/benchmarks.md)."""
    if thinks(system, state_or_options):
        return await asyncio.to_thread(run, *args)
    return run(*args)


def seats(game) -> dict[str, str]:
    return dict((getattr(game, "meta", None) or {}).get(BOTS) or {})


def quiet(game, player: str) -> bool:
    """True for a seat the bot plays: nothing is DMed to it and its prompts are not posted."""
    return player in seats(game)


def think(ai: GameAI, state: Any, seat: str, lvl: str, salt: str, seconds: float):
    """One decision in this process, as a table makes it (``thinking.think`` makes the same one in
    a thread or a child). The seed comes from the seat's view, so a replay of the game gives the
    same choice; the clock only caps a slow machine."""
    return thinking.local(ai, state, seat, lvl, salt, seconds)


async def drive(host, interaction, game) -> int:
    """Let the bot answer while the game waits on one of its seats. Returns how many it made."""
    if game.id in _running or not seats(game):
        return 0
    ai = ais().get(game.system)
    if ai is None:
        return 0
    _running.add(game.id)
    made = 0
    try:
        for _ in range(MAX_STEPS):
            record = await host.store.game(game.id)
            if record is None or not record.active:
                break
            bots = seats(record)
            state = ai.engine.load_state(record.state)
            seat = next((p for p in deciders(ai, state) if p in bots), None)
            if seat is None:
                break
            lvl = bots[seat] if bots[seat] in LEVELS else "normal"
            choice = await thinking.think(game.system, ai, state, seat, lvl, f"{record.id}", SECONDS[lvl],
                                          data=record.state)
            if choice is None:
                break
            new, outcome, before = await host.commit(record, choice, Actor(seat))
            made += 1
            await host.publish(None, new, outcome.state, outcome.events, before)
    except Exception:
        log.exception("the bot could not play game %s", game.id)
    finally:
        _running.discard(game.id)
    return made


# ---------------------------------------------------------------------------- seating the bot
Level = Literal["easy", "normal", "hard"]


def opponent(bot, interaction, member, vs_bot: bool, yourself: str = "botplayer.not_yourself") -> str:
    """The second seat of a two-player start command: a member, or the bot itself (``vs_bot`` or the
    bot named as opponent). Refuses yourself, another bot, and no opponent at all."""
    me = bot_id(bot)
    locale = interaction.locale
    if vs_bot or (member is not None and str(member.id) == me):
        if me is None:
            raise BautaError(t("botplayer.offline", locale))
        return me
    if member is None:
        raise BautaError(t("botplayer.need_opponent", locale))
    if member.id == interaction.user.id:
        raise BautaError(t(yourself, locale))      # the game's own words for it
    if getattr(member, "bot", False):
        raise BautaError(t("botplayer.other_bot", locale))
    return str(member.id)


def meta(bot, seats_: list[str], lvl: str) -> dict | None:
    """The game meta that seats the bot (None when it does not play)."""
    me = bot_id(bot)
    return {BOTS: {me: lvl if lvl in LEVELS else "normal"}} if me in seats_ else None


# ---------------------------------------------------------------------------- standing in for idle players
STAND_IN = "stand_in"              # game.meta key: the bot's last answers for idle players (see take_back)
STAND_IN_STEPS = 12                # decisions in one go: a turn's inner steps (model, action, target…), bounded
CHOICE_SHOWN = 120                 # characters of one answer in the announcement


async def stand_in(host, game, level: str, seats: set[str]) -> tuple[Any, list[tuple[Prompt, Choose]]]:
    """Answer the decisions `seats` owe `game` (their deadline passed), as each of them would: the
    search sees only that seat's view. Committed with the seat as actor (the engine checks it as a
    click) and logged as the bot's, published like a click; `remember` then lets them take it back.
    Stops as soon as the game waits on someone else, or anyone else acts. Returns the game as it
    left it and what it answered (the caller announces it: who, what, why)."""
    ai = players(game.system)
    me = bot_id(host.bot)
    lvl = level if level in LEVELS else "normal"
    if ai is None or me is None:
        return game, []
    state = ai.engine.load_state(game.state)
    record = game
    answered: list[tuple[Prompt, Choose]] = []
    try:
        for _ in range(STAND_IN_STEPS):
            seat = next((p for p in deciders(ai, state) if p in seats), None)
            if seat is None:
                break
            choice = await thinking.think(game.system, ai, state, seat, lvl, f"idle{record.id}", SECONDS[lvl])
            if choice is None:
                break
            prompt = ai.engine.prompt(state, choice.prompt)
            fresh = await host.store.game(record.id)
            if fresh is None or not fresh.active or fresh.version != record.version:
                break                          # the player came back (or someone acted) while it thought
            new, outcome, before = await host.commit(record, choice, Actor(seat), log_as=me)
            answered.append((prompt, choice))
            await host.publish(None, new, outcome.state, outcome.events, before)
            after = await host.store.game(new.id)
            if after is None or not after.active or after.version != new.version:
                break                          # the game went on without them (e.g. the bot's own seat)
            record, state = after, outcome.state
    except Exception:
        log.exception("the bot could not stand in for game %s", game.id)
    return record, answered


async def remember(host, game, seats: Iterable[str], first: int) -> Any:
    """Note who the table answered for, from which action: `/game undo` by them takes it back."""
    latest = await host.store.game(game.id) or game
    return await host.store.set_meta(latest, {**latest.meta, STAND_IN: {"seats": sorted(seats), "first": first}})


def described(say, answered: list[tuple[Prompt, Choose]], locale: Any) -> str:
    """The answers given for a player, for the channel: a private decision is only called private."""
    shown = []
    for prompt, choice in answered:
        if prompt.private:                     # a hand: nothing of it in the channel
            shown.append(t("game.stand_in_private", locale))
            continue
        labels = " + ".join(say.option(o) for o in prompt.options if o.id in choice.options)
        question = say.prompt(prompt, plain=True)
        room = max(CHOICE_SHOWN - len(labels) - 3, 20)      # the answer is kept whole; the question cut
        shown.append(f"{question if len(question) <= room else question[:room - 1] + '…'} → {labels}")
    return "; ".join(shown)


async def take_back(host, game, player: str) -> int | None:
    """`/game undo` by a player the bot stood in for: how many actions to undo (the bot's answers for
    them, and the bot's own moves right after, if nothing else happened since), or None when there
    is nothing of the kind to take back."""
    entry = game.meta.get(STAND_IN) or {}
    if player not in entry.get("seats", []):
        return None
    me = bot_id(host.bot)
    since = [a for a in await host.store.actions(game.id, limit=STAND_IN_STEPS + MAX_STEPS) if a.seq >= entry["first"]]
    if not since or any(a.actor != me for a in since) or since[0].seq != entry["first"]:
        return None
    return len(since)
