"""Hosting any engine on Discord: load → apply → commit → publish, once for every game.

- `GameHost.start/act/choose` run an action through the engine and the store (one transaction,
  version-checked; a lost race is retried against the fresh state, so only a click that is
  really stale is refused), and acknowledge it only once it is committed: a crash can lose only
  what its sender never saw accepted.
- `publish` sends public events to the game's channel, private ones by DM (or keeps them for
  `/hand` when DMs are closed), and turns each new prompt into buttons or a select addressed to
  its player.
- The pieces live beside it: `components` (persistent buttons and selects, re-read from the
  database on every click), `courier` (channels and DMs), `replies` (answering an interaction).
"""
from __future__ import annotations

import asyncio
import io
import logging
import secrets
from types import SimpleNamespace
from collections import defaultdict
from datetime import datetime, timedelta, UTC
from typing import Any
from collections.abc import Iterable, Sequence

import discord
from discord.ext import commands

from db.store import GameRecord, Store, VersionConflict
from i18n import present, t
from i18n.present import Presenter
from rules.common import ANYONE, GM, PUBLIC, Actor, BautaError, Choose, Event, Outcome, Prompt, StalePrompt

from rules.common.engine import forced
from rules.common.lobby import Lobby

from . import botplayer, systems
from .components import PromptButton, PromptSelect, headline, prompt_view, resolve_option
from .courier import CLOSED, MESSAGE_LIMIT, SENT, SKIPPED, Courier, Slots, chunks, display_name, mention
from .errors import NotGM, report_error
from .replies import Deadline, reply, settle
from .table import POSTED, TABLE, Table, posted

__all__ = ["BautaCog", "GameHost", "MESSAGE_LIMIT", "PromptButton", "PromptSelect", "chunks", "mention",
           "prompt_view", "reply", "settle"]

log = logging.getLogger("bauta.framework")


def _owed(before: set[str]) -> dict:
    """The outbox entry of an action: publish it (its events, and the prompts not pending before)."""
    return {"publish": True, "before": sorted(before)}



# ---------------------------------------------------------------------------- cogs
class BautaCog(commands.Cog):
    """Base of every Bauta cog: the bot, its game host and its store."""

    def __init__(self, bot):
        self.bot = bot

    @property
    def host(self) -> GameHost:
        return self.bot.host

    @property
    def store(self) -> Store:
        return self.bot.store


