"""Klash! through the cog layer: the auction by buttons, races, restarts, undo, teams, deployment, typed
actions with autocompletion, a whole match to a result, and the secrecy of Event Card hands (text and
images)."""
from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

import pytest

from i18n.present import Presenter
from cogs import klash as K
from renderers import klash as R
from rules.common import GM, PUBLIC
from rules.klash import ENGINE
from tests.rules.klash.helpers import SAMPLE
from tests.conftest import make_bot
from tests.support.fakes import click, component_of

SEED = 20261129


# ---------------------------------------------------------------------------- helpers
def _bytes(file) -> bytes:
    return file.fp.getvalue() if hasattr(file.fp, "getvalue") else b""


def table(bot, state) -> bytes:
    """The draft table of the public view, with the players' names (what the cog draws)."""
    return R.draft_png(K.public_view(SimpleNamespace(bot=bot), state))


def edits(world, message_id=None) -> int:
    """How many times the bot edited its channel messages (the live boards), or one of them."""
    return sum(m.edits for m in world.public() if message_id is None or m.id == message_id)


def public_images(world) -> list[bytes]:
    """Every image in the channel as it shows now (a live board shows its latest edit)."""
    return [_bytes(m.file) for m in world.public() if m.file is not None]


async def state_of(bot, game_id):
    record = await bot.store.game(game_id)
    return record, ENGINE.load_state(record.state)


def prompt_message(world, game_id, prompt):
    """The newest message carrying this prompt's components (channel, DM or an ephemeral /hand copy)."""
    for message in reversed(world.sent):
        if not message.deleted and any(f":{game_id}:{prompt.id}" in cid for cid in message.custom_ids()):
            return message
    raise LookupError(prompt.id)


async def decline_rerolls(bot, world, game_id, seen=None):
    """Answer every Training Token re-roll window "no" with its button (the dice stand)."""
    while True:
        _, state = await state_of(bot, game_id)
        window = next((p for p in ENGINE.pending(state) if p.kind.startswith("reroll_")), None)
        if window is None:
            return state
        message = prompt_message(world, game_id, window)
        assert message.public and [o.id for o in window.options] == ["yes", "no"]
        if seen is not None:
            seen.append(window)
        await answer(world, game_id, window, ["no"])


async def answer(world, game_id, prompt, option_ids, user=None, locale="en-US"):
    """Answer a prompt the way a player does (a client in `locale`): click its button, or choose in its select."""
    message = prompt_message(world, game_id, prompt)
    user = user or world.users[int(prompt.player)]
    index, values = component_of(message, prompt, option_ids[0] if option_ids else None)
    if values is not None:
        values = [f"#{[o.id for o in prompt.options].index(o)}" if len(o) > 90 else o for o in option_ids]
    return await click(world, message, user, index=index, values=values, locale=locale)


async def start_draft(bot, world, seed, value=SEED, locale="en-US"):
    seed(value)
    cog = bot.get_cog("KlashCog")
    interaction = world.interaction(world.users[2], world.channels[10], locale=locale)
    await cog.draft.callback(cog, interaction, opponent=world.users[3])
    game = await bot.store.active_game(1, 10)
    assert game.system == "klash" and game.seats == ["2", "3"]
    return game


async def run_draft(bot, world, game_id, rnd, until=None):
    """Click the auction through (or `until` picks have been made)."""
    while True:
        _, state = await state_of(bot, game_id)
        if state.phase != "draft" or (until is not None and len(state.draft_log) >= until):
            return state
        prompt = ENGINE.pending(state)[0]
        await answer(world, game_id, prompt, [rnd.choice(prompt.options).id])


def valid_team(state, player, size=8):
    """The first `size` cards that satisfy the requirements (Champions need company)."""
    picks = state.picks[player]
    plain = [i for i, c in enumerate(picks) if state.cards[c]["type"] != "campione"]
    for n in range(min(size, len(plain)), 0, -1):
        team = plain[:n]
        if ENGINE.team_problem(state, player, team) is None:
            return team
    raise AssertionError("no valid team")


