"""The turn clock through the cogs: a deadline on each decision, shown on its prompt; a private
reminder at half-time and a public ping before the deadline, never two of either; what the table
does at the deadline; quiet hours, absences, pauses and restarts. Time is a FakeClock, moved."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from clock.hours import Person
from cogs.host import botplayer
from cogs.host.errors import NotGM
from cogs.host.scheduler import Scheduler
from rules.klash import ENGINE as KLASH
from tests.cogs.conftest import BOT
from tests.cogs.test_klash import answer, start_draft, state_of

TABLE = "channel:10"
START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)      # the FakeClock's start (a Monday)


def stamp(at: datetime) -> int:
    return int(at.timestamp())


async def gm_deadline(bot, world, minutes=0, hours=0):
    gm = bot.get_cog("GMCog")
    await gm.deadline.callback(gm, world.interaction(world.users[1], world.channels[10]), hours=hours, minutes=minutes)


async def idle_bot(bot, world, level):
    gm = bot.get_cog("GMCog")
    await gm.idle_bot.callback(gm, world.interaction(world.users[1], world.channels[10]), level=level)


async def at(bot, clock, seconds=0, **later):
    """Move the clock to START + the time given and run one tick of the scheduler."""
    clock.set(START + timedelta(seconds=seconds, **later))
    return await bot.host.scheduler.tick()


def pinged(world, since: int = 0) -> list[tuple[str, set[str]]]:
    """Who each message sent since `since` notified (DMs notify their reader unless silent)."""
    out = []
    for message in world.sent[since:]:
        who = message.pings() if message.public else (
            set() if message.silent or not message.where.startswith("dm:") else {message.where[3:]})
        if who:
            out.append((message.where, who))
    return out


async def test_a_one_minute_deadline_on_the_prompt_a_reminder_at_half_time_a_ping_before_it_and_no_more(
        fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, minutes=1)
    assert world.last().content.startswith("Every decision in this server's games now has 1 minute to be answered")
    game = await start_draft(bot, world, seed)
    deadline = stamp(START + timedelta(minutes=1))
    # the prompt on the table says by when, as a Discord timestamp with the absolute time beside it
    assert world.table().content.endswith(f"\n⏳ Answer <t:{deadline}:R> (<t:{deadline}:f>).")
    [row] = await bot.store.awaiting_of(game.id)
    assert (row.user_id, row.timer.deadline, row.due_at) == (2, START + timedelta(minutes=1), START + timedelta(seconds=30))
    sent = len(world.sent)
    assert (await at(bot, fake_clock, 29)).reminded == 0 and len(world.sent) == sent
    done = await at(bot, fake_clock, 30)
    assert (done.reminded, done.pinged) == (1, 0)
    dm = world.last("dm:2").content
    assert dm.startswith("⏳ Half of your time is gone:\n• **Klash! Sangue & Sabbia** #1 in <#10> — your decision")
    assert f"⏳ <t:{deadline}:R> (<t:{deadline}:f>) · https://discord.com/channels/1/10/" in dm
    assert (await at(bot, fake_clock, 31)).reminded == 0 and len(world.sent) == sent + 1     # never twice
    done = await at(bot, fake_clock, 54)            # 10% of the period before the deadline
    assert (done.reminded, done.pinged) == (0, 1)
    ping = world.last(TABLE)
    assert ping.content.startswith(f"⏰ <@2>: **Klash! Sangue & Sabbia** game #1 is waiting for you, deadline <t:{deadline}:R>")
    assert ping.pings() == {"2"}                    # Alice, and nobody else
    done = await at(bot, fake_clock, 60)            # remind only (the default): nothing more happens
    assert (done.expired, done.answered) == (1, 0) and len(world.sent) == sent + 2
    assert (await bot.store.game(game.id)).version == game.version
    for later in (61, 3600, 86_400):
        await at(bot, fake_clock, later)
    assert len(world.sent) == sent + 2              # two reminders for the decision, in all
    assert await bot.store.next_due() is None


async def test_an_answer_stops_its_reminders_and_the_next_decision_gets_its_own_clock(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=2)
    game = await start_draft(bot, world, seed)
    fake_clock.set(START + timedelta(minutes=50))
    record, state = await state_of(bot, game.id)
    [prompt] = KLASH.pending(state)
    await answer(world, game.id, prompt, [prompt.options[0].id])
    rows = await bot.store.awaiting_of(game.id)
    assert [(r.user_id, r.timer.start, r.timer.deadline) for r in rows] == [
        (3, START + timedelta(minutes=50), START + timedelta(hours=2, minutes=50))]
    sent = len(world.sent)
    assert (await at(bot, fake_clock, hours=1)).reminded == 0        # Alice answered: nothing for her
    done = await at(bot, fake_clock, hours=1, minutes=50)            # Bruno's half-time
    assert done.reminded == 1 and [m.where for m in world.sent[sent:]] == ["dm:3"]


async def test_at_the_deadline_the_bot_answers_where_the_server_asked_and_the_player_takes_it_back(
        fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=4)
    await idle_bot(bot, world, "easy")
    assert world.last().content == ("When a decision's deadline (4 hours) passes, Bauta answers for the player (level easy) "
                                    "and says so in the channel; `/game undo` takes it back.")
    game = await start_draft(bot, world, seed)
    _, state = await state_of(bot, game.id)
    assert KLASH.picker(state) == "2"
    assert (await at(bot, fake_clock, hours=2)).reminded == 1
    assert (await at(bot, fake_clock, hours=3, minutes=36)).pinged == 1
    assert (await bot.store.game(game.id)).version == game.version
    done = await at(bot, fake_clock, hours=4)
    assert (done.expired, done.answered) == (1, 1)      # her single pick of round 1
    record, after = await state_of(bot, game.id)
    log = [a for a in await bot.store.actions(game.id, limit=50) if a.seq > game.version]
    assert log and all(a.actor == str(BOT) for a in log) and record.version == game.version + len(log)
    assert after.picks["2"] and KLASH.picker(after) == "3"          # then it waits on Bruno
    first = botplayer.think(botplayer.players("klash"), state, "2", "easy", f"idle{game.id}", 60.0)
    assert log[0].action == KLASH.dump_action(first)
    said = next(m for m in reversed(world.public()) if m.content.startswith("⌛"))
    name = after.cards[after.picks["2"][0]]["name"].replace("SAMPLE ", "")
    assert said.content.startswith("⌛ <@2> let the deadline pass, so Bauta answered for them: ")
    assert name in said.content and said.content.endswith("<@2> or a GM can take it back with `/game undo`.")
    assert said.pings() == set()                    # named, not woken
    assert record.meta[botplayer.STAND_IN] == {"seats": ["2"], "first": game.version + 1}
    cog = bot.get_cog("GameCog")
    with pytest.raises(NotGM):                      # Bruno may not take it back; Alice may
        await cog.undo.callback(cog, world.interaction(world.users[3], world.channels[10]))
    await cog.undo.callback(cog, world.interaction(world.users[2], world.channels[10]))
    back = await bot.store.game(game.id)
    assert back.state == game.state and botplayer.STAND_IN not in back.meta
    # the decision is asked again, with a fresh clock from now
    [row] = await bot.store.awaiting_of(game.id)
    assert (row.user_id, row.timer.deadline) == (2, START + timedelta(hours=8))


async def test_quiet_hours_hold_every_ping_and_the_table_names_without_waking(fake_clock, bot, world, seed, bauta):
    # Alice lives in Rome (UTC+1 in January) and sleeps from 12:30 to 14:00 there (11:30–13:00 UTC)
    fake_clock.set(START - timedelta(minutes=20))                     # 11:40 UTC: inside them
    await bot.store.save_profile(Person(2, "Europe/Rome", 12 * 60 + 30, 14 * 60))
    await gm_deadline(bot, world, minutes=30)
    sent = len(world.sent)
    await start_draft(bot, world, seed)
    assert "2" not in {who for _, pings in pinged(world, sent) for who in pings}     # her turn, told, not pinged
    assert "<@2>" in world.table().content
    sent = len(world.sent)
    # half-time (11:55), the ping (12:07), the deadline (12:10) all fall in her quiet hours
    for minutes in (-5, 7, 10, 30, 59):
        await at(bot, fake_clock, minutes=minutes)
    assert world.sent[sent:] == []
    done = await at(bot, fake_clock, hours=1)                          # 13:00 UTC: 14:00 in Rome
    assert (done.reminded, done.pinged) == (0, 1)                    # the later reminder alone
    assert pinged(world, sent) == [(TABLE, {"2"})]
    await at(bot, fake_clock, hours=5)
    assert len(world.sent) == sent + 1


async def test_an_absence_stops_the_clock_until_the_return_and_the_table_says_so(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=1)
    game = await start_draft(bot, world, seed)
    back = START + timedelta(days=2)
    moved = await bot.host.clock.person_changed(Person(2), await bot.store.save_profile(Person(2, away_until=back)))
    assert moved == 1
    [row] = await bot.store.awaiting_of(game.id)
    assert (row.timer.start, row.timer.deadline, row.due_at) == (back, back + timedelta(hours=1),
                                                                  back + timedelta(minutes=30))
    await bot.host.refresh(await bot.store.game(game.id))
    table = world.table().content
    assert f"💤 <@2> is away until <t:{stamp(back)}:f>." in table
    assert f"⏳ Answer <t:{stamp(back + timedelta(hours=1))}:R>" in table
    sent = len(world.sent)
    await at(bot, fake_clock, hours=12)
    await at(bot, fake_clock, days=1)
    assert world.sent[sent:] == []
    assert (await at(bot, fake_clock, days=2, minutes=30)).reminded == 1


async def test_a_pause_stops_every_clock_and_the_resume_gives_back_the_time_left(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=1)
    game = await start_draft(bot, world, seed)
    cog = bot.get_cog("GameCog")
    fake_clock.set(START + timedelta(minutes=20))
    await cog.pause.callback(cog, world.interaction(world.users[1], world.channels[10]))
    assert "⏸ <@1> paused game #1: its clocks are stopped until `/game resume`." in world.public_text()
    assert "⏸ The clock is stopped: the game is paused." in world.table().content
    sent = len(world.sent)
    for hours in (1, 5, 24):
        await at(bot, fake_clock, hours=hours)
    assert world.sent[sent:] == [] and await bot.store.next_due() is None
    await cog.resume.callback(cog, world.interaction(world.users[1], world.channels[10]))
    [row] = await bot.store.awaiting_of(game.id)
    # 20 minutes ran before the pause, 40 are left from the resume (24 h in)
    assert row.timer.deadline == START + timedelta(hours=24, minutes=40)
    assert f"⏳ Answer <t:{stamp(row.timer.deadline)}:R>" in world.table().content


async def test_players_pause_when_all_of_them_asked(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=1)
    game = await start_draft(bot, world, seed)
    cog = bot.get_cog("GameCog")
    await cog.pause.callback(cog, world.interaction(world.users[2], world.channels[10]))
    assert world.last(TABLE).content == "<@2> asks to stop the game's clocks. Still to agree: <@3>."
    assert world.last(TABLE).pings() == set()
    assert (await bot.store.game(game.id)).meta["clock"].get("paused_at") is None
    await cog.pause.callback(cog, world.interaction(world.users[4], world.channels[10]))
    assert world.ephemeral(world.users[4])[-1].content == (
        "Only the players of this game or a GM can pause or resume its clocks.")
    await cog.pause.callback(cog, world.interaction(world.users[3], world.channels[10]))
    assert (await bot.store.game(game.id)).meta["clock"]["paused_at"] == "2026-01-05T12:00:00+00:00"


async def test_a_games_own_deadline_applies_to_its_pending_decisions(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=1)
    game = await start_draft(bot, world, seed)
    cog = bot.get_cog("GameCog")
    await cog.deadline.callback(cog, world.interaction(world.users[1], world.channels[10]), hours=48)
    [row] = await bot.store.awaiting_of(game.id)
    assert row.timer.deadline == START + timedelta(hours=48)
    assert "⏳ <@1> set game #1's deadline: 48 hours." in world.public_text()
    await cog.deadline.callback(cog, world.interaction(world.users[2], world.channels[10]))
    assert world.ephemeral(world.users[2])[-1].content == "This game gives 48 hours for each decision."
    with pytest.raises(NotGM):
        await cog.deadline.callback(cog, world.interaction(world.users[2], world.channels[10]), hours=1)
    await cog.deadline.callback(cog, world.interaction(world.users[1], world.channels[10]), server=True)
    [row] = await bot.store.awaiting_of(game.id)
    assert row.timer.deadline == START + timedelta(hours=1)


async def test_a_reminder_due_during_a_crash_is_sent_once_after_it(fake_clock, bot, world, seed, bauta, monkeypatch):
    await gm_deadline(bot, world, hours=2)
    game = await start_draft(bot, world, seed)
    fake_clock.set(START + timedelta(hours=1, minutes=30))     # the process was down at half-time
    sent = len(world.sent)
    real = bot.store.advance_all

    async def crash(*args):                                   # the process dies right after the DM
        raise ConnectionError("killed")
    monkeypatch.setattr(bot.store, "advance_all", crash)
    with pytest.raises(ConnectionError):
        await Scheduler(bot.host).tick()
    monkeypatch.setattr(bot.store, "advance_all", real)
    # restarted: a new scheduler sends it again, with the same nonce: Discord keeps one
    assert (await Scheduler(bot.host).tick()).reminded == 1
    assert (await Scheduler(bot.host).tick()).reminded == 0
    assert [m.where for m in world.sent[sent:]] == ["dm:2"]
    assert (await bot.store.awaiting_of(game.id))[0].timer.pings == 1


async def test_closed_dms_keep_the_reminder_for_the_next_private_reply(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=2)
    await start_draft(bot, world, seed)
    world.users[2].dm_closed = True
    done = await at(bot, fake_clock, hours=1)
    assert (done.reminded, done.owed) == (0, 1)
    interaction = world.interaction(world.users[2], world.channels[10])
    await bot.host.begin(interaction)
    await bot.host.finish(interaction)
    said = world.ephemeral(world.users[2])[-1].content
    assert said.startswith("✓ Done.\n⏳ Reminders your closed DMs could not carry:\n• **Klash! Sangue & Sabbia** #1")
    interaction = world.interaction(world.users[2], world.channels[10])
    await bot.host.begin(interaction)
    await bot.host.finish(interaction)
    assert world.ephemeral(world.users[2])[-1].content == "✓ Done."       # once


async def test_an_ended_game_awaits_nobody(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=2)
    game = await start_draft(bot, world, seed)
    cog = bot.get_cog("GameCog")
    await cog.end.callback(cog, world.interaction(world.users[1], world.channels[10]))
    assert await bot.store.awaiting_of(game.id) == [] and await bot.store.next_due() is None


async def test_without_a_deadline_nothing_is_due_and_the_prompt_says_nothing_more(fake_clock, bot, world, seed, bauta):
    game = await start_draft(bot, world, seed)
    assert "⏳" not in world.table().content
    [row] = await bot.store.awaiting_of(game.id)
    assert (row.user_id, row.timer.deadline, row.due_at) == (2, None, None)      # /turns still lists it
    sent = len(world.sent)
    await at(bot, fake_clock, days=30)
    assert world.sent[sent:] == []


async def test_with_the_house_rule_the_deadline_plays_the_rulebooks_default_and_says_why(
        fake_clock, bot, world, seed, bauta):
    from tests.cogs.test_carnival_zombie import open_table, state_of as cz_state
    from rules.carnival_zombie import ENGINE as CZ

    gm = bot.get_cog("GMCog")
    await gm.rules.callback(gm, world.interaction(world.users[1], world.channels[10]), game="carnival_zombie",
                            setting="deadline_default", value="true")
    await gm_deadline(bot, world, hours=1)
    game = await open_table(bot, world, [world.users[2], world.users[3]])
    _, state = await cz_state(bot, game.id)
    [prompt] = CZ.pending(state)
    assert (prompt.kind, prompt.player) == ("setup", "2")
    assert CZ.default_choice(state, prompt) == ("start",)
    done = await at(bot, fake_clock, hours=1)
    assert (done.expired, done.answered) == (1, 1)
    record, after = await cz_state(bot, game.id)
    [logged] = [a for a in await bot.store.actions(game.id, limit=5) if a.seq > game.version]
    assert logged.actor == str(BOT) and logged.action["options"] == ["start"]
    said = next(m for m in reversed(world.public()) if m.content.startswith("⌛"))
    assert said.content.startswith("⌛ <@2> let the deadline pass, so the rulebook's default was played: ")
    assert said.content.endswith("<@2> or a GM can take it back with `/game undo`.") and said.pings() == set()
    assert record.meta[botplayer.STAND_IN] == {"seats": ["2"], "first": game.version + 1}
    # the next decision has a clock of its own, from now
    assert all(r.timer.start == START + timedelta(hours=1) for r in await bot.store.awaiting_of(game.id))


async def test_a_clock_held_by_quiet_hours_that_began_after_its_reminder_fell_due_waits_for_their_end(
        fake_clock, bot, world, seed, bauta):
    # Alice sleeps from 13:30 to 20:00 in Rome (12:30-19:00 UTC); her half-time is 12:29:30 UTC,
    # a moment before, but the tick that finds it comes at 12:31, inside them: nothing is sent, and
    # her clock must wait for 19:00, not stay due in the past (every tick would read it again)
    await bot.store.save_profile(Person(2, "Europe/Rome", 13 * 60 + 30, 20 * 60))
    await gm_deadline(bot, world, minutes=59)
    await start_draft(bot, world, seed)
    sent = len(world.sent)
    done = await at(bot, fake_clock, minutes=31)
    assert (done.reminded, done.pinged, done.moved) == (0, 0, 1) and world.sent[sent:] == []
    assert await bot.store.next_due() > START + timedelta(minutes=31)


async def test_an_absence_with_a_stand_in_holds_the_reminders_until_the_return_and_keeps_the_deadline(
        fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=2)
    game = await start_draft(bot, world, seed)
    await bot.host.clock.person_changed(Person(2), await bot.store.save_profile(Person(2, away_until=START + timedelta(days=2),
                                                                    away_stand_in=True)))
    sent = len(world.sent)
    # her clock is due at the deadline (the bot stands in), not at half-time: a reminder due while
    # she is away could not be sent, and the decision would be due at every tick until then
    assert await bot.store.next_due() == START + timedelta(hours=2)
    done = await at(bot, fake_clock, hours=1)       # half-time: she is away, nobody reminds her
    assert (done.reminded, done.pinged) == (0, 0) and world.sent[sent:] == []
    assert await bot.store.next_due() == START + timedelta(hours=2)
    [row] = await bot.store.awaiting_of(game.id)
    assert row.timer.deadline == START + timedelta(hours=2)


async def test_a_members_own_language_words_their_private_replies_over_their_clients(
        fake_clock, bot, world, seed, bauta):
    await start_draft(bot, world, seed)
    await bot.store.save_profile(Person(2, language="it"))     # (in another process: read within a minute)
    fake_clock.advance(seconds=61)
    cog = bot.get_cog("GameCog")
    for user in (world.users[2], world.users[3]):
        interaction = world.interaction(user, world.channels[10], locale="en-US")
        interaction.command, interaction.namespace = cog.deadline, type("NS", (), {})()
        assert await bot._check(interaction)      # the tree's check, before every command
        await cog.deadline.callback(cog, interaction)
    assert world.ephemeral(world.users[2])[-1].content == "Questa partita non ha scadenze."
    assert world.ephemeral(world.users[3])[-1].content == "This game has no deadline."
