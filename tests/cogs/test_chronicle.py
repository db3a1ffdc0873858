"""Chronicles (once, at any end), /game chronicle, Rematch, /game list and archiving."""
import pytest

from clock import source
from cogs.host import chronicle
from cogs.host.chronicle import RematchButton
from tests.cogs.test_recap import first_prompt, play, start
from tests.support.fakes import click


@pytest.fixture
def clock():
    with source.use(source.FakeClock()) as fake:
        yield fake


def chronicles(world, where="channel:10"):
    return world.chronicles(where)


async def play_out(world, clock):
    """A whole duel: Alice answers an hour after the move before hers, Bruno two hours after."""
    alice, bruno = world.users[2], world.users[3]
    clock.advance(hours=1)
    await click(world, first_prompt(world), alice, index=0)
    for _ in range(4):
        clock.advance(hours=1)
        await play(world, alice)
        clock.advance(hours=2)
        await play(world, bruno)


async def press(world, message, user):
    """Click the Rematch button of a message as discord.py dispatches it (rebuilt from its custom_id)."""
    item = message.view.children[0]
    interaction = world.interaction(user, world.channels[10], message=message,
                                    data={"custom_id": item.custom_id})
    match = RematchButton.__discord_ui_compiled_template__.fullmatch(item.custom_id)
    button = await RematchButton.from_custom_id(interaction, item.item, match)
    await button.callback(interaction)
    return interaction


async def test_a_game_ended_by_its_rules_gets_one_chronicle_with_its_figures(bot, world, clock):
    game = await start(world)
    await play_out(world, clock)
    ended = await bot.store.game(game.id)
    assert ended.status == "ended" and ended.meta.get("chronicled")
    [message] = chronicles(world)
    text = message.content
    assert "The game has ended." in text                  # the duel gives no standing
    assert "• <@2>: 5 decisions, 1 hour per answer on average" in text
    assert "• <@3>: 4 decisions, 2 hours per answer on average" in text
    assert "Played over 12 hours" in text                 # first action at 1 h, last at 13 h
    assert "dice luck" not in text                        # the duel rolls no dice
    assert message.custom_ids() == [f"bauta:rematch:{game.id}"]
    assert message.allowed_mentions.to_dict()["parse"] == [] and not message.allowed_mentions.to_dict().get("users")
    # once: posting it again (an outbox re-publish, a second end) sends nothing
    assert await chronicle.post(bot.host, ended) is False
    await bot.host.deliver_outbox()
    assert len(chronicles(world)) == 1


async def test_a_concession_and_game_end_each_post_it_once(bot, world, clock):
    game = await start(world)
    await click(world, first_prompt(world), world.users[2], index=0)
    from tests.support.duel import Concede
    await bot.host.act(world.interaction(world.users[3], world.channels[10]), Concede(), system="duel")
    assert (await bot.store.game(game.id)).status == "ended" and len(chronicles(world)) == 1

    second = await start(world)
    cog = bot.get_cog("GameCog")
    owner = world.users[1]
    await cog.end.callback(cog, world.interaction(owner, world.channels[10]))
    assert len(chronicles(world)) == 2
    # the GM's words come first, then the chronicle
    said = [m.content for m in world.public() if f"#{second.id}" in (m.content or "")]
    assert said[-2].startswith(f"Game #{second.id} was ended by") and "Chronicle of" in said[-1]
    await bot.host.end(None, second) if (await bot.store.game(second.id)).active else None
    assert await chronicle.post(bot.host, await bot.store.game(second.id)) is False
    assert len(chronicles(world)) == 2


