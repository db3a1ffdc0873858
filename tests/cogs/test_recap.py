"""/game recap and the automatic "previously on…": what a player may read, and when it comes."""
import pytest

from clock import source
from tests.support.fakes import click


@pytest.fixture
def clock():
    with source.use(source.FakeClock()) as fake:
        yield fake


async def start(world, **options):
    alice, bruno = world.users[2], world.users[3]
    interaction = world.interaction(alice, world.channels[10])
    return await world.bot.host.start(interaction, "duel", [str(alice.id), str(bruno.id)], seed=7, options=options)


async def play(world, user):
    """`user` plays the first card of the hand their DM offers."""
    await click(world, world.last(f"dm:{user.id}", with_view=True), user, index=0)


def first_prompt(world):
    return next(m for m in world.public() if m.view and "Who plays first" in (m.content or ""))


async def recap(bot, world, user, locale=None):
    cog = bot.get_cog("GameCog")
    await cog.recap.callback(cog, world.interaction(user, world.channels[10], locale=locale))
    return world.ephemeral(user)[-1]


async def test_a_recap_shows_the_public_and_the_readers_own_never_anothers_secret(bot, world, clock):
    alice, bruno = world.users[2], world.users[3]
    game = await start(world)
    await click(world, first_prompt(world), alice, index=0)        # Alice starts
    clock.advance(hours=1)
    await play(world, alice)
    state = (await bot.store.game(game.id)).state
    drawn = [e for a in await bot.store.actions(game.id) for e in a.events if e["kind"] == "draw"]
    assert len(drawn) == 1 and drawn[0]["audience"] == "2"

    # Bruno never played: the whole game, public lines only, and his own decision at the end
    message = await recap(bot, world, bruno)
    text = message.content
    assert message.ephemeral and "from the start" in text
    assert "<@2> plays first." in text and f"<@2> plays {drawn[0]['data']['card']}" not in text
    played = next(e for a in await bot.store.actions(game.id) for e in a.events if e["kind"] == "play")
    assert f"<@2> plays {played['data']['card']}." in text
    assert "You draw" not in text and "(GM)" not in text and "holds" not in text
    assert "**Now:**" in text and "<@3>: Play a card from your hand." in text
    assert message.allowed_mentions.to_dict()["parse"] == []

    # Alice: since her own last move nothing happened; Bruno's decision is named, never worded
    text = (await recap(bot, world, alice)).content
    assert "since your last move" in text and "Nothing new has happened since then." in text
    assert "<@3> has a private decision to make." in text and "Play a card" not in text
    for card in state["hands"]["3"]:
        assert f"Card {card}" not in text

    # the GM reads the GM's lines too
    text = (await recap(bot, world, world.users[1])).content
    assert "(GM) <@2> holds" in text


async def test_the_recap_is_in_the_readers_language(bot, world, clock):
    await start(world)
    await click(world, first_prompt(world), world.users[2], index=0)
    text = (await recap(bot, world, world.users[3], locale="it")).content
    assert "Nelle puntate precedenti" in text and "**Adesso:**" in text


async def test_the_first_move_after_twelve_hours_brings_a_recap_and_not_before(bot, world, clock):
    alice, bruno = world.users[2], world.users[3]
    await start(world)
    await click(world, first_prompt(world), alice, index=0)
    clock.advance(hours=11, minutes=59)
    await play(world, alice)                         # 11 h 59 min after her previous move: no recap
    assert not any("Welcome back" in (m.content or "") for m in world.ephemeral(alice))
    clock.advance(hours=12)
    await play(world, bruno)                         # his first move, 23 h 59 min after the start
    welcome = [m for m in world.ephemeral(bruno) if "Welcome back" in (m.content or "")]
    assert len(welcome) == 1
    assert "<@2> plays first." in welcome[0].content and "You draw" not in welcome[0].content
    clock.advance(hours=1)
    await play(world, alice)                         # 13 h after her previous move
    welcome = [m for m in world.ephemeral(alice) if "Welcome back" in (m.content or "")]
    assert len(welcome) == 1
    text = welcome[0].content
    assert "<@3> plays" in text and "You draw" not in text and "<@2> plays" not in text
    assert f"<t:{int(source.parse((await bot.store.last_actions_of(1, '2', 2))[1].created_at).timestamp())}:R>" in text
    clock.advance(hours=1)
    await play(world, bruno)                         # an hour later: no second recap
    assert len([m for m in world.ephemeral(bruno) if "Welcome back" in (m.content or "")]) == 1


async def test_the_automatic_recap_can_be_turned_off(bot, world, clock, monkeypatch):
    from cogs.host import recap as recaps
    monkeypatch.setattr(recaps, "AUTOMATIC", False)
    await start(world)
    clock.advance(hours=20)
    await click(world, first_prompt(world), world.users[2], index=0)
    assert not any("Welcome back" in (m.content or "") for m in world.ephemeral(world.users[2]))


def test_a_long_chapter_keeps_its_ends_and_its_turning_points():
    from cogs.host.recap import Chapter, compact
    chapter = Chapter("**Round 2**", [(f"line {i}", i == 5) for i in range(10)])
    assert compact(chapter, "en") == ["**Round 2**", "• line 0", "• line 1", "… and 3 more", "• line 5",
                                      "… and 1 more", "• line 7", "• line 8", "• line 9"]


def test_spans_read_in_two_units():
    from cogs.host.recap import span
    assert span(0, "en") == "0 seconds"
    assert span(65, "en") == "1 minute 5 seconds"
    assert span(3600, "en") == "1 hour"
    assert span(2 * 86400 + 3 * 3600 + 59, "en") == "2 days 3 hours"
    assert span(7200 + 60, "it") == "2 ore 1 minuto"
