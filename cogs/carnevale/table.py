"""`/carnevale-table`: the books of a game in this channel (damage, heal, stun, karma, command,
morale, fall, status, event, objective, agenda), each one engine action."""
from __future__ import annotations

import discord
from discord import app_commands

from rules.carnevale import MAX_KARMA_DICE
from rules.carnevale import actions as A

from .base import KARMA_USES, STATUSES, CarnevaleBase, model_autocomplete, table


class CarnevaleTable(CarnevaleBase):

    @table.command(name="damage", description="Apply damage to a model: Protection and Penetration worked out")
    @app_commands.describe(model="The model hit", amount="Damage before Protection (Aces + weapon modifier)",
                           penetration="Penetration", spiritual="Spiritual damage", flames="Flames",
                           ignore_protection="Ignores Protection", source="What hit it")
    @app_commands.autocomplete(model=model_autocomplete)
    async def damage(self, interaction: discord.Interaction, model: str, amount: app_commands.Range[int, 0, 50],
                     penetration: app_commands.Range[int, 0, 10] = 0, spiritual: bool = False, flames: bool = False,
                     ignore_protection: bool = False, source: app_commands.Range[str, 1, 80] | None = None):
        await self._act(interaction, A.Damage(model, amount, penetration, spiritual, flames, ignore_protection,
                                              source or ""))

    @table.command(name="heal", description="Heal: a healer's roll (2 AP), Regeneration, or a GM's direct LP")
    @app_commands.describe(model="The model healed", healer="The model with Healing (itself: Regeneration)",
                           amount="LP restored directly (GM only)", karma="Karma dice for the roll")
    @app_commands.autocomplete(model=model_autocomplete, healer=model_autocomplete)
    async def heal(self, interaction: discord.Interaction, model: str, healer: str | None = None,
                   amount: app_commands.Range[int, 0, 30] = 0, karma: app_commands.Range[int, 0, MAX_KARMA_DICE] = 0):
        await self._act(interaction, A.Heal(model, healer or "", amount, karma))

    @table.command(name="stun", description="Stun a model (a second Stun in a later Turn becomes damage)")
    @app_commands.autocomplete(model=model_autocomplete)
    async def stun(self, interaction: discord.Interaction, model: str,
                   source: app_commands.Range[str, 1, 80] | None = None):
        await self._act(interaction, A.Stun(model, source or ""))

    @table.command(name="karma", description="Spend a model's Karma: Protection, Defensive Combat, Swift…")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(use=[app_commands.Choice(name=u, value=u) for u in KARMA_USES])
    async def karma(self, interaction: discord.Interaction, model: str, n: app_commands.Range[int, 1, 10] = 1,
                    use: str = "other"):
        await self._act(interaction, A.SpendKarma(model, n, use))

    @table.command(name="command", description="The Leader spends Command: AP for the activating model")
    @app_commands.describe(model="The Leader", target="The activating model", n="AP given (Command spent)")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete)
    async def command_(self, interaction: discord.Interaction, model: str, target: str,
                      n: app_commands.Range[int, 1, 2] = 1):
        await self._act(interaction, A.SpendCommand(model, target, n))

    @table.command(name="morale", description="A Morale test: one model, or a squad's group test")
    @app_commands.describe(model="The model testing (single test)", group="A group test of a player's squad",
                           player="Whose squad tests (default: yours)", modifier="Dice added or removed")
    @app_commands.autocomplete(model=model_autocomplete)
    async def morale(self, interaction: discord.Interaction, model: str | None = None, group: bool = False,
                     player: discord.Member | None = None, modifier: app_commands.Range[int, -10, 10] = 0):
        pid = str(player.id) if player else (self._me(interaction) if group else "")
        await self._act(interaction, A.Morale((model,) if model else (), group, pid, modifier))

    @table.command(name="fall", description="A model falls (or jumps down) from a height in inches")
    @app_commands.autocomplete(model=model_autocomplete)
    async def fall(self, interaction: discord.Interaction, model: str, height: app_commands.Range[float, 0, 100],
                   voluntary: bool = False):
        await self._act(interaction, A.Fall(model, height, voluntary))

    @table.command(name="status", description="Tell the bot a table fact: in water, hidden, immobilised…")
    @app_commands.autocomplete(model=model_autocomplete)
    @app_commands.choices(status=[app_commands.Choice(name=s.replace("_", " "), value=s) for s in STATUSES])
    @app_commands.describe(gondola="on gondola: which gondola (each carries two 30 mm or one 40 mm model)")
    async def status(self, interaction: discord.Interaction, model: str, status: str, value: bool = True,
                     gondola: app_commands.Range[str, 1, 20] | None = None):
        await self._act(interaction, A.SetStatus(model, status, value, gondola or ""))

    @table.command(name="event", description="Play one of your squad's Events (2d10 on the table)")
    @app_commands.autocomplete(model=model_autocomplete, target=model_autocomplete)
    async def play_event(self, interaction: discord.Interaction, model: str | None = None, target: str | None = None):
        await self._act(interaction, A.PlayEvent(self._me(interaction), model or "", target or ""))

    @table.command(name="objective", description="GM: award (or take back) the adventure objective")
    async def objective(self, interaction: discord.Interaction, player: discord.Member, achieved: bool = True):
        await self._act(interaction, A.Objective(str(player.id), achieved))

    @table.command(name="agenda", description="Declare your secret Agenda achieved (table-judged Agendas)")
    async def agenda(self, interaction: discord.Interaction):
        await self._act(interaction, A.ClaimAgenda(self._me(interaction)))
