"""/profile through the fake world and a real store: every subcommand, its refusals, the clocks of
the decisions awaited from a member moving with their absence, and the language of the answers."""
from datetime import UTC, datetime, timedelta

import pytest

from clock import source
from clock.hours import ALL, Person
from cogs.profile import game_choices, parse_until, zone_choices
from tests.cogs.test_framework import start_duel
from tests.support.waiting import await_from, pending

START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock():
    with source.use(source.FakeClock(START)) as fake:
        yield fake


@pytest.fixture
def cog(bot):
    return bot.get_cog("ProfileCog")


def here(world, user=2, **kwargs):
    return world.interaction(world.users[user], world.channels[10], **kwargs)


def said(world, user=2) -> str:
    return world.ephemeral(world.users[user])[-1].content


async def test_the_commands_are_a_user_app_too(bot):
    for name in ("profile", "turns"):
        command = bot.tree.get_command(name)
        assert command.allowed_installs.guild and command.allowed_installs.user
        assert command.allowed_contexts.guild and command.allowed_contexts.dm_channel
        assert command.allowed_contexts.private_channel
    assert sorted(c.name for c in bot.tree.get_command("profile").commands) == [
        "away", "forget", "language", "pings", "quiet", "show", "timezone"]


async def test_timezone_is_autocompleted_set_and_an_unknown_one_refused(bot, world, cog, clock):
    choices = await zone_choices(here(world), "rome")
    assert [c.value for c in choices] == ["Europe/Rome"] and "13:00" in choices[0].name
    assert len(await zone_choices(here(world), "a")) == 25
    assert 0 < len(await zone_choices(here(world), "")) <= 25
    await cog.timezone.callback(cog, here(world), zone="europe/rome")
    assert "**Europe/Rome**" in said(world) and "13:00" in said(world)
    assert (await bot.store.profile(2)).timezone == "Europe/Rome"
    interaction = here(world)
    await cog.timezone.callback(cog, interaction, zone="Mars/@everyone")
    assert interaction.extras["bauta_refused"] and "Mars/@\u200beveryone" in said(world)
    assert (await bot.store.profile(2)).timezone == "Europe/Rome"


async def test_quiet_hours_name_the_zone_and_hint_at_one(bot, world, cog, clock):
    await cog.quiet.callback(cog, here(world), start="23", end="7:30")
    text = said(world)
    assert "23:00–07:30" in text and "(UTC)" in text and "/profile timezone" in text
    person = await bot.store.profile(2)
    assert (person.quiet_from, person.quiet_to) == (23 * 60, 7 * 60 + 30)
    await cog.timezone.callback(cog, here(world), zone="Europe/Madrid")
    await cog.quiet.callback(cog, here(world), start="22:00", end="08:00")
    assert "(Europe/Madrid)" in said(world) and "/profile timezone" not in said(world)
    for start, end in (("25:00", "07:00"), ("22:00", "7:99"), ("@everyone", "07:00")):
        interaction = here(world)
        await cog.quiet.callback(cog, interaction, start=start, end=end)
        assert interaction.extras["bauta_refused"] and "not a time of day" in said(world)
    await cog.quiet.callback(cog, here(world), start="22:00", end="22:00")
    assert "different times" in said(world)
    await cog.quiet.callback(cog, here(world), start="22:00")
    assert "`from` and `to`" in said(world)
    assert (await bot.store.profile(2)).quiet_from == 22 * 60
    await cog.quiet.callback(cog, here(world), off=True)
    assert not (await bot.store.profile(2)).has_quiet and "any hour" in said(world)


def test_until_reads_durations_and_dates_in_the_members_zone():
    rome = Person(2, "Europe/Rome")
    assert parse_until("3d", rome, START) == START + timedelta(days=3)
    assert parse_until("1d 12h", rome, START) == START + timedelta(hours=36)
    assert parse_until("2w", rome, START) == START + timedelta(weeks=2)
    assert parse_until("2026-01-24", rome, START) == datetime(2026, 1, 23, 23, 0, tzinfo=UTC)
    assert parse_until("2026-07-24 18:00", rome, START) == datetime(2026, 7, 24, 16, 0, tzinfo=UTC)
    for nonsense in ("tomorrow", "2026-02-30", "3 years", "", "99999d", "1e9h"):
        assert parse_until(nonsense, rome, START) is None


