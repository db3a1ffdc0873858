"""/turns through the fake world and a real store: the decisions awaited from a member in two
servers, their links and deadlines, the Answer button's path through `GameHost.choose`, the
user-app and DM contexts, and the 2,000-character limit."""
import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from clock import source
from cogs.turns import AnswerButton, prompt_ref
from tests.support.fakes import FakeChannel, FakeGuild, FakeInteraction, click
from tests.support.waiting import await_from, pending

START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
OTHER = 2           # the second server's id; its table is channel 20


@pytest.fixture
def clock():
    with source.use(source.FakeClock(START)) as fake:
        yield fake


@pytest.fixture
def servers(bot, world, monkeypatch):
    """Two servers Bauta is in, by name."""
    other = FakeGuild(OTHER, owner_id=4, world=world)
    other.name = "Other Server"
    world.channels[20] = FakeChannel(world, 20, "far-table")
    known = {world.guild.id: world.guild, OTHER: other}
    monkeypatch.setattr(bot, "get_guild", lambda gid: known.get(int(gid)))
    return other


@pytest.fixture
def cog(bot):
    return bot.get_cog("TurnsCog")


def said(world, user=2) -> str:
    return world.ephemeral(world.users[user])[-1].content


async def two_games(bot, world, other):
    """Alice waits in both servers: a private card to play in the first (2 days to play it, her
    start chosen already), the public "who starts" in the second (no deadline)."""
    alice = world.users[2]
    first = await bot.host.start(world.interaction(alice, world.channels[10]), "duel", ["2", "3"], seed=7)
    await click(world, next(m for m in world.public() if m.view), alice, index=0)     # Alice starts
    first = await bot.store.game(first.id)
    mine = await await_from(bot.store, first, pending(first)[0], period=timedelta(days=2),
                            asked=START - timedelta(hours=3))
    there = FakeInteraction(world, alice, world.channels[20], guild=other)
    second = await bot.store.game((await bot.host.start(there, "duel", ["2", "4"], seed=8)).id)
    theirs = await await_from(bot.store, second, pending(second)[0])
    return first, second, mine, theirs


async def answer_button(world, message, user, index=0, locale=None):
    """A click on an Answer button, dispatched as discord.py does: rebuilt from its custom_id alone."""
    custom_id = message.custom_ids()[index]
    match = AnswerButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    interaction = world.interaction(user, world.channels[10], message=message, locale=locale,
                                    data={"custom_id": custom_id})
    item = await AnswerButton.from_custom_id(interaction, message.view.children[index].item, match)
    await item.callback(interaction)
    return interaction


async def test_turns_lists_every_decision_in_two_servers_oldest_first(bot, world, cog, servers, clock):
    first, second, mine, theirs = await two_games(bot, world, servers)
    world.sent.clear()
    await cog.turns.callback(cog, world.interaction(world.users[2], world.channels[10]))
    [message] = world.sent
    text = message.content
    assert message.ephemeral and world.public() == [] and len(text) <= 2000
    assert text.startswith("**2 decisions are waiting for you**")
    assert text.index(f"#{first.id} · Test Server") < text.index(f"#{second.id} · Other Server")
    assert "Play a card" in text and "Who plays first" in text
    asked = int(mine.asked_at.timestamp())
    deadline = int(mine.timer.deadline.timestamp())
    assert f"asked <t:{asked}:R>" in text and f"deadline <t:{deadline}:f> (<t:{deadline}:R>)" in text
    assert "no deadline" in text
    dm = first.meta["prompt_messages"][mine.prompt_id]["message"]
    assert f"https://discord.com/channels/@me/2/{dm}" in text       # the fake's DM channel has the user's id
    table = second.meta["table"]["message"]
    assert f"https://discord.com/channels/{OTHER}/20/{table}" in text
    assert [b.item.label for b in message.view.children] == [f"Answer 1 (#{first.id})"]   # the private one only
    print("\n--- /turns, en ---\n" + text)
    await cog.turns.callback(cog, world.interaction(world.users[2], world.channels[10], locale="it"))
    italian = said(world)
    assert italian.startswith("**2 decisioni ti aspettano**") and "Gioca una carta" in italian
    assert "nessuna scadenza" in italian and f"Rispondi 1 (#{first.id})" in world.sent[-1].view.children[0].item.label
    print("--- /turns, it ---\n" + italian)


async def test_nobody_waiting_is_one_friendly_line_in_their_language(bot, world, cog, clock):
    await cog.turns.callback(cog, world.interaction(world.users[3], world.channels[10]))
    assert said(world, 3) == "Nobody is waiting for you."
    profile = bot.get_cog("ProfileCog")
    await profile.language.callback(profile, world.interaction(world.users[3], world.channels[10]), language="es")
    await cog.turns.callback(cog, world.interaction(world.users[3], world.channels[10]))
    assert said(world, 3) == "Nadie te está esperando."


