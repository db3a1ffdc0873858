"""Carnival Zombie through the cog layer: fake interactions, a real SQLite file, a restart mid-Night,
the live board, the traitor's secrets and closed DMs."""
from __future__ import annotations

import io
import random
import sys

import pytest
from PIL import Image

from db.store import ChannelBusy
from i18n.present import Presenter
from cogs.carnival_zombie import LIVE, NAME
from rules.carnival_zombie import ENGINE, census
from content import sample_text
from rules.common import GM, PUBLIC, BautaError, IllegalAction, NotYourTurn
from tests.conftest import make_bot
from tests.rules.carnival_zombie.policies import sensible_policy
from tests.support.fakes import click

SAY = Presenter("en", "carnival_zombie")

TABLE = "channel:10"




# ------------------------------------------------------------------------------ helpers
def cog_of(bot):
    return bot.get_cog("CarnivalZombieCog")


def table_text(world) -> str:
    return "\n".join(text for m in world.sent if m.where == TABLE for text in m.texts())


def png_of(message) -> Image.Image:
    fp = message.file.fp
    fp.seek(0)
    data = fp.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


async def open_table(bot, world, players, difficulty="medium", **options):
    """`/cz start`, everyone joins, the host starts; returns the game record."""
    host = players[0]
    cog = cog_of(bot)
    await cog.start.callback(cog, world.interaction(host, world.channels[10]), difficulty=difficulty, **options)
    lobby = world.last(TABLE, with_view=True)
    assert "Join" in lobby.texts() and "Start" in lobby.texts()
    for player in players[1:]:
        await click(world, lobby, player, index=0)
        lobby = world.last(TABLE, with_view=True)
    await click(world, lobby, host, index=2)
    game = await bot.store.active_game(1, 10)
    assert game is not None and game.system == NAME
    assert game.seats == [str(p.id) for p in players]
    return game


async def state_of(bot, game_id):
    record = await bot.store.game(game_id)
    return record, ENGINE.load_state(record.state)


def prompt_message(world, prompt_id: str):
    for message in reversed(world.sent):
        if message.where == TABLE and message.view is not None and not message.deleted:
            if any(cid.split(":")[3] == prompt_id for cid in message.custom_ids() if cid.count(":") >= 3):
                return message
    raise LookupError(f"no message carries prompt {prompt_id}")


async def answer(bot, world, game_id: int, pick) -> tuple:
    """Answer the pending prompt by clicking its public message as its player; returns (prompt, option id)."""
    _record, state = await state_of(bot, game_id)
    prompt = ENGINE.pending(state)[0]
    assert not prompt.private
    message = prompt_message(world, prompt.id)
    assert world.body(message).startswith(f"<@{prompt.player}>")      # the player who must act comes first
    option = pick(state, prompt)
    index = [o.id for o in prompt.options].index(option)
    user = world.users[int(prompt.player)]
    if message.custom_ids()[0].startswith("bauta:s:"):
        await click(world, message, user, index=0, values=[f"#{index}"])
    else:
        await click(world, message, user, index=index)
    return prompt, option


def board_png(state) -> bytes:
    """The board the table sees: the public view with its words (English here)."""
    from cogs.carnival_zombie import image_words, render
    view = ENGINE.view_for(state, PUBLIC)
    return render({**view, "words": image_words(SAY, view)})


def live_boards(world):
    return [m for m in world.sent if m.where == TABLE and m.file is not None and "Live board" in (m.content or "")
            and not m.deleted]


def errors_shown(world) -> list[str]:
    return [m.content for m in world.sent if m.where.startswith("ephemeral:") and "went wrong" in (m.content or "")]


