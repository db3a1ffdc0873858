"""Trust at the edges: no message pings everyone, here or a role; secret rolls stay secret (in
statistics too) and reach the GMs; /game log shows the newest actions and hides secret actors;
refusals stay private; /gm forget leaves nothing in the database files."""
from __future__ import annotations

import json

import pytest

from cogs.host.errors import report_error
from cogs.host.text import echo, newest
from tests.cogs.test_framework import start_duel, start_prompt
from tests.support.fakes import FakeRole

EVERYONE_ROLE = "<@&123456789012345678>"      # a real-looking role mention (ids are 17-20 digits)
PINGS = ["@everyone", "@here", EVERYONE_ROLE]


async def call(world, cog, command, member, /, **kwargs):
    """Run a slash command in the table channel as discord.py does: an error goes to the tree's
    error reply."""
    interaction = world.interaction(member, world.channels[10])
    try:
        await command.callback(cog, interaction, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the tree's error handler does this in production
        await report_error(interaction, exc)
    return interaction


def assert_inert(text: str) -> None:
    """No live @everyone, @here or role mention left in `text`."""
    assert "@everyone" not in text and "@here" not in text and EVERYONE_ROLE not in text


# ---------------------------------------------------------------------------- 1. mentions
def test_echo_neutralises_mentions_keeps_one_line_and_caps_the_length():
    assert echo("@everyone look") == "@\u200beveryone look"
    assert echo(f"{EVERYONE_ROLE} and <@123456789012345678>") == \
        "<@\u200b&123456789012345678> and <@\u200b123456789012345678>"
    assert echo("two\nlines  here") == "two lines here"
    assert echo("x" * 150) == "x" * 99 + "…" and len(echo("x" * 150, limit=20)) == 20


def test_bot_sets_safe_allowed_mentions_globally(bot):
    mentions = bot.allowed_mentions.to_dict()
    assert mentions == {"parse": ["users"]}                 # no everyone/here, no roles, no reply ping


@pytest.mark.parametrize("label", PINGS)
async def test_roll_label_cannot_ping(bot, world, label):
    cog = bot.get_cog("DiceCog")
    await call(world, cog, cog.roll_command, world.users[2], expression="1d6", secret=False, label=label)
    message = world.public()[-1]
    assert message.content.startswith("🎲 <@2> — *") and ": 1d6 (" in message.content
    assert_inert(message.content)
    assert world.mass_pings() == []
    # a secret roll's public notice echoes the label too
    await call(world, cog, cog.roll_command, world.users[2], expression="1d6", secret=True, label=label)
    assert world.public()[-1].content.startswith("🤫 <@2> made a secret roll (")
    assert_inert(world.public_text())
    assert world.mass_pings() == []


async def test_carnevale_roll_and_opposed_labels_cannot_ping(bot, world):
    cog = bot.get_cog("CarnevaleCog")
    await call(world, cog, cog.roll, world.users[2], pool=3, label="@everyone")
    await call(world, cog, cog.opposed, world.users[2], opponent=world.users[3], pool=2, their_pool=2,
               label=EVERYONE_ROLE)
    texts = [m.content for m in world.public()]
    assert len(texts) == 2 and "@\u200beveryone" in texts[0] and "<@\u200b&123456789012345678>" in texts[1]
    assert_inert(world.public_text())
    assert world.mass_pings() == []


async def test_carnevale_game_roll_label_cannot_ping(bot, world, monkeypatch):
    from tests.cogs.test_carnevale import GUILD, RASHAAR, build, start_game

    cog = bot.get_cog("CarnevaleCog")
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", GUILD)
    await start_game(bot, world, monkeypatch, 7)
    await call(world, cog, cog.game_roll, world.users[2], pool=3, label="@here")
    assert "@\u200bhere" in world.public_text()
    assert_inert(world.public_text())
    assert world.mass_pings() == []


async def test_karmic_check_skill_cannot_ping(bot, world, seed):
    from tests.cogs.test_karmic import import_sheet

    alice = world.users[2]
    await import_sheet(bot, world, alice)
    cog = bot.get_cog("KarmicCog")
    await call(world, cog, cog.check, alice, skill="@everyone")
    game = await bot.store.game(1)          # (a one-card hand is played at once: the check may be over)
    assert game is not None and game.state["check"]["sides"][0]["skill"] == "@\u200beveryone"
    assert_inert(world.public_text())
    assert world.mass_pings() == []


async def test_no_message_of_a_played_game_could_ping_everyone_or_a_role(bot, world):
    await start_duel(world)
    from tests.support.fakes import click
    await click(world, start_prompt(world), world.users[2], index=0)
    await click(world, world.last("dm:2", with_view=True), world.users[2], index=0)
    assert len(world.sent) > 3 and world.mass_pings() == []


async def test_game_status_names_the_players_without_pinging_them(bot, world):
    await start_duel(world)
    cog = bot.get_cog("GameCog")
    world.sent.clear()
    await call(world, cog, cog.status, world.users[4])
    status = next(m for m in world.public() if "Players: <@2>, <@3>" in (m.content or ""))
    assert status.allowed_mentions.to_dict() == {"parse": []}


# ---------------------------------------------------------------------------- 2. roll statistics
async def test_secret_rolls_never_count_in_statistics_others_read(bot, world, monkeypatch):
    carla, dave = world.users[4], world.user(5, "Dave")
    dice = bot.get_cog("DiceCog")
    await call(world, dice, dice.roll_command, carla, expression="1d1000", secret=True, label=None)
    await call(world, dice, dice.rollstats, dave, user=carla)
    assert world.ephemeral(dave)[-1].content == "<@4> has not rolled here yet."
    await call(world, dice, dice.roll_command, carla, expression="1d6", secret=False, label=None)
    public_total = (await bot.store._one("SELECT total FROM roll_log WHERE secret = 0"))["total"]
    await call(world, dice, dice.rollstats, dave, user=carla)
    seen = world.ephemeral(dave)[-1].content
    assert seen.startswith("<@4> has rolled once here.")
    assert f"{public_total - 3.5:+.2f} from the average" in seen and "`1d6` ×1" in seen
    assert "1d1000" not in seen and "secret" not in seen
    # the roller's own statistics, shown only to her, count the secret roll
    await call(world, dice, dice.rollstats, carla, user=None)
    mine = world.ephemeral(carla)[-1]
    assert mine.ephemeral and mine.content.startswith("<@4> has rolled 2 times here (1 secret).")
    assert "`1d1000` ×1" in mine.content


async def test_store_roll_stats_can_leave_secret_rolls_out(tmp_path):
    from db.store import Store

    store = await Store.open(tmp_path / "b.sqlite3")
    await store.log_roll(1, 10, 4, "1d1000", 899, expected=500.5, variance=(1000**2 - 1) / 12, secret=True)
    await store.log_roll(1, 10, 4, "1d6", 5, expected=3.5, variance=35 / 12)
    public = await store.roll_stats(1, 4, include_secret=False)
    assert (public.rolls, public.secret, public.plain, public.mean_offset) == (1, 0, 1, 1.5)
    assert public.by_expression == [("1d6", 1)]
    everything = await store.roll_stats(1, 4)
    assert (everything.rolls, everything.secret, everything.mean_offset) == (2, 1, (398.5 + 1.5) / 2)
    await store.close()


# ---------------------------------------------------------------------------- 9. /game log
async def test_game_log_shows_the_newest_actions_within_2000_characters(bot, world):
    game = await start_duel(world)
    for n in range(1, 25):
        text = f"<@2> picks lot {n}: " + "a gladiator with a long and colourful description " * 2
        game = await bot.store.commit_action(game, "2", {"type": "pick", "n": n}, game.state,
                                             [{"kind": "pick", "text": text, "audience": "public"}])
    cog = bot.get_cog("GameCog")
    await call(world, cog, cog.log, world.users[4], n=50)
    text = world.ephemeral(world.users[4])[-1].content
    assert len(text) <= 2000
    shown = [int(line.split("`#")[1].split("`")[0]) for line in text.splitlines() if line.startswith("`#")]
    assert shown[-1] == 24 and shown == list(range(shown[0], 25)) and len(shown) >= 14
    assert f"{shown[0] - 1} older actions" in text


def test_newest_keeps_the_last_lines_in_order():
    lines = [f"line {n} " + "x" * 50 for n in range(1, 101)]
    out = newest("Header", lines, limit=500, older=lambda n: f"{n} older")
    assert len(out) <= 500 and out.splitlines()[-1].startswith("line 100 ")
    assert out.splitlines()[1] == f"{100 - len(out.splitlines()) + 2} older"
    assert newest("H", ["a", "b"], limit=500, older=lambda n: f"{n} older") == "H\na\nb"


# ---------------------------------------------------------------------------- 10. refusals stay private
@pytest.mark.parametrize("command", ["status", "undo"])
async def test_no_game_refusals_are_private(bot, world, command):
    cog = bot.get_cog("GameCog")
    interaction = await call(world, cog, getattr(cog, command), world.users[1])
    assert world.public() == []
    assert interaction.response.deferred is None or interaction.response.deferred.ephemeral
    assert "no game in progress" in world.ephemeral(world.users[1])[-1].content


async def test_nothing_to_undo_is_a_private_refusal(bot, world):
    await start_duel(world)
    cog = bot.get_cog("GameCog")
    before = len(world.public())
    interaction = await call(world, cog, cog.undo, world.users[1])
    assert len(world.public()) == before
    assert interaction.response.deferred is None or interaction.response.deferred.ephemeral
    assert world.ephemeral(world.users[1])[-1].content == "There is nothing to undo."


@pytest.mark.parametrize("locale, undo, busy", [
    ("it", "Non c'è niente da annullare.", "In questo canale c'è già una partita in corso: chiudila con `/partita fine`"),
    ("es-ES", "No hay nada que deshacer.", "Este canal ya tiene una partida en curso: termínala con `/partida terminar`"),
])
async def test_the_stores_refusals_are_worded_in_the_readers_language(bot, world, locale, undo, busy):
    """The store refuses with a code (db/records.StoreError), worded by the catalogues: an
    Italian GM reads Italian, not the store's English."""
    await start_duel(world)
    world.locale = locale
    cog = bot.get_cog("GameCog")
    await call(world, cog, cog.undo, world.users[1])
    assert world.ephemeral(world.users[1])[-1].content == undo
    host = bot.host
    interaction = world.interaction(world.users[1], world.channels[10])
    try:
        await host.start(interaction, "duel", ["1", "2"])
    except Exception as exc:  # noqa: BLE001 - the tree's error handler does this in production
        await report_error(interaction, exc)
    assert world.ephemeral(world.users[1])[-1].content.startswith(busy)
    # a store error without a code is a bug: no English text of the store's reaches the player
    from cogs.host.errors import friendly
    from db.store import StoreError
    assert friendly(StoreError("game 7 vanished right after it was written"), locale) is None


async def test_undo_still_posts_in_public_and_closes_privately(bot, world):
    from tests.support.fakes import click

    game = await start_duel(world)
    await click(world, start_prompt(world), world.users[2], index=0)
    cog = bot.get_cog("GameCog")
    await call(world, cog, cog.undo, world.users[1])
    assert (await bot.store.game(game.id)).state["phase"] == "start"
    assert "<@1> undid 1 action." in world.public_text()
    assert world.ephemeral(world.users[1])[-1].content == "✓ Done."


# ---------------------------------------------------------------------------- 11. secret rolls reach the GMs
async def gm_role(bot, world, *members):
    role = FakeRole(77)
    world.guild.roles[77] = role
    await bot.store.update_settings(1, gm_role_id=77)
    dice = bot.get_cog("DiceCog")
    for member in members:
        member.roles = [role]
        await dice.on_interaction(world.interaction(member, world.channels[10]))    # seen using the bot
    return role


async def secret_roll(bot, world, user, label="stealth"):
    dice = bot.get_cog("DiceCog")
    return await call(world, dice, dice.roll_command, user, expression="1d20", secret=True, label=label)


async def test_a_secret_roll_reaches_every_gm_role_member_fetched_not_cached(bot, world):
    bruno, carla = world.users[3], world.users[4]
    await gm_role(bot, world, bruno, carla)
    assert world.guild.roles[77].members == []                 # nobody in the cache
    await secret_roll(bot, world, world.users[2])
    for gm in (bruno, carla):
        assert "Secret roll in <#10>:" in world.dms(gm)[-1].content and "*stealth*" in world.dms(gm)[-1].content
    assert sorted(world.guild.fetched) == [3, 4] and world.dms(world.users[1]) == []
    assert not any("No GM" in (m.content or "") for m in world.ephemeral(world.users[2]))


async def test_the_owners_secret_roll_reaches_the_gm(bot, world):
    await gm_role(bot, world, world.users[3])
    await secret_roll(bot, world, world.users[1])
    assert "Secret roll" in world.dms(world.users[3])[-1].content


async def test_known_gms_survive_a_restart_and_a_lost_role_stops_the_dms(bot, world):
    from tests.conftest import make_bot

    bruno, carla = world.users[3], world.users[4]
    await gm_role(bot, world, bruno, carla)
    await bot.close()
    second = await make_bot(bot.config.db_path)
    try:
        world.attach(second)
        carla.roles = []                                        # the role was taken from Carla
        dice = second.get_cog("DiceCog")
        await call(world, dice, dice.roll_command, world.users[2], expression="1d20", secret=True, label=None)
        assert "Secret roll" in world.dms(bruno)[-1].content and world.dms(carla) == []
    finally:
        await second.close()


async def test_the_gm_channel_gets_the_roll_and_no_dm_goes_out(bot, world):
    await gm_role(bot, world, world.users[3])
    await bot.store.update_settings(1, gm_channel_id=11)
    await secret_roll(bot, world, world.users[2])
    assert "Secret roll" in world.last("channel:11").content and world.dms(world.users[3]) == []


async def test_without_any_reachable_gm_the_roller_is_told(bot, world):
    owner = world.users[1]
    owner.dm_closed = True                                      # no GM role; the owner's DMs are closed
    interaction = await secret_roll(bot, world, world.users[2])
    told = world.ephemeral(world.users[2])[-1]
    assert told.content.startswith("No GM could be told about this secret roll")
    assert interaction.followups_sent >= 1 and owner.dm_attempts == 1
    # the owner's own secret roll with nobody else to tell
    await secret_roll(bot, world, owner)
    assert world.ephemeral(owner)[-1].content.startswith("No GM could be told about this secret roll")


async def test_a_gm_with_closed_dms_falls_back_to_the_owner(bot, world):
    await gm_role(bot, world, world.users[3])
    world.users[3].dm_closed = True
    await secret_roll(bot, world, world.users[2])
    assert "Secret roll" in world.dms(world.users[1])[-1].content
    assert not any("No GM" in (m.content or "") for m in world.ephemeral(world.users[2]))


def test_the_dice_cog_listens_to_interactions(bot):
    names = [name for name, _ in bot.get_cog("DiceCog").get_listeners()]
    assert "on_interaction" in names


# ---------------------------------------------------------------------------- 12. hidden actors
async def test_a_hidden_gm_action_does_not_name_its_actor_to_players(bot, world, seed):
    from tests.cogs.test_karmic import import_sheet

    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, alice)
    karmic = bot.get_cog("KarmicCog")
    await call(world, karmic, karmic.check, alice, skill="tracking")
    await call(world, karmic, karmic.gm_modifier, gm, value=-3, hidden=True)
    game = await bot.store.active_game(1, 10)
    assert [a.actor for a in await bot.store.actions(game.id)] == ["1"]
    cog = bot.get_cog("GameCog")
    await call(world, cog, cog.log, alice, n=10)
    log = world.ephemeral(alice)[-1].content
    assert "`#1`" in log and "<@1>" not in log and "hidden action" in log
    await call(world, cog, cog.export, alice)
    document = json.loads(world.ephemeral(alice)[-1].file.fp.read())
    assert [entry["actor"] for entry in document["log"]] == [None]
    assert "Hidden modifier" not in json.dumps(document)
    # the GM still sees who did it
    await call(world, cog, cog.export, gm)
    assert [e["actor"] for e in json.loads(world.ephemeral(gm)[-1].file.fp.read())["log"]] == ["1"]
    await call(world, cog, cog.log, gm, n=10)
    assert "`#1` <@1>" in world.ephemeral(gm)[-1].content