# ---------------------------------------------------------------------------- the auction
async def test_seeded_full_auction_through_the_cog(bot, world, seed):
    game = await start_draft(bot, world, seed)
    rnd = random.Random(1)
    _, state = await state_of(bot, game.id)
    a, b = state.player_a, state.player_b
    assert sorted([a, b]) == ["2", "3"]
    first = world.public()[-1]                                          # ONE message: the table and the buttons
    assert "Auction round 1: " in first.content and len(first.custom_ids()) == 5
    assert first.file is not None and "draft" in first.file.filename
    images = []
    wrong_refused = 0
    for pick in range(24):
        record, state = await state_of(bot, game.id)
        prompt = ENGINE.pending(state)[0]
        rnd_, n = divmod(pick, 3)
        single = a if rnd_ % 2 == 0 else b
        expected = single if n == 0 else (b if single == a else a)
        assert prompt.player == expected and len(prompt.options) == 5 - n
        message = prompt_message(world, game.id, prompt)
        assert message.public and len(message.custom_ids()) == 5 - n   # a button per revealed card
        # ... and the draft table of this very moment in the same message: the public view (revealed
        # cards, both players' picks so far)
        assert message.file is not None and "draft" in message.file.filename
        assert _bytes(message.file) == table(bot, state)
        images.append(_bytes(message.file))
        other = world.users[int(b if expected == a else a)]
        await click(world, message, other, index=0)                       # not their pick: refused
        assert (await bot.store.game(game.id)).version == record.version
        assert "not yours" in world.ephemeral(other)[-1].content
        wrong_refused += 1
        await answer(world, game.id, prompt, [rnd.choice(prompt.options).id])
        assert (await bot.store.game(game.id)).version == record.version + 1
    record, state = await state_of(bot, game.id)
    assert state.phase == "team" and wrong_refused == 24
    assert len(state.picks["2"]) == len(state.picks["3"]) == 12
    assert len(state.discarded) == 16 and len(state.char_deck) + 40 == sum(
        c["copies"] for c in state.cards.values())
    drawn = state.picks["2"] + state.picks["3"] + state.discarded
    assert len(drawn) == 40
    for i, (rnd_no, player, _card) in enumerate(state.draft_log):
        single = a if rnd_no % 2 == 1 else b
        assert player == (single if i % 3 == 0 else (b if single == a else a))
    # every pick is in the action log under the right seat
    actions = await bot.store.actions(game.id, limit=100)
    assert len(actions) == 24
    assert sorted(x.actor for x in actions) == sorted(p for _, p, _ in state.draft_log)
    # every pick prompt carried its own, different table (the picks grow), on the table message
    # the game opened with, edited in place pick after pick, the picks told at its top: both
    # players were at the table (each clicked it within five minutes, Bruno first by trying Alice's
    # pick), so a pick passing pinged nobody and the table never moved. When the auction ends,
    # the final table (12 picks each) starts a new table message; the auction's keeps its last
    # picture and the picks it told, without buttons.
    assert len(images) == 24 and len(set(images)) == 24
    posted = [m for m in world.public() if m.id in world.tables()]
    assert [m for m in world.public() if m.id not in world.tables()] == []     # no message of lines alone
    auction, board = posted
    assert not any(m.deleted for m in posted) and auction.view is None and auction.file is not None
    assert auction.content.startswith("⚔️ **Klash! Sangue & Sabbia** — <@2> vs <@3>.")
    # posted once, then each of the 24 picks answered by its click's own response carrying the
    # table's next state (the last one its record, without buttons): no other write of it
    assert [w.kind for w in world.writes if w.message == auction.id] == ["post"] + ["update"] * 24
    assert auction.edits == 0 and auction.content.count(" takes ") == 23 and len(auction.content) <= 2000
    assert "auction is over" in board.content and _bytes(board.file) == table(bot, state)
    assert board.content.count(" takes ") == 1
    # both team selects are on it (public, tabletop default)
    assert len([c for c in board.custom_ids() if ":team." in c]) == 2


async def test_twenty_concurrent_clicks_on_one_card_give_one_pick(bot, world, seed):
    game = await start_draft(bot, world, seed)
    _, state = await state_of(bot, game.id)
    prompt = ENGINE.pending(state)[0]
    message = prompt_message(world, game.id, prompt)
    picker = world.users[int(prompt.player)]
    await asyncio.gather(*(click(world, message, picker, index=2) for _ in range(20)))
    record, state = await state_of(bot, game.id)
    assert record.version == 1 and len(await bot.store.actions(game.id, limit=50)) == 1
    assert len(state.draft_log) == 1 and len(state.revealed) == 4
    refusals = [m for m in world.ephemeral(picker) if m.content and "already" in m.content.lower()]
    assert len(refusals) == 19


async def test_restart_mid_draft_continues_from_old_buttons(tmp_path, bot, world, seed):
    game = await start_draft(bot, world, seed)
    await run_draft(bot, world, game.id, random.Random(2), until=4)
    _, state = await state_of(bot, game.id)
    prompt = ENGINE.pending(state)[0]
    old = prompt_message(world, game.id, prompt)
    assert old.file is not None and "draft" in old.file.filename
    await bot.close()
    second = await make_bot(bot.config.db_path)
    try:
        world.attach(second)
        await click(world, old, world.users[int(prompt.player)], index=0)
        record, state = await state_of(second, game.id)
        assert record.version == 5 and len(state.draft_log) == 5
        # the next pick is the same player's: the restarted bot edits the same table message, which
        # now carries the table with the 5th pick
        nxt = prompt_message(world, game.id, ENGINE.pending(state)[0])
        assert nxt is old and nxt.file is not None and _bytes(nxt.file) == table(second, state)
        state = await run_draft(second, world, game.id, random.Random(3))
        assert state.phase == "team" and len(state.picks["2"]) == len(state.picks["3"]) == 12
    finally:
        await second.close()


