""""Previously on…": what happened in a game since a player last acted in it, as they may read it.

A recap is built from the stored log only (the events of live actions), filtered to what its
reader may see (public events, their own private ones, the GM's when they are a GM), worded by
the presenter in the reader's language, and grouped into chapters: a new chapter opens at each
event of a kind in `engine.chapter_kinds` (a round, a Night, an Hourglass), or, for a game that
names none, at each new day. Turning points (`engine.turning_kinds`) always stay; the other lines
of a long chapter are compacted to its first and last few. It ends with the table as it is now:
the system's board, when it draws one, and the decisions awaited.

`welcome_back` is the automatic recap: the first action of a player after `AWAY` without acting
in a game brings them the recap privately, after their action is acknowledged.
"""
from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol
from collections.abc import Iterable, Sequence

import discord

from clock import source
from db.records import ActionRecord, GameRecord
from i18n import present, t
from i18n.present import Presenter
from rules.common import ANYONE, GM, PUBLIC, Engine

from . import systems
from .courier import MESSAGE_LIMIT, mention
from .replies import reply
from .text import newest

log = logging.getLogger("bauta.recap")

AWAY = timedelta(hours=12)     # this long without acting in a game, and the next action brings a recap
HEAD, TAIL = 2, 3              # the lines of a chapter always kept, besides its turning points
READ = 500                     # actions a recap reads at most (the newest)
WAITING_SHOWN = 8              # decisions listed under "Now"
QUIET = discord.AllowedMentions.none()      # a recap names players, it never calls them

# The automatic recap (GameHost.act/choose): a test that counts a player's messages turns it off.
AUTOMATIC = True


class RecapHost(Protocol):
    """What a recap needs of the host (cogs/host/gamehost.py, which imports this module)."""
    store: Any

    def presenter(self, game: GameRecord, locale: Any) -> Presenter: ...

    async def server_locale(self, game: GameRecord, interaction: discord.Interaction | None) -> Any: ...

    async def is_gm(self, interaction: discord.Interaction, guild_id: int | None = None) -> bool: ...


@dataclass
class Chapter:
    heading: str | None
    lines: list[tuple[str, bool]] = field(default_factory=list)     # (line, a turning point)


def at(stamp: str) -> datetime:
    found = source.parse(stamp)
    assert found is not None
    return found


def epoch(stamp: str | datetime) -> int:
    return int((at(stamp) if isinstance(stamp, str) else stamp).timestamp())


def audiences(viewer: str, gm: bool) -> set[str]:
    """Whose events a reader may read: the public's, their own, and the GM's when they are one."""
    return {PUBLIC, viewer} | ({GM} if gm else set())


def chapters(actions: Iterable[ActionRecord], engine: Engine, say: Presenter, seen: set[str]) -> list[Chapter]:
    """The readable events of `actions`, worded, in chapters (by the engine's chapter kinds, else by day)."""
    found: list[Chapter] = []
    day = None
    for record in actions:
        if not engine.chapter_kinds:
            today = at(record.created_at).date()
            if today != day:
                day = today
                midnight = datetime(today.year, today.month, today.day, tzinfo=at(record.created_at).tzinfo)
                found.append(Chapter(t("chronicle.recap_day", say.language, day=f"<t:{epoch(midnight)}:D>")))
        for event in record.events:
            if event.get("audience", PUBLIC) not in seen:
                continue
            line = say.event(event)
            if not line:
                continue
            kind = event.get("kind", "")
            if kind in engine.chapter_kinds:
                found.append(Chapter(f"**{line}**"))
                continue
            if not found:
                found.append(Chapter(None))
            found[-1].lines.append((line, kind in engine.turning_kinds))
    return [c for c in found if c.lines or c.heading]


