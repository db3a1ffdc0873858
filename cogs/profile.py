"""/profile: what a member tells Bauta about themselves, once for every server: their time zone,
the hours nobody may ping them, an absence (their deadlines stop, or the bot stands in for them),
the games whose public pings they mute, and the language of their DMs and private replies.

Works in servers, in the DM with the bot and as a user app. Every answer is private and in the
member's chosen language (else their client's). Changing the hours or the absence moves the clocks
of the decisions awaited from them at once (`TurnClock.person_changed`), so every deadline shown is true."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import discord
from discord import app_commands

from clock import hours, source
from clock.hours import ALL, Person
from db.store import Store
from i18n import t

from cogs.gm import LANGUAGES
from cogs.host import BautaCog, echo, reply, systems

# Installable by a member as well as by a server; usable in servers, the DM with the bot and other DMs.
INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)

AWAY_DAYS = 90                   # the longest absence
MUTED_MAX = 100                  # games muted one by one (past it: mute them all)
CLIENT_DEFAULT = "default"
BACK = frozenset({"back", "off", "none", "no", "-", "rientro", "rientrato", "rientrata", "tornato", "tornata",
                  "fine", "vuelta", "volví", "volvi", "fin"})
ALL_WORDS = frozenset({ALL, "tutti", "tutte", "todos", "todas"})
UNITS = {"h": timedelta(hours=1), "o": timedelta(hours=1), "d": timedelta(days=1), "g": timedelta(days=1),
         "w": timedelta(weeks=1), "s": timedelta(weeks=1)}
DURATION = re.compile(r"(?:\s*\d{1,4}\s*[hodgws]\s*)+")
DURATION_PART = re.compile(r"(\d{1,4})\s*([hodgws])")
DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t](\d{1,2})[:.h](\d{2}))?")
# offered while nothing is typed yet (the whole list starts with Africa/Abidjan)
POPULAR = ("UTC", "Europe/London", "Europe/Rome", "Europe/Madrid", "Europe/Paris", "Europe/Berlin", "Europe/Lisbon",
           "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Mexico_City",
           "America/Bogota", "America/Lima", "America/Santiago", "America/Argentina/Buenos_Aires", "America/Sao_Paulo",
           "Atlantic/Canary", "Asia/Tokyo", "Asia/Kolkata", "Asia/Shanghai", "Australia/Sydney", "Pacific/Auckland")


# ---------------------------------------------------------------------------- shared with /turns
def locale_of(person: Person, interaction: discord.Interaction) -> Any:
    """The language a member reads in private: the one they chose, else their client's."""
    return person.language or interaction.locale


def stamp(at: datetime) -> str:
    """An instant as Discord shows it in each reader's own zone: full date, then how far away."""
    epoch = int(at.timestamp())
    return f"<t:{epoch}:f> (<t:{epoch}:R>)"


def bot_absent(interaction: discord.Interaction) -> bool:
    """A user-app command in a server Bauta is not installed in (it may answer, never post there)."""
    if interaction.guild_id is None:
        return False
    owners = getattr(interaction, "_integration_owners", None) or {}      # authorizing_integration_owners
    return bool(owners) and owners.get(0) != interaction.guild_id


def game_name(game, locale: Any, guild_name: str | None = None) -> str:
    """A game as a list names it: its title and number, and its server when known."""
    text = f"{systems.title(game.system, locale)} #{game.id}"
    return f"{text} · {guild_name}" if guild_name else text


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """A private refusal that changed nothing (marked so, like the host's own refusals)."""
    interaction.extras["bauta_refused"] = True
    await reply(interaction, text, ephemeral=True)


# ---------------------------------------------------------------------------- reading input
@cache
def _zone_index() -> dict[str, str]:
    return {z.lower(): z for z in hours.zones()}


def find_zone(text: str) -> str | None:
    """An IANA zone as typed ("europe/rome", "America/New York"), or None."""
    return _zone_index().get("_".join(text.strip().split()).lower())


def parse_until(text: str, person: Person, at: datetime) -> datetime | None:
    """A duration from `at` ("3d", "12h", "2w", "1d 12h") or a date with an optional time in the
    member's zone ("2026-12-24": that day's start; "2026-12-24 18:00"); None when it is neither."""
    text = text.strip().lower()
    if DURATION.fullmatch(text):
        return at + sum((int(n) * UNITS[u] for n, u in DURATION_PART.findall(text)), timedelta(0))
    found = DATE.fullmatch(text)
    if found is None:
        return None
    year, month, day, hour, minute = (int(v) if v else 0 for v in found.groups())
    try:
        return datetime(year, month, day, hour, minute, tzinfo=person.zone).astimezone(UTC)
    except ValueError:
        return None


