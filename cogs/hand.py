"""/hand: a member's private view of the game in this channel (their hand, their secret decisions,
their recent private news), always there, whether their DMs are open or not."""
from __future__ import annotations

import discord
from discord import app_commands

from i18n import present, t
from rules.common import GM

from cogs.host import BautaCog, chunks, systems


class HandCog(BautaCog):
    @app_commands.command(name="hand", description="Your private view of the game here: hand, secret decisions, messages")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await self.host.channel_game(interaction)
        system = systems.get(game.system)
        engine = system.engine
        state = engine.load_state(game.state)
        gm = await self.host.is_gm(interaction)
        me = str(interaction.user.id)
        viewer = me if me in game.seats or not gm else GM
        say = self.host.presenter(game, interaction.locale)
        reading = present.READER.set(say)      # a private reply: the system's words in the reader's language
        try:
            described = system.describe(engine.view_for(state, viewer), viewer)
        finally:
            present.READER.reset(reading)
        lines = [t("hand.header", interaction.locale, title=systems.title(system.name, interaction.locale), id=game.id), described]
        audiences = {me} | ({GM} if gm else set())
        recent = await self.store.events_for(game.id, audiences, limit=10)
        if recent:
            lines.append(t("hand.recent", interaction.locale))
            lines += [f"• {text}" for text in say.events(recent)]
        mine = [p for p in engine.pending(state) if p.player == me or (gm and p.player == GM)]
        if not mine:
            lines.append(t("hand.nothing_pending", interaction.locale))
        for text in chunks(lines):
            await interaction.followup.send(text, ephemeral=True)
        for prompt in mine:
            await interaction.followup.send(say.prompt(prompt)[:2000], ephemeral=True,
                                            **await self.host.prompt_parts(game, state, prompt, say))


async def setup(bot):
    await bot.add_cog(HandCog(bot))
