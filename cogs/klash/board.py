"""Klash!'s table on Discord: what the players see of a game — `/game status`'s text and picture,
the live auction table and arena, the hand pictures by DM — each from the viewer's own view and in
the reader's language. The commands are in `cogs/klash.py`; typed input is read in `klash_input.py`."""
from __future__ import annotations

import asyncio
import io
import logging
from types import SimpleNamespace
from typing import Any

import discord

from i18n import present, t
from i18n.present import Presenter
from renderers import klash as R
from rules.common import GM, PUBLIC
from rules.klash import ENGINE, load_pack_text

from cogs.host import mention

log = logging.getLogger("bauta.klash")

NAME = ENGINE.system                 # "klash"
TITLE = "Klash! Sangue & Sabbia"
DRAFT = "klash_draft"                # meta: {message, channel, round}
ARENA = "klash_arena"                # meta: {message, channel, n}
HAND_KINDS = ("event_card", "event_played", "event_swap", "undo")


# ============================================================================ text
def _clean(name: str) -> str:
    return name.replace("SAMPLE ", "")


def _card_name(card: dict, lang: str) -> str:
    """A pack card's name in the reader's language when the pack gives one (else its English)."""
    return _clean((card.get("names") or {}).get(lang) or card["name"])


def _vp(view: dict) -> str:
    return " – ".join(f"{mention(p)} {view['match']['vp'].get(p, 0)}" for p in view["seats"])


def _stage(view: dict, locale=None) -> str:
    if view["phase"] == "deploy":
        return t("klash.stage_deploy", locale)
    stage = view["match"].get("stage") or ""
    return t(f"klash.stage_{stage}", locale) if stage in ("initiative", "action", "final") else view["phase"]


def describe(view: dict, viewer: str) -> str:
    """The game as text for `/game status`, `/klash match` and `/hand`: only what `view` holds, in the
    language of its reader (``present.READER``, set by the caller; English when unset)."""
    d = "klash.describe."
    say = present.READER.get() or Presenter(None, game=NAME)
    locale = say.language
    cards = view["cards"]

    def card(cid: str) -> str:
        return _card_name(cards[cid], locale)

    def term(key: str) -> str:
        return say.text(f"terms.{key}", plain=True)

    pack = view["pack"]["name"] + (" (SAMPLE)" if view["pack"].get("sample") else "")
    lines = [t(d + "header", locale, phase=t(d + "phase_" + view["phase"], locale), pack=pack, a=mention(view["player_a"]), b=mention(view["player_b"]))]
    draft = view["draft"]
    if view["phase"] == "draft":
        lines.append(t(d + "draft", locale, round=draft["round"], picker=mention(draft["picker"]), deck=draft["deck_left"],
                       discarded=len(draft["discarded"])))
        lines.append(t(d + "revealed", locale, cards=", ".join(f"{i + 1}. {card(c)}"
                                                       for i, c in enumerate(draft["revealed"]))))
    if view["phase"] in ("draft", "team"):
        for p in view["seats"]:
            picks = draft["picks"][p]
            lines.append(t(d + "picks", locale, player=mention(p), n=len(picks),
                           cards=", ".join(f"{i + 1}. {card(c)}" for i, c in enumerate(picks)) or "—"))
        for p, chosen in view["team"]["chosen"].items():
            team = chosen if isinstance(chosen, str) else ", ".join(
                card(draft["picks"][p][i]) for i in chosen)
            lines.append(t(d + "team", locale, player=mention(p), team=team))
    if view["team"]["team_vp"]:
        lines.append(t(d + "team_vp", locale, vp=", ".join(f"{mention(p)} {v}" for p, v in view["team"]["team_vp"].items())))
    if view["phase"] in ("deploy", "match", "over"):
        m = view["match"]
        lines.append(t(d + "match", locale, hourglass=m["hourglass"], stage=_stage(view, locale), turn=mention(m["turn_player"]) if
                       m["turn_player"] else "—", vp=_vp(view),
                       tokens=", ".join(f"{mention(p)} {m['tokens'].get(p, 0)}" for p in view["seats"]),
                       hands=", ".join(f"{mention(p)} {view['event_deck']['hand_sizes'].get(p, 0)}"
                                       for p in view["seats"])))
        for p in view["seats"]:
            lines.append(f"**{mention(p)}**")
            for model in view["models"]:
                if model["owner"] != p:
                    continue
                flags = []
                if model["removed"]:
                    flags.append(term(model["removed"]))
                elif not model["placed"]:
                    flags.append(t(d + "not_deployed", locale))
                else:
                    flags += ([term("stunned")] if model["stunned"] else []) + \
                        ([t(d + "activated", locale)] if model["activated"] else [])
                lines.append(t(d + "model", locale, id=model["id"], name=R.model_name(model["name"], say), x=f"{model['x']:.1f}",
                               y=f"{model['y']:.1f}", flags=(" — " + ", ".join(flags)) if flags else ""))
    if view["result"]["over"]:
        lines.append(t(d + "over", locale, winner=mention(view["result"]["winner"]),
                       result=term("result_" + view["result"]["result"]) if view["result"]["result"] else "—", vp=_vp(view)))
    if viewer == GM and view.get("hands"):
        lines.append(t(d + "hands", locale, hands="; ".join(
            f"{mention(p)}: " + (", ".join(hand) or "—")
            for p, hand in view["hands"].items())))
    if viewer not in (PUBLIC, GM) and view.get("hand") is not None:
        lines.append(t(d + "hand", locale, cards=", ".join(f"{i + 1}. {_card_name(c, locale)} ({(c.get('texts') or {}).get(locale) or c.get('text', '')})"
                                                   for i, c in enumerate(view["hand"])) or "—"))
    return "\n".join(lines)


