"""`/carnevale-game start` and the turn commands (activate, ap, attack, shoot, cast, …);
`/carnevale-table` for the books (damage, heal, stun, karma, command, morale, fall, status, event,
objective, agenda). The framework turns the engine's prompts into buttons, so a game can also be
played by clicking.
"""
from __future__ import annotations

import discord
from discord import app_commands

from i18n import t
from rules.carnevale import BLACK_STATUE, ENGINE, MAX_KARMA_DICE, build_squad, pack_from_doc
from rules.carnevale import actions as A
from rules.common import GM, PUBLIC, BautaError, Event
from rules.common.rng import Rng

from cogs.host import botplayer
from cogs.host import chunks, echo, reply

from .sheet import describe, post_sheet
from .base import (ATTRIBUTES, MANOEUVRES, SYSTEM_NAME, CarnevaleBase, _split_ids,
                             ap_action_autocomplete, faction_autocomplete, game, model_autocomplete,
                             my_squad_autocomplete, named_genders, spell_autocomplete, their_squad_autocomplete,
                             weapon_autocomplete)


def bot_squad(pack_doc: dict | None, points: int, faction: str | None, seed: int) -> dict:
    """The squad the bot fields, within the points limit (see the bot player in ``rules.carnevale``)."""
    return build_squad(pack_from_doc(pack_doc), points, faction, Rng.from_seed(seed)).to_dict()