# ---------------------------------------------------------------------------- the host
class GameHost:
    # A lost race means another action committed, so retries always make progress; the cap only
    # stops a storm. Six simultaneous Joins need up to six attempts for the last one.
    RETRIES = 20
    ACK_DEADLINE = 2.0      # seconds (Discord's is 3): past it a slow command shows a private "thinking…"

    def __init__(self, bot: discord.Client, store: Store):
        self.bot = bot
        self.store = store
        self.courier = Courier(bot, store)
        self.table = Table(self)
        # A lobby's successor, created in the lobby's last transaction, announced by its publish.
        self._opened: dict[int, tuple[GameRecord, Any, list[Event]]] = {}
        # Actions committed here whose publish has not begun, by (game, seq): nothing of theirs
        # is sent yet (so their first publish reads nothing). `_publishing`: publishes under way.
        self._owed: dict[tuple[int, int], Slots] = {}
        self._publishing: set[tuple[int, int]] = set()

    def presenter(self, game: GameRecord, locale: Any) -> Presenter:
        """The words of `game` for a reader of `locale`, with the display names kept in its meta."""
        return Presenter(locale, game.system, names=game.meta.get("names"), seats=game.seats)

    async def server_locale(self, game: GameRecord, interaction: discord.Interaction | None) -> Any:
        """The language of the game's channel: `/gm language`, else the server's own."""
        settings = await self.store.settings(game.guild_id)
        return settings.locale or getattr(interaction, "guild_locale", None)

    def reader(self, game: GameRecord, player: str, default: Any,
               interaction: discord.Interaction | None = None) -> Presenter:
        """What `player` reads in private (DMs, /hand): in their own language when known (they
        are acting now, or acted before), else in `default` (the server's)."""
        if interaction is not None and str(interaction.user.id) == player:
            return self.presenter(game, interaction.locale)
        return self.presenter(game, (game.meta.get("locales") or {}).get(player) or default)

    async def remember(self, interaction: discord.Interaction | None, game: GameRecord) -> GameRecord:
        """Keep in the game's meta the display name and language of whoever acts, and the names of
        seated players the client already knows: labels and images name players, never show ids.
        One meta write, only when something changed (a player's first action, a new nickname)."""
        if interaction is None:
            return game
        names = dict(game.meta.get("names") or {})
        locales = dict(game.meta.get("locales") or {})
        me = str(interaction.user.id)
        names[me] = display_name(interaction.user) or names.get(me, "")
        if interaction.locale is not None:
            locales[me] = str(getattr(interaction.locale, "value", interaction.locale))
        guild = getattr(interaction, "guild", None)
        for seat in game.seats:
            if seat.isdigit() and not names.get(seat):
                known = (getattr(guild, "get_member", lambda _id: None)(int(seat))
                         or self.bot.get_user(int(seat)))
                if known is not None and display_name(known):
                    names[seat] = display_name(known)
        names = {k: v for k, v in names.items() if v}
        if names == game.meta.get("names", {}) and locales == game.meta.get("locales", {}):
            return game
        fresh = await self.store.game(game.id) or game
        meta = {**fresh.meta, "names": names, "locales": locales}
        await self.store.set_meta(fresh, meta)
        return GameRecord(**{**game.__dict__, "meta": meta})

    # ---- who is asking
    async def is_gm(self, interaction: discord.Interaction, guild_id: int | None = None) -> bool:
        user = interaction.user
        perms = getattr(user, "guild_permissions", None)
        if perms is not None and perms.administrator:
            return True
        guild_id = guild_id or interaction.guild_id
        if guild_id is None:
            return False
        settings = await self.store.settings(guild_id)
        roles = getattr(user, "roles", None) or []
        return settings.gm_role_id is not None and any(r.id == settings.gm_role_id for r in roles)

    async def require_gm(self, interaction: discord.Interaction, guild_id: int | None = None) -> None:
        if not await self.is_gm(interaction, guild_id):
            raise NotGM()

    async def actor(self, interaction: discord.Interaction, guild_id: int | None = None,
                    game: GameRecord | None = None) -> Actor:
        """The sender as the engine sees them; with `game`, whether they hold a seat in it (a GM
        who plays a seat decides only for that seat, see `Actor`)."""
        me = str(interaction.user.id)
        return Actor(me, gm=await self.is_gm(interaction, game.guild_id if game else guild_id),
                     seated=game is not None and me in game.seats)

    # ---- finding games
    async def channel_game(self, interaction: discord.Interaction, system: str | None = None, *,
                           ended: bool = False) -> GameRecord:
        """The game in progress in this channel; with `ended`, else the game that last ended here
        (its status, log and export stay readable once the rules have ended it)."""
        if interaction.guild_id is None:
            raise BautaError("guild_only")
        game = await self.store.active_game(interaction.guild_id, interaction.channel_id)
        if game is None and ended:
            here = [g for g in await self.store.games(interaction.guild_id) if g.channel_id == interaction.channel_id]
            game = here[-1] if here else None
        if game is None or (system and game.system != system):
            title = systems.get(system).title if system else None
            raise BautaError("no_game", system=title) if title else BautaError("no_game_here")
        return game

    # ---- the cycle
    async def begin(self, interaction: discord.Interaction) -> None:
        """Promise the sender of a slash command a private answer (unless the cog answered already).
        Nothing is sent now: the answer (`finish`, or the refusal) comes once the action is
        committed, and only work running past ACK_DEADLINE shows a private "thinking…" meanwhile.
        Public output goes to the channel as ordinary messages; refusals stay with the sender."""
        if interaction.response.is_done() or interaction.extras.get("bauta_private_ack"):
            return
        interaction.extras["bauta_private_ack"] = True     # public output goes to the channel
        interaction.extras["bauta_owed"] = True            # the private closing line is still owed
        interaction.extras["bauta_deadline"] = Deadline(interaction, self.ACK_DEADLINE)

    async def finish(self, interaction: discord.Interaction, text: str | None = None) -> None:
        """The private acknowledgement promised by `begin` ("✓ Done." unless `text`)."""
        if interaction.extras.pop("bauta_owed", False):
            await reply(interaction, text or t("game.done", interaction.locale), ephemeral=True)

    async def _setup(self, guild_id: int, system_name: str, seats: Sequence[str], options: dict | None,
                     seed: int | None = None,
                     skip: Iterable[str] = ()) -> tuple[systems.System, Outcome]:
        """A new game's first state and set-up events (nothing stored yet)."""
        system = systems.get(system_name)
        # Only the server's explicit choices: each engine applies its own defaults, and can tell a
        # server's choice from a default (a scenario may bring defaults of its own).
        house = await self.store.house_rules(guild_id, system_name)
        # the table's own convention is the host's to apply, not the engine's
        options = {"house_rules": {k: v for k, v in house.items() if k != systems.CONFIRM_SINGLE}, **(options or {})}
        seed = secrets.randbits(63) if seed is None else seed
        started = await botplayer.off_loop(system_name, options, system.engine.start, list(seats), options, seed)
        if not house.get(systems.CONFIRM_SINGLE) and forced(system.engine, started.state, skip):
            started = system.engine.settle(started, skip=skip)
        return system, started

    async def start(self, interaction: discord.Interaction, system_name: str, seats: Sequence[str],
                    options: dict | None = None, seed: int | None = None, intro: str | Event | None = None,
                    meta: dict | None = None, done: str | None = None) -> GameRecord:
        await self.begin(interaction)
        # the bot's own seats (in `meta`) are played by the bot, not settled for it
        system, started = await self._setup(interaction.guild_id, system_name, seats, options, seed,
                                            skip=botplayer.seats(SimpleNamespace(meta=meta or {})))
        state = started.state
        game = await self.store.create_game(interaction.guild_id, interaction.channel_id, system_name,
                                            list(seats), system.engine.dump_state(state), interaction.user.id,
                                            meta=meta)
        await self.finish(interaction, done)
        # `intro`: an Event the cog words through its catalogue, or (legacy) a sentence already worded
        opening = (intro if isinstance(intro, Event) else Event("start", intro) if intro else
                   Event("game_started", {"title": system.title, "id": game.id, "players": list(seats)}))
        events = [opening, *started.events]
        await self.publish(interaction, game, state, events, before=set())
        return game

    async def act(self, interaction: discord.Interaction, action: Any, game: GameRecord | None = None,
                  system: str | None = None, done: str | None = None) -> GameRecord:
        """Run a slash-command action; `done` is the private closing line (default "✓ Done."),
        sent once the action is committed, before its public output."""
        await self.begin(interaction)
        game = game or await self.channel_game(interaction, system)
        actor = await self.actor(interaction, game=game)
        new, outcome, before = await self.commit(game, action, actor, interaction.locale)
        await self.finish(interaction, done)
        await self.publish(interaction, new, outcome.state, outcome.events, before)
        return new

    async def choose(self, interaction: discord.Interaction, game_id: int, prompt_id: str,
                     options: list[str]) -> None:
        """A click on a persistent button or select: load, apply, commit, and only then answer the
        click, by editing the prompt's message in the same response; then publish."""
        try:
            game = await self.store.game(game_id)
            if game is None or not game.active:
                raise StalePrompt("game_ended")
            engine = systems.get(game.system).engine
            prompt = engine.prompt(engine.load_state(game.state), prompt_id)
            action = Choose(prompt_id, tuple(resolve_option(prompt, o) for o in options))
            actor = await self.actor(interaction, game=game)
            new, outcome, before = await self.commit(game, action, actor, interaction.locale)
            # names and languages are remembered by publish, after the acknowledgement (a refusal
            # writes nothing, and the click is answered as soon as its action is committed)
            await self._acknowledge_click(interaction, new, outcome.state, prompt, action)
            await self.publish(interaction, new, outcome.state, outcome.events, before)
        except Exception as exc:  # noqa: BLE001 - every error becomes a friendly ephemeral reply
            await report_error(interaction, exc)

    async def commit(self, game: GameRecord, action: Any, actor: Actor, locale: Any = None,
                     log_as: str | None = None) -> tuple[GameRecord, Outcome, set[str]]:
        """Apply and commit one action without publishing: (new record, outcome, prompt ids pending
        before). A lost race is replayed against the fresh state (so the engine checks it again),
        and only a really stale action is refused. `log_as` replaces the actor in the game's log,
        for actions whose author is secret. The action that ends a game ends it in the same
        transaction; one that hands over to another game (a lobby's Start) creates it there too."""
        system = systems.get(game.system)
        engine = system.engine
        for _attempt in range(self.RETRIES):
            state = engine.load_state(game.state)
            before = {p.id for p in engine.pending(state)}
            outcome = await botplayer.off_loop(game.system, state, engine.apply, state, action, actor)
            if await self.settles(game, outcome.state):
                outcome = engine.settle(outcome, skip=botplayer.seats(game))
            over = engine.is_over(outcome.state)
            after = system.successor(outcome.state) if over and system.successor else None
            logged = (game, log_as or actor.id, engine.dump_action(action), engine.dump_state(outcome.state),
                      [e.to_dict() for e in outcome.events])
            owed = [_owed(before)]      # the outbox: its messages are owed until a publish ends
            try:
                if after is None:
                    return self._owe(await self.store.commit_action(*logged, end=over, outbox=owed)), outcome, before
                name, seats, options = after
                nxt, started = await self._setup(game.guild_id, name, seats, options)
                # the new game's set-up events go in the outbox too: a re-publish announces it
                owed = [{**owed[0], "opened": [e.to_dict() for e in started.events]}]
                ended, opened = await self.store.commit_and_create(
                    *logged, name, list(seats), nxt.engine.dump_state(started.state),
                    int(actor.id) if actor.id.isdigit() else game.created_by, outbox=owed,
                    # the players' names and languages, gathered as they joined, go with them
                    meta={k: game.meta[k] for k in ("names", "locales") if k in game.meta})
                self._opened[ended.id] = (opened, started.state, started.events)
                return self._owe(ended), outcome, before
            except VersionConflict:
                fresh = await self.store.game(game.id)
                if fresh is None or not fresh.active:
                    raise StalePrompt("game_ended") from None
                game = fresh
        raise VersionConflict(t("errors.already_done", locale))

    async def settles(self, game: GameRecord, state: Any) -> bool:
        """Whether a decision with a single legal option is pending and the server lets the table
        apply it at once (the house rule `confirm_single_choice` keeps the click)."""
        if not forced(systems.get(game.system).engine, state, botplayer.seats(game)):
            return False
        return not (await self.store.house_rules(game.guild_id, game.system)).get(systems.CONFIRM_SINGLE)

    async def _acknowledge_click(self, interaction: discord.Interaction, game: GameRecord, state: Any,
                                 answered: Prompt, action: Choose) -> None:
        """Answer a committed click: its prompt loses its buttons and shows the choice; a prompt
        open to anyone that stays open (a lobby's Join) is brought up to date instead, buttons kept.
        (A player's prompt still pending after their click is an engine's inner step, not shown.)
        Worded for whoever reads that message: the server's language in the channel, the
        clicker's own in a DM."""
        engine = systems.get(game.system).engine
        locale = interaction.locale if answered.private else await self.server_locale(game, interaction)
        say = self.presenter(game, locale)
        still = next((p for p in engine.pending(state) if p.id == answered.id and p.player == ANYONE), None)
        if still is not None:
            edit: dict[str, Any] = {"content": headline(still, say)[:MESSAGE_LIMIT],
                                    "view": prompt_view(game.id, still, say)}
        else:
            labels = ", ".join(say.option(o) for o in answered.options if o.id in action.options) or "—"  # none chosen
            who = display_name(interaction.user) or str(interaction.user)
            original = getattr(interaction.message, "content", "") or say.prompt(answered)
            note = t("prompt.answered", locale, who=who, choice=labels)
            edit = {"content": f"{original}\n{note}"[:MESSAGE_LIMIT], "view": None}
        try:
            await interaction.response.edit_message(**edit)
        except discord.HTTPException as exc:
            # Committed but not acknowledged (e.g. past the deadline): the sender sees the result
            # published, and a retry of the same click is refused as already made.
            log.info("could not acknowledge a click: %s", exc)

    def _owe(self, game: GameRecord) -> GameRecord:
        self._owed[(game.id, game.version)] = Slots(game.guild_id, game.id, game.version)
        return game

    # ---- publishing
    async def publish(self, interaction: discord.Interaction | None, game: GameRecord, state: Any,
                      events: Sequence[Event], before: set[str], dm_prompts: bool = True,
                      move: bool = False, late: bool = False) -> None:
        """Tell everyone what an action did, once: private events and decisions by DM (one message
        per player, their superseded DM prompt edited in place), the GM's in the GM channel, the
        public events as the step's narrative and the public prompts on the table message
        (`cogs/table.py`); then every prompt message whose prompt is no longer pending loses its
        components. `before`: prompt ids pending before the action (not sent again by DM).
        `dm_prompts` False (/game status) keeps private decisions to DMs already sent and /hand;
        `move` posts the table anew at the foot of the channel.

        The publish of an action sends each of its messages once: right after its commit, and again
        from the outbox after a crash cut it short (`deliver_outbox`; see cogs/courier.py). Anything
        else (a status) sends anew; a publish nested in an action's (its lobby's new game) counts
        among its messages. `late`: the action was overtaken before its publish was done; only its
        events go out (its prompts, a game's end and the table are the later action's to show)."""
        key = (game.id, game.version)
        slots = self._owed.pop(key, None)
        if slots is None:
            return await self._publish(interaction, game, state, events, before, dm_prompts, move, late)
        self._publishing.add(key)
        try:
            async with self.courier.publishing(slots):
                await self._publish(interaction, game, state, events, before, dm_prompts, move, late)
        finally:
            self._publishing.discard(key)

    async def _publish(self, interaction: discord.Interaction | None, game: GameRecord, state: Any,
                       events: Sequence[Event], before: set[str], dm_prompts: bool, move: bool,
                       late: bool) -> None:
        system = systems.get(game.system)
        engine = system.engine
        settings = await self.store.settings(game.guild_id)
        locale = await self.server_locale(game, interaction)
        seq = game.version                  # the action published (the game read below may be newer)
        game = await self.remember(interaction, game)
        game = await self.store.game(game.id) or game      # the prompt messages recorded so far
        say = self.presenter(game, locale)
        me = str(interaction.user.id) if interaction is not None else None
        # the message just clicked: its acknowledgement already answered it
        answered = getattr(getattr(interaction, "message", None), "id", None)

        def reader(player: str) -> Presenter:
            return self.reader(game, player, locale, interaction)

        public_lines = say.events(e for e in events if e.audience == PUBLIC)
        prompts = [] if late else engine.pending(state)
        pending = {p.id for p in prompts}
        over = not late and engine.is_over(state)
        header = t("dm.header", locale, title=system.title, id=game.id, channel=f"<#{game.channel_id}>")

        private: dict[str, list[Event]] = defaultdict(list)
        for event in events:
            if event.audience not in (PUBLIC, GM):
                private[event.audience].append(event)
        asked: dict[str, list[Prompt]] = defaultdict(list)
        public_prompts: list[Prompt] = []
        gm_waiting = False
        for prompt in prompts:
            if botplayer.quiet(game, prompt.player):
                continue
            if not prompt.private:
                public_prompts.append(prompt)
            elif prompt.id in before:
                continue
            elif prompt.player == GM:
                if settings.gm_channel_id:
                    message = await self.courier.send_channel(
                        settings.gm_channel_id, f"{header}\n{say.prompt(prompt)}"[:MESSAGE_LIMIT],
                        **await self.prompt_parts(game, state, prompt, say))
                    game = await self._record(game, prompt.id, "gm", settings.gm_channel_id, message)
                else:
                    gm_waiting = True
            elif dm_prompts:
                asked[prompt.player].append(prompt)

        # `closed`: Discord refused a DM just now (explain once, publicly: the player may not be the
        # one clicking). `waiting`: DMs remembered closed and a private decision is owed (a short
        # nudge to /hand). A private *event* to a remembered-closed player says nothing in public:
        # naming who receives secrets could point at a hidden role.
        closed: set[str] = set()
        waiting: set[str] = set()
        undelivered: list[Prompt] = []      # the sender's own decisions their DMs could not carry
        for player in sorted(set(private) | set(asked)):
            if not player.isdigit() or botplayer.quiet(game, player):
                continue
            own = reader(player)
            lines = [header, *own.events(private.get(player, []))]
            outcome, game = await self._dm(game, state, player, own, lines, asked.get(player, []), pending, answered)
            if outcome == CLOSED:
                closed.add(player)
            elif outcome == SKIPPED and asked.get(player):
                waiting.add(player)
            if outcome != SENT and player == me:
                undelivered += asked.get(player, [])
        gm_lines = say.events(e for e in events if e.audience == GM)
        if gm_lines and settings.gm_channel_id:
            for text in chunks([header, *gm_lines]):
                await self.courier.send_channel(settings.gm_channel_id, text)

        nudged = set(game.meta.get("dm_nudged", []))
        newly = (closed | waiting) - nudged - ({me} if undelivered else set())
        if newly:
            # Once per player per game: a notice on every private prompt would tell the table when
            # someone holds something playable.
            for player in sorted(closed & newly):
                public_lines.append(t("dm.closed_public", locale, player=mention(player)))
            for player in sorted(newly - closed):
                public_lines.append(t("prompt.private_waiting", locale, player=mention(player)))
            game = await self.store.set_meta(game, {**game.meta, "dm_nudged": sorted(nudged | newly)})
        if gm_waiting:
            public_lines.append(t("dm.gm_waiting", locale))
        opened = self._opened.pop(game.id, None) if over else None
        if over:
            if game.active:         # commit ends a game with its last action; this is for other callers
                await self.store.end_game(game)
            if opened is None:      # a lobby that started its game says so instead
                public_lines.append(t("game.over", locale, id=game.id))

        if undelivered and interaction is not None:
            # Closed DMs: the sender's next private decision comes with this private reply.
            own = reader(me or "")
            await reply(interaction, t("dm.closed_you", interaction.locale), ephemeral=True)
            for prompt in undelivered:
                await reply(interaction, own.prompt(prompt)[:MESSAGE_LIMIT], ephemeral=True,
                            **await self.prompt_parts(game, state, prompt, own))
        elif interaction is not None and me in closed | waiting:
            await reply(interaction, t("dm.closed_you", interaction.locale), ephemeral=True)

        if late:        # the narrative only, as its own message: the table shows the later step
            for text in chunks(public_lines):
                await self.courier.send_channel(game.channel_id, text)
        outer = self.table.begin(game.id)
        try:
            if system.after_publish is not None and not late:
                await system.after_publish(self, interaction, game, state, events)
        finally:
            board = self.table.end(game.id, outer)
        if not late and self.table.shown.get(game.id, -1) <= game.version:   # else a nested publish showed a newer step
            self.table.shown[game.id] = game.version
            game = await self.table.show(interaction, game, say, public_lines, public_prompts, board=board,
                                         over=over, ping=newly, move=move, state=state)
            game = await self.table.close_stale(game, pending, answered)
        if over and system.on_over is not None:
            await system.on_over(self, interaction, game, state)
        if opened is not None:
            record, first, started_events = opened
            title = systems.get(record.system).title
            intro = Event("game_started", {"title": title, "id": record.id, "players": list(record.seats)})
            await self.publish(interaction, record, first, [intro, *started_events], before=set())
        await self.store.mark_published(game.id, seq)
        if not late:
            await botplayer.drive(self, interaction, game)

    async def _dm(self, game: GameRecord, state: Any, player: str, say: Presenter, lines: list[str],
                  prompts: list[Prompt], pending: set[str], answered: int | None) -> tuple[str, GameRecord]:
        """One player's private news and decisions: the events, then each prompt with its
        components, in as few DMs as fit; a superseded DM prompt of theirs (not the one just clicked)
        is edited into the first new one instead of a new DM. Returns the delivery's outcome."""
        news = lines if len(lines) > 1 else []
        if not prompts:
            outcome = SENT
            for text in chunks(news):
                outcome = await self.courier.deliver(game.guild_id, int(player), text)
                if outcome != SENT:
                    break
            return outcome, game
        outcome = SENT
        for index, prompt in enumerate(prompts):
            question = say.prompt(prompt)
            parts = [*(lines if index == 0 else lines[:1]), question]
            texts = chunks(parts)
            for text in texts[:-1]:                  # news too long to share the prompt's message
                outcome = await self.courier.deliver(game.guild_id, int(player), text)
                if outcome != SENT:
                    return outcome, game
            content = texts[-1] if texts else question
            extra = await self.prompt_parts(game, state, prompt, say)
            back = self.table.paused_dm(game, player, prompt.id)
            if back and await self.courier.edit_dm(int(player), int(back["message"]), content=content, **extra):
                game = await self._record(game, prompt.id, "dm", int(player), SimpleNamespace(id=back["message"]))
                continue
            old = self.table.reusable_dm(game, player, pending, answered)
            entry = (game.meta.get(POSTED) or {}).get(old or "", {})
            if old and await self.courier.edit_dm(int(player), int(entry["message"]), content=content, **extra):
                game = await self._record(game, prompt.id, "dm", int(player), SimpleNamespace(id=entry["message"]),
                                          replaces=old)
                continue
            outcome, message = await self.courier.deliver_message(game.guild_id, int(player), content, **extra)
            if outcome != SENT:
                return outcome, game
            game = await self._record(game, prompt.id, "dm", int(player), message)
        return outcome, game

    async def _record(self, game: GameRecord, prompt_id: str, where: str, to: int, message: Any,
                      replaces: str | None = None) -> GameRecord:
        meta = posted(game.meta, prompt_id, where, to, message, replaces)
        return game if meta == game.meta else await self.store.set_meta(game, meta)

    async def deliver_outbox(self, shard_ids: Iterable[int] | None = None, shard_count: int = 1,
                             older_than: timedelta | None = None, abandoned: bool = False) -> int:
        """Publish the actions whose publish never finished (the process died between the commit and
        its messages): at start-up, and on a timer for those older than `older_than` (leaving the
        newest to the publish under way). An action overtaken by a later one sends its events
        only (`late`): the later publish posted the prompts that are current. The messages a
        cut-short publish sent are not sent again. `abandoned`: earlier claims are a dead
        process's (see `claim_outbox`). Returns how many actions were published."""
        cutoff = None if older_than is None else (datetime.now(UTC) - older_than).isoformat(timespec="seconds")
        published = 0
        for message in await self.store.claim_outbox(shard_ids, shard_count, older_than=cutoff, abandoned=abandoned):
            key = (message.game_id, message.seq)
            if key in self._publishing:     # its publish is under way here; it marks the action itself
                await self.store.release_outbox([message.id])
                continue
            self._owed.pop(key, None)
            game = await self.store.game(message.game_id)
            record = await self.store.action(message.game_id, message.seq)
            if game is not None and record is not None and not record.undone:
                late = game.version != message.seq or not await self._reopen(game, message.payload)
                engine = systems.get(game.system).engine
                events = [Event.from_dict(e) for e in record.events]
                self._owed[key] = Slots(game.guild_id, game.id, message.seq,
                                        sent=await self.store.sent_slots(game.id, message.seq))
                # the game as that action left it, but for its state: a late publish reads none
                await self.publish(None, GameRecord(**{**game.__dict__, "version": message.seq}),
                                   engine.load_state(game.state), events,
                                   before=set(message.payload.get("before", [])), late=late)
                published += 1
            await self.store.mark_sent([message.id])
        return published

    async def _reopen(self, game: GameRecord, owed: dict) -> bool:
        """Before a lobby's Start is published again: the game it opened, to announce with it
        (`_opened` was lost with the process). False when that game has moved on already (its
        own publishes posted what is current): the Start is late."""
        if "opened" not in owed or game.id in self._opened:
            return True
        opened = await self.store.successor(game)
        if opened is None or opened.version > 0:
            return False
        engine = systems.get(opened.system).engine
        self._opened[game.id] = (opened, engine.load_state(opened.state), [Event.from_dict(e) for e in owed["opened"]])
        return True

    async def remind_idle(self, at: datetime | None = None) -> int:
        """Ping the players an idle game waits on, once per set of pending decisions, in guilds
        that asked for reminders (`/gm reminder`); where the server asked for it (`/gm idle_bot`),
        the bot answers for them once a reminder has gone unanswered for another reminder period.
        `at` is the time to judge idleness by (default: now). Returns how many reminders went out."""
        at = at or datetime.now(UTC)
        sent = 0
        for game in await self.store.idle_games(at=at):
            engine = systems.get(game.system).engine
            prompts = engine.pending(engine.load_state(game.state))
            key = ",".join(sorted(p.id for p in prompts))
            if not prompts:
                continue
            settings = await self.store.settings(game.guild_id)
            if game.meta.get("reminded") == key:
                await botplayer.stand_in(self, game, settings, at)
                continue
            players = sorted({p.player for p in prompts if p.player not in (ANYONE,)})
            who = ", ".join(mention(p) for p in players) or t("game.anyone", settings.locale)
            await self.courier.send_channel(game.channel_id, t("game.reminder", settings.locale, who=who, id=game.id,
                                                               title=systems.get(game.system).title)
                                            + botplayer.stand_in_notice(game, settings))
            await self.store.set_meta(game, {**game.meta, "reminded": key,
                                             "reminded_at": at.isoformat(timespec="seconds")})
            sent += 1
        return sent

    async def end(self, interaction: discord.Interaction | None, game: GameRecord) -> GameRecord:
        """End a game by force (/game end): the system's `on_over` runs as when its rules end it."""
        ended = await self.store.end_game(game)
        system = systems.get(game.system)
        if system.on_over is not None:
            await system.on_over(self, interaction, ended, system.engine.load_state(ended.state))
        return ended

    async def open_lobby(self, interaction: discord.Interaction, system_name: str, min_players: int,
                         max_players: int, options: dict | None = None) -> GameRecord:
        """Gather players with Join/Leave/Start buttons; Start opens `system_name` with them."""
        title = systems.get(system_name).title
        return await self.start(interaction, "lobby", [str(interaction.user.id)],
                                options={"system": system_name, "title": title, "min_players": min_players,
                                         "max_players": max_players, "options": options or {}},
                                intro=Event("table_opened", {"player": str(interaction.user.id), "title": title}))

    async def prompt_parts(self, game: GameRecord, state: Any, prompt: Prompt,
                           say: Presenter | None = None) -> dict[str, Any]:
        """The components of a prompt's message, labelled by `say` (its reader's presenter), and its
        image when the system draws one (from the recipient's own view, so the picture never shows
        more than they may see)."""
        parts: dict[str, Any] = {"view": prompt_view(game.id, prompt, say or self.presenter(game, None))}
        system = systems.get(game.system)
        if system.prompt_image is None:
            return parts
        viewer = (GM if prompt.player == GM else prompt.player) if prompt.private else PUBLIC
        reading = present.READER.set(say or self.presenter(game, None))   # the picture's words in its reader's language (to_thread copies it)
        try:
            drawn = await asyncio.to_thread(system.prompt_image, system.engine.view_for(state, viewer), prompt)
        except Exception:  # noqa: BLE001 - a picture must never stop a decision from being asked
            log.exception("prompt image failed for game %s", game.id)
            return parts
        finally:
            present.READER.reset(reading)
        if drawn:
            name, png = drawn
            parts["file"] = discord.File(io.BytesIO(png), filename=name)
        return parts

    async def _post(self, interaction: discord.Interaction | None, game: GameRecord, content: str, **kwargs):
        """A public message in the game's channel: as a followup of a publicly answered interaction
        there (no extra permission needed), else as an ordinary channel message."""
        # An action's publish posts in the channel: a followup (a webhook) takes no nonce, so it
        # could be doubled by a crash (see cogs/courier.py).
        if (interaction is not None and interaction.channel_id == game.channel_id and not self.courier.keyed()
                and interaction.response.is_done() and not interaction.extras.get("bauta_private_ack")):
            return await interaction.followup.send(content, **kwargs)
        return await self.courier.send_channel(game.channel_id, content, **kwargs)

    async def live_message(self, game: GameRecord, key: str, content: str, *, file: discord.File | None = None,
                           new: bool = False, **record: Any) -> GameRecord:
        """Show a system's board on the game's table message (`cogs/table.py`): its caption and, when
        given, a new image; `new` starts a new table message and keeps the old one as a record (a
        round's final board). During a publish the board is collected and shown with the step's
        prompts, in one edit. `record`: fields the system wants back in `game.meta[key]`."""
        fresh = await self.store.game(game.id) or game
        table = fresh.meta.get(TABLE) or {}
        entry = {**(fresh.meta.get(key) or {}), **record, "message": table.get("message"), "channel": game.channel_id}
        if entry != fresh.meta.get(key):
            fresh = await self.store.set_meta(fresh, {**fresh.meta, key: entry})
        if self.table.staging(game.id):
            self.table.stage(game.id, key, content, file, new)
            return fresh
        engine = systems.get(game.system).engine
        state = engine.load_state(fresh.state)
        say = self.presenter(fresh, await self.server_locale(fresh, None))
        prompts = [p for p in engine.pending(state) if not p.private and not botplayer.quiet(fresh, p.player)]
        self.table.stage(game.id, key, content, file, new)
        board = self.table.end(game.id, (False, None))
        return await self.table.show(None, fresh, say, [], prompts, board=board, over=engine.is_over(state),
                                     state=state)

    async def republish(self, interaction: discord.Interaction, game: GameRecord, events: Sequence[Event] = (),
                        dm_prompts: bool = True) -> None:
        """Bring every current prompt back: after an undo (DMs too), or on /game status (the table
        posted anew at the foot of the channel; a private decision is pointed at /hand rather
        than DMed again)."""
        engine = systems.get(game.system).engine
        await self.publish(interaction, game, engine.load_state(game.state), list(events), before=set(),
                           dm_prompts=dm_prompts, move=not dm_prompts)


def _lobby_successor(state) -> tuple[str, list[str], dict] | None:
    """A started table hands over to its game, with the players who joined, in joining order."""
    return (state.system, list(state.players), state.options) if state.started else None


systems.register(systems.System(name="lobby", title="Table", engine=Lobby(), successor=_lobby_successor,
                                listed=False))

