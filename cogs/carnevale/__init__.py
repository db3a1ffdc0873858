"""/carnevale: d10 pools with the Destiny Die, squads, and games of Carnevale on a physical table.

The cog is thin: every rule is in `rules/carnevale` (the engine decides what is legal, rolls the
dice and writes the events); the cog maps slash commands and autocompletes to engine actions, keeps
squads per owner and guild, and keeps one live squad sheet image (`host.live_message`), redrawn in
place when the public sheet changes.

- `/carnevale roll|opposed|odds` need no game (a fresh `Rng` per roll, seeded with `secrets`).
- `/carnevale squad create|add|remove|show|list|delete`: squads saved with `store.save_character`,
  built from the SAMPLE pack or a guild pack imported with `/pack import`.
- `/carnevale-game start` and the turn commands (activate, ap, attack, shoot, cast, …: `game.py`);
  `/carnevale-table` for bookkeeping (`table.py`) (damage, heal, stun, karma, command, morale, fall, status, event, objective, agenda).
  The framework turns the engine's prompts into buttons, so a game can also be played by clicking.
- `/carnevale-campaign …`: the campaign ledger (start, record, experience, bonus, injury, power, hostage,
  spend, upkeep, promote, retire, legacy, show). A game played with saved squads that have a ledger is
  recorded into both ledgers when it ends (`on_over`).
"""
from __future__ import annotations

import copy

from i18n import t
from i18n.present import Presenter
from rules.carnevale import BLACK_STATUE, DEFAULT_HOUSE_RULES, ENGINE, AI, CampaignRecord, ledger
from rules.carnevale import campaign as C

from cogs.host import mention, systems

from . import base
from .base import SYSTEM_NAME
from .campaign import CarnevaleCampaign, campaign_page, member_genders
from .game import CarnevaleGame
from .sheet import _status_words, after_publish, describe, load_pack, post_sheet, render
from .squads import CarnevaleSquads
from .table import CarnevaleTable

__all__ = ["SYSTEM", "CarnevaleCog", "_status_words", "describe", "post_sheet", "render", "setup"]


def adventure_title(state) -> str:
    return next((a["name"] for a in BLACK_STATUE if a["id"] == state.adventure), state.adventure or "")


async def record_result(store, guild_id: int, state, locale=None) -> list[str]:
    """Write a finished game into the campaign ledger of each squad that has one (the squad of the
    same name saved by the player): VP, the win and Campaign Points, and who fell (only they roll on
    the Fallen table). Returns one line per ledger, in `locale`."""
    vp = (state.result or {}).get("vp", {})
    lines = []
    for pid in state.seats:
        if pid not in vp or not str(pid).isdigit():
            continue
        name = state.players[pid].squad
        if not name:                # a squad the rules built (sample, the bot's): no saved squad, no ledger
            continue
        models = [(m.name, m.fallen) for m in state.models.values() if m.owner == pid]
        # compare-and-set: a ledger command saved meanwhile means reading the ledger again and
        # recording onto it (nobody waits on this write to be told "try again")
        for _attempt in range(3):
            data = await store.character(guild_id, int(pid), SYSTEM_NAME, name)
            if not data or not data.get("campaign"):
                break
            rec = CampaignRecord.from_dict(copy.deepcopy(data["campaign"]))
            events = ledger.apply(rec, ledger.RecordAdventure(adventure_title(state), int(vp[pid]["total"]),
                                                              state.winner == pid,
                                                              fallen=tuple(C.fallen_in_game(rec, models))))
            if await store.replace_character(guild_id, int(pid), SYSTEM_NAME, name, data,
                                             {**data, "campaign": rec.to_dict()}):
                say = Presenter(locale, SYSTEM_NAME, genders=member_genders(rec, data))
                lines.append(t("carnevale.game.recorded", locale, who=mention(pid), squad=name,
                               line=say.event(events[0])))
                break
    return lines


async def on_over(host, interaction, game, state) -> list[str]:
    """The adventure is over: the score, and the result written into both squads' campaign ledgers
    (the lines saying so go with the game's chronicle)."""
    vp = (state.result or {}).get("vp", {})
    if not vp:
        return []
    locale = await host.server_locale(game, interaction)
    scores = ", ".join(t("carnevale.game.score", locale, player=mention(pid), vp=r["total"]) for pid, r in vp.items())
    return [t("carnevale.game.over_campaign", locale, scores=scores),
            *await record_result(host.store, game.guild_id, state, locale)]


SYSTEM = systems.register(systems.System(
    name=SYSTEM_NAME, title="Carnevale", engine=ENGINE, describe=describe, render=render,
    house_rules=dict(DEFAULT_HOUSE_RULES), load_pack=load_pack, after_publish=after_publish,
    on_over=on_over, ai=AI, bot_seats=True, campaign=campaign_page))


# ============================================================================ the cog
class CarnevaleCog(CarnevaleSquads, CarnevaleGame, CarnevaleTable, CarnevaleCampaign):
    """`/carnevale` (rolls and squads), `/carnevale-game`, `/carnevale-table` and `/carnevale-campaign`."""

    # the groups by their module: the package's names `game`, `table` and `campaign` are its
    # submodules once they are imported
    carnevale = base.carnevale
    game = base.game
    table = base.table
    campaign = base.campaign


async def setup(bot):
    await bot.add_cog(CarnevaleCog(bot))
