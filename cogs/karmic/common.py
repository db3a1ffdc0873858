"""What the Karmic cog's modules share: the game's name, the meta keys, the `/karmic` command groups
(each module adds its commands to them), and small helpers."""
from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from discord import app_commands

from content import sample_pack as bundled_pack
from i18n import present
from i18n.present import Presenter
from rules.common import GM, BautaError
from i18n import SUPPORTED
from rules.karmic import ATTRIBUTES, DIFFICULTY, ENGINE, SKILLS, card_term, name_in, said, skill_word

from cogs.host import mention

log = logging.getLogger("bauta.karmic")

NAME = ENGINE.system                 # "karmic"
TITLE = "Karmic"
GM_OWNER = 0                         # owner id of GM sheets (NPCs) and of the world deck record
WORLD = "~world"                     # the GM-owned record holding the guild's world deck
SHEETS = "karmic_sheets"             # game meta: {fighter key: [owner id, stored name]}
USES_WORLD = "karmic_world"          # game meta: the world deck came from (and goes back to) the store
LIVE = "karmic_live"                 # game meta: the live board {message, channel, round, closed}
GENDERS = "genders"                  # game meta: {name as shown: gender}, read by the framework's presenter
MAX_SHEET_BYTES = 200_000

# The command groups: `KarmicCog` (cogs/karmic.py) holds `karmic`; the sheets, checks and combat
# modules decorate their commands with these same objects.
karmic = app_commands.Group(name="karmic", description="Karmic: karma decks, checks and register combat",
                            guild_only=True)
character = app_commands.Group(name="character", description="Your Karmic characters", parent=karmic)
combat = app_commands.Group(name="combat", description="Karmic compound combat", parent=karmic)

ATTRIBUTE_CHOICES = [app_commands.Choice(name=a, value=a) for a in ATTRIBUTES]


def _split_names(text: str | None) -> list[str]:
    return [n.strip() for n in re.split(r"[,;]", text or "") if n.strip()]


def _who(player: str | None) -> str:
    if not player:
        return "—"
    return mention(player) if player != GM else "GM"


def card_words(say: Presenter, cards: list[str], joint: str = ", ") -> str:
    """Cards as the reader reads them (rank, suit, value, hit; a joker by its word), joined."""
    return joint.join(say.text("options.card", card=card_term(c)) for c in cards)


def entry_name(entry: dict, locale) -> str:
    """A pack entry's name (a weapon's, an NPC's) in the reader's language, for an autocomplete or a
    line the cog writes itself (the engine's data carries every form and the presenter chooses)."""
    return name_in(entry["name"], entry.get("names"), present.language(locale))


def entry_said(entry: dict):
    """A pack entry's name as data for the presenter (all its forms)."""
    return said(entry["name"], entry.get("names"))


def entries_said(entries: list[dict]):
    """The names of pack entries as a list the presenter words and joins, or "—" for none."""
    return [entry_said(e) for e in entries] or "—"


@cache
def _keys_of_words() -> dict[str, str]:
    """Every language's word for a rulebook skill, an attribute or a named difficulty, to its key
    (read once from the catalogues), so a player may type them in their own language."""
    out: dict[str, str] = {}
    for language in SUPPORTED:
        words = present.game_words(language, NAME)
        for section, keys in (("skill", SKILLS), ("attribute", ATTRIBUTES), ("difficulty", DIFFICULTY)):
            for key in keys:
                word = words.get(f"terms.{section}.{key}")
                if word:
                    out.setdefault(word.strip().lower(), key)
    return out


def typed_skill(text: str) -> str:
    """A skill (or an attribute, or a named difficulty) as a player typed it, in any of the three
    languages ("seguire tracce", "rastrear", "molto difficile"): its key, else the text as typed (a
    skill of the sheet's own, a number)."""
    return _keys_of_words().get(text.strip().lower(), text.strip())


def skill_name(say: Presenter, skill: str) -> str:
    """A sheet's skill in the reader's language (a rulebook skill), else as the sheet writes it."""
    return str(say.value(skill_word(skill), plain=True))


def skill_choices(say: Presenter, current: str) -> list[app_commands.Choice[str]]:
    """The rulebook's skills in the reader's language that match what is typed (for an autocomplete)."""
    wanted = current.strip().lower()
    named = [(skill_name(say, k), k) for k in SKILLS]
    return [app_commands.Choice(name=n, value=k) for n, k in sorted(named) if wanted in n.lower() or wanted in k][:25]


def sample_names(group: str) -> list[dict]:
    """Entries of the bundled SAMPLE pack (read by `content`, parsed by the rules; read only)."""
    return list(bundled_pack(NAME).get(group, []))


def sample_pack() -> dict:
    """The bundled SAMPLE pack, a copy a game may keep."""
    return copy.deepcopy(bundled_pack(NAME))


def refused(code: str, error: type[BautaError] = BautaError, **params) -> BautaError:
    """A refusal of the cog's own: a code of the Karmic catalogue's `errors` with its parameters,
    worded by the presenter in the reader's language (as the engine's are)."""
    exc = error(code, **params)
    exc.system = NAME
    return exc


@contextmanager
def speaking() -> Iterator[None]:
    """Around a rules call the cog makes itself (not through the engine): its error names Karmic, so
    the presenter words its code from the Karmic catalogue (the engine does this for its own calls)."""
    try:
        yield
    except BautaError as error:
        error.system = error.system or NAME
        raise
