"""`/carnevale roll|opposed|odds` (no game: a fresh `Rng` per roll, seeded with `secrets`) and
`/carnevale squad …` (squads saved with `store.save_character`, built from the sample pack or a
guild pack imported with `/pack import`).
"""
from __future__ import annotations

import asyncio
import io
import secrets
from fractions import Fraction

import discord
from discord import app_commands

from i18n import t
from i18n.present import Presenter
from renderers.carnevale import presenter_words, roll_image, squad_sheet
from rules.carnevale import (explained_pool, TIE_RULES, PoolResult, Squad, SquadMember, add_member, odds, opposed_roll, remove_member, roll_pool,
                             squad_cost, squad_view)
from rules.common import PUBLIC, BautaError, Rng

from .base import (SYSTEM_NAME, CarnevaleBase, _split_ids, carnevale, faction_autocomplete,
                             my_squad_autocomplete, pack_autocomplete, profile_autocomplete, shown_squad_autocomplete,
                             squad)
from cogs.host import chunks, echo


# ============================================================================ text helpers
# The tie rules as the command offers them (English choice names, localized by the Translator);
# the message words the chosen rule from the catalogue (carnevale.opposed.rule_<code>).
TIE_CHOICES = {"none": "a tie: neither side wins", "a_wins": "ties go to the first roller",
               "b_wins": "ties go to the second roller", "escaper": "the escaping model wins ties",
               "status_quo": "a tie leaves things as they are", "reroll": "a tie is rerolled"}
assert tuple(TIE_CHOICES) == TIE_RULES, "every tie rule of the rules is offered, in their order"


def _percent(p: Fraction | float) -> str:
    value = float(p) * 100
    if value and value < 0.1:
        return f"{value:.3f}%"
    return f"{value:.1f}%"


def format_pool(roll: dict, who: str, label: str = "", locale=None) -> str:
    """A rolled pool (PoolResult.to_public()) as text: every die, the Destiny Die distinct."""
    lines = [t("carnevale.roll.head", locale, who=who, label=f" — *{label}*" if label else "",
               pool=roll.get("pool", f"{len(roll['dice'])}d10"), difficulty=roll["difficulty"])]
    dice = roll["dice"]
    if not dice:
        lines.append(t("carnevale.roll.no_dice", locale))
        return "\n".join(lines)
    flags = roll.get("ace_flags") or [False] * len(dice)

    def face(i: int) -> str:
        return f"**{dice[i]}**" if flags[i] else str(dice[i])

    destiny = f"🟨 {face(0)}"
    others = ", ".join(face(i) for i in range(1, len(dice))) or "—"
    lines.append(t("carnevale.roll.dice", locale, destiny=destiny, others=others))
    tail = [t("carnevale.roll.aces", locale, aces=roll["aces"])]
    if roll.get("critical"):
        tail.append(t("carnevale.roll.critical", locale))
    if roll.get("fumble"):
        tail.append(t("carnevale.roll.fumble", locale))
    elif roll.get("discarded"):
        tail.append(t("carnevale.roll.discarded", locale))
    lines.append(" · ".join(tail))
    return "\n".join(lines)


def odds_text(pool: int, difficulty: int, karma: int = 0, locale=None) -> str:
    o = odds(pool, difficulty, karma)
    head = t("carnevale.odds.head", locale, dice=o.dice, difficulty=difficulty,
             karma=t("carnevale.odds.with_karma", locale, n=karma) if karma else "")
    if o.dice == 0:
        return head + "\n" + t("carnevale.odds.none", locale)
    lines = [head]
    for k, p in enumerate(o.aces):
        lines.append(t("carnevale.odds.row", locale, k=k, p=_percent(p), at_least=_percent(o.at_least(k))))
    lines.append(t("carnevale.odds.summary", locale, success=_percent(o.success), critical=_percent(o.critical),
                   fumble=_percent(o.fumble), expected=f"{float(o.expected):.2f}"))
    if karma:
        plain = odds(pool, difficulty)
        lines.append(t("carnevale.odds.without_karma", locale, success=_percent(plain.success),
                       fumble=_percent(plain.fumble), expected=f"{float(plain.expected):.2f}"))
    return "\n".join(lines)


def _moments(pool: int, difficulty: int, karma: int) -> tuple[float, float]:
    o = odds(pool, difficulty, karma)
    mean = float(o.expected)
    var = float(sum(k * k * p for k, p in enumerate(o.aces))) - mean * mean
    return mean, var