async def test_away_is_bounded_and_shown_as_discord_timestamps(bot, world, cog, clock):
    await cog.away.callback(cog, here(world), until="3d")
    back = START + timedelta(days=3)
    assert f"<t:{int(back.timestamp())}:f>" in said(world) and f"<t:{int(back.timestamp())}:R>" in said(world)
    assert (await bot.store.profile(2)).away_until == back
    for until, words in (("2025-12-24", "already passed"), ("91d", "At most 90 days"), ("soon", "neither a date")):
        interaction = here(world)
        await cog.away.callback(cog, interaction, until=until)
        assert interaction.extras["bauta_refused"] and words in said(world), until
    assert (await bot.store.profile(2)).away_until == back
    await cog.away.callback(cog, here(world), until="2026-01-20 18:00", stand_in=True)
    person = await bot.store.profile(2)
    assert person.away_stand_in and person.away_until == datetime(2026, 1, 20, 18, 0, tzinfo=UTC)
    assert "answers for you" in said(world)
    await cog.away.callback(cog, here(world), until="back")
    assert (await bot.store.profile(2)).away_until is None and "Welcome back" in said(world)
    interaction = here(world)
    await cog.away.callback(cog, interaction, until="off")
    assert interaction.extras["bauta_refused"] and "not away" in said(world)


async def test_an_absence_moves_the_deadlines_of_the_decisions_awaited_at_once(bot, world, cog, clock):
    game = await start_duel(world)
    prompt = pending(game)[0]
    row = await await_from(bot.store, game, prompt, period=timedelta(days=2))
    await cog.away.callback(cog, here(world), until="3d")
    assert "1 decision waiting for you now shows its new deadline" in said(world)
    [moved] = await bot.store.awaiting_for(2)
    assert moved.timer.deadline == row.timer.deadline + timedelta(days=3)
    assert moved.due_at == START + timedelta(days=4)          # the half-time reminder, after the return
    clock.advance(days=1)
    await cog.away.callback(cog, here(world), until="back")   # two days early: they are given back
    [back] = await bot.store.awaiting_for(2)
    assert back.timer.deadline == row.timer.deadline + timedelta(days=1)
    assert back.timer.start == START + timedelta(days=1)
    # with a stand-in the clock keeps running
    await cog.away.callback(cog, here(world), until="1w", stand_in=True)
    assert (await bot.store.awaiting_for(2))[0].timer == back.timer


async def test_shift_for_absence_gives_back_no_more_than_it_held(bot, world, clock):
    game = await start_duel(world)
    row = await await_from(bot.store, game, pending(game)[0], period=timedelta(hours=10))
    before = Person(2, away_until=START + timedelta(days=5))     # set elsewhere, the clock never held back
    assert await bot.host.clock.person_changed(before, Person(2)) == 0
    assert (await bot.store.awaiting_for(2))[0].timer == row.timer


async def test_quiet_hours_move_the_next_reminder_out_of_them(bot, world, cog, clock):
    game = await start_duel(world)
    await await_from(bot.store, game, pending(game)[0], period=timedelta(hours=8))   # half-time at 16:00 UTC
    await cog.quiet.callback(cog, here(world), start="15:00", end="18:00")
    assert (await bot.store.awaiting_for(2))[0].due_at == START.replace(hour=18)