# ------------------------------------------------------------------------------ the lobby and setup
async def test_start_opens_a_lobby_and_the_setup_prompt_swaps_and_orders(bot, world, seed):
    alice, bruno, carla = world.users[2], world.users[3], world.users[4]
    game = await open_table(bot, world, [alice, bruno, carla], difficulty="easy")
    assert "is over" not in table_text(world)            # the lobby's Start announces the game, not an ending
    _record, state = await state_of(bot, game.id)
    assert state.difficulty == "easy" and state.scenario == "campaign"
    owners = [ch.controller for ch in state.characters]
    assert sorted(owners) == ["2", "2", "3", "3", "4", "4"]                 # 3 players: 2 Characters each
    setup = world.last(TABLE, with_view=True)
    assert world.body(setup).startswith("<@2>") and "Activation Order" in setup.content
    # swap: the first Character goes to the Group
    await answer(bot, world, game.id, lambda s, p: "swap")
    first = state.characters[0].id
    await answer(bot, world, game.id, lambda s, p: first)
    await answer(bot, world, game.id, lambda s, p: "group")
    _record, state = await state_of(bot, game.id)
    assert state.characters[0].controller == ""
    assert "is now played by the Group" in table_text(world)
    # Activation Order chosen by the players: the last Character first
    await answer(bot, world, game.id, lambda s, p: "order")
    last = state.characters[-1].id
    await answer(bot, world, game.id, lambda s, p: last)
    while ENGINE.pending((await state_of(bot, game.id))[1])[0].id.startswith("order_pick"):
        await answer(bot, world, game.id, lambda s, p: p.options[0].id)
    _record, state = await state_of(bot, game.id)
    assert state.characters[0].id == last and state.characters[0].order == 1
    await answer(bot, world, game.id, lambda s, p: "start")
    _record, state = await state_of(bot, game.id)
    assert state.phase == "story"
    assert not errors_shown(world)


async def test_start_checks_its_options_and_the_scenario_minimum(bot, world):
    cog = cog_of(bot)
    with pytest.raises(BautaError, match="Known"):
        await cog.start.callback(cog, world.interaction(world.users[2], world.channels[10]), difficulty="easy",
                                 scenario="nope")
    with pytest.raises(BautaError, match="pack"):
        await cog.start.callback(cog, world.interaction(world.users[2], world.channels[10]), difficulty="easy",
                                 pack="missing")
    refused = world.interaction(world.users[2], world.channels[10])
    with pytest.raises(BautaError, match="Difficulty"):
        await cog.start.callback(cog, refused, difficulty="extreme")
    assert not refused.response.is_done()       # nothing sent before the check: the refusal is private
    assert await bot.store.active_game(1, 10) is None
    # Just a Matter of Time needs 3 players: the lobby refuses to start with 1
    await cog.start.callback(cog, world.interaction(world.users[2], world.channels[10]), difficulty="easy",
                             scenario="jmot")
    await click(world, world.last(TABLE, with_view=True), world.users[2], index=2)
    assert "at least 3" in world.ephemeral(world.users[2])[-1].content
    assert (await bot.store.active_game(1, 10)).system == "lobby"


async def test_a_guild_pack_is_offered_and_played(bot, world, seed):
    text = sample_text("carnival_zombie")
    await bot.store.save_pack(1, NAME, "our-box", text, 1)
    cog = cog_of(bot)
    interaction = world.interaction(world.users[2], world.channels[10])
    choices = await cog._pack_choices(interaction, "our")
    assert [c.value for c in choices] == ["our-box"]
    game = await open_table(bot, world, [world.users[2]], pack="our-box", scenario="plague")
    _record, state = await state_of(bot, game.id)
    assert state.pack is not None and state.scenario == "plague"
    assert "pack our-box" in table_text(world)


