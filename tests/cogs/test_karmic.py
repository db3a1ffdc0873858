"""Karmic through the cog layer: fake interactions, a real SQLite file, sheets that outlive games,
checks with hands by DM, and a full combat (two members and an NPC, several rounds, a
resolve-immediately maneuver, a closed DM, a restart) that never shows a hidden card in the channel."""
from __future__ import annotations

import discord
import re

import pytest

import cogs.karmic as K
from cogs.host.errors import NotGM
from cogs.host import PromptSelect
from rules.common import GM, PUBLIC, BautaError, IllegalAction, NotYourTurn, PackError
from rules.karmic import ENGINE
from rules.karmic.cards import label
from tests.conftest import make_bot
from tests.support.fakes import click
from tests.rules.karmic.helpers import refused_as, said

TABLE = "channel:10"
GM_ROOM = "channel:11"

DEVON_YAML = """
name: Devon
attributes: {might: 1, fortitude: 0, finesse: 0, awareness: 0, will: 0}
skills: {sword: 3, dagger: 2, combat_training: 1, brawling: 2, dodge: 2, tracking: 2}
weapons: [Sword, Dagger]
wielding: [Sword]
"""


# ------------------------------------------------------------------------------ fakes
class Attachment:
    """Enough of discord.Attachment for an import."""

    def __init__(self, filename: str, text: str):
        self.filename = filename
        self.data = text.encode("utf-8")
        self.size = len(self.data)

    async def read(self) -> bytes:
        return self.data


@pytest.fixture
def tracks(monkeypatch):
    """Every view the register track was drawn from (the images posted in the channel)."""
    seen: list[dict] = []
    real = K.R.register_track

    def spy(view, say=None):
        seen.append(view)
        return real(view, say)
    monkeypatch.setattr(K.R, "register_track", spy)
    return seen


def cog_of(bot):
    return bot.get_cog("KarmicCog")


def game_cog(bot):
    return bot.get_cog("GameCog")


def table_text(world) -> str:
    return "\n".join(text for m in world.sent if m.where == TABLE for text in m.texts())


def file_bytes(message) -> bytes:
    fp = message.file.fp
    fp.seek(0)
    return fp.read()


async def import_sheet(bot, world, user, text=DEVON_YAML, filename="devon.yaml", **kw):
    cog = cog_of(bot)
    await cog.character_import.callback(cog, world.interaction(user, world.channels[10]),
                                        file=Attachment(filename, text), **kw)


async def active_game(bot, channel=10):
    return await bot.store.active_game(1, channel)


async def click_deck_button(world, message, user, index):
    item = message.view.children[index]
    custom_id = item.custom_id
    match = K.DeckButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    interaction = world.interaction(user, world.channels[10], message=message, data={"custom_id": custom_id})
    button = await K.DeckButton.from_custom_id(interaction, item.item, match)
    await button.callback(interaction)
    return interaction


async def answer_prompt(world, message, user, prompt, option_id, channel=None, in_dm=None, locale="en-US"):
    """Click the component of `message` that stands for `option_id` of `prompt` (from a client in `locale`)."""
    first = message.view.children[0]
    if isinstance(first, PromptSelect):
        return await click(world, message, user, index=0, values=[option_id], in_dm=in_dm, channel=channel,
                           locale=locale)
    ids = [o.id for o in prompt.options]
    return await click(world, message, user, index=ids.index(option_id), in_dm=in_dm, channel=channel, locale=locale)


# ------------------------------------------------------------------------------ characters and decks
async def test_import_errors_name_the_field_and_change_nothing(bot, world):
    alice = world.users[2]
    with pytest.raises(PackError, match="skills"):
        await import_sheet(bot, world, alice, "name: Bad\nskills: {sword: many}\n", "bad.yaml")
    with pytest.raises(PackError, match="weapons"):
        await import_sheet(bot, world, alice, "name: Bad\nweapons: [Laser Sword]\n", "bad.yaml")
    with pytest.raises(PackError, match="name"):
        await import_sheet(bot, world, alice, '{"skills": {"sword": 2}}', "bad.json")
    with refused_as("reserved", PackError):
        await import_sheet(bot, world, alice, "name: ~world\n", "w.yaml")
    assert await bot.store.characters(1, "karmic") == []


async def test_import_show_list_and_a_reimport_keeps_the_deck(bot, world):
    alice, bruno = world.users[2], world.users[3]
    await import_sheet(bot, world, alice)
    reply = world.ephemeral(alice)[-1].content
    assert "Devon" in reply and "Karma deck — cards: 44" in reply and "Sword (wielded)" in reply
    stored = await bot.store.character(1, alice.id, "karmic", "Devon")
    deck = stored["character"]["deck"]
    assert len(deck["cards"]) == 44 and len(deck["sideboard"]) == 10
    # JSON works too, and sheets belong to their owner
    await import_sheet(bot, world, bruno, '{"name": "Mara", "skills": {"ax": 3}, "weapons": ["Medium Axe"]}',
                       "mara.json")
    cog = cog_of(bot)
    await cog.character_list.callback(cog, world.interaction(alice, world.channels[10]))
    assert "Devon" in world.ephemeral(alice)[-1].content and "Mara" not in world.ephemeral(alice)[-1].content
    await cog.character_show.callback(cog, world.interaction(bruno, world.channels[10]))
    assert "**Mara**" in world.ephemeral(bruno)[-1].content
    with pytest.raises(BautaError):
        await cog.character_show.callback(cog, world.interaction(bruno, world.channels[10]), name="Devon")
    # a re-import changes the sheet but not the deck's state
    stored["character"]["deck"]["discards"] = [stored["character"]["deck"]["cards"].pop()]
    await bot.store.save_character(1, alice.id, "karmic", "Devon", stored)
    await import_sheet(bot, world, alice, DEVON_YAML.replace("tracking: 2", "tracking: 3"))
    again = await bot.store.character(1, alice.id, "karmic", "Devon")
    assert again["character"]["skills"]["tracking"] == 3
    assert again["character"]["deck"] == stored["character"]["deck"]
    # GM sheets are GM-only and stored under owner 0
    with pytest.raises(NotGM):
        await import_sheet(bot, world, alice, "name: Orc\nnpc: true\n", "orc.yaml", gm_sheet=True)
    await import_sheet(bot, world, world.users[1], "name: Orc\nnpc: true\nskills: {brawling: 2}\n", "orc.yaml",
                       gm_sheet=True)
    assert await bot.store.character(1, K.GM_OWNER, "karmic", "Orc") is not None
    assert not all(m.public for m in world.sent) and not world.public()      # nothing of this in a channel


async def test_deck_shows_counts_privately_and_offers_the_reshuffle_when_open(bot, world):
    alice, bruno = world.users[2], world.users[3]
    await import_sheet(bot, world, alice)
    cog = cog_of(bot)
    await cog.deck.callback(cog, world.interaction(alice, world.channels[10]))
    shown = world.ephemeral(alice)[-1]
    assert "deck 44" in shown.content and "No reshuffle window" in shown.content and shown.view is None
    # a Rule-of-Fives window left open by the last game
    stored = await bot.store.character(1, alice.id, "karmic", "Devon")
    deck = stored["character"]["deck"]
    deck["discards"] = [deck["cards"].pop() for _ in range(5)]
    deck["since_shuffle"], deck["offer"] = 5, True
    await bot.store.save_character(1, alice.id, "karmic", "Devon", stored)
    await cog.deck.callback(cog, world.interaction(alice, world.channels[10]))
    shown = world.ephemeral(alice)[-1]
    assert "deck 39" in shown.content and "discards 5" in shown.content and shown.view is not None
    assert not world.public()
    # someone else's click is refused and changes nothing
    await click_deck_button(world, shown, bruno, 0)
    assert "not yours" in world.ephemeral(bruno)[-1].content
    assert (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["deck"]["offer"] is True
    await click_deck_button(world, shown, alice, 0)
    after = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["deck"]
    assert len(after["cards"]) == 44 and after["discards"] == [] and after["offer"] is False
    assert "reshuffled" in world.ephemeral(alice)[-1].content
    await click_deck_button(world, shown, alice, 1)                 # the window is closed now
    assert "No reshuffle window" in world.ephemeral(alice)[-1].content


# ------------------------------------------------------------------------------ checks
async def play_check_by_dm(bot, world, user, game_id):
    """Answer the check's DM prompts (first card, stand on hits, no reshuffle) until it is over."""
    for _ in range(20):
        record = await bot.store.game(game_id)
        if not record.active:
            return record
        state = ENGINE.load_state(record.state)
        prompt = ENGINE.pending(state)[0]
        assert prompt.player == str(user.id) and prompt.private
        message = world.last(f"dm:{user.id}", with_view=True)
        assert prompt.text in message.content
        ids = [o.id for o in prompt.options]
        option = "stand" if "stand" in ids else "no" if "no" in ids else ids[0]
        await answer_prompt(world, message, user, prompt, option)
    raise AssertionError("the check never ended")


async def test_check_hand_by_dm_result_in_channel_hidden_gm_modifier_and_deck_written_back(bot, world, seed):
    alice, gm = world.users[2], world.users[1]
    await import_sheet(bot, world, alice)
    cog = cog_of(bot)
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking",
                             attribute=discord.app_commands.Choice(name="awareness", value="awareness"),
                             difficulty="easy")
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    hand = state.check.sides[0].hand
    assert len(hand) == 2                                           # tracking 2: two cards
    dm = world.last("dm:2", with_view=True)
    assert [b.item.label for b in dm.view.children] == [label(c) for c in hand]
    # the hand picture comes in the same DM as its buttons, drawn from Alice's own view
    assert dm.file is not None and dm.file.filename.endswith("hand.png")
    assert file_bytes(dm)[:8] == b"\x89PNG\r\n\x1a\n"
    # the GM's hidden modifier: an ephemeral answer, nothing in the channel
    await cog.gm_modifier.callback(cog, world.interaction(gm, world.channels[10]), value=-3)
    assert "Hidden modifier -3" in world.ephemeral(gm)[-1].content
    assert "Hidden modifier" not in table_text(world) and "-3" not in world.last(TABLE).content
    with pytest.raises(NotGM):
        await cog.gm_modifier.callback(cog, world.interaction(alice, world.channels[10]), value=5)
    for card in hand:
        assert label(card) not in table_text(world)                 # the hand stays secret until played
    record = await play_check_by_dm(bot, world, alice, game.id)
    final = ENGINE.load_state(record.state)
    played = final.check.sides[0].play.card
    text = table_text(world)
    assert "plays a card" in text and label(played) in text and "hidden GM modifier" in text
    assert ("SUCCESS" in text) or ("FAILURE" in text)
    assert "Hidden modifier -3" not in text
    unplayed = [c for c in hand if c != played]
    for card in unplayed:
        assert label(card) not in text
    # the deck was written back: the two drawn cards are on the discard pile
    stored = await bot.store.character(1, alice.id, "karmic", "Devon")
    assert sorted(stored["character"]["deck"]["discards"]) == sorted(hand + final.check.sides[0].play.chain)
    assert len(stored["character"]["deck"]["cards"]) == 44 - len(stored["character"]["deck"]["discards"])
    assert "Decks saved: Devon" in text


