"""The Carnival Zombie table as players read it: the game's text (`describe`), the Venice map
by Day and the one live Night board, with the words drawn in the reader's language."""
from __future__ import annotations

import asyncio
import io
import logging

import discord

from i18n import present, t
from i18n.present import Presenter
from renderers import carnival_zombie as R
from rules.carnival_zombie import (ENGINE)
from rules.common import GM, PUBLIC
from rules.common.packs import in_language

from cogs.host import mention

log = logging.getLogger("bauta.carnival_zombie")

NAME = ENGINE.system                      # "carnival_zombie"
TITLE = "Carnival Zombie 2nd Edition"
LIVE = "cz_live"                          # meta: the Night's live board {message, channel, night, version}
SHOWN = "cz_shown"                        # meta: the last Day board posted {step, move, message, channel}
REMINDED = "cz_reminded"                  # meta: the prompt id whose player was last reminded
SECRET_ACTOR = "secret"                   # the log's actor for a traitor's secret action
REACT = "cz_react"                        # meta: when the reaction-mode "Drop!" prompt appeared {prompt, at}
DIFFICULTIES = ("easy", "medium", "difficult")


def _clock_text(view: dict, locale=None) -> str:
    clock = view["clock"]
    phase = clock["phase"]
    if phase == "day":
        return t("carnival_zombie.clock_day", locale, hour=clock["hour"])
    if phase == "night":
        return t("carnival_zombie.clock_night", locale, hour=clock["hour"], hours=clock["night_hours"])
    return t(f"carnival_zombie.phase.{phase}", locale)


def _dir(d: str, locale=None) -> str:
    return t(f"carnival_zombie.dir.{d}", locale) if d in ("N", "E", "S", "W") else d


def _reader_locale(locale):
    """The reader's language: the one given, else that of the reader `/game status` and `/hand` set
    (`present.READER`), else English."""
    if locale is None and present.READER.get() is not None:
        return present.READER.get().language
    return locale


def describe(view: dict, viewer: str, locale=None) -> str:
    """The game as text for `/game status`, `/cz status` and `/hand`: only what `view` holds."""
    locale = _reader_locale(locale)
    view = in_language(view, present.language(locale))         # the pack's names, in the reader's language
    d = "carnival_zombie.describe."
    lines = [t(d + "header", locale, scenario=view["scenario_name"],
               difficulty=t(f"carnival_zombie.difficulty.{view['difficulty']}", locale),
               phase=t(f"carnival_zombie.phase.{view['phase']}", locale)),
             t(d + "clock", locale, ticket=view["calendar"]["ticket"],
               half=t(f"carnival_zombie.half.{view['calendar']['half']}", locale), clock=_clock_text(view, locale))]
    m = view["map"]
    names = {loc["id"]: loc["name"] for loc in m["locations"]}
    lines.append(t(d + "group", locale, loc=f"{m['group_at']} {names.get(m['group_at'], '')}".strip(),
                   sunken=", ".join(map(str, m["sunken"])) or "—"))
    if m.get("forced_dir"):
        lines.append(t(d + "forced", locale, dir=_dir(m["forced_dir"], locale)))
    lines.append(t(d + "characters", locale))
    for ch in sorted(view["characters"], key=lambda c: c["order"]):
        flags = "".join(" · " + t(d + flag, locale) for flag in ("terror", "paranoia", "incapacitated") if ch[flag])
        items = ", ".join(i["name"] for i in ch["items"])
        lines.append(t(d + "character", locale, order=ch["order"], first="★ " if ch["order"] == 1 else "",
                       name=ch["name"], who=mention(ch["player"]) if ch["player"] else t(d + "group_player", locale),
                       stress=ch["stress"], flags=flags,
                       refuge=t(d + "refuge", locale, pit=_dir(ch["refuge"], locale))
                       if view["night"] and ch["refuge"] else "",
                       items=t(d + "items", locale, items=items) if items else ""))
    if view["bosses"]:
        lines.append(t(d + "bosses", locale, bosses="; ".join(
            t(d + "boss", locale, name=b["name"], pos=b["pos"] or t(d + "off_map", locale), wounds=b["wounds"],
              life=b["life"])
            for b in view["bosses"])))
    st = view["storage"]
    lines.append(t(d + "storage", locale, barricades=st.get("#", 0), survivors=st.get("S", 0),
                   abyss=sum(view["abyss"].values()), pile=sum(view["pile"].values())))
    night = view["night"]
    if night:
        totals: dict[str, int] = {}
        for cubes in night["rings"].values():
            for code, n in cubes.items():
                totals[code] = totals.get(code, 0) + n
        barricades = sum(1 for box in night["boxes"].values() for x in box if x == "#")
        lines.append(t(d + "night", locale, hour=night["hour"], hours=view["clock"]["night_hours"],
                       rings=", ".join(f"{n} {code}" for code, n in sorted(totals.items())) or "—",
                       barricades=barricades))
        lines.append(t(d + "legend", locale))
    if "traitor" in view:
        sab = view.get("sabotage") or {}
        sabotage = (sab.get("cave") or t(d + ("sabotage_used" if sab.get("used_this_night") else "sabotage_ready"),
                                         locale)) if sab else "—"
        if viewer == view["traitor"] and not view["over"]:
            lines.append(t(d + "traitor_you", locale, sabotage=sabotage))
        elif viewer == GM and not view["over"]:
            lines.append(t(d + "traitor_gm", locale, player=mention(view["traitor"]), sabotage=sabotage))
        else:
            lines.append(t(d + "traitor_public", locale, player=mention(view["traitor"])))
    say = Presenter(locale, NAME)
    if view["over"]:
        lines.append(t(d + "over", locale, reason=ending(say, view)))
        if view.get("score"):
            lines.append(say.text("events.final_score", **view["score"]))
    for w in view["waiting_for"]:
        lines.append(t(d + "waiting", locale, player=mention(w["player"]),
                       text=say.text(f"prompts.{w['kind']}", **w.get("args", {}))[:300]))
    if view.get("provisional"):
        lines.append(t(d + "provisional", locale))
    return "\n".join(lines)


