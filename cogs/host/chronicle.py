"""A game's chronicle, its Rematch button, the server's list of games, and archiving.

When a game ends, however it ends (by its rules, by `/game end`, by a concession, by archiving),
its channel gets its chronicle once: who won and the score (`engine.standing`; without one, that
the game ended), the turning points (`engine.turning_kinds`), each player's figures (decisions,
mean answer time, dice luck where the events give rolls with their expected value), how long it
lasted, and the final board. "Once" is the meta key `chronicled`, claimed atomically before the
message goes out: an outbox publish again after a crash, or a second end, finds it claimed.
`/game chronicle` words it again, for its reader, from the stored log.

The chronicle carries Rematch (`RematchButton`): a table for the same game, with the same players
(the bot's seats too) and the same set-up options (`store.setup_of`), in the same channel.
"""
from __future__ import annotations

import logging
from typing import Any, Protocol
from collections.abc import Sequence

import discord

from clock import source
from db.clock import DEFAULT_ARCHIVE_DAYS
from db.records import ActionRecord, GameRecord
from i18n import present, t
from i18n.present import Presenter
from rules.common import ANYONE, PUBLIC, BautaError, Event, Standing

from . import botplayer, systems
from .courier import MESSAGE_LIMIT, chunks, mention
from .errors import report_error
from .recap import QUIET, RecapHost, at, epoch, figures, luck, mentions, picture, span
from .replies import reply

log = logging.getLogger("bauta.chronicle")

CHRONICLED = "chronicled"       # game.meta: when its chronicle was claimed (posted once)
TURNING_SHOWN = 8
LINE_CAP = 200                  # a turning point's line, at most (the chronicle is one message)
LISTED = 15                     # /game list: games shown
STATUSES = ("active", "paused", "ended", "archived")
CARRIED = (botplayer.BOTS, "genders")     # meta a rematch carries to its table, and the table to its game


class ChronicleHost(RecapHost, Protocol):
    courier: Any
    table: Any

    async def start(self, interaction: discord.Interaction, system_name: str, seats: Sequence[str],
                    options: dict | None = None, seed: int | None = None, intro: str | Event | None = None,
                    meta: dict | None = None, done: str | None = None) -> GameRecord: ...


# ---------------------------------------------------------------------------- the chronicle
def _result(say: Presenter, game: GameRecord, standing: Standing) -> list[str]:
    language = say.language
    lines = []
    if standing.winners:
        lines.append(t("chronicle.winner", language, count=len(standing.winners), winners=mentions(standing.winners)))
    else:
        lines.append(t("chronicle.no_winner", language))
    word = f"words.{standing.result}"
    if standing.result and (present.game_words(language, game.system).get(word)
                            or present.game_words("en", game.system).get(word)):
        lines[-1] += f" ({say.text(word, **standing.data)})"
    if standing.scores:
        lines.append(t("chronicle.scores", language,
                       scores=" · ".join(f"{mention(p)} {n}" for p, n in standing.scores.items())))
    return lines


def _players(game: GameRecord, actions: Sequence[ActionRecord], language: str) -> list[str]:
    lucky = luck(actions)
    lines = [t("chronicle.players", language)]
    for seat, (n, mean) in figures(game, actions).items():
        if not n:
            lines.append(t("chronicle.figures_none", language, player=mention(seat)))
            continue
        line = t("chronicle.figures", language, player=mention(seat), n=n, time=span(mean or 0, language))
        if seat in lucky:
            dice, mean_luck = lucky[seat]
            line += t("chronicle.luck", language, luck=f"{mean_luck:+.1f}", dice=dice)
        lines.append(line)
    return lines


async def compose(host: RecapHost, game: GameRecord, locale: Any,
                  intro: str | None = None) -> tuple[str, discord.File | None]:
    """The chronicle of an ended game, for a reader of `locale` (public: public events only)."""
    system = systems.get(game.system)
    engine = system.engine
    say = host.presenter(game, locale)
    language = say.language
    state = engine.load_state(game.state)
    actions = await host.store.actions(game.id, limit=10_000)
    lines = [intro] if intro else []
    lines.append(t("chronicle.header", language, title=systems.title(game.system, locale), id=game.id))
    standing = engine.standing(state)
    lines += _result(say, game, standing) if standing is not None else [t("chronicle.ended", language)]
    turning = [line for record in actions for e in record.events
               if e.get("audience", PUBLIC) == PUBLIC and e.get("kind") in engine.turning_kinds
               and (line := say.event(e))]
    if turning:
        lines.append(t("chronicle.turning", language))
        lines += [f"• {line if len(line) <= LINE_CAP else line[:LINE_CAP - 1] + '…'}" for line in turning[:TURNING_SHOWN]]
        if len(turning) > TURNING_SHOWN:
            lines.append(t("chronicle.recap_more", language, n=len(turning) - TURNING_SHOWN))
    lines += _players(game, actions, language)
    if actions:
        first, last = at(actions[0].created_at), at(actions[-1].created_at)
        lines.append(t("chronicle.duration", language, span=span((last - first).total_seconds(), language),
                       first=f"<t:{epoch(first)}:f>", last=f"<t:{epoch(last)}:f>"))
    text = "\n".join(lines)
    if len(text) > MESSAGE_LIMIT:
        text = text[: MESSAGE_LIMIT - 1] + "…"
    return text, await picture(host, game, state, locale)


