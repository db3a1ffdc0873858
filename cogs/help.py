"""/help: what Bauta does and how to start; `/help game` tells how one game is played here, then
lists all of its commands. Everything in the reader's language, command names as their client shows them."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from i18n import language_of, t
from i18n.translator import command_lines

from cogs.host import systems
from cogs.host import chunks, reply

# The top-level slash commands of each game, for `/help game`.
GROUPS = {"karmic": ("karmic", "karmic-advance"), "klash": ("klash",), "carnival_zombie": ("cz",),
          "carnevale": ("carnevale", "carnevale-game", "carnevale-table", "carnevale-campaign")}
ALL_GROUPS = {g for groups in GROUPS.values() for g in groups}


async def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=s.title, value=s.name) for s in systems.listed()
            if current.lower() in s.title.lower()][:25]


class HelpCog(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="help", description="What Bauta can do, or how one game is played and its commands")
    @app_commands.describe(game="A game: how it is played here, and all of its commands")
    @app_commands.autocomplete(game=game_choices)
    async def help(self, interaction: discord.Interaction, game: str | None = None):
        locale = interaction.locale
        commands_ = command_lines(self.bot.tree, language_of(locale))
        if game:
            mine = [line for top, line in commands_ if top in GROUPS.get(game, (game,))]
            title = systems.title(game, locale)
            lines = [t(f"help.play.{game}", locale)] if game in GROUPS else []
            lines += [t("help.game_header", locale, title=title)] + [f"• {line}" for line in mine]
            if not mine:
                lines.append(t("help.no_commands", locale))
        else:
            lines = [t("help.intro", locale)]
            if systems.listed():
                lines.append(t("help.games", locale, games=", ".join(systems.title(s.name, locale) for s in systems.listed())))
            lines.append(t("help.commands", locale))
            lines += [f"• {line}" for top, line in commands_ if top not in ALL_GROUPS]
            for name, groups in GROUPS.items():
                count = sum(top in groups for top, _ in commands_)
                if count:
                    lines.append(t("help.game_line", locale, group=groups[0], n=count,
                                   title=systems.title(name, locale)))
            lines.append(t("help.days", locale))
            lines.append(t("help.web", locale))
            lines.append(t("help.privacy", locale))
        for text in chunks(lines):
            await reply(interaction, text, ephemeral=True)


async def setup(bot):
    await bot.add_cog(HelpCog(bot))
