"""Playing against Bauta through the cogs: a member clicks, the bot answers its own seat."""
from __future__ import annotations

import random

import pytest

from cogs.host import botplayer
from rules import bots
from rules.common import BautaError
from rules.klash import AI as KLASH_AI
from rules.klash import ENGINE as KLASH
from tests.cogs.test_klash import _policy, answer, state_of, valid_team

from tests.cogs.conftest import BOT


async def test_each_game_tells_the_host_what_its_bot_can_do(bot):
    """The host names no game: the bot's seats, its stand-in and whether the rules make it think
    come from what each game registered (cogs/<game>/__init__.py)."""
    from rules.carnevale import AI as CARNEVALE
    from rules.carnival_zombie import AI as CARNIVAL_ZOMBIE
    from rules.karmic import AI as KARMIC
    assert botplayer.ais() == {"klash": KLASH_AI, "carnevale": CARNEVALE}        # vs_bot
    assert [botplayer.players(s) for s in ("klash", "carnevale", "karmic", "carnival_zombie", "duel")] == [
        KLASH_AI, CARNEVALE, KARMIC, CARNIVAL_ZOMBIE, None]                      # the idle-seat stand-in
    # the thinking pool's children find the same player by the game's name, without the cogs
    assert all(bots.player(s) is botplayer.players(s) for s in bots.GAMES) and bots.player("duel") is None
    assert botplayer.thinks("karmic", {"bot_plays_npcs": True})
    assert not botplayer.thinks("karmic", {"bot_plays_npcs": False})
    assert not botplayer.thinks("klash", {"bot_plays_npcs": True})


async def test_a_member_plays_a_whole_klash_match_against_the_bot(bot, world, seed, bauta):
    seed(11)
    cog = bot.get_cog("KlashCog")
    await cog.draft.callback(cog, world.interaction(world.users[2], world.channels[10]), opponent=bauta, level="easy")
    game = await bot.store.active_game(1, 10)
    assert game.seats == ["2", str(BOT)] and game.meta["bots"] == {str(BOT): "easy"}
    rnd = random.Random(3)
    steps = 0
    while True:
        record, state = await state_of(bot, game.id)
        if not record.active:
            break
        mine = [p for p in KLASH.pending(state) if p.player == "2"]
        # the bot never leaves the game waiting on itself
        assert mine, [p.id for p in KLASH.pending(state)]
        # the decision the game waits on (an Event Card or a token re-roll is optional)
        prompt = next((p for p in mine if p.kind not in ("hand", "arm_reroll")), mine[0])
        if prompt.kind == "team":
            choice = [f"p{i}" for i in valid_team(state, "2", 3)]
        else:
            choice = _policy(rnd, prompt)
        await answer(world, game.id, prompt, choice)
        steps += 1
        assert steps < 1500
    record, state = await state_of(bot, game.id)
    assert state.over and state.winner in ("2", str(BOT)) and state.result
    # the bot drafted its twelve cards, chose a team of its own and fought with it
    assert len(state.picks[str(BOT)]) == 12
    bot_models = [m for m in state.models if m.owner == str(BOT)]
    assert 1 <= len(bot_models) <= 8 and all(m.placed for m in bot_models)
    log = await bot.store.actions(game.id, limit=5000)
    by_bot = [a for a in log if a.actor == str(BOT)]
    assert len(by_bot) > 40 and {a.action["type"] for a in by_bot} == {"choose"}
    # nothing was ever DMed to the bot, none of its prompts was posted, its hand stayed secret
    assert not [m for m in world.sent if m.where == f"dm:{BOT}"]
    public = world.public_text()
    assert f"<@{BOT}> — " not in public
    played = {e["data"].get("card") for a in log for e in a.events if e["kind"] == "event_played"}
    for card in set(state.hands[str(BOT)]) - played:
        assert state.event_cards[card]["name"] not in public
    assert f"Game #{game.id} is over" in public


