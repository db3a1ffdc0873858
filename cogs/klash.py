"""/klash: Klash! Sangue & Sabbia on Discord — the Gladiator Auction, team building and the arena match.

Thin on purpose: the rules live in `rules/klash/`, the images in `renderers/klash.py`, what the
table shows (status text, live boards, hand pictures) in `klash_board.py`, typed input is read in
`klash_input.py`, and every
decision is one of the engine's prompts, which the framework turns into buttons or a select for the
player who owns it (only they may click; a stale click gets an ephemeral answer). This cog adds:

- `/klash draft opponent [pack]`: opens the game (the auction). Each pick prompt is ONE message: the
  **draft table** image (the revealed cards, who picks, both players' picks so far, drawn from the
  public view by `prompt_image`) with a button per card. When the auction ends, the final table is
  posted once (its id is kept in the game's `meta`).
- `/klash team [cards]`: the team select is posted by the framework; the command shows your 12 cards
  and takes a typed choice too. The engine checks the requirements and posts the team VP.
- `/klash match`: the arena, the state and the pending decision again (also the way to resume a
  paused match). During deployment and the match the **arena image** is one live message per
  activation: posted when a model activates (with its range rings) and edited after every action,
  so after every activation the channel shows the arena as it ended.
- Typed actions with autocompletion for models, targets, spells and Event Cards: `deploy`,
  `activate`, `move`, `disengage`, `assault`, `volley`, `charge`, `magic`, `recover`, `token`,
  `end`, `event`, `pass`. Positions are `x y` in cm, or `toward` a model / the Altar / a Gate
  (with an optional `distance`), or a `distance` and a `direction`. An action typed for a Ready model
  when nothing is active activates it first (a separate engine action, so undo steps stay small).
- Event Card hands: the engine's private prompts give a button per playable card by DM, with the
  `hand_png` image of that player's own hand in the same message (`prompt_image`, the player's view;
  also on the answer and Final Phase swap prompts). When a hand changes and no hand prompt is up (no
  card playable now), the hand image goes in the DM of the draw that changed it (`news_image`), or
  alone when the change was public (a card played).

Every command that acts is acknowledged privately by the host (`host.begin`): its public result is
posted to the channel, and a refusal (a card not in your hand, a model not yours) is seen only by
its sender. The live boards are `host.live_message`s.

Everything is one engine action per click or command, committed before anything is posted, so a
match pauses anywhere and resumes with `/klash match`; `/game undo` takes back any action.
"""
from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import content
import discord
from discord import app_commands

from i18n import present, t
from i18n.present import Presenter
from renderers import klash as R
from rules.common import PUBLIC, BautaError, Event
from rules.klash import (ENGINE, HOUSE_RULES, Activate, Assault, Charge, Deploy, Disengage, EndActivation, Magic, Move,
                         PassEvent, PlayEvent, Recover, SelectTeam, UseToken, Volley, load_pack_text)

from . import botplayer, systems, untrusted
from .framework import BautaCog, chunks, mention, prompt_view, reply
from .klash_board import (ARENA, DRAFT, NAME, TITLE, _card_name, _clean, _names, after_publish, attach,  # noqa: F401
                          describe, load_pack, news_image, prompt_image, public_view, render, send_hand, show_board)
from .klash_input import _destination, _find_model, _model_id, _shown_name, card_text  # noqa: F401
from .text import echo

log = logging.getLogger("bauta.klash")

SYSTEM = systems.register(systems.System(
    name=NAME, title=TITLE, engine=ENGINE, describe=describe, render=render, house_rules=dict(HOUSE_RULES),
    load_pack=load_pack, after_publish=after_publish, prompt_image=prompt_image, news_image=news_image))


# ============================================================================ the cog
def _autocomplete(helper: str, kind: str):
    """An autocomplete method of the cog: `helper` (`_models` or `_targets`) for one scope or kind."""
    async def callback(self, interaction, current: str):
        return await getattr(self, helper)(interaction, current, kind)
    # discord.py passes the cog to an autocomplete callback whose qualified name is a class's method
    callback.__name__ = f"ac_{helper.strip('_')}_{kind}"
    callback.__qualname__ = f"KlashCog.{callback.__name__}"
    return callback