# ------------------------------------------------------------------------------ one full Night, with a restart
async def test_one_full_night_through_the_cog_with_a_restart_in_the_middle(tmp_path, bot, world, seed):
    seed(5)
    alice, bruno = world.users[2], world.users[3]
    game = await open_table(bot, world, [alice, bruno], difficulty="medium", quick="night")
    policy = sensible_policy(random.Random(5))
    kinds: list[str] = []
    clock = []
    second = None
    try:
        restarted = False
        for _ in range(400):
            record, state = await state_of(world.bot, game.id)
            assert census(state)["total"] == 195
            clock.append(ENGINE.clock_ordinal(state))
            if state.over or (state.phase == "day"):
                break
            if not restarted and state.night and state.night.hour == 2:
                # Kill the bot between two actions: a new one over the same file continues from the
                # message the first bot posted.
                before = record.version
                await bot.close()
                second = await make_bot(bot.config.db_path)
                world.attach(second)
                restarted = True
                record, state = await state_of(second, game.id)
                assert record.version == before and ENGINE.pending(state)
            prompt, _option = await answer(world.bot, world, game.id, policy)
            kinds.append(prompt.kind)
        else:
            raise AssertionError("the Night did not end")
        assert restarted
        record, state = await state_of(world.bot, game.id)
        assert state.phase == "day" or state.over, state.phase
        assert clock == sorted(clock)                                   # the Clock only moves forward
        assert {"barricades", "enter", "act"} <= set(kinds)
        # the whole Night lived in ONE live table message, edited step after step (across the restart
        # too) and moved to the foot of the channel when the turn passed to another player
        boards = live_boards(world)
        posted = [m for m in world.sent if m.id in world.tables() and "Live board" in (m.content or "")]
        assert len(boards) == 1 and len(posted) < len(kinds) // 2
        night_png = png_of(boards[0])
        assert night_png.width == 760 and night_png.height > 640           # tactical map + strip
        # the channel got the narration of the Infected and the Bosses
        text = table_text(world)
        assert "Night Hour" in text or "Hour" in text
        assert not errors_shown(world)
        if not state.over:
            # Day again: a fresh Venice map with the strip, and the live board is retired
            day = [m for m in world.sent if m.where == TABLE and m.file is not None and "Venice" in (m.content or "")]
            assert day and png_of(day[-1]).height > 560
            assert LIVE not in record.meta
    finally:
        if second is not None:
            await second.close()


async def test_honour_mode_asks_the_dropper_and_status_reposts_the_live_board(bot, world, seed):
    await bot.store.set_house_rule(1, NAME, "pile_mode", "honour")
    alice = world.users[2]
    game = await open_table(bot, world, [alice], difficulty="easy", quick="night")
    policy = sensible_policy(random.Random(2))
    seen = set()
    for _ in range(200):
        _record, state = await state_of(bot, game.id)
        if state.over or state.phase == "day" or "pile_honour" in seen:
            break
        prompt, _ = await answer(bot, world, game.id,
                                 lambda s, p: "f1" if p.id.startswith("pile_honour") else policy(s, p))
        seen.add(prompt.kind)
    assert "pile_honour" in seen
    assert "Cubes tumble off the Pile of Corpses: 1 fall" in table_text(world)
    record, state = await state_of(bot, game.id)
    old_board = record.meta[LIVE]["message"]
    # /cz status: summary, and the live board with the pending prompt moved to the bottom (the old one
    # deleted: one clickable copy)
    cog = cog_of(bot)
    await cog.status.callback(cog, world.interaction(world.users[3], world.channels[10]))
    record, state = await state_of(bot, game.id)
    assert record.meta[LIVE]["message"] != old_board
    assert len(live_boards(world)) == 1 and world.public()[-1].id == record.meta[LIVE]["message"]
    prompt = ENGINE.pending(state)[0]
    again = world.last(TABLE, with_view=True)
    assert again.content.startswith(f"<@{prompt.player}>") and prompt.id in again.custom_ids()[0]
    assert "Pile of Corpses mode: `honour`" in table_text(world)
    # the board keeps working after the status
    await answer(bot, world, game.id, lambda s, p: "f1" if p.id.startswith("pile_honour") else policy(s, p))
    assert len(live_boards(world)) == 1
    assert (await bot.store.game(game.id)).meta[LIVE]["message"] == live_boards(world)[0].id