async def test_the_last_steps_lines_open_the_chronicle_when_the_table_is_full(bot, world, clock, monkeypatch):
    """A game's last step whose lines no longer fit on its table message: the table shows the end
    where it is, its final board drawn (no move, no message of lines alone), and its lines open
    the chronicle."""
    import io

    import discord
    from cogs.host import systems

    async def board(host, interaction, game, state, events):      # a system that draws its board
        final = b"final" if state.over else b"playing"
        await host.live_message(game, "board", "Board", file=discord.File(io.BytesIO(final), filename="b.png"))
    monkeypatch.setattr(systems.get("duel"), "after_publish", board)
    game = await start(world)
    await click(world, first_prompt(world), world.users[2], index=0)
    record = await bot.store.game(game.id)
    table = world.sent.by_id[record.meta["table"]["message"]]
    full = "\n".join(["A long story."] * 150)                 # 2,000 characters told already
    await bot.store.set_meta(record, {**record.meta, "table": {**record.meta["table"], "narrative_text": full}})
    posted = len(world.public())
    from tests.support.duel import Concede
    await bot.host.act(world.interaction(world.users[3], world.channels[10]), Concede(), system="duel")
    [message] = chronicles(world)
    assert world.public()[posted:] == [message] and not table.deleted
    assert table.file is not None and table.file.fp.getvalue() == b"final"
    assert message.content.startswith("<@3> concedes.") and "Chronicle of" in message.content


class Killed(BaseException):
    """The process dies (kill -9): nothing after it runs, no handler catches it."""


async def test_a_crash_between_the_chronicles_claim_and_its_post_leaves_it_to_the_next_process(bot, world, clock):
    from tests.conftest import make_bot

    game = await start(world)
    courier = bot.host.courier
    send = courier.send_channel

    async def dies_at_the_chronicle(channel_id, content=None, *, slot=None, **kwargs):
        if slot and slot.startswith("chronicle"):
            raise Killed
        return await send(channel_id, content, slot=slot, **kwargs)
    courier.send_channel = dies_at_the_chronicle
    with pytest.raises(Killed):
        await play_out(world, clock)
    claimed = await bot.store.game(game.id)
    assert claimed.status == "ended" and claimed.meta.get("chronicled") and chronicles(world) == []
    await bot.close()
    second = await make_bot(bot.config)
    try:
        world.attach(second)
        assert await second.host.deliver_outbox() == 1          # the step's publish, again, at start-up
        [message] = chronicles(world)
        assert f"(game #{game.id})" in message.content
        assert await second.host.deliver_outbox() == 0 and len(chronicles(world)) == 1    # once
        assert await chronicle.post(second.host, await second.store.game(game.id)) is False
    finally:
        await second.close()


async def test_game_chronicle_shows_it_again_for_its_reader(bot, world, clock):
    game = await start(world)
    await play_out(world, clock)
    cog = bot.get_cog("GameCog")
    await cog.chronicle.callback(cog, world.interaction(world.users[4], world.channels[10], locale="it"), game=None)
    shown = world.ephemeral(world.users[4])[-1]
    assert "Cronaca di" in shown.content and "5 decisioni, in media 1 ora per risposta" in shown.content
    await cog.chronicle.callback(cog, world.interaction(world.users[4], world.channels[11]), game=game.id)
    elsewhere = world.ephemeral(world.users[4])[-1]
    assert "Chronicle of" in elsewhere.content and elsewhere.view is None     # Rematch only in its channel
    from rules.common import BautaError
    with pytest.raises(BautaError, match="No game has ended in this channel yet."):
        await cog.chronicle.callback(cog, world.interaction(world.users[4], world.channels[11]), game=None)


async def test_rematch_opens_a_table_with_the_same_players_and_options(bot, world, clock):
    game = await start(world, fixed_start=True)
    cog = bot.get_cog("GameCog")
    await cog.end.callback(cog, world.interaction(world.users[1], world.channels[10]))
    [message] = chronicles(world)
    await press(world, message, world.users[4])              # a stranger
    assert "Only the players" in world.ephemeral(world.users[4])[-1].content
    assert await bot.store.active_game(1, 10) is None
    await press(world, message, world.users[3])              # Bruno, a player
    lobby = await bot.store.active_game(1, 10)
    assert lobby.system == "lobby" and lobby.seats == ["2", "3"]
    assert lobby.state["players"] == ["2", "3"] and lobby.state["host"] == "3"
    assert lobby.state["options"] == {"fixed_start": True} and lobby.state["system"] == "duel"
    await press(world, message, world.users[2])              # busy now
    assert "already has a game in progress" in world.ephemeral(world.users[2])[-1].content
    table = world.last("channel:10", with_view=True)
    await click(world, table, world.users[3], index=2)        # Start
    new = await bot.store.active_game(1, 10)
    assert new.system == "duel" and new.seats == ["2", "3"] and new.state["fixed_start"] is True
    assert await bot.store.setup_of(new.id) == {"fixed_start": True}
    assert new.id != game.id