async def test_gm_undoes_the_last_pick_and_the_board_follows(bot, world, seed):
    game = await start_draft(bot, world, seed)
    await run_draft(bot, world, game.id, random.Random(4), until=2)
    before = (await bot.store.game(game.id)).state
    await run_draft(bot, world, game.id, random.Random(4), until=3)
    assert (await bot.store.game(game.id)).state != before
    cog = bot.get_cog("GameCog")
    await cog.undo.callback(cog, world.interaction(world.users[1], world.channels[10]), steps=1)
    record, state = await state_of(bot, game.id)
    assert record.state == before and len(state.draft_log) == 2
    # the new buttons work and the same pick can be made again
    await run_draft(bot, world, game.id, random.Random(5), until=3)
    assert len((await state_of(bot, game.id))[1].draft_log) == 3
    # a player may not undo
    from cogs.host.errors import NotGM
    with pytest.raises(NotGM):
        await cog.undo.callback(cog, world.interaction(world.users[2], world.channels[10]), steps=1)


# ---------------------------------------------------------------------------- team and deployment
async def test_team_by_command_and_by_select_then_deployment(bot, world, seed):
    game = await start_draft(bot, world, seed)
    state = await run_draft(bot, world, game.id, random.Random(6))
    cog = bot.get_cog("KlashCog")
    # without arguments: your 12 cards and the select, only to you
    await cog.team.callback(cog, world.interaction(world.users[2], world.channels[10]), cards=None)
    mine = world.ephemeral(world.users[2])
    assert "1." in mine[-2].content and mine[-1].view is not None
    # a bad number changes nothing
    from rules.common import BautaError
    with pytest.raises(BautaError):
        await cog.team.callback(cog, world.interaction(world.users[2], world.channels[10]), cards="0 99")
    # Alice types her team; Bruno uses the select
    team2 = valid_team(state, "2", 5)
    await cog.team.callback(cog, world.interaction(world.users[2], world.channels[10]),
                            cards=" ".join(str(i + 1) for i in team2))
    _, state = await state_of(bot, game.id)
    assert state.team_choice["2"] == team2
    team3 = valid_team(state, "3", 4)
    prompt = next(p for p in ENGINE.pending(state) if p.player == "3")
    await answer(world, game.id, prompt, [f"p{i}" for i in team3])
    _, state = await state_of(bot, game.id)
    assert state.phase == "deploy"
    vp = {p: sum(state.cards[state.picks[p][i]]["vp"] for i in t) for p, t in (("2", team2), ("3", team3))}
    assert f"Teams: <@{state.player_a}> {vp[state.player_a]} VP, <@{state.player_b}> {vp[state.player_b]} VP." \
        in world.public_text()
    # deployment: by the command (nearest spot, or x y) and by the buttons
    first_arena = [m for m in world.public() if m.file is not None and "arena" in m.file.filename]
    assert len(first_arena) == 1
    turn = 0
    while state.phase == "deploy":
        p = state.deploy_turn
        user = world.users[int(p)]
        model = next(m for m in state.models if m.owner == p and not m.placed)
        if turn % 2 == 0:
            choices = await cog.ac_deploy_model(world.interaction(user, world.channels[10]), "")
            assert model.id in [c.value for c in choices]
            await cog.deploy.callback(cog, world.interaction(user, world.channels[10]), model=model.id, x=None, y=None)
        else:
            prompt = ENGINE.pending(state)[0]
            await answer(world, game.id, prompt, [model.id])
            _, state = await state_of(bot, game.id)
            await answer(world, game.id, ENGINE.pending(state)[0], ["s0"])
        turn += 1
        _, state = await state_of(bot, game.id)
    assert state.phase == "match" and all(m.placed for m in state.models)
    arena = [m for m in world.public() if m.file is not None and "arena" in m.file.filename and not m.deleted]
    assert len(arena) == 1 and edits(world)        # one live arena message through the deployment


# ---------------------------------------------------------------------------- typed actions
async def skirmish_game(bot, world, teams, first="2"):
    state = ENGINE.new_skirmish(["2", "3"], teams, seed=3, first=first, options=SAMPLE)
    state.hands = {"2": ["roar", "sand"], "3": ["water"]}
    return await bot.store.create_game(1, 10, "klash", ["2", "3"], ENGINE.dump_state(state), 2)