def ending(say: Presenter, view: dict) -> str:
    """Why the game ended, in the reader's words (older games stored an English sentence)."""
    reason = view.get("reason") or ""
    if " " in reason:
        return reason
    return say.text(f"events.over_{reason}", **(view.get("reason_args") or {}))


def render(view: dict) -> bytes:
    """The board of the moment: Venice by Day, the tactical map by Night, the strip below; its words
    those of the view, else of the reader `/game status` set (`present.READER`), else English."""
    say = present.READER.get()
    if "words" not in view and say is not None:
        view = {**in_language(view, say.language), "words": image_words(say, view)}
    return R.board(view)


def image_words(say: Presenter, view: dict) -> dict[str, str]:
    """The words the board shows, in the reader's language (the renderer draws them as given)."""
    w = "words.board_"
    words = {key: say.text(w + key, plain=True) for key in
             ("venice", "venice_provisional", "day", "paranoia", "incapacitated", "special")}
    words.update({f"cube_{code}": say.text(f"{w}cube_{name}", plain=True)
                  for code, name in (("S", "survivor"), ("P", "paranoia"), ("#", "barricade"))})
    st = view["storage"]
    words["storage"] = say.text(w + "storage", plain=True, barricades=st.get("#", 0), survivors=st.get("S", 0),
                                abyss=sum(view["abyss"].values()), pile=sum(view["pile"].values()))
    night = view.get("night")
    if night:
        ticket, hour = view["calendar"]["ticket"], night["hour"]
        parts = [say.text(w + ("dawn" if hour > view["clock"]["night_hours"] else "night"), plain=True,
                          night=ticket, hour=hour)]
        if night.get("finale"):
            parts.append(say.text(w + "finale", plain=True, finale_name=view["names"]["finales"].get(night["finale"],
                                                                                                    night["finale"])))
            if night["finale"] == "boat":
                parts.append(say.text(w + "hull", plain=True, hull=night["hull"]))
        if night.get("dawn_pit"):
            parts.append(say.text(w + "exit", plain=True, dir={"term": f"dir_{night['dawn_pit']}"}))
        words["banner"] = " · ".join(parts)
    if view["over"]:
        score = view.get("score") or {}
        words["result"] = ending(say, view) + (
            " · " + say.text(w + "score", plain=True, total=score["total"]) if "total" in score else "")
    return words


def _board_caption(view: dict, locale=None) -> str:
    params = {"ticket": view["calendar"]["ticket"], "clock": _clock_text(view, locale)}
    if view["over"]:
        return t("carnival_zombie.board_over", locale)
    if view["night"]:
        return t("carnival_zombie.board_night", locale, **params)
    return t("carnival_zombie.board_day", locale, **params)


def _file(png: bytes, game_id: int) -> discord.File:
    return discord.File(io.BytesIO(png), filename=f"cz-{game_id}-board.png")


def _night_key(view: dict) -> str:
    return f"{view['calendar']['ticket']}:{view['scenario']}"


async def show_board(host, game, state, *, force: bool = False, interaction=None) -> None:
    """Post or edit the board after a step. Night: one live message, edited; Day: a new image when
    the phase changes or a Group Movement decision is pending (with its route costs). In the
    server's language: `/gm language`, else the guild's own, which only an interaction tells."""
    view = ENGINE.view_for(state, PUBLIC)
    meta = (await host.store.game(game.id) or game).meta
    locale = await host.server_locale(game, interaction)
    say = host.presenter(game, locale)
    view = {**in_language(view, say.language), "words": image_words(say, view)}
    if view["night"] and not view["over"]:
        night = _night_key(view)
        live = meta.get(LIVE) or {}
        same_night = live.get("night") == night
        # `game.version` is the version `state` belongs to: an older step finishing late never
        # paints over a newer image.
        if not force and same_night and int(live.get("version", -1)) >= game.version:
            return
        png = await asyncio.to_thread(render, view)
        await host.live_message(game, LIVE, _board_caption(view, locale), file=_file(png, game.id),
                                new=not same_night, night=night, version=game.version)
        return
    step = f"{view['phase']}:{view['calendar']['ticket']}:{view['over']}"
    move = next((w["prompt"] for w in view["waiting_for"] if w["kind"] == "move"), "")
    shown = meta.get(SHOWN) or {}
    # A Night just ended (its live board is still recorded): the Day's first map is always posted.
    if not force and LIVE not in meta and shown.get("step") == step and (not move or shown.get("move") == move):
        return
    png = await asyncio.to_thread(render, view)
    fresh = await host.live_message(game, SHOWN, _board_caption(view, locale), file=_file(png, game.id), new=True,
                                    step=step, move=move)
    if LIVE in fresh.meta:
        await host.store.set_meta(fresh, {k: v for k, v in fresh.meta.items() if k != LIVE})


