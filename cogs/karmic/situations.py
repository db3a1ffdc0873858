"""`/karmic check situation:`: the skill list's tables (rules.karmic.SITUATIONS) as named choices.

Not a cog: the check command's autocomplete and the reading of what was typed. Several rows go
comma-separated ("stone_wall, top_rope"); the choices show them in the reader's language with their
numbers, and what comes back may be the ids or those names (Discord may send either), so both are
read; anything else goes to the rules as typed, which refuse it with its name.
"""
from __future__ import annotations

import re
from functools import cache

import discord
from discord import app_commands

from i18n import SUPPORTED
from i18n.present import Presenter
from rules.karmic import SITUATIONS, situations_for

GAME = "karmic"
_NUMBER = re.compile(r"\s*\([+\-−]?\d+\)\s*$")      # the "(−3)" a choice name ends with


def situation_name(sid: str, locale=None) -> str:
    words = Presenter(locale, GAME).text(f"terms.situation.{sid}", plain=True)
    return f"{words} ({SITUATIONS[sid].mod:+d})"


@cache
def _by_name() -> dict[str, str]:
    names: dict[str, str] = {}
    for language in SUPPORTED:
        for sid in SITUATIONS:
            names[_NUMBER.sub("", situation_name(sid, language)).strip().lower()] = sid
    return names


def situation_ids(text: str | None) -> list[str]:
    """What was typed → situation ids (unknown parts kept as typed, for the rules to refuse)."""
    if not text or not text.strip():
        return []
    names = _by_name()
    out = []
    for part in text.split(","):
        raw = _NUMBER.sub("", part).strip()
        if not raw:
            continue
        key = raw.lower().replace(" ", "_").replace("-", "_")
        out.append(key if key in SITUATIONS else names.get(raw.lower(), raw[:40]))
    return out


async def situation_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The rows of the typed skill's tables (every table while no skill is typed yet), after any
    rows already chosen."""
    skill = str(getattr(interaction.namespace, "skill", "") or "")
    rows = situations_for(skill) if skill.strip() else list(SITUATIONS.values())
    head, _, last = current.rpartition(",")
    chosen = situation_ids(head)
    prefix_ids = ", ".join(chosen)
    prefix_names = ", ".join(situation_name(s, interaction.locale) if s in SITUATIONS else s for s in chosen)
    out = []
    for row in rows:
        if row.id in chosen:
            continue
        label = situation_name(row.id, interaction.locale)
        if last.strip().lower() not in label.lower() and last.strip().lower() not in row.id:
            continue
        name = (prefix_names + ", " if prefix_names else "") + label
        value = (prefix_ids + ", " if prefix_ids else "") + row.id
        if len(name) <= 100 and len(value) <= 100:
            out.append(app_commands.Choice(name=name, value=value))
    return out[:25]
