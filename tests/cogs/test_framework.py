"""The hosting framework with the Duel test game: persistence, races, DMs, secrecy, undo."""
import asyncio
import json

import pytest

from i18n.present import Presenter
from rules.common import PUBLIC
from tests.conftest import make_bot
from tests.support.fakes import click
from tests.support.stores import BACKENDS


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    """These tests touch the store through the framework: run them on both backends."""
    return request.param


async def start_duel(world, seed=7):
    alice, bruno = world.users[2], world.users[3]
    interaction = world.interaction(alice, world.channels[10])
    await interaction.response.defer(thinking=True)
    game = await world.bot.host.start(interaction, "duel", [str(alice.id), str(bruno.id)], seed=seed)
    return game


def start_prompt(world):
    return next(m for m in world.public() if m.view and "Who plays first" in (m.content or ""))


async def test_start_posts_public_prompt_and_private_hands_stay_private(bot, world):
    game = await start_duel(world)
    assert game.system == "duel" and game.version == 0
    first = start_prompt(world)
    assert world.body(first).startswith("<@2>")
    await click(world, first, world.users[2], index=0)             # "Alice starts"
    dm = world.last("dm:2", with_view=True)
    assert "Play a card" in dm.content
    state = (await bot.store.game(game.id)).state
    for card in state["hands"]["2"] + state["hands"]["3"]:
        assert f"Card {card}" not in world.public_text()


async def test_someone_elses_click_is_refused_and_changes_nothing(bot, world):
    game = await start_duel(world)
    interaction = await click(world, start_prompt(world), world.users[3], index=0)
    assert (await bot.store.game(game.id)).version == 0
    assert "not yours" in world.ephemeral(world.users[3])[-1].content
    assert interaction.response.is_done()


async def test_a_fresh_bot_over_the_same_file_resolves_an_old_button(tmp_path, bot, world):
    game = await start_duel(world)
    old_message = start_prompt(world)
    await bot.close()
    second = await make_bot(bot.config)
    try:
        world.attach(second)
        await click(world, old_message, world.users[2], index=1)   # "Bruno starts"
        record = await second.store.game(game.id)
        assert record.version == 1 and record.state["phase"] == "play" and record.state["turn"] == 1
        dm = world.last("dm:3", with_view=True)
        await click(world, dm, world.users[3], index=0)
        assert (await second.store.game(game.id)).version == 2
    finally:
        await second.close()


async def test_fifty_concurrent_clicks_apply_once(bot, world):
    game = await start_duel(world)
    message = start_prompt(world)
    await asyncio.gather(*(click(world, message, world.users[2], index=i % 2) for i in range(50)))
    record = await bot.store.game(game.id)
    assert record.version == 1
    assert len(await bot.store.actions(game.id, limit=100)) == 1
    refusals = [m for m in world.ephemeral(world.users[2]) if "already" in (m.content or "")]
    assert len(refusals) == 49


async def test_closed_dms_fall_back_to_hand_and_the_game_goes_on(bot, world):
    bruno = world.users[3]
    bruno.dm_closed = True
    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=1)   # Bruno starts
    assert bruno.dm_attempts == 1
    assert any("could not DM" in (m.content or "") and "<@3>" in m.content for m in world.public())
    assert await bot.store.dm_closed_since(1, 3) is not None
    # /hand shows his hand and the decision, ephemerally
    interaction = world.interaction(bruno, world.channels[10])
    await bot.get_cog("HandCog").hand.callback(bot.get_cog("HandCog"), interaction)
    private = world.ephemeral(bruno)
    state = (await bot.store.game(game.id)).state
    assert all(card in private[0].content for card in state["hands"]["3"])
    prompt_message = next(m for m in private if m.view is not None)
    await click(world, prompt_message, bruno, index=0, in_dm=False)
    assert (await bot.store.game(game.id)).version == 2
    # DMs are not retried on every event while remembered closed
    assert bruno.dm_attempts == 1