def compact(chapter: Chapter, language: str) -> list[str]:
    """A chapter's lines: its first HEAD and last TAIL, every turning point, and "…N more" for the rest."""
    out: list[str] = [chapter.heading] if chapter.heading else []
    total = len(chapter.lines)
    dropped = 0
    for index, (line, turning) in enumerate(chapter.lines):
        if index < HEAD or index >= total - TAIL or turning:
            if dropped:
                out.append(t("chronicle.recap_more", language, n=dropped))
                dropped = 0
            out.append(f"• {line}")
        else:
            dropped += 1
    if dropped:
        out.append(t("chronicle.recap_more", language, n=dropped))
    return out


async def picture(host: RecapHost, game: GameRecord, state: Any, locale: Any) -> discord.File | None:
    """The system's board of the game's public view, as a file (None when it draws none or fails)."""
    system = systems.get(game.system)
    if system.render is None:
        return None
    reading = present.READER.set(host.presenter(game, locale))
    try:
        png = await asyncio.to_thread(system.render, system.engine.view_for(state, PUBLIC))
    except Exception:  # noqa: BLE001 - a picture must never stop the words
        log.exception("board image failed for game %s", game.id)
        return None
    finally:
        present.READER.reset(reading)
    return discord.File(io.BytesIO(png), filename=f"{game.system}-{game.id}.png") if png else None


def waiting(game: GameRecord, state: Any, say: Presenter, viewer: str, gm: bool) -> list[str]:
    """The decisions awaited now, as the reader may know them: another player's private decision
    by its owner only, never its words."""
    engine = systems.get(game.system).engine
    lines = []
    for prompt in engine.pending(state):
        if prompt.private and prompt.player not in (viewer, ANYONE) and not (gm and prompt.player == GM):
            lines.append(t("chronicle.waiting_private", say.language, player=say.player(prompt.player)))
        elif prompt.player == ANYONE:
            lines.append(f"• {say.prompt(prompt)}")
        else:
            lines.append(f"• {say.player(prompt.player)}: {say.prompt(prompt)}")
    lines = list(dict.fromkeys(lines))           # a player's several private decisions: one line
    if len(lines) > WAITING_SHOWN:
        lines = [*lines[:WAITING_SHOWN], t("chronicle.recap_more", say.language, n=len(lines) - WAITING_SHOWN)]
    return lines or [t("chronicle.waiting_none", say.language)]