async def test_a_finished_check_frees_the_channel_and_its_reshuffle_offer_waits_in_dm(bot, world, seed):
    """§1.4 Rule of Fives: a check that takes the discards past 5 opens a window; the check is over
    at once (the next /karmic check here starts), and the window is one DM with Reshuffle / Not now
    that works after the game, as `/karmic deck` does."""
    alice = world.users[2]
    await import_sheet(bot, world, alice)
    record = await bot.store.character(1, alice.id, "karmic", "Devon")
    record["character"]["deck"]["since_shuffle"] = 3
    await bot.store.save_character(1, alice.id, "karmic", "Devon", record)
    await stack_deck(bot, alice.id, "Devon", ["3H", "4H"])
    cog = cog_of(bot)
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking")
    game = await active_game(bot)
    message = world.last("dm:2", with_view=True)
    prompt = ENGINE.pending(ENGINE.load_state(game.state))[0]
    await answer_prompt(world, message, alice, prompt, "4H")
    assert (await bot.store.game(game.id)).active is False           # over with its result
    deck = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["deck"]
    assert (deck["since_shuffle"], deck["offer"], sorted(deck["discards"])) == (5, True, ["3H", "4H"])
    offer = world.last("dm:2", with_view=True)
    assert "5 cards discarded" in offer.content
    assert [b.item.label for b in offer.view.children] == ["Reshuffle", "Not now"]
    # the channel is free: the next check starts at once
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="sword")
    second = await active_game(bot)
    assert second is not None and second.id != game.id
    await game_cog(bot).end.callback(game_cog(bot), world.interaction(world.users[1], world.channels[10]))
    # ... and the offer still works once that one is over (its deck is back on the sheet)
    await click_deck_button(world, offer, alice, 1)
    assert "keeps the deck" in world.ephemeral(alice)[-1].content
    assert (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["deck"]["offer"] is False


async def test_a_pack_character_becomes_yours_and_one_character_plays_one_game_at_a_time(bot, world, seed):
    alice = world.users[2]
    cog = cog_of(bot)
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking",
                             character="Enris")
    assert await bot.store.character(1, alice.id, "karmic", "Enris") is not None
    await cog.deck.callback(cog, world.interaction(alice, world.channels[10]), name="Enris")
    assert "in play there" in world.ephemeral(alice)[-1].content
    world.channel(12, "elsewhere")
    with refused_as("already in game", BautaError):
        await cog.check.callback(cog, world.interaction(alice, world.channels[12]), skill="tracking",
                                 character="Enris")
    with refused_as("no Karmic character", BautaError):
        await cog.check.callback(cog, world.interaction(world.users[3], world.channels[12]), skill="tracking")


# ------------------------------------------------------------------------------ combat
def hidden_cards(state) -> set[str]:
    cb = state.combat
    out = set()
    for f in cb.fighters.values():
        out.update(f.hand)
    for r in cb.registers:
        for d in r.decls:
            if not d.revealed:
                out.add(d.card)
    for hand in cb.init_hands.values():
        out.update(hand)
    return out


def shown_cards(state, events) -> set[str]:
    """Cards legitimately public now (to tell another deck's card with the same id from a leak)."""
    shown = set()
    for r in state.combat.registers:
        for d in r.decls:
            if d.revealed:
                shown.update([d.card] + d.chain)
    for e in events:
        if e.get("audience") != PUBLIC:
            continue
        data = e.get("data") or {}
        if e["kind"] == "reveal":
            shown.update(item[2] for item in data.get("cards", []))
        if data.get("card"):
            shown.add(data["card"])
            shown.update(data.get("chain", []))
        for r in (data.get("track") or {}).get("registers", []):
            for d in r["decls"]:
                if d.get("revealed"):
                    shown.update([d["card"]] + d.get("chain", []))
    return shown


def snapshot(world) -> dict[int, str]:
    return {m.id: "\n".join(m.texts()) for m in world.sent if m.where == TABLE}


def assert_public_track(view: dict) -> None:
    """An image drawn for the channel holds no hand and no face-down card."""
    combat = view.get("combat") or {}
    for f in combat.get("fighters", []):
        assert "hand" not in f and "initiative_hand" not in f
    for r in combat.get("registers", []):
        for d in r["decls"]:
            assert d.get("revealed") or "card" not in d


def choose_option(prompt, ri_wanted: bool) -> str:
    ids = [o.id for o in prompt.options]
    if prompt.kind in ("initiative", "initiative_hit"):
        return "stand" if "stand" in ids else ids[0]
    for simple in ("stand", "no", "success", "struggle"):
        if simple in ids:
            return simple
    if prompt.kind == "declare_card":
        return ids[0]                               # the first card of the hand, face down
    if prompt.kind == "declare_location":
        return "legs" if "legs" in ids else ids[0]
    prefs = (["darm.0"] if ri_wanted else []) + ["atk.0", "hatk.h", "par.0", "blk.1", "hblk.h", "mdg.0"]
    for pref in prefs:
        if pref in ids:
            return pref
    for fallback in ("pass", "stop"):
        if fallback in ids:
            return fallback
    return next((i for i in ids if i not in ("hes", "more", "back")), ids[0])