# ---------------------------------------------------------------------------- autocompletes
async def zone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = "_".join(current.strip().split()).lower()[:64]
    if typed:
        found = [z for z in hours.zones() if typed in z.lower()]
        found.sort(key=lambda z: (not z.lower().rsplit("/", 1)[-1].startswith(typed), z))
    else:
        found = list(POPULAR)
    now = source.now()
    return [app_commands.Choice(name=f"{z} ({now.astimezone(hours.zone(z)):%H:%M})", value=z) for z in found[:25]]


async def until_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    person = await interaction.client.store.profile(interaction.user.id)
    locale = locale_of(person, interaction)
    typed = current.strip()[:40]
    choices = []
    at = parse_until(typed, person, source.now()) if typed else None
    if at is not None:
        shown = f"{typed} → {person.local(at):%Y-%m-%d %H:%M} ({person.timezone or 'UTC'})"
        choices.append(app_commands.Choice(name=shown[:100], value=typed))
    choices += [app_commands.Choice(name=t(f"profile.until.{v}", locale), value=v) for v in ("3d", "1w", "2w")]
    if person.away_until is not None:
        choices.append(app_commands.Choice(name=t("profile.until.back", locale), value="back"))
    return choices[:25]


async def my_games(interaction: discord.Interaction, person: Person) -> list:
    """The games this member sits in that Bauta can name: every game waiting on them (any server),
    the active games of this server, and those they muted."""
    store: Store = interaction.client.store
    ids = [row.game_id for row in await store.awaiting_for(interaction.user.id)]
    if interaction.guild_id is not None:
        ids += [g.id for g in await store.games(interaction.guild_id, "active") if str(interaction.user.id) in g.seats]
    ids += [int(m) for m in sorted(person.muted) if m.isascii() and m.isdigit() and len(m) < 19]
    games = []
    for game_id in dict.fromkeys(ids):
        game = await store.game(game_id)
        if game is not None and (str(interaction.user.id) in game.seats or str(game.id) in person.muted):
            games.append(game)
    return games


async def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    person = await interaction.client.store.profile(interaction.user.id)
    locale = locale_of(person, interaction)
    typed = current.strip().lower()[:100]
    choices = [app_commands.Choice(name=t("profile.all_games_choice", locale), value=ALL)]
    for game in await my_games(interaction, person):
        guild = interaction.client.get_guild(game.guild_id)
        name = game_name(game, locale, getattr(guild, "name", None))
        if typed in name.lower():
            choices.append(app_commands.Choice(name=" ".join(name.split())[:100], value=str(game.id)))
    return choices[:25]


