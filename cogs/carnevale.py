"""/carnevale: d10 pools with the Destiny Die, squads, and games of Carnevale on a physical table.

The cog is thin: every rule is in `rules/carnevale` (the engine decides what is legal, rolls the
dice and writes the events); the cog maps slash commands and autocompletes to engine actions, keeps
squads per owner and guild, and keeps one live squad sheet image (`host.live_message`), redrawn in
place when the public sheet changes.

- `/carnevale roll|opposed|odds` need no game (a fresh `Rng` per roll, seeded with `secrets`).
- `/carnevale squad create|add|remove|show|list|delete`: squads saved with `store.save_character`,
  built from the SAMPLE pack or a guild pack imported with `/pack import`.
- `/carnevale-game start` and the turn commands (activate, ap, attack, shoot, cast, …); `/carnevale-table` for
  bookkeeping (damage, heal, stun, karma, command, morale, fall, status, event, objective, agenda).
  The framework turns the engine's prompts into buttons, so a game can also be played by clicking.
- `/carnevale-campaign …`: the campaign ledger (start, record, experience, bonus, injury, power, hostage,
  spend, upkeep, promote, retire, legacy, show). A game played with saved squads that have a ledger is
  recorded into both ledgers when it ends (`on_over`).
"""
from __future__ import annotations

import asyncio
import copy
import hashlib
import io
import json

import discord

import content
from i18n import present, t
from i18n.present import Presenter
from renderers.carnevale import english, game_sheet, presenter_words
from rules.carnevale import BLACK_STATUE, DEFAULT_HOUSE_RULES, ENGINE, CampaignRecord, ledger, load_pack_text
from rules.carnevale import campaign as C
from rules.common import PUBLIC

from . import systems
from .carnevale_base import SYSTEM_NAME, campaign, carnevale, game, table
from .carnevale_campaign import CarnevaleCampaign, member_genders
from .carnevale_game import CarnevaleGame
from .carnevale_squads import CarnevaleSquads
from .framework import chunks, mention

SHEET_KEY = "live_sheet"                     # game meta: the live sheet's message and digest
SHEET_KEYS_IGNORED = ("ap", "active")        # AP moves with every click: the sheet is redrawn for the rest


# ============================================================================ the System
STATUS_FLAGS = ("fallen", "stunned", "activated", "at_ready", "hidden", "fleeing", "drowning", "in_water", "petrified",
                "immobilised")


def _agreeing(m: dict, locale=None):
    """A model's name as `t()`'s parameter: Italian and Spanish words agree with it as with its
    profile (a Harlot the player named "Lucrezia" is "caduta" too)."""
    return Presenter(locale, SYSTEM_NAME).agreeing(m.get("name", ""), like=m.get("profile") or None)


def _status_words(m: dict, locale=None) -> list[str]:
    name = _agreeing(m, locale)
    words = [t(f"carnevale.describe.{key}", locale, name=name) for key in STATUS_FLAGS
             if m.get(key) and not (key == "activated" and m.get("fallen"))]
    if not m.get("on_table", True) and not m.get("fallen"):
        words.append(t("carnevale.describe.in_reserve", locale))
    return words