async def test_full_combat_two_members_and_an_npc_never_shows_a_hidden_card(bot, world, seed, tracks):
    """Alice (Devon) and Bruno (Mara, DMs closed) against the GM's Soldier: several rounds by DM,
    `/hand` and the GM room, a resolve-immediately maneuver, a restart mid-fight; after every step,
    no card still hidden appears in any table message, button, file name or image."""
    owner, alice, bruno = world.users[1], world.users[2], world.users[3]
    await bot.store.update_settings(1, gm_channel_id=11)
    await import_sheet(bot, world, alice)
    bruno.dm_closed = True
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    ally=bruno, ally_character="Mara")
    game = await active_game(bot)
    assert game.meta[K.SHEETS] == {"c1": [2, "Devon"], "c2": [3, "Mara"]}
    text = table_text(world)
    assert "Devon" in text and "Mara" in text and "Soldier" in text and "could not DM" in text
    board = next(m for m in world.sent if m.where == TABLE and m.file is not None)
    assert re.fullmatch(rf"karmic-{game.id}-\d+\.png", board.file.filename)
    assert "HP" in board.content and "maneuvers left" in board.content

    current_bot = bot
    restarted = False
    ri_done = False
    rounds_seen = set()
    steps = 0
    while steps < 400:
        steps += 1
        record = await current_bot.store.game(game.id)
        state = ENGINE.load_state(record.state)
        if state.combat.round >= 3 and state.phase == "declare" and not state.over:
            break
        assert not state.over, "the fight ended too early for this test"
        rounds_seen.add(state.combat.round)
        prompt = ENGINE.pending(state)[0]
        old_dm = None
        if state.combat.round == 2 and not restarted and prompt.player == "2":
            # the bot restarts mid-round: the DM button sent before the restart still works
            old_dm = world.last("dm:2", with_view=True)
            await current_bot.close()
            current_bot = await make_bot(bot.config.db_path)
            world.attach(current_bot)
            restarted = True
        want_ri = not ri_done and prompt.player == "2"
        option = choose_option(prompt, want_ri)
        before = snapshot(world)
        if prompt.player == GM:
            message = world.last(GM_ROOM, with_view=True)
            assert prompt.text in message.content
            await answer_prompt(world, message, owner, prompt, option, channel=world.channels[11], in_dm=False)
        elif prompt.player == "2":
            message = world.last("dm:2", with_view=True)
            assert old_dm is None or message is old_dm
            assert prompt.text in message.content
            version = record.version
            await answer_prompt(world, message, alice, prompt, option)
            assert (await current_bot.store.game(game.id)).version > version
        else:
            assert prompt.player == "3" and prompt.private
            gc = current_bot.get_cog("HandCog")
            await gc.hand.callback(gc, world.interaction(bruno, world.channels[10]))
            message = next(m for m in reversed(world.ephemeral(bruno)) if m.view is not None)
            assert prompt.text in message.content
            await answer_prompt(world, message, bruno, prompt, option, in_dm=False)
        if option == "darm.0":
            ri_done = True
        record = await current_bot.store.game(game.id)
        assert record.version > 0
        new_state = ENGINE.load_state(record.state)
        last = (await current_bot.store.actions(game.id, limit=1))[0]
        shown = shown_cards(new_state, last.events)
        after = snapshot(world)
        changed = "\n".join(v for k, v in after.items() if before.get(k) != v)
        for card in hidden_cards(new_state) - shown:
            assert label(card) not in changed, (card, changed)
        for view in tracks:
            assert_public_track(view)
        tracks.clear()
    else:
        raise AssertionError("the fight did not reach round 3")
    assert restarted and ri_done and {1, 2} <= rounds_seen
    text = table_text(world)
    assert "resolve-immediately" in text and "Disarming Attack" in text
    assert "revealed" in text and " = " in text                   # reveals with the arithmetic
    final = ENGINE.load_state((await current_bot.store.game(game.id)).state)
    # no private or GM event text of the whole fight ever reached the table
    table = table_text(world)
    private = [e for a in await current_bot.store.actions(game.id, limit=1000, include_undone=True)
               for e in a.events if e["audience"] != PUBLIC]
    assert private and not [said(e) for e in private if said(e) and said(e) in table]
    # hand images went to DMs only; Bruno (DMs closed) got none, and no DM was retried for him
    assert not any(m.file is not None and "hand" in m.file.filename for m in world.sent if m.public)
    assert any(m.file is not None and "hand" in m.file.filename for m in world.dms(alice))
    assert bruno.dm_attempts == 1
    # one board per round, edited as the round went on; the live one is the public view, exactly
    boards = [m for m in world.sent if m.where == TABLE and m.file is not None and re.fullmatch(r"karmic-\d+-\d+\.png", m.file.filename)
              and not m.deleted]
    assert len(boards) >= 3 and all("final" in b.content and b.view is None for b in boards[:-1])
    assert file_bytes(boards[-1]) == K.R.register_track(ENGINE.view_for(final, PUBLIC))
    assert "final" in boards[0].content                              # round 1's board closed with its snapshot
    # the GM ends the fight: the decks go back to the sheets
    end_cog = cog_of(current_bot)
    await end_cog.combat_end.callback(end_cog, world.interaction(owner, world.channels[10]), reason="They part.")
    assert not (await current_bot.store.game(game.id)).active
    ended = ENGINE.load_state((await current_bot.store.game(game.id)).state)
    devon = (await current_bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    mara = (await current_bot.store.character(1, bruno.id, "karmic", "Mara"))["character"]
    assert devon["deck"] == ended.characters["c1"].deck.to_dict()
    assert mara["deck"] == ended.characters["c2"].deck.to_dict()
    assert devon["hp_marked"] == ended.characters["c1"].hp_marked
    world_deck = (await current_bot.store.character(1, K.GM_OWNER, "karmic", K.WORLD))["world"]
    assert world_deck == ended.world.to_dict()
    assert len(devon["deck"]["cards"]) + len(devon["deck"]["discards"]) == 44      # no card lost
    assert "Decks saved" in table_text(world)
    if current_bot is not bot:
        await current_bot.close()


async def test_bot_played_npcs_and_the_world_deck_carries_over(bot, world, seed):
    alice = world.users[2]
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier, Soldier",
                                    character="Devon", bot_plays_npcs=True)
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    assert [c.name for c in state.characters.values()] == ["Devon", "Soldier", "Soldier 2"]
    assert all(p.player == "2" for p in ENGINE.pending(state))          # nothing waits for the GM
    for _ in range(60):
        record = await bot.store.game(game.id)
        state = ENGINE.load_state(record.state)
        if state.combat.round >= 2 or state.over:
            break
        prompt = ENGINE.pending(state)[0]
        message = world.last("dm:2", with_view=True)
        await answer_prompt(world, message, alice, prompt, choose_option(prompt, False))
    # with no GM room, no private or GM event (NPC hands, world-deck draws) reaches any channel at all
    everything_public = world.public_text()
    private = [e for a in await bot.store.actions(game.id, limit=1000) for e in a.events if e["audience"] != PUBLIC]
    assert not [said(e) for e in private if said(e) and said(e) in everything_public]
    assert not any(m.where == GM_ROOM for m in world.sent)
    gm = world.users[1]
    await cog.combat_end.callback(cog, world.interaction(gm, world.channels[10]))
    stored = (await bot.store.character(1, K.GM_OWNER, "karmic", K.WORLD))["world"]
    ended = ENGINE.load_state((await bot.store.game(game.id)).state)
    assert stored == ended.world.to_dict() and stored["discards"]
    # the next fight draws from the same world deck
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Bandit",
                                    bot_plays_npcs=True)
    nxt = ENGINE.load_state((await active_game(bot)).state)
    assert set(nxt.world.cards) | set(nxt.world.discards) <= set(stored["cards"]) | set(stored["discards"])
    assert len(nxt.world.discards) >= len(stored["discards"])


async def test_combat_start_refuses_bad_setups(bot, world):
    alice = world.users[2]
    cog = cog_of(bot)
    inter = world.interaction(alice, world.channels[10])
    with refused_as("opponent", BautaError):
        await cog.combat_start.callback(cog, inter, character="Devon")
    with refused_as("No NPC called", BautaError):
        await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), character="Devon",
                                        opponents="Dragon")
    with refused_as("once", BautaError):
        await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), character="Devon",
                                        opponent=alice)
    assert await active_game(bot) is None


async def test_gm_sheet_npc_fights_and_is_written_back(bot, world, seed):
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, gm, "name: Orc\nnpc: true\nown_deck: true\nskills: {brawling: 2, sword: 2}\n"
                                       "weapons: [Sword]\n", "orc.yaml", gm_sheet=True)
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Orc",
                                    character="Devon", bot_plays_npcs=True)
    game = await active_game(bot)
    assert game.meta[K.SHEETS]["c2"] == [0, "Orc"]
    await cog.combat_end.callback(cog, world.interaction(gm, world.channels[10]))
    ended = ENGINE.load_state((await bot.store.game(game.id)).state)
    orc = (await bot.store.character(1, K.GM_OWNER, "karmic", "Orc"))["character"]
    assert orc["deck"] == ended.characters["c2"].deck.to_dict()


async def test_describe_and_status_show_only_the_viewers_cards(bot, world, seed):
    alice = world.users[2]
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    character="Devon", bot_plays_npcs=True)
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    mine = K.describe(ENGINE.view_for(state, "2"), "2")
    public = K.describe(ENGINE.view_for(state, PUBLIC), PUBLIC)
    hand = state.combat.fighters["c1"].hand or state.combat.init_hands.get("c1", [])
    assert hand and all(label(c) in mine for c in hand)
    assert not any(label(c) in public for c in hand)
    gc = game_cog(bot)
    await gc.status.callback(gc, world.interaction(world.users[3], world.channels[10]))
    status = next(m for m in reversed(world.sent) if m.where == TABLE and m.file is not None
                  and m.file.filename == f"karmic-{game.id}.png")
    assert "Round" in status.content and "Devon" in status.content
    assert not any(label(c) in table_text(world) for c in set(hand) - shown_cards(state, []))
    assert K.render({"mode": "check"}) == b""