class CarnevaleGame(CarnevaleBase):
    # ------------------------------------------------------------------ a game
    @game.command(name="start", description="Start a game here against another member, with your squads")
    @app_commands.describe(opponent="Who you play against (or Bauta itself)", vs_bot="Play against Bauta",
                           level="How well Bauta plays (default normal)",
                           my_squad="Your saved squad (default: a sample squad)",
                           their_squad="Their saved squad (default: a sample squad)",
                           my_faction="Sample squad faction when you name no squad",
                           their_faction="Their sample squad faction", points="Sample squads' points (200)",
                           rounds="Rounds (default 5 or the adventure's)", adventure="A Black Statue adventure",
                           deploy_all="Everyone on the table from Round 1 (no reinforcements)")
    @app_commands.autocomplete(my_squad=my_squad_autocomplete, their_squad=their_squad_autocomplete,
                               my_faction=faction_autocomplete, their_faction=faction_autocomplete)
    @app_commands.choices(adventure=[app_commands.Choice(name=a["name"], value=a["id"]) for a in BLACK_STATUE])
    async def game_start(self, interaction: discord.Interaction, opponent: discord.Member | None = None,
                         my_squad: str | None = None,
                         their_squad: str | None = None, my_faction: str | None = None,
                         their_faction: str | None = None, points: app_commands.Range[int, 20, 1000] = 200,
                         rounds: app_commands.Range[int, 1, 20] | None = None, adventure: str | None = None,
                         deploy_all: bool = False, vs_bot: bool = False, level: botplayer.Level = "normal"):
        loc = interaction.locale
        them = botplayer.opponent(self.bot, interaction, opponent, vs_bot, "carnevale.game.opponent_self")
        bot_seat = them == botplayer.bot_id(self.bot)
        if bot_seat:
            their_squad = None          # the bot keeps no saved squads: it builds one below
            opponent = opponent or self.bot.user
        # Acknowledged privately: every refusal (no such squad, an illegal squad, a busy channel) stays
        # with the caller; host.start announces the game in public once the engine has set it up.
        await self.host.begin(interaction)
        me = str(interaction.user.id)
        squads, packs = {}, {}
        for pid, owner, name in ((me, interaction.user, my_squad), (them, opponent, their_squad)):
            if name:
                squad, pack_name = await self._squad(interaction.guild_id, owner.id, name, loc,
                                                     who=None if pid == me else owner.mention)
                squads[pid] = squad.to_dict()
                packs[pid] = pack_name
        if len(set(packs.values())) > 1:
            a, b = packs[me], packs[them]
            raise BautaError(t("carnevale.squad.two_packs", loc,
                               a=a or t("carnevale.squad.sample", loc), b=b or t("carnevale.squad.sample", loc)))
        pack_name = next(iter(packs.values()), "")
        options: dict = {"squads": squads, "points": points, "deploy_all": deploy_all,
                         "names": {me: interaction.user.display_name, them: opponent.display_name}}
        factions = {pid: f for pid, f in ((me, my_faction), (them, their_faction)) if f}
        if factions:
            options["factions"] = factions
        pack = await self._pack(interaction.guild_id, pack_name, loc) if pack_name else None
        if pack is not None:
            options["pack"] = pack.doc
        if bot_seat:
            squads[them] = bot_squad(options.get("pack"), points, their_faction, interaction.channel_id)
        if rounds:
            options["rounds"] = rounds
        if adventure:
            options["adventure"] = adventure
        title = next((a["name"] for a in BLACK_STATUE if a["id"] == adventure), "")
        if await self.store.active_game(interaction.guild_id, interaction.channel_id) is not None:
            raise BautaError(t("carnevale.game.busy", loc))
        intro = Event("game_intro_adventure" if title else "game_intro",
                      {"a_player": me, "b_player": them, "adventure": title, "rounds": ENGINE.rounds_of(options)})
        # the models players named agree as their profiles do (the events carry only the name)
        genders = named_genders(((m.get("name", ""), m["profile"]) for squad in squads.values()
                                 for m in squad.get("members", [])), pack.genders if pack else None)
        # The engine's set-up events follow the intro: the opening rolls in public, the Agendas by DM.
        return await self.host.start(interaction, SYSTEM_NAME, [me, them], options=options, intro=intro,
                                     meta={**(botplayer.meta(self.bot, [me, them], level) or {}), "genders": genders})

    async def _act(self, interaction: discord.Interaction, action) -> None:
        """One action through the host: acknowledged privately, so a refusal stays with its sender."""
        await self.host.act(interaction, action, system=SYSTEM_NAME)

    def _me(self, interaction: discord.Interaction) -> str:
        return str(interaction.user.id)

    @game.command(name="activate", description="Activate one of your models (with its Partner, if any)")
    @app_commands.describe(model="The model (a1…, b1…)", partner="Its Partner within 5'' (shares the AP)")
    @app_commands.autocomplete(model=model_autocomplete, partner=model_autocomplete)
    async def activate(self, interaction: discord.Interaction, model: str, partner: str | None = None):
        await self._act(interaction, A.Activate(model, partner or ""))

    @game.command(name="ap", description="Spend AP on an action: walk, run, climb, hide, reload, aim…")
    @app_commands.describe(model="The active model", action="The action", n="AP to spend (default: its cost)",
                           karma="Karma dice for its roll", note="What it does, for the log")
    @app_commands.autocomplete(model=model_autocomplete, action=ap_action_autocomplete)
    async def ap(self, interaction: discord.Interaction, model: str, action: str,
                 n: app_commands.Range[int, 0, 10] = 0, karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0,
                 note: app_commands.Range[str, 1, 100] | None = None):
        await self._act(interaction, A.SpendAP(model, action, n, karma, note or ""))

    @game.command(name="end", description="End a model's activation")
    @app_commands.autocomplete(model=model_autocomplete)
    async def end(self, interaction: discord.Interaction, model: str):
        await self._act(interaction, A.EndActivation(model))

    @game.command(name="pass", description="Pass your Turn (when the rules allow it)")
    async def pass_(self, interaction: discord.Interaction):
        await self._act(interaction, A.Pass(self._me(interaction)))

    @game.command(name="attack", description="A close-combat attack or manoeuvre; the bot rolls and applies damage")
    @app_commands.describe(model="The attacker", target="The enemy", weapon="Weapon (default: its best)",
                           manoeuvre="A manoeuvre", allies="Your other models in contact with the target",
                           enemies="Other enemies in contact with the attacker", karma="Karma dice",
                           two_weapons="Fighting with two weapons",
                           opportunity="The free Attack of Opportunity on offer (after a Fumble)")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete, weapon=weapon_autocomplete)
    @app_commands.choices(manoeuvre=[app_commands.Choice(name=m.replace("_", " "), value=m) for m in MANOEUVRES])
    async def attack(self, interaction: discord.Interaction, model: str, target: str, weapon: str | None = None,
                     manoeuvre: str | None = None, allies: app_commands.Range[int, 0, 10] = 0,
                     enemies: app_commands.Range[int, 0, 10] = 0,
                     karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0, two_weapons: bool = False,
                     opportunity: bool = False):
        await self._act(interaction, A.Attack(model, target, weapon or "", manoeuvre or "", allies, enemies, karma,
                                              two_weapons=two_weapons, opportunity=opportunity))

    @game.command(name="shoot", description="Shoot or throw at an enemy: range, cover and aim worked out")
    @app_commands.describe(model="The shooter", target="The enemy", weapon="Weapon (default: the first loaded)",
                           distance="Distance in inches (0: within range)", cover_size="Cover the target has",
                           cover_hardness="How hard that cover is", aim="Extra AP spent aiming (0-2)",
                           aim_at="Aim for more dice or to beat Protection", moving="Shooting on the move",
                           karma="Karma dice", good_cover="The target is behind the cover Event 8 improved")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete, weapon=weapon_autocomplete)
    @app_commands.choices(cover_size=[app_commands.Choice(name=c, value=c) for c in ("none", "medium", "big")],
                          cover_hardness=[app_commands.Choice(name=c, value=c)
                                          for c in ("none", "light", "blunt", "heavy")],
                          aim_at=[app_commands.Choice(name=c, value=c) for c in ("dice", "protection")],
                          moving=[app_commands.Choice(name=c, value=c) for c in ("move", "jump")])
    async def shoot(self, interaction: discord.Interaction, model: str, target: str, weapon: str | None = None,
                    distance: app_commands.Range[float, 0, 200] = 0, cover_size: str | None = None,
                    cover_hardness: str | None = None, aim: app_commands.Range[int, 0, 2] = 0, aim_at: str = "dice",
                    moving: str | None = None, karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0,
                    good_cover: bool = False):
        size = "" if cover_size in (None, "none") else cover_size
        hard = "" if cover_hardness in (None, "none") else cover_hardness
        await self._act(interaction, A.Shoot(model, target, weapon or "", distance, size, hard, aim, aim_at,
                                             moving or "", karma=karma, good_cover=good_cover))

    @game.command(name="disengage", description="Leave close combat (1 AP); the enemies in contact may react")
    @app_commands.describe(model="The model leaving", enemies="Enemy ids in base contact, comma-separated (b1, b2)")
    @app_commands.autocomplete(model=model_autocomplete)
    async def disengage(self, interaction: discord.Interaction, model: str, enemies: str):
        await self._act(interaction, A.Disengage(model, _split_ids(enemies)))

    @game.command(name="cast", description="Cast a spell: Karma cost (escalating each Round) and Magic roll")
    @app_commands.describe(model="The caster", spell="The spell", target="The target model",
                           targets="Several targets, comma-separated", attribute="For Blessing / Curse",
                           karma="Karma dice for the Magic roll", use_diamond="Use Cagliostro's Diamond",
                           enemies="Enemies in base contact (their Attacks of Opportunity come first)")
    @app_commands.autocomplete(model=model_autocomplete, spell=spell_autocomplete, target=model_autocomplete)
    @app_commands.choices(attribute=[app_commands.Choice(name=a, value=a) for a in ATTRIBUTES])
    async def cast(self, interaction: discord.Interaction, model: str, spell: str, target: str | None = None,
                   targets: str | None = None, attribute: str | None = None,
                   karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0, use_diamond: bool = False,
                   enemies: str | None = None):
        await self._act(interaction, A.Cast(model, spell, target or "", _split_ids(targets), attribute or "", karma,
                                            use_diamond, _split_ids(enemies)))

    @game.command(name="roll", description="A roll in the game: a model's attribute (modifiers applied) or a pool")
    @app_commands.describe(model="The model rolling", attribute="Its attribute", pool="Or a plain pool",
                           difficulty="Ace on this or more (7)", karma="Karma dice", label="What it is for")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(attribute=[app_commands.Choice(name=a, value=a) for a in ATTRIBUTES])
    async def game_roll(self, interaction: discord.Interaction, model: str | None = None,
                        attribute: str | None = None, pool: app_commands.Range[int, 0, 20] = 0,
                        difficulty: app_commands.Range[int, 2, 10] = 7,
                        karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0,
                        label: app_commands.Range[str, 1, 80] | None = None):
        await self._act(interaction, A.Roll(pool, difficulty, karma, echo(label or "", 80), model or "", attribute or ""))

    @game.command(name="reroll", description="Reroll the last roll: missed dice or all of them (abilities permitting)")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(mode=[app_commands.Choice(name="missed dice", value="dice"),
                                app_commands.Choice(name="all dice", value="all")])
    async def reroll(self, interaction: discord.Interaction, model: str, mode: str = "dice",
                     count: app_commands.Range[int, 1, 10] = 1):
        await self._act(interaction, A.Reroll(model, mode, count))

    @game.command(name="endround", description="End the Round: effects expire, AP and Command reset")
    async def endround(self, interaction: discord.Interaction):
        await self._act(interaction, A.EndRound())

    @game.command(name="concede", description="Concede the game")
    async def concede(self, interaction: discord.Interaction):
        await self._act(interaction, A.Concede(self._me(interaction)))

    @game.command(name="sheet", description="Post the squad sheets; your private view (Agenda, items) to you")
    async def sheet(self, interaction: discord.Interaction):
        await self.host.begin(interaction)
        game = await self.host.channel_game(interaction, SYSTEM_NAME)
        state = ENGINE.load_state(game.state)
        me = self._me(interaction)
        gm = await self.host.is_gm(interaction, game.guild_id)
        viewer = me if me in game.seats else (GM if gm else PUBLIC)
        text = t("carnevale.game.my_sheet", interaction.locale) + "\n" + \
            describe(ENGINE.view_for(state, viewer), viewer, interaction.locale)
        for part in chunks(text.split("\n")):
            await reply(interaction, part, ephemeral=True)      # host.begin promises, reply answers
        await post_sheet(self.host, game, state, new=True)
