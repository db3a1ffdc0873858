"""One place where errors become replies: known ones as a friendly ephemeral sentence, unknown
ones logged with a short reference the user can quote. Every reply fits Discord's 2,000
characters (a longer one is refused with 50035 and the user would see "thinking…" forever)."""
from __future__ import annotations

import logging
import math
import secrets

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from db.store import StoreError
from i18n import t
from i18n.present import Presenter

from .text import HELD
from rules.common import BautaError

from .text import MESSAGE_LIMIT, echo

log = logging.getLogger("bauta.errors")

SAFE_INTEGER = 2 ** 53        # Discord's integer options stop here; SQLite's at 2**63


class NotGM(app_commands.CheckFailure):
    """The command or button needs the GM role (or server admin)."""


def fit(text: str | None, limit: int = MESSAGE_LIMIT) -> str | None:
    """`text` cut to what Discord accepts in one message (an ellipsis marks the cut)."""
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def friendly(error: BaseException, locale=None) -> str | None:
    """The sentence for a known error, or None for a bug."""
    if isinstance(error, (app_commands.CommandInvokeError,)) and error.original is not None:
        error = error.original
    if isinstance(error, NotGM):
        return t("errors.not_gm", locale)
    if isinstance(error, BautaError):
        # a refusal naming a table's own character agrees with it (`genders`: the game's, see framework.commit)
        return Presenter(locale, getattr(error, "system", None), genders=getattr(error, "genders", None)).error(error)
    if isinstance(error, StoreError):     # a refusal has its words; one without is a bug
        return t(f"errors.{error.code}", locale, **error.params) if error.code else None
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("errors.cooldown", locale, seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.MissingPermissions):
        return t("errors.missing_permissions", locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("errors.guild_only", locale)
    if isinstance(error, app_commands.TransformerError):
        return t("errors.bad_value", locale, value=echo(str(error.value)))
    if isinstance(error, app_commands.CheckFailure):
        return t("errors.not_allowed", locale)
    return None


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    message = friendly(error, interaction.locale)
    # Marks for tests and logs: this interaction was refused (and, for a bug, with which reference).
    interaction.extras["bauta_refused"] = True
    if message is None:
        ref = secrets.token_hex(2)
        original = getattr(error, "original", error)
        log.error("unhandled error (ref %s) in %s", ref, getattr(interaction.command, "qualified_name", "component"),
                  exc_info=(type(original), original, original.__traceback__))
        message = t("errors.unexpected", interaction.locale, ref=ref)
        interaction.extras["bauta_internal"] = f"{type(original).__name__}: {original}"[:300]
    message = fit(message)
    deadline = interaction.extras.pop("bauta_deadline", None)   # see replies.Deadline
    if deadline is not None:
        await deadline.settle()
    held = interaction.extras.get(HELD)         # see replies.Held: the mark, then the refusal
    if held is not None:
        await held.release()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not report an error to the user: %s", exc)


def option_problem(command, namespace, locale=None) -> str | None:
    """The sentence for the first option value outside what the command declares (range, length,
    choices), or None. Discord's client enforces these, but nothing stops another client: the
    bounds are checked again here, before any command code runs."""
    for param in getattr(command, "parameters", ()):
        value = getattr(namespace, param.display_name, None)
        if value is None:
            continue
        name = param.display_name
        if param.choices and value not in {c.value for c in param.choices}:
            return t("errors.not_a_choice", locale, option=name)
        if param.type in (AppCommandOptionType.integer, AppCommandOptionType.number) and isinstance(value, (int, float)):
            low = param.min_value if param.min_value is not None else -SAFE_INTEGER
            high = param.max_value if param.max_value is not None else SAFE_INTEGER
            if not (isinstance(value, int) or math.isfinite(value)) or not low <= value <= high:
                return t("errors.out_of_range", locale, option=name, low=low, high=high)
        elif param.type is AppCommandOptionType.string and isinstance(value, str):
            if param.min_value is not None and len(value) < param.min_value:
                return t("errors.too_short", locale, option=name, low=param.min_value)
            if param.max_value is not None and len(value) > param.max_value:
                return t("errors.too_long", locale, option=name, high=param.max_value)
    return None


async def check_options(interaction: discord.Interaction) -> bool:
    """The command tree's `interaction_check`: refuse, privately, a value outside the declared
    bounds (and answer, so the interaction is never left without a reply)."""
    if interaction.type is not discord.InteractionType.application_command:
        return True
    problem = option_problem(interaction.command, interaction.namespace, interaction.locale)
    if problem is None:
        return True
    interaction.extras["bauta_refused"] = True
    try:
        await interaction.response.send_message(fit(problem), ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not refuse an option value: %s", exc)
    return False
