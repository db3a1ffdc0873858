"""/roll and /rollstats: plain dice with the d20 notation (Avrae's engine), secret rolls, a roll log.

d20 does everything but success counting (`8d10>=7` compares the *total* there), so a plain
pool compared to a target is counted here: each die meeting the target is one success.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import d20
import discord
from discord import app_commands
from discord.ext import commands

from i18n import t

from cogs.host import MESSAGE_LIMIT, echo, reply

log = logging.getLogger("bauta.dice")

MAX_EXPRESSION = 200
MAX_DICE = 1000          # d20's own guard; a "dice bomb" is refused before it costs anything
_POOL = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(>=|<=|>|<|=)\s*(\d+)\s*$", re.I)
_PLAIN_TERM = re.compile(r"\s*([+-])?\s*(?:(\d*)d(\d+)|(\d+))\s*", re.I)


class DiceError(Exception):
    """A roll refused: a catalogue key under `roll.` and its parameters, worded for whoever reads
    the refusal (`words(locale)`), not in the language of the code that raised it."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key, self.params = key, params

    def words(self, locale) -> str:
        return t(f"roll.{self.key}", locale, **self.params)


@dataclass
class RollOutcome:
    expression: str
    total: float
    detail: str              # markdown, possibly long (a pool's: its dice, the count after them)
    expected: float | None   # mean, for plain dice (NdM ± k)
    variance: float | None
    successes: bool = False  # a pool (8d10>=7): `total` counts the dice that met the target


def plain_moments(expression: str) -> tuple[float, float] | None:
    """Mean and variance of sums of NdM and constants; None for anything fancier."""
    pos, mean, var = 0, 0.0, 0.0
    text = expression.strip()
    if not text:
        return None
    while pos < len(text):
        match = _PLAIN_TERM.match(text, pos)
        if not match or match.end() == pos:
            return None
        sign = -1 if match.group(1) == "-" else 1
        if pos and match.group(1) is None:
            return None
        if match.group(3):
            n, m = int(match.group(2) or 1), int(match.group(3))
            if m < 1:
                return None
            mean += sign * n * (m + 1) / 2
            var += n * (m * m - 1) / 12
        else:
            mean += sign * int(match.group(4))
        pos = match.end()
    return mean, var


def _compare(value: int, op: str, target: int) -> bool:
    return {">=": value >= target, "<=": value <= target, ">": value > target,
            "<": value < target, "=": value == target}[op]


def roll(expression: str) -> RollOutcome:
    expression = expression.strip()
    if not expression or len(expression) > MAX_EXPRESSION:
        raise DiceError("too_long", limit=MAX_EXPRESSION)
    pool = _POOL.match(expression)
    try:
        if pool:
            n, sides, op, target = int(pool.group(1) or 1), int(pool.group(2)), pool.group(3), int(pool.group(4))
            if n > MAX_DICE:
                raise d20.TooManyRolls("too many")
            result = d20.roll(f"{n}d{sides}")
            faces = [die.number for die in result.expr.roll.values]
            hits = [f"**{f}**" if _compare(f, op, target) else str(f) for f in faces]
            count = sum(_compare(f, op, target) for f in faces)
            detail = f"{n}d{sides} ({', '.join(hits)}) {op} {target} →"
            return RollOutcome(expression, count, detail, None, None, successes=True)
        result = d20.roll(expression, allow_comments=False)
        total, detail = result.total, str(result)
    except d20.TooManyRolls:
        raise DiceError("bomb", limit=MAX_DICE) from None
    except d20.RollSyntaxError:
        raise DiceError("syntax", expression=expression[:100]) from None
    except (d20.RollError, ZeroDivisionError, OverflowError, RecursionError) as exc:
        raise _refusal(exc, expression[:100]) from None
    moments = plain_moments(expression)
    return RollOutcome(expression, total, detail, *(moments or (None, None)))


# d20 words its value errors in English (d20 1.1.2's three, matched here): each becomes a
# catalogue key, so a reader sees the reason in their own language, never d20's sentence.
_SELECTOR = re.compile(r"(.+) is not a valid selector for (?:minimums|maximums)\.$")


def _refusal(exc: Exception, expression: str) -> DiceError:
    text = str(exc)
    if isinstance(exc, ZeroDivisionError) or text == "Cannot divide by zero.":
        return DiceError("zero_division", expression=expression)
    if text == "Cannot roll a 0-sided die.":
        return DiceError("zero_sides", expression=expression)
    selector = _SELECTOR.match(text)
    if selector:
        return DiceError("bad_selector", selector=selector.group(1)[:20])
    return DiceError("value", expression=expression)


def format_roll(who: str, outcome: RollOutcome, label: str | None, locale=None, limit: int = MESSAGE_LIMIT) -> str:
    head = f"🎲 {who}" + (f" — *{label}*" if label else "") + ": "
    text = head + outcome.detail
    if outcome.successes:
        text += " " + t("roll.successes", locale, n=int(outcome.total))
    if len(text) <= limit:
        return text
    total = int(outcome.total) if float(outcome.total).is_integer() else outcome.total
    return head + f"`{outcome.expression}` = `{total}` " + t("roll.summarised", locale)