async def test_day_boards_status_and_reminders(bot, world, seed):
    alice, bruno = world.users[2], world.users[3]
    game = await open_table(bot, world, [alice, bruno], difficulty="medium", quick="day")
    await answer(bot, world, game.id, lambda s, p: "start")
    _record, state = await state_of(bot, game.id)
    prompt = ENGINE.pending(state)[0]
    assert prompt.id.startswith("move")
    venice = [m for m in world.sent if m.where == TABLE and m.file is not None and "Venice" in (m.content or "")]
    assert venice and png_of(venice[-1]).size[1] > 560
    assert all(m.file.filename == f"cz-{game.id}-board.png" for m in venice)
    # a move: a new map with the new route costs
    n = len(venice)
    await answer(bot, world, game.id, lambda s, p: next(o.id for o in p.options if o.id.startswith("go.")))
    _record, state = await state_of(bot, game.id)
    if ENGINE.pending(state)[0].id.startswith("move"):
        assert len([m for m in world.sent if m.file is not None and "Venice" in (m.content or "")]) == n + 1
    # /cz status by Day: text, the Venice board, the prompt with a ping
    cog = cog_of(bot)
    await cog.status.callback(cog, world.interaction(bruno, world.channels[10]))
    prompt = ENGINE.pending(state)[0]
    assert world.last(TABLE, with_view=True).content.startswith(f"<@{prompt.player}>")
    assert "The Group is at" in table_text(world)
    # /cz remind pings once per decision
    await cog.remind.callback(cog, world.interaction(bruno, world.channels[10]))
    assert world.last(TABLE).content.startswith(f"⏰ <@{prompt.player}>")
    await cog.remind.callback(cog, world.interaction(bruno, world.channels[10]))
    assert "already been reminded" in world.ephemeral(bruno)[-1].content
    stranger = world.users[4]
    with pytest.raises(BautaError):
        await cog.remind.callback(cog, world.interaction(stranger, world.channels[10]))
    # the generic /game status shows the same board
    game_cog = bot.get_cog("GameCog")
    await game_cog.status.callback(game_cog, world.interaction(bruno, world.channels[10]))
    assert png_of(next(m for m in reversed(world.sent) if m.file is not None and m.where == TABLE)).width == 760


# ------------------------------------------------------------------------------ the traitor: secrecy, closed DMs
async def _jmot(bot, world, closed_traitor_dm: bool = False):
    players = [world.users[2], world.users[3], world.users[4]]
    await bot.store.update_settings(1, gm_channel_id=11)
    game = await open_table(bot, world, players, difficulty="easy", scenario="jmot", quick="night")
    _record, state = await state_of(bot, game.id)
    traitor = world.users[int(state.traitor)]
    loyal = [p for p in players if p is not traitor]
    if closed_traitor_dm:
        traitor.dm_closed = True
    await answer(bot, world, game.id, lambda s, p: "start")
    return game, traitor, loyal


def _secrets_of(state) -> list[str]:
    return [f"traitor is <@{state.traitor}>", "You are the traitor", "Sabotage set", "The traitor sabotages"]