# ---------------------------------------------------------------------------- 14. forget leaves no trace
async def test_gm_forget_leaves_the_text_in_neither_the_database_nor_its_wal(bot, world):
    needle = "Zanzibar-Quokka-7731"
    store = bot.store
    await store.save_pack(1, "karmic", needle, f"characters: [{{name: {needle}}}]", 1)
    await store.save_character(1, 2, "karmic", needle, {"note": needle * 20})
    await store.log_roll(1, 10, 2, "1d6", 3, label=needle)
    game = await store.create_game(1, 10, "duel", ["2", "3"], {"secret": needle}, 2)
    await store.commit_action(game, "2", {"say": needle}, {"secret": needle}, [{"text": needle, "audience": "2"}])
    path = bot.config.db_path

    def on_disk() -> bytes:
        data = b""
        for suffix in ("", "-wal"):
            try:
                with open(path + suffix, "rb") as handle:
                    data += handle.read()
            except FileNotFoundError:
                pass
        return data

    assert needle.encode() in on_disk()
    gm = bot.get_cog("GMCog")
    await call(world, gm, gm.forget, world.users[1], confirm="Test Server")
    assert world.ephemeral(world.users[1])[-1].content.startswith("Done: Bauta has forgotten")
    assert needle.encode() not in on_disk()
    assert await store.packs(1) == [] and await store.games(1) == []
