"""/klash: Klash! Sangue & Sabbia on Discord — the Gladiator Auction, team building and the arena match.

Thin on purpose: the rules live in `rules/klash/`, the images in `renderers/klash.py`, what the
table shows (status text, live boards, hand pictures) in `board.py`, typed input is read in
`input.py`, the commands are in `draft.py` and `match.py` (over `common.py`), and every
decision is one of the engine's prompts, which the framework turns into buttons or a select for the
player who owns it (only they may click; a stale click gets an ephemeral answer). This cog adds:

- `/klash draft opponent [pack]`: opens the game (the auction). Each pick prompt is ONE message: the
  **draft table** image (the revealed cards, who picks, both players' picks so far, drawn from the
  public view by `prompt_image`) with a button per card. When the auction ends, the final table is
  posted once (its id is kept in the game's `meta`).
- `/klash team [cards]`: the team select is posted by the framework; the command shows your 12 cards
  and takes a typed choice too. The engine checks the requirements and posts the team VP.
- `/klash match`: the arena, the state and the pending decision again (also the way to resume a
  paused match). During deployment and the match the **arena image** is one live message per
  activation: posted when a model activates (with its range rings) and edited after every action,
  so after every activation the channel shows the arena as it ended.
- Typed actions with autocompletion for models, targets, spells and Event Cards: `deploy`,
  `activate`, `move`, `disengage`, `assault`, `volley`, `charge`, `magic`, `recover`, `token`,
  `end`, `event`, `pass`. Positions are `x y` in cm, or `toward` a model / the Altar / a Gate
  (with an optional `distance`), or a `distance` and a `direction`. An action typed for a Ready model
  when nothing is active activates it first (a separate engine action, so undo steps stay small).
- Event Card hands: the engine's private prompts give a button per playable card by DM, with the
  `hand_png` image of that player's own hand in the same message (`prompt_image`, the player's view;
  also on the answer and Final Phase swap prompts). When a hand changes and no hand prompt is up (no
  card playable now), the hand image goes in the DM of the draw that changed it (`news_image`), or
  alone when the change was public (a card played).

Every command that acts is acknowledged privately by the host (`host.begin`): its public result is
posted to the channel, and a refusal (a card not in your hand, a model not yours) is seen only by
its sender. The live boards are `host.live_message`s.

Everything is one engine action per click or command, committed before anything is posted, so a
match pauses anywhere and resumes with `/klash match`; `/game undo` takes back any action.
"""
from __future__ import annotations

from rules.klash import AI, ENGINE, HOUSE_RULES

from cogs.host import systems

from . import common
from .board import NAME, TITLE, _names, after_publish, attach, describe, load_pack, news_image, prompt_image, public_view, render
from .draft import KlashDraft
from .match import KlashMatch

__all__ = ["SYSTEM", "KlashCog", "_names", "describe", "public_view", "render", "setup"]

SYSTEM = systems.register(systems.System(
    name=NAME, title=TITLE, engine=ENGINE, describe=describe, render=render, house_rules=dict(HOUSE_RULES),
    load_pack=load_pack, after_publish=after_publish, prompt_image=prompt_image, news_image=news_image,
    ai=AI, bot_seats=True))


class KlashCog(KlashMatch, KlashDraft):
    """`/klash`: the auction and team (draft.py) and the arena (match.py), in one command group."""

    klash = common.klash


async def setup(bot):
    attach(bot)
    await bot.add_cog(KlashCog(bot))