_BOT: Any = None   # set by `attach` (the cog's setup): lets /game status images show player names


def attach(bot) -> None:
    global _BOT
    _BOT = bot


def render(view: dict) -> bytes:
    """The picture of the moment: the auction table until the teams are chosen, then the arena."""
    if _BOT is not None and "names" not in view:
        view = {**view, "names": _names(SimpleNamespace(bot=_BOT), view["seats"])}
    say = present.READER.get()    # None for /game status: English words
    if view["phase"] in ("draft", "team"):
        return R.draft_png(view, say)
    return R.arena_png(view, say=say)


def load_pack(text: str, source: str):
    return load_pack_text(text, source)


# ============================================================================ images and live boards
def _names(host, seats, known: dict | None = None) -> dict[str, str]:
    """Display names for the pictures: the ones the table remembered (`game.meta["names"]`), else
    the client's cache, else "Player A"/"Player B" -- never a raw id (without the members intent
    `get_user` usually misses on real Discord)."""
    names = {}
    for i, seat in enumerate(seats):
        user = host.bot.get_user(int(seat)) if seat.isdigit() and not (known or {}).get(seat) else None
        names[seat] = ((known or {}).get(seat) or getattr(user, "display_name", None) or getattr(user, "name", None)
                       or (seat if not seat.isdigit() else f"Player {'AB'[i] if i < 2 else i + 1}"))
    return names


def public_view(host, state, known: dict | None = None) -> dict:
    view = ENGINE.view_for(state, PUBLIC)
    view["names"] = _names(host, state.seats, known)
    return view


def _file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)


def _draft_caption(view: dict, locale=None) -> str:
    draft = view["draft"]
    picking = (t("klash.draft_picking", locale, player=mention(draft["picker"])) if draft["picker"]
               else t("klash.draft_over", locale))
    return t("klash.draft_caption", locale, round=draft["round"], a=mention(view["player_a"]),
             b=mention(view["player_b"]), picking=picking)


def _arena_caption(view: dict, locale=None) -> str:
    if view["result"]["over"]:
        return t("klash.arena_over", locale, vp=_vp(view))
    return t("klash.arena_caption", locale, hourglass=view["match"]["hourglass"], stage=_stage(view, locale),
             vp=_vp(view))


