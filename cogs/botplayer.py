"""The bot at the table: it answers the decisions of the seats it plays, like a player clicking.

A game's ``meta["bots"]`` maps a seat (the bot user's id string) to a level (easy, normal, hard). After
every publish the host calls ``drive``: while the game waits on a bot seat, the choice is computed in a
worker thread (the event loop stays free), committed through the host with the bot as actor (so it is
in ``/game log`` and ``/game undo`` takes it back like any click) and published like a player's: the same
narration and images. The bot's prompts are never posted (nobody may click them) and its private events
never DMed (``quiet``). The search sees only ``view_for(state, seat)`` (``rules.common.player``).
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Literal

from i18n import t
from rules.common.engine import Actor
from rules.common.errors import BautaError
from rules.common.player import GameAI, decide, deciders, level, seed_for

log = logging.getLogger("bauta.botplayer")

BOTS = "bots"                      # game.meta key: {seat: level}
LEVELS = ("easy", "normal", "hard")
# A ceiling on the wall time of one decision (the level's iteration budget normally ends it sooner).
SECONDS = {"easy": 2.0, "normal": 2.0, "hard": 6.0}
MAX_STEPS = 400                    # bot decisions in a row before it yields (a bot-only game cannot spin)

_running: set[int] = set()         # games a driver loop is working on (publish re-enters drive)


def ais() -> dict[str, GameAI]:
    """The games the bot can play, by system name (imported lazily: rules modules are heavy)."""
    from rules.carnevale.ai import AI as CARNEVALE
    from rules.klash.ai import AI as KLASH
    return {"klash": KLASH, "carnevale": CARNEVALE}


def bot_id(bot) -> str | None:
    user = getattr(bot, "user", None)
    return str(user.id) if user is not None else None


def seats(game) -> dict[str, str]:
    return dict((getattr(game, "meta", None) or {}).get(BOTS) or {})


def quiet(game, player: str) -> bool:
    """True for a seat the bot plays: nothing is DMed to it and its prompts are not posted."""
    return player in seats(game)


def think(ai: GameAI, state: Any, seat: str, lvl: str, salt: str, seconds: float):
    """One decision (runs in a worker thread). The seed comes from the seat's view, so a replay of
    the game gives the same choice; the clock only caps a slow machine."""
    stop = time.monotonic() + seconds
    return decide(ai, state, seat, level(lvl), seed_for(ai, state, seat, salt),
                  deadline=lambda: time.monotonic() > stop)


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
            choice = await asyncio.to_thread(think, ai, state, seat, lvl, f"{record.id}", SECONDS[lvl])
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


def carnevale_squad(pack_doc: dict | None, points: int, faction: str | None, seed: int) -> dict:
    """The squad the bot fields in Carnevale, within the points limit (see ``rules.carnevale.ai``)."""
    from rules.carnevale.ai import build_squad
    from rules.carnevale.content import pack_from_doc
    from rules.common.rng import Rng
    return build_squad(pack_from_doc(pack_doc), points, faction, Rng.from_seed(seed)).to_dict()