class CarnevaleSquads(CarnevaleBase):
    # ------------------------------------------------------------------ dice without a game
    @carnevale.command(name="roll", description="Roll a d10 pool: every die, the Destiny Die, Aces, Critical/Fumble")
    @app_commands.describe(pool="Dice in the pool (over 10 are lost to the cap)", difficulty="Ace on this or more (7)",
                           karma="Karma dice added (0-2)", label="What the roll is for")
    async def roll(self, interaction: discord.Interaction, pool: app_commands.Range[int, 0, 20],
                   difficulty: app_commands.Range[int, 2, 10] = 7, karma: app_commands.Range[int, 0, 2] = 0,
                   label: app_commands.Range[str, 1, 100] | None = None):
        await interaction.response.defer(thinking=True)
        label = echo(label) if label else None
        result = roll_pool(Rng.from_seed(secrets.randbits(63)), pool, difficulty, karma)
        say = Presenter(interaction.guild_locale, SYSTEM_NAME)
        # the pool explained in the server's words (base, each modifier, the cap), in the text and on the image
        explained = str(say.value(explained_pool(result, ""), plain=True))
        public = {**result.to_public(), "pool": explained}
        text = format_pool(public, interaction.user.mention, label or "", interaction.guild_locale)
        if result.pool and result.pool.lost_to_cap:
            text += "\n" + t("carnevale.roll.cap", interaction.guild_locale, n=result.pool.lost_to_cap)
        mean, var = _moments(pool, difficulty, karma)
        await self.store.log_roll(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                  f"{result.pool.dice if result.pool else pool}d10>={difficulty}", float(result.aces),
                                  label, mean, var)
        png = await asyncio.to_thread(roll_image, public, presenter_words(say), explained)
        await interaction.followup.send(text, file=discord.File(io.BytesIO(png), filename="carnevale-roll.png"))

    @carnevale.command(name="opposed", description="An opposed roll against another member: both pools in one message")
    @app_commands.describe(opponent="Who rolls against you", pool="Your dice", their_pool="Their dice",
                           difficulty="Your difficulty (7)", their_difficulty="Their difficulty (7)",
                           tie_rule="What a tie means", karma="Your Karma dice", their_karma="Their Karma dice",
                           label="What the roll is for")
    @app_commands.choices(tie_rule=[app_commands.Choice(name=v, value=k) for k, v in TIE_CHOICES.items()])
    async def opposed(self, interaction: discord.Interaction, opponent: discord.Member,
                      pool: app_commands.Range[int, 0, 20], their_pool: app_commands.Range[int, 0, 20],
                      difficulty: app_commands.Range[int, 2, 10] = 7,
                      their_difficulty: app_commands.Range[int, 2, 10] = 7, tie_rule: str = "none",
                      karma: app_commands.Range[int, 0, 2] = 0, their_karma: app_commands.Range[int, 0, 2] = 0,
                      label: app_commands.Range[str, 1, 100] | None = None):
        if opponent.id == interaction.user.id:
            raise BautaError(t("carnevale.opposed.self", interaction.locale))
        await interaction.response.defer(thinking=True)
        label = echo(label) if label else None
        tie_rule = tie_rule if tie_rule in TIE_RULES else "none"
        res = opposed_roll(Rng.from_seed(secrets.randbits(63)), pool, their_pool, difficulty, their_difficulty,
                           tie_rule, karma, their_karma)
        loc = interaction.guild_locale
        me, them = interaction.user.mention, opponent.mention
        say = Presenter(loc, SYSTEM_NAME)

        def side(r: PoolResult, who: str) -> str:
            # the pool explained in the server's words, as /carnevale roll does (the cap's lost dice too)
            return format_pool({**r.to_public(), "pool": str(say.value(explained_pool(r, ""), plain=True))}, who, "", loc)

        lines = [t("carnevale.opposed.head", loc, label=f" — *{label}*" if label else "", a=me, b=them),
                 side(res.a, me), side(res.b, them)]
        sides = {"a": (me, them), "b": (them, me)}
        notes = "; ".join(t(f"carnevale.opposed.{note[2:]}_note", loc, who=sides[note[0]][0], other=sides[note[0]][1])
                          for note in res.adjustments)
        lines.append(t("carnevale.opposed.adjusted", loc, a_aces=res.a_aces, b_aces=res.b_aces,
                       notes=f" ({notes})" if notes else ""))
        rule = t(f"carnevale.opposed.rule_{tie_rule}", loc)
        if res.a_aces == res.b_aces and res.winner != "tie":
            lines.append(t("carnevale.opposed.tie_won", loc, who=me if res.winner == "a" else them, rule=rule))
        elif res.winner == "tie" and tie_rule == "none":
            lines.append(t("carnevale.opposed.tie_none", loc))
        elif res.winner == "tie":
            lines.append(t("carnevale.opposed.tie", loc, rule=rule))
        else:
            lines.append(t("carnevale.opposed.winner", loc, who=me if res.winner == "a" else them, margin=res.margin))
        for user, r, n, d, k in ((interaction.user, res.a, pool, difficulty, karma),
                                 (opponent, res.b, their_pool, their_difficulty, their_karma)):
            mean, var = _moments(n, d, k)
            await self.store.log_roll(interaction.guild_id, interaction.channel_id, user.id,
                                      f"{len(r.dice)}d10>={d}", float(r.aces), label or "opposed", mean, var)
        for text in chunks(lines):
            await interaction.followup.send(text)

    @carnevale.command(name="odds", description="Exact chances of 0…n Aces, a Critical and a Fumble for a pool")
    @app_commands.describe(pool="Dice in the pool", difficulty="Ace on this or more (7)", karma="Karma dice added",
                           public="Show it to the channel (default: only you)")
    async def odds_command(self, interaction: discord.Interaction, pool: app_commands.Range[int, 0, 20],
                           difficulty: app_commands.Range[int, 2, 10] = 7, karma: app_commands.Range[int, 0, 2] = 0,
                           public: bool = False):
        text = odds_text(pool, difficulty, karma, interaction.locale)
        await interaction.response.send_message(text[:2000], ephemeral=not public)


    # ------------------------------------------------------------------ squads
    @squad.command(name="create", description="Start a new squad: a faction and a points limit")
    @app_commands.describe(name="The squad's name", faction="Its faction", points="Points limit (200)",
                           pack="A server pack (default: the SAMPLE pack)", events="Events bought (0-2, 10 pts each)",
                           campaign="A campaign squad (campaign equipment allowed)")
    @app_commands.autocomplete(faction=faction_autocomplete, pack=pack_autocomplete)
    async def squad_create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], faction: str,
                           points: app_commands.Range[int, 20, 1000] = 200, pack: str | None = None,
                           events: app_commands.Range[int, 0, 2] = 0, campaign: bool = False):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        if await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, name):
            raise BautaError(t("carnevale.squad.exists", loc, name=echo(name)))
        content = await self._pack(interaction.guild_id, pack, loc)
        if faction not in content.factions or faction in content.independent_factions:
            raise BautaError(t("carnevale.squad.no_faction", loc, faction=echo(faction), pack=content.name,
                               factions=", ".join(f for f in content.factions
                                                  if f not in content.independent_factions)))
        squad = Squad(name=name, faction=faction, points_limit=points, events=events, campaign=campaign)
        await self._save(interaction.guild_id, interaction.user.id, squad, pack or "")
        await interaction.followup.send(t("carnevale.squad.created", loc, name=name, faction=faction, points=points,
                                          pack=pack or t("carnevale.squad.sample", loc)), ephemeral=True)

    @squad.command(name="add", description="Add a model from the pack to one of your squads (checks every rule)")
    @app_commands.describe(squad="Your squad", profile="The profile (class) to add", name="A name for the model",
                           leader="Make it the squad's Leader", equipment="Extra equipment, comma-separated",
                           spells="Spells, comma-separated (Mages only)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, profile=profile_autocomplete)
    async def squad_add(self, interaction: discord.Interaction, squad: str, profile: str,
                        name: app_commands.Range[str, 1, 40] | None = None, leader: bool = False,
                        equipment: str | None = None, spells: str | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        before = await self._record(interaction.guild_id, interaction.user.id, squad, loc)
        current, pack_name = Squad.from_dict(before["squad"]), before.get("pack") or ""
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        member = SquadMember(profile=profile, name=name or "", equipment=list(_split_ids(equipment)),
                             spells=list(_split_ids(spells)), leader=leader)
        updated = add_member(pack, current, member)       # SquadError names every reason
        # the rest of the record (a campaign ledger) stays as it is
        await self._replace(interaction.guild_id, interaction.user.id, before, {**before, "squad": updated.to_dict()},
                            loc)
        text = t("carnevale.squad.added", loc, model=name or profile, name=current.name) + "\n" + \
            self._summary(pack, updated, pack_name, loc)
        for part in chunks(text.split("\n")):
            await interaction.followup.send(part, ephemeral=True)

    @squad.command(name="remove", description="Remove a model (by its number in /carnevale squad show) from a squad")
    @app_commands.describe(squad="Your squad", number="The model's number")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def squad_remove(self, interaction: discord.Interaction, squad: str, number: app_commands.Range[int, 1, 50]):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        before = await self._record(interaction.guild_id, interaction.user.id, squad, loc)
        current, pack_name = Squad.from_dict(before["squad"]), before.get("pack") or ""
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        updated = remove_member(current, number)
        gone = current.members[number - 1]
        await self._replace(interaction.guild_id, interaction.user.id, before, {**before, "squad": updated.to_dict()},
                            loc)
        text = t("carnevale.squad.removed", loc, model=gone.name or gone.profile, name=current.name) + "\n" + \
            self._summary(pack, updated, pack_name, loc)
        for part in chunks(text.split("\n")):
            await interaction.followup.send(part, ephemeral=True)

    @squad.command(name="show", description="A squad's sheet image and list (yours privately, or in the channel)")
    @app_commands.describe(squad="The squad", member="Whose squad (default: yours)",
                           public="Post it in the channel (magical items stay hidden)")
    @app_commands.autocomplete(squad=shown_squad_autocomplete)
    async def squad_show(self, interaction: discord.Interaction, squad: str, member: discord.Member | None = None,
                         public: bool = False):
        owner = member or interaction.user
        mine = owner.id == interaction.user.id
        full = mine and not public                  # the owner's own eyes only: magical items shown
        loc = interaction.locale
        # Looked up before the (maybe public) acknowledgement: a refusal stays with the caller.
        current, pack_name = await self._squad(interaction.guild_id, owner.id, squad, loc,
                                               who=None if mine else owner.mention)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        name = getattr(owner, "display_name", str(owner))
        view = squad_view(pack, current, name, viewer=None if full else PUBLIC)
        png = await asyncio.to_thread(squad_sheet, view, name, presenter_words(Presenter(loc, SYSTEM_NAME)))
        if full:
            text = self._summary(pack, current, pack_name, loc)
        else:
            text = t("carnevale.squad.sheet", loc, name=current.name, who=owner.mention)
        parts = chunks(text.split("\n"))
        await interaction.followup.send(parts[0], ephemeral=not public,
                                        file=discord.File(io.BytesIO(png), filename="carnevale-squad.png"))
        for part in parts[1:]:
            await interaction.followup.send(part, ephemeral=not public)

    @squad.command(name="list", description="The Carnevale squads of a member (default: yours)")
    async def squad_list(self, interaction: discord.Interaction, member: discord.Member | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        owner = member or interaction.user
        rows = await self.store.characters(interaction.guild_id, SYSTEM_NAME, owner.id)
        loc = interaction.locale
        if not rows:
            await interaction.followup.send(t("carnevale.squad.none", loc), ephemeral=True)
            return
        lines = [t("carnevale.squad.list_head", loc, who=owner.mention)]
        for _, name, data in rows:
            squad = Squad.from_dict(data["squad"])
            try:
                pack = await self._pack(interaction.guild_id, data.get("pack"), loc)
                cost = squad_cost(pack, squad)
            except Exception:  # noqa: BLE001 - a pack deleted since: show the squad anyway
                cost = "?"
            lines.append(t("carnevale.squad.list_row", loc, name=name, faction=squad.faction, cost=cost,
                           points=squad.points_limit, n=len(squad.members)))
        for part in chunks(lines):
            await interaction.followup.send(part, ephemeral=True)

    @squad.command(name="delete", description="Delete one of your squads")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def squad_delete(self, interaction: discord.Interaction, squad: str):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        if not await self.store.delete_character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad):
            raise BautaError(t("carnevale.squad.missing", loc, name=echo(squad)))
        await interaction.followup.send(t("carnevale.squad.deleted", loc, name=squad), ephemeral=True)
