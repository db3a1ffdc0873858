"""/cz: Carnival Zombie 2nd Edition on Discord. The bot is the opponent and the whole table.

Thin on purpose: the rules live in `rules/carnival_zombie/`, the images in
`renderers/carnival_zombie.py`, and every decision is one of the engine's prompts, which the
framework turns into buttons or a select for the player who owns it (group decisions go to the
First Player). This package adds (`board.py`, `pile.py`, `commands.py`):

- `/cz start difficulty [scenario] [pack] [quick]`: a Join/Leave/Start lobby (1–6 players); after
  Start the engine's setup prompt offers Character swaps and the Activation Order.
- Board images: the Venice map by Day (a new image when the Day begins, at each Group Movement
  step with the route costs, and when the phase changes); by Night ONE live board message (tactical
  map + Clock/Calendar/Terror strip) edited after every step (`host.live_message`: its id is kept in
  the game's `meta`, so a restarted bot edits the same message; if it is gone, a new one is posted).
- `/cz status`: the board, a summary, and the pending prompt again (pinging its player).
- `/cz remind`: ping the player who owes the pending decision once more (once per decision).
- `/cz sabotage cave`, `/cz unmask`: the traitor of "Just a Matter of Time", answered ephemerally;
  the secret never passes through a channel (see `_secret_act`).
- `/cz focus [reason]`: the Battle Focus penalty (optional rule).

Pile of Corpses (§10.4), set with `/gm rules carnival_zombie pile_mode`: `probabilistic` (default)
and `honour` (the dropper reports the result with buttons) are played through the engine's prompts.
`reaction`: the "Drop!" button is the engine's prompt, and the click is one action that carries its
timing (`click` turns it into `PileTiming(ms)`): the time from the message showing the prompt to the
click, both from Discord's timestamps (server-side, so no client clock counts), or from the bot's
clock (noted in the game's meta when the prompt appeared) when those are missing.
"""
from __future__ import annotations

import logging

from rules.carnival_zombie import AI, DEFAULT_HOUSE_RULES, ENGINE, load_pack_text

from cogs.host import systems

from .campaign import campaign_page
from .board import LIVE, NAME, REACT, TITLE, describe, image_words, render, show_board
from .commands import CarnivalZombieCog
from .pile import click, note_the_drop

__all__ = ["LIVE", "NAME", "REACT", "SYSTEM", "CarnivalZombieCog", "describe", "image_words", "render", "setup",
           "show_board"]

log = logging.getLogger("bauta.carnival_zombie")


async def after_publish(host, interaction, game, state, events) -> None:
    try:
        await note_the_drop(host, game, state)
    except Exception:  # noqa: BLE001 - without a note the click is timed by Discord's clock, or untimed
        log.exception("reaction note failed for game %s", game.id)
    try:
        await show_board(host, game, state, interaction=interaction)
    except Exception:  # noqa: BLE001 - an image must never break the game's flow
        log.exception("board update failed for game %s", game.id)


def load_pack(text: str, source: str):
    return load_pack_text(text, source)


SYSTEM = systems.register(systems.System(
    name=NAME, title=TITLE, engine=ENGINE, describe=describe, render=render,
    house_rules=dict(DEFAULT_HOUSE_RULES), load_pack=load_pack, after_publish=after_publish, click=click,
    ai=AI, campaign=campaign_page))



async def setup(bot):
    await bot.add_cog(CarnivalZombieCog(bot))