async def test_typed_actions_with_autocompletion(bot, world):
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60), ("javelin", 30, 80)],
                                             "3": [("dwarf", 100, 60), ("wolf", 60, 95)]})
    cog = bot.get_cog("KlashCog")
    alice, bruno = world.users[2], world.users[3]
    ready = await cog.ac_ready_model(world.interaction(alice, world.channels[10]), "")
    assert [c.value for c in ready] == ["m1", "m2"]
    assert [c.value for c in await cog.ac_ready_model(world.interaction(alice, world.channels[10]), "javel")] == ["m2"]
    toward = await cog.ac_toward(world.interaction(alice, world.channels[10]), "")
    assert [c.value for c in toward][:3] == ["alt", "g0", "g1"] and "yours" in toward[1].name
    await cog.activate.callback(cog, world.interaction(alice, world.channels[10]), model="m1")
    arena_posts = [m for m in world.public() if m.file is not None and "arena" in m.file.filename]
    assert len(arena_posts) == 1                                   # the activation opened a live arena image
    await cog.move.callback(cog, world.interaction(alice, world.channels[10]), model="m1", toward="Altar",
                            x=None, y=None, distance=None, direction=None, double=False)
    _, state = await state_of(bot, game.id)
    assert abs(state.model("m1").x - 30.0) < 0.1 and state.acts[-1].used == 1
    assert edits(world)                                             # the same image was edited
    await cog.move.callback(cog, world.interaction(alice, world.channels[10]), model="m1", x=None, y=None,
                            toward=None, distance=5.0, direction="north", double=False)
    _, state = await state_of(bot, game.id)
    assert abs(state.model("m1").y - 65.0) < 0.1
    # Alice ends the activation by command and declines the Training Token extra activation (a button)
    await cog.end.callback(cog, world.interaction(alice, world.channels[10]), model="m1")
    _, state = await state_of(bot, game.id)
    ext = next(p for p in ENGINE.pending(state) if p.kind == "extra_activation")
    await answer(world, game.id, ext, ["no"])
    # Bruno's turn: the wolf is his; Alice cannot act for him
    _, state = await state_of(bot, game.id)
    assert state.turn_player == "3"
    before = world.public_text()
    refused = world.interaction(alice, world.channels[10])
    with pytest.raises(Exception):
        await cog.activate.callback(cog, refused, model="m4")
    assert not refused.response.is_done() and world.public_text() == before   # the refusal is hers alone
    await cog.activate.callback(cog, world.interaction(bruno, world.channels[10]), model="wolf")   # by name
    assert world.ephemeral(bruno)[-1].content == "✓ Done."      # acknowledged privately, the output is public
    _, state = await state_of(bot, game.id)
    assert state.acts and state.acts[-1].model == "m4" or state.model("m4").activated
    # Bruno's turn pinged him: the table moved to the foot with the arena; the one it left keeps
    # the narration of Alice's activation, without a second copy of the arena or buttons
    arena_posts = [m for m in world.public() if m.file is not None and "arena" in m.file.filename]
    assert arena_posts == [world.table()] and world.table().pings() == {"3"}
    record = world.public()[0]
    assert record.file is None and record.view is None and "<@2> activates Raging Orc 1." in record.content
    # a volley target list for the javelin comes from the engine's rules
    targets = await cog._targets(world.interaction(alice, world.channels[10]), "", "volley")
    assert all(isinstance(c.value, str) for c in targets)
    # bad input: a clear message and no change
    from rules.common import BautaError
    version = (await bot.store.game(game.id)).version
    with pytest.raises(BautaError):
        await cog.move.callback(cog, world.interaction(bruno, world.channels[10]), model="nobody", x=1.0, y=1.0,
                                toward=None, distance=None, direction=None, double=False)
    with pytest.raises(BautaError):
        await cog.move.callback(cog, world.interaction(bruno, world.channels[10]), model="m4", x=None, y=None,
                                toward=None, distance=3.0, direction="sideways", double=False)
    assert (await bot.store.game(game.id)).version == version


async def test_event_card_by_command_is_answered_privately(bot, world):
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60)], "3": [("dwarf", 100, 60)]})
    cog = bot.get_cog("KlashCog")
    alice = world.users[2]
    cards = await cog.ac_event_card(world.interaction(alice, world.channels[10]), "")
    assert [c.value for c in cards] == ["roar", "sand"]
    assert await cog.ac_event_card(world.interaction(world.users[4], world.channels[10]), "") == []
    # a refused play (Bruno's card is not in Alice's hand) names nothing in the channel
    before = world.public_text()
    with pytest.raises(Exception):
        await cog.event.callback(cog, world.interaction(alice, world.channels[10]), card="water", target=None)
    assert world.public_text() == before
    await cog.event.callback(cog, world.interaction(alice, world.channels[10]), card="roar", target=None)
    assert "plays The Crowd Roars." in world.public_text()
    assert "played" in world.ephemeral(alice)[-1].content
    # Bruno is asked (by DM, privately) whether to answer; he passes by command
    dm = world.last("dm:3", with_view=True)
    assert "answer" in dm.content
    await cog.pass_.callback(cog, world.interaction(world.users[3], world.channels[10]))
    _, state = await state_of(bot, game.id)
    assert state.vp["2"] == 1 and state.hands["2"] == ["sand"] and not state.stack
    # Alice's DMs got her new hand as an image; its file never went to the channel
    hand_images = [m for m in world.dms(alice) if m.file is not None and "hand" in m.file.filename]
    assert hand_images and not [m for m in world.public() if m.file and "hand" in m.file.filename]
    assert "Sand in the Eyes" not in world.public_text() and "Water Bearer" not in world.public_text()


# ---------------------------------------------------------------------------- a whole game, and secrecy
def _policy(rnd, prompt):
    ids = [o.id for o in prompt.options]
    if prompt.max_choices > 1:
        return rnd.sample(ids, rnd.randint(prompt.min_choices, min(prompt.max_choices, len(ids))))
    forward = [i for i in ids if i not in ("back", "no", "pass")] or ids
    if prompt.kind == "act":
        attacks = [i for i in forward if i.startswith(("as", "ch", "vo", "mg"))]
        if attacks and rnd.random() < 0.8:
            return [rnd.choice(attacks)]
        moves = [i for i in forward if i.startswith("mv")]
        if moves and rnd.random() < 0.8:
            return [rnd.choice(moves)]
    if prompt.kind == "target":
        toward = [i for i in forward if i.startswith("to:") and not i.startswith("to:g")]
        if toward and rnd.random() < 0.7:
            return [rnd.choice(toward)]
    return [rnd.choice(forward)]