def prompt_image(view: dict, prompt) -> tuple[str, bytes] | None:
    """The picture that goes with a prompt's buttons, from its recipient's own view: the auction table
    (the revealed cards and both players' picks so far) with the pick buttons; the player's own Event
    Card hand with the private hand, answer and Final Phase swap buttons."""
    say = present.READER.get()    # the prompt's reader: the words drawn in their language
    if prompt.kind == "pick":
        if _BOT is not None and "names" not in view:
            view = {**view, "names": _names(SimpleNamespace(bot=_BOT), view["seats"])}
        return "klash-draft.png", R.draft_png(view, say)
    if prompt.private and prompt.kind in ("hand", "respond", "swap") and "hand" in view:
        return "klash-hand.png", R.hand_png(view, say)
    return None


def _draws(events) -> bool:
    """A private Event Card event (a draw) changes its reader's hand."""
    return any(e.kind == "event_card" for e in events)


def news_image(view: dict, events: list) -> tuple[str, bytes] | None:
    """The player's own hand, in the same DM as the draw that changed it (one DM, not two)."""
    if _draws(events) and "hand" in view:
        return "klash-hand.png", R.hand_png(view, present.READER.get())
    return None


async def show_board(host, game, state, *, new: bool = False) -> None:
    """Post or edit the arena (deployment and match). During the auction the table goes with the pick
    buttons (``prompt_image``); when it ends the final table (both players' 12 picks) is posted once."""
    view = public_view(host, state, game.meta.get("names"))
    if state.phase == "draft":
        return
    locale = await host.server_locale(game, None)
    say = host.presenter(game, locale)
    if state.phase == "team":
        live = (await host.store.game(game.id) or game).meta.get(DRAFT) or {}
        if live.get("done") and not new:
            return
        png = await asyncio.to_thread(R.draft_png, view, say)
        await host.live_message(game, DRAFT, _draft_caption(view, locale), file=_file(png, f"klash-{game.id}-draft.png"),
                                new=True,
                                round=state.draft_round, done=state.phase == "team")
    else:
        png = await asyncio.to_thread(R.arena_png, view, None, say)
        await host.live_message(game, ARENA, _arena_caption(view, locale), file=_file(png, f"klash-{game.id}-arena.png"),
                                new=new)


async def send_hand(host, game, state, player: str) -> bool:
    """DM a player the image of their own Event Card hand (their view only)."""
    if not player.isdigit():
        return False
    view = ENGINE.view_for(state, player)
    view["names"] = _names(host, state.seats, game.meta.get("names"))
    own = host.reader(game, player, await host.server_locale(game, None))
    png = await asyncio.to_thread(R.hand_png, view, own)
    key = "klash.hand_caption" if view.get("hand") else "klash.hand_empty"
    locale = own.language
    return await host.courier.send_dm(game.guild_id, int(player), t(key, locale, id=game.id, n=len(view.get("hand") or [])),
                                      file=_file(png, f"klash-{game.id}-hand.png"))


def _hands_changed(state, events) -> set[str]:
    changed: set[str] = set()
    for e in events:
        if e.kind == "undo" and state.phase == "match":
            changed |= set(state.seats)
        elif e.kind == "event_card" and e.audience in state.seats:
            changed.add(e.audience)
        elif e.kind in ("event_played", "event_played_on", "event_swap") and e.audience == PUBLIC:
            changed.add(e.data.get("player", ""))
    return {p for p in changed if p in state.seats}


async def after_publish(host, interaction, game, state, events) -> None:
    if not events:
        return   # a re-post of the prompts (/game status): nothing changed
    try:
        # A new arena when deployment begins (the auction's final table stays above it as a record);
        # afterwards the one table message is edited, and moved to the foot of the channel by the host.
        new = any(e.kind == "teams" for e in events)
        await show_board(host, game, state, new=new)
    except Exception:  # noqa: BLE001 - an image must never break the game's flow
        log.exception("board update failed for game %s", game.id)
    pending = ENGINE.pending(state)
    holding = {p.player for p in pending if p.private and p.kind == "hand"}   # the hand buttons carry the image
    asked = {p.player for p in pending if p.private}
    # a draw's own DM carried the hand (`news_image`) when no decision of theirs went with it
    drew = {e.audience for e in events if e.kind == "event_card"} - asked
    for player in sorted(_hands_changed(state, events) - holding - drew):
        try:
            await send_hand(host, game, state, player)
        except Exception:  # noqa: BLE001
            log.exception("hand image failed for game %s", game.id)
