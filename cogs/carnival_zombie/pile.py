"""Pile of Corpses in reaction mode (§10.4): the click on "Drop!" is one action that carries its
timing, from Discord's timestamps or, when they are missing, from the bot's clock noted when the
prompt appeared."""
from __future__ import annotations

import time
from datetime import datetime


from rules.carnival_zombie import ENGINE, PileTiming


from .board import REACT


def _now() -> float:
    return time.time()


def _reaction_ms(interaction, react: dict | None, prompt_id: str) -> int:
    """How long the dropper took: from the message showing the prompt (its last edit, else its
    posting: the table message is edited to carry each new prompt) to the click, both Discord's
    timestamps; else the bot's clock since the prompt was noted as shown; -1 when neither exists."""
    clicked = getattr(interaction, "created_at", None)
    message = getattr(interaction, "message", None)
    posted = getattr(message, "edited_at", None) or getattr(message, "created_at", None)
    if isinstance(clicked, datetime) and isinstance(posted, datetime):
        return max(0, int((clicked - posted).total_seconds() * 1000))
    if react and react.get("prompt") == prompt_id:
        return max(0, int((_now() - float(react["at"])) * 1000))
    return -1


def click(interaction, game, prompt, action):
    """Reaction mode: the click on "Drop!" becomes ONE action carrying its timing (`PileTiming`)."""
    if prompt.kind != "pile_react" or tuple(action.options) != ("drop",):
        return action
    return PileTiming(action.prompt, action.options, ms=_reaction_ms(interaction, game.meta.get(REACT), prompt.id))


async def note_the_drop(host, game, state) -> None:
    """Reaction mode: when the "Drop!" prompt appears, note the time (the clock for the click's
    timing when Discord's timestamps are missing); forget it once the drop is made. A meta write only."""
    ask = state.ask if isinstance(state.ask, dict) else {}
    waiting = ask.get("kind") == "pile_react" and not ask.get("timing") and not state.over
    prompt = ENGINE.pending(state)[0].id if waiting else None
    if (game.meta.get(REACT) or {}).get("prompt") == prompt:
        return                          # (no read, no write: most publishes)
    fresh = await host.store.game(game.id) or game
    if (fresh.meta.get(REACT) or {}).get("prompt") == prompt:
        return                          # noted already (the clock must not start again)
    # a merge patch: what the publish (or anyone) wrote to other keys meanwhile stays
    await host.store.patch_meta(fresh, {REACT: {"prompt": prompt, "at": _now()} if prompt else None})