async def test_a_stale_or_foreign_click_is_refused_and_changes_nothing(bot, world, seed):
    alice, bruno = world.users[2], world.users[3]
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponent=bruno,
                                    character="Devon", opponent_character="Mara")
    game = await active_game(bot)
    for _ in range(10):                     # play until Alice owes a declaration
        record = await bot.store.game(game.id)
        state = ENGINE.load_state(record.state)
        prompt = ENGINE.pending(state)[0]
        if prompt.player == "2" and prompt.kind == "declare":
            break
        user = world.users[int(prompt.player)]
        await answer_prompt(world, world.last(f"dm:{user.id}", with_view=True), user, prompt,
                            choose_option(prompt, False))
    message = world.last("dm:2", with_view=True)
    option = choose_option(prompt, False)
    version = (await bot.store.game(game.id)).version
    await answer_prompt(world, message, bruno, prompt, option)            # Bruno clicks Alice's DM button
    assert "not yours" in world.ephemeral(bruno)[-1].content
    assert (await bot.store.game(game.id)).version == version
    buttons = message.view
    await answer_prompt(world, message, alice, prompt, option)
    assert (await bot.store.game(game.id)).version == version + 1
    message.view = buttons                  # a client still showing the old buttons (or a double click)
    await answer_prompt(world, message, alice, prompt, option)            # the same button again: stale
    assert "already been made" in world.ephemeral(alice)[-1].content
    assert (await bot.store.game(game.id)).version == version + 1


async def test_opposed_check_against_an_npc(bot, world, seed):
    alice, gm = world.users[1 + 1], world.users[1]
    await bot.store.update_settings(1, gm_channel_id=11)
    cog = cog_of(bot)
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="sword", character="Devon",
                             opponent="Soldier")
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    npc_hand = state.check.sides[1].hand
    gm_prompt = world.last(GM_ROOM, with_view=True)                  # the GM plays the Soldier's card
    assert "Soldier" in gm_prompt.content
    prompt = next(p for p in ENGINE.pending(state) if p.player == GM)
    await answer_prompt(world, gm_prompt, gm, prompt, prompt.options[0].id, channel=world.channels[11], in_dm=False)
    record = await play_check_by_dm(bot, world, alice, game.id)
    text = table_text(world)
    result = ENGINE.load_state(record.state).check.result
    # Opposed (no joker here): success exactly when Alice's total beats the Soldier's, margin = the difference.
    assert result["success"] == (result["margin"] > 0)
    verdict, other = ("SUCCESS", "FAILURE") if result["success"] else ("FAILURE", "SUCCESS")
    assert "against Soldier" in text and f"→ **{verdict}**" in text and other not in text
    for card in npc_hand:                                              # world-deck draws stay GM-only
        assert label(card) not in text or card in state.check.sides[0].hand
    assert not record.active


async def to_first_declaration(bot, world, game):
    """Answer the initiative prompts by DM until the first declaration is owed: (state, its prompt)."""
    for _ in range(10):
        state = ENGINE.load_state((await bot.store.game(game.id)).state)
        prompt = ENGINE.pending(state)[0]
        if prompt.kind == "declare":
            return state, prompt
        user = world.users[int(prompt.player)]
        await answer_prompt(world, world.last(f"dm:{user.id}", with_view=True), user, prompt,
                            choose_option(prompt, False))
    raise AssertionError("no declaration was ever owed")


async def test_typed_declarations_illegal_ones_are_refused_with_a_reason_and_change_nothing(bot, world, seed):
    """`/karmic combat declare`: the engine refuses what the DM select would never offer."""
    alice, bruno = world.users[2], world.users[3]
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponent=bruno,
                                    character="Devon", opponent_character="Mara")
    game = await active_game(bot)
    state, prompt = await to_first_declaration(bot, world, game)
    holder = world.users[int(prompt.player)]
    other = bruno if holder is alice else alice
    key = next(k for k, c in state.controllers.items() if c == str(holder.id))
    hand = list(state.combat.fighters[key].hand)
    other_key = next(k for k, c in state.controllers.items() if c == str(other.id))
    other_hand = list(state.combat.fighters[other_key].hand)
    version = (await bot.store.game(game.id)).version
    public_before = len(world.public())

    async def declare(user, **kw):
        await cog.combat_declare.callback(cog, world.interaction(user, world.channels[10]), **kw)

    with refused_as("wrestling range"):
        await declare(holder, maneuver="suf", card=hand[0])
    with refused_as("not in your hand"):
        await declare(holder, maneuver="atk", card="ZZ")
    with pytest.raises(NotYourTurn):
        await declare(other, maneuver="atk", card=other_hand[0])
    with refused_as("a defense"):
        await declare(holder, maneuver="par", card=hand[0])
    assert (await bot.store.game(game.id)).version == version
    assert len(world.public()) == public_before or all("face down" not in (m.content or "")
                                                       for m in world.public()[public_before:])
    # a legal typed declaration: the maneuver in the channel, the card only for its owner
    await declare(holder, maneuver="atk", card=hand[0])
    assert (await bot.store.game(game.id)).version == version + 1
    assert "Attack" in table_text(world) and "face down" in table_text(world)
    assert label(hand[0]) not in table_text(world)
    assert any(label(hand[0]) in (m.content or "") for m in world.dms(holder))
    state = ENGINE.load_state((await bot.store.game(game.id)).state)
    assert state.combat.registers[0].decls[0].card == hand[0]
    # the defender cannot attack: he has no initiative
    with refused_as("needs the initiative|a defense|cannot stop"):
        await declare(other, maneuver="atk", card=other_hand[0])
    assert (await bot.store.game(game.id)).version == version + 1


async def test_without_a_gm_room_the_gm_declares_for_npcs_through_hand(bot, world, seed):
    gm, alice = world.users[1], world.users[2]
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    character="Devon")
    game = await active_game(bot)
    gc = bot.get_cog("HandCog")
    gm_turns = 0
    for _ in range(40):
        state = ENGINE.load_state((await bot.store.game(game.id)).state)
        if state.combat.round >= 2:
            break
        prompt = ENGINE.pending(state)[0]
        option = choose_option(prompt, False)
        if prompt.player == GM:
            gm_turns += 1
            await gc.hand.callback(gc, world.interaction(gm, world.channels[10]))
            message = next(m for m in reversed(world.ephemeral(gm)) if m.view is not None)
            assert prompt.text in message.content
            await answer_prompt(world, message, gm, prompt, option, in_dm=False)
        else:
            await answer_prompt(world, world.last("dm:2", with_view=True), alice, prompt, option)
    else:
        raise AssertionError("round 2 never came")
    assert gm_turns >= 1
    assert "GM" in table_text(world)
    assert not any(m.where == GM_ROOM for m in world.sent)


async def test_a_gm_room_that_is_the_table_is_refused_for_npc_hands(bot, world):
    alice = world.users[2]
    await bot.store.update_settings(1, gm_channel_id=10)
    cog = cog_of(bot)
    with refused_as("GM channel", BautaError):
        await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                        character="Devon")
    with refused_as("GM channel", BautaError):
        await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="sword",
                                 character="Devon", opponent="Soldier")
    assert await active_game(bot) is None
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    character="Devon", bot_plays_npcs=True)
    assert await active_game(bot) is not None


@pytest.mark.parametrize("seed_value", [1, 2, 3])
async def test_random_fights_to_the_end_log_no_error_and_leak_nothing(bot, world, seed, caplog, seed_value):
    """Random legal clicks (hesitating and called shots included) with two members against two
    bot-played NPCs: the board and the hand images never fail, no private text reaches the table."""
    import logging
    import random

    seed(seed_value)
    caplog.set_level(logging.WARNING, logger="bauta")
    picker = random.Random(seed_value)
    alice, bruno = world.users[2], world.users[3]
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Bandit, Soldier",
                                    ally=bruno, character="Devon", ally_character="Enris", bot_plays_npcs=True)
    game = await active_game(bot)
    for _ in range(150):
        record = await bot.store.game(game.id)
        if not record.active:
            break
        state = ENGINE.load_state(record.state)
        if state.combat.round >= 4:
            break
        prompt = ENGINE.pending(state)[0]
        ids = [o.id for o in prompt.options]
        option = picker.choice([i for i in ids if i != "more"] or ids)
        if prompt.player == GM:     # a joker is the GM's ruling, even when the bot plays the NPCs
            await bot.host.choose(world.interaction(world.users[1], world.channels[10]), game.id, prompt.id, [option])
            continue
        user = world.users[int(prompt.player)]
        await answer_prompt(world, world.last(f"dm:{user.id}", with_view=True), user, prompt, option)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    table = table_text(world)
    private = [e for a in await bot.store.actions(game.id, limit=1000) for e in a.events if e["audience"] != PUBLIC]
    assert not [said(e) for e in private if said(e) and said(e) in table]
    boards = [m for m in world.sent if m.where == TABLE and m.file is not None]
    assert boards


# ------------------------------------------------------------------------------ forced ends and private refusals
def assert_whole(deck: dict, size: int) -> None:
    """No card lost or doubled: the deck and its discard pile hold every card once."""
    cards = deck["cards"] + deck["discards"]
    assert len(cards) == len(set(cards)) == size, (len(cards), len(set(cards)))


