"""A Carnival Zombie campaign's Days and Nights, for its page on the web companion (web/campaign.py):
the Calendar's three Tickets (each a Day and a Night, played, now or to come, with the Boss Tarots
the Night draws at the game's difficulty), then the milestones of the game's log (each Day's start,
Sunset, the Night's Hours, Dawn, the Bosses destroyed, the fallen, the end) as the table read them.

Only what the viewer's own view and the events' audiences let them read: the Calendar is public,
and a milestone is a public event (a secret one, the traitor's, is never one of them)."""
from __future__ import annotations

from i18n import t
from i18n.present import Presenter
from rules.carnival_zombie import ENGINE
from rules.common import PUBLIC
from rules.common.packs import in_language

from .board import ending

TICKETS = (1, 2, 3)
# the events that mark the Days and Nights of the log (the rest is told on the game's own page):
# the engine's chapters and turning points, and the steps of a Night and its Dawn
MILESTONES = ENGINE.chapter_kinds | ENGINE.turning_kinds | frozenset(
    {"story_told", "sunset_sunken", "hour", "dawn", "dawn_exit", "survivors", "final_score"})
LOG_MAX = 5_000                     # the log's actions read for the milestones (a campaign is a few hundred)
SHOWN_MAX = 120                     # milestone lines shown, the latest


def calendar_lines(view: dict, days: int, locale) -> list[str]:
    """The Calendar: a line for each Day and each Night of the three Tickets."""
    calendar = view["calendar"]
    begun = view["phase"] not in ("setup", "story")
    here = (calendar["ticket"] - 1) * 2 + (calendar["half"] == "night")
    lines = [t("carnival_zombie.campaign.calendar", locale, days=days)]
    for ticket in TICKETS:
        for half in ("day", "night"):
            at = (ticket - 1) * 2 + (half == "night")
            if not begun or at > here:
                status = "ahead"
            elif at < here:
                status = "done"
            else:
                status = "ended" if view["over"] else "now"
            params = {"n": ticket, "status": t(f"carnival_zombie.campaign.{status}", locale)}
            if half == "night":
                params["bosses"] = calendar["bosses"][ticket]
            lines.append(t(f"carnival_zombie.campaign.{half}", locale, **params))
    return lines


async def campaign_page(store, game, viewer: str, say: Presenter) -> str | None:
    """The campaign page of a Carnival Zombie game: its header, the Calendar, the Days and Nights."""
    locale = say.language
    state = ENGINE.load_state(game.state)
    view = ENGINE.view_for(state, viewer)
    header = t("carnival_zombie.describe.header", locale, scenario=in_language(view["scenario_name"], locale),
               difficulty=t(f"carnival_zombie.difficulty.{view['difficulty']}", locale),
               phase=t(f"carnival_zombie.phase.{view['phase']}", locale))
    lines = [header, *calendar_lines(view, state.days_played, locale), "",
             t("carnival_zombie.campaign.story", locale)]
    readable = {PUBLIC, viewer}
    told = [line for record in await store.actions(game.id, limit=LOG_MAX)
            for line in say.events(e for e in record.events
                                   if e.get("kind") in MILESTONES and e.get("audience", PUBLIC) in readable)]
    if view["over"]:
        told.append(t("carnival_zombie.describe.over", locale, reason=ending(say, view)))
    lines += [f"· {line}" for line in told[-SHOWN_MAX:]] or [t("carnival_zombie.campaign.story_empty", locale)]
    return "\n".join(lines)