def rematch_view(game_id: int, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, t("chronicle.rematch", language)))
    return view


async def post(host: ChronicleHost, game: GameRecord, intro: str | None = None, told: Sequence[str] = ()) -> bool:
    """Post the chronicle of an ended game in its channel, once (True when this call posted it).
    `told`: what the system said of the end (`on_over`: a score, what was saved), at the top of
    the same message when it fits (one write), else in a message of its own above it. A lobby
    (or any unlisted system) has none."""
    # In the publish of the step that ended the game (keyed sends: a send again is absorbed, see
    # cogs/host/courier.py) a claim made already does not stop it: that claim may be this very
    # publish's before a crash, which then never posted. Elsewhere the claim makes it once.
    keyed = host.courier.keyed()
    if not systems.get(game.system).listed or (game.meta.get(CHRONICLED) and not keyed):
        return False
    claimed = await host.store.claim_meta(game, CHRONICLED, source.stamp(source.now()))
    if claimed is None:
        if not keyed:
            return False
        claimed = await host.store.game(game.id) or game
    locale = await host.server_locale(claimed, None)
    text, file = await compose(host, claimed, locale, intro)
    said = "\n".join(told)
    if said and len(said) + 1 + len(text) <= MESSAGE_LIMIT:
        text, told = f"{said}\n{text}", ()
    await tell(host, game, told)
    await host.courier.send_channel(game.channel_id, text, slot=f"chronicle{game.id}",
                                    view=rematch_view(game.id, present.language(locale)),
                                    allowed_mentions=QUIET, **({"file": file} if file else {}))
    return True


async def tell(host: ChronicleHost, game: GameRecord, lines: Sequence[str]) -> None:
    """Lines about a game's end in messages of their own (no chronicle to carry them)."""
    for index, part in enumerate(chunks(list(lines)) if lines else ()):
        await host.courier.send_channel(game.channel_id, part, slot=f"ended{game.id}.{index}", allowed_mentions=QUIET)


