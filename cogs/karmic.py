"""/karmic: Karmic on Discord — karma decks, checks, and register combat with secret hands by DM.

Thin on purpose: the rules live in `rules/karmic/` and the images in `renderers/karmic.py`. Every
decision of a check or a combat is one of the engine's prompts, which the framework delivers as
buttons or a select to its player by DM (`/hand` when DMs are closed), GM prompts to the GM channel.
This cog adds:

- Characters (`/karmic character import|show|list|delete`): a sheet and its karma deck belong to
  their owner in this guild (`store.save_character(guild, owner, "karmic", name, data)` with
  `data = {"sheet": the imported sheet, "character": Character.to_dict()}`). A GM imports NPC
  sheets with `gm_sheet: True`: they are stored as **GM-owned characters (owner 0)** and can be
  named as opponents. The GM's **world deck** is a guild-level record stored as the GM-owned
  character `~world` (names starting with `~` are reserved and never listed).
- Write-back: when a check or combat ends, by its rules or by force (`/game end`: the System's
  `on_over` runs either way), the characters' decks, hit points, aim rows… are written back from
  `characters_out(state)`, and the world deck from `state.world`. After a forced end every card
  still in play (hands, face-down registers, initiative hands, a check's hand) first goes back to
  its owner's discard pile (`settle_cards`), so no card is lost. Which game key is which stored
  sheet is kept in the game's meta (`karmic_sheets`, stored with the game by `host.start`). A
  character in a running game cannot join a second one.
- `/karmic deck [name]`: counts, discards and sideboard privately, with Reshuffle / Not now buttons
  when a Rule-of-Fives window is open (persistent `DeckButton`, survives restarts).
- `/karmic check skill …`: the hand arrives by DM (the engine's prompt with a button per card, plus
  the `hand_image` PNG); the channel sees the card played, the arithmetic and the result.
  `helper`/`helper2` (members: each draws and offers his best card, §1.10), `skill2` (two skills
  at once: the lower hand), `max_helpers` (GM cap). `/karmic gm-modifier value` adds a (by default hidden) modifier to the running check; in a
  combat it is a standing modifier on every maneuver total of fighter number `side` (a hidden one:
  the table reads "hidden GM modifier = ?" and no totals; the GM room gets the numbers).
- `/karmic shoot weapon distance …`: a ranged attack is a check of the weapon's skill (§5): range
  band, target situation, called-shot location; `target`/`target_member` with `defense` dodge or
  block makes the target draw its own DODGE+Awareness / SHIELD+Finesse hand (by DM, or the GM room
  for an NPC); `into_melee` (no defense; a negative total hits someone else); `from_aim` fires from
  the aim row that `/karmic aim weapon` deals face up round by round (kept on the stored sheet).
- `/karmic combat start …`: the combat runs on the engine's prompts. The channel keeps ONE live
  board per round (`host.live_message`: text summary + register-track image, edited after every
  step, reposted when deleted; its id is in the game's meta so a restarted bot edits the same
  message). When a round ends the board is edited one last time with the round's revealed
  registers (the `round_end` event's public snapshot) and the next round gets a fresh board. Each
  new hand is DMed as an image too.
  Options of the engine's set-up: `charge` (a fighter's name), `surprised`/`ambusher`/`unaware`
  (GM only: the GM declares a surprise), `dodge_only` and `riding` (comma-separated names), `pairs`
  ("Devon-Soldier; Mara-Bandit": custom engagements).
  `/karmic combat declare` types a declaration instead of clicking (the engine refuses illegal
  ones with its reason, privately); `/karmic combat nudge [minutes]` (GM) answers every decision
  overdue in this channel's game (a combat or a check) with `ENGINE.default_option` (stand, decline,
  pass/hesitate; NPC seats by the bot's policy), each through `host.commit` (logged as "timeout") and
  `host.publish`; the table only reads whose decision timed out, never the option taken; decisions
  that arise from those answers wait for their players. `/karmic combat end` (GM) ends the fight by the rules, with
  a reason shown to the table, the engine's closing events and the final board, and writes the
  decks back; `/karmic combat board` posts the board again lower in the channel.

- `/karmic-advance`: advancement between adventures, in `cogs/karmic_advance.py` (its own cog).

Commands that start or play a game leave the acknowledgement to the host (`host.begin`, or
`host.start`/`host.act` themselves): it is private, so a refusal only reaches its sender.

Limits, on purpose: the world deck is one record per guild: two games drawing from it at the same
time each write back their own copy, the last to end wins. A channel hosts one game at a time, so
a check during a combat needs another channel or a thread.
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
from datetime import datetime, timedelta, UTC
from typing import Any

import discord
from discord import app_commands

from i18n import t
from i18n.present import Presenter
from renderers import karmic as R
from rules.common import GM, PUBLIC, Actor, BautaError, Choose, Event, IllegalAction, PackError, Rng
from rules.karmic import ENGINE, characters_out, load_pack_text, load_sample_pack, settle_cards
from rules.karmic.actions import Declare, EndCombat, GmModifier, NpcControl
from rules.karmic.cards import label
from rules.karmic.character import Character, character_from_sheet, check_distinction_cap, deck_summary, import_sheet
from rules.karmic.state import HOUSE_RULES
from rules.karmic.ranged import aim, weapon_named
from rules.common.safe_yaml import shorten
from rules.karmic.tables import ATTRIBUTES, DIFFICULTY, LOCATION_NAMES, MANEUVERS, TARGET_SITUATION

from . import systems, untrusted
from .karmic_situations import situation_choices, situation_ids
from .framework import MESSAGE_LIMIT, BautaCog, chunks, mention
from .text import echo

log = logging.getLogger("bauta.karmic")

NAME = ENGINE.system                 # "karmic"
TITLE = "Karmic"
GM_OWNER = 0                         # owner id of GM sheets (NPCs) and of the world deck record
WORLD = "~world"                     # the GM-owned record holding the guild's world deck
SHEETS = "karmic_sheets"             # game meta: {fighter key: [owner id, stored name]}
USES_WORLD = "karmic_world"          # game meta: the world deck came from (and goes back to) the store
LIVE = "karmic_live"                 # game meta: the live board {message, channel, round, closed}
MAX_SHEET_BYTES = 200_000


# ============================================================================ text
def _who(player: str | None) -> str:
    if not player:
        return "—"
    return mention(player) if player != GM else "GM"


def _describe_combat(view: dict, viewer: str, locale=None) -> list[str]:
    d = "karmic.describe."
    cb = view["combat"]
    players = {c["key"]: c.get("player") for c in view["characters"]}
    names = {c["key"]: c["name"] for c in view["characters"]}
    lines = [t(d + "combat_header", locale, round=cb["round"], register=cb["register"], phase=view["phase"])]
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
            lines.append(t(d + "your_hand", locale, cards=", ".join(f.get("hand_labels") or []) or "—"))
        if f.get("initiative_hand"):
            lines.append(t(d + "your_initiative", locale,
                           cards=", ".join(label(c) for c in f["initiative_hand"])))
    for e in cb["engagements"]:
        if e["live"]:
            lines.append(t(d + "engagement", locale, a=names.get(e["a"], e["a"]), b=names.get(e["b"], e["b"]),
                           range=e["range_text"], holder=names.get(e["initiative"], "—")))
    for r in cb["registers"]:
        for decl in r["decls"]:
            if decl.get("revealed"):
                card = " + ".join(label(c) for c in [decl["card"]] + list(decl.get("chain") or []))
            elif "card" in decl:
                card = t(d + "face_down_yours", locale, card=label(decl["card"]))
            else:
                card = t(d + "face_down", locale)
            target = f" → {names.get(decl['target'], decl['target'])}" if decl.get("target") else ""
            lines.append(t(d + "declaration", locale, n=r["n"], name=decl["name"], maneuver=decl["maneuver"],
                           target=target, card=card))
    if view["over"]:
        lines.append(t(d + "combat_over", locale, reason=cb.get("ended") or ""))
    return lines


def _describe_check(view: dict, viewer: str, locale=None) -> list[str]:
    d = "karmic.describe."
    check = view["check"]
    lines = [t(d + "check_header", locale, label=check["label"].replace("_", " "),
               difficulty=f"{check['difficulty']:+d}")]
    for s in check["sides"]:
        what = " + ".join(x.replace("_", " ") for x in (s["skill"], s["attribute"]) if x) or "—"
        lines.append(t(d + "side", locale, name=s["name"], what=what, cards=s["cards_drawn"],
                       modifier=f"{s['modifier']:+d}",
                       played=t(d + ("played" if s["played"] else "not_played"), locale)))
        if "hand" in s:
            lines.append(t(d + "your_hand", locale, cards=", ".join(s.get("hand_labels") or []) or "—"))
        if "hidden_modifier" in s and s["hidden_modifier"]:
            lines.append(t(d + "hidden_modifier", locale, value=f"{s['hidden_modifier']:+d}"))
        if "card" in s:
            lines.append(t(d + "card", locale,
                           cards=" + ".join(label(c) for c in [s["card"]] + list(s.get("chain") or []))))
    result = check.get("result")
    if result:
        lines.append(t(d + "result", locale, verdict=t(d + ("success" if result["success"] else "failure"), locale),
                       margin=f" ({result['margin']:+d})" if result.get("margin") is not None else ""))
    return lines


def describe(view: dict, viewer: str) -> str:
    """The game as text for `/game status` and `/hand`: only what `view` holds."""
    lines: list[str] = []
    if view.get("mode") == "combat" and view.get("combat"):
        lines += _describe_combat(view, viewer)
    elif view.get("check"):
        lines += _describe_check(view, viewer)
    if viewer == GM and "world_deck" in view:
        lines.append(t("karmic.describe.world_deck", None, deck=view["world_deck"]["deck"],
                       discards=view["world_deck"]["discards"]))
    for who in view.get("waiting_for") or []:
        lines.append(t("karmic.describe.waiting", None, who=_who(who)))
    return "\n".join(lines)


def render(view: dict) -> bytes:
    """The register track of a combat (PUBLIC view for `/game status`); checks have no board."""
    if view.get("mode") == "combat" and view.get("combat"):
        return R.register_track(view)
    return b""


def load_pack(text: str, source: str):
    return load_pack_text(text, source)


# ============================================================================ live board and DMs
def _board_file(png: bytes, game_id: int, round_: int) -> discord.File:
    return discord.File(io.BytesIO(png), filename=f"karmic-{game_id}-round-{round_}.png")


def board_text(view: dict, *, final: bool = False) -> str:
    head = t("karmic.board_final" if final else "karmic.board", None, round=view["combat"]["round"])
    return (chunks([head, describe(view, PUBLIC)]) or [head])[0][:MESSAGE_LIMIT]


async def show_board(host, game, state, events, *, force_new: bool = False) -> None:
    """One live board per round (`host.live_message`): edited after every step, closed with the
    round's public snapshot when the round ends; the next round gets a new message."""
    if state.mode != "combat" or state.combat is None:
        return
    fresh = await host.store.game(game.id) or game
    live = fresh.meta.get(LIVE) or {}
    ends = [e for e in events if e.kind == "round_end" and e.audience == PUBLIC]
    if ends and live.get("message") and not live.get("closed") and not force_new:
        # close the finished round's board with its public snapshot (every register revealed)
        track = ends[-1].data.get("track") or {}
        snap_view = {**ENGINE.view_for(state, PUBLIC), "combat": track, "waiting_for": [],
                     "phase": t("karmic.round_over", None)}
        png = await asyncio.to_thread(R.register_track, snap_view)
        fresh = await host.live_message(fresh, LIVE, board_text(snap_view, final=True),
                                        file=_board_file(png, game.id, track.get("round", 0)), closed=True)
        live = fresh.meta.get(LIVE) or {}
    if state.phase == "offers" and (not live or live.get("closed")):
        return                                   # the next board comes with the next round
    view = ENGINE.view_for(state, PUBLIC)
    round_ = view["combat"]["round"]
    png = await asyncio.to_thread(R.register_track, view)
    await host.live_message(fresh, LIVE, board_text(view, final=view["over"]),
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
    return "karmic-hand.png", R.hand_image({"check": {"sides": [{"hand": cards}]}})


async def write_back_advancement(host, game, state) -> list[str]:
    """An advancement session's sheets as it has them; a character whose first step was undone
    goes back to the sheet that step brought in, and is free to play again."""
    fresh = await host.store.game(game.id) or game
    refs = fresh.meta.get(SHEETS) or {}
    dropped = [k for k in refs if k not in state.characters]
    if dropped:
        brought: dict[str, dict] = {}
        for record in await host.store.actions(game.id, limit=10_000, include_undone=True):
            who, char = record.action.get("who"), record.action.get("character")
            if who in dropped and isinstance(char, dict):
                brought.setdefault(who, char)
        for key in dropped:
            owner, name = int(refs[key][0]), refs[key][1]
            stored = await host.store.character(game.guild_id, owner, NAME, name)
            if stored is not None and key in brought:
                await host.store.save_character(game.guild_id, owner, NAME, name, {**stored, "character": brought[key]})
        game = await host.store.set_meta(fresh, {**fresh.meta, SHEETS: {k: v for k, v in refs.items()
                                                                         if k not in dropped}})
    return await write_back(host, game, state)


async def after_publish(host, interaction, game, state, events) -> None:
    if state.mode == "advance":
        # every step (and every undo, which publishes again) leaves the stored sheets as the session has them
        await write_back_advancement(host, game, state)
        return
    # The hand picture rides on the player's next private decision (`hand_picture`): no DM of its
    # own, which had no buttons to choose with.
    try:
        await show_board(host, game, state, events)
    except Exception:  # noqa: BLE001
        log.exception("board update failed for game %s", game.id)


async def write_back(host, game, state) -> list[str]:
    """Store every persisted character's deck (and the world deck) as the game left them; after an
    advancement step, the sheet's distinctions too (the names it lists)."""
    fresh = await host.store.game(game.id) or game
    refs = fresh.meta.get(SHEETS) or {}
    saved = []
    for key, (_controller, char) in characters_out(state).items():
        ref = refs.get(key)
        if not ref:
            continue
        owner, name = int(ref[0]), ref[1]
        record = await host.store.character(game.guild_id, owner, NAME, name)
        if record is None:
            continue        # deleted meanwhile: nothing to write back to
        record["character"] = char.to_dict()
        if state.mode == "advance":
            record["sheet"] = {**(record.get("sheet") or {}), "distinctions": [d.name for d in char.distinctions]}
        await host.store.save_character(game.guild_id, owner, NAME, name, record)
        saved.append(char.name)
    if fresh.meta.get(USES_WORLD) and any(c.deck is None for _, c in characters_out(state).values()):
        # only a game that drew from the world deck writes it back (two games in two channels
        # that both use it: the last to end wins; see the module notes)
        await host.store.save_character(game.guild_id, GM_OWNER, NAME, WORLD, {"world": state.world.to_dict()})
    return saved


async def on_over(host, interaction, game, state) -> None:
    """Ended by its rules, or by force (`/game end`): then the cards still in play go back first."""
    if not state.over:
        settle_cards(state)
    saved = await (write_back_advancement if state.mode == "advance" else write_back)(host, game, state)
    if saved:
        locale = await host.server_locale(game, interaction)
        await host.courier.send_channel(game.channel_id, t("karmic.decks_saved", locale, names=", ".join(saved)))
    if state.mode != "advance":
        await offer_reshuffles(host, game, state)


SYSTEM = systems.register(systems.System(
    name=NAME, title=TITLE, engine=ENGINE, describe=describe, render=render, house_rules=dict(HOUSE_RULES),
    load_pack=load_pack, after_publish=after_publish, on_over=on_over, prompt_image=hand_picture))


# ============================================================================ deck buttons
class DeckButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"karmic:deck:(?P<owner>[0-9]+):(?P<choice>yes|no):(?P<name>.+)"):
    """Reshuffle / Not now for a Rule-of-Fives window outside a game (from `/karmic deck`)."""

    def __init__(self, owner: int, choice: str, name: str, label_: str = "…"):
        self.owner, self.choice, self.name = owner, choice, name
        style = discord.ButtonStyle.primary if choice == "yes" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label_, style=style,
                                           custom_id=f"karmic:deck:{owner}:{choice}:{name}"[:100]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(int(match["owner"]), match["choice"], match["name"], item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        from .errors import report_error
        try:
            await interaction.response.defer(ephemeral=True)
            cog = interaction.client.get_cog("KarmicCog")
            text = await cog.answer_deck_offer(interaction, self.owner, self.name, self.choice == "yes")
            await interaction.followup.send(text, ephemeral=True)
        except Exception as exc:  # noqa: BLE001 - every error becomes a friendly ephemeral reply
            await report_error(interaction, exc)


def deck_offer_view(owner: int, stored: str, locale) -> discord.ui.View:
    """Reshuffle / Not now for an open Rule-of-Fives window of a stored deck (persistent buttons)."""
    view = discord.ui.View(timeout=None)
    view.add_item(DeckButton(owner, "yes", stored, t("karmic.deck.yes", locale)))
    view.add_item(DeckButton(owner, "no", stored, t("karmic.deck.no", locale)))
    return view


async def offer_reshuffles(host, game, state) -> None:
    """A game that ended with a Rule-of-Fives window open on a member's deck: one DM with the
    Reshuffle / Not now buttons, answerable any time, while the channel is free for the next game."""
    refs = (await host.store.game(game.id) or game).meta.get(SHEETS) or {}
    locales = game.meta.get("locales") or {}
    for key, (_controller, char) in characters_out(state).items():
        ref = refs.get(key)
        if not ref or int(ref[0]) == GM_OWNER or char.deck is None or not char.deck.offer:
            continue
        owner, stored = int(ref[0]), ref[1]
        locale = locales.get(str(owner))
        await host.courier.send_dm(game.guild_id, owner, t("karmic.deck.offer_after", locale, name=stored,
                                                           discards=char.deck.since_shuffle),
                                   view=deck_offer_view(owner, stored, locale))


# ============================================================================ the cog
ATTRIBUTE_CHOICES = [app_commands.Choice(name=a, value=a) for a in ATTRIBUTES]


def _split_names(text: str | None) -> list[str]:
    return [n.strip() for n in re.split(r"[,;]", text or "") if n.strip()]


class KarmicCog(BautaCog):
    karmic = app_commands.Group(name="karmic", description="Karmic: karma decks, checks and register combat",
                                guild_only=True)
    character = app_commands.Group(name="character", description="Your Karmic characters", parent=karmic)
    combat = app_commands.Group(name="combat", description="Karmic compound combat", parent=karmic)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DeckButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DeckButton)

    # ---------------------------------------------------------------- helpers
    async def _pack(self, guild_id: int, name: str | None) -> dict:
        if not name:
            return load_sample_pack()
        text = await self.store.pack(guild_id, NAME, name)
        if text is None:
            raise BautaError(t("karmic.no_pack", None, name=echo(name)))
        return await untrusted.parse(load_pack_text, text, name, source=name)   # seconds for a big pack

    async def _record(self, guild_id: int, owner: int, name: str | None, locale=None) -> tuple[str, dict] | None:
        """(stored name, data) of a character of `owner`: by name, or the only one when name is None."""
        if name:
            found = [(n, d) for o, n, d in await self.store.characters(guild_id, NAME, owner)
                     if n.lower() == name.lower() and not n.startswith("~")]
            return found[0] if found else None
        mine = [(n, d) for o, n, d in await self.store.characters(guild_id, NAME, owner) if not n.startswith("~")]
        if len(mine) == 1:
            return mine[0]
        if len(mine) > 1:
            raise BautaError(t("karmic.which_character", locale, names=", ".join(n for n, _ in mine)))
        return None

    async def _games_of(self, guild_id: int, refs: list[tuple[int, str]]) -> list[tuple[Any, str]]:
        """(running game, name) for each of these characters that is in a running game."""
        wanted = {(o, n.lower()) for o, n in refs}
        found = []
        for game in await self.store.games(guild_id, status="active"):
            if game.system != NAME:
                continue
            for owner, name in (game.meta.get(SHEETS) or {}).values():
                if (int(owner), name.lower()) in wanted:
                    found.append((game, name))
        return found

    async def _busy(self, guild_id: int, refs: list[tuple[int, str]]) -> None:
        """Refuse a character already in a running game (its deck lives in that game until it ends)."""
        for game, name in await self._games_of(guild_id, refs):
            raise BautaError(t("karmic.busy", None, name=name, id=game.id, channel=f"<#{game.channel_id}>"))

    async def _player_character(self, interaction, member, name: str | None, pack: dict, new: dict,
                                locale=None) -> tuple[dict, tuple[int, str]]:
        """The character spec for a member: a stored sheet, or a pack character copied to a new sheet.
        A new sheet goes into `new` ((owner, name) -> record), stored by `_save_new` only once the
        game has started: a refused command stores nothing."""
        guild = interaction.guild_id
        found = await self._record(guild, member.id, name, locale)
        if found is None:
            entry = None
            if name:
                entry = next((c for c in pack.get("characters", []) if c["name"].lower() == name.lower()), None)
            if entry is None:
                raise BautaError(t("karmic.no_character", locale, who=member.mention,
                                   names=", ".join(c["name"] for c in pack.get("characters", [])) or "—"))
            sheet = {k: v for k, v in entry.items() if k not in ("sample", "description")}
            char = character_from_sheet(sheet, pack, str(member.id), Rng.from_seed(secrets.randbits(63)))
            found = (char.name, {"sheet": sheet, "character": char.to_dict()})
            new[(member.id, char.name)] = found[1]
        stored, data = found
        return {"character": data["character"], "player": str(member.id)}, (member.id, stored)

    async def _save_new(self, guild_id: int, new: dict) -> None:
        for (owner, name), record in new.items():
            await self.store.save_character(guild_id, owner, NAME, name, record)

    async def _npc(self, guild_id: int, name: str, pack: dict, taken: dict[str, int]) -> tuple[dict, Any]:
        """An NPC: a GM sheet (owner 0, written back) or a pack NPC (not stored)."""
        base = name.lower()
        n = taken.get(base, 0) + 1
        taken[base] = n
        record = await self._record(guild_id, GM_OWNER, name)
        if record is not None:
            stored, data = record
            if n > 1:
                raise BautaError(t("karmic.gm_sheet_twice", None, name=stored))
            return {"character": data["character"], "player": GM}, (GM_OWNER, stored)
        for group in ("npcs", "characters"):
            for entry in pack.get(group, []):
                if entry["name"].lower() == base:
                    sheet = dict(entry)
                    if n > 1:
                        sheet["name"] = f"{entry['name']} {n}"
                    return {"character": sheet, "player": GM}, None
        raise BautaError(t("karmic.no_npc", None, name=echo(name),
                           names=", ".join(e["name"] for e in pack.get("npcs", [])) or "—"))

    async def _gm_room_is_private(self, interaction: discord.Interaction, npcs: bool, bot_plays: bool) -> None:
        """NPC hands go to the GM channel: refuse when that channel is the table itself."""
        if not npcs or bot_plays:
            return
        settings = await self.store.settings(interaction.guild_id)
        if settings.gm_channel_id and settings.gm_channel_id == interaction.channel_id:
            raise BautaError(t("karmic.gm_room_is_table", interaction.locale))

    async def _world(self, guild_id: int) -> dict | None:
        record = await self.store.character(guild_id, GM_OWNER, NAME, WORLD)
        return record.get("world") if record else None

    @staticmethod
    def _sheets_meta(refs: dict[str, tuple[int, str]]) -> dict:
        """The game's meta: which fighter key is which stored sheet, and that the world deck goes back."""
        return {SHEETS: {k: [o, n] for k, (o, n) in refs.items()}, USES_WORLD: True}

    # ---------------------------------------------------------------- autocomplete
    async def _my_characters(self, interaction: discord.Interaction, current: str):
        names = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, interaction.user.id)
                 if not n.startswith("~")]
        names += [c["name"] for c in load_sample_pack().get("characters", []) if c["name"] not in names]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]

    async def _npc_names(self, interaction: discord.Interaction, current: str):
        names = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, GM_OWNER)
                 if not n.startswith("~")]
        names += [e["name"] for e in load_sample_pack().get("npcs", [])]
        head, _, last = current.rpartition(",")
        prefix = f"{head}, " if head else ""
        return [app_commands.Choice(name=(prefix + n)[:100], value=(prefix + n)[:100])
                for n in names if last.strip().lower() in n.lower()][:25]

    async def _difficulties(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=f"{k.replace('_', ' ')} ({v:+d})", value=k)
                for k, v in DIFFICULTY.items() if current.lower() in k][:25]

    # ---------------------------------------------------------------- characters
    @character.command(name="import", description="Import a character sheet (YAML or JSON); re-import keeps the deck")
    @app_commands.describe(file="The .yaml or .json sheet", gm_sheet="GM: store it as a GM sheet (an NPC)",
                           fresh_deck="Start a new shuffled karma deck even if the character exists",
                           pack="A guild pack whose weapons/armor the sheet names (default: the sample pack)")
    @untrusted.uploads_cooldown()
    async def character_import(self, interaction: discord.Interaction, file: discord.Attachment,
                               gm_sheet: bool = False, fresh_deck: bool = False, pack: str | None = None):
        if gm_sheet:
            await self.host.require_gm(interaction)
        untrusted.check_size(file, MAX_SHEET_BYTES, interaction.locale)   # before downloading or deferring
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await untrusted.read_text(file, MAX_SHEET_BYTES, interaction.locale)
        owner = GM_OWNER if gm_sheet else interaction.user.id
        content = await self._pack(interaction.guild_id, pack)
        # Parsed, validated and built in a child process with a time limit (PackError names the field).
        sheet, char = await untrusted.parse(import_sheet, text, content, "" if gm_sheet else str(owner),
                                            secrets.randbits(63), file.filename, source=file.filename,
                                            locale=interaction.locale)
        if sheet["name"].startswith("~"):
            raise PackError(t("karmic.reserved_name", interaction.locale, file=shorten(file.filename, 60)))
        cap = (await self.store.house_rules(interaction.guild_id, NAME)).get("distinction_cap")
        try:
            check_distinction_cap(char, None if cap in (None, "", "none") else int(cap))
        except IllegalAction as exc:
            said = Presenter(interaction.locale, NAME).error(exc)
            raise PackError(f"{shorten(file.filename, 60)}: field 'distinctions': {said}") from None
        old = await self._record(interaction.guild_id, owner, char.name)
        name = old[0] if old else char.name
        await self._busy(interaction.guild_id, [(owner, name)])
        if old and not fresh_deck:
            previous = Character.from_dict(old[1]["character"])
            if (char.deck is None) == (previous.deck is None):
                char.deck = previous.deck                 # the karma deck keeps its state
            for kept in ("hp_marked", "fatigue", "bleeding"):     # what play marked, unless the sheet says
                if kept not in sheet:
                    setattr(char, kept, getattr(previous, kept))
            char.aim_row, char.saved_checks = previous.aim_row, previous.saved_checks
            char.training, char.reload = previous.training, previous.reload
        await self.store.save_character(interaction.guild_id, owner, NAME, name,
                                        {"sheet": sheet, "character": char.to_dict()})
        key = "karmic.imported_gm" if gm_sheet else ("karmic.reimported" if old else "karmic.imported")
        await interaction.followup.send(t(key, interaction.locale, name=name) + "\n" +
                                        self._sheet_text(char, interaction.locale), ephemeral=True)

    def _sheet_text(self, char: Character, locale=None) -> str:
        d = "karmic.sheet."
        attrs = " · ".join(f"{a} {char.attributes.get(a, 0):+d}" for a in ATTRIBUTES)
        skills = ", ".join(f"{s.replace('_', ' ')} {v}" for s, v in sorted(char.skills.items())) or "—"
        weapons = ", ".join(w.name + (" (wielded)" if i in char.wielding else "") for i, w in enumerate(char.weapons))
        lines = [t(d + "title", locale, name=char.name, npc=" (NPC)" if char.npc else ""),
                 t(d + "attributes", locale, attrs=attrs), t(d + "skills", locale, skills=skills),
                 t(d + "weapons", locale, weapons=weapons or "—", armor=char.armor.name if char.armor else "—"),
                 t(d + "hp", locale, marked=char.hp_marked, max=char.hp_max, row=char.hp_row)]
        if char.fatigue:                  # the rules' conditions (rules/karmic fatigue, wounds)
            lines.append(t("karmic.condition.fatigue", locale, n=char.fatigue))
        if char.bleeding:
            lines.append(t("karmic.condition.bleeding", locale))
        if char.distinctions:
            lines.append(t(d + "distinctions", locale,
                           items=", ".join(f"{x.name} ({x.karma_value:+d})" for x in char.distinctions)))
        summary = deck_summary(char)
        if summary.get("world_deck"):
            lines.append(t(d + "world_deck", locale))
        else:
            lines.append(t(d + "deck", locale, deck=summary["deck"], discards=summary["discards"],
                           sideboard=summary["sideboard"]))
        return "\n".join(lines)

    @character.command(name="show", description="Show one of your characters (privately)")
    @app_commands.describe(name="The character (default: your only one)", gm_sheet="GM: show a GM sheet (an NPC)")
    @app_commands.autocomplete(name=_my_characters)
    async def character_show(self, interaction: discord.Interaction, name: str | None = None,
                             gm_sheet: bool = False):
        if gm_sheet:
            await self.host.require_gm(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        owner = GM_OWNER if gm_sheet else interaction.user.id
        found = await self._record(interaction.guild_id, owner, name, interaction.locale)
        if found is None:
            raise BautaError(t("karmic.no_such_character", interaction.locale, name=echo(name or "—")))
        await interaction.followup.send(self._sheet_text(Character.from_dict(found[1]["character"]),
                                                         interaction.locale), ephemeral=True)

    @character.command(name="list", description="Your Karmic characters on this server (GMs also see GM sheets)")
    async def character_list(self, interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, interaction.user.id)
                if not n.startswith("~")]
        lines = [t("karmic.list_mine", interaction.locale, names=", ".join(mine) or "—")]
        if await self.host.is_gm(interaction):
            gm = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, GM_OWNER)
                  if not n.startswith("~")]
            lines.append(t("karmic.list_gm", interaction.locale, names=", ".join(gm) or "—"))
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    @character.command(name="delete", description="Delete one of your characters (and its deck)")
    @app_commands.describe(name="The character", gm_sheet="GM: delete a GM sheet")
    @app_commands.autocomplete(name=_my_characters)
    async def character_delete(self, interaction: discord.Interaction, name: str, gm_sheet: bool = False):
        if gm_sheet:
            await self.host.require_gm(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        owner = GM_OWNER if gm_sheet else interaction.user.id
        if name.startswith("~") or not await self.store.delete_character(interaction.guild_id, owner, NAME, name):
            raise BautaError(t("karmic.no_such_character", interaction.locale, name=echo(name)))
        await interaction.followup.send(t("karmic.deleted", interaction.locale, name=name), ephemeral=True)

    # ---------------------------------------------------------------- deck
    @karmic.command(name="deck", description="Your karma deck: cards left, discards, sideboard (privately)")
    @app_commands.describe(name="The character (default: your only one)")
    @app_commands.autocomplete(name=_my_characters)
    async def deck(self, interaction: discord.Interaction, name: str | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._record(interaction.guild_id, interaction.user.id, name, interaction.locale)
        if found is None:
            raise BautaError(t("karmic.no_such_character", interaction.locale, name=echo(name or "—")))
        stored, data = found
        char = Character.from_dict(data["character"])
        s = deck_summary(char)
        if s.get("world_deck"):
            await interaction.followup.send(t("karmic.sheet.world_deck", interaction.locale), ephemeral=True)
            return
        lines = [t("karmic.deck.header", interaction.locale, name=stored, deck=s["deck"], discards=s["discards"],
                   sideboard=s["sideboard"], since=s["since_shuffle"]),
                 t("karmic.deck.discards", interaction.locale,
                   cards=", ".join(label(c) for c in s["discard_cards"]) or "—"),
                 t("karmic.deck.sideboard", interaction.locale,
                   cards=", ".join(label(c) for c in s["sideboard_cards"]) or "—")]
        view = None
        playing = await self._games_of(interaction.guild_id, [(interaction.user.id, stored)])
        if playing:
            game = playing[0][0]
            lines.append(t("karmic.deck.in_game", interaction.locale, id=game.id, channel=f"<#{game.channel_id}>"))
        elif s["reshuffle_offered"]:
            lines.append(t("karmic.deck.offer", interaction.locale))
            view = deck_offer_view(interaction.user.id, stored, interaction.locale)
        else:
            lines.append(t("karmic.deck.no_offer", interaction.locale))
        kwargs = {"view": view} if view is not None else {}
        await interaction.followup.send(chunks(lines)[0], ephemeral=True, **kwargs)

    async def answer_deck_offer(self, interaction, owner: int, name: str, accept: bool) -> str:
        if interaction.user.id != owner:
            raise IllegalAction(t("karmic.deck.not_yours", interaction.locale))
        found = await self._record(interaction.guild_id, owner, name)
        if found is None:
            raise BautaError(t("karmic.no_such_character", interaction.locale, name=echo(name)))
        stored, data = found
        await self._busy(interaction.guild_id, [(owner, stored)])
        char = Character.from_dict(data["character"])
        if char.deck is None or not char.deck.offer:
            raise IllegalAction(t("karmic.deck.closed", interaction.locale))
        if accept:
            char.deck.reshuffle(Rng.from_seed(secrets.randbits(63)))
        else:
            char.deck.decline()
        data["character"] = char.to_dict()
        await self.store.save_character(interaction.guild_id, owner, NAME, stored, data)
        return t("karmic.deck.reshuffled" if accept else "karmic.deck.declined", interaction.locale, name=stored)

    # ---------------------------------------------------------------- checks
    @karmic.command(name="check", description="Make a check: your hand arrives by DM, the result is posted here")
    @app_commands.describe(skill="The skill (e.g. tracking; 'none' for an attribute alone)",
                           attribute="The attribute added", difficulty="very easy … nigh impossible, or a number",
                           character="Your character (default: your only one)", modifier="A public modifier",
                           field="Field of expertise, for skills that have them", pack="A guild pack (optional)",
                           opponent="An NPC opposing the check (pack or GM sheet): an opposed check",
                           opponent_skill="The NPC's skill (default: the same skill)",
                           opponent_attribute="The NPC's attribute (default: the same attribute)",
                           bot_plays_npcs="The bot plays the NPC's card instead of the GM",
                           skill2="Two things at once: the hand of the lower skill", helper="A member who helps",
                           helper2="Another member who helps", max_helpers="GM cap on helpers",
                           situation="Tables: wall, rope…")
    @app_commands.choices(attribute=ATTRIBUTE_CHOICES, opponent_attribute=ATTRIBUTE_CHOICES)
    @app_commands.autocomplete(character=_my_characters, difficulty=_difficulties, opponent=_npc_names,
                               situation=situation_choices)
    async def check(self, interaction: discord.Interaction, skill: str,
                    attribute: app_commands.Choice[str] | None = None, difficulty: str | None = None,
                    character: str | None = None, modifier: app_commands.Range[int, -20, 20] = 0,
                    field: str | None = None, pack: str | None = None, opponent: str | None = None,
                    opponent_skill: str | None = None, opponent_attribute: app_commands.Choice[str] | None = None,
                    bot_plays_npcs: bool = False, skill2: str | None = None, helper: discord.Member | None = None,
                    helper2: discord.Member | None = None, max_helpers: app_commands.Range[int, 0, 12] | None = None,
                    situation: app_commands.Range[str, 1, 300] | None = None):
        if max_helpers is not None:
            await self.host.require_gm(interaction)           # the GM caps how many may help (§1.10)
        await self.host.begin(interaction)
        content = await self._pack(interaction.guild_id, pack)
        new: dict = {}
        spec, ref = await self._player_character(interaction, interaction.user, character, content, new,
                                                 interaction.locale)
        refs = {"c1": ref}
        skill_name = "" if skill.strip().lower() in ("none", "-", "") else echo(skill)
        options = {"mode": "check", "actor": spec, "skill": skill_name,
                   "attribute": attribute.value if attribute else None, "difficulty": difficulty,
                   "modifier": int(modifier), "field": field, "world": await self._world(interaction.guild_id),
                   "pack": content, "bot_plays_npcs": bot_plays_npcs,
                   "situations": situation_ids(situation)}        # the skill tables (karmic_situations)
        if skill2 and skill2.strip():
            options["skill2"] = echo(skill2)
        seats = [str(interaction.user.id)]
        helpers = [m for m in (helper, helper2) if m is not None]
        if max_helpers is not None:
            options["max_helpers"] = int(max_helpers)
        for member in helpers:
            if getattr(member, "bot", False) or str(member.id) in seats:
                raise BautaError(t("karmic.helper_bad", interaction.locale))
            hspec, href = await self._player_character(interaction, member, None, content, new, interaction.locale)
            options.setdefault("helpers", []).append(hspec)
            refs[f"h{len(options['helpers'])}"] = href
            seats.append(str(member.id))
        await self._gm_room_is_private(interaction, bool(opponent), bot_plays_npcs)
        if opponent:
            ospec, oref = await self._npc(interaction.guild_id, opponent.strip(), content, {})
            oskill = (opponent_skill or skill_name).strip()
            options["opponent"] = {**ospec, "skill": "" if oskill.lower() in ("none", "-") else oskill,
                                   "attribute": (opponent_attribute or attribute).value
                                   if (opponent_attribute or attribute) else None}
            if oref is not None:
                refs["o1"] = oref
        await self._busy(interaction.guild_id, list(refs.values()))
        await self.host.start(interaction, NAME, seats, options,
                              intro=Event("check_opened", {"player": str(interaction.user.id), "name": ref[1]}),
                              meta=self._sheets_meta(refs))
        await self._save_new(interaction.guild_id, new)

    @karmic.command(name="gm-modifier", description="GM: a modifier on the check or a fighter here (hidden by default)")
    @app_commands.describe(value="The modifier (e.g. -3)", hidden="Seen by the GM only (default yes)",
                           side="Check: 1 actor, 2 opponent; combat: the fighter's number")
    async def gm_modifier(self, interaction: discord.Interaction, value: app_commands.Range[int, -20, 20],
                          hidden: bool = True, side: app_commands.Range[int, 1, 12] = 1):
        await self.host.require_gm(interaction)
        await self.host.act(interaction, GmModifier(int(value), side - 1, hidden), system=NAME)
        if hidden:
            await interaction.followup.send(t("karmic.gm_modifier_set", interaction.locale, value=f"{value:+d}"),
                                            ephemeral=True)

    # ---------------------------------------------------------------- ranged attacks
    async def _locations(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=n, value=k) for k, n in LOCATION_NAMES.items()
                if current.lower() in n.lower()][:25]

    async def _situations(self, interaction: discord.Interaction, current: str):
        head, _, last = current.rpartition(",")
        prefix = f"{head}, " if head else ""
        return [app_commands.Choice(name=prefix + k, value=prefix + k) for k in TARGET_SITUATION
                if last.strip().lower() in k][:25]

    async def _ranged_weapons(self, interaction: discord.Interaction, current: str):
        names = {w["name"] for w in load_sample_pack().get("weapons", []) if w.get("ranged")}
        for _, _, data in await self.store.characters(interaction.guild_id, NAME, interaction.user.id):
            for w in (data.get("character") or {}).get("weapons", []):
                if isinstance(w, dict) and w.get("ranged"):
                    names.add(w["name"])
        return [app_commands.Choice(name=n, value=n) for n in sorted(names) if current.lower() in n.lower()][:25]

    @karmic.command(name="shoot", description="Ranged attack: a check with the weapon; the target may dodge or block")
    @app_commands.describe(
        weapon="Your ranged weapon", distance="Yards to the target",
        target="An NPC target", target_member="A member target",
        target_character="The target member's character", defense="The target dodges or blocks",
        situation="Target: running, prone… (comma-separated)", location="Called shot location",
        into_melee="Target in a melee (no defense)",
        from_aim="Fire from your aim row", character="Your character",
        modifier="A public modifier", pack="A guild pack", bot_plays_npcs="The bot plays the NPC")
    @app_commands.choices(defense=[app_commands.Choice(name="dodge", value="dodge"),
                                   app_commands.Choice(name="shield block", value="block")])
    @app_commands.autocomplete(weapon=_ranged_weapons, target=_npc_names, character=_my_characters,
                               situation=_situations, location=_locations)
    async def shoot(self, interaction: discord.Interaction, weapon: str, distance: app_commands.Range[float, 0, 2000],
                    target: str | None = None, target_member: discord.Member | None = None,
                    target_character: str | None = None, defense: app_commands.Choice[str] | None = None,
                    situation: str | None = None, location: str | None = None, into_melee: bool = False,
                    from_aim: bool = False, character: str | None = None,
                    modifier: app_commands.Range[int, -20, 20] = 0, pack: str | None = None,
                    bot_plays_npcs: bool = False):
        await self.host.begin(interaction)
        locale = interaction.locale
        if target and target_member is not None:
            raise BautaError(t("karmic.shoot.one_target", locale))
        if defense is not None and not (target or target_member):
            raise BautaError(t("karmic.shoot.defense_needs_target", locale))
        if defense is not None and into_melee:
            raise BautaError(t("karmic.shoot.melee_no_defense", locale))
        if target_member is not None and (getattr(target_member, "bot", False)
                                          or target_member.id == interaction.user.id):
            raise BautaError(t("karmic.shoot.bad_member", locale))
        content = await self._pack(interaction.guild_id, pack)
        new: dict = {}
        spec, ref = await self._player_character(interaction, interaction.user, character, content, new, locale)
        refs = {"c1": ref}
        ranged = {"weapon": weapon.strip(), "distance": float(distance), "into_melee": into_melee,
                  "from_aim": from_aim, "situation": [s.strip().lower().replace(" ", "_")
                                                      for s in _split_names(situation)]}
        if location:
            ranged["location"] = location
        seats = [str(interaction.user.id)]
        options = {"mode": "check", "actor": spec, "skill": "", "attribute": None, "modifier": int(modifier),
                   "label": f"{weapon.strip()} shot", "world": await self._world(interaction.guild_id),
                   "pack": content, "bot_plays_npcs": bot_plays_npcs, "ranged": ranged}
        target_name = target or (target_member.mention if target_member is not None else "")
        if defense is not None:
            ranged["defense"] = defense.value
            if target_member is not None:
                ospec, oref = await self._player_character(interaction, target_member, target_character,
                                                           content, new, locale)
                seats.append(str(target_member.id))
            else:
                await self._gm_room_is_private(interaction, True, bot_plays_npcs)
                ospec, oref = await self._npc(interaction.guild_id, target.strip(), content, {})
            options["opponent"] = ospec
            if oref is not None:
                refs["o1"] = oref
        await self._busy(interaction.guild_id, list(refs.values()))
        await self.host.start(interaction, NAME, seats, options,
                              intro=t("karmic.shoot.intro", interaction.guild_locale, who=interaction.user.mention,
                                      name=ref[1], weapon=weapon.strip(),
                                      target=f" → {target_name}" if target_name else "",
                                      defense=t("karmic.shoot." + defense.value, interaction.guild_locale)
                                      if defense is not None else ""),
                              meta=self._sheets_meta(refs))
        await self._save_new(interaction.guild_id, new)

    @karmic.command(name="aim", description="Aim a ranged weapon for a round: one card face up into your aim row")
    @app_commands.describe(weapon="The ranged weapon", character="Your character (default: your only one)")
    @app_commands.autocomplete(weapon=_ranged_weapons, character=_my_characters)
    async def aim_weapon(self, interaction: discord.Interaction, weapon: str, character: str | None = None):
        await self.host.begin(interaction)
        found = await self._record(interaction.guild_id, interaction.user.id, character, interaction.locale)
        if found is None:
            raise BautaError(t("karmic.no_such_character", interaction.locale, name=echo(character or "—")))
        stored, data = found
        await self._busy(interaction.guild_id, [(interaction.user.id, stored)])
        char = Character.from_dict(data["character"])
        if char.deck is None:
            raise BautaError(t("karmic.sheet.world_deck", interaction.locale))
        w = weapon_named(char, weapon.strip())
        if not w.ranged:
            raise IllegalAction(t("karmic.shoot.not_ranged", interaction.locale, weapon=w.name))
        dropped = aim(char, w, Rng.from_seed(secrets.randbits(63)))
        data["character"] = char.to_dict()
        await self.store.save_character(interaction.guild_id, interaction.user.id, NAME, stored, data)
        await self.host.courier.send_channel(interaction.channel_id, t(
            "karmic.shoot.aimed", interaction.guild_locale, name=stored, weapon=w.name,
            row=" ".join(label(c) for c in char.aim_row), aim=w.aim,
            dropped=t("karmic.shoot.dropped", interaction.guild_locale, cards=" ".join(label(c) for c in dropped))
            if dropped else ""))
        await self.host.finish(interaction, t("karmic.shoot.aim_done", interaction.locale))

    # ---------------------------------------------------------------- combat
    @combat.command(name="start", description="Start a combat here: members and/or NPCs; hands go by DM")
    @app_commands.describe(
        opponent="A member you fight", opponents="NPCs (pack or GM sheets), comma-separated: Soldier, Bandit",
        ally="A member fighting on your side", character="Your character (default: your only one)",
        opponent_character="The opposing member's character", ally_character="Your ally's character",
        range="Starting range in yards (default: the longest weapon)", show_down="A show down: fast draw",
        bot_plays_npcs="The bot plays the NPCs instead of the GM", pack="A guild pack (default: the sample)",
        charge="Who charges (name)", surprised="GM: who is surprised (name)",
        ambusher="GM: who surprises (default: you)", unaware="GM: totally unaware (−5)",
        dodge_only="Names that only dodge", riding="Names fighting while riding",
        pairs="Who fights whom: Devon-Soldier; Mara-Bandit")
    @app_commands.autocomplete(character=_my_characters, opponents=_npc_names)
    async def combat_start(self, interaction: discord.Interaction, opponent: discord.Member | None = None,
                           opponents: str | None = None, ally: discord.Member | None = None,
                           character: str | None = None, opponent_character: str | None = None,
                           ally_character: str | None = None, range: app_commands.Range[int, 0, 10] | None = None,
                           show_down: bool = False, bot_plays_npcs: bool = False, pack: str | None = None,
                           charge: str | None = None, surprised: str | None = None, ambusher: str | None = None,
                           unaware: bool = False, dodge_only: str | None = None, riding: str | None = None,
                           pairs: str | None = None):
        await self.host.begin(interaction)
        locale = interaction.locale
        if surprised or ambusher or unaware:
            await self.host.require_gm(interaction)       # the GM declares a surprise (§2.13)
        if charge and surprised:
            raise BautaError(t("karmic.start.charge_and_surprise", locale))
        npcs = _split_names(opponents)
        if opponent is None and not npcs:
            raise BautaError(t("karmic.no_opponent", locale))
        members = [m for m in (opponent, ally) if m is not None]
        if any(getattr(m, "bot", False) for m in members):
            raise BautaError(t("karmic.no_bots", locale))
        ids = [interaction.user.id] + [m.id for m in members]
        if len(set(ids)) != len(ids):
            raise BautaError(t("karmic.twice", locale))
        if len(npcs) > 8:
            raise BautaError(t("karmic.too_many", locale))
        await self._gm_room_is_private(interaction, bool(npcs), bot_plays_npcs)
        content = await self._pack(interaction.guild_id, pack)
        combatants, refs = [], {}

        def add(spec, ref, side):
            key = f"c{len(combatants) + 1}"
            combatants.append({**spec, "side": side})
            if ref is not None:
                refs[key] = ref

        new: dict = {}
        spec, ref = await self._player_character(interaction, interaction.user, character, content, new, locale)
        add(spec, ref, "A")
        if ally is not None:
            add(*await self._player_character(interaction, ally, ally_character, content, new, locale), "A")
        if opponent is not None:
            add(*await self._player_character(interaction, opponent, opponent_character, content, new, locale), "B")
        taken: dict[str, int] = {}
        for npc in npcs:
            add(*await self._npc(interaction.guild_id, npc, content, taken), "B")
        names = [(c["character"]["name"] if isinstance(c["character"], dict) else str(c["character"])).lower()
                 for c in combatants]

        def who(text: str) -> int:
            wanted = text.strip().lower()
            if wanted not in names:
                raise BautaError(t("karmic.start.no_fighter", locale, name=echo(text.strip()),
                                   names=", ".join(n.title() for n in names)))
            return names.index(wanted)

        for name in _split_names(dodge_only):
            combatants[who(name)]["dodge_only"] = True
        for name in _split_names(riding):
            combatants[who(name)]["multitask"] = "riding"
        await self._busy(interaction.guild_id, list(refs.values()))
        options = {"mode": "combat", "combatants": combatants, "range": range, "show_down": show_down,
                   "bot_plays_npcs": bot_plays_npcs, "pack": content, "world": await self._world(interaction.guild_id)}
        if pairs:
            engagements = []
            for pair in re.split(r"[;,]", pairs):
                if not pair.strip():
                    continue
                ab = [x for x in re.split(r"\s*(?:-|vs\.?|/)\s*", pair.strip()) if x]
                if len(ab) != 2 or who(ab[0]) == who(ab[1]):
                    raise BautaError(t("karmic.start.bad_pairs", locale, pair=echo(pair.strip())))
                engagements.append([who(ab[0]), who(ab[1])])
            options["engagements"] = engagements
        if charge:
            options["charge"] = who(charge)
        if surprised:
            options["surprise"] = {"attacker": who(ambusher) if ambusher else 0, "target": who(surprised),
                                   "totally_unaware": unaware}
        seats = [str(i) for i in ids]
        await self.host.start(interaction, NAME, seats, options,
                              intro=t("karmic.combat_intro", interaction.guild_locale,
                                      who=interaction.user.mention,
                                      names=", ".join(c["character"]["name"] if isinstance(c["character"], dict)
                                                      else str(c["character"]) for c in combatants),
                                      npcs=t("karmic.bot_npcs" if bot_plays_npcs else "karmic.gm_npcs",
                                             interaction.guild_locale) if npcs else ""),
                              meta=self._sheets_meta(refs))
        await self._save_new(interaction.guild_id, new)

    async def _my_game(self, interaction: discord.Interaction):
        game = await self.store.active_game(interaction.guild_id, interaction.channel_id) \
            if interaction.guild_id else None
        if game is None or game.system != NAME:
            return None, None
        return game, ENGINE.load_state(game.state)

    async def _my_state(self, interaction: discord.Interaction):
        return (await self._my_game(interaction))[1]

    async def _maneuver_names(self, interaction: discord.Interaction, current: str):
        game, state = await self._my_game(interaction)
        me = str(interaction.user.id)
        seen: dict[str, str] = {}
        say = Presenter(interaction.locale, NAME)
        if state is not None:
            for prompt in ENGINE.pending(state):
                if prompt.player == me and prompt.kind == "declare":
                    for o in prompt.options:
                        man = o.args.get("maneuver") or {}
                        if man and o.id.split(".")[0] not in seen:   # one entry per maneuver, not per variant
                            seen[o.id.split(".")[0]] = say.text(f"terms.{man['term']}")
                        elif o.kind in ("stop", "pass", "hesitate", "yield"):
                            seen[o.id] = say.option(o)
        if not seen:
            seen = {k: say.text(f"terms.maneuver.{k}") for k in MANEUVERS}
            seen.update({"stop": say.text("options.stop"), "pass": say.text("options.pass"),
                         "hes": say.text("options.hesitate")})
        return [app_commands.Choice(name=f"{n} ({k})"[:100], value=k) for k, n in seen.items()
                if current.lower() in n.lower() or current.lower() in k][:25]

    async def _hand_cards_choices(self, interaction: discord.Interaction, current: str):
        state = await self._my_state(interaction)
        if state is None or state.combat is None:
            return []
        me = str(interaction.user.id)
        cards = [c for k, f in state.combat.fighters.items() if state.controllers.get(k) == me for c in f.hand]
        return [app_commands.Choice(name=label(c), value=c) for c in cards
                if current.lower() in label(c).lower() or current.upper() in c][:25]

    @combat.command(name="declare", description="Declare a maneuver by command instead of the DM buttons")
    @app_commands.describe(maneuver="The maneuver (or stop, pass, hes)", card="The card to put face down",
                           weapon="The weapon (default: the main one)", location="A called shot's location",
                           no_step="Attack without stepping forward / parry standing your ground (−2)")
    @app_commands.autocomplete(maneuver=_maneuver_names, card=_hand_cards_choices, location=_locations)
    async def combat_declare(self, interaction: discord.Interaction, maneuver: str, card: str | None = None,
                             weapon: str | None = None, location: str | None = None, no_step: bool = False):
        await self.host.act(interaction, Declare(maneuver.strip().lower(), (card or "").strip().upper(),
                                                 weapon or "", location or "torso", no_step), system=NAME)

    @combat.command(name="end", description="GM: end the combat here now (decks are written back)")
    @app_commands.describe(reason="What happened (shown to the table)")
    async def combat_end(self, interaction: discord.Interaction, reason: str | None = None):
        await self.host.require_gm(interaction)
        await self.host.act(interaction, EndCombat((reason or t("karmic.gm_ends", interaction.guild_locale))[:300]),
                            system=NAME)

    @combat.command(name="npc", description="GM: take an NPC back from the bot (or give it back to the bot)")
    @app_commands.describe(name="The NPC's name", bot="True: the bot plays it again")
    async def combat_npc(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
                         bot: bool = False):
        await self.host.require_gm(interaction)
        await self.host.act(interaction, NpcControl(name, bot), system=NAME)

    @combat.command(name="nudge", description="GM: answer every overdue decision here with its time-out default")
    @app_commands.describe(minutes="Only if the game has waited at least this long (default 0)")
    async def combat_nudge(self, interaction: discord.Interaction,
                           minutes: app_commands.Range[int, 0, 10080] = 0):
        await self.host.require_gm(interaction)
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME)
        waited = datetime.now(UTC) - datetime.fromisoformat(game.updated_at)
        if waited < timedelta(minutes=minutes):
            raise BautaError(t("karmic.nudge.not_yet", interaction.locale,
                               minutes=int(waited.total_seconds() // 60), wanted=minutes))
        overdue = {p.id for p in ENGINE.pending(ENGINE.load_state(game.state))}
        answered: list[str] = []
        for _ in range(50):
            state = ENGINE.load_state(game.state)
            due = [p for p in ENGINE.pending(state) if p.id in overdue and p.id not in answered]
            if state.over or not due:
                break
            prompt = due[0]
            option = ENGINE.default_option(state, prompt.id)
            actor = Actor(prompt.player, gm=prompt.player == GM)
            # logged as "timeout" and announced without the option: it may be a card of a hidden hand
            game, outcome, before = await self.host.commit(game, Choose(prompt.id, (option,)), actor,
                                                           interaction.locale, log_as="timeout")
            answered.append(prompt.id)
            who = _who(prompt.player)
            await self.host.courier.send_channel(game.channel_id, t("karmic.nudge.answered", interaction.guild_locale,
                                                                    who=who))
            await self.host.publish(interaction, game, outcome.state, outcome.events, before)
        await self.host.finish(interaction, t("karmic.nudge.done" if answered else "karmic.nudge.none",
                                              interaction.locale, n=len(answered)))

    @combat.command(name="board", description="Post the combat board again here (the live board moves down)")
    async def combat_board(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME)
        state = ENGINE.load_state(game.state)
        if state.mode != "combat":
            raise BautaError(t("karmic.not_combat", interaction.locale))
        await show_board(self.host, game, state, [], force_new=True)
        await self.host.finish(interaction, t("karmic.board_posted", interaction.locale))


async def setup(bot):
    from .karmic_advance import KarmicAdvanceCog
    await bot.add_cog(KarmicCog(bot))
    await bot.add_cog(KarmicAdvanceCog(bot))
