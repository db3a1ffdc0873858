"""`/carnevale-campaign …`: a squad's campaign ledger between adventures (start, record, experience,
bonus, injury, spend, upkeep, power, hostage, promote, retire, legacy, undo, show).

A campaign is kept with its squad (`store.save_character`), not in a channel's game: each command
is an action of `rules/carnevale/ledger.py` applied to the stored record, whose events become the
ledger's entry (kind + data) and are told to the channel in the server's language; `show` words
them again for whoever reads it, and `undo` takes the last entries back (the record keeps what it
was before each of its last 20). A game played with saved squads that have a ledger is recorded
into both ledgers when it ends (`on_over` in cogs/carnevale.py).
"""
from __future__ import annotations

import copy
import secrets

import discord
from discord import app_commands

from i18n import t
from i18n.present import Presenter
from rules.carnevale import BLACK_STATUE, ENGINE, STANDARD_LENGTH, CampaignRecord, Squad, check_squad, ledger
from rules.carnevale import campaign as C
from rules.common import BautaError

from .base import SYSTEM_NAME, CarnevaleBase, _split_ids, campaign, my_squad_autocomplete, named_genders
from cogs.host import chunks, echo


def words(say: Presenter, value) -> str:
    """A value a campaign keeps as data (a term, a list of them), or as text (schema 1), as words."""
    if isinstance(value, list):
        return ", ".join(words(say, v) for v in value)
    if isinstance(value, dict) and "term" in value:
        return say.text(f"terms.{value['term']}", **{k: v for k, v in value.items() if k != "term"})
    return str(value)


