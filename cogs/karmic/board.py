"""The Karmic table as text and pictures: `describe` (for `/game status`, `/hand` and the board's
caption), the live combat board (one message per round, `host.live_message`) and the hand picture
that rides on a player's private decision. Words from the catalogues, in the reader's language."""
from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from i18n import t
from i18n import present
from i18n.present import Presenter
from renderers import karmic as R
from rules.common import GM, PUBLIC
from rules.common.packs import in_language
from rules.karmic import (ATTRIBUTES, ENGINE, load_pack_text)

from cogs.host import MESSAGE_LIMIT, chunks, echo
from .common import (card_words, skill_name, LIVE, NAME, _who)


def _describe_combat(view: dict, viewer: str, say: Presenter) -> list[str]:
    d = "karmic.describe."
    locale = say.language
    cb = view["combat"]
    players = {c["key"]: c.get("player") for c in view["characters"]}
    names = {c["key"]: c["name"] for c in view["characters"]}
    lines = [t(d + "combat_header", locale, round=cb["round"], register=cb["register"], phase=say.text(f"terms.phase.{view['phase']}"))]
    holders = {e["initiative"] for e in cb["engagements"] if e["live"]}
    for f in cb["fighters"]:
        flags = []
        if f["key"] in holders:
            flags.append("★")
        if f.get("prone"):
            flags.append(t(d + "prone", locale))
        if f.get("out"):
            flags.append(t(d + "out", locale))
        left = "∞" if f["maneuvers_left"] is None else str(f["maneuvers_left"])
        lines.append(t(d + "fighter", locale, name=f["name"], who=_who(players.get(f["key"])), hp=f["hp_marked"],
                       hp_max=f["hp_max"], cards=f["hand_count"], left=left, flags=" ".join(flags)))
        if "hand" in f:
            lines.append(t(d + "your_hand", locale, cards=card_words(say, f["hand"]) or "—"))
        if f.get("initiative_hand"):
            lines.append(t(d + "your_initiative", locale,
                           cards=card_words(say, f["initiative_hand"])))
    for e in cb["engagements"]:
        if e["live"]:
            lines.append(t(d + "engagement", locale, a=names.get(e["a"], e["a"]), b=names.get(e["b"], e["b"]),
                           range=say.text("terms.{term}".format(**e["range_text"]), **e["range_text"]),
                           holder=names.get(e["initiative"], "—")))
    for r in cb["registers"]:
        for decl in r["decls"]:
            if decl.get("revealed"):
                card = card_words(say, [decl["card"]] + list(decl.get("chain") or []), " + ")
            elif "card" in decl:
                card = t(d + "face_down_yours", locale, card=card_words(say, [decl["card"]]))
            else:
                card = t(d + "face_down", locale)
            target = f" → {names.get(decl['target'], decl['target'])}" if decl.get("target") else ""
            lines.append(t(d + "declaration", locale, n=r["n"], name=decl["name"],
                           maneuver=say.text(f"terms.maneuver.{decl['maneuver_id']}"), target=target, card=card))
    if view["over"]:
        ended = cb.get("ended") or ""
        lines.append(t(d + "combat_over", locale, reason="" if ended.startswith("~") else echo(ended, limit=300)))
    return lines


def _describe_check(view: dict, viewer: str, say: Presenter) -> list[str]:
    d = "karmic.describe."
    locale = say.language
    check = view["check"]
    label = check.get("weapon") or check["label"]
    if label in ATTRIBUTES:
        label = say.text(f"terms.attribute.{label}")
    elif label == "check":                       # neither a skill nor an attribute
        label = say.text("terms.no_skill")
    elif not check.get("weapon"):
        label = skill_name(say, label)
    lines = [t(d + "check_header", locale, label=label, difficulty=f"{check['difficulty']:+d}")]
    for s in check["sides"]:
        what = " + ".join([skill_name(say, s["skill"])] * bool(s["skill"]) +
                          [say.text(f"terms.attribute.{s['attribute']}")] * bool(s["attribute"])) or "—"
        lines.append(t(d + "side", locale, name=s["name"], what=what, cards=s["cards_drawn"],
                       modifier=f"{s['modifier']:+d}",
                       played=t(d + ("played" if s["played"] else "not_played"), locale)))
        if "hand" in s:
            lines.append(t(d + "your_hand", locale, cards=card_words(say, s["hand"]) or "—"))
        if "hidden_modifier" in s and s["hidden_modifier"]:
            lines.append(t(d + "hidden_modifier", locale, value=f"{s['hidden_modifier']:+d}"))
        if "card" in s:
            lines.append(t(d + "card", locale,
                           cards=card_words(say, [s["card"]] + list(s.get("chain") or []), " + ")))
    result = check.get("result")
    if result:
        lines.append(t(d + "result", locale, verdict=t(d + ("success" if result["success"] else "failure"), locale),
                       margin=f" ({result['margin']:+d})" if result.get("margin") is not None else ""))
    return lines