async def test_a_match_to_the_end_keeps_every_hand_secret(bot, world, seed):
    """A seeded game from the auction to the final result, all by clicks (Event Cards included, by DM);
    no card in a hand ever shows in the channel before it is played, in text or in an image."""
    world.users[3].dm_closed = False
    game = await start_draft(bot, world, seed, 7)
    rnd = random.Random(7)
    state = await run_draft(bot, world, game.id, rnd)
    for p in ("2", "3"):
        prompt = next(x for x in ENGINE.pending(state) if x.player == p)
        await answer(world, game.id, prompt, [f"p{i}" for i in valid_team(state, p, 3)])
        _, state = await state_of(bot, game.id)
    played_ever: set[str] = set()
    steps = 0
    while True:
        record, state = await state_of(bot, game.id)
        if not record.active:
            break
        # secrecy, at every step: an unplayed card of a hand is never named in the channel
        unplayed = {c for p in state.seats for c in state.hands[p]} - played_ever
        public = world.public_text()
        for card in unplayed:
            assert state.event_cards[card]["name"] not in public, card
        if steps % 5 == 0 and state.phase in ("deploy", "match"):
            # the live arena image is what a hands-swapped state would give: it cannot depend on hands
            latest = next(m for m in reversed(world.sent) if m.public and m.file is not None and "arena" in m.file.filename)
            swapped = ENGINE.load_state(record.state)
            decoys = sorted(set(state.event_cards))
            swapped.hands = {p: [decoys[(i + 1) % len(decoys)] for i, _ in enumerate(state.hands[p])] for p in state.seats}
            assert _bytes(latest.file) == R.arena_png(K.public_view(bot.host, swapped))
        prompts = ENGINE.pending(state)
        hand_prompts = [p for p in prompts if p.kind in ("hand", "respond", "event_target")]
        prompt = (rnd.choice(hand_prompts) if hand_prompts and rnd.random() < 0.3 else
                  next((p for p in prompts if p.kind not in ("hand", "arm_reroll")), prompts[0]))
        choice = _policy(rnd, prompt)
        if prompt.kind in ("hand", "respond"):
            for o in choice:
                if o.startswith("h"):
                    played_ever.add(state.hands[prompt.player][int(o[1:])])
        if prompt.kind == "event_target":
            played_ever.add(state.esel["card"])
        await answer(world, game.id, prompt, choice)
        steps += 1
        assert steps < 1500
    record, state = await state_of(bot, game.id)
    assert steps > 50 and played_ever          # a real match, Event Cards played along the way
    assert state.over and state.result and state.winner in ("2", "3")
    assert sum(v for _, v, _ in state.vp_log) == sum(state.vp.values())
    assert f"Game #{game.id} is over" in world.public_text()
    # no private event text was ever posted in the channel
    public = world.public_text()
    for action in await bot.store.actions(game.id, limit=5000):
        for event in action.events:
            if event["audience"] not in (PUBLIC,):
                assert Presenter("en", "klash").event(event) not in public
    # the hand images went by DM only, and the public images do not depend on the hands
    assert any(m.file is not None and "hand" in m.file.filename for u in (2, 3) for m in world.dms(world.users[u]))
    assert not any("hand" in (m.file.filename if m.file else "") for m in world.public())
    other = ENGINE.load_state(record.state)
    other.hands = {p: list(reversed(sorted(set(state.event_cards))))[: len(state.hands[p])] for p in state.seats}
    assert R.arena_png(K.public_view(bot.host, state)) == R.arena_png(K.public_view(bot.host, other))
    images = public_images(world)
    assert images and images[-1] == R.arena_png(K.public_view(bot.host, other))


async def test_closed_dms_fall_back_to_hand_without_naming_cards(bot, world):
    world.users[3].dm_closed = True
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60)], "3": [("dwarf", 100, 60)]})
    cog = bot.get_cog("KlashCog")
    await cog.event.callback(cog, world.interaction(world.users[2], world.channels[10]), card="roar", target=None)
    assert "could not DM" in world.public_text() and "Water Bearer" not in world.public_text()
    hand_cog = bot.get_cog("HandCog")
    await hand_cog.hand.callback(hand_cog, world.interaction(world.users[3], world.channels[10]))
    private = world.ephemeral(world.users[3])
    assert "Water Bearer" in private[0].content
    prompt_copy = next(m for m in private if m.view is not None)
    _, state = await state_of(bot, game.id)
    resp = next(p for p in ENGINE.pending(state) if p.kind == "respond")
    await click(world, prompt_copy, world.users[3], index=[o.id for o in resp.options].index("pass"), in_dm=False)
    _, state = await state_of(bot, game.id)
    assert not state.stack and state.vp["2"] == 1


