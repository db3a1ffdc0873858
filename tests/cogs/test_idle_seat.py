"""The stand-in at a deadline (`/gm idle_bot`): when a decision's deadline (`/gm deadline`) passes,
the bot answers it from that seat's own view, says so in the channel without a secret, and
`/game undo` (the player, or a GM) takes it back. Time is a FakeClock, moved, never slept.
(tests/cogs/test_turn_clock.py has the whole clock; this file the stand-in's own cases.)"""
from __future__ import annotations

from datetime import timedelta

import pytest

from cogs.host import botplayer
from cogs.host.errors import NotGM
from tests.cogs.test_karmic import import_sheet
from tests.cogs.test_klash import start_draft
from tests.cogs.test_turn_clock import START, at, gm_deadline, idle_bot

from tests.cogs.conftest import BOT

TABLE = "channel:10"


async def undo(bot, world, user, **kwargs):
    cog = bot.get_cog("GameCog")
    await cog.undo.callback(cog, world.interaction(user, world.channels[10]), **kwargs)


async def test_off_by_default_and_only_a_gm_sets_it(fake_clock, bot, world, seed, bauta):
    await gm_deadline(bot, world, hours=2)
    game = await start_draft(bot, world, seed)
    for hours in (1, 2, 4, 8, 100):
        await at(bot, fake_clock, hours=hours)
    assert (await bot.store.game(game.id)).version == game.version      # reminded, never answered for
    assert not [m for m in world.public() if m.content.startswith("⌛")]
    gm = bot.get_cog("GMCog")
    with pytest.raises(NotGM):
        await gm.idle_bot.callback(gm, world.interaction(world.users[2], world.channels[10]), level="hard")
    assert (await bot.store.settings(1)).idle_bot is None
    await idle_bot(bot, world, "hard")
    assert (await bot.store.settings(1)).idle_bot == "hard"
    assert world.ephemeral(world.users[1])[-1].content.startswith(
        "When a decision's deadline (2 hours) passes, Bauta answers for the player (level hard)")
    await idle_bot(bot, world, "off")
    assert (await bot.store.settings(1)).idle_bot is None
    assert world.ephemeral(world.users[1])[-1].content == "Bauta no longer answers for players whose deadline passes."
    # without a deadline the GM is told it needs one
    await gm_deadline(bot, world)
    assert world.ephemeral(world.users[1])[-1].content.startswith("No deadlines: games wait as long as it takes")
    await idle_bot(bot, world, "normal")
    assert "set one with `/gm deadline`" in world.ephemeral(world.users[1])[-1].content


async def test_a_private_decision_is_made_from_the_seats_view_and_announced_without_secrets(
        fake_clock, bot, world, seed, bauta):
    from rules.karmic import ENGINE as KARMIC

    seed(7)
    await gm_deadline(bot, world, hours=4)
    await idle_bot(bot, world, "easy")
    alice = world.users[2]
    await import_sheet(bot, world, alice)
    cog = bot.get_cog("KarmicCog")
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    bot_plays_npcs=True)
    game = await bot.store.active_game(1, 10)
    state = KARMIC.load_state(game.state)
    [prompt] = KARMIC.pending(state)
    assert prompt.player == "2" and prompt.private
    assert (await at(bot, fake_clock, hours=2)).reminded == 1
    reminder = world.last("dm:2").content
    assert "a private decision" in reminder and "Answer in your DMs, or with `/hand` in <#10>." in reminder
    await at(bot, fake_clock, hours=4)
    record = await bot.store.game(game.id)
    mine = [a for a in await bot.store.actions(game.id, limit=100) if a.seq > game.version]
    assert mine and all(a.actor == str(BOT) for a in mine)
    assert mine[0].action["prompt"] == prompt.id
    # every decision was Alice's and private: the channel learns only that a private choice was made
    announcement = next(m for m in reversed(world.public()) if m.content.startswith("⌛"))
    assert announcement.content == ("⌛ <@2> let the deadline pass, so Bauta answered for them: "
                                    + "; ".join(["a private choice (see your DMs or `/hand`)"] * len(mine))
                                    + ". <@2> or a GM can take it back with `/game undo`.")
    first = botplayer.think(botplayer.players("karmic"), state, "2", "easy", f"idle{game.id}", 60.0)
    assert mine[0].action == KARMIC.dump_action(first)
    # a turn has a few inner steps: the bot stops after STAND_IN_STEPS, the rest waits for Alice
    assert len(mine) <= botplayer.STAND_IN_STEPS
    await undo(bot, world, alice)
    assert (await bot.store.game(game.id)).state == game.state
    assert record.meta[botplayer.STAND_IN]["seats"] == ["2"]


async def test_away_with_a_stand_in_the_bot_answers_at_the_deadline_even_where_the_server_did_not_ask(
        fake_clock, bot, world, seed, bauta):
    from clock.hours import Person

    await gm_deadline(bot, world, hours=1)
    game = await start_draft(bot, world, seed)
    await bot.host.clock.person_changed(Person(2), await bot.store.save_profile(
        Person(2, away_until=START + timedelta(days=3), away_stand_in=True)))
    [row] = await bot.store.awaiting_of(game.id)
    assert row.timer.deadline == START + timedelta(hours=1)             # the clock runs on
    sent = len(world.sent)
    await at(bot, fake_clock, minutes=30)
    assert [m for m in world.sent[sent:] if m.where == "dm:2"] == []      # no reminder to someone away
    done = await at(bot, fake_clock, hours=1)
    assert done.answered == 1
    said = next(m for m in reversed(world.public()) if m.content.startswith("⌛"))
    assert said.content.startswith("⌛ <@2> is away and asked Bauta to stand in at the deadline: ")