class KlashCog(BautaCog):
    klash = app_commands.Group(name="klash", description="Klash! Sangue & Sabbia: gladiator auction and arena",
                               guild_only=True)

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

    async def _targets(self, interaction, current, kind):
        state = await self._state_or_none(interaction)
        if state is None:
            return []
        m = self._namespace_model(interaction, state)
        if m is None:
            return []
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
        state = await self._state_or_none(interaction)
        if state is None:
            return []
        m = self._namespace_model(interaction, state)
        if m is None:
            return []
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

    async def ac_event_card(self, interaction, current: str):
        """Only the caller's own hand; autocompletion is shown to the caller alone."""
        state = await self._state_or_none(interaction)
        me = str(interaction.user.id)
        if state is None or me not in state.seats:
            return []
        seen, items = set(), []
        lang = Presenter(interaction.locale).language
        for card in state.hands[me]:
            if card in seen:
                continue
            seen.add(card)
            items.append((card, _card_name(state.event_cards[card], lang)))
        return self._choices(items, current)

    async def ac_event_target(self, interaction, current: str):
        state = await self._state_or_none(interaction)
        me = str(interaction.user.id)
        if state is None or me not in state.seats:
            return []
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

    # ---------------------------------------------------------------- /klash card
    @klash.command(name="card", description="Show a gladiator card's profile (only to you)")
    @app_commands.describe(name="A card of this game's pack, or a model in the arena")
    @app_commands.autocomplete(name=ac_card)
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
    @app_commands.autocomplete(pack=_pack_choices)
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
    @app_commands.autocomplete(model=ac_deploy_model)
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
    @app_commands.autocomplete(model=ac_ready_model)
    async def activate(self, interaction: discord.Interaction, model: str):
        _, mid = await self._typed(interaction, model)
        await self._act(interaction, Activate(mid))

    # ---------------------------------------------------------------- the seven actions
    @klash.command(name="move", description="Move the active model: x y in cm, toward something, or distance + direction")
    @app_commands.describe(model="The active model", x="Destination x (cm)", y="Destination y (cm)",
                           toward="A model, the Altar or a Gate", distance="How far (cm); with toward or direction",
                           direction="Degrees (0 east, 90 north) or N, NE, E, SE, S, SW, W, NW",
                           double="Spend both actions: twice the distance")
    @app_commands.autocomplete(model=ac_active_model, toward=ac_toward)
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
    @app_commands.autocomplete(model=ac_active_model, toward=ac_toward)
    async def disengage(self, interaction: discord.Interaction, model: str, x: float | None = None,
                        y: float | None = None, toward: str | None = None,
                        distance: app_commands.Range[float, 0.1, 200.0] | None = None, direction: str | None = None):
        state, mid = await self._typed(interaction, model)
        points = _destination(state, mid, x, y, toward, distance, direction, disengage=True, locale=interaction.locale)
        await self._act(interaction, Disengage(mid, points[-1][0], points[-1][1]))

    @klash.command(name="assault", description="Melee attack an enemy in base contact")
    @app_commands.describe(model="The active model", target="An enemy in base contact",
                           double="Spend both actions: Increased attack")
    @app_commands.autocomplete(model=ac_active_model, target=ac_assault_target)
    async def assault(self, interaction: discord.Interaction, model: str, target: str, double: bool = False):
        state, mid = await self._typed(interaction, model)
        loc = interaction.locale
        await self._act(interaction, Assault(mid, _model_id(state, target, loc), double))

    @klash.command(name="volley", description="Shoot an enemy in range and line of sight")
    @app_commands.describe(model="The active model", target="An enemy in range", double="Spend both actions: Increased")
    @app_commands.autocomplete(model=ac_active_model, target=ac_volley_target)
    async def volley(self, interaction: discord.Interaction, model: str, target: str, double: bool = False):
        state, mid = await self._typed(interaction, model)
        loc = interaction.locale
        await self._act(interaction, Volley(mid, _model_id(state, target, loc), double))

    @klash.command(name="charge", description="Charge an enemy in a straight line within Speed, then attack")
    @app_commands.describe(model="The active model", target="An enemy it can reach", double="Spend both actions: Increased",
                           touch="End with Destructive Touch instead of an Assault")
    @app_commands.autocomplete(model=ac_active_model, target=ac_charge_target)
    async def charge(self, interaction: discord.Interaction, model: str, target: str, double: bool = False,
                     touch: bool = False):
        state, mid = await self._typed(interaction, model)
        loc = interaction.locale
        await self._act(interaction, Charge(mid, _model_id(state, target, loc), double, touch))

    @klash.command(name="magic", description="Cast a spell (Teleport: give x y)")
    @app_commands.describe(model="The active Spellcaster", spell="One of its spells", target="The spell's target",
                           double="Spend both actions: Increased", x="Teleport: x (cm)", y="Teleport: y (cm)")
    @app_commands.autocomplete(model=ac_active_model, spell=ac_spell, target=ac_spell_target)
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
    @app_commands.autocomplete(model=ac_active_model)
    async def recover(self, interaction: discord.Interaction, model: str, free: bool = False):
        state, mid = await self._typed(interaction, model)
        await self._act(interaction, Recover(mid, free))

    @klash.command(name="token", description="Spend a Training Token: extra action, extra activation or a re-roll")
    @app_commands.describe(model="Your model", effect="What the token does")
    @app_commands.choices(effect=[app_commands.Choice(name="Extra action (during its activation)", value="action"),
                                  app_commands.Choice(name="Extra activation (after your activation)", value="activation"),
                                  app_commands.Choice(name="Arm a re-roll (house rule; else asked after a failed roll)", value="reroll")])
    @app_commands.autocomplete(model=ac_own_model)
    async def token(self, interaction: discord.Interaction, model: str, effect: str):
        _, mid = await self._typed(interaction, model)
        await self._act(interaction, UseToken(mid, effect))

    @klash.command(name="end", description="End the active model's activation")
    @app_commands.describe(model="The active model")
    @app_commands.autocomplete(model=ac_active_model)
    async def end(self, interaction: discord.Interaction, model: str):
        _, mid = await self._typed(interaction, model)
        await self._act(interaction, EndActivation(mid))

    # ---------------------------------------------------------------- Event Cards
    @klash.command(name="event", description="Play an Event Card from your hand (your hand is in your DMs)")
    @app_commands.describe(card="A card in your hand", target="The card's target model, if it needs one")
    @app_commands.autocomplete(card=ac_event_card, target=ac_event_target)
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


async def setup(bot):
    attach(bot)
    await bot.add_cog(KlashCog(bot))