async def test_status_describes_only_public_things(bot, world):
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60)], "3": [("dwarf", 100, 60)]})
    cog = bot.get_cog("KlashCog")
    await cog.match.callback(cog, world.interaction(world.users[3], world.channels[10]))
    text = world.public_text()
    assert "Hourglass 1/8" in text and "Raging Orc 1" in text and "SAMPLE Raging" not in text
    assert "Crowd Roars" not in text and "Water Bearer" not in text
    assert any(m.file is not None and "arena" in m.file.filename for m in world.public())
    _, state = await state_of(bot, game.id)
    assert "Crowd Roars" in K.describe(ENGINE.view_for(state, "2"), "2")       # /hand: your own cards
    assert "Crowd Roars" not in K.describe(ENGINE.view_for(state, "3"), "3")
    assert "roar" in K.describe(ENGINE.view_for(state, GM), GM)                 # the GM sees every hand
    assert "roar" not in K.describe(ENGINE.view_for(state, PUBLIC), PUBLIC)


async def test_charge_assault_and_magic_by_command(bot, world):
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60), ("acolyte", 40, 80)],
                                             "3": [("dwarf", 28, 60), ("wolf", 55, 80)]})
    cog = bot.get_cog("KlashCog")
    alice, bruno = world.users[2], world.users[3]
    interaction = world.interaction(alice, world.channels[10])
    interaction.namespace = SimpleNamespace(model="m1")
    targets = await cog.ac_charge_target(interaction, "")
    assert [c.value for c in targets] == ["m3"]
    # typed for a Ready model with nothing active: the engine activates it first, in the same action
    await cog.charge.callback(cog, world.interaction(alice, world.channels[10]), model="m1", target="m3",
                              double=False, touch=False)
    windows = []
    asked = world.table().content
    state = await decline_rerolls(bot, world, game.id, windows)
    # seeded: the Charge attack fails (6 against 7) and Alice is asked, with buttons on the table, before
    # it applies
    assert windows and windows[0].player == "2" and "Re-roll with a Training Token?" in asked
    assert "charges" in world.public_text() and not state.acts                  # a Charge ends the activation
    types = [x.action["type"] for x in await bot.store.actions(game.id, limit=20)][::-1]
    assert [t for t in types if t != "choose"][:1] == ["charge"] and "activates" in world.public_text()
    ext = next((p for p in ENGINE.pending(state) if p.kind == "extra_activation"), None)
    if ext:
        await answer(world, game.id, ext, ["no"])
        _, state = await state_of(bot, game.id)
    # Bruno: his Dwarf is in contact with the Orc (unless the Orc was removed) and assaults it by command
    await cog.activate.callback(cog, world.interaction(bruno, world.channels[10]), model="m3")
    _, state = await state_of(bot, game.id)
    assert state.acts and not state.model("m1").removed        # seeded: the Orc survived the Charge
    interaction = world.interaction(bruno, world.channels[10])
    interaction.namespace = SimpleNamespace(model="m3")
    assert [c.value for c in await cog.ac_assault_target(interaction, "")] == ["m1"]
    version = (await bot.store.game(game.id)).version
    await cog.assault.callback(cog, world.interaction(bruno, world.channels[10]), model="m3", target="m1",
                               double=False)
    assert (await bot.store.game(game.id)).version == version + 1
    # the spells of a Spellcaster and their targets come from the engine
    _, state = await state_of(bot, game.id)
    interaction = world.interaction(alice, world.channels[10])
    interaction.namespace = SimpleNamespace(model="m2", spell="mystic_dart")
    spells = await cog.ac_spell(interaction, "")
    assert [c.value for c in spells] == ["mystic_dart", "armour", "healing"]
    assert "m4" in [c.value for c in await cog.ac_spell_target(interaction, "")]


async def test_pause_and_resume_after_a_restart_mid_match(bot, world):
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60)], "3": [("dwarf", 100, 60)]})
    cog = bot.get_cog("KlashCog")
    await cog.activate.callback(cog, world.interaction(world.users[2], world.channels[10]), model="m1")
    await bot.close()
    second = await make_bot(bot.config.db_path)
    try:
        world.attach(second)
        cog = second.get_cog("KlashCog")
        await cog.match.callback(cog, world.interaction(world.users[3], world.channels[10]))
        _, state = await state_of(second, game.id)
        prompt = next(p for p in ENGINE.pending(state) if p.kind == "act")
        message = prompt_message(world, game.id, prompt)
        assert message.public and "actions left" in message.content
        await answer(world, game.id, prompt, ["mv"])
        _, state = await state_of(second, game.id)
        tgt = next(p for p in ENGINE.pending(state) if p.kind == "target")
        await answer(world, game.id, tgt, ["to:alt"])
        _, state = await state_of(second, game.id)
        assert state.model("m1").x > 20 and state.acts[-1].used == 1
    finally:
        await second.close()