def describe(view: dict, viewer: str, locale=None) -> str:
    """The game (or a squad) as text for /game status and /hand: only what `view` holds, in `locale`,
    else in the language of the reader /game status or /hand set (`present.READER`), else English."""
    if locale is None and present.READER.get() is not None:
        locale = present.READER.get().language
    say = Presenter(locale, SYSTEM_NAME)
    lines = []
    if "phase" in view:
        turn = t("carnevale.describe.turn", locale, who=mention(view["turn_player"])) if view.get("turn_player") \
            and view["phase"] == "activation" else ""
        if view.get("active"):
            active = next((m for m in view["models"] if m["uid"] == view["active"]), {"name": view["active"]})
            turn += t("carnevale.describe.active", locale, name=_agreeing(active, locale), model=view["active"])
        lines.append(t("carnevale.describe.round", locale, round=view["round"], max_rounds=view["max_rounds"],
                       phase=t(f"carnevale.describe.phase_{view['phase']}", locale), turn=turn))
    for pid, p in view.get("players", {}).items():
        lines.append(t("carnevale.describe.player", locale, name=p.get("name", pid),
                       squad=say.value(p.get("squad", ""), plain=True),
                       faction=p.get("faction", ""), vp=p.get("vp", 0), events=p.get("events_left", 0)))
        agenda = p.get("agenda")
        if agenda:
            lines.append(t("carnevale.describe.agenda", locale, name=say.value(agenda["name"], plain=True),
                           condition=say.value(agenda["condition"], plain=True), vp=agenda["vp"]))
        for m in view["models"]:
            if m["owner"] != pid and len(view.get("players", {})) > 1:
                continue
            pain = t("carnevale.describe.pain", locale, pain=m["pain_penalty"]) if m.get("pain_penalty") else ""
            command = t("carnevale.describe.command", locale, command=m["command"], command_max=m["command_max"]) \
                if m.get("command_max") else ""
            status = _status_words(m, locale)
            lines.append(t("carnevale.describe.model", locale, uid=m["uid"], name=m["name"],
                           leader=" ★" if m.get("leader") else "", left=m["life_left"], life=m["life"], pain=pain,
                           ap=m["ap"], ap_max=m["ap_max"], karma=m["karma"], karma_max=m["karma_max"],
                           command=command, status=(" · " + ", ".join(status)) if status else ""))
            if m.get("magic_item") and m["magic_item"] != "hidden":
                lines.append(t("carnevale.describe.magic", locale, name=m["name"], item=m["magic_item"]))
    if view.get("over"):
        vp = (view.get("result") or {}).get("vp", {})
        result = "; ".join(f"{view['players'][pid]['name']} {r['total']} VP" for pid, r in vp.items())
        lines.append(t("carnevale.describe.over", locale, result=result))
    return "\n".join(lines)


def render(view: dict) -> bytes:
    """The game sheet in the words of the reader `/game status` set (`present.READER`), else English."""
    say = present.READER.get()
    return game_sheet(view, presenter_words(say) if say is not None else english)


def load_pack(text: str, source: str) -> dict:
    """A guild pack (`/pack import`, parsed in a child process): the tables it lacks come from the sample."""
    return load_pack_text(text, source, content.sample_pack(SYSTEM_NAME)).doc


def sheet_digest(view: dict) -> str:
    models = [{k: v for k, v in m.items() if k not in SHEET_KEYS_IGNORED} for m in view["models"]]
    payload = {"round": view.get("round"), "models": models, "over": view.get("over")}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]


async def post_sheet(host, game, state, new: bool = False, interaction=None) -> None:
    """The public squad sheet, one live message edited in place when the sheet changes (its digest
    is kept with it in the game's meta); `new` posts it again at the foot of the channel."""
    view = ENGINE.view_for(state, PUBLIC)
    digest = sheet_digest(view)
    fresh = await host.store.game(game.id) or game
    if not new and (fresh.meta.get(SHEET_KEY) or {}).get("digest") == digest:
        return
    locale = await host.server_locale(game, interaction)    # a public message: the channel's language
    png = await asyncio.to_thread(game_sheet, view, presenter_words(host.presenter(fresh, locale)))
    caption = t("carnevale.game.sheet", locale, round=view["round"], max_rounds=view["max_rounds"])
    await host.live_message(fresh, SHEET_KEY, caption, new=new, digest=digest,
                            file=discord.File(io.BytesIO(png), filename=f"carnevale-{game.id}-sheet.png"))


async def after_publish(host, interaction, game, state, events) -> None:
    await post_sheet(host, game, state, interaction=interaction)


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


async def on_over(host, interaction, game, state) -> None:
    """The adventure is over: the score, and the result written into both squads' campaign ledgers."""
    vp = (state.result or {}).get("vp", {})
    if not vp:
        return
    locale = await host.server_locale(game, interaction)
    scores = ", ".join(t("carnevale.game.score", locale, player=mention(pid), vp=r["total"]) for pid, r in vp.items())
    lines = [t("carnevale.game.over_campaign", locale, scores=scores)]
    lines += await record_result(host.store, game.guild_id, state, locale)
    for part in chunks(lines):
        await host.courier.send_channel(game.channel_id, part)


SYSTEM = systems.register(systems.System(
    name=SYSTEM_NAME, title="Carnevale", engine=ENGINE, describe=describe, render=render,
    house_rules=dict(DEFAULT_HOUSE_RULES), load_pack=load_pack, after_publish=after_publish,
    on_over=on_over))


# ============================================================================ the cog
class CarnevaleCog(CarnevaleSquads, CarnevaleGame, CarnevaleCampaign):
    """`/carnevale` (rolls and squads), `/carnevale-game`, `/carnevale-table` and `/carnevale-campaign`."""

    carnevale = carnevale
    game = game
    table = table
    campaign = campaign


async def setup(bot):
    await bot.add_cog(CarnevaleCog(bot))