async def test_the_traitor_stays_secret_in_the_channel(bot, world, seed):
    game, traitor, loyal = await _jmot(bot, world)
    # every seat got a role DM: the traitor's says so, the others' say loyal
    assert "You are the traitor" in world.dms(traitor)[-1].content
    assert all("You are loyal" in world.dms(p)[-1].content for p in loyal)
    assert "traitor" not in table_text(world).lower()
    record, state = await state_of(bot, game.id)
    assert "traitor" in ENGINE.view_for(state, GM) and "traitor" not in ENGINE.view_for(state, PUBLIC)
    cog = cog_of(bot)
    public_before = len([m for m in world.public() if m.where == TABLE])
    # a loyal player cannot sabotage; the refusal is private and changes nothing
    with pytest.raises(NotYourTurn):
        await cog.sabotage.callback(cog, world.interaction(loyal[0], world.channels[10]), cave="E1")
    assert (await bot.store.game(game.id)).version == record.version
    # the traitor sabotages: an ephemeral confirmation, a GM-room note, nothing in the table channel, no DM
    dms_before = len(world.dms(traitor))
    await cog.sabotage.callback(cog, world.interaction(traitor, world.channels[10]), cave="E1")
    confirmation = world.ephemeral(traitor)[-1]
    assert confirmation.ephemeral and "E1" in confirmation.content
    assert len(world.dms(traitor)) == dms_before
    assert any("The traitor sabotages E1" in (m.content or "") for m in world.sent if m.where == "channel:11")
    assert len([m for m in world.public() if m.where == TABLE]) == public_before   # the board is edited, not posted
    with pytest.raises(IllegalAction):
        await cog.sabotage.callback(cog, world.interaction(traitor, world.channels[10]), cave="N1")
    # /game log and /game export, which any player may read, do not name the saboteur
    game_cog = bot.get_cog("GameCog")
    await game_cog.log.callback(game_cog, world.interaction(loyal[0], world.channels[10]), n=1)
    line = world.ephemeral(loyal[0])[-1].content
    assert "secret" in line and f"<@{traitor.id}>" not in line
    await game_cog.export.callback(game_cog, world.interaction(loyal[0], world.channels[10]))
    export = world.ephemeral(loyal[0])[-1].file.fp
    export.seek(0)
    document = __import__("json").loads(export.read())
    assert document["log"][-1]["actor"] == "secret" and "traitor" not in document["state"]
    # play on a little, /cz status and /game status: still nothing of the secret in the channel
    policy = sensible_policy(random.Random(3))
    for _ in range(12):
        _record, state = await state_of(bot, game.id)
        if state.over:
            break
        await answer(bot, world, game.id, policy)
    await cog.status.callback(cog, world.interaction(loyal[0], world.channels[10]))
    game_cog = bot.get_cog("GameCog")
    await game_cog.status.callback(game_cog, world.interaction(loyal[1], world.channels[10]))
    _record, state = await state_of(bot, game.id)
    table = table_text(world)
    assert "traitor" not in table.lower()
    for secret in _secrets_of(state):
        assert secret not in table
    # /hand: the traitor sees their role, a loyal player does not see it
    await bot.get_cog("HandCog").hand.callback(bot.get_cog("HandCog"), world.interaction(traitor, world.channels[10]))
    assert any("You are the traitor" in (m.content or "") for m in world.ephemeral(traitor))
    await bot.get_cog("HandCog").hand.callback(bot.get_cog("HandCog"), world.interaction(loyal[0], world.channels[10]))
    assert not any("traitor is" in (m.content or "") or "You are the traitor" in (m.content or "")
                   for m in world.ephemeral(loyal[0]))
    # the unmasking is the rules' reveal: only now does the channel learn who it was
    if not state.over:
        with pytest.raises(NotYourTurn):
            await cog.unmask.callback(cog, world.interaction(loyal[1], world.channels[10]))
        await cog.unmask.callback(cog, world.interaction(traitor, world.channels[10]))
        assert "revealed yourself" in world.ephemeral(traitor)[-1].content
        assert f"<@{traitor.id}> reveals themself as the traitor" in table_text(world)
    assert not errors_shown(world)


async def test_closed_dms_never_single_out_the_traitor_and_the_game_goes_on(bot, world, seed):
    game, traitor, loyal = await _jmot(bot, world, closed_traitor_dm=True)
    # a DM was attempted to every seat (so "could not DM" says nothing about roles)
    assert all(p.dm_attempts == 1 for p in [traitor, *loyal])
    notes = [m for m in world.public() if "could not DM" in (m.content or "")]
    assert len(notes) == 1 and f"<@{traitor.id}>" in notes[0].content
    # the secret action never tries a DM nor posts a "could not DM" line
    cog = cog_of(bot)
    await cog.sabotage.callback(cog, world.interaction(traitor, world.channels[10]), cave="S2")
    assert traitor.dm_attempts == 1
    assert len([m for m in world.public() if "could not DM" in (m.content or "")]) == 1
    assert "S2" in world.ephemeral(traitor)[-1].content
    # /hand shows the role to its owner only
    hand_cog = bot.get_cog("HandCog")
    await hand_cog.hand.callback(hand_cog, world.interaction(traitor, world.channels[10]))
    mine = "\n".join(m.content or "" for m in world.ephemeral(traitor))
    assert "You are the traitor" in mine and "S2" in mine
    # the game goes on through the buttons
    version = (await bot.store.game(game.id)).version
    await answer(bot, world, game.id, sensible_policy(random.Random(1)))
    assert (await bot.store.game(game.id)).version == version + 1
    assert "Sabotage set" not in table_text(world) and "sabotage" not in table_text(world).lower()
    assert not errors_shown(world)