async def test_secret_team_house_rule_and_a_guild_pack(bot, world, seed):
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "content/klash/sample.yaml").read_text(encoding="utf-8")
    await bot.store.save_pack(1, "klash", "arena-club", text.replace("SAMPLE: Arena di Prova", "Arena Club"), 1)
    await bot.store.set_house_rule(1, "klash", "secret_team", True)
    cog = bot.get_cog("KlashCog")
    choices = await cog._pack_choices(world.interaction(world.users[2], world.channels[10]), "arena")
    assert [c.value for c in choices] == ["arena-club"]
    # an unknown pack is refused before anything starts
    from rules.common import BautaError
    with pytest.raises(BautaError):
        await cog.draft.callback(cog, world.interaction(world.users[2], world.channels[10]), opponent=world.users[3],
                                 pack="nope")
    # nor can you play against yourself
    with pytest.raises(BautaError):
        await cog.draft.callback(cog, world.interaction(world.users[2], world.channels[10]), opponent=world.users[2])
    seed(11)
    await cog.draft.callback(cog, world.interaction(world.users[2], world.channels[10]), opponent=world.users[3],
                             pack="arena-club")
    game = await bot.store.active_game(1, 10)
    _, state = await state_of(bot, game.id)
    assert state.pack_name == "Arena Club" and state.house_rules["secret_team"] is True
    state = await run_draft(bot, world, game.id, random.Random(8))
    # the team selects are private (DMs); Alice types hers, answered only to her
    assert not [m for m in world.public() if any(":team." in c for c in m.custom_ids())]
    team2 = valid_team(state, "2", 6)
    await cog.team.callback(cog, world.interaction(world.users[2], world.channels[10]),
                            cards=",".join(str(i + 1) for i in team2))
    assert "locked in a team" in world.public_text() and "has chosen a team" not in world.public_text()
    assert "Your team is chosen" in world.ephemeral(world.users[2])[-1].content
    _, state = await state_of(bot, game.id)
    prompt = next(p for p in ENGINE.pending(state) if p.player == "3")
    assert prompt.private and prompt_message(world, game.id, prompt).where == "dm:3"
    await answer(world, game.id, prompt, [f"p{i}" for i in valid_team(state, "3", 8)])
    _, state = await state_of(bot, game.id)
    assert state.phase == "deploy" and "Teams: " in world.public_text()


async def test_card_profiles_are_shown_privately(bot, world):
    await skirmish_game(bot, world, {"2": [("acolyte", 20, 60)], "3": [("dwarf", 100, 60)]})
    cog = bot.get_cog("KlashCog")
    choices = await cog.ac_card(world.interaction(world.users[4], world.channels[10]), "acol")
    assert [c.value for c in choices] == ["acolyte"]
    await cog.card.callback(cog, world.interaction(world.users[4], world.channels[10]), name="m1")
    text = world.ephemeral(world.users[4])[-1].content
    assert "Chaos Acolyte" in text and "Spells: Mystic Dart" in text and "Discipline" in text
    from rules.common import BautaError
    with pytest.raises(BautaError):
        await cog.card.callback(cog, world.interaction(world.users[4], world.channels[10]), name="unicorn")


async def test_card_is_a_lookup_outside_a_running_game(bot, world):
    """No game in the channel: `/klash card` reads the sample pack instead of refusing, in the
    reader's language (the card's Italian name, the qualities' rulebook names)."""
    cog = bot.get_cog("KlashCog")
    carla = world.users[4]
    choices = await cog.ac_card(world.interaction(carla, world.channels[10]), "orc")
    assert "orc" in [c.value for c in choices]
    await cog.card.callback(cog, world.interaction(carla, world.channels[10]), name="orc")
    text = world.ephemeral(carla)[-1].content
    assert "Raging Orc" in text and "VP" in text
    await cog.card.callback(cog, world.interaction(carla, world.channels[10], locale="it"), name="orc")
    italian = world.ephemeral(carla)[-1].content
    assert "Orco" in italian and "PV" in italian and "Raging" not in italian


async def test_typed_commands_take_the_number_shown_on_the_disc(bot, world):
    """The arena draws each model's number on its disc: `model:2` (or `#2`) is model m2, even when
    another model's name ends in 2 (names are numbered per card across both teams)."""
    state = ENGINE.new_skirmish(["2", "3"], {"2": [("orc", 20, 60), ("javelin", 30, 80)], "3": [("dwarf", 100, 60)]},
                                seed=3, options=SAMPLE)
    state.model("m1").name, state.model("m2").name = "Raging Orc 2", "Javelin Thrower 1"
    await bot.store.create_game(1, 10, "klash", ["2", "3"], ENGINE.dump_state(state), 2)
    cog = bot.get_cog("KlashCog")
    await cog.activate.callback(cog, world.interaction(world.users[2], world.channels[10]), model="#2")
    _, state = await state_of(bot, 1)
    assert state.acts[-1].model == "m2"
    await cog.move.callback(cog, world.interaction(world.users[2], world.channels[10]), model="2", x=None, y=None,
                            toward="3", distance=4.0, direction=None, double=False)
    _, state = await state_of(bot, 1)
    assert state.model("m2").x > 30