async def test_undo_restores_the_exact_state_rng_included(bot, world):
    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=0)
    before = (await bot.store.game(game.id)).state
    await click(world, world.last("dm:2", with_view=True), world.users[2], index=0)
    after = (await bot.store.game(game.id)).state
    assert after != before
    gm = world.users[1]
    interaction = world.interaction(gm, world.channels[10])
    cog = bot.get_cog("GameCog")
    await cog.undo.callback(cog, interaction, steps=1)
    restored = await bot.store.game(game.id)
    assert restored.state == before
    # replaying the same choice draws the same card: the RNG came back too
    await click(world, world.last("dm:2", with_view=True), world.users[2], index=0)
    assert (await bot.store.game(game.id)).state == after


async def test_undo_is_gm_only(bot, world):
    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=0)
    cog = bot.get_cog("GameCog")
    interaction = world.interaction(world.users[2], world.channels[10])
    try:
        await cog.undo.callback(cog, interaction, steps=1)
    except Exception as exc:  # the tree's error handler turns this into a reply
        from cogs.host.errors import friendly
        assert "Only a GM" in friendly(exc)
    else:
        raise AssertionError("a player could undo")
    assert (await bot.store.game(game.id)).version == 1


async def test_random_games_never_leak_private_text_into_channels(bot, world):
    """Many seeded games to the end by random legal clicks; no private event ever shows publicly."""
    import random

    picker = random.Random(1)
    for seed in range(8):
        world.sent.clear()
        game = await start_duel(world, seed=seed)
        while True:
            record = await bot.store.game(game.id)
            if not record.active:
                break
            from cogs.host import systems
            engine = systems.get("duel").engine
            prompt = engine.pending(engine.load_state(record.state))[0]
            user = world.users[int(prompt.player)]
            message = world.last(f"dm:{user.id}" if prompt.private else "channel:10", with_view=True)
            await click(world, message, user, index=picker.randrange(len(message.custom_ids())))
        public = world.public_text()
        say = Presenter("en", "duel")
        for action in await bot.store.actions(game.id, limit=100):
            for event in action.events:
                if event["audience"] != PUBLIC:
                    assert event["text"] == "" and say.event(event) not in public
        assert "Final score" in public and f"Game #{game.id} is over" in public
        view = engine.view_for(engine.load_state(record.state), PUBLIC)
        assert "hands" not in json.dumps(view) and "hand\"" not in json.dumps(view)


async def test_closed_dms_are_announced_once_not_on_every_private_prompt(bot, world):
    bruno = world.users[3]
    bruno.dm_closed = True
    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=1)          # Bruno's private prompt
    for _ in range(3):                                                        # three more turns each
        record = await bot.store.game(game.id)
        from cogs.host import systems
        engine = systems.get("duel").engine
        prompt = engine.pending(engine.load_state(record.state))[0]
        if prompt.player == "3":
            interaction = world.interaction(bruno, world.channels[10])
            await bot.get_cog("HandCog").hand.callback(bot.get_cog("HandCog"), interaction)
            message = next(m for m in reversed(world.ephemeral(bruno)) if m.view is not None)
            await click(world, message, bruno, index=0, in_dm=False)
        else:
            await click(world, world.last("dm:2", with_view=True), world.users[2], index=0)
    public = world.public_text()
    assert public.count("<@3>: I could not DM you") + public.count("<@3>: I can't DM you") == 1
    assert bruno.dm_attempts == 1


async def test_prompts_carry_an_image_drawn_from_their_recipients_view(bot, world):
    """A system's prompt_image goes with the buttons: public prompts from the public view, a private
    prompt from its player's own view (so a hand picture shows only that hand)."""
    from cogs.host import systems

    seen = []

    def picture(view, prompt):
        seen.append((prompt.player, prompt.private, sorted(view)))
        return (f"{prompt.kind}-{prompt.player}.png", b"\x89PNG fake")

    duel = systems.get("duel")
    duel.prompt_image = picture
    try:
        await start_duel(world)
        public = start_prompt(world)
        assert public.file is not None and public.file.filename == "start-2.png"
        await click(world, public, world.users[2], index=0)
        dm = world.last("dm:2", with_view=True)
        assert dm.file is not None and dm.file.filename == "play-2.png"
        assert seen[0] == ("2", False, sorted(["phase", "scores", "turn", "hand_sizes", "deck", "winner"]))
        assert seen[-1][0] == "2" and seen[-1][1] and "hand" in seen[-1][2] and "hands" not in seen[-1][2]
    finally:
        duel.prompt_image = None
