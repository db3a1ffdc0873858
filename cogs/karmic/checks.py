"""Karmic checks on Discord: `/karmic check`, `/karmic gm-modifier`, `/karmic shoot`, `/karmic aim`."""
from __future__ import annotations

import secrets

import discord
from discord import app_commands

from i18n import t
from i18n.present import Presenter
from rules.common import Event, IllegalAction, Rng
from rules.karmic import (TARGET_SITUATION,
                          Character, GmModifier, aim, matches, name_in, pack_entry, said, weapon_named)

from cogs.host import echo
from .common import (refused, speaking, sample_names, card_words, entry_name, skill_choices, typed_skill,
                            NAME, ATTRIBUTE_CHOICES, _split_names, karmic)

from .sheets import KarmicSheets
from .situations import situation_choices, situation_ids


class KarmicChecks(KarmicSheets):
    async def _skill_names(self, interaction: discord.Interaction, current: str):
        return skill_choices(Presenter(interaction.locale, NAME), current)

    @karmic.command(name="check", description="Make a check: your hand arrives by DM, the result is posted here")
    @app_commands.describe(skill="The skill (e.g. tracking; 'none' for an attribute alone)",
                           attribute="The attribute added", difficulty="very easy … nigh impossible, or a number",
                           character="Your character (default: your only one)", modifier="A public modifier",
                           field="Field of expertise, for skills that have them", pack="A guild pack (optional)",
                           opponent="An NPC opposing the check (pack or GM sheet): an opposed check",
                           opponent_skill="The NPC's skill (default: the same skill)",
                           opponent_attribute="The NPC's attribute (default: the same attribute)",
                           bot_plays_npcs="The bot plays the NPC's card instead of the GM",
                           skill2="Two things at once: the hand of the lower skill", helper="A member who helps",
                           helper2="Another member who helps", max_helpers="GM cap on helpers",
                           situation="Tables: wall, rope…")
    @app_commands.choices(attribute=ATTRIBUTE_CHOICES, opponent_attribute=ATTRIBUTE_CHOICES)
    @app_commands.autocomplete(character=KarmicSheets._my_characters, difficulty=KarmicSheets._difficulties,
                               opponent=KarmicSheets._npc_names, situation=situation_choices, skill=_skill_names,
                               opponent_skill=_skill_names, skill2=_skill_names)
    async def check(self, interaction: discord.Interaction, skill: str,
                    attribute: app_commands.Choice[str] | None = None, difficulty: str | None = None,
                    character: str | None = None, modifier: app_commands.Range[int, -20, 20] = 0,
                    field: str | None = None, pack: str | None = None, opponent: str | None = None,
                    opponent_skill: str | None = None, opponent_attribute: app_commands.Choice[str] | None = None,
                    bot_plays_npcs: bool = False, skill2: str | None = None, helper: discord.Member | None = None,
                    helper2: discord.Member | None = None, max_helpers: app_commands.Range[int, 0, 12] | None = None,
                    situation: app_commands.Range[str, 1, 300] | None = None):
        if max_helpers is not None:
            await self.host.require_gm(interaction)           # the GM caps how many may help (§1.10)
        await self.host.begin(interaction)
        content = await self._pack(interaction.guild_id, pack)
        new: dict = {}
        spec, ref = await self._player_character(interaction, interaction.user, character, content, new,
                                                 interaction.locale)
        refs = {"c1": ref}
        skill_name = "" if skill.strip().lower() in ("none", "-", "") else echo(typed_skill(skill))
        options = {"mode": "check", "actor": spec, "skill": skill_name,
                   "attribute": attribute.value if attribute else None,
                   "difficulty": typed_skill(difficulty) if difficulty else difficulty,
                   "modifier": int(modifier), "field": field, "world": await self._world(interaction.guild_id),
                   "pack": content, "bot_plays_npcs": bot_plays_npcs,
                   "situations": situation_ids(situation)}        # the skill tables (karmic_situations)
        if skill2 and skill2.strip():
            options["skill2"] = echo(typed_skill(skill2))
        seats = [str(interaction.user.id)]
        helpers = [m for m in (helper, helper2) if m is not None]
        if max_helpers is not None:
            options["max_helpers"] = int(max_helpers)
        for member in helpers:
            if getattr(member, "bot", False) or str(member.id) in seats:
                raise refused("helper_bad")
            hspec, href = await self._player_character(interaction, member, None, content, new, interaction.locale)
            options.setdefault("helpers", []).append(hspec)
            refs[f"h{len(options['helpers'])}"] = href
            seats.append(str(member.id))
        await self._gm_room_is_private(interaction, bool(opponent), bot_plays_npcs)
        if opponent:
            ospec, oref = await self._npc(interaction.guild_id, opponent.strip(), content, {})
            oskill = typed_skill(opponent_skill or skill_name)
            options["opponent"] = {**ospec, "skill": "" if oskill.lower() in ("none", "-") else oskill,
                                   "attribute": (opponent_attribute or attribute).value
                                   if (opponent_attribute or attribute) else None}
            if oref is not None:
                refs["o1"] = oref
        await self._busy(interaction.guild_id, list(refs.values()))
        await self.host.start(interaction, NAME, seats, options,
                              intro=Event("check_opened", {"player": str(interaction.user.id), "name": ref[1]}),
                              meta=self._sheets_meta(refs, options))
        await self._save_new(interaction.guild_id, new)

    @karmic.command(name="gm-modifier", description="GM: a modifier on the check or a fighter here (hidden by default)")
    @app_commands.describe(value="The modifier (e.g. -3)", hidden="Seen by the GM only (default yes)",
                           side="Check: 1 actor, 2 opponent; combat: the fighter's number")
    async def gm_modifier(self, interaction: discord.Interaction, value: app_commands.Range[int, -20, 20],
                          hidden: bool = True, side: app_commands.Range[int, 1, 12] = 1):
        await self.host.require_gm(interaction)
        await self.host.act(interaction, GmModifier(int(value), side - 1, hidden), system=NAME)
        if hidden:
            await interaction.followup.send(t("karmic.gm_modifier_set", interaction.locale, value=f"{value:+d}"),
                                            ephemeral=True)

    # ---------------------------------------------------------------- ranged attacks
    async def _situations(self, interaction: discord.Interaction, current: str):
        head, _, last = current.rpartition(",")
        prefix = f"{head}, " if head else ""
        return [app_commands.Choice(name=prefix + k, value=prefix + k) for k in TARGET_SITUATION
                if last.strip().lower() in k][:25]

    async def _ranged_weapons(self, interaction: discord.Interaction, current: str):
        # in the reader's language (a weapon is found by its name in any of the pack's languages)
        names = {entry_name(w, interaction.locale) for w in sample_names("weapons") if w.get("ranged")}
        for _, _, data in await self.store.characters(interaction.guild_id, NAME, interaction.user.id):
            for w in (data.get("character") or {}).get("weapons", []):
                if isinstance(w, dict) and w.get("ranged"):
                    names.add(entry_name(w, interaction.locale))
        return [app_commands.Choice(name=n, value=n) for n in sorted(names) if current.lower() in n.lower()][:25]

    @karmic.command(name="shoot", description="Ranged attack: a check with the weapon; the target may dodge or block")
    @app_commands.describe(
        weapon="Your ranged weapon", distance="Yards to the target",
        target="An NPC target", target_member="A member target",
        target_character="The target member's character", defense="The target dodges or blocks",
        situation="Target: running, prone… (comma-separated)", location="Called shot location",
        into_melee="Target in a melee (no defense)",
        from_aim="Fire from your aim row", character="Your character",
        modifier="A public modifier", pack="A guild pack", bot_plays_npcs="The bot plays the NPC")
    @app_commands.choices(defense=[app_commands.Choice(name="dodge", value="dodge"),
                                   app_commands.Choice(name="shield block", value="block")])
    @app_commands.autocomplete(weapon=_ranged_weapons, target=KarmicSheets._npc_names,
                               character=KarmicSheets._my_characters, situation=_situations,
                               location=KarmicSheets._locations)
    async def shoot(self, interaction: discord.Interaction, weapon: str, distance: app_commands.Range[float, 0, 2000],
                    target: str | None = None, target_member: discord.Member | None = None,
                    target_character: str | None = None, defense: app_commands.Choice[str] | None = None,
                    situation: str | None = None, location: str | None = None, into_melee: bool = False,
                    from_aim: bool = False, character: str | None = None,
                    modifier: app_commands.Range[int, -20, 20] = 0, pack: str | None = None,
                    bot_plays_npcs: bool = False):
        await self.host.begin(interaction)
        locale = interaction.locale
        if target and target_member is not None:
            raise refused("shoot_one_target")
        if defense is not None and not (target or target_member):
            raise refused("shoot_defense_needs_target")
        if defense is not None and into_melee:
            raise refused("shoot_melee_no_defense")
        if target_member is not None and (getattr(target_member, "bot", False)
                                          or target_member.id == interaction.user.id):
            raise refused("shoot_bad_member")
        content = await self._pack(interaction.guild_id, pack)
        new: dict = {}
        spec, ref = await self._player_character(interaction, interaction.user, character, content, new, locale)
        refs = {"c1": ref}
        ranged = {"weapon": weapon.strip(), "distance": float(distance), "into_melee": into_melee,
                  "from_aim": from_aim, "situation": [s.strip().lower().replace(" ", "_")
                                                      for s in _split_names(situation)]}
        if location:
            ranged["location"] = location
        seats = [str(interaction.user.id)]
        options = {"mode": "check", "actor": spec, "skill": "", "attribute": None, "modifier": int(modifier),
                   "world": await self._world(interaction.guild_id),
                   "pack": content, "bot_plays_npcs": bot_plays_npcs, "ranged": ranged}
        target_name = target or (target_member.mention if target_member is not None else "")
        npc = pack_entry(content, "npcs", target) if target else None      # a pack NPC in every language
        target_said = said(npc["name"], npc.get("names")) if npc else echo(target_name)
        carried = spec["character"].get("weapons", []) if isinstance(spec["character"], dict) else []
        held = next((w for w in carried if isinstance(w, dict) and matches(weapon, w["name"], w.get("names"))), None)
        if defense is not None:
            ranged["defense"] = defense.value
            if target_member is not None:
                ospec, oref = await self._player_character(interaction, target_member, target_character,
                                                           content, new, locale)
                seats.append(str(target_member.id))
            else:
                await self._gm_room_is_private(interaction, True, bot_plays_npcs)
                ospec, oref = await self._npc(interaction.guild_id, target.strip(), content, {})
            options["opponent"] = ospec
            if oref is not None:
                refs["o1"] = oref
        await self._busy(interaction.guild_id, list(refs.values()))
        await self.host.start(interaction, NAME, seats, options,
                              intro=Event("shoot_opened", {
                                  "player": str(interaction.user.id), "name": ref[1],
                                  "weapon": said(held["name"], held.get("names")) if held else echo(weapon.strip()),
                                  "target": {"term": "shoot_target", "name": target_said} if target_name
                                  else {"term": "nothing"},
                                  "defense": {"term": f"shoot_{defense.value}"} if defense is not None
                                  else {"term": "nothing"}}),
                              meta=self._sheets_meta(refs, options))
        await self._save_new(interaction.guild_id, new)

    @karmic.command(name="aim", description="Aim a ranged weapon for a round: one card face up into your aim row")
    @app_commands.describe(weapon="The ranged weapon", character="Your character (default: your only one)")
    @app_commands.autocomplete(weapon=_ranged_weapons, character=KarmicSheets._my_characters)
    async def aim_weapon(self, interaction: discord.Interaction, weapon: str, character: str | None = None):
        await self.host.begin(interaction)
        found = await self._record(interaction.guild_id, interaction.user.id, character, interaction.locale)
        if found is None:
            raise refused("no_such_character", name=echo(character or "—"))
        stored, data = found
        await self._busy(interaction.guild_id, [(interaction.user.id, stored)])
        char = Character.from_dict(data["character"])
        if char.deck is None:
            raise refused("draws_world_deck")
        with speaking():
            w = weapon_named(char, weapon.strip())
            if not w.ranged:
                raise IllegalAction("not_ranged", weapon=w.shown)
            dropped = aim(char, w, Rng.from_seed(secrets.randbits(63)))
        data["character"] = char.to_dict()
        await self.store.save_character(interaction.guild_id, interaction.user.id, NAME, stored, data)
        locale = (await self.store.settings(interaction.guild_id)).locale or interaction.guild_locale   # the table's
        say = Presenter(locale, NAME)
        await self.host.courier.send_channel(interaction.channel_id, t(
            "karmic.shoot.aimed", locale, name=stored, weapon=name_in(w.name, w.names, say.language), row=card_words(say, char.aim_row, " "),
            aim=w.aim, dropped=t("karmic.shoot.dropped", locale, cards=card_words(say, dropped, " ")) if dropped else ""))
        await self.host.finish(interaction, t("karmic.shoot.aim_done", interaction.locale))

    # ---------------------------------------------------------------- combat