async def test_game_list_shows_every_status_without_pinging(bot, world, clock):
    ended = await start(world)
    cog = bot.get_cog("GameCog")
    await cog.end.callback(cog, world.interaction(world.users[1], world.channels[10]))
    clock.advance(hours=1)
    archived = await start(world)
    assert await chronicle.archive(bot.host, archived)
    clock.advance(hours=1)
    paused = await bot.host.start(world.interaction(world.users[3], world.channels[11]), "duel", ["3", "4"], seed=3)
    await bot.store.set_meta(paused, {**paused.meta, "clock": {"paused_at": "2026-01-05T14:00:00+00:00"}})
    clock.advance(hours=1)
    active = await start(world)
    await cog.list.callback(cog, world.interaction(world.users[4], world.channels[10]), status=None)
    listed = world.ephemeral(world.users[4])[-1]
    lines = listed.content.split("\n")
    assert lines[0] == "**4 games** in this server, newest first:"
    assert lines[1].startswith(f"`#{active.id}` **Duel (test game)** in <#10>: in progress, waiting for <@2>, last move <t:")
    assert lines[2].startswith(f"`#{paused.id}` **Duel (test game)** in <#11>: paused, waiting for <@3>")
    assert lines[3].startswith(f"`#{archived.id}` **Duel (test game)** in <#10>: archived, last move")
    assert lines[4].startswith(f"`#{ended.id}` **Duel (test game)** in <#10>: ended, last move")
    assert listed.allowed_mentions.to_dict()["parse"] == [] and not listed.allowed_mentions.to_dict().get("users")
    await cog.list.callback(cog, world.interaction(world.users[4], world.channels[10]), status="archived")
    only = world.ephemeral(world.users[4])[-1].content.split("\n")
    assert only[0] == "**1 game** in this server:" and only[1].startswith(f"`#{archived.id}`")


async def test_game_list_is_bounded(bot, world, clock, monkeypatch):
    monkeypatch.setattr(chronicle, "LISTED", 2)
    cog = bot.get_cog("GameCog")
    for _ in range(4):
        await start(world)
        await cog.end.callback(cog, world.interaction(world.users[1], world.channels[10]))
    await cog.list.callback(cog, world.interaction(world.users[4], world.channels[10]), status="ended")
    lines = world.ephemeral(world.users[4])[-1].content.split("\n")
    assert len(lines) == 4 and lines[-1] == "…and 2 more."


async def test_archiving_puts_a_game_away_with_a_notice_and_its_chronicle(bot, world, clock):
    game = await start(world)
    await click(world, first_prompt(world), world.users[2], index=0)
    clock.advance(days=61)
    assert [g.id for g in await bot.store.archive_candidates(source.now())] == [game.id]
    before = len(world.public())
    assert await chronicle.archive(bot.host, await bot.store.game(game.id)) is True
    archived = await bot.store.game(game.id)
    assert archived.status == "archived" and archived.meta.get("chronicled")
    [notice] = world.public()[before:]
    assert notice.content.startswith(f"🗄️ Game #{game.id} (Duel (test game)) sat idle for 60 days")
    assert "Chronicle of" in notice.content and "• <@2>: 1 decision" in notice.content
    assert await chronicle.archive(bot.host, archived) is False          # once
    assert len(world.public()) == before + 1
    # an archived game reads like an ended one
    cog = bot.get_cog("GameCog")
    world.sent.clear()
    await cog.status.callback(cog, world.interaction(world.users[4], world.channels[10]))
    assert f"game #{game.id}" in world.public_text() and not any(m.view for m in world.public())
    await cog.log.callback(cog, world.interaction(world.users[4], world.channels[10]), n=10)
    assert "`#1`" in world.ephemeral(world.users[4])[-1].content
    await cog.export.callback(cog, world.interaction(world.users[4], world.channels[10]))
    assert world.ephemeral(world.users[4])[-1].file is not None
    # the channel is free again
    await start(world)
