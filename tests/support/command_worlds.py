"""A server for the command property test: members (an admin, players, a bot), roles, channels, and
per command group a game already running at the table, so commands that need one get past "no game
here". Channel FREE_TABLE stays free: whatever an example starts there is ended before the next."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import SimpleNamespace

import discord

from content import sample_pack
from discord import app_commands
from discord.enums import AppCommandOptionType as T

from tests.support.fakes import (
    FakeHTTPResponse,
    FakeInteraction,
    FakeRole,
    FakeUser,
    World,
    click,
)

TABLE, GM_ROOM, FREE_TABLE = 10, 11, 12
GUILD = 1
MESSAGE_LIMIT, EMBED_LIMIT = 2000, 4096
PINGS = ("@everyone", "@here")


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


async def klash_match(bot, world) -> None:
    """A skirmish in the arena (the draft is tried at the free table by /klash draft itself)."""
    from rules.klash import ENGINE
    state = ENGINE.new_skirmish(["2", "3"], {"2": [("orc", 20, 60), ("javelin", 30, 80)],
                                             "3": [("dwarf", 100, 60), ("wolf", 60, 95)]}, seed=3, first="2",
                                options={"pack": sample_pack("klash")})
    state.hands = {"2": ["roar", "sand"], "3": ["water"]}
    await bot.store.create_game(GUILD, TABLE, "klash", ["2", "3"], ENGINE.dump_state(state), 2)


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


async def duel_waiting(bot, world) -> None:
    """A duel whose first decision is awaited with a deadline (the turn clock's row), for /turns and
    /profile (its absences move that deadline; its pings name that game)."""
    from datetime import timedelta

    from tests.support.waiting import await_from, pending
    game = await bot.host.start(_at_table(world, 2), "duel", ["2", "3"])
    await await_from(bot.store, game, pending(game)[0], period=timedelta(days=2))


CONTEXTS = {"karmic": karmic_combat, "karmic-advance": karmic_combat, "klash": klash_match,
            "carnevale-game": carnevale_game, "carnevale-table": carnevale_game, "cz": carnival_zombie_table,
            "game": duel_game, "hand": duel_game, "profile": duel_waiting, "turns": duel_waiting}


# ---------------------------------------------------------------------------- the app-command path
class FakeAttachment:
    """What discord.py hands a command for an attachment option (only what the cogs use)."""

    def __init__(self, filename: str, data: bytes, size: int | None = None):
        self.id = 99
        self.filename = filename
        self.size = len(data) if size is None else size
        self.content_type = None
        self.url = f"https://cdn.example/{filename}"
        self._data = data

    async def read(self, *, use_cached: bool = False) -> bytes:
        return self._data


PASS_THROUGH = {T.user, T.role, T.channel, T.mentionable, T.attachment}   # Discord resolves these


def too_long() -> discord.HTTPException:
    return discord.HTTPException(FakeHTTPResponse(400, "Bad Request"),
                                 {"code": 50035, "message": "Invalid Form Body: content too long"})


class Traced:
    """Discord's side of the sends, for the checks: sizes (50035 past the limits), who got pinged."""

    def __init__(self, world, bot):
        self.world, self.bot = world, bot
        self.sends: list[dict] = []
        self.pings: list[str] = []
        original = world.record

        def record(where, content=None, **kwargs):
            self.check(where, content, kwargs)
            return original(where, content, **kwargs)

        world.record = record

    def close(self) -> None:
        """Stop watching: the world records as before."""
        self.world.record = type(self.world).record.__get__(self.world)

    def check(self, where, content, kwargs) -> None:
        text = "" if content is None else str(content)
        embed = kwargs.get("embed")
        description = getattr(embed, "description", None) or ""
        if len(text) > MESSAGE_LIMIT or len(description) > EMBED_LIMIT:
            self.sends.append({"where": where, "rejected": len(text)})
            raise too_long()
        allowed = self.bot.allowed_mentions or discord.AllowedMentions.all()
        if kwargs.get("allowed_mentions") is not None:
            allowed = allowed.merge(kwargs["allowed_mentions"])
        body = text + " " + description
        if allowed.everyone is not False and any(p in body for p in PINGS):
            self.pings.append(f"{where}: {text[:80]!r}")
        if allowed.roles is not False and "<@&" in body:
            self.pings.append(f"{where}: {text[:80]!r}")
        self.sends.append({"where": where, "length": len(text)})


class TracedInteraction(FakeInteraction):
    """A slash-command interaction whose answers are counted (Discord refuses one over the limits)."""

    def __init__(self, world, user, channel, command, values):
        super().__init__(world, user, channel, guild=world.guild)
        self.command = command
        self.namespace = SimpleNamespace(**values)
        self.answers: list[tuple[bool, str]] = []          # (ephemeral, text) accepted by "Discord"
        self.type = discord.InteractionType.application_command
        response, followup = self.response, self.followup
        send_message, followup_send = response.send_message, followup.send

        async def respond(content=None, *, ephemeral: bool = False, **kwargs):
            if content is not None and len(str(content)) > MESSAGE_LIMIT:
                raise too_long()        # Discord rejects it; the interaction stays unanswered
            sent = await send_message(content, ephemeral=ephemeral, **kwargs)
            self.answers.append((sent.ephemeral, str(content or "")))
            return sent

        async def follow(content=None, *, ephemeral: bool = False, **kwargs):
            sent = await followup_send(content, ephemeral=ephemeral, **kwargs)
            self.answers.append((sent.ephemeral, str(content or "")))
            return sent

        async def autocomplete(choices):
            response._claim()
            self.extras["autocomplete"] = list(choices)

        response.send_message, followup.send, response.autocomplete = respond, follow, autocomplete

    async def edit_original_response(self, **kwargs):
        if len(str(kwargs.get("content") or "")) > MESSAGE_LIMIT:
            raise too_long()
        await super().edit_original_response(**kwargs)
        self.answers.append((bool(self.response.deferred and self.response.deferred.ephemeral),
                             str(kwargs.get("content") or "")))


async def invoke(bot, command: app_commands.Command, interaction: TracedInteraction, values: dict) -> None:
    """What `CommandTree._call` does once Discord's data is resolved into `values`."""
    try:
        if not await bot.tree.interaction_check(interaction):
            interaction.command_failed = True
            return
        if not await command._check_can_run(interaction):
            raise app_commands.CheckFailure(f"The check functions for command {command.name!r} failed.")
        params = {}
        for param in command._params.values():
            if param.display_name not in values:
                params[param.name] = param.default
            elif param.type in PASS_THROUGH:
                params[param.name] = values[param.display_name]
            else:
                params[param.name] = await param.transform(interaction, values[param.display_name])
        await command._do_call(interaction, params)
    except app_commands.AppCommandError as error:
        interaction.command_failed = True
        await command._invoke_error_handlers(interaction, error)
        await bot.tree.on_error(interaction, error)


def command_at(bot, path: str) -> app_commands.Command:
    """The command of a path as users type it: "karmic combat nudge"."""
    first, *rest = path.split()
    command = bot.tree.get_command(first)
    for name in rest:
        command = command.get_command(name)
    return command


async def slash(bot, world: World, path: str, user_id: int, channel: int = FREE_TABLE, **values) -> TracedInteraction:
    """Run one slash command the way Discord delivers it (option values already resolved)."""
    command = command_at(bot, path)
    interaction = TracedInteraction(world, world.users[user_id], world.channels[channel], command, values)
    traced = Traced(world, bot)
    try:
        await invoke(bot, command, interaction, values)
    finally:
        traced.close()
    interaction.traced = traced
    return interaction
