import json

import pytest

from tests.cogs.test_framework import start_duel, start_prompt
from tests.support.fakes import click
from tests.support.stores import BACKENDS


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    """These tests touch the store through the framework: run them on both backends."""
    return request.param


async def test_status_shows_public_view_and_reposts_public_prompts(bot, world):
    game = await start_duel(world)
    cog = bot.get_cog("GameCog")
    world.sent.clear()
    await cog.status.callback(cog, world.interaction(world.users[4], world.channels[10]))
    texts = world.public_text()
    assert f"game #{game.id}" in texts and "hand_sizes" in texts
    assert any(m.view for m in world.public())          # the start prompt again
    assert "hands" not in texts


async def test_log_shows_only_public_events(bot, world):
    await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=0)
    await click(world, world.last("dm:2", with_view=True), world.users[2], index=0)
    cog = bot.get_cog("GameCog")
    await cog.log.callback(cog, world.interaction(world.users[4], world.channels[10]), n=10)
    text = world.ephemeral(world.users[4])[-1].content
    assert "`#1`" in text and "`#2`" in text and "plays" in text
    assert "You draw" not in text and "(GM)" not in text


async def test_end_needs_every_player_or_a_gm(bot, world):
    game = await start_duel(world)
    cog = bot.get_cog("GameCog")
    await cog.end.callback(cog, world.interaction(world.users[4], world.channels[10]))
    assert "Only the players" in world.ephemeral(world.users[4])[-1].content
    await cog.end.callback(cog, world.interaction(world.users[2], world.channels[10]))
    assert (await bot.store.game(game.id)).active
    await cog.end.callback(cog, world.interaction(world.users[3], world.channels[10]))
    assert not (await bot.store.game(game.id)).active
    # a new game can start in the channel once the old one ended
    await start_duel(world)


async def test_export_gives_players_their_view_and_gms_everything(bot, world):
    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=0)
    cog = bot.get_cog("GameCog")
    await cog.export.callback(cog, world.interaction(world.users[3], world.channels[10]))
    sent = world.ephemeral(world.users[3])[-1]
    player_doc = json.loads(sent.file.fp.read())
    state = (await bot.store.game(game.id)).state
    assert player_doc["state"]["hand"] == state["hands"]["3"] and "hands" not in player_doc["state"]
    assert "action" not in player_doc["log"][0]
    await cog.export.callback(cog, world.interaction(world.users[1], world.channels[10]))
    gm_doc = json.loads(world.ephemeral(world.users[1])[-1].file.fp.read())
    assert gm_doc["state"] == state and gm_doc["log"][0]["action"]["type"] == "choose"


async def test_gm_role_and_rules(bot, world):
    from tests.support.fakes import FakeRole

    gm_cog = bot.get_cog("GMCog")
    role = FakeRole(77)
    # a plain member cannot set the GM role
    from discord import app_commands
    try:
        await gm_cog.role.callback(gm_cog, world.interaction(world.users[2], world.channels[10]), role=role)
    except app_commands.MissingPermissions:
        pass
    else:
        raise AssertionError("a member set the GM role")
    await gm_cog.role.callback(gm_cog, world.interaction(world.users[1], world.channels[10]), role=role)
    assert (await bot.store.settings(1)).gm_role_id == 77
    world.users[2].roles = [role]
    assert await bot.host.is_gm(world.interaction(world.users[2], world.channels[10]))
    # house rules: unknown key, wrong type, then a good one that new games receive
    alice = world.interaction(world.users[2], world.channels[10])
    await gm_cog.rules.callback(gm_cog, alice, game="duel", setting="nope", value="1")
    assert "no house rule" in world.ephemeral(world.users[2])[-1].content
    await gm_cog.rules.callback(gm_cog, world.interaction(world.users[2], world.channels[10]), game="duel",
                                setting="rounds", value="many")
    assert "takes a value of this kind: whole number." in world.ephemeral(world.users[2])[-1].content
    await gm_cog.rules.callback(gm_cog, world.interaction(world.users[2], world.channels[10]), game="duel",
                                setting="rounds", value="3")
    assert await bot.store.house_rules(1, "duel") == {"rounds": 3}


async def test_unexpected_errors_get_a_reference(bot, world):
    from cogs.host.errors import report_error

    interaction = world.interaction(world.users[2], world.channels[10])
    await report_error(interaction, RuntimeError("boom"))
    text = world.ephemeral(world.users[2])[-1].content
    assert text.startswith("Something went wrong (ref ") and "boom" not in text


