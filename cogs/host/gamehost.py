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

import logging
import secrets
import time
from types import SimpleNamespace
from typing import Any
from collections.abc import Awaitable, Callable, Iterable, Sequence

import discord
from discord.ext import commands

from db.store import GameRecord, Store, VersionConflict
from i18n import t
from i18n.present import Presenter
from rules.common import ANYONE, Actor, BautaError, Choose, Event, NotYourTurn, Outcome, Prompt, StalePrompt

from rules.common.engine import forced
from rules.common.lobby import Lobby

from . import botplayer, chronicle, clock, recap, systems
from .clock import TurnClock
from .scheduler import Scheduler
from .components import PromptButton, PromptSelect, headline, prompt_view, resolve_option
from .courier import HELD, MESSAGE_LIMIT, Courier, Slots, chunks, display_name, mention
from .errors import NotGM, report_error
from .outbox import PublishOrder
from .replies import Deadline, Held, reply, settle
from .publish import Publishing, opening
from .table import TABLE, Table, answering, with_meta

__all__ = ["BautaCog", "GameHost", "MESSAGE_LIMIT", "PromptButton", "PromptSelect", "chunks", "mention",
           "prompt_view", "reply", "settle"]

log = logging.getLogger("bauta.framework")     # the logger's name as operators filter it