async def ended_game(host: RecapHost, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The game `/game chronicle` is about: `game_id` within the server, else the channel's last ended one."""
    guild = interaction.guild_id
    if guild is None:
        raise BautaError("guild_only")
    if game_id is not None:
        game = await host.store.game(game_id)
        if game is None or game.guild_id != guild or not systems.get(game.system).listed:
            raise BautaError(t("chronicle.not_found", interaction.locale, id=game_id))
        if game.active:
            raise BautaError(t("chronicle.not_over", interaction.locale, id=game_id))
        return game
    here = [g for g in await host.store.games(guild) if g.channel_id == interaction.channel_id
            and not g.active and systems.get(g.system).listed]
    if not here:
        raise BautaError(t("chronicle.none_here", interaction.locale))
    return here[-1]


async def show(host: RecapHost, interaction: discord.Interaction, game_id: int | None) -> None:
    """/game chronicle: the chronicle again, privately, in the reader's language."""
    game = await ended_game(host, interaction, game_id)
    text, file = await compose(host, game, interaction.locale)
    extra: dict[str, Any] = {"file": file} if file else {}
    if game.channel_id == interaction.channel_id:
        extra["view"] = rematch_view(game.id, present.language(interaction.locale))
    await reply(interaction, text, ephemeral=True, allowed_mentions=QUIET, **extra)


# ---------------------------------------------------------------------------- Rematch
async def rematch(host: ChronicleHost, interaction: discord.Interaction, game_id: int) -> None:
    """A table for the same game, players and options, in the same channel (a player or a GM)."""
    locale = interaction.locale
    game = await host.store.game(game_id)
    if game is None or game.guild_id != interaction.guild_id or game.active:
        await reply(interaction, t("chronicle.rematch_gone", locale), ephemeral=True)
        return
    me = str(interaction.user.id)
    if me not in game.seats and not await host.is_gm(interaction):
        await reply(interaction, t("chronicle.rematch_not_player", locale), ephemeral=True)
        return
    if interaction.channel_id != game.channel_id:
        await reply(interaction, t("chronicle.rematch_elsewhere", locale, channel=f"<#{game.channel_id}>"),
                    ephemeral=True)
        return
    if await host.store.active_game(game.guild_id, game.channel_id) is not None:
        await reply(interaction, t("chronicle.rematch_busy", locale), ephemeral=True)
        return
    setup = await host.store.setup_of(game.id) or {}
    bots = botplayer.seats(game)
    humans = [s for s in game.seats if s not in bots]
    leader = me if me in humans else (humans[0] if humans else me)
    title = systems.get(game.system).title
    seats = list(game.seats)
    meta = {k: game.meta[k] for k in CARRIED if game.meta.get(k)}
    await host.start(interaction, "lobby", seats,
                     options={"system": game.system, "title": title, "min_players": len(seats),
                              "max_players": len(seats), "options": setup, "host": leader},
                     intro=Event("table_opened", {"player": leader, "title": title}), meta=meta or None)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bauta:rematch:(?P<game>[0-9]+)"):
    """Under a chronicle: re-reads the game from the store on every click (works after a restart)."""

    def __init__(self, game_id: int, label: str = "Rematch"):
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=label[:80] or "…", style=discord.ButtonStyle.success,
                                           custom_id=f"bauta:rematch:{game_id}", emoji="🔁"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(int(match["game"]), item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await rematch(interaction.client.host, interaction, self.game_id)      # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - every error becomes a friendly ephemeral reply
            await report_error(interaction, exc)


# ---------------------------------------------------------------------------- /game list
def status_of(game: GameRecord) -> str:
    if game.active:
        return "paused" if (game.meta.get("clock") or {}).get("paused_at") else "active"
    return game.status if game.status in STATUSES else "ended"


async def listing(host: RecapHost, interaction: discord.Interaction, status: str | None = None) -> None:
    """/game list: the server's games, newest first, bounded (an active table is listed too)."""
    locale = interaction.locale
    games = [g for g in reversed(await host.store.games(interaction.guild_id))
             if (systems.get(g.system).listed or g.active) and (status is None or status_of(g) == status)]
    if not games:
        await reply(interaction, t("chronicle.list_empty", locale), ephemeral=True)
        return
    lines = [t("chronicle.list_header", locale, n=len(games))]
    shown = 0
    for game in games[:LISTED]:
        state = status_of(game)
        turn = ""
        if game.active:
            engine = systems.get(game.system).engine
            awaited = sorted({p.player for p in engine.pending(engine.load_state(game.state))},
                             key=lambda p: (p == ANYONE, p))
            say = host.presenter(game, locale)
            if awaited:
                turn = t("chronicle.list_turn", locale, players=", ".join(say.player(p) for p in awaited))
        line = t("chronicle.list_line", locale, id=game.id, title=systems.title(game.system, locale),
                 channel=f"<#{game.channel_id}>", status=t(f"chronicle.status.{state}", locale), turn=turn,
                 idle=f"<t:{epoch(game.updated_at)}:R>")
        more = t("chronicle.list_more", locale, n=len(games) - shown - 1) if shown + 1 < len(games) else ""
        if sum(len(x) + 1 for x in lines) + len(line) + len(more) + 2 > MESSAGE_LIMIT:
            break
        lines.append(line)
        shown += 1
    if shown < len(games):
        lines.append(t("chronicle.list_more", locale, n=len(games) - shown))
    await reply(interaction, "\n".join(lines), ephemeral=True, allowed_mentions=QUIET)


# ---------------------------------------------------------------------------- archiving
async def archive(host: ChronicleHost, game: GameRecord) -> bool:
    """Put away a game idle past its server's setting: status 'archived' (never deleted; its
    channel is free), the system's end hook as at any end, a notice and the chronicle in its
    channel (one message). False when the game moved on meanwhile (it stays as it is)."""
    if not await host.store.archive_game(game):
        return False
    archived = await host.store.game(game.id) or game
    system = systems.get(archived.system)
    told: Sequence[str] = ()
    if system.on_over is not None:
        try:
            told = await system.on_over(host, None, archived, system.engine.load_state(archived.state)) or ()
        except Exception:  # noqa: BLE001 - the archive stands; its notice still goes out
            log.exception("on_over failed while archiving game %s", game.id)
    host.table.forget(archived.id)
    settings = await host.store.settings(archived.guild_id)
    locale = await host.server_locale(archived, None)
    notice = t("chronicle.archived", locale, id=archived.id, title=systems.title(archived.system, locale),
               days=settings.archive_days or DEFAULT_ARCHIVE_DAYS)
    if not await post(host, archived, intro=notice, told=told):
        await tell(host, archived, [notice, *told])
    return True