async def test_game_end_by_the_gm_mid_fight_writes_the_decks_back_and_loses_no_card(bot, world, seed):
    """`/game end` runs the system's `on_over`: the cards still in hands, face down in registers
    or in initiative hands go back to their discard piles, then the decks are saved."""
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, alice)
    await import_sheet(bot, world, gm, "name: Orc\nnpc: true\nown_deck: true\nskills: {brawling: 2, sword: 2}\n"
                                       "weapons: [Sword]\n", "orc.yaml", gm_sheet=True)
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Orc, Soldier",
                                    character="Devon", bot_plays_npcs=True)
    game = await active_game(bot)
    assert game.meta[K.SHEETS] == {"c1": [2, "Devon"], "c2": [0, "Orc"]} and game.meta[K.USES_WORLD]
    for _ in range(60):                     # into the declarations: a face-down card and a hand in play
        state = ENGINE.load_state((await bot.store.game(game.id)).state)
        if any(d.card and not d.revealed for r in state.combat.registers for d in r.decls):
            break
        prompt = ENGINE.pending(state)[0]
        await answer_prompt(world, world.last("dm:2", with_view=True), alice, prompt, choose_option(prompt, False))
    else:
        raise AssertionError("no card was ever declared face down")
    in_play = set(state.combat.fighters["c1"].hand) | {d.card for r in state.combat.registers for d in r.decls
                                                      if d.owner == "c1" and d.card}
    assert in_play
    gc = game_cog(bot)
    await gc.end.callback(gc, world.interaction(gm, world.channels[10]))
    assert not (await bot.store.game(game.id)).active
    devon = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    orc = (await bot.store.character(1, K.GM_OWNER, "karmic", "Orc"))["character"]
    assert_whole(devon["deck"], 44)
    assert in_play <= set(devon["deck"]["discards"])               # the hand and the face-down card came back
    assert_whole(orc["deck"], 44)
    world_deck = (await bot.store.character(1, K.GM_OWNER, "karmic", K.WORLD))["world"]
    assert_whole(world_deck, 42) and world_deck["discards"]       # the Soldier drew from the world deck
    [chronicle] = world.chronicles()                  # the GM's reply, then one message: what was saved
    assert chronicle.content.startswith("💾 Decks saved: Devon, Orc.\n") and "Chronicle of" in chronicle.content
    # the characters are free again
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking", character="Devon")
    assert await active_game(bot) is not None


async def test_game_end_voted_by_the_players_mid_check_writes_the_hand_back(bot, world, seed):
    alice = world.users[2]
    await import_sheet(bot, world, alice)
    cog = cog_of(bot)
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking")
    game = await active_game(bot)
    hand = ENGINE.load_state(game.state).check.sides[0].hand
    gc = game_cog(bot)
    await gc.end.callback(gc, world.interaction(alice, world.channels[10]))    # the only seat: the vote ends it
    assert not (await bot.store.game(game.id)).active
    deck = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["deck"]
    assert_whole(deck, 44)
    assert sorted(deck["discards"]) == sorted(hand)
    assert "Decks saved: Devon" in table_text(world)


async def call(world, command, user, channel=10, **kwargs):
    """Run a slash command as discord.py does: an error goes through the tree's error reply."""
    from cogs.host.errors import report_error

    interaction = world.interaction(user, world.channels[channel])
    try:
        await command.callback(cog_of(world.bot), interaction, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the tree's error handler does this in production
        await report_error(interaction, exc)
    return interaction


async def test_refusals_reach_only_their_sender_and_public_lines_go_to_the_channel(bot, world, seed):
    """The cog leaves the acknowledgement to the host: private, so an engine refusal (or one of
    the cog's own, before the game starts) is seen by its sender only."""
    gm, alice, bruno = world.users[1], world.users[2], world.users[3]
    cog = cog_of(bot)
    await call(world, cog.combat_start, alice, opponent=bruno, character="Devon",
                         opponent_character="Mara")
    assert world.ephemeral(alice)[-1].content == "✓ Done."           # the private acknowledgement
    assert "starts a fight" in table_text(world)
    game = await active_game(bot)
    state, prompt = await to_first_declaration(bot, world, game)
    holder = world.users[int(prompt.player)]
    other = bruno if holder is alice else alice
    public_before = len(world.public())
    refused = [await call(world, cog.combat_declare, other, maneuver="atk", card="ZZ"),
               await call(world, cog.combat_declare, holder, maneuver="atk", card="ZZ"),
               await call(world, cog.gm_modifier, gm, value=-2, hidden=False, side=12),   # no fighter 12
               await call(world, cog.check, alice, channel=10, skill="tracking", character="Devon")]
    assert all(i.response.deferred is None or i.response.deferred.ephemeral for i in refused)
    assert "not in your hand" in world.ephemeral(holder)[-1].content
    assert "no fighter number 12" in world.ephemeral(gm)[-1].content.lower()
    assert len(world.public()) == public_before                      # nothing of the refusals in public
    # a legal typed declaration: the "face down" line is a channel message, the sender gets "✓ Done."
    key = next(k for k, c in state.controllers.items() if c == str(holder.id))
    card = state.combat.fighters[key].hand[0]
    done = await call(world, cog.combat_declare, holder, maneuver="atk", card=card)
    assert done.response.deferred is None and done.followups_sent == 0    # answered once, after the commit
    assert world.ephemeral(holder)[-1].content == "✓ Done."
    assert "face down" in table_text(world) and label(card) not in table_text(world)
    # the GM ends the fight: the reason in the channel, the decks written back
    await call(world, cog.combat_end, gm, reason="They part.")
    assert "They part." in table_text(world) and "Decks saved: Devon, Mara" in table_text(world)
    assert not (await bot.store.game(game.id)).active


async def test_the_live_board_is_reposted_when_deleted_and_moved_down_by_combat_board(bot, world, seed):
    alice = world.users[2]
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                    character="Devon", bot_plays_npcs=True)
    game = await active_game(bot)

    def boards():
        return [m for m in world.sent if m.where == TABLE and m.file is not None and re.fullmatch(r"karmic-\d+-\d+\.png", m.file.filename)
                and not m.deleted]

    async def step():
        state = ENGINE.load_state((await bot.store.game(game.id)).state)
        prompt = ENGINE.pending(state)[0]
        await answer_prompt(world, world.last("dm:2", with_view=True), alice, prompt, choose_option(prompt, False))

    first = boards()[-1]
    assert (await bot.store.game(game.id)).meta[K.LIVE]["message"] == first.id
    await step()
    assert first.edits == 0               # Devon's first choice changes nothing the table shows: no edit
    await step()
    assert len(boards()) == 1 and first.edits == 1                   # his declaration: edited in place
    first.deleted = True                                             # someone deleted the board
    await step()
    await step()                          # (the next change the table shows finds it gone: posted again)
    second = boards()[-1]
    assert second is not first and (await bot.store.game(game.id)).meta[K.LIVE]["message"] == second.id
    await call(world, cog.combat_board, alice)
    assert world.ephemeral(alice)[-1].content == "Board posted."
    third = boards()[-1]
    assert third is not second and (await bot.store.game(game.id)).meta[K.LIVE]["message"] == third.id
    edits = second.edits
    await step()
    await step()                           # the round ends: its board stays as its record, a new one follows
    fourth = boards()[-1]
    assert second.edits == edits and fourth not in (second, third) and "**Round 2**" in fourth.content
    assert (await bot.store.game(game.id)).meta[K.LIVE]["message"] == fourth.id and "**Round 1**" in third.content
    assert third.view is None and not third.deleted                # only the newest board follows the fight
    # in a check there is no board: the refusal is private
    await call(world, cog.combat_end, world.users[1])
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking", character="Devon")
    public = len(world.public())
    await call(world, cog.combat_board, alice)
    assert "not a combat" in world.ephemeral(alice)[-1].content and len(world.public()) == public


# ------------------------------------------------------------------------------ ranged attacks (/karmic shoot, /karmic aim)
ENRIS_YAML = """
name: Enris
attributes: {might: 0, fortitude: 1, finesse: 1, awareness: 2, will: 0}
skills: {spear_throwing: 3, bow: 2, tracking: 3}
weapons: [Thrown Spear, Short Bow]
"""


async def stack_deck(bot, owner: int, name: str, cards: list[str]) -> None:
    """Put these cards on top of a stored karma deck, drawn in the order given."""
    from rules.karmic.character import Character
    record = await bot.store.character(1, owner, "karmic", name)
    char = Character.from_dict(record["character"])
    char.deck.stack(cards)
    record["character"] = char.to_dict()
    await bot.store.save_character(1, owner, "karmic", name, record)


