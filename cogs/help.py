"""/help: what Bauta does and how to start; `/help game` lists one game's commands in full."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t

from . import systems
from .framework import chunks, reply

# The top-level slash commands of each game, for `/help game`.
GROUPS = {"karmic": ("karmic", "karmic-advance"), "klash": ("klash",), "carnival_zombie": ("cz",),
          "carnevale": ("carnevale", "carnevale-game", "carnevale-table", "carnevale-campaign")}
ALL_GROUPS = {g for groups in GROUPS.values() for g in groups}


def _top(line: str) -> str:
    return line.split(" ", 1)[0].lstrip("/")


async def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=s.title, value=s.name) for s in systems.listed()
            if current.lower() in s.title.lower()][:25]


class HelpCog(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="help", description="What Bauta can do, or every command of one game")
    @app_commands.describe(game="A game: list all of its commands")
    @app_commands.autocomplete(game=game_choices)
    async def help(self, interaction: discord.Interaction, game: str | None = None):
        from bot import command_list  # the tree is only complete once every cog is loaded
        commands_ = command_list(self.bot.tree)
        if game:
            mine = [line for line in commands_ if _top(line) in GROUPS.get(game, (game,))]
            title = systems.SYSTEMS[game].title if game in systems.SYSTEMS else game
            lines = [t("help.game_header", interaction.locale, title=title)] + [f"• {line}" for line in mine]
            if not mine:
                lines.append(t("help.no_commands", interaction.locale))
        else:
            lines = [t("help.intro", interaction.locale)]
            if systems.listed():
                lines.append(t("help.games", interaction.locale,
                               games=", ".join(s.title for s in systems.listed())))
            lines.append(t("help.commands", interaction.locale))
            lines += [f"• {line}" for line in commands_ if _top(line) not in ALL_GROUPS]
            for name, groups in GROUPS.items():
                count = sum(_top(line) in groups for line in commands_)
                if count:
                    lines.append(t("help.game_line", interaction.locale, group=groups[0], n=count,
                                   title=systems.SYSTEMS[name].title if name in systems.SYSTEMS else name))
            lines.append(t("help.privacy", interaction.locale))
        for text in chunks(lines):
            await reply(interaction, text, ephemeral=True)


async def setup(bot):
    await bot.add_cog(HelpCog(bot))
