"""`/cz`: open a table (a Join/Leave/Start lobby), the status, reminders, and the traitor's and
Battle Focus's commands of the optional rules."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from i18n import present, t
from rules.carnival_zombie import (CAVES, ENGINE, FocusPenalty, Sabotage, Unmask,
                                   load_pack_text, load_sample_pack)
from rules.common import GM, PUBLIC, BautaError
from rules.common.packs import in_language

from cogs.host import untrusted
from cogs.host import MESSAGE_LIMIT, BautaCog, chunks, echo, mention

from .board import DIFFICULTIES, NAME, REMINDED, SECRET_ACTOR, describe, show_board


def _scenarios(pack: dict | None = None) -> dict[str, dict]:
    return {s["id"]: s for s in (pack or load_sample_pack())["scenarios"]}


class CarnivalZombieCog(BautaCog):
    cz = app_commands.Group(name="cz", description="Carnival Zombie 2nd Edition: the cooperative campaign",
                            guild_only=True)

    # ---------------------------------------------------------------- autocomplete
    async def _scenario_choices(self, interaction: discord.Interaction, current: str):
        scenarios = dict(_scenarios())
        pack_name = getattr(getattr(interaction, "namespace", None), "pack", None)
        if pack_name and interaction.guild_id:
            text = await self.store.pack(interaction.guild_id, NAME, pack_name)
            if text:
                try:  # off the event loop, briefly: autocomplete must answer within 3 seconds
                    scenarios.update(_scenarios(await untrusted.parse(load_pack_text, text, pack_name,
                                                                      source=pack_name, seconds=2)))
                except Exception:  # noqa: BLE001 - a broken pack simply offers the sample's list
                    pass
        current = (current or "").lower()
        language = present.language(interaction.locale)
        names = {sid: str(in_language(s["name"], language)) for sid, s in scenarios.items()}
        return [app_commands.Choice(name=f"{names[sid]} ({sid})"[:100], value=sid)
                for sid in scenarios if current in sid or current in names[sid].lower()][:25]

    async def _pack_choices(self, interaction: discord.Interaction, current: str):
        if not interaction.guild_id:
            return []
        packs = await self.store.packs(interaction.guild_id, NAME)
        current = (current or "").lower()
        return [app_commands.Choice(name=p["name"][:100], value=p["name"][:100])
                for p in packs if current in p["name"].lower()][:25]

    # ---------------------------------------------------------------- /cz start
    @cz.command(name="start", description="Open a Carnival Zombie table: players join, then the host starts")
    @app_commands.describe(difficulty="Easy, Medium or Difficult",
                           scenario="Campaign (default) or a Scenario / Finale played as a Scenario",
                           pack="A content pack imported with /pack import (default: the sample pack)",
                           quick="Quick Playtest (Day 1 with 8 Barricades) or a practice Night")
    @app_commands.choices(
        difficulty=[app_commands.Choice(name=d.capitalize(), value=d) for d in DIFFICULTIES],
        quick=[app_commands.Choice(name="Full game", value="no"),
               app_commands.Choice(name="Quick Playtest (no Story so far, 8 Barricades)", value="day"),
               app_commands.Choice(name="Practice a Night (straight to Sunset)", value="night")])
    @app_commands.autocomplete(scenario=_scenario_choices, pack=_pack_choices)
    async def start(self, interaction: discord.Interaction, difficulty: str, scenario: str | None = None,
                    pack: str | None = None, quick: str | None = None):
        await self.host.begin(interaction)          # private: a refusal is seen by its sender only
        locale = interaction.locale
        difficulty = {"hard": "difficult"}.get((difficulty or "").lower(), (difficulty or "").lower())
        if difficulty not in DIFFICULTIES:
            raise BautaError(t("carnival_zombie.unknown_difficulty", locale))
        options: dict[str, Any] = {"difficulty": difficulty}
        content = None
        if pack:
            text = await self.store.pack(interaction.guild_id, NAME, pack)
            if text is None:
                raise BautaError(t("carnival_zombie.no_pack", locale, name=echo(pack)))
            content = await untrusted.parse(load_pack_text, text, pack, source=pack, locale=locale)
            options["pack"] = content
        known = _scenarios(content)
        scenario = (scenario or "campaign").strip()
        if scenario not in known:
            raise BautaError(t("carnival_zombie.unknown_scenario", locale, scenario=echo(scenario),
                               known=", ".join(known)))
        options["scenario"] = scenario
        if quick == "day":
            options["quick"] = True
        elif quick == "night":
            options["quick_night"] = True
        min_players = max(1, int(known[scenario].get("min_players", 1)))
        await self.host.open_lobby(interaction, NAME, min_players, 6, options=options)
        public = (await self.store.settings(interaction.guild_id)).locale or interaction.guild_locale
        await self.host.courier.send_channel(interaction.channel_id, t(
            "carnival_zombie.lobby_note", public, difficulty=t(f"carnival_zombie.difficulty.{difficulty}", public),
            scenario=in_language(known[scenario]["name"], present.language(public)),
            pack=t("carnival_zombie.pack_note", public, name=pack) if pack else "",
            quick=t(f"carnival_zombie.quick_{quick}", public) if quick in ("day", "night") else ""))

    # ---------------------------------------------------------------- /cz status
    @cz.command(name="status", description="The board, the state and the pending decision (its player is pinged)")
    async def status(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME, ended=True)
        state = ENGINE.load_state(game.state)
        view = ENGINE.view_for(state, PUBLIC)
        public = await self.host.server_locale(game, interaction)
        header = t("carnival_zombie.status_header", public, id=game.id,
                   players=", ".join(map(mention, game.seats)))
        lines = [header, describe(view, PUBLIC, public),
                 t("carnival_zombie.pile_modes", public, mode=view["house_rules"]["pile_mode"])]
        if not view["waiting_for"] and not view["over"]:
            lines.append(t("carnival_zombie.nothing_pending", public))
        for text in chunks(lines):
            await self.host.courier.send_channel(game.channel_id, text, allowed_mentions=discord.AllowedMentions.none())
        # The board redrawn, and with the prompts on it moved to the bottom of the channel.
        await show_board(self.host, game, state, force=True, interaction=interaction)
        await self.host.republish(interaction, await self.store.game(game.id) or game, dm_prompts=False)
        await self.host.finish(interaction)

    # ---------------------------------------------------------------- /cz remind
    @cz.command(name="remind", description="Ping the player who owes the pending decision (once per decision)")
    async def remind(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME)
        if str(interaction.user.id) not in game.seats and not await self.host.is_gm(interaction):
            raise BautaError(t("carnival_zombie.not_seated", interaction.locale))
        pending = ENGINE.pending(ENGINE.load_state(game.state))
        if not pending:
            await self.host.finish(interaction, t("carnival_zombie.remind_none", interaction.locale))
            return
        prompt = pending[0]
        if game.meta.get(REMINDED) == prompt.id:
            await self.host.finish(interaction, t("carnival_zombie.remind_done", interaction.locale,
                                                  player=mention(prompt.player)))
            return
        await self.store.set_meta(game, {**game.meta, REMINDED: prompt.id})
        public = await self.host.server_locale(game, interaction)
        await self.host.courier.send_channel(game.channel_id, t(
            "carnival_zombie.remind", public, player=mention(prompt.player),
            text=self.host.presenter(game, public).prompt(prompt))[:MESSAGE_LIMIT])
        await self.host.finish(interaction, t("carnival_zombie.remind_sent", interaction.locale))

    # ---------------------------------------------------------------- the traitor
    @cz.command(name="sabotage", description="Just a Matter of Time, traitor only: 2 more cubes at a Cave's next Entrance")
    @app_commands.describe(cave="The Cave where 2 more cubes will crawl in at the next Entrance")
    @app_commands.choices(cave=[app_commands.Choice(name=c, value=c) for c in CAVES])
    async def sabotage(self, interaction: discord.Interaction, cave: str):
        mine = await self._secret_act(interaction, Sabotage(cave=cave))
        await self.host.finish(interaction, t("carnival_zombie.sabotage_done", interaction.locale,
                                              details=" ".join(mine))[:MESSAGE_LIMIT])

    @cz.command(name="unmask", description="Just a Matter of Time, traitor only: reveal yourself (the next attack cannot be stopped)")
    async def unmask(self, interaction: discord.Interaction):
        await self._secret_act(interaction, Unmask())
        await self.host.finish(interaction, t("carnival_zombie.unmask_done", interaction.locale))

    async def _secret_act(self, interaction: discord.Interaction, action: Any) -> list[str]:
        """Apply a traitor action without DMing its author: the actor's private events come back to
        be shown privately (the caller closes the private acknowledgement with them); only public and
        GM events are published. `host.act` would DM the traitor and, with DMs closed, announce
        "could not DM @traitor" in the channel — which would unmask them."""
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, NAME)
        actor = await self.host.actor(interaction, game=game)
        # A secret action is logged without its author: `/game log` and `/game export` list every
        # action's actor to any player, which would name the traitor.
        log_as = SECRET_ACTOR if isinstance(action, Sabotage) else None
        new, outcome, before = await self.host.commit(game, action, actor, log_as=log_as)
        shared = [e for e in outcome.events if e.audience in (PUBLIC, GM)]
        await self.host.publish(None, new, outcome.state, shared, before)
        say = self.host.presenter(game, interaction.locale)
        return [say.event(e) for e in outcome.events if e.audience == actor.id]

    # ---------------------------------------------------------------- Battle Focus
    @cz.command(name="focus", description="Battle Focus broken (optional rule): 3 cubes crawl into a random Cave")
    @app_commands.describe(reason="What happened (optional)")
    async def focus(self, interaction: discord.Interaction, reason: str | None = None):
        await self.host.act(interaction, FocusPenalty(reason=(reason or "")[:200]), system=NAME)


