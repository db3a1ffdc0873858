"""Karmic sheets and decks on Discord: `/karmic character import|show|list|delete`, `/karmic deck`
(with the persistent Reshuffle / Not now buttons of a Rule-of-Fives window), and the look-ups every
game command shares (packs, stored characters, NPCs, the world deck)."""
from __future__ import annotations

import secrets
from typing import Any

import discord
from discord import app_commands

from i18n import t
from i18n.present import Presenter
from rules.common import GM, IllegalAction, PackError, Rng, Where
from rules.common.safe_yaml import shorten
from rules.karmic import (ATTRIBUTES, DIFFICULTY, LOCATION_NAMES, Character, character_from_sheet,
                          characters_out, check_distinction_cap, deck_summary, entry_matches, genders_of,
                          import_sheet, load_pack_text, matches, name_in)

from cogs.host import untrusted
from cogs.host import BautaCog, chunks, echo
from .common import (refused, speaking, sample_names, sample_pack, card_words, entries_said, entry_name, skill_name,
                            GENDERS, GM_OWNER, MAX_SHEET_BYTES, NAME, SHEETS, USES_WORLD, WORLD, character, karmic)


# ============================================================================ deck buttons
class DeckButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"karmic:deck:(?P<owner>[0-9]+):(?P<choice>yes|no):(?P<name>.+)"):
    """Reshuffle / Not now for a Rule-of-Fives window outside a game (from `/karmic deck`)."""

    def __init__(self, owner: int, choice: str, name: str, label_: str = "…"):
        self.owner, self.choice, self.name = owner, choice, name
        style = discord.ButtonStyle.primary if choice == "yes" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label_, style=style,
                                           custom_id=f"karmic:deck:{owner}:{choice}:{name}"[:100]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(int(match["owner"]), match["choice"], match["name"], item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.host import report_error
        try:
            await interaction.response.defer(ephemeral=True)
            cog = interaction.client.get_cog("KarmicCog")
            text = await cog.answer_deck_offer(interaction, self.owner, self.name, self.choice == "yes")
            await interaction.followup.send(text, ephemeral=True)
        except Exception as exc:  # noqa: BLE001 - every error becomes a friendly ephemeral reply
            await report_error(interaction, exc)


def deck_offer_view(owner: int, stored: str, locale) -> discord.ui.View:
    """Reshuffle / Not now for an open Rule-of-Fives window of a stored deck (persistent buttons)."""
    view = discord.ui.View(timeout=None)
    view.add_item(DeckButton(owner, "yes", stored, t("karmic.deck.yes", locale)))
    view.add_item(DeckButton(owner, "no", stored, t("karmic.deck.no", locale)))
    return view


async def offer_reshuffles(host, game, state) -> None:
    """A game that ended with a Rule-of-Fives window open on a member's deck: one DM with the
    Reshuffle / Not now buttons, answerable any time, while the channel is free for the next game."""
    refs = (await host.store.game(game.id) or game).meta.get(SHEETS) or {}
    locales = game.meta.get("locales") or {}
    for key, (_controller, char) in characters_out(state).items():
        ref = refs.get(key)
        if not ref or int(ref[0]) == GM_OWNER or char.deck is None or not char.deck.offer:
            continue
        owner, stored = int(ref[0]), ref[1]
        locale = locales.get(str(owner))
        await host.courier.send_dm(game.guild_id, owner, t("karmic.deck.offer_after", locale, name=stored,
                                                           discards=char.deck.since_shuffle),
                                   view=deck_offer_view(owner, stored, locale))


def sheet_text(char: Character, locale=None) -> str:
    """A character's sheet as `/karmic character show` gives it to its owner (its deck's counts too)."""
    d = "karmic.sheet."
    say = Presenter(locale, NAME)

    def named(thing) -> str:                        # a pack's name, in the reader's language
        return name_in(thing.name, thing.names, say.language)
    attrs = " · ".join(f"{say.text(f'terms.attribute.{a}')} {char.attributes.get(a, 0):+d}" for a in ATTRIBUTES)
    skills = ", ".join(f"{skill_name(say, s)} {v}" for s, v in sorted(char.skills.items())) or "—"
    weapons = ", ".join(t(d + "wielded", locale, weapon=named(w)) if i in char.wielding else named(w)
                        for i, w in enumerate(char.weapons))
    lines = [t(d + "title", locale, name=named(char), npc=t(d + "npc", locale) if char.npc else ""),
             t(d + "attributes", locale, attrs=attrs), t(d + "skills", locale, skills=skills),
             t(d + "weapons", locale, weapons=weapons or "—", armor=named(char.armor) if char.armor else "—"),
             t(d + "hp", locale, marked=char.hp_marked, max=char.hp_max, row=char.hp_row)]
    lines.append(gender_line(char, locale))
    if char.fatigue:                  # the rules' conditions (rules/karmic fatigue, wounds)
        lines.append(t("karmic.condition.fatigue", locale, n=char.fatigue))
    if char.bleeding:
        lines.append(t("karmic.condition.bleeding", locale))
    if char.distinctions:
        lines.append(t(d + "distinctions", locale,
                       items=", ".join(f"{named(x)} ({x.karma_value:+d})" for x in char.distinctions)))
    summary = deck_summary(char)
    if summary.get("world_deck"):
        lines.append(t(d + "world_deck", locale))
    else:
        lines.append(t(d + "deck", locale, deck=summary["deck"], discards=summary["discards"],
                       sideboard=summary["sideboard"]))
    return "\n".join(lines)


def gender_line(char: Character, locale=None) -> str:
    """What Italian and Spanish text agrees with, so a GM whose "Lucia è colto" reads wrong sees why."""
    d = "karmic.sheet."
    word = {"f": t(d + "feminine", locale), "m": t(d + "masculine", locale)}
    said = {lang: char.gender.get(lang) for lang in ("it", "es")}
    if not any(said.values()):
        return t(d + "gender_unset", locale)
    it, es = (word[g or "m"] for g in said.values())
    return t(d + "gender", locale, gender=it if it == es else t(d + "gender_in", locale, it=it, es=es))


def deck_lines(stored: str, char: Character, locale=None) -> list[str]:
    """A karma deck as `/karmic deck` gives it to its owner: the counts, the discards, the sideboard."""
    s = deck_summary(char)
    say = Presenter(locale, NAME)
    return [t("karmic.deck.header", locale, name=stored, deck=s["deck"], discards=s["discards"],
              sideboard=s["sideboard"], since=s["since_shuffle"]),
            t("karmic.deck.discards", locale, cards=card_words(say, s["discard_cards"]) or "—"),
            t("karmic.deck.sideboard", locale, cards=card_words(say, s["sideboard_cards"]) or "—")]


async def campaign_page(store, game, viewer: str, say: Presenter) -> str | None:
    """The campaign page of a Karmic game (web/campaign.py): the stored sheet and karma deck of each
    character of the game that is the viewer's, as `/karmic character show` and `/karmic deck` give
    them to their owner; for the GM, the GM sheets (NPCs) of the game. Another's sheet stays theirs."""
    owner = GM_OWNER if viewer == GM else int(viewer) if viewer.isdigit() else None
    if owner is None:
        return None
    loc = say.language
    parts = []
    for stored_owner, stored in (game.meta.get(SHEETS) or {}).values():
        if int(stored_owner) != owner:
            continue
        data = await store.character(game.guild_id, owner, NAME, stored)
        if data is None:
            continue                  # deleted since
        char = Character.from_dict(data["character"])
        lines = [sheet_text(char, loc)]
        if not deck_summary(char).get("world_deck"):
            lines += deck_lines(stored, char, loc)
            if game.active:
                lines.append(t("karmic.deck.in_game", loc, id=game.id, channel=f"<#{game.channel_id}>"))
        parts.append("\n".join(lines))
    return "\n\n".join(parts) or None


class KarmicSheets(BautaCog):
    # ---------------------------------------------------------------- helpers
    async def _pack(self, guild_id: int, name: str | None) -> dict:
        if not name:
            return sample_pack()
        text = await self.store.pack(guild_id, NAME, name)
        if text is None:
            raise refused("no_pack", name=echo(name))
        return await untrusted.parse(load_pack_text, text, name, source=name)   # seconds for a big pack

    async def _record(self, guild_id: int, owner: int, name: str | None, locale=None) -> tuple[str, dict] | None:
        """(stored name, data) of a character of `owner`: by name, or the only one when name is None."""
        if name:
            found = [(n, d) for o, n, d in await self.store.characters(guild_id, NAME, owner)
                     if matches(name, n, (d.get("character") or {}).get("names")) and not n.startswith("~")]
            return found[0] if found else None
        mine = [(n, d) for o, n, d in await self.store.characters(guild_id, NAME, owner) if not n.startswith("~")]
        if len(mine) == 1:
            return mine[0]
        if len(mine) > 1:
            raise refused("which_character", names=", ".join(n for n, _ in mine))
        return None

    async def _games_of(self, guild_id: int, refs: list[tuple[int, str]]) -> list[tuple[Any, str]]:
        """(running game, name) for each of these characters that is in a running game."""
        wanted = {(o, n.lower()) for o, n in refs}
        found = []
        for game in await self.store.games(guild_id, status="active"):
            if game.system != NAME:
                continue
            for owner, name in (game.meta.get(SHEETS) or {}).values():
                if (int(owner), name.lower()) in wanted:
                    found.append((game, name))
        return found

    async def _busy(self, guild_id: int, refs: list[tuple[int, str]]) -> None:
        """Refuse a character already in a running game (its deck lives in that game until it ends)."""
        for game, name in await self._games_of(guild_id, refs):
            raise refused("character_busy", name=name, id=game.id, channel=f"<#{game.channel_id}>")

    async def _player_character(self, interaction, member, name: str | None, pack: dict, new: dict,
                                locale=None) -> tuple[dict, tuple[int, str]]:
        """The character spec for a member: a stored sheet, or a pack character copied to a new sheet.
        A new sheet goes into `new` ((owner, name) -> record), stored by `_save_new` only once the
        game has started: a refused command stores nothing."""
        guild = interaction.guild_id
        found = await self._record(guild, member.id, name, locale)
        if found is None:
            entry = None
            if name:
                entry = next((c for c in pack.get("characters", []) if entry_matches(name, c)), None)
            if entry is None:
                raise refused("no_character", player=str(member.id), names=entries_said(pack.get("characters", [])))
            sheet = {k: v for k, v in entry.items() if k not in ("sample", "description")}
            with speaking():
                char = character_from_sheet(sheet, pack, str(member.id), Rng.from_seed(secrets.randbits(63)))
            found = (char.name, {"sheet": sheet, "character": char.to_dict()})
            new[(member.id, char.name)] = found[1]
        stored, data = found
        return {"character": data["character"], "player": str(member.id)}, (member.id, stored)

    async def _save_new(self, guild_id: int, new: dict) -> None:
        for (owner, name), record in new.items():
            await self.store.save_character(guild_id, owner, NAME, name, record)

    async def _npc(self, guild_id: int, name: str, pack: dict, taken: dict[str, int]) -> tuple[dict, Any]:
        """An NPC: a GM sheet (owner 0, written back) or a pack NPC (not stored)."""
        base = name.lower()
        n = taken.get(base, 0) + 1
        taken[base] = n
        record = await self._record(guild_id, GM_OWNER, name)
        if record is not None:
            stored, data = record
            if n > 1:
                raise refused("gm_sheet_twice", name=stored)
            return {"character": data["character"], "player": GM}, (GM_OWNER, stored)
        for group in ("npcs", "characters"):
            for entry in pack.get(group, []):
                if entry_matches(base, entry):
                    sheet = dict(entry)
                    if n > 1:               # the second Soldier is "Soldier 2" in every language
                        sheet["name"] = f"{entry['name']} {n}"
                        if entry.get("names"):
                            sheet["names"] = {lang: f"{text} {n}" for lang, text in entry["names"].items()}
                    return {"character": sheet, "player": GM}, None
        raise refused("no_npc", name=echo(name), names=entries_said(pack.get("npcs", [])))

    async def _gm_room_is_private(self, interaction: discord.Interaction, npcs: bool, bot_plays: bool) -> None:
        """NPC hands go to the GM channel: refuse when that channel is the table itself."""
        if not npcs or bot_plays:
            return
        settings = await self.store.settings(interaction.guild_id)
        if settings.gm_channel_id and settings.gm_channel_id == interaction.channel_id:
            raise refused("gm_room_is_table")

    async def _world(self, guild_id: int) -> dict | None:
        record = await self.store.character(guild_id, GM_OWNER, NAME, WORLD)
        return record.get("world") if record else None

    @staticmethod
    def _sheets_meta(refs: dict[str, tuple[int, str]], options: dict) -> dict:
        """The game's meta: which fighter key is which stored sheet, that the world deck goes back,
        and the grammatical gender of each character of the game's `options` whose sheet says it
        (`genders`: the framework's presenter reads the table's names with it, "Lucia è colta")."""
        specs = options.get("combatants") or [options.get("actor"), *options.get("helpers", []), options.get("opponent")]
        characters = [s["character"] for s in specs if s and isinstance(s.get("character"), dict)]
        return {SHEETS: {k: [o, n] for k, (o, n) in refs.items()}, USES_WORLD: True, GENDERS: genders_of(characters)}

    # ---------------------------------------------------------------- autocomplete
    async def _my_characters(self, interaction: discord.Interaction, current: str):
        names = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, interaction.user.id)
                 if not n.startswith("~")]
        names += [n for n in (entry_name(c, interaction.locale) for c in sample_names("characters")) if n not in names]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]

    async def _npc_names(self, interaction: discord.Interaction, current: str):
        names = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, GM_OWNER)
                 if not n.startswith("~")]
        names += [entry_name(e, interaction.locale) for e in sample_names("npcs")]
        head, _, last = current.rpartition(",")
        prefix = f"{head}, " if head else ""
        return [app_commands.Choice(name=(prefix + n)[:100], value=(prefix + n)[:100])
                for n in names if last.strip().lower() in n.lower()][:25]

    async def _locations(self, interaction: discord.Interaction, current: str):
        say = Presenter(interaction.locale, NAME)          # in the reader's language, the id as the value
        named = {k: say.text(f"terms.location.{k}") for k in LOCATION_NAMES}
        return [app_commands.Choice(name=n, value=k) for k, n in named.items()
                if current.lower() in n.lower() or current.lower() in k][:25]

    async def _difficulties(self, interaction: discord.Interaction, current: str):
        say = Presenter(interaction.locale, NAME)
        named = {k: say.text(f"terms.difficulty.{k}") for k in DIFFICULTY}
        return [app_commands.Choice(name=f"{n} ({DIFFICULTY[k]:+d})", value=k)
                for k, n in named.items() if current.lower() in n.lower() or current.lower() in k][:25]

    # ---------------------------------------------------------------- characters

    @character.command(name="import", description="Import a character sheet (YAML or JSON); re-import keeps the deck")
    @app_commands.describe(file="The .yaml or .json sheet", gm_sheet="GM: store it as a GM sheet (an NPC)",
                           fresh_deck="Start a new shuffled karma deck even if the character exists",
                           pack="A guild pack whose weapons/armor the sheet names (default: the sample pack)")
    @untrusted.uploads_cooldown()
    async def character_import(self, interaction: discord.Interaction, file: discord.Attachment,
                               gm_sheet: bool = False, fresh_deck: bool = False, pack: str | None = None):
        if gm_sheet:
            await self.host.require_gm(interaction)
        untrusted.check_size(file, MAX_SHEET_BYTES, interaction.locale)   # before downloading or deferring
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await untrusted.read_text(file, MAX_SHEET_BYTES, interaction.locale)
        owner = GM_OWNER if gm_sheet else interaction.user.id
        content = await self._pack(interaction.guild_id, pack)
        # Parsed, validated and built in a child process with a time limit (PackError names the field).
        with speaking():
            sheet, char = await untrusted.parse(import_sheet, text, content, "" if gm_sheet else str(owner),
                                                secrets.randbits(63), file.filename, source=file.filename,
                                                locale=interaction.locale)
        if char.name.startswith("~"):
            raise refused("reserved_name", file=shorten(file.filename, 60), error=PackError)
        cap = (await self.store.house_rules(interaction.guild_id, NAME)).get("distinction_cap")
        try:
            check_distinction_cap(char, None if cap in (None, "", "none") else int(cap))
        except IllegalAction as exc:
            where = Where(shorten(file.filename, 60), name=shorten(char.name, 30), field="distinctions")
            raise PackError.one("over_distinction_cap", where, **exc.params) from None
        old = await self._record(interaction.guild_id, owner, char.name)
        name = old[0] if old else char.name
        await self._busy(interaction.guild_id, [(owner, name)])
        if old and not fresh_deck:
            previous = Character.from_dict(old[1]["character"])
            if (char.deck is None) == (previous.deck is None):
                char.deck = previous.deck                 # the karma deck keeps its state
            for kept in ("hp_marked", "fatigue", "bleeding"):     # what play marked, unless the sheet says
                if kept not in sheet:
                    setattr(char, kept, getattr(previous, kept))
            char.aim_row, char.saved_checks = previous.aim_row, previous.saved_checks
            char.training, char.reload = previous.training, previous.reload
        await self.store.save_character(interaction.guild_id, owner, NAME, name,
                                        {"sheet": sheet, "character": char.to_dict()})
        key = "karmic.imported_gm" if gm_sheet else ("karmic.reimported" if old else "karmic.imported")
        # "✅ Lucia è tua": the reply agrees with the gender the sheet says
        say = Presenter(interaction.locale, NAME, genders=genders_of([char.to_dict()]))
        await interaction.followup.send(t(key, interaction.locale, name=say.agreeing(name)) + "\n" +
                                        self._sheet_text(char, interaction.locale), ephemeral=True)

    _sheet_text = staticmethod(sheet_text)

    @character.command(name="show", description="Show one of your characters (privately)")
    @app_commands.describe(name="The character (default: your only one)", gm_sheet="GM: show a GM sheet (an NPC)")
    @app_commands.autocomplete(name=_my_characters)
    async def character_show(self, interaction: discord.Interaction, name: str | None = None,
                             gm_sheet: bool = False):
        if gm_sheet:
            await self.host.require_gm(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        owner = GM_OWNER if gm_sheet else interaction.user.id
        found = await self._record(interaction.guild_id, owner, name, interaction.locale)
        if found is None:
            raise refused("no_such_character", name=echo(name or "—"))
        await interaction.followup.send(self._sheet_text(Character.from_dict(found[1]["character"]),
                                                         interaction.locale), ephemeral=True)

    @character.command(name="list", description="Your Karmic characters on this server (GMs also see GM sheets)")
    async def character_list(self, interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, interaction.user.id)
                if not n.startswith("~")]
        lines = [t("karmic.list_mine", interaction.locale, names=", ".join(mine) or "—")]
        if await self.host.is_gm(interaction):
            gm = [n for _, n, _ in await self.store.characters(interaction.guild_id, NAME, GM_OWNER)
                  if not n.startswith("~")]
            lines.append(t("karmic.list_gm", interaction.locale, names=", ".join(gm) or "—"))
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    @character.command(name="delete", description="Delete one of your characters (and its deck)")
    @app_commands.describe(name="The character", gm_sheet="GM: delete a GM sheet")
    @app_commands.autocomplete(name=_my_characters)
    async def character_delete(self, interaction: discord.Interaction, name: str, gm_sheet: bool = False):
        if gm_sheet:
            await self.host.require_gm(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        owner = GM_OWNER if gm_sheet else interaction.user.id
        record = await self.store.character(interaction.guild_id, owner, NAME, name)     # its gender, for the reply
        if name.startswith("~") or not await self.store.delete_character(interaction.guild_id, owner, NAME, name):
            raise refused("no_such_character", name=echo(name))
        say = Presenter(interaction.locale, NAME, genders=genders_of([{**(record or {}).get("character", {}), "name": name}]))
        await interaction.followup.send(t("karmic.deleted", interaction.locale, name=say.agreeing(name)), ephemeral=True)

    # ---------------------------------------------------------------- deck
    @karmic.command(name="deck", description="Your karma deck: cards left, discards, sideboard (privately)")
    @app_commands.describe(name="The character (default: your only one)")
    @app_commands.autocomplete(name=_my_characters)
    async def deck(self, interaction: discord.Interaction, name: str | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._record(interaction.guild_id, interaction.user.id, name, interaction.locale)
        if found is None:
            raise refused("no_such_character", name=echo(name or "—"))
        stored, data = found
        char = Character.from_dict(data["character"])
        s = deck_summary(char)
        if s.get("world_deck"):
            await interaction.followup.send(t("karmic.sheet.world_deck", interaction.locale), ephemeral=True)
            return
        lines = deck_lines(stored, char, interaction.locale)
        view = None
        playing = await self._games_of(interaction.guild_id, [(interaction.user.id, stored)])
        if playing:
            game = playing[0][0]
            lines.append(t("karmic.deck.in_game", interaction.locale, id=game.id, channel=f"<#{game.channel_id}>"))
        elif s["reshuffle_offered"]:
            lines.append(t("karmic.deck.offer", interaction.locale))
            view = deck_offer_view(interaction.user.id, stored, interaction.locale)
        else:
            lines.append(t("karmic.deck.no_offer", interaction.locale))
        kwargs = {"view": view} if view is not None else {}
        await interaction.followup.send(chunks(lines)[0], ephemeral=True, **kwargs)

    async def answer_deck_offer(self, interaction, owner: int, name: str, accept: bool) -> str:
        if interaction.user.id != owner:
            raise refused("deck_not_yours", error=IllegalAction)
        found = await self._record(interaction.guild_id, owner, name)
        if found is None:
            raise refused("no_such_character", name=echo(name))
        stored, data = found
        await self._busy(interaction.guild_id, [(owner, stored)])
        char = Character.from_dict(data["character"])
        if char.deck is None or not char.deck.offer:
            raise refused("no_reshuffle_window", error=IllegalAction)
        if accept:
            char.deck.reshuffle(Rng.from_seed(secrets.randbits(63)))
        else:
            char.deck.decline()
        data["character"] = char.to_dict()
        await self.store.save_character(interaction.guild_id, owner, NAME, stored, data)
        return t("karmic.deck.reshuffled" if accept else "karmic.deck.declined", interaction.locale, name=stored)

    # ---------------------------------------------------------------- checks