async def play_cards_by_dm(bot, world, game_id, wanted: dict[int, str]) -> object:
    """Each member plays the card `wanted[user id]` from the DM buttons, then stands/declines until over."""
    users = {u.id: u for u in world.users.values()}
    for _ in range(20):
        record = await bot.store.game(game_id)
        if not record.active:
            return record
        state = ENGINE.load_state(record.state)
        prompt = ENGINE.pending(state)[0]
        assert prompt.private and prompt.player.isdigit()
        user = users[int(prompt.player)]
        ids = [o.id for o in prompt.options]
        option = "stand" if "stand" in ids else "no" if "no" in ids else wanted[user.id]
        message = world.last(f"dm:{user.id}", with_view=True)
        assert prompt.text in message.content
        await answer_prompt(world, message, user, prompt, option)
    raise AssertionError("the check never ended")


async def test_shoot_a_dodging_member_through_dm_hands_uses_the_digest_arithmetic(bot, world, seed):
    """§5.2/§5.3/§5.5: Thrown Spear at 5 yards (range 30: short band −2), target stationary (+1),
    finesse +1, force 0; the target's DODGE+Awareness total, when positive, comes off the attack."""
    alice, bruno = world.users[2], world.users[3]
    await import_sheet(bot, world, alice, ENRIS_YAML, "enris.yaml")
    await import_sheet(bot, world, bruno)                             # Devon: dodge 2, awareness 0
    await stack_deck(bot, alice.id, "Enris", ["5S", "AS", "2S"])
    await stack_deck(bot, bruno.id, "Devon", ["3S", "2H"])
    cog = cog_of(bot)
    await cog.shoot.callback(cog, world.interaction(alice, world.channels[10]), weapon="Thrown Spear",
                             distance=5, target_member=bruno,
                             defense=discord.app_commands.Choice(name="dodge", value="dodge"),
                             situation="stationary")
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    assert sorted(state.check.sides[0].hand) == ["2S", "5S", "AS"]      # spear throwing 3: three cards
    assert state.check.sides[1].skill == "dodge" and state.check.sides[1].attribute == "awareness"
    assert sorted(state.check.sides[1].hand) == ["2H", "3S"]
    assert game.meta[K.SHEETS] == {"c1": [2, "Enris"], "o1": [3, "Devon"]}
    assert "Thrown Spear" in table_text(world) and "dodges" in table_text(world)
    for card in ("5S", "AS", "2S", "3S", "2H"):
        assert label(card) not in table_text(world)                    # both hands stay in the DMs
    record = await play_cards_by_dm(bot, world, game.id, {alice.id: "5S", bruno.id: "3S"})
    result = ENGINE.load_state(record.state).check.result
    # 5 + finesse 1 + force 0 + stationary +1 + short range −2 = 5; dodge 3 + 0 = 3 → 5 − 3 = 2 > 0: a hit
    assert result["mt"] == 5 and result["attack_total"] == 2 and result["success"]
    assert result["damage_total"] == 5 + 0 + 1 and result["damage"] == 5      # capped by max damage 5
    text = table_text(world)
    assert "SUCCESS" in text and "damage 6 (max 5) = 5" in text
    assert label("AS") not in text and label("2H") not in text          # unplayed cards never shown
    enris = await bot.store.character(1, alice.id, "karmic", "Enris")
    devon = await bot.store.character(1, bruno.id, "karmic", "Devon")
    assert sorted(enris["character"]["deck"]["discards"]) == ["2S", "5S", "AS"]
    assert sorted(devon["character"]["deck"]["discards"]) == ["2H", "3S"]


async def test_shoot_into_melee_a_negative_total_hits_another_and_defenses_are_refused(bot, world, seed):
    """§5.6 (T9): firing into a melee, no dodge or block; −5 + finesse 1 = −4 hits another combatant
    with the inverse card value: 5 + might 0 + edge 1 = 6, max damage 5."""
    alice = world.users[2]
    await import_sheet(bot, world, alice, ENRIS_YAML, "enris.yaml")
    cog = cog_of(bot)
    with refused_as("cannot dodge or block", BautaError):
        await cog.shoot.callback(cog, world.interaction(alice, world.channels[10]), weapon="Thrown Spear",
                                 distance=1, target="Soldier", into_melee=True,
                                 defense=discord.app_commands.Choice(name="dodge", value="dodge"))
    with refused_as("needs a target", BautaError):
        await cog.shoot.callback(cog, world.interaction(alice, world.channels[10]), weapon="Thrown Spear",
                                 distance=1, defense=discord.app_commands.Choice(name="dodge", value="dodge"))
    with refused_as("out of range"):
        await cog.shoot.callback(cog, world.interaction(alice, world.channels[10]), weapon="Thrown Spear",
                                 distance=31)
    assert await active_game(bot) is None and not world.public()
    await stack_deck(bot, alice.id, "Enris", ["5H", "AS", "2S"])
    await cog.shoot.callback(cog, world.interaction(alice, world.channels[10]), weapon="Thrown Spear",
                             distance=1, target="Soldier", into_melee=True)
    game = await active_game(bot)
    record = await play_cards_by_dm(bot, world, game.id, {alice.id: "5H"})
    result = ENGINE.load_state(record.state).check.result
    assert result["attack_total"] == -4 and result["into_melee"] == "other"
    assert result["damage_total"] == 6 and result["damage"] == 5
    assert "another combatant in the melee" in table_text(world)


async def test_aim_rounds_then_fire_from_the_aim_row(bot, world, seed):
    """§5.4 (T8): Thrown Spear, Aim 3: four rounds of aiming push out the oldest card (2♠); firing
    uses the best card showing (5♠) for attack and damage: 5 + 1 + 0 + 1 − 2 = 5, damage 5 + 0 + 1 → 5."""
    alice = world.users[2]
    await import_sheet(bot, world, alice, ENRIS_YAML, "enris.yaml")
    await stack_deck(bot, alice.id, "Enris", ["2S", "4H", "7H", "5S"])
    cog = cog_of(bot)
    for _ in range(4):
        await cog.aim_weapon.callback(cog, world.interaction(alice, world.channels[10]), weapon="Thrown Spear")
    stored = await bot.store.character(1, alice.id, "karmic", "Enris")
    assert stored["character"]["aim_row"] == ["4H", "7H", "5S"]
    assert stored["character"]["deck"]["discards"] == ["2S"]
    last = world.last(TABLE).content
    assert "aim row" in last and label("5S") in last and label("2S") in last and "pushed out" in last
    with refused_as("no weapon called 'Sword'"):
        await cog.aim_weapon.callback(cog, world.interaction(alice, world.channels[10]), weapon="Sword")
    await cog.shoot.callback(cog, world.interaction(alice, world.channels[10]), weapon="Thrown Spear",
                             distance=5, situation="stationary", from_aim=True, target="Deer")
    game = await active_game(bot)
    assert sorted(ENGINE.load_state(game.state).check.sides[0].hand) == ["4H", "5S", "7H"]
    record = await play_cards_by_dm(bot, world, game.id, {alice.id: "5S"})
    result = ENGINE.load_state(record.state).check.result
    assert result["attack_total"] == 5 and result["success"]
    assert result["damage_total"] == 6 and result["damage"] == 5
    stored = await bot.store.character(1, alice.id, "karmic", "Enris")
    assert stored["character"]["aim_row"] == []
    assert sorted(stored["character"]["deck"]["discards"]) == ["2S", "4H", "5S", "7H"]


# ------------------------------------------------------------------------------ combat start: charge, surprise, dodge-only, riding, pairs
async def drive_round(bot, world, game_id, prefer_card=None, steps=60):
    """Answer the members' DM prompts (NPCs are bot-played) until round 2 starts; the events of round 1."""
    users = {u.id: u for u in world.users.values()}
    for _ in range(steps):
        record = await bot.store.game(game_id)
        state = ENGINE.load_state(record.state)
        if state.over or state.combat.round >= 2:
            actions = await bot.store.actions(game_id, limit=500)
            return state, [e for a in actions for e in a.events]
        prompt = ENGINE.pending(state)[0]
        assert prompt.player.isdigit() and prompt.private, prompt
        ids = [o.id for o in prompt.options]
        option = prefer_card if prompt.kind == "declare_card" and prefer_card in ids else choose_option(prompt, False)
        user = users[int(prompt.player)]
        await answer_prompt(world, world.last(f"dm:{user.id}", with_view=True), user, prompt, option)
    raise AssertionError("round 1 never ended")


