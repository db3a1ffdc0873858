"""/pack: a guild imports YAML content (its own profiles, cards, maps) for a game, validated on import."""
from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t
from rules.common import PackError

from cogs.host import systems, untrusted
from cogs.host import chunks, echo, reply
from .gm import system_choices

MAX_PACK_BYTES = 1_000_000


class PackCog(commands.Cog):
    pack = app_commands.Group(name="pack", description="Content packs for this server's games", guild_only=True)

    def __init__(self, bot):
        self.bot = bot

    async def cog_load(self) -> None:
        untrusted.warm()

    @pack.command(name="import", description="GM: import a YAML content pack for a game")
    @app_commands.describe(game="Which game the pack is for", file="The .yaml file",
                           name="Name for the pack (default: the file name)")
    @app_commands.autocomplete(game=system_choices)
    @untrusted.uploads_cooldown()
    async def import_(self, interaction: discord.Interaction, game: str, file: discord.Attachment,
                      name: str | None = None):
        await self.bot.host.require_gm(interaction)
        system = systems.SYSTEMS.get(game)
        if system is None:
            raise PackError(t("errors.unknown_system", interaction.locale, system=echo(game)))
        if system.load_pack is None:
            raise PackError(t("pack.not_supported", interaction.locale, title=systems.title(system.name, interaction.locale)))
        untrusted.check_size(file, MAX_PACK_BYTES, interaction.locale)  # before downloading or deferring
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await untrusted.read_text(file, MAX_PACK_BYTES, interaction.locale)
        # Parsed and validated in a child process with a time limit; PackError names file, entry and field.
        content = await untrusted.parse(system.load_pack, text, file.filename, source=file.filename,
                                        locale=interaction.locale)
        pack_name = (name or re.sub(r"\.(ya?ml|json)$", "", file.filename, flags=re.I))[:64]
        await self.bot.store.save_pack(interaction.guild_id, game, pack_name, text, interaction.user.id)
        summary = ", ".join(f"{k}: {len(v)}" for k, v in content.items() if isinstance(v, (list, dict))) \
            if isinstance(content, dict) else ""
        await interaction.followup.send(t("pack.imported", interaction.locale, name=pack_name, title=systems.title(system.name, interaction.locale),
                                          summary=summary or "—"), ephemeral=True)

    @pack.command(name="list", description="The content packs imported on this server")
    async def list_(self, interaction: discord.Interaction):
        packs = await self.bot.store.packs(interaction.guild_id)
        if not packs:
            await reply(interaction, t("pack.none", interaction.locale), ephemeral=True)
            return
        lines = [t("pack.list_header", interaction.locale)]
        for p in packs:
            title = systems.title(p["system"], interaction.locale)
            lines.append(f"• **{p['name']}** — {title} ({p['size']} bytes, <@{p['imported_by']}>, {p['created_at'][:10]})")
        await reply(interaction, chunks(lines)[0], ephemeral=True)


async def setup(bot):
    await bot.add_cog(PackCog(bot))