async def test_focus_penalty_needs_the_house_rule(bot, world, seed):
    game = await open_table(bot, world, [world.users[2]], difficulty="easy", quick="night")
    cog = cog_of(bot)
    policy = sensible_policy(random.Random(1))
    while (await state_of(bot, game.id))[1].phase != "night":
        await answer(bot, world, game.id, policy)
    with pytest.raises(IllegalAction) as refused:
        await cog.focus.callback(cog, world.interaction(world.users[2], world.channels[10]), reason="chatter")
    assert refused.value.code == "focus_not_in_use"
    await bot.get_cog("GameCog").end.callback(bot.get_cog("GameCog"), world.interaction(world.users[1], world.channels[10]))
    await bot.store.set_house_rule(1, NAME, "battle_focus", True)
    game = await open_table(bot, world, [world.users[2]], difficulty="easy", quick="night")
    while (await state_of(bot, game.id))[1].phase != "night":
        await answer(bot, world, game.id, policy)
    abyss = sum((await state_of(bot, game.id))[1].abyss.values())
    await cog.focus.callback(cog, world.interaction(world.users[2], world.channels[10]), reason="chatter")
    assert sum((await state_of(bot, game.id))[1].abyss.values()) == abyss - 3
    assert "Battle Focus broken: 3 cubes crawl into" in table_text(world)
    with pytest.raises(NotYourTurn):                               # only the table (or a GM) may apply it
        await cog.focus.callback(cog, world.interaction(world.users[4], world.channels[10]))


async def test_scenario_defaults_and_server_house_rules_reach_the_engine(bot, world, seed):
    game = await open_table(bot, world, [world.users[2]], difficulty="easy", scenario="gorini")
    assert (await state_of(bot, game.id))[1].house_rules["pile_mode"] == "honour"      # the Scenario's default
    await bot.get_cog("GameCog").end.callback(bot.get_cog("GameCog"), world.interaction(world.users[1], world.channels[10]))
    await bot.store.set_house_rule(1, NAME, "pile_mode", "reaction")
    game = await open_table(bot, world, [world.users[2]], difficulty="easy", scenario="gorini")
    assert (await state_of(bot, game.id))[1].house_rules["pile_mode"] == "reaction"    # the server's choice wins
    # one game per channel: a second /cz start is refused and changes nothing
    cog = cog_of(bot)
    with pytest.raises(ChannelBusy):
        await cog.start.callback(cog, world.interaction(world.users[3], world.channels[10]), difficulty="easy")
    assert (await bot.store.active_game(1, 10)).id == game.id


# ------------------------------------------------------------------------------ whole games, images
def _private_texts_and_gm_secrets(actions, state) -> list[str]:
    out = [SAY.event(e) for a in actions for e in a.events if e.get("audience") != PUBLIC]
    gm = ENGINE.view_for(state, GM)
    if "sabotage" in gm and gm["sabotage"]["cave"]:
        out.append(f"sabotages {gm['sabotage']['cave']}")
    return out


