"""/help: what Bauta does and how to start, in one ephemeral message."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t

from . import systems
from .framework import chunks, reply


class HelpCog(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="help", description="What Bauta can do and how to start a game")
    async def help(self, interaction: discord.Interaction):
        from bot import command_list  # the tree is only complete once every cog is loaded
        lines = [t("help.intro", interaction.locale)]
        if systems.listed():
            lines.append(t("help.games", interaction.locale,
                           games=", ".join(s.title for s in systems.listed())))
        lines.append(t("help.commands", interaction.locale))
        lines += [f"• {line}" for line in command_list(self.bot.tree)]
        lines.append(t("help.privacy", interaction.locale))
        await reply(interaction, chunks(lines)[0], ephemeral=True)


async def setup(bot):
    await bot.add_cog(HelpCog(bot))