async def test_pings_mute_one_game_or_all_and_private_reminders_stay(bot, world, cog, clock):
    game = await start_duel(world)
    choices = await game_choices(here(world), "")
    assert [c.value for c in choices] == [ALL, str(game.id)] and f"#{game.id}" in choices[1].name
    assert [c.value for c in await game_choices(here(world, user=4), "")] == [ALL]   # Carla sits in none
    await cog.pings.callback(cog, here(world), game=str(game.id), enabled=False)
    assert "Private reminders" in said(world) and f"#{game.id}" in said(world)
    person = await bot.store.profile(2)
    assert person.mutes(game.id) and not person.mutes(game.id + 1)
    await cog.pings.callback(cog, here(world), game="all", enabled=False)
    await cog.pings.callback(cog, here(world), game=str(game.id), enabled=True)
    assert "stay muted for all your games" in said(world)
    assert (await bot.store.profile(2)).muted == {ALL}
    await cog.pings.callback(cog, here(world), game="all", enabled=True)
    assert (await bot.store.profile(2)).muted == frozenset()
    for typed, user in (("999999", 2), (str(game.id), 4), ("²", 2), ("@everyone", 2)):
        interaction = here(world, user=user)
        await cog.pings.callback(cog, interaction, game=typed, enabled=False)
        assert interaction.extras["bauta_refused"] and "not one of your games" in said(world, user)
    assert (await bot.store.profile(4)).muted == frozenset()


async def test_language_switches_the_answers_and_default_follows_the_client(bot, world, cog, clock):
    await cog.language.callback(cog, here(world), language="it")
    assert said(world).startswith("D'ora in poi") and (await bot.store.profile(2)).language == "it"
    await cog.show.callback(cog, here(world))                  # the client speaks English
    assert "**Il tuo profilo**" in said(world) and "Italiano" in said(world)
    interaction = here(world)
    await cog.timezone.callback(cog, interaction, zone="Nowhere/Atlantis")
    assert "Non conosco il fuso orario" in said(world)
    await cog.language.callback(cog, here(world), language="es")
    await cog.away.callback(cog, here(world), until="2d")
    assert said(world).startswith("Ausente hasta <t:")
    await cog.language.callback(cog, here(world, locale="it"), language="default")
    assert (await bot.store.profile(2)).language is None and "lingua di Discord" in said(world)
    await cog.show.callback(cog, here(world))
    assert "**Your profile**" in said(world)


async def test_forget_asks_for_its_word_then_erases_the_profile_only(bot, world, cog, clock):
    game = await start_duel(world)
    await cog.timezone.callback(cog, here(world), zone="Europe/Rome")
    await cog.away.callback(cog, here(world), until="3d")
    interaction = here(world)
    await cog.forget.callback(cog, interaction, confirm="yes")
    assert interaction.extras["bauta_refused"] and "`confirm` set to: forget" in said(world)
    assert (await bot.store.profile(2)).timezone == "Europe/Rome"
    await cog.forget.callback(cog, here(world, locale="it"), confirm="Dimentica")
    text = said(world)
    assert "profilo è cancellato" in text and "/gm dimentica" in text
    assert await bot.store.profile(2) == Person(2)
    assert (await bot.store.game(game.id)).active            # the game and its history stay
    await cog.forget.callback(cog, here(world), confirm="forget")
    assert "nothing to erase" in said(world)


async def test_show_says_everything_in_one_private_message(bot, world, cog, clock):
    game = await start_duel(world)
    await cog.show.callback(cog, here(world))
    text = said(world)
    assert "UTC is assumed" in text and "Quiet hours: none" in text and "Away: no" in text and "on for every game" in text
    await cog.timezone.callback(cog, here(world), zone="America/New_York")
    await cog.quiet.callback(cog, here(world), start="22:00", end="06:00")
    await cog.away.callback(cog, here(world), until="1w")
    await cog.pings.callback(cog, here(world), game=str(game.id), enabled=False)
    await cog.language.callback(cog, here(world), language="en")
    world.sent.clear()
    await cog.show.callback(cog, here(world))
    [message] = world.sent
    assert message.ephemeral and world.public() == []
    for words in ("America/New_York (now 07:00)", "22:00–06:00", f"<t:{int((START + timedelta(weeks=1)).timestamp())}:f>",
                  f"#{game.id}", "English"):
        assert words in message.content


async def test_profile_works_in_the_dm_with_the_bot(bot, world, cog, clock):
    dm = world.interaction(world.users[3], in_dm=True)
    await cog.timezone.callback(cog, dm, zone="Asia/Tokyo")
    await cog.show.callback(cog, world.interaction(world.users[3], in_dm=True))
    assert "Asia/Tokyo (now 21:00)" in said(world, 3)
    assert [c.value for c in await game_choices(world.interaction(world.users[3], in_dm=True), "")] == [ALL]