async def test_gm_undo_per_action_in_the_match(bot, world):
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60)], "3": [("dwarf", 100, 60)]})
    cog = bot.get_cog("KlashCog")
    alice = world.users[2]
    await cog.activate.callback(cog, world.interaction(alice, world.channels[10]), model="m1")
    before = (await bot.store.game(game.id)).state
    await cog.move.callback(cog, world.interaction(alice, world.channels[10]), model="m1", x=None, y=None,
                            toward="alt", distance=None, direction=None, double=True)
    moved = (await bot.store.game(game.id)).state
    assert moved != before
    before_edits = edits(world)
    game_cog = bot.get_cog("GameCog")
    await game_cog.undo.callback(game_cog, world.interaction(world.users[1], world.channels[10]), steps=1)
    record, state = await state_of(bot, game.id)
    assert record.state == before and state.model("m1").x == 20.0
    # one edit: the table says who undid it at its top and shows the undone position
    assert edits(world) == before_edits + 1
    # the activation prompt is posted again and works
    prompt = next(p for p in ENGINE.pending(state) if p.kind == "act")
    await answer(world, game.id, prompt, ["mv2"])
    _, state = await state_of(bot, game.id)
    await answer(world, game.id, next(p for p in ENGINE.pending(state) if p.kind == "target"), ["to:alt"])
    assert (await bot.store.game(game.id)).state["models"][0]["x"] == moved["models"][0]["x"]


async def test_hand_buttons_and_hand_image_come_in_one_dm(bot, world):
    """The Event Card hand image goes with the private card buttons (k:hand:, the answer prompt), drawn
    from that player's own view; no separate hand-image DM while those buttons are up."""
    game = await skirmish_game(bot, world, {"2": [("orc", 20, 60)], "3": [("dwarf", 100, 60)]})
    cog = bot.get_cog("KlashCog")
    alice, bruno = world.users[2], world.users[3]
    await cog.event.callback(cog, world.interaction(alice, world.channels[10]), card="roar", target=None)
    _, state = await state_of(bot, game.id)
    resp = next(p for p in ENGINE.pending(state) if p.kind == "respond")
    message = prompt_message(world, game.id, resp)
    assert message.where == "dm:3" and message.file is not None
    assert _bytes(message.file) == R.hand_png(ENGINE.view_for(state, "3"))          # Bruno's own hand only
    dms_before = len(world.dms(alice))
    await cog.pass_.callback(cog, world.interaction(bruno, world.channels[10]))
    _, state = await state_of(bot, game.id)
    assert state.hands["2"] == ["sand"]
    hand = next(p for p in ENGINE.pending(state) if p.player == "2" and p.kind == "hand")
    message = prompt_message(world, game.id, hand)
    assert message.where == "dm:2" and len(message.custom_ids()) == 1                # Sand in the Eyes
    assert message.file is not None and _bytes(message.file) == R.hand_png(ENGINE.view_for(state, "2"))
    hand_dms = [m for m in world.dms(alice)[dms_before:] if m.file is not None and "hand" in m.file.filename]
    assert hand_dms == [message]                                   # one message: the image and its buttons
    assert not [m for m in world.public() if m.file and "hand" in m.file.filename]


def test_pictures_name_players_never_by_id():
    """Without the members intent `get_user` misses: the table's remembered names, else Player A/B."""
    host = SimpleNamespace(bot=SimpleNamespace(get_user=lambda _id: None))
    seats = ["157722382175520001", "157722382175520002"]
    assert K._names(host, seats) == {seats[0]: "Player A", seats[1]: "Player B"}
    assert K._names(host, seats, {seats[1]: "Bruno"}) == {seats[0]: "Player A", seats[1]: "Bruno"}


async def play_match(bot, world, seed, rnd, locale="en-US"):
    """A whole seeded match through the prompts: teams of 3, hand cards played now and then."""
    game = await start_draft(bot, world, seed, locale=locale)
    while True:
        record, state = await state_of(bot, game.id)
        if not record.active:
            return game, state
        prompts = ENGINE.pending(state)
        if state.phase == "team":
            prompt = prompts[0]
            choice = [f"p{i}" for i in valid_team(state, prompt.player, 3)]
        else:
            hand = [p for p in prompts if p.kind in ("hand", "respond", "event_target")]
            prompt = (rnd.choice(hand) if hand and rnd.random() < 0.3 else
                      next((p for p in prompts if p.kind not in ("hand", "arm_reroll")), prompts[0]))
            choice = _policy(rnd, prompt)
        await answer(world, game.id, prompt, choice, locale=locale)


async def test_a_drawn_card_and_the_hand_it_changed_come_in_one_dm(bot, world, seed):
    """A draw is one DM: its line and the player's hand picture (`news_image`), not the line and
    then the picture on its own. Before, every draw cost two DMs."""
    game, state = await play_match(bot, world, seed, random.Random(7))
    assert state.over
    for player in ("2", "3"):
        dms = world.dms(world.users[int(player)])
        draws = [m for m in dms if "You draw " in (m.content or "") and m.view is None]
        assert draws, "a match deals Event Cards"
        assert all(m.file is not None and m.file.filename == "klash-hand.png" for m in draws)
        # the picture is that player's hand as it was then: never the opponent's
        assert not [m for m in dms if m.file is not None and "draft" not in m.file.filename
                    and m.file.filename not in ("klash-hand.png", f"klash-{game.id}-hand.png")]
        followed = [b for a, b in zip(dms, dms[1:]) if a in draws and (b.content or "").startswith("🃏")]
        assert followed == []               # no picture-only DM right after a draw
