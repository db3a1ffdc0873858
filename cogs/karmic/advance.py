"""/karmic-advance: Karmic advancement between adventures (a second top-level group: `/karmic` is
near Discord's 4,000-character cap).

`karma` (GM: an award or penalty paid in cards, deck ↔ sideboard, told to the owner by DM),
`effort` (GM: the adventure's skill checks by effort, then the improvement draws), `improve` (GM:
one draw, e.g. a month of training; `teacher` adds a card), `distinction` (take a pack distinction
paid in cards), `condition` (GM: fatigue cards off once their hours are over, a bleeding started or
stopped: `rules/karmic/condition.py`). What each step does is decided by `rules/karmic/advancement.py`; this cog only
finds the stored character and the pack entry, and translates.

Each step is an action of an **advancement session**, a Karmic game in mode "advance" in this
channel: stored, logged and undoable like any action (`/game undo`), with its RNG in the state. The
first step opens the session (only once the step is known to be legal: a refused command stores
nothing); later steps in the channel join it, with more characters if the GM advances the whole
party. The characters are written back to their stored sheets after every step (and after an
undo); while the session is open they cannot join another game. `/game end` closes it.
"""
from __future__ import annotations

import re
import secrets
from typing import cast

import discord
from discord import app_commands

from rules.common import GM, Event
from rules.karmic import (ATTRIBUTES, EFFORT_CHECKS, ENGINE, PAYMENTS, Condition, Effort, Improve, KarmaAward,
                          TakeDistinction, pack_entry)

from cogs.host import BautaCog, echo
from .common import GM_OWNER, NAME, SHEETS, _split_names, entries_said, refused, typed_skill
from .sheets import KarmicSheets

ADVANCE = "advance"


def _cards(text: str) -> tuple[str, ...]:
    return tuple(c.strip().upper() for c in re.split(r"[\s,;]+", text or "") if c.strip())


def _key(owner: int, stored: str) -> str:
    """The character's key in the session: its stored identity (owner and name)."""
    return f"{owner}/{stored.lower()}"


PAYMENT_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in zip((
    "add positive cards from the sideboard", "remove negative cards to the sideboard",
    "add negative cards from the sideboard", "remove positive cards to the sideboard"), PAYMENTS)]
ATTRIBUTE_CHOICES = [app_commands.Choice(name=a, value=a) for a in ATTRIBUTES]