TURNS_KEPT = 10_000
# `/profile language` as the Discord locale the replies are worded for
LANGUAGE_LOCALES = {"en": discord.Locale.american_english, "it": discord.Locale.italian,
                    "es": discord.Locale.spain_spanish}


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
class GameHost(Publishing):
    # A lost race means another action committed, so retries always make progress; the cap only
    # stops a storm. Six simultaneous Joins need up to six attempts for the last one.
    RETRIES = 20
    ACK_DEADLINE = 2.0      # seconds (Discord's is 3): past it a slow command shows a private "thinking…"

    def __init__(self, bot: discord.Client, store: Store):
        self.bot = bot
        self.store = store
        self.courier = Courier(bot, store)
        self.table = Table(self)
        self.clock = TurnClock(self)        # each decision's deadline (cogs/host/clock.py)
        self.scheduler = Scheduler(self)    # what the clocks make due (cogs/host/scheduler.py)
        # A lobby's successor, created in the lobby's last transaction, announced by its publish.
        self._opened: dict[int, tuple[GameRecord, Any, list[Event]]] = {}
        # Actions committed here whose publish has not begun, by (game, seq): nothing of theirs
        # is sent yet (so their first publish reads nothing). `_publishing`: publishes under way.
        self._owed: dict[tuple[int, int], Slots] = {}
        self._publishing: set[tuple[int, int]] = set()
        # (game, version) -> the prompts pending after that action, computed by its commit for its
        # publish (one pass); a publish that never comes leaves a few, cut at TURNS_KEPT.
        self._turns: dict[tuple[int, int], list[Prompt]] = {}
        self.order = PublishOrder()     # a channel's publishes in the order of its actions (cogs/outbox.py)
        self.watchers = []              # told each game shown (web/live.py's pages), see Publishing

    # ---- the seats the bot plays, plugged into the publishing layer's hooks
    def quiet(self, game: GameRecord, player: str) -> bool:
        return botplayer.quiet(game, player)

    async def after_step(self, interaction: discord.Interaction | None, game: GameRecord) -> None:
        await botplayer.drive(self, interaction, game)

    async def game_over(self, interaction: discord.Interaction | None, game: GameRecord,
                        told: Sequence[str] = ()) -> None:
        # once, whoever publishes the end (cogs/host/chronicle.py); a game without one (a lobby): told apart
        if not await chronicle.post(self, game, told=told):
            await chronicle.tell(self, game, told)

    async def welcome_back(self, interaction: discord.Interaction, game: GameRecord) -> None:
        """After an acknowledged action: "previously on…" for a player back after a while."""
        await recap.welcome_back(self, interaction, game)

    def presenter(self, game: GameRecord, locale: Any) -> Presenter:
        """The words of `game` for a reader of `locale`, with the display names kept in its meta."""
        return Presenter(locale, game.system, names=game.meta.get("names"), seats=game.seats,
                         genders=game.meta.get("genders"),     # the table's own names (a Karmic sheet's gender)
                         clocks=clock.shown(game))     # each decision's deadline

    async def server_locale(self, game: GameRecord, interaction: discord.Interaction | None) -> Any:
        """The language of the game's channel: `/gm language`, else the server's own."""
        settings = await self.store.settings(game.guild_id)
        # without an interaction (a board redrawn by a command, a bot's move), the one last seen
        return settings.locale or getattr(interaction, "guild_locale", None) or game.meta.get("guild_locale")

    def reader(self, game: GameRecord, player: str, default: Any,
               interaction: discord.Interaction | None = None) -> Presenter:
        """What `player` reads in private (DMs, /hand): in their own language when known (they
        are acting now, or acted before), else in `default` (the server's)."""
        if interaction is not None and str(interaction.user.id) == player:
            return self.presenter(game, interaction.locale)
        return self.presenter(game, (game.meta.get("locales") or {}).get(player) or default)

    def remember(self, interaction: discord.Interaction | None, game: GameRecord) -> GameRecord:
        """Keep in the game's meta the display name and language of whoever acts, and the names of
        seated players the client already knows: labels and images name players, never show ids.
        In memory: the publish writes it with the rest of the meta it changed."""
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
        guild_locale = getattr(interaction, "guild_locale", None)
        server = str(getattr(guild_locale, "value", guild_locale or "")) or None
        if (names == game.meta.get("names", {}) and locales == game.meta.get("locales", {})
                and server in (None, game.meta.get("guild_locale"))):
            return game
        return with_meta(game, {**game.meta, "names": names, "locales": locales,
                                **({"guild_locale": server} if server else {})})

    # ---- who is asking
    async def speak_their_language(self, interaction: discord.Interaction) -> None:
        """A member who chose a language (`/profile language`) reads every private reply in it,
        over their client's: the interaction's locale is theirs from here on."""
        user = getattr(getattr(interaction, "user", None), "id", None)
        if user is None:
            return
        person = (await self.clock.people([int(user)]))[int(user)]
        if person.language in LANGUAGE_LOCALES and str(getattr(interaction.locale, "value", interaction.locale)) \
                .split("-")[0] != person.language:
            interaction.locale = LANGUAGE_LOCALES[person.language]

    async def is_gm(self, interaction: discord.Interaction, guild_id: int | None = None) -> bool:
        """Whether the sender is a GM of `guild_id` (default: the interaction's server). Rights come
        from the interaction's own server only: a click from a DM or another server (`/turns`)
        carries no GM rights over a game elsewhere, however much the sender may do there."""
        if guild_id is not None and interaction.guild_id != guild_id:
            return False
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
            title = systems.title(system, interaction.locale) if system else None
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
            owed = await self.owed_note(interaction.user.id, interaction.locale)
            await reply(interaction, "\n".join(filter(None, [text or t("game.done", interaction.locale), owed]))[:MESSAGE_LIMIT],
                        ephemeral=True)

    async def owed_note(self, user_id: int, locale: Any) -> str:
        """The reminders closed DMs could not carry to `user_id`, for the private reply they get
        now ("" when none): nothing private is lost when DMs are closed."""
        lines = []
        for row in await self.clock.owed_to(user_id):
            game = await self.store.game(row.game_id)
            if game is not None and game.active:
                lines.append(self.scheduler.line(game, row, locale))
        return "\n".join([t("clock.owed_header", locale), *lines]) if lines else ""

    async def _setup(self, guild_id: int, system_name: str, seats: Sequence[str], options: dict | None,
                     seed: int | None = None,
                     skip: Iterable[str] = ()) -> tuple[systems.System, Outcome]:
        """A new game's first state and set-up events (nothing stored yet)."""
        system = systems.get(system_name)
        # Only the server's explicit choices: each engine applies its own defaults, and can tell a
        # server's choice from a default (a scenario may bring defaults of its own).
        house = await self.store.house_rules(guild_id, system_name)
        # the table's own convention is the host's to apply, not the engine's
        options = {"house_rules": {k: v for k, v in house.items() if k not in systems.HOST_RULES}, **(options or {})}
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
        # `intro`: an Event the cog words through its catalogue, or (legacy) a sentence already worded
        intro = intro if isinstance(intro, Event) or not intro else Event("start", intro)
        # the opening's messages are owed like an action's (seq 0): a crash before they are out
        # leaves them to the outbox sweep
        owed = {**_owed(set()), "start": {"intro": intro and intro.to_dict(),
                                          "events": [e.to_dict() for e in started.events]}}
        await self.order.known()        # after what a dead process left owed (cogs/outbox.py)
        game = self._owe(await self.store.create_game(interaction.guild_id, interaction.channel_id, system_name,
                                                      list(seats), system.engine.dump_state(state),
                                                      interaction.user.id, meta=meta, outbox=[owed]))
        await self.store.save_setup(game, options or {})      # what a rematch sets up again
        await self.finish(interaction, done)
        await self.publish(interaction, game, state, opening(game, intro, started.events), before=set())
        return game

    async def act(self, interaction: discord.Interaction, action: Any, game: GameRecord | None = None,
                  system: str | None = None, done: str | None = None) -> GameRecord:
        """Run a slash-command action; `done` is the private closing line (default "✓ Done."),
        sent once the action is committed, before its public output."""
        await self.begin(interaction)
        game = game or await self.channel_game(interaction, system)
        actor = await self.actor(interaction, game=game)
        new, outcome, before = await self.commit(game, action, actor)
        await self.finish(interaction, done)
        await self.publish(interaction, new, outcome.state, outcome.events, before)
        await self.welcome_back(interaction, new)
        return new

    async def choose(self, interaction: discord.Interaction, game_id: int, prompt_id: str,
                     options: list[str]) -> None:
        """A click on a persistent button or select: load, apply, commit, and only then answer the
        click, by editing the prompt's message in the same response; then publish. (A click on the
        table message is answered by the table's next state, in the publish: `Held`.)"""
        arrived = time.monotonic()
        self.table.looking(game_id, str(interaction.user.id))    # (a refused click too: they are at the table)
        try:
            await self.speak_their_language(interaction)
            game, system, state, prompts, asked = await self._asked(game_id, prompt_id)
            prompt = asked or system.engine.prompt(state, prompt_id)     # (refuses a prompt gone)
            action = Choose(prompt_id, tuple(resolve_option(prompt, o) for o in options))
            if system.click is not None:
                action = system.click(interaction, game, prompt, action)
            actor = await self.actor(interaction, game=game)
            new, outcome, before = await self.commit(game, action, actor,
                                                     loaded=(state, prompts))
            # names and languages are remembered by publish, after the acknowledgement (a refusal
            # writes nothing, and the click is answered as soon as its action is committed). A click
            # on the table is answered by the table's next state, in the publish (`Held`).
            def ack() -> Any:
                return self._acknowledge_click(interaction, new, outcome.state, prompt, action)
            held = None
            if getattr(interaction.message, "id", None) == (new.meta.get(TABLE) or {}).get("message"):
                held = interaction.extras[HELD] = Held(interaction, ack, max(0.0, self.ACK_DEADLINE - (time.monotonic() - arrived)))
            else:
                await ack()
            with answering(interaction):        # the bot's answers after it edit the table through it too
                await self.publish(interaction, new, outcome.state, outcome.events, before)
            if held is not None:
                await held.release()            # the publish did not edit it: the mark
            await self.welcome_back(interaction, new)
        except Exception as exc:  # noqa: BLE001 - every error becomes a friendly ephemeral reply
            await report_error(interaction, exc)

    async def answer(self, game_id: int, prompt_id: str, options: list[str], user_id: int) -> GameRecord:
        """A seated player's answer from outside Discord (the web companion, web/): the same
        action a click on the prompt's button would make, through the same version-checked commit
        and the same publish in the channel. Refusals raise, for the caller to word. A timed
        decision (`confirm`: the click's moment is the answer) is not taken from here."""
        game, _system, state, prompts, prompt = await self._asked(game_id, prompt_id)
        me = str(user_id)
        if prompt is None or prompt.confirm:
            raise StalePrompt("stale_prompt")
        if prompt.player != me or me not in game.seats:
            raise NotYourTurn("not_your_choice")
        action = Choose(prompt_id, tuple(resolve_option(prompt, o) for o in options))
        new, outcome, before = await self.commit(game, action, Actor(me, seated=True), loaded=(state, prompts))
        await self.publish(None, new, outcome.state, outcome.events, before)
        return new

    async def _asked(self, game_id: int, prompt_id: str) -> tuple[GameRecord, systems.System, Any, list[Prompt],
                                                                  Prompt | None]:
        """What an answer to `prompt_id` finds: the game (active, else refused), its system, its
        state decoded once, the prompts pending, and that prompt among them (None: not pending)."""
        game = await self.store.game(game_id)
        if game is None or not game.active:
            raise StalePrompt("game_ended")
        system = systems.get(game.system)
        state = system.engine.load_state(game.state)
        prompts = system.engine.pending(state)
        return game, system, state, prompts, next((p for p in prompts if p.id == prompt_id), None)

    async def commit(self, game: GameRecord, action: Any, actor: Actor,
                     log_as: str | None = None, loaded: tuple[Any, list[Prompt]] | None = None,
                     ) -> tuple[GameRecord, Outcome, set[str]]:
        """Apply and commit one action without publishing: (new record, outcome, prompt ids pending
        before). A lost race is replayed against the fresh state (so the engine checks it again),
        and only a really stale action is refused. `log_as` replaces the actor in the game's log,
        for actions whose author is secret. The action that ends a game ends it in the same
        transaction; one that hands over to another game (a lobby's Start) creates it there too.
        `loaded`: the state and its pending prompts, as the caller already decoded them from `game`.
        The prompts pending after the action are kept for its publish (`_turns`): one pass computes
        them once."""
        system = systems.get(game.system)
        engine = system.engine
        await self.order.known()        # after what a dead process left owed (cogs/outbox.py)
        for _attempt in range(self.RETRIES):
            state, prompts = loaded or (None, None)
            if state is None:
                state = engine.load_state(game.state)
                prompts = engine.pending(state)
            loaded = None               # a retry reads the fresh game
            before = {p.id for p in prompts or ()}
            try:
                outcome = await botplayer.off_loop(game.system, state, engine.apply, state, action, actor)
            except BautaError as error:     # a refusal naming the table's characters agrees with them
                error.genders = game.meta.get("genders")
                raise
            after_prompts = engine.pending(outcome.state)
            if await self.settles(game, outcome.state, after_prompts):
                outcome = engine.settle(outcome, skip=botplayer.seats(game))
                after_prompts = engine.pending(outcome.state)
            over = engine.is_over(outcome.state)
            after = system.successor(outcome.state) if over and system.successor else None
            logged = (game, log_as or actor.id, engine.dump_action(action), engine.dump_state(outcome.state),
                      [e.to_dict() for e in outcome.events])
            owed = [_owed(before)]      # the outbox: its messages are owed until a publish ends
            try:
                if after is None:
                    new = self._owe(await self.store.commit_action(*logged, end=over, outbox=owed))
                    if len(self._turns) >= TURNS_KEPT:
                        self._turns.clear()
                    self._turns[(new.id, new.version)] = after_prompts
                    return new, outcome, before
                name, seats, options = after
                nxt, started = await self._setup(game.guild_id, name, seats, options)
                # the new game's set-up events go in the outbox too: a re-publish announces it
                owed = [{**owed[0], "opened": [e.to_dict() for e in started.events]}]
                ended, opened = await self.store.commit_and_create(
                    *logged, name, list(seats), nxt.engine.dump_state(started.state),
                    int(actor.id) if actor.id.isdigit() else game.created_by, outbox=owed,
                    # the players' names and languages, gathered as they joined, go with them
                    meta={k: game.meta[k] for k in ("names", "locales", *chronicle.CARRIED) if k in game.meta})
                await self.store.save_setup(opened, options)
                self._opened[ended.id] = (opened, started.state, started.events)
                return self._owe(ended), outcome, before
            except VersionConflict:
                fresh = await self.store.game(game.id)
                if fresh is None or not fresh.active:
                    raise StalePrompt("game_ended") from None
                game = fresh
        raise VersionConflict(code="already_done")

    async def settles(self, game: GameRecord, state: Any, prompts: list[Prompt] | None = None) -> bool:
        """Whether a decision with a single legal option is pending and the server lets the table
        apply it at once (the house rule `confirm_single_choice` keeps the click)."""
        if not forced(systems.get(game.system).engine, state, botplayer.seats(game), prompts):
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
        pending = self._turns.get((game.id, game.version))
        if pending is None:
            pending = engine.pending(state)
        still = next((p for p in pending if p.id == answered.id and p.player == ANYONE), None)
        if still is not None:
            edit: dict[str, Any] = {"content": headline(still, say)[:MESSAGE_LIMIT],
                                    "view": prompt_view(game.id, still, say)}
        else:
            labels = (", ".join(say.option(o) for o in answered.options if o.id in action.options)
                      or t("prompt.chose_none", locale))      # a multi-choice answered with none
            who = display_name(interaction.user) or str(interaction.user)
            original = getattr(interaction.message, "content", "") or say.prompt(answered)
            note = t("prompt.answered", locale, who=who, choice=labels)
            edit = {"content": f"{original}\n{note}"[:MESSAGE_LIMIT], "view": None}
        try:
            await interaction.response.edit_message(**edit)
            self.courier.answered(getattr(interaction.message, "id", None), edit)   # what it shows now
        except discord.HTTPException as exc:
            # Committed but not acknowledged (e.g. past the deadline): the sender sees the result
            # published, and a retry of the same click is refused as already made.
            log.info("could not acknowledge a click: %s", exc)

    def _owe(self, game: GameRecord) -> GameRecord:
        self._owed[(game.id, game.version)] = Slots(game.guild_id, game.id, game.version)
        self.order.owe(game.channel_id, game.id, game.version)
        return game

    async def archive(self, game: GameRecord) -> bool:
        """Put away a game idle past its server's setting (never deleted), with a notice and its
        chronicle (cogs/host/chronicle.py); the scheduler calls it."""
        return await chronicle.archive(self, game)

    async def refresh(self, game: GameRecord, events: Sequence[Event] = (), still: bool = False) -> None:
        """Show `events` (a pause, a new deadline) and bring the table's prompts up to date, as a
        step that answered nothing: no decision is asked again, no clock restarts. `still`: only
        edit the table where it is (a player's absence is news, not a step to move it for)."""
        engine = systems.get(game.system).engine
        state = engine.load_state(game.state)
        await self.publish(None, game, state, list(events), before={p.id for p in engine.pending(state)}, still=still)

    async def end(self, interaction: discord.Interaction | None, game: GameRecord,
                  said: Callable[[], Awaitable[Any]] | None = None) -> GameRecord:
        """End a game by force (/game end): the system's `on_over` runs as when its rules end it,
        then `said` (the caller's own words: its reply), then its chronicle is posted, carrying
        what `on_over` told."""
        ended = await self.store.end_game(game)
        system = systems.get(game.system)
        told = None
        if system.on_over is not None:
            told = await system.on_over(self, interaction, ended, system.engine.load_state(ended.state))
        self.table.forget(ended.id)
        if said is not None:
            await said()
        if not await chronicle.post(self, ended, told=told or ()):
            await chronicle.tell(self, ended, told or ())
        return ended

    async def open_lobby(self, interaction: discord.Interaction, system_name: str, min_players: int,
                         max_players: int, options: dict | None = None) -> GameRecord:
        """Gather players with Join/Leave/Start buttons; Start opens `system_name` with them."""
        title = systems.get(system_name).title
        return await self.start(interaction, "lobby", [str(interaction.user.id)],
                                options={"system": system_name, "title": title, "min_players": min_players,
                                         "max_players": max_players, "options": options or {}},
                                intro=Event("table_opened", {"player": str(interaction.user.id), "title": title}))

def _lobby_successor(state) -> tuple[str, list[str], dict] | None:
    """A started table hands over to its game, with the players who joined, in joining order."""
    return (state.system, list(state.players), state.options) if state.started else None


systems.register(systems.System(name="lobby", title="Table", engine=Lobby(), successor=_lobby_successor,
                                listed=False))