class DiceCog(commands.Cog):
    MAX_GMS = 25     # DMs per secret roll at most: one fetch and one DM each

    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice: 4d6kh3+2, 2d20kl1, 8d10>=7 …")
    @app_commands.describe(expression="Dice notation, e.g. 4d6kh3+2, 2d20kl1, 1d100, 8d10>=7",
                           secret="Only you and the GMs see the result",
                           label="What the roll is for (shown with the result)")
    async def roll_command(self, interaction: discord.Interaction, expression: str, secret: bool = False,
                           label: app_commands.Range[str, 1, 100] | None = None):
        try:
            outcome = roll(expression)
        except DiceError as exc:
            await reply(interaction, exc.words(interaction.locale), ephemeral=True)
            return
        who = interaction.user.mention
        label = echo(label) if label else None
        # a public roll speaks the server's language; a secret one its roller's (its GMs read it too)
        settings = await self.bot.store.settings(interaction.guild_id) if interaction.guild_id else None
        public = (settings.locale if settings else None) or interaction.guild_locale
        text = format_roll(who, outcome, label, interaction.locale if secret else public)
        if interaction.guild_id is not None:
            await self.bot.store.log_roll(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                          outcome.expression, float(outcome.total), label, outcome.expected,
                                          outcome.variance, secret)
        if not secret:
            await reply(interaction, text)
            return
        await reply(interaction, text, ephemeral=True)
        await reply(interaction, t("roll.secret_public", public, who=who,
                                   label=f" ({label})" if label else ""))
        told = await self._tell_gms(interaction, t("roll.secret_gm", public,
                                                   channel=f"<#{interaction.channel_id}>") + "\n" + text)
        if not told:
            await reply(interaction, t("roll.secret_no_gm", interaction.locale), ephemeral=True)

    # ---- who the GMs are, without the privileged members intent
    # Discord lists a role's members only to bots with the members intent; Bauta runs without it,
    # so `role.members` (the cache) is nearly always empty. What works without it: every
    # interaction carries its author's roles, and `guild.fetch_member(id)` (one REST call) gives a
    # member's current roles. So the bot remembers, per guild, who it has seen holding the GM role
    # (stored: it survives restarts), and checks each again with a fetch before a secret reaches them.
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Learn the GMs from their own interactions (a write only when that changes)."""
        if interaction.guild_id is None or not hasattr(interaction.user, "roles"):
            return
        role_id = (await self.bot.store.settings(interaction.guild_id)).gm_role_id
        if role_id is None:
            return
        known = await self.bot.store.known_gms(interaction.guild_id)
        holds = any(role.id == role_id for role in interaction.user.roles)
        if holds and interaction.user.id not in known:
            await self.bot.store.remember_gm(interaction.guild_id, interaction.user.id)
        elif not holds and interaction.user.id in known:
            await self.bot.store.forget_gm(interaction.guild_id, interaction.user.id)

    async def _gm_members(self, guild, role_id: int) -> list[int]:
        """Members who hold the GM role now: the cached ones and the remembered ones, each
        re-checked (cache first, else a fetch). A member who left or lost the role is forgotten."""
        role = guild.get_role(role_id)
        known = await self.bot.store.known_gms(guild.id)
        candidates = sorted({m.id for m in getattr(role, "members", [])} | known)[: self.MAX_GMS]
        holders = []
        for user_id in candidates:
            member = guild.get_member(user_id)
            try:
                member = member or await guild.fetch_member(user_id)
            except discord.NotFound:
                member = None
            except discord.HTTPException as exc:
                log.warning("cannot check GM %s in guild %s: %s", user_id, guild.id, exc)
                continue
            if member is not None and any(r.id == role_id for r in getattr(member, "roles", [])):
                holders.append(user_id)
            elif user_id in known:
                await self.bot.store.forget_gm(guild.id, user_id)
        return holders

    async def _tell_gms(self, interaction: discord.Interaction, text: str) -> bool:
        """Send a secret roll to the GMs: the GM channel if there is one, else a DM to every GM
        role member, else (none reached) to the server owner. True when someone besides the
        roller got it."""
        if interaction.guild_id is None:
            return False
        text = text[:MESSAGE_LIMIT]
        settings = await self.bot.store.settings(interaction.guild_id)
        courier = self.bot.host.courier
        if settings.gm_channel_id:
            return await courier.send_channel(settings.gm_channel_id, text) is not None
        guild = interaction.guild
        if guild is None:
            return False
        roller = interaction.user.id
        gms = await self._gm_members(guild, settings.gm_role_id) if settings.gm_role_id else []
        told = 0
        for user_id in gms:
            if user_id != roller:
                told += await courier.send_dm(interaction.guild_id, user_id, text)
        if not told and guild.owner_id and guild.owner_id != roller and guild.owner_id not in gms:
            told += await courier.send_dm(interaction.guild_id, guild.owner_id, text)
        return told > 0

    @app_commands.command(name="rollstats", description="How many dice someone rolled here, and how lucky they were")
    @app_commands.guild_only()
    async def rollstats(self, interaction: discord.Interaction, user: discord.Member | discord.User | None = None):
        user = user or interaction.user
        # Secret rolls count only in the roller's own statistics (this reply is ephemeral): in
        # anyone else's, an average or a favourite would leak what the roll kept secret.
        own = user.id == interaction.user.id
        stats = await self.bot.store.roll_stats(interaction.guild_id, user.id, include_secret=own)
        if not stats.rolls:
            await reply(interaction, t("roll.stats_none", interaction.locale, who=user.mention), ephemeral=True)
            return
        lines = [t("roll.stats_head" if own else "roll.stats_head_public", interaction.locale, who=user.mention,
                   n=stats.rolls, secret=stats.secret)]
        if stats.plain:
            lines.append(t("roll.stats_luck", interaction.locale, n=stats.plain, offset=f"{stats.mean_offset:+.2f}",
                           z=f"{stats.z_score:+.2f}"))
        if stats.by_expression:
            lines.append(t("roll.stats_top", interaction.locale,
                           top=", ".join(f"`{e}` ×{n}" for e, n in stats.by_expression)))
        await reply(interaction, "\n".join(lines), ephemeral=True)


async def setup(bot):
    await bot.add_cog(DiceCog(bot))