def describe(view: dict, viewer: str, locale: Any = None) -> str:
    """The game as text for `/game status` and `/hand`: only what `view` holds, in `locale` (else
    the language of the reader the framework is wording for, else English)."""
    say = Presenter(locale, NAME) if locale is not None else (present.READER.get() or Presenter(None, NAME))
    view = in_language(view, say.language)          # the pack's names (an NPC's, a weapon's) for this reader
    lines: list[str] = []
    if view.get("mode") == "combat" and view.get("combat"):
        lines += _describe_combat(view, viewer, say)
    elif view.get("check"):
        lines += _describe_check(view, viewer, say)
    if viewer == GM and "world_deck" in view:
        lines.append(t("karmic.describe.world_deck", say.language, deck=view["world_deck"]["deck"],
                       discards=view["world_deck"]["discards"]))
    for who in view.get("waiting_for") or []:
        lines.append(t("karmic.describe.waiting", say.language, who=_who(who)))
    return "\n".join(lines)


def render(view: dict) -> bytes:
    """The register track of a combat (PUBLIC view for `/game status`); checks have no board."""
    if view.get("mode") == "combat" and view.get("combat"):
        return R.register_track(view, present.READER.get())
    return b""


def load_pack(text: str, source: str):
    return load_pack_text(text, source)


# ============================================================================ live board and DMs
def _board_file(png: bytes, game_id: int, round_: int) -> discord.File:
    # numbers only: a file name is shown as is, in no reader's language
    return discord.File(io.BytesIO(png), filename=f"karmic-{game_id}-{round_}.png")


def board_text(view: dict, *, final: bool = False, locale: Any = None) -> str:
    head = t("karmic.board_final" if final else "karmic.board", locale, round=view["combat"]["round"])
    return (chunks([head, describe(view, PUBLIC, locale)]) or [head])[0][:MESSAGE_LIMIT]


async def show_board(host, game, state, events, *, force_new: bool = False) -> None:
    """One live board per round (`host.live_message`): edited after every step, closed with the
    round's public snapshot when the round ends; the next round gets a new message."""
    if state.mode != "combat" or state.combat is None:
        return
    fresh = await host.store.game(game.id) or game
    live = fresh.meta.get(LIVE) or {}
    locale = await host.server_locale(fresh, None)
    say = host.presenter(fresh, locale)
    ends = [e for e in events if e.kind == "round_end" and e.audience == PUBLIC]
    if ends and live.get("message") and not live.get("closed") and not force_new:
        # close the finished round's board with its public snapshot (every register revealed)
        track = ends[-1].data.get("track") or {}
        snap_view = {**ENGINE.view_for(state, PUBLIC), "combat": track, "waiting_for": [],
                     "phase": "round_over"}
        png = await asyncio.to_thread(R.register_track, snap_view, say)
        fresh = await host.live_message(fresh, LIVE, board_text(snap_view, final=True, locale=locale),
                                        file=_board_file(png, game.id, track.get("round", 0)), closed=True)
        live = fresh.meta.get(LIVE) or {}
    if state.phase == "offers" and (not live or live.get("closed")):
        return                                   # the next board comes with the next round
    view = ENGINE.view_for(state, PUBLIC)
    round_ = view["combat"]["round"]
    png = await asyncio.to_thread(R.register_track, view, say)
    await host.live_message(fresh, LIVE, board_text(view, final=view["over"], locale=locale),
                            file=_board_file(png, game.id, round_), new=force_new or bool(live.get("closed")),
                            round=round_, closed=False)


def _hand_cards(view: dict) -> list[str]:
    cards: list[str] = []
    for f in (view.get("combat") or {}).get("fighters", []):
        cards += f.get("hand") or f.get("initiative_hand") or []
    for s in (view.get("check") or {}).get("sides", []):
        cards += s.get("hand", [])
    return cards


def hand_picture(view: dict, prompt) -> tuple[str, bytes] | None:
    """The player's hand, drawn from their own view, sent with the buttons of their private
    decisions (the framework's prompt_image): one DM holds the cards and the choice."""
    if not prompt.private or not prompt.player.isdigit():
        return None     # the GM's view holds every hand: no picture for NPC decisions
    cards = _hand_cards(view)
    if not cards:
        return None
    return "karmic-hand.png", R.hand_image({"check": {"sides": [{"hand": cards}]}}, present.READER.get())
