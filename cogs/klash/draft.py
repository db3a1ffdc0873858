"""/klash card, draft and team: a gladiator's profile, the Gladiator Auction, the team choice."""
from __future__ import annotations

import asyncio
import re
from typing import Any

import content
import discord
from discord import app_commands

from i18n import t
from rules.common import BautaError, Event
from rules.klash import ENGINE, SelectTeam, load_pack_text

from cogs.host import botplayer, untrusted
from cogs.host import chunks, echo, prompt_view, reply
from .board import NAME, _clean
from .input import _find_model, card_text

from .common import KlashBase, klash


class KlashDraft(KlashBase):
    # ---------------------------------------------------------------- /klash card
    @klash.command(name="card", description="Show a gladiator card's profile (only to you)")
    @app_commands.describe(name="A card of this game's pack, or a model in the arena")
    @app_commands.autocomplete(name=KlashBase.ac_card)
    async def card(self, interaction: discord.Interaction, name: str):
        await interaction.response.defer(ephemeral=True, thinking=True)
        state, cards = await self._cards(interaction)
        key = name.strip()
        if key not in cards:
            model = _find_model(state, key, interaction.locale) if state is not None else None
            low = key.lower()
            key = model.card if model else next(
                (cid for cid, c in cards.items() if low in {_clean(n).lower() for n in
                                                            [c["name"], *(c.get("names") or {}).values()]}), key)
        if key not in cards:
            raise BautaError(t("klash.unknown_card", interaction.locale, name=echo(name, 60)))
        await interaction.followup.send(card_text(cards[key], interaction.locale)[:2000], ephemeral=True)

    # ---------------------------------------------------------------- /klash draft
    @klash.command(name="draft", description="Start a Klash! game: the Gladiator Auction against an opponent")
    @app_commands.describe(opponent="The other player (or Bauta itself)", pack="A content pack imported with /pack import (default: sample)",
                           vs_bot="Play against Bauta", level="How well Bauta plays (default normal)")
    @app_commands.autocomplete(pack=KlashBase._pack_choices)
    async def draft(self, interaction: discord.Interaction, opponent: discord.Member | None = None, pack: str | None = None,
                    vs_bot: bool = False, level: botplayer.Level = "normal"):
        await self.host.begin(interaction)
        locale = interaction.locale
        rival = botplayer.opponent(self.bot, interaction, opponent, vs_bot, "klash.not_yourself")
        options: dict[str, Any] = {"pack": await asyncio.to_thread(content.sample_pack, NAME)}   # read once, then cached
        seats = [str(interaction.user.id), rival]
        intro = Event("draft_opened", {"a_player": seats[0], "b_player": seats[1]})
        if pack:
            text = await self.store.pack(interaction.guild_id, NAME, pack)
            if text is None:
                raise BautaError(t("klash.no_pack", locale, name=echo(pack)))
            options["pack"] = await untrusted.parse(load_pack_text, text, pack, source=pack, locale=locale)
            intro = Event("draft_opened_pack", {"a_player": seats[0], "b_player": seats[1], "pack": echo(pack)})
        await self.host.start(interaction, NAME, seats, options=options, meta=botplayer.meta(self.bot, seats, level),
                              intro=intro)

    # ---------------------------------------------------------------- /klash team
    @klash.command(name="team", description="Choose your team: up to 8 of your 12 cards (or see them and the select)")
    @app_commands.describe(cards="Numbers of your cards, e.g. `1 2 5 7 9` (leave empty to see your 12 cards)")
    async def team(self, interaction: discord.Interaction, cards: str | None = None):
        await self.host.begin(interaction)
        game, state = await self._game_state(interaction)
        me = str(interaction.user.id)
        locale = interaction.locale
        if me not in state.seats and not await self.host.is_gm(interaction):
            raise BautaError(t("klash.not_seated", locale))
        if not cards:
            if state.phase != "team" or me not in state.seats or me in state.team_choice:
                await reply(interaction, t("klash.team_none", locale), ephemeral=True)
                return
            picks = state.picks[me]
            lines = [t("klash.team_picks", locale)] + [
                f"{i + 1}. {_clean(state.cards[c]['name'])} — {state.cards[c]['type']}, {state.cards[c]['vp']} VP"
                for i, c in enumerate(picks)]
            await reply(interaction, chunks(lines)[0], ephemeral=True)    # host.begin promised an answer
            say = self.host.presenter(game, interaction.locale)
            for prompt in ENGINE.pending(state):
                if prompt.player == me:
                    await interaction.followup.send(say.prompt(prompt)[:2000], view=prompt_view(game.id, prompt, say),
                                                    ephemeral=True)
            return
        n = len(state.picks.get(me, [])) or 12
        try:
            numbers = [int(x) for x in re.split(r"[\s,;]+", cards.strip()) if x]
        except ValueError:
            raise BautaError(t("klash.team_bad", locale, n=n)) from None
        if not numbers or any(not 1 <= x <= n for x in numbers):
            raise BautaError(t("klash.team_bad", locale, n=n))
        await self._act(interaction, SelectTeam(tuple(x - 1 for x in numbers)), t("klash.team_sent", locale))
