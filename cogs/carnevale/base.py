"""What the Carnevale cog's modules share: the command groups, the squads and packs in the store,
and the autocompletes. `CarnevaleCog` (cogs/carnevale.py) is made of the squads and rolls
(cogs/carnevale_squads.py), the game (cogs/carnevale_game.py) and the campaign ledger
(cogs/carnevale_campaign.py); each decorates its commands with the groups defined here.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

import content
from i18n import DEFAULT, SUPPORTED, t
from i18n.present import Presenter
from rules.carnevale import ENGINE, MOVE_ACTIONS, Squad, load_pack_text, member_cost, squad_cost, validate_squad
from rules.common import BautaError

from cogs.host import untrusted
from cogs.host import BautaCog, echo

SYSTEM_NAME = "carnevale"


def named_genders(members: Iterable[tuple[str, str]],
                  profiles: Mapping[str, str | Mapping[str, str]] | None = None) -> dict[str, Any]:
    """`Presenter(genders=…)` for models players named, from (name, profile) pairs: each agrees as
    its profile does in each language whose words agree ("Lucrezia", a Harlot, is feminine), since
    the rules' events carry only the name. `profiles`: the genders a guild pack's profiles say
    (`Pack.genders`; the catalogues know only the sample pack's), kept too. A game keeps it in
    `meta["genders"]`."""
    own = dict(profiles or {})
    says = [Presenter(lang, SYSTEM_NAME, genders=own) for lang in SUPPORTED if lang != DEFAULT]
    return {**own, **{name: {say.language: say.gender(profile) for say in says} for name, profile in members
                      if name and name != profile}}


ATTRIBUTES = ("MOV", "COM", "DEX", "SHO", "MIN", "PRO")
STATUSES = ("in_water", "hidden", "immobilised", "drowning", "darkness", "on_gondola", "fragment", "off_table")
KARMA_USES = ("protection", "defensive", "swift", "other")
MANOEUVRES = ("charge", "low_blow", "push", "round_house", "strike_from_above", "trample", "drown")

carnevale = app_commands.Group(name="carnevale", description="Carnevale: d10 pools, squads and games", guild_only=True)
squad = app_commands.Group(name="squad", description="Carnevale squads: build, show, list", parent=carnevale)
# Discord caps one top-level command at 4,000 characters of names and descriptions, so the game's
# commands live in two top-level groups of their own: playing turns, and keeping the table's books.
game = app_commands.Group(name="carnevale-game", description="Play a Carnevale game in this channel: turns and actions",
                          guild_only=True)
table = app_commands.Group(name="carnevale-table", description="Carnevale game bookkeeping: damage, healing, morale, table facts",
                           guild_only=True)
# The campaign ledger is a top-level group too (/carnevale would pass Discord's 4,000 characters).
campaign = app_commands.Group(name="carnevale-campaign",
                              description="Carnevale: a squad's campaign ledger between adventures", guild_only=True)


def _split_ids(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    return tuple(x.strip() for x in text.replace(";", ",").split(",") if x.strip())


def _user_id(value) -> int | None:
    if value is None:
        return None
    return int(getattr(value, "id", value))



class CarnevaleBase(BautaCog):
    # ------------------------------------------------------------------ packs and squads (storage)
    async def _pack(self, guild_id: int, name: str | None, locale=None):
        """The guild pack called `name`, else the bundled SAMPLE pack (also the guild pack's base tables)."""
        sample = content.sample_pack(SYSTEM_NAME)
        if not name:
            return sample
        text = await self.store.pack(guild_id, SYSTEM_NAME, name)
        if text is None:
            raise BautaError(t("carnevale.squad.pack_missing", locale, name=echo(name)))
        # seconds for a big pack, in a child process: the base goes with the text
        return await untrusted.parse(load_pack_text, text, name, sample, source=name, locale=locale)

    async def _record(self, guild_id: int, owner_id: int, name: str, locale=None, who: str | None = None) -> dict:
        """A saved squad's whole record (the squad, its pack, its campaign), as stored."""
        data = await self.store.character(guild_id, owner_id, SYSTEM_NAME, name)
        if data is None:
            if who:
                raise BautaError(t("carnevale.squad.missing_of", locale, who=who, name=echo(name)))
            raise BautaError(t("carnevale.squad.missing", locale, name=echo(name)))
        return data

    async def _squad(self, guild_id: int, owner_id: int, name: str, locale=None, who: str | None = None):
        data = await self._record(guild_id, owner_id, name, locale, who)
        return Squad.from_dict(data["squad"]), data.get("pack") or ""

    async def _save(self, guild_id: int, owner_id: int, squad: Squad, pack_name: str) -> None:
        """A new squad (nothing saved under its name yet)."""
        await self.store.save_character(guild_id, owner_id, SYSTEM_NAME, squad.name,
                                        {"squad": squad.to_dict(), "pack": pack_name})

    async def _replace(self, guild_id: int, owner_id: int, before: dict, data: dict, locale=None) -> None:
        """Save a changed record only while the stored one is still `before`: of two commands on one
        squad at the same instant (a ledger roll and a spend, an edit and an undo), the second to save
        is refused and changes nothing, rather than writing over the first."""
        name = before["squad"]["name"]
        if not await self.store.replace_character(guild_id, owner_id, SYSTEM_NAME, name, before, data):
            raise BautaError(t("carnevale.squad.changed_meanwhile", locale, name=name))

    def _summary(self, pack, squad: Squad, pack_name: str, locale=None) -> str:
        try:
            cost = squad_cost(pack, squad)
        except Exception:  # noqa: BLE001 - a profile gone from the pack is reported below
            cost = "?"
        lines = [t("carnevale.squad.summary", locale, name=squad.name, faction=squad.faction, cost=cost,
                   points=squad.points_limit, n=len(squad.members),
                   pack=pack_name or t("carnevale.squad.sample", locale))]
        for i, m in enumerate(squad.members, 1):
            extra = []
            if m.equipment:
                extra.append("+ " + ", ".join(m.equipment))
            if m.spells:
                extra.append(t("carnevale.squad.spells", locale, spells=", ".join(m.spells)))
            try:
                mcost = member_cost(pack, m)
            except Exception:  # noqa: BLE001
                mcost = "?"
            named = m.name and m.name != m.profile        # an unnamed model is its profile, said once
            lines.append(t("carnevale.squad.member" if named else "carnevale.squad.member_unnamed", locale, i=i,
                           name=m.name, profile=m.profile, leader=t("carnevale.squad.leader", locale) if m.leader else "", cost=mcost,
                           extra=(" · " + " · ".join(extra)) if extra else ""))
        problems = validate_squad(pack, squad)               # reasons as terms, worded for the reader
        say = Presenter(locale, SYSTEM_NAME)
        lines.append(t("carnevale.squad.problems", locale, problems="; ".join(
            say.text(f"terms.{r['term']}", **{k: v for k, v in r.items() if k != "term"}) for r in problems))
            if problems else t("carnevale.squad.ready", locale))
        return "\n".join(lines)

    # ------------------------------------------------------------------ autocompletes
    async def _state(self, interaction: discord.Interaction):
        if interaction.guild_id is None:
            return None
        game = await self.store.active_game(interaction.guild_id, interaction.channel_id)
        if game is None or game.system != SYSTEM_NAME:
            return None
        return ENGINE.load_state(game.state)

    async def model_autocomplete(self, interaction: discord.Interaction, current: str):
        state = await self._state(interaction)
        if state is None:
            return []
        me = str(interaction.user.id)
        models = sorted(state.models.values(), key=lambda m: (m.owner != me, m.uid))
        out = []
        say = Presenter(interaction.locale, SYSTEM_NAME)
        for m in models:
            owner = state.players[m.owner].name if m.owner in state.players else m.owner
            # "caduta": a model agrees as its profile does, whatever its player named it
            label = t("carnevale.choices.model_fallen" if m.fallen else "carnevale.choices.model", interaction.locale,
                      uid=m.uid, name=say.agreeing(m.name, like=m.profile), owner=owner, left=m.life_left, life=m.life)
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=m.uid))
        return out[:25]

    async def spell_autocomplete(self, interaction: discord.Interaction, current: str):
        state = await self._state(interaction)
        if state is None:
            return []
        uid = getattr(interaction.namespace, "model", None)
        names = state.models[uid].spells if uid in state.models else list(state.spells)
        return [app_commands.Choice(name=n[:100], value=n) for n in names if current.lower() in n.lower()][:25]

    async def weapon_autocomplete(self, interaction: discord.Interaction, current: str):
        state = await self._state(interaction)
        uid = getattr(interaction.namespace, "model", None)
        if state is None or uid not in state.models:
            return []
        return [app_commands.Choice(name=t(f"carnevale.choices.weapon_{w.kind}", interaction.locale, name=w.name)[:100],
                                    value=w.name)
                for w in state.models[uid].weapons if current.lower() in w.name.lower()][:25]

    async def _squad_choices(self, interaction: discord.Interaction, owner: int | None, current: str):
        if interaction.guild_id is None or owner is None:
            return []
        rows = await self.store.characters(interaction.guild_id, SYSTEM_NAME, owner)
        # A choice's value is at most 100 characters or Discord drops the whole list (older
        # squads may have longer names: those are typed, not offered).
        return [app_commands.Choice(name=name, value=name) for _, name, _ in rows
                if len(name) <= 100 and current.lower() in name.lower()][:25]

    async def my_squad_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._squad_choices(interaction, interaction.user.id, current)

    async def their_squad_autocomplete(self, interaction: discord.Interaction, current: str):
        ns = interaction.namespace
        owner = _user_id(getattr(ns, "opponent", None) or getattr(ns, "member", None))
        return await self._squad_choices(interaction, owner, current)

    async def shown_squad_autocomplete(self, interaction: discord.Interaction, current: str):
        owner = _user_id(getattr(interaction.namespace, "member", None)) or interaction.user.id
        return await self._squad_choices(interaction, owner, current)

    async def pack_autocomplete(self, interaction: discord.Interaction, current: str):
        if interaction.guild_id is None:
            return []
        packs = await self.store.packs(interaction.guild_id, SYSTEM_NAME)
        return [app_commands.Choice(name=p["name"], value=p["name"]) for p in packs
                if len(p["name"]) <= 100 and current.lower() in p["name"].lower()][:25]

    async def _namespace_pack(self, interaction: discord.Interaction):
        """The pack of the squad named in the command (or of the `pack` option), else the sample."""
        ns = interaction.namespace
        name = getattr(ns, "pack", None)
        squad_name = getattr(ns, "squad", None)
        try:
            if squad_name:
                _, name = await self._squad(interaction.guild_id, interaction.user.id, squad_name)
            return await self._pack(interaction.guild_id, name)
        except Exception:  # noqa: BLE001 - an autocomplete never fails loudly
            return content.sample_pack(SYSTEM_NAME)

    async def faction_autocomplete(self, interaction: discord.Interaction, current: str):
        pack = await self._namespace_pack(interaction)
        return [app_commands.Choice(name=f[:100], value=f) for f in pack.factions
                if f not in pack.independent_factions and current.lower() in f.lower()][:25]

    async def profile_autocomplete(self, interaction: discord.Interaction, current: str):
        pack = await self._namespace_pack(interaction)
        faction = None
        squad_name = getattr(interaction.namespace, "squad", None)
        if squad_name and interaction.guild_id is not None:
            data = await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad_name)
            faction = data["squad"]["faction"] if data else None
        out = []
        for name, p in pack.profiles.items():
            if faction and p["faction"] != faction and p["faction"] not in pack.independent_factions:
                continue
            label = t("carnevale.choices.profile", interaction.locale, name=name, faction=p["faction"], cost=p["cost"])
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=name))
        return out[:25]

    async def ap_action_autocomplete(self, interaction: discord.Interaction, current: str):
        say = Presenter(interaction.locale, SYSTEM_NAME)
        out = []
        for k, (ap, roll) in MOVE_ACTIONS.items():
            label = t("carnevale.choices.ap_action_roll" if roll else "carnevale.choices.ap_action", interaction.locale,
                      action=say.text(f"terms.move_{k}"), ap=ap)
            if current.lower() in k or current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=k))
        return out[:25]


# The autocompletes by name, for the decorators in the other modules' class bodies (discord.py still
# calls them bound to the cog: their qualified names say they are methods of CarnevaleBase).
my_squad_autocomplete = CarnevaleBase.my_squad_autocomplete
their_squad_autocomplete = CarnevaleBase.their_squad_autocomplete
shown_squad_autocomplete = CarnevaleBase.shown_squad_autocomplete
faction_autocomplete = CarnevaleBase.faction_autocomplete
pack_autocomplete = CarnevaleBase.pack_autocomplete
profile_autocomplete = CarnevaleBase.profile_autocomplete
model_autocomplete = CarnevaleBase.model_autocomplete
ap_action_autocomplete = CarnevaleBase.ap_action_autocomplete
weapon_autocomplete = CarnevaleBase.weapon_autocomplete
spell_autocomplete = CarnevaleBase.spell_autocomplete
