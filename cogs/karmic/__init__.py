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
  new hand is DMed as an image too, with the fighter's first decision of the round. A fighter's
  decisions of one round share at most two DMs (the engine's `Prompt.thread`): the round's hand
  and its declarations, edited in place, then one for what the revealed cards ask (hits, the
  Rule-of-Fives offer); a later decision in the same DM is an edit, which does not notify (the
  board names who is awaited; `/gm reminder` pings an idle player).
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



from i18n import t
from renderers import karmic as R
from rules.karmic import AI, ENGINE, HOUSE_RULES, characters_out, settle_cards

from cogs.host import systems
from .common import (GM_OWNER, LIVE, NAME, SHEETS, TITLE, USES_WORLD, WORLD, karmic, log)

from .board import describe, hand_picture, load_pack, render, show_board
from .checks import KarmicChecks
from .combat import KarmicCombat
from .sheets import DeckButton, campaign_page, offer_reshuffles

__all__ = ["GM_OWNER", "LIVE", "NAME", "R", "SHEETS", "SYSTEM", "USES_WORLD", "WORLD", "DeckButton", "KarmicCog",
           "describe", "render", "setup"]


# ============================================================================ writing back
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


async def on_over(host, interaction, game, state) -> list[str]:
    """Ended by its rules, or by force (`/game end`): then the cards still in play go back first.
    Says whose decks were saved (the host tells it with the game's chronicle)."""
    if not state.over:
        settle_cards(state)
    saved = await (write_back_advancement if state.mode == "advance" else write_back)(host, game, state)
    if state.mode != "advance":
        await offer_reshuffles(host, game, state)
    if not saved:
        return []
    locale = await host.server_locale(game, interaction)
    return [t("karmic.decks_saved", locale, names=", ".join(saved))]

SYSTEM = systems.register(systems.System(
    name=NAME, title=TITLE, engine=ENGINE, describe=describe, render=render, house_rules=dict(HOUSE_RULES),
    load_pack=load_pack, after_publish=after_publish, on_over=on_over, prompt_image=hand_picture,
    ai=AI, thinks=lambda options: bool(options.get("bot_plays_npcs")),   # the NPCs the bot plays in its steps
    campaign=campaign_page))


# ============================================================================ the cog
class KarmicCog(KarmicCombat, KarmicChecks):
    """`/karmic`: the sheets (cogs/karmic_sheets.py), checks (cogs/karmic_checks.py) and combat
    (cogs/karmic_combat.py) commands, in one command group."""

    karmic = karmic

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DeckButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DeckButton)


async def setup(bot):
    from .advance import KarmicAdvanceCog
    await bot.add_cog(KarmicCog(bot))
    await bot.add_cog(KarmicAdvanceCog(bot))