class CarnevaleCampaign(CarnevaleBase):
    async def _campaign(self, interaction: discord.Interaction, squad: str):
        """(saved data, CampaignRecord) of one of the caller's squads; refused without a campaign.
        The record is a copy: the data stay as read, for the compare-and-set of `_save_campaign`."""
        loc = interaction.locale
        data = await self._record(interaction.guild_id, interaction.user.id, squad, loc)
        if not data.get("campaign"):
            raise BautaError(t("carnevale.campaign.none", loc, name=echo(squad)))
        return data, CampaignRecord.from_dict(copy.deepcopy(data["campaign"]))

    async def _save_campaign(self, interaction: discord.Interaction, data: dict, rec: CampaignRecord,
                             before: dict | None = None) -> None:
        """Refused ("changed meanwhile") when another command saved the squad since `before` (by default
        `data`) was read."""
        await self._replace(interaction.guild_id, interaction.user.id, data if before is None else before,
                            {**data, "campaign": rec.to_dict()}, interaction.locale)

    async def _tell(self, interaction: discord.Interaction, head: str, events, rec: CampaignRecord,
                    data: dict) -> None:
        """The channel's lines: a head, then each event in the server's language."""
        say = Presenter(interaction.guild_locale, SYSTEM_NAME, genders=member_genders(rec, data))
        for part in chunks([head, *(f"• {line}" for line in say.events(events))]):
            await self.host.courier.send_channel(interaction.channel_id, part)
        await self.host.finish(interaction)

    async def _ledger(self, interaction: discord.Interaction, squad: str, action) -> None:
        """Apply one ledger action (rolls use the record's own Rng): a refusal stays private and
        changes nothing; a result is saved, then told to the channel."""
        await self.host.begin(interaction)
        data, rec = await self._campaign(interaction, squad)
        try:
            events = ledger.apply(rec, action)                 # raises IllegalAction: nothing saved
        except BautaError as error:                            # "Lucrezia è già migliorata": her gender
            error.genders = member_genders(rec, data)
            raise
        await self._save_campaign(interaction, data, rec)
        await self._tell(interaction, t("carnevale.campaign.head", interaction.guild_locale,
                                        who=interaction.user.mention, name=rec.squad), events, rec, data)

    async def campaign_member_autocomplete(self, interaction: discord.Interaction, current: str):
        squad = getattr(interaction.namespace, "squad", None)
        if not squad or interaction.guild_id is None:
            return []
        data = await self.store.character(interaction.guild_id, interaction.user.id, SYSTEM_NAME, squad)
        if not data or not data.get("campaign"):
            return []
        return [app_commands.Choice(name=m["name"][:100], value=m["name"]) for m in data["campaign"]["members"]
                if current.lower() in m["name"].lower()][:25]

    @campaign.command(name="start", description="Open the campaign ledger of one of your squads")
    @app_commands.describe(squad="Your squad", length="Adventures in the campaign (5)")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_start(self, interaction: discord.Interaction, squad: str,
                             length: app_commands.Range[int, 1, 20] = STANDARD_LENGTH):
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = interaction.locale
        data = await self._record(interaction.guild_id, interaction.user.id, squad, loc)
        current, pack_name = Squad.from_dict(data["squad"]), data.get("pack") or ""
        if data.get("campaign"):
            raise BautaError(t("carnevale.campaign.exists", loc, name=current.name))
        pack = await self._pack(interaction.guild_id, pack_name, loc)
        check_squad(pack, current)
        rec = C.new_campaign(pack, current, str(interaction.user.id), seed=secrets.randbits(63), length=length)
        # the pack's profile genders, kept with the ledger: its lines agree as a game's do, without
        # parsing the pack again for every ledger command
        await self._save_campaign(interaction, {**data, "genders": pack.genders}, rec, before=data)
        await interaction.followup.send(t("carnevale.campaign.started", loc, name=current.name, n=length),
                                        ephemeral=True)

    @campaign.command(name="record", description="Record an adventure: VP and the win give Campaign Points")
    @app_commands.describe(squad="Your squad", vp="Victory Points scored", won="Did you win?",
                           adventure="Which adventure", note="A note for the history")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    @app_commands.choices(adventure=[app_commands.Choice(name=a["name"], value=a["name"]) for a in BLACK_STATUE])
    async def campaign_record(self, interaction: discord.Interaction, squad: str, vp: app_commands.Range[int, 0, 200],
                              won: bool, adventure: str | None = None,
                              note: app_commands.Range[str, 1, 200] | None = None):
        await self._ledger(interaction, squad, ledger.RecordAdventure(adventure or "", vp, won, (note,) if note else ()))

    @campaign.command(name="experience", description="A surviving character's Experience roll (Leader 9+, others 8+)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_experience(self, interaction: discord.Interaction, squad: str, member: str):
        await self._ledger(interaction, squad, ledger.Experience(member))

    @campaign.command(name="bonus", description="Bonus Experience: one roll per 5 VP for chosen non-Leaders")
    @app_commands.describe(squad="Your squad", vp="VP scored in the adventure",
                           members="The characters who roll, comma-separated")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_bonus(self, interaction: discord.Interaction, squad: str, vp: app_commands.Range[int, 0, 200],
                             members: str):
        await self._ledger(interaction, squad, ledger.Bonus(vp, _split_ids(members)))

    @campaign.command(name="injury", description="Fallen in Combat: a fallen character rolls (5+ recovers)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_injury(self, interaction: discord.Interaction, squad: str, member: str):
        await self._ledger(interaction, squad, ledger.Injury(member))

    @campaign.command(name="spend", description="Spend Campaign Points from the squad's bank")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_spend(self, interaction: discord.Interaction, squad: str,
                             amount: app_commands.Range[int, 1, 1000], what: app_commands.Range[str, 1, 100]):
        await self._ledger(interaction, squad, ledger.Spend(amount, echo(what)))

    @campaign.command(name="upkeep", description="Pay maintenance before the next adventure (injuries first)")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_upkeep(self, interaction: discord.Interaction, squad: str):
        await self._ledger(interaction, squad, ledger.Upkeep())

    @campaign.command(name="power", description="A character rolls on the Powers table (duplicates −1, a 10 rolls twice)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_power(self, interaction: discord.Interaction, squad: str, member: str):
        await self._ledger(interaction, squad, ledger.Power(member))

    @campaign.command(name="hostage", description="Rescue of the Prisoner: of the models that died, the cheapest was captured")
    @app_commands.describe(squad="Your squad (the loser of Nighttime Ambush)",
                           members="The models that died on the Fallen table, comma-separated")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_hostage(self, interaction: discord.Interaction, squad: str, members: str):
        await self._ledger(interaction, squad, ledger.Hostage(_split_ids(members)))

    @campaign.command(name="promote", description="Legacy: the old Leader retires and a veteran is promoted")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_promote(self, interaction: discord.Interaction, squad: str, member: str):
        await self._ledger(interaction, squad, ledger.Promote(member))

    @campaign.command(name="retire", description="Legacy: a member tries to retire (1d10, 5+ leaves; else it stays, paid)")
    @app_commands.autocomplete(squad=my_squad_autocomplete, member=campaign_member_autocomplete)
    async def campaign_retire(self, interaction: discord.Interaction, squad: str, member: str):
        await self._ledger(interaction, squad, ledger.Retire(member))

    @campaign.command(name="legacy", description="Legacy: start the next campaign with the kept squad (+10 pts per improvement)")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_legacy(self, interaction: discord.Interaction, squad: str):
        await self._ledger(interaction, squad, ledger.Legacy())

    @campaign.command(name="undo", description="Take back the ledger's last entries (a roll made again rolls the same)")
    @app_commands.describe(squad="Your squad", steps="How many entries (1)")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_undo(self, interaction: discord.Interaction, squad: str,
                            steps: app_commands.Range[int, 1, ledger.UNDO_DEPTH] = 1):
        await self.host.begin(interaction)
        data, rec = await self._campaign(interaction, squad)
        taken = ledger.undo(rec, steps)                          # the latest first
        await self._save_campaign(interaction, data, rec)
        head = t("carnevale.campaign.undone", interaction.guild_locale, who=interaction.user.mention, name=rec.squad,
                 n=len(taken))
        await self._tell(interaction, head, [e for entry in taken for e in entry.events], rec, data)

    @campaign.command(name="show", description="A squad's campaign: bank, adventures, each character's history")
    @app_commands.autocomplete(squad=my_squad_autocomplete)
    async def campaign_show(self, interaction: discord.Interaction, squad: str, public: bool = False):
        data, rec = await self._campaign(interaction, squad)  # before a public acknowledgement
        await interaction.response.defer(ephemeral=not public, thinking=True)
        loc = interaction.locale if not public else interaction.guild_locale
        for part in chunks(campaign_lines(rec, data, loc)):
            await interaction.followup.send(part, ephemeral=not public)


def member_genders(rec: CampaignRecord, data: dict) -> dict[str, dict[str, str]]:
    """The campaign's members a player named agree as their profiles do ("Lucrezia è promossa"), and
    the profiles as the squad's pack says (`data["genders"]`, kept when the campaign started)."""
    return named_genders(((m.name, m.profile) for m in rec.members), data.get("genders"))


def campaign_lines(rec: CampaignRecord, data: dict, loc) -> list[str]:
    """The campaign as its reader reads it: bank, adventures, each member, then the latest history
    (schema 1's lines as they were written, then the ledger's entries in the reader's language)."""
    say = Presenter(loc, SYSTEM_NAME, genders=member_genders(rec, data))
    lines = [t("carnevale.campaign.show", loc, name=rec.squad, faction=rec.faction, bank=rec.bank,
               done=len(rec.adventures), length=rec.length, no=rec.campaign_no)]
    for a in rec.adventures:
        lines.append(t("carnevale.campaign.adventure_won" if a.won else "carnevale.campaign.adventure", loc,
                       n=a.number, name=words(say, C.title(a)), vp=a.vp, cp=a.cp))
    for m in rec.members:
        extra = [t(f"carnevale.campaign.{flag}", loc) for flag, on in (
            ("leader", m.leader), ("dead", m.dead), ("captured", m.captured), ("misses", m.misses_next)) if on]
        for key, items in (("improvements", m.improvements), ("powers", m.powers), ("injuries", m.injuries)):
            if items:
                extra.append(t(f"carnevale.campaign.{key}", loc, items=words(say, list(items))))
        who = t("carnevale.campaign.member" if m.profile != m.name else "carnevale.campaign.member_unnamed", loc,
                name=m.name, profile=m.profile)
        lines.append(who + (" — " + "; ".join(extra) if extra else ""))
    history = list(rec.history) + [line for entry in rec.ledger for line in say.events(entry.events)]
    if history:
        lines.append(t("carnevale.campaign.history", loc))
        lines += [f"· {h}" for h in history[-15:]]
    return lines


async def campaign_page(store, game, viewer: str, say: Presenter) -> str | None:
    """The campaign page of a Carnevale game (web/campaign.py): the ledger of the viewer's own saved
    squad in it, as `/carnevale-campaign show` gives it to its owner; another player's ledger, the
    GM's and a spectator's stay closed (only its owner shows one, and only their own)."""
    state = ENGINE.load_state(game.state)
    player = state.players.get(viewer)
    if player is None or not player.squad or not viewer.isdigit():
        return None                # not seated, or a squad the rules built: no ledger
    data = await store.character(game.guild_id, int(viewer), SYSTEM_NAME, player.squad)
    if not data:
        return None                # deleted since the game began
    if not data.get("campaign"):
        return t("carnevale.campaign.none", say.language, name=echo(player.squad))
    rec = CampaignRecord.from_dict(copy.deepcopy(data["campaign"]))
    return "\n".join(campaign_lines(rec, data, say.language))
