"""The registry of game systems the bot hosts.

A game cog registers its engine once; everything generic (`/game`, `/hand`, buttons, packs,
house rules) finds the engine here by the system name stored on each game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from collections.abc import Awaitable, Callable

import yaml

from rules.common import Engine


def default_describe(view: dict, viewer: str) -> str:
    """A readable dump of a view when the system gives no describer of its own."""
    return yaml.safe_dump(view, sort_keys=False, allow_unicode=True, width=100).strip()


@dataclass
class System:
    name: str                      # stored on games rows; also the /pack and /gm rules choice
    title: str                     # shown to users
    engine: Engine
    describe: Callable[[dict, str], str] = default_describe
    render: Callable[[dict], bytes] | None = None           # view -> PNG, for /game status
    house_rules: dict[str, Any] = field(default_factory=dict)  # key -> default
    load_pack: Callable[[str, str], Any] | None = None      # (yaml text, source name) -> content, raises PackError
    # Called once when a game of this system ends (by its rules, by force, archived): (host,
    # interaction, game record, final state) -> the lines, worded, to tell the table of it (a
    # score, what was saved) or None; the host tells them in the game's chronicle message.
    on_over: Callable[..., Awaitable[list[str] | None]] | None = None
    # Called after every publish (e.g. to edit a live board image): (host, interaction, game, state, events).
    after_publish: Callable[..., Awaitable[None]] | None = None
    # An image to send with a prompt's buttons (a draft table, the hand being played from):
    # (view_for the prompt's recipient, prompt) -> (file name, PNG bytes) or None. Runs in a thread.
    prompt_image: Callable[[dict, Any], tuple[str, bytes] | None] | None = None
    # An image for the same DM as a player's private news when no decision of theirs goes with it
    # (a hand that a draw changed), so one DM carries both: (view_for the player, their private
    # events of the step) -> (file name, PNG bytes) or None. Runs in a thread, in their language.
    news_image: Callable[[dict, list], tuple[str, bytes] | None] | None = None
    # The game an ended game hands over to, created in the same transaction as its last action:
    # (final state) -> (system name, seats, options), or None (the lobby's Start opens its game).
    successor: Callable[[Any], tuple[str, list[str], dict] | None] | None = None
    # A click on one of the game's prompts as the action to apply, when the click itself carries data
    # (a reaction timed from the prompt to the click): (interaction, game record, prompt, Choose) ->
    # a Choose or a subclass of it. One action: nothing is committed after the click's own.
    click: Callable[[Any, Any, Any, Any], Any] | None = None
    listed: bool = True            # False for internal systems (the lobby) kept out of menus and /help
    # The bot as a player of this game (a `rules.common.player.GameAI`): it stands in for an idle
    # seat (`/gm idle_bot`) in any game that has one, and takes a seat of its own (`vs_bot`) where
    # `bot_seats` says so (cogs/host/botplayer.py).
    ai: Any = None
    bot_seats: bool = False
    # Whether running the rules with these set-up options may make the bot think (Karmic's NPCs
    # played inside its own steps): then the host applies actions in a worker thread.
    thinks: Callable[[dict], bool] | None = None
    # The game's campaign, for its page on the web companion (web/campaign.py): what the system
    # keeps across games (a squad's ledger, a character's sheet and deck, the Days and Nights), as
    # one viewer may see it in Discord: (store, game record, viewer key — a player id, GM or
    # PUBLIC —, presenter in the reader's language) -> Discord-flavoured text, or None when
    # nothing of it is theirs to see. Without it, the game has no campaign page.
    campaign: Callable[[Any, Any, str, Any], Awaitable[str | None]] | None = None


def listed() -> list[System]:
    return [s for s in SYSTEMS.values() if s.listed]


SYSTEMS: dict[str, System] = {}


CONFIRM_SINGLE = "confirm_single_choice"   # house rule of every game: wait for a click on a forced choice
DEADLINE_DEFAULT = "deadline_default"      # house rule of every game: at a deadline, play the rules' default
# house rule of every game: members without a seat may watch it on the web companion (web/)
WEB_SPECTATORS = "web_spectators"
HOST_RULES = (CONFIRM_SINGLE, DEADLINE_DEFAULT, WEB_SPECTATORS)    # the table's own conventions, applied by the host, not the engine


def register(system: System) -> System:
    if system.listed:
        for rule in HOST_RULES:
            system.house_rules.setdefault(rule, False)
    SYSTEMS[system.name] = system
    _title.cache_clear()          # a title asked before its game registered was its bare name
    return system


def title(name: str, locale: Any = None) -> str:
    """A game's title in the reader's language: `<name>.title` of its catalogue ("Carnival Zombie
    2ª Edizione"), else the title it registered with (a test game has no catalogue)."""
    from i18n import supported
    return _title(name, supported(locale))


@lru_cache(maxsize=512)
def _title(name: str, language: str) -> str:
    from i18n import DEFAULT, lookup
    key = f"{name}.title"
    found = lookup(key, language) or lookup(key, DEFAULT)
    if found is not None:
        return found
    system = SYSTEMS.get(name)
    return system.title if system is not None else name


def get(name: str) -> System:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise LookupError(f"Unknown game system '{name}'.") from None