async def test_combat_start_with_a_charge_pairs_dodge_only_and_riding(bot, world, seed):
    """§2.12: the charger (Devon, reach 1 vs the Soldier's 1) has the initiative, no initiative draw,
    exactly one maneuver each in that round; §3.6 a dodging-only fighter draws a whole DODGE hand;
    riding (multitasking) draws the lower of the two hands; `pairs` sets who fights whom."""
    alice, bruno = world.users[2], world.users[3]
    await import_sheet(bot, world, alice)
    cog = cog_of(bot)
    with refused_as("No fighter called `Dragon`", BautaError):
        await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                        charge="Dragon")
    with pytest.raises(NotGM):
        await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier",
                                        surprised="Soldier")
    assert await active_game(bot) is None
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier, Bandit",
                                    ally=bruno, ally_character="Mara", bot_plays_npcs=True, charge="Devon",
                                    pairs="Devon-Soldier; Mara-Bandit", dodge_only="Soldier", riding="Mara")
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    cb = state.combat
    assert [(e.a, e.b) for e in cb.engagements] == [("c1", "c3"), ("c2", "c4")]
    assert cb.engagements[0].init == "c1" and cb.charge == "c1"
    assert state.phase == "declare" and not any(p.kind.startswith("initiative") for p in ENGINE.pending(state))
    # Devon sword 3 → 3 cards; Mara riding (untrained: 1) → 1; the Soldier dodging only (untrained) → 1
    assert [len(cb.fighters[k].hand) for k in ("c1", "c2", "c3")] == [3, 1, 1]
    assert cb.fighters["c3"].dodge_hand and cb.fighters["c2"].multitask == "riding"
    assert "charges" in table_text(world)
    state, events = await drive_round(bot, world, game.id)
    assert state.over or state.combat.round == 2
    declared = [e for e in events if e["kind"] == "declare" and e["audience"] == PUBLIC]
    by_devon = [e for e in declared if said(e).startswith("Devon")]
    by_soldier = [e for e in declared if said(e).startswith("Soldier")]
    assert len(by_devon) == 1 and len(by_soldier) <= 1       # the charge: one maneuver each


async def test_gm_surprise_gives_one_attack_that_cannot_be_defended(bot, world, seed):
    """§2.13: the Soldier has no combat training, so he cannot try to avoid the surprise: no hand in
    round 1, Devon's attack is unopposed; the next round deals him a normal hand (sword 2 → 2 cards)."""
    gm = world.users[1]
    await import_sheet(bot, world, gm)
    await stack_deck(bot, gm.id, "Devon", ["9S", "8S", "7S"])
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(gm, world.channels[10]), opponents="Soldier",
                                    surprised="Soldier", bot_plays_npcs=True)
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    assert state.combat.surprise == {"attacker": "c1", "target": "c2", "active": True}
    assert state.combat.fighters["c2"].hand == [] and sorted(state.combat.fighters["c1"].hand) == ["7S", "8S", "9S"]
    assert "caught by surprise" in table_text(world)
    state, events = await drive_round(bot, world, game.id, prefer_card="9S")
    outs = [o for e in events if e["kind"] == "resolve" and e["audience"] == PUBLIC for o in e["data"]["outcomes"]]
    assert outs and outs[0]["unopposed"] and outs[0]["success"]
    assert not state.over                      # one sword hit does not take out the Soldier
    assert len(state.combat.fighters["c2"].hand) == 2


# ------------------------------------------------------------------------------ combined and multiple skills
async def test_check_with_helpers_plays_a_helpers_best_card_and_skill2_draws_the_lower_hand(bot, world, seed):
    """§1.10 (T10): each helper draws a hand and offers his single best card; the lead may play it
    and the lead's attribute applies (A12): 9♠ from Bruno's hand + Alice's awareness 2 = 11.
    Two skills at once draw the hand of the lower one (tracking 3, charm 2 → 2 cards)."""
    alice, bruno, _carla = world.users[2], world.users[3], world.users[4]
    await import_sheet(bot, world, alice, ENRIS_YAML.replace("bow: 2", "bow: 2, charm: 2")
                       .replace("finesse: 1, awareness: 2", "finesse: 1, awareness: 2"), "enris.yaml")
    await import_sheet(bot, world, bruno)                        # Devon: tracking 2
    await stack_deck(bot, alice.id, "Enris", ["2S", "3H", "4H"])
    await stack_deck(bot, bruno.id, "Devon", ["9S", "3H"])
    cog = cog_of(bot)
    aware = discord.app_commands.Choice(name="awareness", value="awareness")
    with refused_as("helper", BautaError):
        await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking",
                                 helper=alice)
    with pytest.raises(NotGM):
        await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking",
                                 helper=bruno, max_helpers=1)
    assert await active_game(bot) is None
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking",
                             attribute=aware, helper=bruno)
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    assert sorted(state.check.sides[0].hand) == ["2S", "3H", "4H"]     # tracking 3
    assert state.check.sides[0].helper_cards == {"h1": "9S"}
    assert game.meta[K.SHEETS] == {"c1": [2, "Enris"], "h1": [3, "Devon"]}
    assert "helps and offers a card" in table_text(world) and label("9S") not in table_text(world)
    assert any(label("9S") in m.content for m in world.dms(bruno))    # the helper sees his own hand
    prompt = ENGINE.pending(state)[0]
    assert [o.id for o in prompt.options][-1] == "h1:9S"
    record = await play_cards_by_dm(bot, world, game.id, {alice.id: "h1:9S"})
    final = ENGINE.load_state(record.state)
    assert final.check.result["mt"] == 9 + 2 and final.check.result["success"]
    devon = await bot.store.character(1, bruno.id, "karmic", "Devon")
    assert sorted(devon["character"]["deck"]["discards"]) == ["3H", "9S"]        # written back
    # two skills at once: the lower hand
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="tracking",
                             attribute=aware, skill2="charm")
    game = await active_game(bot)
    assert len(ENGINE.load_state(game.state).check.sides[0].hand) == 2


# ------------------------------------------------------------------------------ time-outs
async def test_gm_nudge_answers_every_overdue_prompt_with_its_default_and_keeps_secrets(bot, world, seed):
    owner, alice = world.users[1], world.users[2]
    await bot.store.update_settings(1, gm_channel_id=11)
    await import_sheet(bot, world, alice)
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier")
    game = await active_game(bot)
    state = ENGINE.load_state(game.state)
    overdue = {p.id for p in ENGINE.pending(state)}
    assert overdue == {"declare.1.1.c1.a-1.m0"}                   # Devon's first declaration
    assert ENGINE.default_option(state, "declare.1.1.c1.a-1.m0") == "hes"   # a time-out yields the initiative
    with pytest.raises(NotGM):
        await cog.combat_nudge.callback(cog, world.interaction(alice, world.channels[10]))
    with refused_as("not 60 yet", BautaError):
        await cog.combat_nudge.callback(cog, world.interaction(owner, world.channels[10]), minutes=60)
    assert (await active_game(bot)).version == game.version
    before = snapshot(world)
    await cog.combat_nudge.callback(cog, world.interaction(owner, world.channels[10]))
    record = await active_game(bot)
    new_state = ENGINE.load_state(record.state)
    assert not overdue & {p.id for p in ENGINE.pending(new_state)}         # every overdue prompt answered
    actions = await bot.store.actions(game.id, limit=50)
    assert len(actions) >= 1 and all(a.actor == "timeout" for a in actions)
    assert [a.action["options"] for a in actions] == [["hes"]]
    assert "Devon gives the initiative to Soldier" in table_text(world)
    assert world.ephemeral(owner)[-1].content == "1 overdue decision answered with its default."
    after = snapshot(world)
    changed = "\n".join(v for k, v in after.items() if before.get(k) != v)
    assert "Time-out" in changed
    shown = set()
    for a in actions:
        shown |= shown_cards(new_state, a.events)
    for card in hidden_cards(new_state) - shown:
        assert label(card) not in changed
    # the answers only cover what was overdue: the new decision (the Soldier's) waits for the GM
    waiting = ENGINE.pending(new_state)
    assert waiting and waiting[0].player == GM and not new_state.over
    # a second nudge answers it with the bot's policy for an NPC seat
    await cog.combat_nudge.callback(cog, world.interaction(owner, world.channels[10]))
    assert waiting[0].id not in {p.id for p in ENGINE.pending(ENGINE.load_state((await active_game(bot)).state))}


