"""Playing over days, as a member lives it through the bot, in two servers: a one-minute deadline
shown on the prompt, the half-time DM, the bot standing in at the deadline, `/turns` listing the
decisions of both servers, a recap after a quiet stretch, a chronicle with its Rematch button at
the end, and nobody pinged inside their quiet hours, whatever happened meanwhile."""
from __future__ import annotations

from datetime import datetime, timedelta

from clock.hours import Person
from cogs.host import systems
from tests.cogs.test_klash import answer, start_draft, state_of
from tests.cogs.test_turn_clock import START, at, gm_deadline, idle_bot, stamp
from tests.support.fakes import FakeChannel, FakeGuild, FakeInteraction, click
from rules.klash import ENGINE as KLASH

ROME_NIGHT = (0, 7 * 60)        # Alice's quiet hours in Rome: 00:00–07:00 there, 23:00–06:00 UTC in January


def notification(message) -> set[str]:
    """Whom a message notifies as it is sent (an edit notifies nobody): a DM (not silent) its
    reader, a channel message the users its mentions let through."""
    if message.where.startswith("dm:"):
        return set() if message.silent else {message.where[3:]}
    return message.pings() if message.public else set()


async def test_two_servers_over_a_day_and_a_night(fake_clock, bot, world, seed, bauta, monkeypatch):
    alice, carla = world.users[2], world.users[4]
    other = FakeGuild(2, owner_id=4, world=world)
    other.name = "Other Server"
    world.channels[20] = FakeChannel(world, 20, "arena")
    monkeypatch.setattr(bot, "get_guild", lambda gid: {1: world.guild, 2: other}.get(int(gid)))
    sent: list[tuple[datetime, str, set[str]]] = []     # when each message went out, where, whom it woke
    append = world.sent.append
    monkeypatch.setattr(world.sent, "append",
                        lambda m: (sent.append((fake_clock.now(), m.where, notification(m))), append(m)))
    await bot.store.save_profile(Person(2, "Europe/Rome", *ROME_NIGHT))

    # Server 1: one-minute deadlines, the bot stands in; a Klash! auction, Alice to pick first
    await gm_deadline(bot, world, minutes=1)
    await idle_bot(bot, world, "easy")
    game = await start_draft(bot, world, seed)           # Alice challenges Bruno
    _, state = await state_of(bot, game.id)
    assert KLASH.picker(state) == "2"
    deadline = stamp(START + timedelta(minutes=1))
    assert f"⏳ Answer <t:{deadline}:R> (<t:{deadline}:f>)." in world.table().content

    # Server 2: a duel without deadlines, Alice decides who starts
    here = FakeInteraction(world, carla, world.channels[20], guild=other, locale="it")
    duel = await bot.host.start(here, "duel", ["2", "4"], seed=8)

    # half-time: one private reminder, with the way back to the prompt
    assert (await at(bot, fake_clock, 30)).reminded == 1
    assert world.last("dm:2").content.startswith("⏳ Half of your time is gone:\n• **Klash! Sangue & Sabbia** #1")
    # /turns, from the DM with the bot: both servers, oldest first, what is asked and by when
    turns = bot.get_cog("TurnsCog")
    await turns.turns.callback(turns, world.interaction(alice, in_dm=True))
    listed = world.ephemeral(alice)[-1].content
    assert listed.startswith("**2 decisions are waiting for you**")
    assert listed.index("#1 · Test Server") < listed.index(f"#{duel.id} · Other Server")
    assert f"deadline <t:{deadline}:f>" in listed and "no deadline" in listed

    # the deadline: the bot answers her pick from her seat's view, says so, pings nobody
    done = await at(bot, fake_clock, 60)
    assert done.answered == 1                       # her one pick of the round, then Bruno's turn
    said = next(m for m in reversed(world.public()) if m.content.startswith("⌛"))
    assert said.content.startswith("⌛ <@2> let the deadline pass, so Bauta answered for them:") and not said.pings()
    _, state = await state_of(bot, game.id)
    assert state.picks["2"] and KLASH.picker(state) == "3"

    # Bruno's picks come late in the evening; the last one hands the auction to Alice at 00:30 in Rome
    fake_clock.set(START.replace(hour=23, minute=30))
    while KLASH.picker(state) == "3":
        [prompt] = KLASH.pending(state)
        await answer(world, game.id, prompt, [prompt.options[0].id])
        _, state = await state_of(bot, game.id)
    assert KLASH.picker(state) == "2"
    assert "<@2>" in world.table().content                      # the table names her…
    # …and her half-time and her deadline fall in her night: the bot answers, nobody wakes her
    picks = len(state.picks["2"])
    answered = [(await at(bot, fake_clock, seconds, hours=11, minutes=30)).answered for seconds in (30, 54, 60, 120)]
    _, state = await state_of(bot, game.id)
    # at her deadline the bot makes the picks she owes in a row (her two of round 2, her one of
    # round 3: the stand-in plays a seat's consecutive decisions), a minute later Bruno's three
    assert answered == [0, 0, 3, 3]
    assert len(state.picks["2"]) == picks + 3 and KLASH.picker(state) == "2"

    # the next day Alice opens the duel and plays; Carla answers; Alice comes back 13 hours later
    fake_clock.set(START + timedelta(days=1))
    start = next(m for m in world.public() if m.where == "channel:20" and m.view)
    await click(world, start, alice, index=0, channel=world.channels[20])
    # (a player's own decision needs no rights in the server the click comes from)
    duel = await bot.store.game(duel.id)
    engine = systems.get("duel").engine
    moves = 0
    while not engine.is_over(engine.load_state(duel.state)):
        [prompt] = engine.pending(engine.load_state(duel.state))
        fake_clock.advance(hours=13 if moves == 2 else 1)
        player = world.users[int(prompt.player)]
        await click(world, world.last(f"dm:{player.id}", with_view=True), player, index=0)
        duel = await bot.store.game(duel.id)
        moves += 1
    # a recap came with her first move after the quiet stretch, and only then
    [recap] = [m for m in world.ephemeral(alice) if m.content.startswith("📖")]
    assert recap.content.startswith(f"📖 **Welcome back!** Here is what happened in **Duel (test game)** (game #{duel.id})")
    assert "<@4> plays" in recap.content
    # the end: one chronicle, with its Rematch button, in the duel's channel
    [chronicle] = world.chronicles("channel:20")
    assert chronicle.content.startswith(f"📜 **Chronicle of Duel (test game)** (game #{duel.id})")
    assert "Rematch" in chronicle.texts()

    # through all of it, nobody was notified inside Alice's night…
    rome = Person(2, "Europe/Rome", *ROME_NIGHT)
    assert [(when, where) for when, where, woken in sent if "2" in woken and rome.quiet_at(when)] == []
    # …though things happened for her then (her turn, the bot's answer, her duel's DMs)…
    assert [where for when, where, _ in sent if rome.quiet_at(when) and where in ("channel:10", "dm:2")]
    # …and she was notified when awake: the half-time DM and her own decisions' DMs
    assert any("2" in woken and not rome.quiet_at(when) for when, _, woken in sent)
