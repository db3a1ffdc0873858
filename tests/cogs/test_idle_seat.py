"""The idle-seat option (`/gm idle_bot`): once a reminder has gone unanswered for another reminder
period, the bot answers the idle player's decision from that seat's own view, says so in the channel,
and `/game undo` (the player, or a GM) takes it back. Time is moved forward, never slept."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from cogs.host import botplayer
from cogs.host.errors import NotGM
from i18n import t
from rules.klash import ENGINE as KLASH
from tests.cogs.test_karmic import import_sheet
from tests.cogs.test_klash import start_draft, state_of

from tests.cogs.conftest import BOT

TABLE = "channel:10"


async def settings(bot, world, level: str | None, hours: float = 2.0) -> None:
    gm = bot.get_cog("GMCog")
    owner = world.users[1]
    await gm.reminder.callback(gm, world.interaction(owner, world.channels[10]), hours=hours)
    if level is not None:
        await gm.idle_bot.callback(gm, world.interaction(owner, world.channels[10]), level=level)


def since(game) -> datetime:
    return datetime.fromisoformat(game.updated_at)


async def undo(bot, world, user, **kwargs):
    cog = bot.get_cog("GameCog")
    await cog.undo.callback(cog, world.interaction(user, world.channels[10]), **kwargs)


async def test_the_bot_answers_an_idle_pick_a_reminder_period_after_the_reminder_and_the_player_takes_it_back(
        bot, world, seed, bauta):
    await settings(bot, world, "easy")
    game = await start_draft(bot, world, seed)
    _, state = await state_of(bot, game.id)
    assert KLASH.picker(state) == "2"
    start, version, posted = since(game), game.version, len(world.sent)
    assert await bot.host.remind_idle(at=start + timedelta(hours=1)) == 0
    assert len(world.sent) == posted
    assert await bot.host.remind_idle(at=start + timedelta(hours=2)) == 1
    reminder = world.last(TABLE).content
    assert reminder.startswith("⏰ <@2>:") and reminder.endswith(
        "If nobody answers within 2 h, Bauta will answer for you.")
    # a reminder period after the reminder has not passed yet: nothing is answered
    assert await bot.host.remind_idle(at=start + timedelta(hours=3, minutes=59)) == 0
    assert (await bot.store.game(game.id)).version == version
    assert await bot.host.remind_idle(at=start + timedelta(hours=4)) == 0     # no second reminder...
    record, after = await state_of(bot, game.id)
    log = await bot.store.actions(game.id, limit=50)
    mine = [a for a in log if a.seq > version]
    # ...but the bot answered Alice's pick, in her seat, logged as the bot's
    assert mine and all(a.actor == str(BOT) for a in mine) and record.version == version + len(mine)
    assert after.picks["2"] and not after.picks["3"]
    assert KLASH.picker(after) == "3"                               # then it waits on Bruno, who is here
    # the same choice the player would get from its own seat's view at that level
    first = botplayer.think(botplayer.players("klash"), state, "2", "easy", f"idle{game.id}", 60.0)
    assert mine[0].action == KLASH.dump_action(first)
    # announced in the channel: who, what was chosen, how to take it back
    announcement = next(m for m in reversed(world.public()) if m.content.startswith("🤖"))
    name = after.cards[after.picks["2"][0]]["name"].replace("SAMPLE ", "")    # as the table shows a card
    assert announcement.content.startswith(f"🤖 <@2>: no answer for 4 h, so Bauta made "
                                           f"{len(mine)} decision{'s' if len(mine) != 1 else ''} for you: ")
    assert name in announcement.content and announcement.content.endswith(
        "To take it back, run `/game undo` (you, or a GM).")
    assert record.meta[botplayer.STAND_IN] == {"seats": ["2"], "first": version + 1}
    # Bruno may not take it back (it was not his seat), Alice may: all of it, and nothing else
    with pytest.raises(NotGM):
        await undo(bot, world, world.users[3])
    await undo(bot, world, world.users[2])
    back = await bot.store.game(game.id)
    assert back.state == game.state and back.version == record.version + 1
    assert botplayer.STAND_IN not in back.meta and "reminded" not in back.meta
    assert f"<@2> undid {len(mine)} action{'s' if len(mine) != 1 else ''}." in world.public_text()
    # nothing left to take back: Alice is no GM
    with pytest.raises(NotGM):
        await undo(bot, world, world.users[2])
    # the clock starts again from her undo: a reminder first, the bot a reminder period later
    start = since(back)
    assert await bot.host.remind_idle(at=start + timedelta(hours=2)) == 1
    assert (await bot.store.game(game.id)).version == back.version


async def test_off_by_default_and_only_a_gm_sets_it(bot, world, seed, bauta):
    await settings(bot, world, None)
    game = await start_draft(bot, world, seed)
    start = since(game)
    assert await bot.host.remind_idle(at=start + timedelta(hours=2)) == 1
    assert "Bauta will answer" not in world.last(TABLE).content
    for hours in (4, 8, 100):
        await bot.host.remind_idle(at=start + timedelta(hours=hours))
    assert (await bot.store.game(game.id)).version == game.version
    assert not [m for m in world.public() if m.content.startswith("🤖")]
    gm = bot.get_cog("GMCog")
    with pytest.raises(NotGM):
        await gm.idle_bot.callback(gm, world.interaction(world.users[2], world.channels[10]), level="hard")
    assert (await bot.store.settings(1)).idle_bot is None
    await gm.idle_bot.callback(gm, world.interaction(world.users[1], world.channels[10]), level="hard")
    assert (await bot.store.settings(1)).idle_bot == "hard"
    assert world.ephemeral(world.users[1])[-1].content.startswith(
        "When a reminder has gone unanswered for another 2 h, Bauta answers for the idle player (level hard)")
    await gm.idle_bot.callback(gm, world.interaction(world.users[1], world.channels[10]), level="off")
    assert (await bot.store.settings(1)).idle_bot is None
    assert world.ephemeral(world.users[1])[-1].content == "Bauta no longer answers for idle players."
    # without a reminder the GM is told it needs one
    await gm.reminder.callback(gm, world.interaction(world.users[1], world.channels[10]), hours=0.0)
    await gm.idle_bot.callback(gm, world.interaction(world.users[1], world.channels[10]), level="normal")
    assert "set one with `/gm reminder`" in world.ephemeral(world.users[1])[-1].content


async def test_a_private_decision_is_made_from_the_seats_view_and_announced_without_secrets(
        bot, world, seed, bauta):
    from rules.karmic import ENGINE as KARMIC

    seed(7)
    await settings(bot, world, "easy")
    alice = world.users[2]
    await import_sheet(bot, world, alice)
    cog = bot.get_cog("KarmicCog")
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    bot_plays_npcs=True)
    game = await bot.store.active_game(1, 10)
    state = KARMIC.load_state(game.state)
    [prompt] = KARMIC.pending(state)
    assert prompt.player == "2" and prompt.private
    start = since(game)
    assert await bot.host.remind_idle(at=start + timedelta(hours=2)) == 1
    await bot.host.remind_idle(at=start + timedelta(hours=4))
    record = await bot.store.game(game.id)
    mine = [a for a in await bot.store.actions(game.id, limit=100) if a.seq > game.version]
    assert mine and all(a.actor == str(BOT) for a in mine)
    assert mine[0].action["prompt"] == prompt.id
    # every decision was Alice's and private: the channel learns only that a private choice was made
    announcement = next(m for m in reversed(world.public()) if m.content.startswith("🤖"))
    private = t("game.stand_in_private", "en")
    assert announcement.content == t("game.stand_in", "en", who="<@2>", hours="4", n=len(mine),
                                     choices="; ".join([private] * len(mine)))
    # the seat's own player: the never-peeking search over Alice's view (tests/rules/test_player.py
    # proves it never peeks), at the server's level
    first = botplayer.think(botplayer.players("karmic"), state, "2", "easy", f"idle{game.id}", 60.0)
    assert mine[0].action == KARMIC.dump_action(first)
    # a turn has a few inner steps: the bot stops after STAND_IN_STEPS, the rest waits for Alice
    assert len(mine) <= botplayer.STAND_IN_STEPS
    await undo(bot, world, alice)
    assert (await bot.store.game(game.id)).state == game.state
    assert record.meta[botplayer.STAND_IN]["seats"] == ["2"]
