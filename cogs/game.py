"""/game (status, log, recap, undo, end, chronicle, list, export): the commands every hosted game shares
(/hand beside it)."""
from __future__ import annotations

import asyncio
import io
import json

import discord
from discord import app_commands

from i18n import present, t
from rules.common import GM, PUBLIC, BautaError, Event

from cogs.host import botplayer, clock, systems
from cogs.host import chronicle as chronicles
from cogs.host import recap as recaps
from cogs.host import BautaCog, chunks, mention, newest, reply
from cogs.host.clock import period_text


class GameCog(BautaCog):
    game = app_commands.Group(name="game", description="The game in this channel", guild_only=True)

    @game.command(name="status", description="Show the game in this channel: board, state and pending decisions")
    async def status(self, interaction: discord.Interaction):
        # Find the game before the public "thinking…": a refusal (no game here) stays private.
        game = await self.host.channel_game(interaction, ended=True)
        await interaction.response.defer(thinking=True)
        system = systems.get(game.system)
        view = system.engine.view_for(system.engine.load_state(game.state), PUBLIC)
        # the system's words and pictures in the channel's language (a public message): its hooks
        # read the reader from present.READER, as prompt images do (asyncio.to_thread copies it)
        locale = await self.host.server_locale(game, interaction)
        reading = present.READER.set(self.host.presenter(game, locale))
        try:
            text = system.describe(view, PUBLIC)
            png = await asyncio.to_thread(system.render, view) if system.render is not None else None
        finally:
            present.READER.reset(reading)
        header = t("game.status_header", locale, title=systems.title(system.name, locale), id=game.id,
                   players=", ".join(map(mention, game.seats)))
        # The status names the players without calling them: whoever asked for it, nobody is pinged.
        quiet = discord.AllowedMentions(users=False)
        kwargs = {}
        if png:
            kwargs["file"] = discord.File(io.BytesIO(png), filename=f"{game.system}-{game.id}.png")
        first, *rest = chunks([header, text]) or [header]
        await interaction.followup.send(first, allowed_mentions=quiet, **kwargs)
        for more in rest:
            await interaction.followup.send(more, allowed_mentions=quiet)
        if game.active or system.engine.is_over(system.engine.load_state(game.state)):
            # a game ended by force or archived has no table to bring back: its prompts are closed
            await self.host.republish(interaction, game, dm_prompts=False)

    @game.command(name="log", description="The latest actions of the game in this channel")
    @app_commands.describe(n="How many actions (1–50, default 10)")
    async def log(self, interaction: discord.Interaction, n: app_commands.Range[int, 1, 50] = 10):
        game = await self.host.channel_game(interaction, ended=True)
        actions = await self.store.actions(game.id, limit=n, include_undone=True)
        if not actions:
            await reply(interaction, t("game.log_empty", interaction.locale), ephemeral=True)
            return
        gm = await self.host.is_gm(interaction)
        viewer = str(interaction.user.id)
        say = self.host.presenter(game, interaction.locale)
        lines = []
        for record in actions:
            # Only the public events of an action are shown: the action itself may name a secret card.
            said = "; ".join(say.events(e for e in record.events if e.get("audience") == PUBLIC)) or "…"
            if gm or _may_name_actor(record, {PUBLIC, viewer}, viewer):
                line = f"`#{record.seq}` {mention(record.actor)}: {said}"
            else:
                line = f"`#{record.seq}` {t('game.log_hidden', interaction.locale)}"
            lines.append(f"~~{line}~~ {t('game.undone', interaction.locale)}" if record.undone else line)
        # The newest actions are the ones asked for: keep them, drop the oldest that do not fit.
        await reply(interaction, newest(t("game.log_header", interaction.locale, id=game.id), lines,
                                        older=lambda n: t("game.log_older", interaction.locale, n=n)), ephemeral=True)

    @game.command(name="undo", description="GM: take back the last actions, exactly as they were")
    @app_commands.describe(steps="How many actions to undo (default 1)")
    async def undo(self, interaction: discord.Interaction, steps: app_commands.Range[int, 1, 20] = 1):
        # A GM undoes any steps; a player only what the bot answered for them while they were away
        # (`/gm idle_bot`), all of it, while nothing else has happened since.
        game = await self.host.store.active_game(interaction.guild_id, interaction.channel_id) \
            if interaction.guild_id is not None else None
        mine = None if game is None else await botplayer.take_back(self.host, game, str(interaction.user.id))
        if mine is None:
            await self.host.require_gm(interaction)
        # A private acknowledgement: "no game" and "nothing to undo" reach only the GM; the undo
        # itself is announced in the channel and the GM gets "✓ Done.".
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction)
        if mine is not None and not await self.host.is_gm(interaction):
            steps = mine
        game, undone = await self.store.undo(game, steps)
        if mine is not None and undone >= mine:      # taken back: the decision's clock starts again
            game = await self.store.set_meta(game, {k: v for k, v in game.meta.items() if k != botplayer.STAND_IN})
        await self.host.republish(interaction, game, [Event("game_undone", {"player": str(interaction.user.id),
                                                                           "n": undone})])
        await self.host.finish(interaction)

    @game.command(name="end", description="End the game in this channel (GM at once, or every seated player)")
    async def end(self, interaction: discord.Interaction):
        game = await self.host.channel_game(interaction)
        user = str(interaction.user.id)
        if await self.host.is_gm(interaction):
            await self.host.end(interaction, game, said=lambda: reply(
                interaction, t("game.ended_by_gm", interaction.guild_locale, id=game.id, who=interaction.user.mention)))
            return
        if user not in game.seats:
            await reply(interaction, t("game.end_not_seated", interaction.locale), ephemeral=True)
            return
        votes = sorted(set(game.meta.get("end_votes", [])) | {user})
        game = await self.store.set_meta(game, {**game.meta, "end_votes": votes})
        missing = [s for s in game.seats if s not in votes]
        if missing:
            await reply(interaction, t("game.end_vote", interaction.guild_locale, who=interaction.user.mention,
                                       missing=", ".join(map(mention, missing))))
            return
        await self.host.end(interaction, game, said=lambda: reply(
            interaction, t("game.ended_by_players", interaction.guild_locale, id=game.id)))

    @game.command(name="recap", description="What happened in this channel's game since your last move (only you see it)")
    async def recap(self, interaction: discord.Interaction):
        game = await self.host.channel_game(interaction, ended=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await recaps.recap(self.host, interaction, game)

    @game.command(name="chronicle", description="The chronicle of the channel's last ended game, or of a game of this server")
    @app_commands.describe(game="A game's number (default: the last one that ended in this channel)")
    async def chronicle(self, interaction: discord.Interaction,
                        game: app_commands.Range[int, 1, 2_000_000_000] | None = None):
        ended = await chronicles.ended_game(self.host, interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await chronicles.show(self.host, interaction, ended.id)

    @game.command(name="list", description="The games of this server: active, paused, ended, archived")
    @app_commands.describe(status="Only the games in this state")
    @app_commands.choices(status=[app_commands.Choice(name=s.capitalize(), value=s) for s in chronicles.STATUSES])
    async def list(self, interaction: discord.Interaction, status: str | None = None):
        if interaction.guild_id is None:
            raise BautaError("guild_only")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await chronicles.listing(self.host, interaction, status)

    @game.command(name="deadline", description="GM: this game's deadline for each decision (0: none)")
    @app_commands.describe(hours="Hours to answer a decision (leave both empty to see the deadline)",
                           minutes="Minutes, added to the hours", server="Follow the server's deadline again")
    async def deadline(self, interaction: discord.Interaction, hours: app_commands.Range[int, 0, 720] | None = None,
                       minutes: app_commands.Range[int, 0, 59] | None = None, server: bool = False):
        game = await self.host.channel_game(interaction)
        if hours is None and minutes is None and not server:
            period = await self.host.clock.period(game)
            text = (t("game.deadline_is", interaction.locale, period=period_text(period.total_seconds() / 60,
                                                                                  interaction.locale))
                    if period else t("game.deadline_none", interaction.locale))
            await reply(interaction, text, ephemeral=True)
            return
        await self.host.require_gm(interaction)
        total = None if server else (hours or 0) * 60 + (minutes or 0)
        game = await self.host.clock.set_period(game, total)
        period = await self.host.clock.period(game)
        server = await self.host.server_locale(game, interaction)      # the channel reads it
        await self.host.refresh(game, [Event("clock_deadline", {
            "player": str(interaction.user.id), "id": game.id,
            "period": period_text(period.total_seconds() / 60, server) if period else t("clock.no_deadline", server)})])
        await reply(interaction, t("game.done", interaction.locale), ephemeral=True)

    @game.command(name="pause", description="Stop the game's clocks (GM at once, or every seated player)")
    async def pause(self, interaction: discord.Interaction):
        await self._clock_vote(interaction, pausing=True)

    @game.command(name="resume", description="Start the game's clocks again (GM at once, or every seated player)")
    async def resume(self, interaction: discord.Interaction):
        await self._clock_vote(interaction, pausing=False)

    async def _clock_vote(self, interaction: discord.Interaction, pausing: bool) -> None:
        """A GM pauses or resumes at once; players do it when every seated player asked."""
        game = await self.host.channel_game(interaction)
        user = str(interaction.user.id)
        paused = clock.paused_at(game) is not None
        if paused == pausing:
            await reply(interaction, t("game.already_paused" if paused else "game.not_paused", interaction.locale),
                        ephemeral=True)
            return
        gm = await self.host.is_gm(interaction)
        if not gm and user not in game.seats:
            await reply(interaction, t("game.clock_not_seated", interaction.locale), ephemeral=True)
            return
        humans = [s for s in game.seats if s.isdigit() and s not in botplayer.seats(game)]
        key = "pause_votes" if pausing else "resume_votes"
        state = clock.state_of(game)
        votes = sorted(set(state.get(key, [])) | {user})
        missing = [s for s in humans if s not in votes]
        if missing and not gm:
            await self.store.patch_meta(game, {clock.CLOCK: {key: votes}})
            await reply(interaction, t("game.clock_vote", interaction.guild_locale, who=interaction.user.mention,
                                       missing=", ".join(map(mention, missing)),
                                       what=t("game.pausing" if pausing else "game.resuming", interaction.guild_locale)),
                        allowed_mentions=discord.AllowedMentions.none())
            return
        game = await (self.host.clock.pause(game) if pausing else self.host.clock.resume(game))
        await self.host.refresh(game, [Event("clock_paused" if pausing else "clock_resumed",
                                             {"player": user, "id": game.id})])
        await reply(interaction, t("game.done", interaction.locale), ephemeral=True)

    @game.command(name="export", description="Download the game as JSON (GMs get everything, players their own view)")
    async def export(self, interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.host.channel_game(interaction, ended=True)
        system = systems.get(game.system)
        state = system.engine.load_state(game.state)
        gm = await self.host.is_gm(interaction)
        viewer = GM if gm else str(interaction.user.id)
        actions = await self.store.actions(game.id, limit=10_000, include_undone=True)
        audiences = {PUBLIC, viewer} | ({GM} if gm else set())
        # A player learns who acted only from an action they saw something of: a hidden GM move
        # (its events addressed to the GM alone) must not name the GM. Each event also comes as its
        # reader reads it ("said": their language, players by name); kind and data stay, for tools.
        say = self.host.presenter(game, interaction.locale)
        document = {
            "game": {"id": game.id, "system": game.system, "status": game.status, "seats": game.seats,
                     "version": game.version, "created_at": game.created_at, "updated_at": game.updated_at},
            "state": game.state if gm else system.engine.view_for(state, viewer),
            "names": game.meta.get("names", {}),
            "log": [{"seq": a.seq, "actor": a.actor if gm or _may_name_actor(a, audiences, viewer) else None,
                     "at": a.created_at, "undone": a.undone,
                     **({"action": a.action} if gm else {}),
                     "events": [{**e, "said": say.event(e, plain=True)} for e in a.events
                                if gm or e.get("audience") in audiences]} for a in actions],
        }
        data = json.dumps(document, indent=2, ensure_ascii=False).encode()
        await interaction.followup.send(t("game.export_ready", interaction.locale),
                                        file=discord.File(io.BytesIO(data), filename=f"bauta-game-{game.id}.json"),
                                        ephemeral=True)


    @game.command(name="web", description="Your own link to this game in a browser: live, with its replay (only you see it)")
    @app_commands.describe(revoke="Cancel your links to this game instead (a GM: everyone's)")
    async def web(self, interaction: discord.Interaction, revoke: bool = False):
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = interaction.locale
        companion = getattr(self.bot, "web", None)
        if companion is None:
            await reply(interaction, t("web.switched_off", locale), ephemeral=True)
            return
        if interaction.guild_id is None:
            raise BautaError("guild_only")
        game = await self.store.active_game(interaction.guild_id, interaction.channel_id)
        gm = await self.host.is_gm(interaction)
        me = interaction.user.id
        if revoke:
            # a GM takes back every link to the game (a leaked one); a member their own
            n = await companion.revoke(interaction.guild_id, game.id if game else None, None if gm and game else me)
            await reply(interaction, t("web.revoked", locale, n=n), ephemeral=True)
            return
        offered = await companion.offer(interaction.guild_id, game, me, gm)
        if offered is None:
            await reply(interaction, t("web.not_allowed", locale, system=game.system), ephemeral=True)
        elif game is None:        # no game here: the server's list, each game as they may see it
            await reply(interaction, t("web.list_link", locale, url=offered[0], when=f"<t:{offered[1]}:R>"),
                        ephemeral=True)
        else:
            url, expires, role = offered
            await reply(interaction, t("web.link", locale, title=systems.title(game.system, locale), id=game.id,
                                       role=t(f"web.role_{role}", locale), url=url, when=f"<t:{expires}:R>"),
                        ephemeral=True)


def _may_name_actor(record, audiences: set[str], viewer: str) -> bool:
    """Whether a player (`viewer`, reached by `audiences`) may read who did an action: it names
    nobody (logged as "secret", "timeout"…), or they did it, or they saw one of its events."""
    return (not record.actor.isdigit() or record.actor == viewer
            or any(e.get("audience") in audiences for e in record.events))


async def setup(bot):
    await bot.add_cog(GameCog(bot))
