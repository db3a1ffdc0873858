"""A server for the command property test: members (an admin, players, a bot), roles, channels, and
per command group a game already running at the table, so commands that need one get past "no game
here". Channel FREE_TABLE stays free: whatever an example starts there is ended before the next."""
from __future__ import annotations

from typing import Awaitable, Callable

from tests.support.fakes import FakeRole, FakeUser, World, click

TABLE, GM_ROOM, FREE_TABLE = 10, 11, 12
GUILD = 1


async def build_world(bot, context: Callable[[object, World], Awaitable[None]] | None = None) -> World:
    world = World(bot, guild_id=GUILD)
    world.channel(TABLE, "table")
    world.channel(GM_ROOM, "gm-room")
    world.channel(FREE_TABLE, "free-table")
    world.user(1, "Owner", admin=True)
    world.user(2, "Alice")
    world.user(3, "Bruno")
    world.user(4, "Carla")
    robot: FakeUser = world.user(5, "Robot")
    robot.bot = True
    everyone = FakeRole(GUILD, "@everyone")
    gm = FakeRole(345678901234567890, "GM")
    world.guild.roles = {everyone.id: everyone, gm.id: gm}
    world.users[4].roles = [gm]
    await bot.store.update_settings(GUILD, gm_channel_id=GM_ROOM, gm_role_id=gm.id)
    if context is not None:
        await context(bot, world)
    world.sent.clear()
    return world


def _at_table(world, user_id: int):
    return world.interaction(world.users[user_id], world.channels[TABLE])


async def karmic_combat(bot, world) -> None:
    cog = bot.get_cog("KarmicCog")
    pack, new = await cog._pack(GUILD, None), {}
    await cog._player_character(_at_table(world, 3), world.users[3], "Mara", pack, new)
    await cog._player_character(_at_table(world, 4), world.users[4], "Enris", pack, new)
    await cog._save_new(GUILD, new)
    await cog.combat_start.callback(cog, _at_table(world, 2), opponents="Soldier", character="Devon")


async def klash_draft(bot, world) -> None:
    cog = bot.get_cog("KlashCog")
    await cog.draft.callback(cog, _at_table(world, 2), opponent=world.users[3])


async def carnevale_game(bot, world) -> None:
    cog = bot.get_cog("CarnevaleCog")
    await cog.game_start.callback(cog, _at_table(world, 2), opponent=world.users[3], deploy_all=True)


async def carnival_zombie_table(bot, world) -> None:
    cog = bot.get_cog("CarnivalZombieCog")
    await cog.start.callback(cog, _at_table(world, 2), difficulty="easy")
    lobby = world.last(f"channel:{TABLE}", with_view=True)
    await click(world, lobby, world.users[3], index=0)
    await click(world, world.last(f"channel:{TABLE}", with_view=True), world.users[2], index=2)


async def duel_game(bot, world) -> None:
    await bot.host.start(_at_table(world, 2), "duel", ["2", "3"])


CONTEXTS = {"karmic": karmic_combat, "karmic-advance": karmic_combat, "klash": klash_draft,
            "carnevale-game": carnevale_game, "carnevale-table": carnevale_game, "cz": carnival_zombie_table,
            "game": duel_game, "hand": duel_game}
