"""What one viewer may see of a game, as a page shows it: whose turn and by when, the board's
summary and the viewer's own hand, their own decisions with their options, the narrated log.

Everything comes from the engine's per-viewer view (`view_for`) and the events' audiences, worded
by the presenter in the reader's language, so a page never holds more than the viewer's `/hand`
would: another player's private prompt is named ("waiting for Bruno"), never quoted."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from cogs.host import systems
from cogs.host.components import headline
from i18n import present
from i18n.present import Presenter
from rules.common import ANYONE, GM, PUBLIC, Prompt

from .links import GM as GM_ROLE, PLAYER, SPECTATOR
from .markup import html


@dataclass(frozen=True)
class Viewer:
    """Who reads a page: the engine's viewer key (a player id, GM or PUBLIC) and the audiences of
    the events they may read."""
    role: str
    user_id: int
    key: str
    audiences: frozenset[str]


def viewer(role: str, user_id: int) -> Viewer:
    if role == PLAYER:
        return Viewer(role, user_id, str(user_id), frozenset({PUBLIC, str(user_id)}))
    if role == GM_ROLE:
        return Viewer(role, user_id, GM, frozenset({PUBLIC, GM}))
    return Viewer(SPECTATOR, user_id, PUBLIC, frozenset({PUBLIC}))


def role_for(seated: bool, gm: bool, spectators: bool) -> str | None:
    """A member's role on a game's page: their seat, else the GM's view, else a spectator's where
    the server lets members watch (`/gm rules … web_spectators`), else none."""
    if seated:
        return PLAYER
    if gm:
        return GM_ROLE
    return SPECTATOR if spectators else None


@dataclass
class Choice:
    """One of the viewer's own decisions, as a form: its question, its options, how many to pick."""
    id: str
    question: Markup
    options: list[tuple[str, str, str]]      # (option id, label, detail)
    multi: bool
    min_choices: int
    max_choices: int
    answerable: bool                         # False: a timed decision, answered in Discord only


@dataclass
class Sight:
    title: str
    game_id: int
    version: int
    active: bool
    players: list[str]
    waiting: list[Markup]                    # whose decisions the game awaits, with their deadlines
    mine: list[Choice]
    summary: Markup
    log: list[tuple[int, list[Markup]]] = field(default_factory=list)   # (seq, lines), oldest first


def summary(system: systems.System, view: dict, who: str, say: Presenter) -> Markup:
    """The system's own description of `view` (the text of `/game status` and `/hand`)."""
    reading = present.READER.set(say)
    try:
        text = system.describe(view, who)
    finally:
        present.READER.reset(reading)
    return html(text, say.names, say.text("words.someone"))


def narration(events: list[dict], seen: Viewer, say: Presenter) -> list[Markup]:
    shown = [e for e in events if e.get("audience", PUBLIC) in seen.audiences]
    return [html(line, say.names, say.text("words.someone")) for line in say.events(shown)]


def waiting(prompts: list[Prompt], seen: Viewer, say: Presenter) -> list[Markup]:
    """A line per awaited decision: a public one as the table shows it, a private one of someone
    else only by whose it is (its question may name their secret cards)."""
    lines = []
    for prompt in prompts:
        mine = prompt.player == seen.key
        if prompt.private and not mine:
            text = say.common("web.awaits_private", player=say.player(prompt.player, plain=True))
            clock = say.clocks.get(prompt.id) or {}
            if clock.get("d") and not clock.get("p"):
                text += "\n" + say.common("clock.due", relative=f"<t:{clock['d']}:R>", when=f"<t:{clock['d']}:f>")
            lines.append(html(text, say.names))
        else:
            lines.append(html(headline(prompt, say), say.names, say.text("words.someone")))
    return lines


def choices(prompts: list[Prompt], seen: Viewer, say: Presenter) -> list[Choice]:
    found = []
    for prompt in prompts:
        if prompt.player != seen.key or seen.role != PLAYER or prompt.player == ANYONE:
            continue
        found.append(Choice(prompt.id, html(say.prompt(prompt), say.names, say.text("words.someone")),
                            [(o.id, say.option(o), say.option_detail(o)) for o in prompt.options],
                            prompt.max_choices > 1, prompt.min_choices, prompt.max_choices, not prompt.confirm))
    return found


def sight(game: Any, state: Any, seen: Viewer, say: Presenter, steps: list[Any]) -> Sight:
    """The page of `game` for `seen`, now; `steps`: the newest actions of its log (records with
    `seq` and `events`), oldest first."""
    system = systems.get(game.system)
    engine = system.engine
    prompts = engine.pending(state) if game.active else []
    view = engine.view_for(state, seen.key)
    return Sight(
        title=systems.title(game.system, say.language), game_id=game.id, version=game.version,
        active=game.active, players=[say.player(p, plain=True) for p in game.seats],
        waiting=waiting(prompts, seen, say), mine=choices(prompts, seen, say),
        summary=summary(system, view, seen.key, say),
        log=[(s.seq, lines) for s in steps if (lines := narration(s.events, seen, say))])
