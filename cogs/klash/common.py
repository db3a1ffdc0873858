"""What the /klash commands share: the command group, the channel's game and its state, one
engine action per command, and the autocompletes of models, targets, spells and cards."""
from __future__ import annotations

import asyncio
from typing import Any

import content
import discord
from discord import app_commands

from i18n import t
from i18n.present import Presenter
from renderers import klash as R
from rules.klash import ENGINE

from cogs.host import BautaCog, mention
from .board import NAME, _card_name, _clean
from .input import _find_model, _model_id

klash = app_commands.Group(name="klash", description="Klash! Sangue & Sabbia: gladiator auction and arena",
                           guild_only=True)


def _autocomplete(helper: str, kind: str):
    """An autocomplete method of the cog: `helper` (`_models` or `_targets`) for one scope or kind."""
    async def callback(self, interaction, current: str):
        return await getattr(self, helper)(interaction, current, kind)
    # discord.py passes the cog to an autocomplete callback whose qualified name is a class's method
    callback.__name__ = f"ac_{helper.strip('_')}_{kind}"
    callback.__qualname__ = f"KlashBase.{callback.__name__}"
    return callback


class KlashBase(BautaCog):
    # ---------------------------------------------------------------- shared
    async def _game_state(self, interaction):
        game = await self.host.channel_game(interaction, NAME)
        return game, ENGINE.load_state(game.state)

    async def _apply(self, interaction: discord.Interaction, action: Any) -> None:
        """One engine action of a command: acknowledged privately (a refusal reaches only its
        sender), committed, its public events and prompts posted to the channel."""
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME)
        actor = await self.host.actor(interaction, game=game)
        new, outcome, before = await self.host.commit(game, action, actor)
        await self.host.publish(interaction, new, outcome.state, outcome.events, before)

    async def _act(self, interaction: discord.Interaction, action: Any, done: str | None = None) -> None:
        """`_apply`, then the private "✓ Done." (or `done`) that closes the command."""
        await self._apply(interaction, action)
        await self.host.finish(interaction, done)

    async def _typed(self, interaction: discord.Interaction, model: str):
        """The start of a typed action: acknowledged privately, the channel's game and the model
        named. Returns (state, model id). A typed action for a Ready model when nothing is active
        yet activates it first: that is the engine's rule (``OPENS_ACTIVATION``), not the cog's."""
        await self.host.begin(interaction)
        _, state = await self._game_state(interaction)
        return state, _model_id(state, model, interaction.locale)

    # ---------------------------------------------------------------- autocomplete
    async def _state_or_none(self, interaction):
        if not interaction.guild_id:
            return None
        game = await self.store.active_game(interaction.guild_id, interaction.channel_id)
        if game is None or game.system != NAME:
            return None
        return ENGINE.load_state(game.state)

    @staticmethod
    def _choices(items, current: str):
        current = (current or "").lower()
        return [app_commands.Choice(name=label[:100], value=value[:100]) for value, label in items
                if current in label.lower() or current in value.lower()][:25]

    @staticmethod
    def _label(state, m, locale=None) -> str:
        """An autocomplete line: the model's shown name, its disc number and where it stands."""
        say = Presenter(locale, game=NAME)
        flags = f" · {say.text('terms.stunned', plain=True)}" if m.stunned else ""
        where = f" ({m.x:.0f}, {m.y:.0f})" if m.placed else ""
        return f"#{m.id[1:]} {R.model_name(state.label(m), say)}{where}{flags}"

    async def _models(self, interaction, current, scope):
        state = await self._state_or_none(interaction)
        if state is None:
            return []
        me = str(interaction.user.id)
        if me not in state.seats:
            me = state.acts[-1].controller if state.acts else (state.deploy_turn or state.turn_player or state.seats[0])
        models = ENGINE.command_models(state, me, scope)
        if scope == "active" and not models:
            models = ENGINE.command_models(state, me, "own")
        return self._choices([(m.id, self._label(state, m, interaction.locale)) for m in models], current)

    ac_deploy_model = _autocomplete("_models", "deploy")
    ac_ready_model = _autocomplete("_models", "ready")
    ac_active_model = _autocomplete("_models", "active")
    ac_own_model = _autocomplete("_models", "own")

    def _namespace_model(self, interaction, state):
        text = getattr(getattr(interaction, "namespace", None), "model", None)
        m = _find_model(state, text, getattr(interaction, "locale", None))
        if m is None and state.acts:
            m = state.model(state.acts[-1].model)
        return m

    async def _state_and_model(self, interaction):
        """The channel's match and the model the command names so far; None without either."""
        state = await self._state_or_none(interaction)
        m = self._namespace_model(interaction, state) if state is not None else None
        return None if m is None else (state, m)

    async def _targets(self, interaction, current, kind):
        found = await self._state_and_model(interaction)
        if found is None:
            return []
        state, m = found
        if kind == "spell":
            spell = getattr(getattr(interaction, "namespace", None), "spell", None) or ""
            kind = f"spell:{spell}"
        targets = ENGINE.command_targets(state, m.id, kind)
        return self._choices([(x.id, self._label(state, x, interaction.locale)) for x in targets], current)

    ac_assault_target = _autocomplete("_targets", "assault")
    ac_volley_target = _autocomplete("_targets", "volley")
    ac_charge_target = _autocomplete("_targets", "charge")
    ac_spell_target = _autocomplete("_targets", "spell")

    async def ac_spell(self, interaction, current: str):
        found = await self._state_and_model(interaction)
        if found is None:
            return []
        state, m = found
        return self._choices([(s, s.replace("_", " ").title()) for s in ENGINE.spells(state, m.id)], current)

    async def ac_toward(self, interaction, current: str):
        state = await self._state_or_none(interaction)
        if state is None:
            return []
        me = str(interaction.user.id)
        own_gate = state.gates.get(me, -1)
        items = [("alt", t("klash.toward_altar", interaction.locale))]
        for i in (0, 1):
            who = t("klash.gate_yours" if i == own_gate else "klash.gate_enemy", interaction.locale) \
                if own_gate >= 0 else mention(next((p for p, g in state.gates.items() if g == i), "")) or "—"
            items.append((f"g{i}", t("klash.toward_gate", interaction.locale, n=i + 1, who=who)))
        items += [(m.id, self._label(state, m, interaction.locale)) for m in state.on_field()]
        return self._choices(items, current)

    async def _seated(self, interaction):
        """The channel's game state and the caller's seat in it, or None when they hold none."""
        state = await self._state_or_none(interaction)
        me = str(interaction.user.id)
        return (state, me) if state is not None and me in state.seats else None

    async def ac_event_card(self, interaction, current: str):
        """Only the caller's own hand; autocompletion is shown to the caller alone."""
        seated = await self._seated(interaction)
        if seated is None:
            return []
        state, me = seated
        seen, items = set(), []
        lang = Presenter(interaction.locale).language
        for card in state.hands[me]:
            if card in seen:
                continue
            seen.add(card)
            items.append((card, _card_name(state.event_cards[card], lang)))
        return self._choices(items, current)

    async def ac_event_target(self, interaction, current: str):
        seated = await self._seated(interaction)
        if seated is None:
            return []
        state, me = seated
        card = getattr(getattr(interaction, "namespace", None), "card", None)
        targets = ENGINE.event_targets(state, me, card) if card in state.hands[me] else None
        return self._choices([(m.id, self._label(state, m, interaction.locale)) for m in (targets or [])], current)

    async def _pack_choices(self, interaction, current: str):
        if not interaction.guild_id:
            return []
        packs = await self.store.packs(interaction.guild_id, NAME)
        return self._choices([(p["name"], p["name"]) for p in packs], current)

    async def _cards(self, interaction) -> tuple[Any, dict]:
        """The channel's game and its pack's cards; with no game here, the sample pack (a lookup)."""
        state = await self._state_or_none(interaction)
        return state, (state.cards if state is not None else (await asyncio.to_thread(content.sample_pack, NAME))["characters"])

    async def ac_card(self, interaction, current: str):
        _, cards = await self._cards(interaction)
        return self._choices([(cid, _clean(c["name"])) for cid, c in sorted(cards.items())], current)
