"""/klash match and the typed actions of the arena: deployment, activation, the seven actions,
Event Cards."""
from __future__ import annotations


import discord
from discord import app_commands

from i18n import present, t
from i18n.present import Presenter
from rules.common import PUBLIC, BautaError
from rules.klash import (ENGINE, Activate, Assault, Charge, Deploy, Disengage, EndActivation, Magic, Move,
                         PassEvent, PlayEvent, Recover, UseToken, Volley)

from cogs.host import chunks
from .board import _card_name, _clean, describe, show_board
from .input import _destination, _model_id, _shown_name

from .common import KlashBase, klash


class KlashMatch(KlashBase):
    # ---------------------------------------------------------------- /klash match
    @klash.command(name="match", description="The arena (or auction), the score and the pending decision: resume here")
    async def match(self, interaction: discord.Interaction):
        game, state = await self._game_state(interaction)   # no game here: refused privately
        await interaction.response.defer(thinking=True)
        view = ENGINE.view_for(state, PUBLIC)
        reading = present.READER.set(self.host.presenter(game, await self.host.server_locale(game, interaction)))
        try:
            described = describe(view, PUBLIC)     # a public message: in the channel's language
        finally:
            present.READER.reset(reading)
        for text in chunks([described]):
            await interaction.followup.send(text)
        await show_board(self.host, game, state, new=True)
        if not ENGINE.pending(state):
            await interaction.followup.send(t("klash.nothing_pending", interaction.guild_locale))
        await self.host.republish(interaction, await self.store.game(game.id) or game, dm_prompts=False)

    # ---------------------------------------------------------------- deployment and activation
    @klash.command(name="deploy", description="Deploy one of your models at your Gate (x y in cm; empty: nearest free spot)")
    @app_commands.describe(model="Your model to deploy", x="cm from the west edge (0–120)", y="cm from the south edge (0–120)")
    @app_commands.autocomplete(model=KlashBase.ac_deploy_model)
    async def deploy(self, interaction: discord.Interaction, model: str, x: float | None = None, y: float | None = None):
        state, mid = await self._typed(interaction, model)
        if x is None or y is None:
            spots = ENGINE.deploy_spots(state, mid)
            if not spots:
                raise BautaError(t("klash.no_spot", interaction.locale, name=_shown_name(state, state.model(mid), interaction.locale)))
            x, y = spots[0]
        await self._act(interaction, Deploy(mid, float(x), float(y)))

    @klash.command(name="activate", description="Activate one of your Ready models")
    @app_commands.describe(model="The model to activate")
    @app_commands.autocomplete(model=KlashBase.ac_ready_model)
    async def activate(self, interaction: discord.Interaction, model: str):
        _, mid = await self._typed(interaction, model)
        await self._act(interaction, Activate(mid))

    # ---------------------------------------------------------------- the seven actions
    @klash.command(name="move", description="Move the active model: x y in cm, toward something, or distance + direction")
    @app_commands.describe(model="The active model", x="Destination x (cm)", y="Destination y (cm)",
                           toward="A model, the Altar or a Gate", distance="How far (cm); with toward or direction",
                           direction="Degrees (0 east, 90 north) or N, NE, E, SE, S, SW, W, NW",
                           double="Spend both actions: twice the distance")
    @app_commands.autocomplete(model=KlashBase.ac_active_model, toward=KlashBase.ac_toward)
    async def move(self, interaction: discord.Interaction, model: str, x: float | None = None, y: float | None = None,
                   toward: str | None = None, distance: app_commands.Range[float, 0.1, 200.0] | None = None,
                   direction: str | None = None, double: bool = False):
        state, mid = await self._typed(interaction, model)
        points = _destination(state, mid, x, y, toward, distance, direction, double=double, locale=interaction.locale)
        via = tuple(c for p in points[:-1] for c in p)
        await self._act(interaction, Move(mid, points[-1][0], points[-1][1], double=double, via=via))

    @klash.command(name="disengage", description="Disengage the active model from melee (x y, toward, or distance + direction)")
    @app_commands.describe(model="The active model", x="Destination x (cm)", y="Destination y (cm)",
                           toward="A model, the Altar or a Gate", distance="How far (cm)",
                           direction="Degrees (0 east, 90 north) or a compass point")
    @app_commands.autocomplete(model=KlashBase.ac_active_model, toward=KlashBase.ac_toward)
    async def disengage(self, interaction: discord.Interaction, model: str, x: float | None = None,
                        y: float | None = None, toward: str | None = None,
                        distance: app_commands.Range[float, 0.1, 200.0] | None = None, direction: str | None = None):
        state, mid = await self._typed(interaction, model)
        points = _destination(state, mid, x, y, toward, distance, direction, disengage=True, locale=interaction.locale)
        await self._act(interaction, Disengage(mid, points[-1][0], points[-1][1]))

    @klash.command(name="assault", description="Melee attack an enemy in base contact")
    @app_commands.describe(model="The active model", target="An enemy in base contact",
                           double="Spend both actions: Increased attack")
    @app_commands.autocomplete(model=KlashBase.ac_active_model, target=KlashBase.ac_assault_target)
    async def assault(self, interaction: discord.Interaction, model: str, target: str, double: bool = False):
        state, mid = await self._typed(interaction, model)
        loc = interaction.locale
        await self._act(interaction, Assault(mid, _model_id(state, target, loc), double))

    @klash.command(name="volley", description="Shoot an enemy in range and line of sight")
    @app_commands.describe(model="The active model", target="An enemy in range", double="Spend both actions: Increased")
    @app_commands.autocomplete(model=KlashBase.ac_active_model, target=KlashBase.ac_volley_target)
    async def volley(self, interaction: discord.Interaction, model: str, target: str, double: bool = False):
        state, mid = await self._typed(interaction, model)
        loc = interaction.locale
        await self._act(interaction, Volley(mid, _model_id(state, target, loc), double))

    @klash.command(name="charge", description="Charge an enemy in a straight line within Speed, then attack")
    @app_commands.describe(model="The active model", target="An enemy it can reach", double="Spend both actions: Increased",
                           touch="End with Destructive Touch instead of an Assault")
    @app_commands.autocomplete(model=KlashBase.ac_active_model, target=KlashBase.ac_charge_target)
    async def charge(self, interaction: discord.Interaction, model: str, target: str, double: bool = False,
                     touch: bool = False):
        state, mid = await self._typed(interaction, model)
        loc = interaction.locale
        await self._act(interaction, Charge(mid, _model_id(state, target, loc), double, touch))

    @klash.command(name="magic", description="Cast a spell (Teleport: give x y)")
    @app_commands.describe(model="The active Spellcaster", spell="One of its spells", target="The spell's target",
                           double="Spend both actions: Increased", x="Teleport: x (cm)", y="Teleport: y (cm)")
    @app_commands.autocomplete(model=KlashBase.ac_active_model, spell=KlashBase.ac_spell, target=KlashBase.ac_spell_target)
    async def magic(self, interaction: discord.Interaction, model: str, spell: str, target: str | None = None,
                    double: bool = False, x: float | None = None, y: float | None = None):
        state, mid = await self._typed(interaction, model)
        loc = interaction.locale
        spell = spell.strip().lower().replace(" ", "_")
        tid = _model_id(state, target, loc) if target else ""
        if spell == "teleport" and (x is None or y is None):
            points = ENGINE.teleport_points(state, mid)
            if points:
                x, y = points[0]
        await self._act(interaction, Magic(mid, spell, tid, double, float(x or 0.0), float(y or 0.0)))

    @klash.command(name="recover", description="A Stunned model tries to recover (Discipline test)")
    @app_commands.describe(model="The active model", free="Regeneration: recover for free, no test")
    @app_commands.autocomplete(model=KlashBase.ac_active_model)
    async def recover(self, interaction: discord.Interaction, model: str, free: bool = False):
        state, mid = await self._typed(interaction, model)
        await self._act(interaction, Recover(mid, free))

    @klash.command(name="token", description="Spend a Training Token: extra action, extra activation or a re-roll")
    @app_commands.describe(model="Your model", effect="What the token does")
    @app_commands.choices(effect=[app_commands.Choice(name="Extra action (during its activation)", value="action"),
                                  app_commands.Choice(name="Extra activation (after your activation)", value="activation"),
                                  app_commands.Choice(name="Arm a re-roll (house rule; else asked after a failed roll)", value="reroll")])
    @app_commands.autocomplete(model=KlashBase.ac_own_model)
    async def token(self, interaction: discord.Interaction, model: str, effect: str):
        _, mid = await self._typed(interaction, model)
        await self._act(interaction, UseToken(mid, effect))

    @klash.command(name="end", description="End the active model's activation")
    @app_commands.describe(model="The active model")
    @app_commands.autocomplete(model=KlashBase.ac_active_model)
    async def end(self, interaction: discord.Interaction, model: str):
        _, mid = await self._typed(interaction, model)
        await self._act(interaction, EndActivation(mid))

    # ---------------------------------------------------------------- Event Cards
    @klash.command(name="event", description="Play an Event Card from your hand (your hand is in your DMs)")
    @app_commands.describe(card="A card in your hand", target="The card's target model, if it needs one")
    @app_commands.autocomplete(card=KlashBase.ac_event_card, target=KlashBase.ac_event_target)
    async def event(self, interaction: discord.Interaction, card: str, target: str | None = None):
        # Acknowledged privately: a refused play names nothing in the channel; the engine announces a played card.
        await self.host.begin(interaction)
        _, state = await self._game_state(interaction)
        me = str(interaction.user.id)
        hand = state.hands.get(me, [])
        key = card.strip()
        lang = Presenter(interaction.locale).language
        if key not in hand:   # a typed name (in any of the pack's languages) instead of the autocompleted id
            key = next((c for c in hand if key.lower() in {_clean(n).lower() for n in
                        [state.event_cards[c]["name"], *(state.event_cards[c].get("names") or {}).values()]}), key)
        tid = _model_id(state, target, interaction.locale) if target else ""
        name = _card_name(state.event_cards[key], lang) if key in state.event_cards else key
        await self._act(interaction, PlayEvent(key, tid), t("klash.played", interaction.locale, card=name))

    @klash.command(name="pass", description="Do not answer the Event Card just played: the cards resolve")
    async def pass_(self, interaction: discord.Interaction):
        await self._act(interaction, PassEvent(), t("klash.passed", interaction.locale))
