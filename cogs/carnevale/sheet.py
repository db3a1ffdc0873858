"""The Carnevale table as players read it: the game's text (`describe`), the squad sheet image
and the one live sheet message kept in the channel (`post_sheet`, after every step)."""
from __future__ import annotations

import asyncio
import hashlib
import io
import json

import discord

import content
from i18n import present, t
from i18n.present import Presenter
from renderers.carnevale import english, game_sheet, presenter_words
from rules.carnevale import ENGINE, load_pack_text
from rules.common import PUBLIC

from cogs.host import mention

from .base import SYSTEM_NAME

SHEET_KEY = "live_sheet"                     # game meta: the live sheet's message and digest
SHEET_KEYS_IGNORED = ("ap", "active")        # AP moves with every click: the sheet is redrawn for the rest


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