async def test_a_whole_traitor_game_from_the_lobby_to_the_end_keeps_every_secret(bot, world, seed):
    """Random legal clicks through the cog layer until the rules end the game; the traitor
    sabotages every Night; no private event or GM-only secret ever reaches the table channel
    before the rules reveal the traitor at the end."""
    seed(11)
    players = [world.users[2], world.users[3], world.users[4], world.user(5, "Dario")]
    game = await open_table(bot, world, players, difficulty="easy", scenario="jmot")
    picker = random.Random(11)
    policy = sensible_policy(picker)
    cog = cog_of(bot)
    sabotaged = set()
    for _ in range(2000):
        record, state = await state_of(bot, game.id)
        if state.over:
            break
        if state.phase == "night" and state.ticket not in sabotaged:
            traitor = world.users[int(state.traitor)]
            await cog.sabotage.callback(cog, world.interaction(traitor, world.channels[10]),
                                        cave=picker.choice(["N1", "E2", "S1", "W2"]))
            sabotaged.add(state.ticket)
            record, state = await state_of(bot, game.id)
            for secret in _private_texts_and_gm_secrets(await bot.store.actions(game.id, limit=5000), state):
                assert secret not in world.public_text()
        await answer(bot, world, game.id, lambda s, p: picker.choice(p.options).id if picker.random() < 0.2
                     else policy(s, p))
    else:
        raise AssertionError("the game did not end")
    record, state = await state_of(bot, game.id)
    assert not record.active and state.result in ("win", "loss") and state.reason
    assert sabotaged
    table = world.public_text()
    assert f"Game #{game.id} is over" in table
    first_mention = table.lower().find("traitor")
    ending = SAY.text(f"events.over_{state.reason}", **state.reason_args)
    assert first_mention == -1 or first_mention > table.find(ending) >= 0   # named only by the ending
    for secret in _private_texts_and_gm_secrets(await bot.store.actions(game.id, limit=5000), state):
        assert secret not in table
    finals = [m for m in world.sent if m.where == TABLE and m.file is not None and "Final board" in (m.content or "")]
    assert len(finals) == 1
    assert not errors_shown(world)


async def test_a_solo_campaign_through_the_buttons_ends_by_a_rule(bot, world, seed):
    seed(3)
    game = await open_table(bot, world, [world.users[2]], difficulty="easy")
    policy = sensible_policy(random.Random(3))
    nights = 0
    for _ in range(2000):
        record, state = await state_of(bot, game.id)
        if state.over:
            break
        assert census(state)["total"] == 195
        await answer(bot, world, game.id, policy)
    else:
        raise AssertionError("the campaign did not end")
    nights = len(live_boards(world))
    assert nights >= 1                                     # one live board per Night, however many steps
    assert state.reason and f"Game #{game.id} is over" in table_text(world)
    final = next(m for m in reversed(world.sent) if m.file is not None and "Final board" in (m.content or ""))
    record, state = await state_of(bot, game.id)
    fp = final.file.fp
    fp.seek(0)
    assert fp.read() == board_png(state)        # the image is the public view, exactly (with its words)
    assert not errors_shown(world)


async def test_the_live_board_shows_exactly_the_public_view(bot, world, seed):
    game = await open_table(bot, world, [world.users[2], world.users[3]], difficulty="medium", quick="night")
    policy = sensible_policy(random.Random(4))
    for _ in range(15):
        await answer(bot, world, game.id, policy)
    record, state = await state_of(bot, game.id)
    board = live_boards(world)[-1]
    assert record.meta[LIVE]["message"] == board.id and record.meta[LIVE]["version"] == record.version
    fp = board.file.fp
    fp.seek(0)
    assert fp.read() == board_png(state)
    # an older step finishing late never paints over a newer image (the module the bot loaded)
    older, older_state = record, state
    await answer(bot, world, game.id, policy)
    record, state = await state_of(bot, game.id)
    assert state.night and not state.over
    edits = board.edits
    await sys.modules["cogs.carnival_zombie"].show_board(bot.host, older, older_state)
    assert board.edits == edits and record.meta[LIVE]["version"] == record.version
    fp = board.file.fp
    fp.seek(0)
    assert fp.read() == board_png(state)
    # a live board someone deleted (its buttons with it): /cz status posts a new one and remembers it
    board.deleted = True
    cog = cog_of(bot)
    await cog.status.callback(cog, world.interaction(world.users[3], world.channels[10]))
    await answer(bot, world, game.id, policy)
    record, _state = await state_of(bot, game.id)
    assert len(live_boards(world)) == 1 and live_boards(world)[0].id == record.meta[LIVE]["message"] != board.id