async def test_starting_against_the_bot_needs_it_or_a_member(bot, world, bauta):
    cog = bot.get_cog("KlashCog")
    inter = world.interaction(world.users[2], world.channels[10])
    other = world.user(50, "OtherBot")
    other.bot = True
    for kwargs in ({}, {"opponent": other}, {"opponent": world.users[2]}):
        with pytest.raises(BautaError):
            await cog.draft.callback(cog, world.interaction(world.users[2], world.channels[10]), **kwargs)
    assert await bot.store.active_game(1, 10) is None
    await cog.draft.callback(cog, inter, vs_bot=True, level="hard")
    game = await bot.store.active_game(1, 10)
    assert game.meta["bots"] == {str(BOT): "hard"}
    # Player A picks first: when that is the bot, it has already taken its card
    _, state = await state_of(bot, game.id)
    assert KLASH.picker(state) == "2"
    assert botplayer.quiet(game, str(BOT)) and not botplayer.quiet(game, "2")


async def test_a_member_plays_a_whole_carnevale_game_against_the_bot(bot, world, bauta):
    from rules.carnevale import ENGINE as CARNEVALE
    from tests.cogs.test_carnevale import call, choose, cog_of
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, vs_bot=True, level="easy", points=150, rounds=3,
               their_faction="The Guild")
    game = await bot.store.active_game(1, 10)
    assert game.seats == ["2", str(BOT)] and game.meta["bots"] == {str(BOT): "easy"}
    _, state = await state_of_carnevale(bot, game.id)
    squad = state.squad(str(BOT), in_play_only=False)
    # the bot's squad: The Guild, a Leader, within the 150 points
    assert {m.faction for m in squad} == {"The Guild"} and state.players[str(BOT)].points <= 150
    assert state.players[str(BOT)].leader
    rnd = random.Random(5)
    steps = 0
    while True:
        record, state = await state_of_carnevale(bot, game.id)
        if not record.active:
            break
        prompts = CARNEVALE.pending(state)
        assert prompts and all(p.player == "2" for p in prompts), [p.id for p in prompts]
        prompt = prompts[0]
        message = next(m for m in reversed(world.public()) if m.view is not None and any(
            cid.endswith(f":{prompt.id}") or f":{prompt.id}:" in cid for cid in m.custom_ids()))
        ids = [o.id for o in prompt.options]
        if prompt.max_choices > 1:
            pick = [o.value for o in message.view.children[0].item.options][:max(1, prompt.min_choices)]
            from tests.support.fakes import click
            await click(world, message, world.users[2], index=0, values=pick)
        else:
            await choose(world, message, world.users[2], prompt,
                         rnd.choice([i for i in ids if i not in ("back", "endchain")] or ids))
        steps += 1
        assert steps < 800
    record, state = await state_of_carnevale(bot, game.id)
    assert state.over and state.result["vp"][str(BOT)]["total"] >= 0
    log = await bot.store.actions(game.id, limit=5000)
    assert len([a for a in log if a.actor == str(BOT)]) > 10
    assert not [m for m in world.sent if m.where == f"dm:{BOT}"]
    assert "The adventure ends" in world.public_text()


async def state_of_carnevale(bot, game_id):
    from rules.carnevale import ENGINE as CARNEVALE
    record = await bot.store.game(game_id)
    return record, CARNEVALE.load_state(record.state)


async def test_karmic_npcs_are_thought_out_in_a_worker_thread_not_on_the_event_loop(bot, world, seed, monkeypatch):
    import threading

    from rules.karmic import ENGINE as KARMIC
    from rules.karmic.engine import KarmicEngine
    from tests.cogs.test_karmic import answer_prompt, choose_option, import_sheet

    threads: list[threading.Thread] = []
    real = KarmicEngine.npc_choice

    def spy(self, state, prompt, meta):
        threads.append(threading.current_thread())
        return real(self, state, prompt, meta)
    monkeypatch.setattr(KarmicEngine, "npc_choice", spy)
    seed(7)
    alice = world.users[2]
    await import_sheet(bot, world, alice)
    cog = bot.get_cog("KarmicCog")
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    bot_plays_npcs=True)
    game = await bot.store.active_game(1, 10)
    for _ in range(12):
        state = KARMIC.load_state((await bot.store.game(game.id)).state)
        if state.over:
            break
        prompt = KARMIC.pending(state)[0]
        await answer_prompt(world, world.last("dm:2", with_view=True), alice, prompt, choose_option(prompt, False))
    # the bot played the Soldier's decisions, every one of them away from the loop's thread
    assert len(threads) >= 3
    assert threading.main_thread() not in threads and threading.current_thread() not in threads