async def compose(host: RecapHost, game: GameRecord, viewer: str, gm: bool, locale: Any, *,
                  since: ActionRecord | None, until: int | None = None,
                  welcome: bool = False) -> tuple[str, discord.File | None]:
    """The recap of `game` for `viewer` since their action `since` (None: from the start), up to
    the action `until` (excluded; None: to now): one message and the board."""
    system = systems.get(game.system)
    engine = system.engine
    say = host.presenter(game, locale)
    language = say.language
    title = systems.title(game.system, locale)
    actions = await host.store.actions_after(game.id, since.seq if since else 0, limit=READ)
    if until is not None:
        actions = [a for a in actions if a.seq < until]
    if since is None and welcome:
        header = t("chronicle.recap_welcome_start", language, title=title, id=game.id,
                   since=f"<t:{epoch(game.created_at)}:R>")
    elif since is None:
        header = t("chronicle.recap_start", language, title=title, id=game.id)
    else:
        header = t("chronicle.recap_welcome" if welcome else "chronicle.recap_since", language, title=title,
                   id=game.id, since=f"<t:{epoch(since.created_at)}:R>")
    body = [line for chapter in chapters(actions, engine, say, audiences(viewer, gm)) for line in compact(chapter, language)]
    if not body:
        body = [t("chronicle.recap_nothing", language)]
    state = engine.load_state(game.state)
    ended = not game.active or engine.is_over(state)
    now = [t("chronicle.recap_ended" if ended else "chronicle.recap_now", language),
           *([] if ended else waiting(game, state, say, viewer, gm))]
    tail = "\n".join(now)[: MESSAGE_LIMIT // 3]
    text = newest(header, body, limit=MESSAGE_LIMIT - len(tail) - 1,
                  older=lambda n: t("chronicle.recap_older", language, n=n))
    return f"{text}\n{tail}", await picture(host, game, state, await host.server_locale(game, None))


async def send(interaction: discord.Interaction, text: str, file: discord.File | None) -> None:
    await reply(interaction, text, ephemeral=True, allowed_mentions=QUIET, **({"file": file} if file else {}))


async def recap(host: RecapHost, interaction: discord.Interaction, game: GameRecord) -> None:
    """/game recap: since the caller's last action in the game (from the start if they never acted)."""
    me = str(interaction.user.id)
    mine = await host.store.last_actions_of(game.id, me, limit=1)
    text, file = await compose(host, game, me, await host.is_gm(interaction), interaction.locale,
                               since=mine[0] if mine else None)
    await send(interaction, text, file)


async def welcome_back(host: RecapHost, interaction: discord.Interaction | None, game: GameRecord) -> bool:
    """After a player's action is acknowledged: the recap, when they had not acted in this game for
    AWAY (since their previous action, or since the game began). One indexed read per action of a
    seated human; True when a recap went out."""
    if not AUTOMATIC or interaction is None or getattr(interaction.user, "bot", False):
        return False
    me = str(interaction.user.id)
    if me not in game.seats or not systems.get(game.system).listed:
        return False
    mine = await host.store.last_actions_of(game.id, me, limit=2)
    if not mine or mine[0].seq != game.version:        # not their action (a secret one is logged as such)
        return False
    previous = mine[1] if len(mine) > 1 else None
    if source.now() - at(previous.created_at if previous else game.created_at) < AWAY:
        return False
    if mine[0].seq - (previous.seq if previous else 0) <= 1:
        return False            # nobody else acted meanwhile: nothing to tell them
    fresh = await host.store.game(game.id) or game
    text, file = await compose(host, fresh, me, await host.is_gm(interaction), interaction.locale,
                               since=previous, until=mine[0].seq, welcome=True)
    await send(interaction, text, file)
    return True


def figures(game: GameRecord, actions: Sequence[ActionRecord]) -> dict[str, tuple[int, float | None]]:
    """Per seat: how many decisions (logged actions) and the mean seconds each answer took (from the
    action before it, or the game's start)."""
    out: dict[str, tuple[int, float | None]] = {}
    waits: dict[str, list[float]] = {seat: [] for seat in game.seats}
    previous = at(game.created_at)
    for record in actions:
        moment = at(record.created_at)
        if record.actor in waits:
            waits[record.actor].append((moment - previous).total_seconds())
        previous = moment
    for seat, times in waits.items():
        out[seat] = (len(times), sum(times) / len(times) if times else None)
    return out


def luck(actions: Sequence[ActionRecord]) -> dict[str, tuple[int, float]]:
    """Dice luck per player, from public events that give a roll with its expected value: data
    `dice` (the faces) and `sides`, the roller in `player` (else the action's author). Per player:
    (dice rolled, mean face minus the expected face). Empty for a game whose events give none."""
    rolled: dict[str, list[float]] = {}
    for record in actions:
        for event in record.events:
            data = event.get("data") or {}
            dice, sides = data.get("dice"), data.get("sides")
            if (event.get("audience", PUBLIC) != PUBLIC or not isinstance(sides, int) or sides < 2
                    or not isinstance(dice, list) or not all(isinstance(d, int) for d in dice)):
                continue
            who = str(data.get("player") or record.actor)
            rolled.setdefault(who, []).extend(d - (sides + 1) / 2 for d in dice)
    return {who: (len(d), sum(d) / len(d)) for who, d in rolled.items() if d}


def span(seconds: float, language: str) -> str:
    """A duration in its two largest units ("2 days 3 hours", "5 minutes 10 seconds")."""
    left = int(round(seconds))
    amounts = []
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60), ("seconds", 1)):
        n, left = divmod(left, size)
        amounts.append((unit, n))
    first = next((i for i, (_, n) in enumerate(amounts) if n), len(amounts) - 1)
    parts = [t(f"chronicle.units.{unit}", language, n=n) for unit, n in amounts[first:first + 2]
             if n or unit == amounts[first][0]]
    return " ".join(parts)


def mentions(players: Iterable[str]) -> str:
    return ", ".join(mention(p) for p in players)
