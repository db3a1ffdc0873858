"""Karmic combat on Discord: `/karmic combat start|declare|end|npc|nudge|board`."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, UTC

import discord
from discord import app_commands

from i18n import t
from i18n.present import Presenter
from rules.common import GM, Actor, Choose, Event
from rules.karmic import (ENGINE, MANEUVERS, Declare, EndCombat, NpcControl, matches, said)

from cogs.host import echo
from .common import (refused, card_words, NAME, _split_names, _who, combat)

from .board import show_board
from .sheets import KarmicSheets


class KarmicCombat(KarmicSheets):
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
    @app_commands.autocomplete(character=KarmicSheets._my_characters, opponents=KarmicSheets._npc_names)
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
            raise refused("charge_and_surprise")
        npcs = _split_names(opponents)
        if opponent is None and not npcs:
            raise refused("no_opponent")
        members = [m for m in (opponent, ally) if m is not None]
        if any(getattr(m, "bot", False) for m in members):
            raise refused("no_bots")
        ids = [interaction.user.id] + [m.id for m in members]
        if len(set(ids)) != len(ids):
            raise refused("fights_twice")
        if len(npcs) > 8:
            raise refused("too_many_npcs")
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
        # each fighter's name and its forms per language: a name is typed as its reader reads it
        named = [(c["character"]["name"], c["character"].get("names") or {}) if isinstance(c["character"], dict)
                 else (str(c["character"]), {}) for c in combatants]

        def who(text: str) -> int:
            found = [i for i, (n, forms) in enumerate(named) if matches(text, n, forms)]
            if not found:
                raise refused("no_fighter_named", name=echo(text.strip()), names=[said(n, f) for n, f in named])
            return found[0]

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
                    raise refused("bad_pair", pair=echo(pair.strip()))
                engagements.append([who(ab[0]), who(ab[1])])
            options["engagements"] = engagements
        if charge:
            options["charge"] = who(charge)
        if surprised:
            options["surprise"] = {"attacker": who(ambusher) if ambusher else 0, "target": who(surprised),
                                   "totally_unaware": unaware}
        seats = [str(i) for i in ids]
        await self.host.start(interaction, NAME, seats, options,
                              intro=Event("combat_opened", {
                                  "player": str(interaction.user.id),
                                  "names": [said(n, forms) for n, forms in named],
                                  "npcs": {"term": "bot_npcs" if bot_plays_npcs else "gm_npcs"} if npcs
                                  else {"term": "nothing"}}),
                              meta=self._sheets_meta(refs, options))
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
                        man = o.args.get("man")
                        if man and man not in seen:            # one entry per maneuver, not per variant
                            seen[man] = say.text(f"terms.maneuver.{man}")
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
        say = Presenter(interaction.locale, NAME)
        named = {c: card_words(say, [c]) for c in cards}
        return [app_commands.Choice(name=n, value=c) for c, n in named.items()
                if current.lower() in n.lower() or current.upper() in c][:25]

    @combat.command(name="declare", description="Declare a maneuver by command instead of the DM buttons")
    @app_commands.describe(maneuver="The maneuver (or stop, pass, hes)", card="The card to put face down",
                           weapon="The weapon (default: the main one)", location="A called shot's location",
                           no_step="Attack without stepping forward / parry standing your ground (−2)")
    @app_commands.autocomplete(maneuver=_maneuver_names, card=_hand_cards_choices,
                               location=KarmicSheets._locations)
    async def combat_declare(self, interaction: discord.Interaction, maneuver: str, card: str | None = None,
                             weapon: str | None = None, location: str | None = None, no_step: bool = False):
        await self.host.act(interaction, Declare(maneuver.strip().lower(), (card or "").strip().upper(),
                                                 weapon or "", location or "torso", no_step), system=NAME)

    @combat.command(name="end", description="GM: end the combat here now (decks are written back)")
    @app_commands.describe(reason="What happened (shown to the table)")
    async def combat_end(self, interaction: discord.Interaction, reason: str | None = None):
        await self.host.require_gm(interaction)
        await self.host.act(interaction, EndCombat(echo(reason, limit=300) if reason else ""),
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
            waited_minutes = int(waited.total_seconds() // 60)
            raise refused("nudge_not_yet", minutes=waited_minutes, wanted=minutes, count=waited_minutes)
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
                                                           log_as="timeout")
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
            raise refused("not_combat")
        await show_board(self.host, game, state, [], force_new=True)
        await self.host.finish(interaction, t("karmic.board_posted", interaction.locale))