# ------------------------------------------------------------------------------ Pile of Corpses, reaction mode
async def test_reaction_mode_times_the_drop_from_the_prompt_to_the_click(bot, world, seed, monkeypatch):
    from cogs.carnival_zombie import REACT
    clock = [1000.0]
    # the module the bot loaded (load_extension executes a fresh copy of it), not the one imported here
    monkeypatch.setattr(sys.modules["cogs.carnival_zombie.pile"], "_now", lambda: clock[0])
    await bot.store.set_house_rule(1, NAME, "pile_mode", "reaction")
    game = await open_table(bot, world, [world.users[2]], difficulty="easy", quick="night")
    policy = sensible_policy(random.Random(2))
    delays = [1.5, 40.0]
    timed = []
    for _ in range(300):
        record, state = await state_of(bot, game.id)
        if state.over or state.phase == "day" or len(timed) == len(delays):
            break
        prompt = ENGINE.pending(state)[0]
        if not prompt.id.startswith("pile_react"):
            await answer(bot, world, game.id, policy)
            continue
        assert [o.id for o in prompt.options] == ["drop"]
        assert record.meta[REACT]["prompt"] == prompt.id          # the clock started when it was posted
        clock[0] += delays[len(timed)]
        await answer(bot, world, game.id, lambda s, p: "drop")
        record, state = await state_of(bot, game.id)
        assert not ENGINE.pending(state) or ENGINE.pending(state)[0].id != prompt.id   # timed at once
        assert REACT not in record.meta
        timed.append(prompt.id)
    assert len(timed) == len(delays)
    text = table_text(world)
    assert "drops with a quick hand (1.5 s)" in text and "drops with a late, shaky hand (40.0 s)" in text
    assert "untimed" not in text                                  # the waiting step was never shown
    actions = await bot.store.actions(game.id, limit=1000)
    assert [a.action["ms"] for a in actions if a.action.get("type") == "pile_timing"] == [1500, 40000]
    assert not errors_shown(world)


async def test_a_drop_left_waiting_for_its_timing_by_an_older_version_lands_on_its_button(bot, world, seed):
    """The two-action version could leave a drop waiting for its timing (the bot died between the
    "Drop!" click and its timing): that game shows an "untimed" button, and its click lands the drop."""
    await bot.store.set_house_rule(1, NAME, "pile_mode", "reaction")
    game = await open_table(bot, world, [world.users[2]], difficulty="easy", quick="night")
    policy = sensible_policy(random.Random(2))
    for _ in range(300):
        record, state = await state_of(bot, game.id)
        prompt = ENGINE.pending(state)[0]
        if prompt.kind == "pile_react":
            break
        await answer(bot, world, game.id, policy)
    else:
        raise AssertionError("no drop on the Pile")
    state.ask = {**state.ask, "timing": True}
    await bot.store.commit_action(record, "2", {"type": "choose", "prompt": prompt.id, "options": ["drop"]},
                                  ENGINE.dump_state(state), [])
    cog = cog_of(bot)
    await cog.status.callback(cog, world.interaction(world.users[2], world.channels[10]))
    await answer(bot, world, game.id, lambda s, p: "untimed")
    record, state = await state_of(bot, game.id)
    assert not ENGINE.pending(state) or ENGINE.pending(state)[0].id != prompt.id
    assert "drops with an untimed hand" in table_text(world)
    assert not errors_shown(world)


async def test_simultaneous_clicks_on_a_night_prompt_apply_once_and_keep_one_board(bot, world, seed):
    import asyncio
    game = await open_table(bot, world, [world.users[2], world.users[3]], difficulty="medium", quick="night")
    policy = sensible_policy(random.Random(8))
    while not (await state_of(bot, game.id))[1].night:
        await answer(bot, world, game.id, policy)
    record, state = await state_of(bot, game.id)
    prompt = ENGINE.pending(state)[0]
    message = prompt_message(world, prompt.id)
    user = world.users[int(prompt.player)]
    if message.custom_ids()[0].startswith("bauta:s:"):
        clicks = [click(world, message, user, index=0, values=["#0"]) for _ in range(10)]
    else:
        clicks = [click(world, message, user, index=i % len(message.custom_ids())) for i in range(10)]
    await asyncio.gather(*clicks)
    after = await bot.store.game(game.id)
    assert after.version == record.version + 1
    assert len(live_boards(world)) == 1
    assert not errors_shown(world)