async def test_gm_hidden_modifier_in_combat_reaches_only_the_gm(bot, world, seed):
    """A hidden standing modifier on a fighter: the GM's ephemeral answer and the GM room; the table,
    the public view and the board image never hold it."""
    owner, alice = world.users[1], world.users[2]
    await bot.store.update_settings(1, gm_channel_id=11)
    await import_sheet(bot, world, alice)
    cog = cog_of(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Soldier")
    before = snapshot(world)
    with pytest.raises(NotGM):
        await cog.gm_modifier.callback(cog, world.interaction(alice, world.channels[10]), value=-3, side=2)
    with refused_as("No fighter number 3"):
        await cog.gm_modifier.callback(cog, world.interaction(owner, world.channels[10]), value=-3, side=3)
    await cog.gm_modifier.callback(cog, world.interaction(owner, world.channels[10]), value=-3, side=2)
    assert "Hidden modifier -3" in world.ephemeral(owner)[-1].content
    state = ENGINE.load_state((await active_game(bot)).state)
    assert state.combat.fighters["c2"].gm_hidden == -3
    after = snapshot(world)
    changed = "\n".join(v for k, v in after.items() if before.get(k) != v)
    assert "-3" not in changed and "Hidden modifier" not in table_text(world)
    assert "hidden_modifier" not in repr(ENGINE.view_for(state, PUBLIC))
    assert any("Hidden modifier -3" in m.content for m in world.sent if m.where == GM_ROOM)


# ------------------------------------------------------------------------------ advancement and karma (/karmic-advance)
def choice(value: str):
    return discord.app_commands.Choice(name=value, value=value)


def advance_cog(bot):
    return bot.get_cog("KarmicAdvanceCog")


async def test_karma_award_is_paid_in_cards_and_reaches_the_owner_privately(bot, world, seed):
    """§6.3/§1.3: a +4 award removes negative cards totalling exactly 4 from the deck to the sideboard."""
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, alice)
    cog = advance_cog(bot)
    with pytest.raises(NotGM):
        await cog.advance_karma.callback(cog, world.interaction(alice, world.channels[10]), member=alice,
                                         amount=4, cards="4H", how=choice("remove_negative"))
    with pytest.raises(IllegalAction) as exc:
        await cog.advance_karma.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                         amount=4, cards="3H", how=choice("remove_negative"))
    assert (exc.value.code, exc.value.params) == ("cards_do_not_add_up", {"total": 3, "want": 4})
    with pytest.raises(IllegalAction) as exc:
        await cog.advance_karma.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                         amount=4, cards="4S", how=choice("remove_positive"))
    assert exc.value.code == "wrong_payment"
    deck = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["deck"]
    assert len(deck["cards"]) == 44 and len(deck["sideboard"]) == 10            # refusals changed nothing
    assert await active_game(bot) is None and world.public() == []              # ... and opened no session
    interaction = world.interaction(gm, world.channels[10])
    await cog.advance_karma.callback(cog, interaction, member=alice, amount=4, cards="AH 3H",
                                     how=choice("remove_negative"))
    deck = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["deck"]
    assert len(deck["cards"]) == 42 and "AH" in deck["sideboard"] and "3H" in deck["sideboard"]
    dm = world.dms(alice)[-1].content
    assert "karma +4 paid with A♥, 3♥" in dm and "cards in the deck: 42, sideboard: 12" in dm
    assert "karma +4" in world.ephemeral(gm)[-1].content
    assert "A♥" not in world.public_text()                       # what is left in a deck stays private
    assert "Advancement is open here" in world.public_text()


async def test_effort_gives_skill_checks_and_improvement_draws_at_most_once_per_skill(bot, world, seed):
    """§6.8 (T15): hard work = 3 checks; a draw improves a skill when it beats the level (tracking 2:
    5♠ → 3); listed twice it still improves once; the unspent check is saved; 8 checks buy an
    attribute attempt (long and tiring = 8; might 1: 3♠ → 2); a teacher adds a card, the best is used."""
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, alice)
    cog = advance_cog(bot)
    await stack_deck(bot, alice.id, "Devon", ["5S"])
    await cog.advance_effort.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                      effort=choice("hard"), skills="tracking, tracking")
    stored = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert stored["skills"]["tracking"] == 3 and stored["saved_checks"] == 1
    text = table_text(world)
    assert "hard work: 3 skill checks" in text and "• tracking: 5♠ = +5 against 2 → improves to 3" in text
    assert "already improved" in text and "skill checks saved 1" in text
    # /game end closes the session (the sheet was saved at each step); stacking the stored deck
    # needs Devon out of it
    await game_cog(bot).end.callback(game_cog(bot), world.interaction(gm, world.channels[10]))
    assert "Decks saved: Devon" in table_text(world)
    await stack_deck(bot, alice.id, "Devon", ["3S"])
    await cog.advance_effort.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                      effort=choice("long_and_tiring"), attribute=choice("might"))
    stored = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert stored["attributes"]["might"] == 2 and stored["saved_checks"] == 1       # 1 + 8 − 8
    assert "• Might: 3♠ = +3 against 1 → improves to 2" in table_text(world)
    with pytest.raises(IllegalAction) as exc:
        await cog.advance_effort.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                          effort=choice("some"), attribute=choice("might"))
    assert (exc.value.code, exc.value.params) == ("attribute_costs_8", {"checks": 2})
    with pytest.raises(NotGM):
        await cog.advance_improve.callback(cog, world.interaction(alice, world.channels[10]), member=alice,
                                           target="sword")
    # a month of training with a teacher: two cards, the best counts (9♠ beats sword 3)
    await game_cog(bot).end.callback(game_cog(bot), world.interaction(gm, world.channels[10]))
    await stack_deck(bot, alice.id, "Devon", ["2S", "9S"])
    await cog.advance_improve.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                       target="sword", teacher=True)
    stored = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert stored["skills"]["sword"] == 4
    assert "sword, with a teacher: 9♠ = +9 against 3 (best of the cards drawn, the other: 2♠) → improves to 4" \
        in world.last(TABLE).content
    assert {"2S", "9S", "5S", "3S"} <= set(stored["deck"]["discards"])


async def test_game_undo_takes_an_advancement_back_on_the_stored_sheet(bot, world, seed):
    """An advancement step is an action like any other: `/game undo` restores the sheet (skill,
    saved checks, deck) exactly as it was, and the next draw is the same card again."""
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, alice)
    await stack_deck(bot, alice.id, "Devon", ["5S"])
    before = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    cog = advance_cog(bot)
    await cog.advance_effort.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                      effort=choice("hard"), skills="tracking")
    after = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert (after["skills"]["tracking"], after["saved_checks"]) == (3, 2)
    log = await bot.store.actions((await active_game(bot)).id, limit=10)
    assert [a.action["type"] for a in log] == ["effort"]
    await game_cog(bot).undo.callback(game_cog(bot), world.interaction(gm, world.channels[10]))
    restored = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert restored == before
    await cog.advance_effort.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                      effort=choice("hard"), skills="tracking")
    again = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert again == after                                   # the RNG was in the state: the same draw
    # while the session is open Devon cannot fight elsewhere; another game here is named in the refusal
    with refused_as("Devon is already in game #1", BautaError):
        await cog_of(bot).check.callback(cog_of(bot), world.interaction(alice, world.channels[11]), skill="sword")


async def test_distinctions_are_paid_in_cards_and_the_gm_cap_holds_on_import_too(bot, world, seed):
    """§6.4 (T18): Blahblah (−4) moves positive cards totalling 4 (A♠ + 3♠) to the sideboard; the
    GM's cap on negative distinctions (house rule distinction_cap) refuses more, at import as well."""
    alice, bruno = world.users[2], world.users[3]
    await import_sheet(bot, world, alice)
    cog = advance_cog(bot)
    with pytest.raises(IllegalAction) as exc:
        await cog.advance_distinction.callback(cog, world.interaction(alice, world.channels[10]), name="Blahblah",
                                               cards="5S", how=choice("remove_positive"))
    assert exc.value.code == "cards_do_not_add_up"
    await bot.store.set_house_rule(1, "karmic", "distinction_cap", 5)
    await cog.advance_distinction.callback(cog, world.interaction(alice, world.channels[10]), name="Blahblah",
                                           cards="AS 3S", how=choice("remove_positive"))
    record = await bot.store.character(1, alice.id, "karmic", "Devon")
    deck = record["character"]["deck"]
    assert {"AS", "3S"} <= set(deck["sideboard"]) and len(deck["cards"]) == 42
    assert record["sheet"]["distinctions"] == ["Blahblah"]
    assert record["character"]["distinctions"][0]["karma_value"] == -4
    assert "Devon takes **Blahblah** (-4), paid with A♠, 3♠" in table_text(world)
    with pytest.raises(IllegalAction) as exc:
        await cog.advance_distinction.callback(cog, world.interaction(alice, world.channels[10]), name="blahblah",
                                               cards="4S", how=choice("remove_positive"))
    assert exc.value.code == "has_distinction"
    # the GM caps negative distinctions at −5: Empathic (−2) would make −6
    with pytest.raises(IllegalAction) as exc:
        await cog.advance_distinction.callback(cog, world.interaction(alice, world.channels[10]), name="Empathic",
                                               cards="2S", how=choice("remove_positive"))
    assert (exc.value.code, exc.value.params) == ("distinction_cap", {"total": -6, "cap": 5})
    assert len((await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["distinctions"]) == 1
    with pytest.raises(PackError) as refused:
        await import_sheet(bot, world, bruno, "name: Pia\ndistinctions: [Blahblah, Empathic]\n", "pia.yaml")
    [cap] = refused.value.problems
    assert (cap.code, cap.where.name, cap.where.field, cap.params) == (
        "over_distinction_cap", "Pia", "distinctions", {"total": -6, "cap": 5})
    assert await bot.store.character(1, bruno.id, "karmic", "Pia") is None
    await import_sheet(bot, world, bruno, "name: Pia\ndistinctions: [Blahblah]\n", "pia.yaml")
    assert await bot.store.character(1, bruno.id, "karmic", "Pia") is not None