# ---------------------------------------------------------------------------- the commands
class ProfileCog(BautaCog):
    profile = app_commands.Group(name="profile", description="You, across servers: time zone, quiet hours, "
                                 "absence, pings, language", allowed_installs=INSTALLS, allowed_contexts=CONTEXTS)

    async def _save(self, person: Person) -> Person:
        """Store a profile; this process reads it afresh at once (others within PEOPLE_TTL)."""
        saved = await self.store.save_profile(person)
        self.bot.host.clock.forget(person.user_id)
        return saved

    async def _me(self, interaction: discord.Interaction) -> tuple[Person, Any]:
        person = await self.store.profile(interaction.user.id)
        return person, locale_of(person, interaction)

    def _zone_hint(self, person: Person, locale: Any) -> list[str]:
        return [] if person.timezone else [t("profile.no_zone", locale)]

    async def _moved(self, before: Person, after: Person, locale: Any) -> list[str]:
        moved = await self.bot.host.clock.person_changed(before, after)
        return [t("profile.moved", locale, n=moved)] if moved else []

    @profile.command(name="timezone", description="Your time zone: quiet hours and dates you type are read in it")
    @app_commands.describe(zone="Your IANA time zone, like Europe/Rome or America/New_York")
    @app_commands.autocomplete(zone=zone_choices)
    async def timezone(self, interaction: discord.Interaction, zone: app_commands.Range[str, 1, 64]):
        person, locale = await self._me(interaction)
        found = find_zone(zone)
        if found is None:
            await refuse(interaction, t("profile.zone_unknown", locale, zone=echo(zone, 64)))
            return
        after = await self._save(replace(person, timezone=found))
        lines = [t("profile.zone_set", locale, zone=found, time=f"{after.local(source.now()):%H:%M}")]
        await reply(interaction, "\n".join(lines + await self._moved(person, after, locale)), ephemeral=True)

    @profile.command(name="quiet", description="Hours when nobody pings you (in your time zone), or off")
    @app_commands.describe(start="From this time of day, like 23:00", end="To this time of day, like 07:30",
                           off="True: no quiet hours any more")
    @app_commands.rename(start="from", end="to")
    async def quiet(self, interaction: discord.Interaction, start: app_commands.Range[str, 1, 10] | None = None,
                    end: app_commands.Range[str, 1, 10] | None = None, off: bool = False):
        person, locale = await self._me(interaction)
        if off:
            after = replace(person, quiet_from=None, quiet_to=None)
            lines = [t("profile.quiet_off", locale)]
        else:
            if start is None or end is None:
                await refuse(interaction, t("profile.quiet_usage", locale))
                return
            begins, ends = hours.parse_hhmm(start), hours.parse_hhmm(end)
            wrong = start if begins is None else end if ends is None else None
            if wrong is not None or begins is None or ends is None:
                await refuse(interaction, t("profile.bad_time", locale, value=echo(wrong or "", 10)))
                return
            if begins == ends:
                await refuse(interaction, t("profile.quiet_same", locale))
                return
            after = replace(person, quiet_from=begins, quiet_to=ends)
            lines = [t("profile.quiet_set", locale, start=hours.hhmm(begins), end=hours.hhmm(ends),
                       zone=person.timezone or "UTC")] + self._zone_hint(person, locale)
        await self._save(after)
        await reply(interaction, "\n".join(lines + await self._moved(person, after, locale)), ephemeral=True)

    @profile.command(name="away", description="Away until a date or for a while: your deadlines stop meanwhile")
    @app_commands.describe(until="2026-12-24, 2026-12-24 18:00 (your time zone), 3d, 12h, 2w; or back",
                           stand_in="True: your deadlines keep running and Bauta answers for you at each")
    @app_commands.autocomplete(until=until_choices)
    async def away(self, interaction: discord.Interaction, until: app_commands.Range[str, 1, 40],
                   stand_in: bool = False):
        person, locale = await self._me(interaction)
        now = source.now()
        if until.strip().lower() in BACK:
            if person.away_until is None:
                await refuse(interaction, t("profile.not_away", locale))
                return
            after = replace(person, away_until=None, away_stand_in=False)
            await self._save(after)
            lines = [t("profile.back", locale)]
            await reply(interaction, "\n".join(lines + await self._moved(person, after, locale)), ephemeral=True)
            return
        at = parse_until(until, person, now)
        if at is None:
            await refuse(interaction, t("profile.bad_until", locale, value=echo(until, 40)))
            return
        if at <= now:
            await refuse(interaction, t("profile.past", locale, at=stamp(at)))
            return
        if at - now > timedelta(days=AWAY_DAYS):
            await refuse(interaction, t("profile.too_far", locale, days=AWAY_DAYS,
                                        limit=stamp(now + timedelta(days=AWAY_DAYS))))
            return
        after = await self._save(replace(person, away_until=at, away_stand_in=stand_in))
        key = "profile.away_stand_in" if stand_in else "profile.away_set"
        lines = [t(key, locale, at=stamp(at))] + self._zone_hint(person, locale)
        await reply(interaction, "\n".join(lines + await self._moved(person, after, locale)), ephemeral=True)

    @profile.command(name="pings", description="Mute or unmute a game's public pings (private reminders stay)")
    @app_commands.describe(game="One of your games, or all of them", enabled="False: mute its public pings")
    @app_commands.autocomplete(game=game_choices)
    async def pings(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 24], enabled: bool):
        person, locale = await self._me(interaction)
        chosen = game.strip().lower().lstrip("#")
        if chosen in ALL_WORDS:
            muted = frozenset() if enabled else person.muted | {ALL}
            what = t("profile.all_games", locale)
        else:
            known = chosen.isascii() and chosen.isdigit() and len(chosen) < 19
            record = await self.store.game(int(chosen)) if known else None
            if record is None or (str(interaction.user.id) not in record.seats and chosen not in person.muted):
                await refuse(interaction, t("profile.unknown_game", locale, game=echo(game, 24)))
                return
            if not enabled and chosen not in person.muted and len(person.muted) >= MUTED_MAX:
                await refuse(interaction, t("profile.too_many_muted", locale, n=len(person.muted)))
                return
            muted = person.muted - {chosen} if enabled else person.muted | {chosen}
            guild = self.bot.get_guild(record.guild_id)
            what = f"**{echo(game_name(record, locale, getattr(guild, 'name', None)), 120)}**"
        await self._save(replace(person, muted=muted))
        lines = [t("profile.pings_on" if enabled else "profile.pings_off", locale, what=what)]
        if enabled and ALL in muted:
            lines.append(t("profile.still_all_muted", locale))
        await reply(interaction, "\n".join(lines), ephemeral=True)

    @profile.command(name="language", description="The language of your DMs and private replies, in every server")
    @app_commands.describe(language="English, Italiano, Español, or your Discord app's language")
    @app_commands.choices(language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
                          + [app_commands.Choice(name="your Discord language", value=CLIENT_DEFAULT)])
    async def language(self, interaction: discord.Interaction, language: str):
        person = await self.store.profile(interaction.user.id)
        chosen = language if language in LANGUAGES else None
        await self._save(replace(person, language=chosen))
        # in the language just chosen, so the member sees at once what their DMs will read
        if chosen:
            text = t("profile.language_set", chosen, language=LANGUAGES[chosen])
        else:
            text = t("profile.language_default", interaction.locale)
        await reply(interaction, text, ephemeral=True)

    @profile.command(name="forget", description="Erase your profile (your moves in games stay with each server)")
    @app_commands.describe(confirm="Type the word the command asks for, to confirm")
    async def forget(self, interaction: discord.Interaction, confirm: app_commands.Range[str, 1, 40]):
        person, locale = await self._me(interaction)
        words = {t("profile.forget_word", lang).lower() for lang in ("en", "it", "es")}
        if confirm.strip().lower() not in words:
            await refuse(interaction, t("profile.forget_confirm", locale, word=t("profile.forget_word", locale)))
            return
        erased = await self.store.forget_profile(interaction.user.id)
        self.bot.host.clock.forget(interaction.user.id)
        lines = [t("profile.forgotten" if erased else "profile.nothing_to_forget", interaction.locale)]
        await reply(interaction, "\n".join(lines + await self._moved(person, Person(person.user_id),
                                                                     interaction.locale)), ephemeral=True)

    @profile.command(name="show", description="Your profile: time zone, quiet hours, absence, muted pings, language")
    async def show(self, interaction: discord.Interaction):
        person, locale = await self._me(interaction)
        now = source.now()
        lines = [t("profile.show.header", locale)]
        if person.timezone:
            lines.append(t("profile.show.zone", locale, zone=person.timezone, time=f"{person.local(now):%H:%M}"))
        else:
            lines.append(t("profile.show.no_zone", locale))
        if person.has_quiet:
            assert person.quiet_from is not None and person.quiet_to is not None
            lines.append(t("profile.show.quiet", locale, start=hours.hhmm(person.quiet_from),
                           end=hours.hhmm(person.quiet_to)))
        else:
            lines.append(t("profile.show.no_quiet", locale))
        if person.away_at(now):
            assert person.away_until is not None
            key = "profile.show.away_stand_in" if person.away_stand_in else "profile.show.away"
            lines.append(t(key, locale, at=stamp(person.away_until)))
        else:
            lines.append(t("profile.show.not_away", locale))
        if ALL in person.muted:
            lines.append(t("profile.show.muted_all", locale))
        elif person.muted:
            names = []
            for game in await my_games(interaction, person):
                if str(game.id) in person.muted:
                    names.append(echo(game_name(game, locale, getattr(self.bot.get_guild(game.guild_id), "name", None)),
                                      120))
            lines.append(t("profile.show.muted", locale, games=", ".join(names) or "—"))
        else:
            lines.append(t("profile.show.no_muted", locale))
        if person.language:
            lines.append(t("profile.show.language", locale, language=LANGUAGES.get(person.language, person.language)))
        else:
            lines.append(t("profile.show.client_language", locale))
        await reply(interaction, "\n".join(lines), ephemeral=True)


async def setup(bot):
    await bot.add_cog(ProfileCog(bot))
