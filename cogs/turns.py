"""/turns: every decision Bauta's games wait for from the caller, in every server, oldest first:
the game, the server, what is asked, since when, the deadline, and a link to the prompt's message.

The private ones can be answered from there: an "Answer" button (a persistent `DynamicItem`,
re-reading the game on each click) brings the decision's own buttons into a private reply, and a
click on those goes through `GameHost.choose` like any other. Installable as a user app: in a
server Bauta is not a member of it answers privately, and says what it cannot do there."""
from __future__ import annotations

import hashlib
from typing import Any

import discord
from discord import app_commands

from clock import source
from db.clock import Awaiting
from db.store import GameRecord
from i18n import t
from rules.common import Prompt

from cogs.host import BautaCog, MESSAGE_LIMIT, echo, reply, systems
from cogs.host.table import POSTED, TABLE
from cogs.profile import bot_absent, locale_of, refuse, stamp

BUTTONS = 5                       # Answer buttons on the list (one row)
LINK = "https://discord.com/channels/{guild}/{channel}"
MORE_ROOM = 60                    # kept free at the foot of the list for "…and N more"
TEMPLATE = "bauta:turn:{game}:{prompt}"
SAFE_ID = 2 ** 63


def prompt_ref(game_id: int, prompt_id: str) -> str:
    """How an Answer button names its prompt: the id when it fits in a custom_id, else a digest."""
    if not prompt_id.startswith("~") and len(TEMPLATE.format(game=game_id, prompt=prompt_id)) <= 100:
        return prompt_id
    return "~" + hashlib.sha256(prompt_id.encode()).hexdigest()[:24]


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bauta:turn:(?P<game>[0-9]{1,19}):(?P<prompt>.+)"):
    """"Answer 1 (#12)": the private decision `prompt` of game `game`, asked again with its components."""

    def __init__(self, game_id: int, prompt: str, label: str = "…"):
        self.game_id, self.prompt = game_id, prompt
        super().__init__(discord.ui.Button(label=label[:80] or "…", style=discord.ButtonStyle.primary,
                                           custom_id=TEMPLATE.format(game=game_id, prompt=prompt)[:100]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(int(match["game"]), match["prompt"], item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("TurnsCog")
        await cog.answer(interaction, self.game_id, self.prompt)


def message_link(game: GameRecord, prompt: Prompt, dm_channel: int | None) -> str | None:
    """Where the bot posted this prompt: a jump link to its message, or None (a DM whose channel
    is not known here, or a prompt never posted: DMs closed)."""
    table = game.meta.get(TABLE) or {}
    if not prompt.private and prompt.id in (table.get("prompts") or []) and table.get("message"):
        return LINK.format(guild=game.guild_id, channel=table.get("channel") or game.channel_id) + f"/{table['message']}"
    entry = (game.meta.get(POSTED) or {}).get(prompt.id)
    if not entry or not entry.get("message"):
        return None
    if entry.get("where") == "dm":
        return f"https://discord.com/channels/@me/{dm_channel}/{entry['message']}" if dm_channel else None
    return LINK.format(guild=game.guild_id, channel=entry.get("to")) + f"/{entry['message']}"


def dm_channel_of(interaction: discord.Interaction) -> int | None:
    """The id of the caller's DM channel with Bauta, when known: this very channel in the bot's DM,
    else the one discord.py keeps for them."""
    context = getattr(interaction, "context", None)
    if interaction.guild_id is None and getattr(context, "dm_channel", False) and interaction.channel_id:
        return interaction.channel_id
    return getattr(getattr(interaction.user, "dm_channel", None), "id", None)


def one_line(text: str, limit: int = 150) -> str:
    return echo(text, limit)


class TurnsCog(BautaCog):
    @app_commands.command(name="turns", description="What your games wait for from you, in every server")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def turns(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        person = await self.store.profile(interaction.user.id)
        locale = locale_of(person, interaction)
        found = await self.pending(interaction.user.id)
        lines = [t("turns.outside", locale)] if bot_absent(interaction) else []
        if person.away_until is not None and not person.away_stand_in and person.away_at(source.now()):
            lines.append(t("turns.away", locale, at=stamp(person.away_until)))
        if not found:
            await reply(interaction, "\n".join(lines + [t("turns.none", locale)]), ephemeral=True)
            return
        lines.append(t("turns.header", locale, n=len(found)))
        dm = dm_channel_of(interaction)
        view = discord.ui.View(timeout=None)
        size = sum(len(line) + 1 for line in lines)
        shown = 0
        for index, (row, game, prompt) in enumerate(found, start=1):
            block = self.describe(index, row, game, prompt, locale, dm)
            if size + len(block) + 1 > MESSAGE_LIMIT - MORE_ROOM:
                break
            lines.append(block)
            size += len(block) + 1
            shown += 1
            if prompt.private and len(view.children) < BUTTONS:
                view.add_item(AnswerButton(game.id, prompt_ref(game.id, prompt.id),
                                           t("turns.answer", locale, index=index, id=game.id)))
        if shown < len(found):
            lines.append(t("turns.more", locale, n=len(found) - shown))
        extra: dict[str, Any] = {"view": view} if view.children else {}
        await reply(interaction, "\n".join(lines), ephemeral=True, **extra)

    async def pending(self, user_id: int) -> list[tuple[Awaiting, GameRecord, Prompt]]:
        """The decisions awaited from this user that their games still ask, oldest first (each
        game read and decoded once)."""
        asked: dict[int, tuple[GameRecord, dict[str, Prompt]] | None] = {}
        found = []
        for row in await self.store.awaiting_for(user_id):
            if row.game_id not in asked:
                game = await self.store.game(row.game_id)
                if game is None or not game.active or game.system not in systems.SYSTEMS:
                    asked[row.game_id] = None
                else:
                    engine = systems.get(game.system).engine
                    asked[row.game_id] = (game, {p.id: p for p in engine.pending(engine.load_state(game.state))})
            known = asked[row.game_id]
            if known is not None and row.prompt_id in known[1]:
                found.append((row, known[0], known[1][row.prompt_id]))
        return found

    def describe(self, index: int, row: Awaiting, game: GameRecord, prompt: Prompt, locale: Any,
                 dm: int | None) -> str:
        """One decision of the list: the game and its server, then what is asked, since when, the
        deadline and where to answer it."""
        guild = self.bot.get_guild(game.guild_id)
        server = echo(guild.name, 60) if getattr(guild, "name", None) else t("turns.server", locale, id=game.guild_id)
        say = self.host.presenter(game, locale)
        if row.timer.deadline is None:
            deadline = t("turns.no_deadline", locale)
        else:
            deadline = t("turns.deadline", locale, at=stamp(row.timer.deadline))
        link = message_link(game, prompt, dm)
        if link is not None:
            where = t("turns.link", locale, url=link)
        else:
            where = t("turns.hand", locale, url=LINK.format(guild=game.guild_id, channel=game.channel_id))
        head = t("turns.game", locale, index=index, title=systems.title(game.system, locale), id=game.id, server=server)
        body = t("turns.line", locale, question=one_line(say.prompt(prompt, plain=True)),
                 asked=f"<t:{int(row.asked_at.timestamp())}:R>", deadline=deadline, where=where)
        return f"{head}\n{body}"

    async def answer(self, interaction: discord.Interaction, game_id: int, ref: str) -> None:
        """An Answer button: the decision asked again, privately, with its own components."""
        await self.host.begin(interaction)
        person = await self.store.profile(interaction.user.id)
        locale = locale_of(person, interaction)
        game = await self.store.game(game_id) if game_id < SAFE_ID else None
        if game is None or not game.active or game.system not in systems.SYSTEMS:
            await refuse(interaction, t("turns.stale_ended", locale))
            return
        engine = systems.get(game.system).engine
        state = engine.load_state(game.state)
        prompt = next((p for p in engine.pending(state) if prompt_ref(game.id, p.id) == ref), None)
        if prompt is None:
            await refuse(interaction, t("turns.stale_answered", locale))
            return
        mine = prompt.player == str(interaction.user.id) or any(   # a GM's decision awaited from this GM
            r.prompt_id == prompt.id and r.user_id == interaction.user.id for r in await self.store.awaiting_of(game.id))
        if not mine:
            await refuse(interaction, t("turns.not_yours", locale))
            return
        say = self.host.presenter(game, locale)
        head = t("turns.asked", locale, title=systems.title(game.system, locale), id=game.id)
        await reply(interaction, f"{head}\n{say.prompt(prompt)}", ephemeral=True,
                    **await self.host.prompt_parts(game, state, prompt, say))


async def setup(bot):
    bot.add_dynamic_items(AnswerButton)
    await bot.add_cog(TurnsCog(bot))


async def teardown(bot):
    bot.remove_dynamic_items(AnswerButton)