class KarmicAdvanceCog(BautaCog):
    advance = app_commands.Group(name="karmic-advance", guild_only=True,
                                 description="Karmic: karma awards, advancement, distinctions paid in cards")

    @property
    def karmic(self) -> KarmicSheets:
        # by name, not isinstance: a reloaded extension is a new class
        return cast(KarmicSheets, self.bot.get_cog("KarmicCog"))

    async def _my_characters(self, interaction: discord.Interaction, current: str):
        return await self.karmic._my_characters(interaction, current)

    # ---------------------------------------------------------------- one step of the session
    async def _session(self, interaction: discord.Interaction):
        """This channel's advancement session, or None; another game here is named in the refusal."""
        game = await self.store.active_game(interaction.guild_id, interaction.channel_id)
        if game is None:
            return None, None
        state = ENGINE.load_state(game.state) if game.system == NAME else None
        if state is None or state.mode != ADVANCE:
            raise refused("advance_table_busy", id=game.id)
        return game, state

    async def _step(self, interaction: discord.Interaction, owner: int, name: str | None, make) -> None:
        """Find the stored character, build the action (`make(key, **brought)`), and apply it in this
        channel's advancement session, opening one if there is none."""
        host, store = self.host, self.store
        found = await self.karmic._record(interaction.guild_id, owner, name, interaction.locale)
        if found is None:
            raise refused("no_such_character", name=echo(name or "—"))
        stored, data = found
        key = _key(owner, stored)
        game, state = await self._session(interaction)
        brought: dict = {}
        if state is None or key not in state.characters:
            await self.karmic._busy(interaction.guild_id, [(owner, stored)])
            brought = {"character": data["character"], "player": str(owner) if owner != GM_OWNER else GM}
        action = make(key, **brought)
        actor = await host.actor(interaction, game=game)
        opened: list[Event] = []
        if game is None:
            # Try the step on a fresh session first: a refused step opens none (nothing stored).
            seats = [str(interaction.user.id)]
            options = {"mode": ADVANCE, "house_rules": await store.house_rules(interaction.guild_id, NAME)}
            fresh = ENGINE.start(seats, options, secrets.randbits(63)).state
            ENGINE.apply(fresh, action, actor)
            game = await store.create_game(interaction.guild_id, interaction.channel_id, NAME, seats,
                                           ENGINE.dump_state(fresh), interaction.user.id,
                                           meta={SHEETS: {key: [owner, stored]}})
            opened = [Event("advance_opened", {"player": str(interaction.user.id), "id": game.id})]
        game, outcome, before = await host.commit(game, action, actor)
        if brought and key not in (game.meta.get(SHEETS) or {}):
            game = await store.set_meta(game, {**game.meta, SHEETS: {**(game.meta.get(SHEETS) or {}),
                                                                      key: [owner, stored]}})
        say = host.presenter(game, interaction.locale)
        private = [e for e in outcome.events if e.audience != "public"]
        await host.finish(interaction, "\n".join(say.events(private)) or None)
        await host.publish(interaction, game, outcome.state, [*opened, *outcome.events], before)

    # ---------------------------------------------------------------- the commands
    @advance.command(name="karma", description="GM: a karma award (+) or penalty (−), paid in cards (deck ↔ sideboard)")
    @app_commands.describe(member="Whose character", amount="+N award, −N penalty",
                           cards="Card ids adding up exactly: 4S or AS 3S", how="Which cards move where",
                           character="The character (default: their only one)")
    @app_commands.choices(how=PAYMENT_CHOICES)
    async def advance_karma(self, interaction: discord.Interaction, member: discord.Member,
                            amount: app_commands.Range[int, -20, 20], cards: str, how: app_commands.Choice[str],
                            character: str | None = None):
        await self.host.require_gm(interaction)
        await self.host.begin(interaction)
        await self._step(interaction, member.id, character,
                         lambda who, **new: KarmaAward(who, int(amount), _cards(cards), how.value, **new))

    @advance.command(name="effort", description="GM: the adventure's skill checks by effort, then improvement draws")
    @app_commands.describe(member="Whose character", effort="How hard the adventure was",
                           skills="Skills for the checks, comma-separated (repeat one for more tries)",
                           attribute="Spend 8 checks on one attempt at this attribute",
                           character="The character (default: their only one)")
    @app_commands.choices(effort=[app_commands.Choice(name=f"{k.replace('_', ' ')} ({v})", value=k)
                                  for k, v in EFFORT_CHECKS.items()], attribute=ATTRIBUTE_CHOICES)
    async def advance_effort(self, interaction: discord.Interaction, member: discord.Member,
                             effort: app_commands.Choice[str], skills: str | None = None,
                             attribute: app_commands.Choice[str] | None = None, character: str | None = None):
        await self.host.require_gm(interaction)
        await self.host.begin(interaction)
        wanted = tuple(typed_skill(s).lower().replace(" ", "_")[:40] for s in _split_names(skills))[:20]
        await self._step(interaction, member.id, character, lambda who, **new: Effort(
            who, effort.value, wanted, attribute.value if attribute is not None else "", **new))

    @advance.command(name="improve", description="GM: one improvement draw (a month of training; a teacher's extra card)")
    @app_commands.describe(member="Whose character", target="A skill or an attribute",
                           teacher="The teacher's check succeeded: draw two, keep the best",
                           character="The character (default: their only one)")
    async def advance_improve(self, interaction: discord.Interaction, member: discord.Member, target: str,
                              teacher: bool = False, character: str | None = None):
        await self.host.require_gm(interaction)
        await self.host.begin(interaction)
        await self._step(interaction, member.id, character,
                         lambda who, **new: Improve(who, typed_skill(target)[:60], bool(teacher), **new))

    @advance.command(name="distinction", description="Take a distinction from the pack, paid in karma cards")
    @app_commands.describe(name="The distinction (pack)", cards="Card ids adding up exactly to its value",
                           how="Which cards move where", character="Your character (default: your only one)",
                           pack="A guild pack (default: the sample)")
    @app_commands.choices(how=PAYMENT_CHOICES)
    @app_commands.autocomplete(character=_my_characters)
    async def advance_distinction(self, interaction: discord.Interaction, name: str, cards: str,
                                  how: app_commands.Choice[str], character: str | None = None,
                                  pack: str | None = None):
        await self.host.begin(interaction)
        content = await self.karmic._pack(interaction.guild_id, pack)
        entry = pack_entry(content, "distinctions", name)      # named in any of the pack's languages
        if entry is None:
            raise refused("no_such_distinction", name=echo(name), names=entries_said(content.get("distinctions", [])))
        await self._step(interaction, interaction.user.id, character, lambda who, **new: TakeDistinction(
            who, entry["name"], int(entry["karma_value"]), _cards(cards), how.value,
            str(entry.get("description", ""))[:300], **new, names=dict(entry.get("names") or {})))

    @advance.command(name="condition", description="GM: fatigue over (cards off), a bleeding started or stopped")
    @app_commands.describe(member="Whose character", fatigue_off="Fatigue cards taken off (12 hours are over)",
                           bleeding="Start or stop a bleeding", character="The character (default: their only one)")
    @app_commands.choices(bleeding=[app_commands.Choice(name="starts", value="start"),
                                    app_commands.Choice(name="stops", value="stop")])
    async def advance_condition(self, interaction: discord.Interaction, member: discord.Member,
                                fatigue_off: app_commands.Range[int, 0, 44] = 0,
                                bleeding: app_commands.Choice[str] | None = None, character: str | None = None):
        await self.host.require_gm(interaction)
        await self.host.begin(interaction)
        await self._step(interaction, member.id, character, lambda who, **new: Condition(
            who, int(fatigue_off), bleeding.value if bleeding is not None else "", **new))