async def test_the_answer_button_asks_again_privately_and_its_click_goes_through_the_host(
        bot, world, cog, servers, clock):
    first, _second, mine, _theirs = await two_games(bot, world, servers)
    await cog.turns.callback(cog, world.interaction(world.users[2], world.channels[10]))
    listing = world.ephemeral(world.users[2])[-1]
    assert listing.custom_ids() == [f"bauta:turn:{first.id}:{mine.prompt_id}"]
    world.sent.clear()
    await answer_button(world, listing, world.users[2])
    [asked] = world.sent
    assert asked.ephemeral and "Play a card" in asked.content and f"#{first.id}" in asked.content
    assert all(cid.startswith(f"bauta:b:{first.id}:{mine.prompt_id}:") for cid in asked.custom_ids())
    assert len(asked.custom_ids()) == 3                          # her three cards
    await click(world, asked, world.users[2], index=0)
    assert (await bot.store.game(first.id)).version == first.version + 1
    # the listing's button is stale now: said so briefly, nothing changes
    interaction = await answer_button(world, listing, world.users[2])
    assert interaction.extras["bauta_refused"] and "made already" in said(world)
    await bot.store.end_game(await bot.store.game(first.id))
    await answer_button(world, listing, world.users[2], locale="it")
    assert said(world) == "Quella partita è finita: non c'è più niente a cui rispondere."


async def test_someone_elses_answer_button_is_refused(bot, world, cog, servers, clock):
    first, _second, mine, _theirs = await two_games(bot, world, servers)
    await cog.turns.callback(cog, world.interaction(world.users[2], world.channels[10]))
    listing = world.ephemeral(world.users[2])[-1]
    await answer_button(world, listing, world.users[3])
    assert said(world, 3) == "That decision is not yours."


def test_a_long_prompt_id_still_fits_in_a_custom_id():
    ref = prompt_ref(123456789, "x" * 200)
    assert ref.startswith("~") and len(f"bauta:turn:123456789:{ref}") <= 100
    assert prompt_ref(12, "play:2:0") == "play:2:0"


async def test_as_a_user_app_where_bauta_is_not_a_member_it_answers_privately_and_says_so(
        bot, world, cog, servers, clock):
    await two_games(bot, world, servers)
    stranger = FakeGuild(77, owner_id=9, world=world)
    interaction = FakeInteraction(world, world.users[2], FakeChannel(world, 770, "elsewhere"), guild=stranger)
    interaction._integration_owners = {1: 2}                    # authorized by the user's install only
    world.sent.clear()
    await cog.turns.callback(cog, interaction)
    [message] = world.sent
    assert message.ephemeral and message.content.startswith("Bauta is not in this server")
    assert "**2 decisions are waiting for you**" in message.content


async def test_turns_in_the_dm_with_the_bot(bot, world, cog, servers, clock):
    first, *_ = await two_games(bot, world, servers)
    dm = world.interaction(world.users[2], in_dm=True)
    dm.channel_id = 555
    dm.context = SimpleNamespace(dm_channel=True)
    await cog.turns.callback(cog, dm)
    text = said(world)
    assert "Bauta is not in" not in text and "**2 decisions" in text
    message = first.meta["prompt_messages"][pending(await bot.store.game(first.id))[0].id]["message"]
    assert f"https://discord.com/channels/@me/555/{message}" in text


async def test_an_absence_shows_and_a_private_prompt_never_sent_points_at_hand(bot, world, cog, servers, clock):
    world.users[2].dm_closed = True
    first, *_ = await two_games(bot, world, servers)
    profile = bot.get_cog("ProfileCog")
    await profile.away.callback(profile, world.interaction(world.users[2], world.channels[10]), until="2d")
    await cog.turns.callback(cog, world.interaction(world.users[2], world.channels[10]))
    text = said(world)
    assert text.startswith("You are away until <t:")
    assert "`/hand` in [its channel](<https://discord.com/channels/1/10>)" in text


async def test_many_decisions_keep_to_one_message(bot, world, cog, clock):
    alice = world.users[2]
    for n in range(30):
        channel = world.channel(100 + n)
        game = await bot.host.start(world.interaction(alice, channel), "duel", ["2", "3"], seed=n)
        await await_from(bot.store, game, pending(game)[0], period=timedelta(days=1 + n))
    await cog.turns.callback(cog, world.interaction(alice, world.channels[10]))
    text = said(world)
    assert len(text) <= 2000 and text.startswith("**30 decisions are waiting for you**")
    shown = len(re.findall(r"^\d+\. ", text, flags=re.M))
    assert 5 < shown < 30 and text.endswith(f"…and {30 - shown} more.")
