"""One place where errors become replies: known ones as a friendly ephemeral sentence, unknown
ones logged with a short reference the user can quote."""
from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from db.store import StoreError
from i18n import t
from i18n.present import Presenter
from rules.common import BautaError

log = logging.getLogger("bauta.errors")


class NotGM(app_commands.CheckFailure):
    """The command or button needs the GM role (or server admin)."""


def friendly(error: BaseException, locale=None) -> str | None:
    """The sentence for a known error, or None for a bug."""
    if isinstance(error, (app_commands.CommandInvokeError,)) and error.original is not None:
        error = error.original
    if isinstance(error, NotGM):
        return t("errors.not_gm", locale)
    if isinstance(error, BautaError):
        return Presenter(locale, getattr(error, "system", None)).error(error)
    if isinstance(error, StoreError):
        return str(error)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("errors.cooldown", locale, seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.MissingPermissions):
        return t("errors.missing_permissions", locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("errors.guild_only", locale)
    if isinstance(error, app_commands.TransformerError):
        return t("errors.bad_value", locale, value=str(error.value)[:100])
    if isinstance(error, app_commands.CheckFailure):
        return t("errors.not_allowed", locale)
    return None


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    message = friendly(error, interaction.locale)
    if message is None:
        ref = secrets.token_hex(2)
        original = getattr(error, "original", error)
        log.error("unhandled error (ref %s) in %s", ref, getattr(interaction.command, "qualified_name", "component"),
                  exc_info=(type(original), original, original.__traceback__))
        message = t("errors.unexpected", interaction.locale, ref=ref)
    deadline = interaction.extras.pop("bauta_deadline", None)   # see framework.Deadline
    if deadline is not None:
        await deadline.settle()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not report an error to the user: %s", exc)
