"""/gm: who the GMs are, where GM-only messages go, and the guild's house rules."""
from __future__ import annotations

import json

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t

from . import systems
from .framework import reply


async def system_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=s.title, value=s.name) for s in systems.listed()
            if current.lower() in s.title.lower() or current.lower() in s.name][:25]


def parse_value(text: str):
    """House-rule values are typed as JSON when they parse (true, 3, "x"), else kept as text."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # '[[[[…' thousands deep stops the decoder: keep it as text
        return text


class GMCog(commands.Cog):
    gm = app_commands.Group(name="gm", description="Game master settings for this server", guild_only=True)

    def __init__(self, bot):
        self.bot = bot

    @gm.command(name="role", description="Set the GM role (server admins only)")
    @app_commands.default_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction, role: discord.Role):
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and (perms.administrator or perms.manage_guild)):
            raise app_commands.MissingPermissions(["manage_guild"])
        await self.bot.store.update_settings(interaction.guild_id, gm_role_id=role.id)
        await reply(interaction, t("gm.role_set", interaction.locale, role=role.mention), ephemeral=True)

    @gm.command(name="channel", description="Set the GM-only channel for secret rolls and GM decisions")
    async def channel(self, interaction: discord.Interaction, channel: discord.TextChannel):
        await self.bot.host.require_gm(interaction)
        await self.bot.store.update_settings(interaction.guild_id, gm_channel_id=channel.id)
        await reply(interaction, t("gm.channel_set", interaction.locale, channel=channel.mention), ephemeral=True)

    @gm.command(name="rules", description="Show or change a house rule for a game (applies to new games)")
    @app_commands.describe(game="Which game", setting="The house rule (leave empty to list them)",
                           value="The new value (leave empty to show the current one)")
    @app_commands.autocomplete(game=system_choices)
    async def rules(self, interaction: discord.Interaction, game: str, setting: str | None = None,
                    value: str | None = None):
        system = systems.SYSTEMS.get(game)
        if system is None:
            await reply(interaction, t("errors.unknown_system", interaction.locale, system=game), ephemeral=True)
            return
        current = {**system.house_rules, **await self.bot.store.house_rules(interaction.guild_id, game)}
        if setting is None or value is None:
            keys = [setting] if setting else sorted(current)
            if setting and setting not in current:
                await reply(interaction, t("gm.unknown_rule", interaction.locale, setting=setting,
                                           known=", ".join(sorted(current)) or "—"), ephemeral=True)
                return
            lines = [t("gm.rules_header", interaction.locale, title=system.title)]
            lines += [f"`{k}` = `{json.dumps(current[k])}` (default `{json.dumps(system.house_rules.get(k))}`)"
                      for k in keys] or [t("gm.no_rules", interaction.locale)]
            await reply(interaction, "\n".join(lines)[:2000], ephemeral=True)
            return
        await self.bot.host.require_gm(interaction)
        if setting not in system.house_rules:
            await reply(interaction, t("gm.unknown_rule", interaction.locale, setting=setting,
                                       known=", ".join(sorted(system.house_rules)) or "—"), ephemeral=True)
            return
        parsed = parse_value(value)
        default = system.house_rules[setting]
        if default is not None and type(parsed) is not type(default) and not (
                isinstance(default, float) and isinstance(parsed, int)):
            await reply(interaction, t("gm.rule_type", interaction.locale, setting=setting,
                                       kind=type(default).__name__), ephemeral=True)
            return
        await self.bot.store.set_house_rule(interaction.guild_id, game, setting, parsed)
        await reply(interaction, t("gm.rule_set", interaction.locale, title=system.title, setting=setting,
                                   value=json.dumps(parsed)), ephemeral=True)

    @gm.command(name="reminder", description="Ping whoever a game waits on after this many hours (0: off)")
    @app_commands.describe(hours="Hours of waiting before one reminder per decision (0 turns reminders off)")
    async def reminder(self, interaction: discord.Interaction, hours: app_commands.Range[float, 0, 720]):
        await self.bot.host.require_gm(interaction)
        await self.bot.store.update_settings(interaction.guild_id, reminder_hours=hours or None)
        key = "gm.reminder_set" if hours else "gm.reminder_off"
        await reply(interaction, t(key, interaction.locale, hours=f"{hours:g}"), ephemeral=True)

    @gm.command(name="forget", description="Server admins: delete everything Bauta keeps about this server")
    @app_commands.describe(confirm="Type the server's name to confirm")
    @app_commands.default_permissions(administrator=True)
    async def forget(self, interaction: discord.Interaction, confirm: str):
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.administrator):
            raise app_commands.MissingPermissions(["administrator"])
        name = getattr(interaction.guild, "name", None)
        if name is None or confirm.strip() != name:
            await reply(interaction, t("gm.forget_confirm", interaction.locale, name=name or "?"), ephemeral=True)
            return
        await self.bot.store.purge_guild(interaction.guild_id)
        await reply(interaction, t("gm.forgotten", interaction.locale), ephemeral=True)


async def setup(bot):
    await bot.add_cog(GMCog(bot))
