"""/gm: who the GMs are, where GM-only messages go, and the guild's house rules."""
from __future__ import annotations

import json

import discord
from discord import app_commands
from discord.ext import commands

from i18n import language_of, t

from cogs.host import botplayer, systems
from cogs.host import chunks, echo, reply
from cogs.host.clock import period_text


async def system_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=s.title, value=s.name) for s in systems.listed()
            if current.lower() in s.title.lower() or current.lower() in s.name][:25]


async def setting_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The chosen game's house rules, each with its one-line explanation in the reader's language."""
    system = systems.SYSTEMS.get(getattr(interaction.namespace, "game", None) or "")
    if system is None:
        return []
    return [app_commands.Choice(name=f"{key}: {explain(system.name, key, interaction.locale)}".rstrip(": ")[:100],
                                value=key)
            for key in sorted(system.house_rules) if current.lower() in key.lower()][:25]


# The languages Bauta speaks, each named in itself; "server default" follows the server's Discord setting.
LANGUAGES = {"en": "English", "it": "Italiano", "es": "Español"}
SERVER_DEFAULT = "default"


def parse_value(text: str):
    """House-rule values are typed as JSON when they parse (true, 3, "x"), else kept as text."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # '[[[[…' thousands deep stops the decoder: keep it as text
        return text


def explain(system: str, setting: str, locale) -> str:
    """What a house rule changes, in one line of the reader's language ("" for a rule nobody explained)."""
    for key in (f"house_rules.{system}.{setting}", f"house_rules.common.{setting}"):
        explanation = t(key, locale)
        if explanation != key:
            return explanation
    return ""


def rule_line(system: str, setting: str, value, default, locale) -> str:
    """One house rule in the reader's language: its value, its default and what it changes."""
    return t("gm.rule_line", locale, setting=setting, value=json.dumps(value, ensure_ascii=False),
             default=json.dumps(default, ensure_ascii=False),
             explanation=explain(system, setting, locale)).rstrip(": ")


def deadline_said(minutes: int, idle_bot: str | None, locale) -> str:
    """What a deadline setting means for the table, in one line."""
    if not minutes:
        return t("gm.deadline_off", locale)
    then = t("gm.deadline_stand_in", locale, level=idle_bot) if idle_bot else t("gm.deadline_remind_only", locale)
    return t("gm.deadline_set", locale, period=period_text(minutes, locale), then=then)


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
    @app_commands.autocomplete(game=system_choices, setting=setting_choices)
    async def rules(self, interaction: discord.Interaction, game: str, setting: str | None = None,
                    value: str | None = None):
        system = systems.SYSTEMS.get(game)
        if system is None:
            await reply(interaction, t("errors.unknown_system", interaction.locale, system=echo(game)), ephemeral=True)
            return
        current = {**system.house_rules, **await self.bot.store.house_rules(interaction.guild_id, game)}
        if setting is None or value is None:
            keys = [setting] if setting else sorted(current)
            if setting and setting not in current:
                await reply(interaction, t("gm.unknown_rule", interaction.locale, setting=echo(setting),
                                           known=", ".join(sorted(current)) or "—"), ephemeral=True)
                return
            lines = [t("gm.rules_header", interaction.locale, title=systems.title(system.name, interaction.locale))]
            lines += [rule_line(game, k, current[k], system.house_rules.get(k), interaction.locale)
                      for k in keys] or [t("gm.no_rules", interaction.locale)]
            for text in chunks(lines):
                await reply(interaction, text, ephemeral=True)
            return
        await self.bot.host.require_gm(interaction)
        if setting not in system.house_rules:
            await reply(interaction, t("gm.unknown_rule", interaction.locale, setting=echo(setting),
                                       known=", ".join(sorted(system.house_rules)) or "—"), ephemeral=True)
            return
        parsed = parse_value(value)
        default = system.house_rules[setting]
        if default is not None and type(parsed) is not type(default) and not (
                isinstance(default, float) and isinstance(parsed, int)):
            await reply(interaction, t("gm.rule_type", interaction.locale, setting=echo(setting),
                                       kind=t(f"gm.kinds.{type(default).__name__}", interaction.locale)),
                        ephemeral=True)
            return
        await self.bot.store.set_house_rule(interaction.guild_id, game, setting, parsed)
        await reply(interaction, t("gm.rule_set", interaction.locale, title=systems.title(system.name, interaction.locale), setting=setting,
                                   value=json.dumps(parsed)), ephemeral=True)

    @gm.command(name="deadline", description="Every decision's deadline in this server's games (0: none)")
    @app_commands.describe(hours="Hours to answer a decision (0 and 0 minutes: no deadline)",
                           minutes="Minutes, added to the hours (for quick games)")
    async def deadline(self, interaction: discord.Interaction, hours: app_commands.Range[int, 0, 720] = 0,
                       minutes: app_commands.Range[int, 0, 59] = 0):
        await self.bot.host.require_gm(interaction)
        total = hours * 60 + minutes
        settings = await self.bot.store.update_settings(interaction.guild_id, deadline_minutes=total or None)
        await reply(interaction, deadline_said(total, settings.idle_bot, interaction.locale), ephemeral=True)

    @gm.command(name="archive", description="After how many idle days a game is archived (never deleted)")
    @app_commands.describe(days="Days without an action (7 to 365; 60 by default)")
    async def archive(self, interaction: discord.Interaction, days: app_commands.Range[int, 7, 365]):
        await self.bot.host.require_gm(interaction)
        await self.bot.store.update_settings(interaction.guild_id, archive_days=days)
        await reply(interaction, t("gm.archive_set", interaction.locale, days=days), ephemeral=True)

    @gm.command(name="idle_bot", description="Let Bauta answer for a player whose deadline passes")
    @app_commands.describe(level="How well Bauta plays for them, or off (the default)")
    @app_commands.choices(level=[app_commands.Choice(name=name, value=name) for name in ("off", *botplayer.LEVELS)])
    async def idle_bot(self, interaction: discord.Interaction, level: str):
        await self.bot.host.require_gm(interaction)
        chosen = level if level in botplayer.LEVELS else None
        settings = await self.bot.store.update_settings(interaction.guild_id, idle_bot=chosen)
        if chosen is None:
            text = t("gm.idle_bot_off", interaction.locale)
        elif settings.deadline_minutes:
            text = t("gm.idle_bot_set", interaction.locale, level=chosen, period=period_text(settings.deadline_minutes,
                                                                                           interaction.locale))
        else:
            text = t("gm.idle_bot_no_deadline", interaction.locale, level=chosen)
        await reply(interaction, text, ephemeral=True)

    @gm.command(name="language", description="The language of this server's public game messages and images")
    @app_commands.describe(language="English, Italiano, Español, or the server's own language (its Discord setting)")
    @app_commands.choices(language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
                          + [app_commands.Choice(name="server default", value=SERVER_DEFAULT)])
    async def language(self, interaction: discord.Interaction, language: str):
        await self.bot.host.require_gm(interaction)
        chosen = None if language == SERVER_DEFAULT else language
        await self.bot.store.update_settings(interaction.guild_id, locale=chosen)
        # Answer in the language just chosen, so the GM sees at once what the table will read.
        shown = chosen or language_of(getattr(interaction, "guild_locale", None))
        key = "gm.language_set" if chosen else "gm.language_default"
        await reply(interaction, t(key, shown, language=LANGUAGES.get(shown, shown)), ephemeral=True)

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
