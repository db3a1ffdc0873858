"""/carnevale through the cog layer: dice, odds, squads, and a full game of two sample squads."""
import json

import i18n
from i18n.present import Presenter
from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.carnevale.tables import AGENDAS
from rules.common import GM, PUBLIC, Actor, Choose
from tests.support.fakes import click


def cog_of(bot):
    return bot.get_cog("CarnevaleCog")


async def call(world, command, user, channel=10, **kwargs):
    interaction = world.interaction(world.users[user], world.channels[channel])
    try:
        await command.callback(cog_of(world.bot), interaction, **kwargs)
    except Exception as exc:  # the tree's error handler does this in production
        from cogs.host.errors import report_error
        await report_error(interaction, exc)
    return interaction


async def choose(world, message, user, prompt, option_id):
    """Answer a prompt message the way a player would: its button, or its select."""
    ids = [o.id for o in prompt.options]
    if len(message.custom_ids()) == 1 and (prompt.max_choices > 1 or len(ids) > 10):
        return await click(world, message, user, index=0, values=[option_id])
    return await click(world, message, user, index=ids.index(option_id))


def last_private(world, user):
    return world.ephemeral(world.users[user])[-1].content


# ---------------------------------------------------------------------------- dice
async def test_roll_shows_every_die_and_the_destiny_die_and_logs_it(bot, world):
    cog = cog_of(bot)
    await call(world, cog.roll, 2, pool=6, difficulty=7, karma=1, label="Climb")
    message = world.last("channel:10")
    text = message.content
    assert "<@2>" in text and "Climb" in text and "7d10" in text and "difficulty 7" in text
    assert "Destiny Die 🟨" in text and "Ace" in text
    assert message.file.filename == "carnevale-roll.png"
    stats = await bot.store.roll_stats(1, 2)
    assert stats.rolls == 1 and stats.by_expression == [("7d10>=7", 1)]


async def test_a_roll_explains_its_pool_in_the_servers_words_in_the_text_and_on_the_image(bot, world, monkeypatch):
    """`/carnevale roll` on an Italian server: the pool explained (base, Karma, the cap) in Italian in
    the message and as the image's heading; /carnevale odds names the Karma dice in Italian too."""
    from cogs.carnevale import squads as carnevale_squads
    headings = []
    drawn = carnevale_squads.roll_image
    monkeypatch.setattr(carnevale_squads, "roll_image",
                        lambda roll, words, heading="": headings.append(heading) or drawn(roll, words, heading))
    world.locale = "it"
    with i18n.watch() as notes:
        interaction = world.interaction(world.users[2], world.channels[10])
        interaction.guild_locale = "it"
        await cog_of(bot).roll.callback(cog_of(bot), interaction, pool=9, difficulty=7, karma=2, label=None)
        await call(world, cog_of(bot).odds_command, 2, pool=3, difficulty=7, karma=2)
    assert headings == ["9 +2 Karma = 10d10 (1 oltre il limite persi)"]
    assert "9 +2 Karma = 10d10 (1 oltre il limite persi)" in world.last("channel:10").content
    assert "(con 2 dadi Karma)" in last_private(world, 2)
    assert [n for n in notes if n.fallback] == []


async def test_roll_over_the_cap_and_no_dice(bot, world):
    cog = cog_of(bot)
    await call(world, cog.roll, 2, pool=12)
    assert "2 dice over the 10-dice cap are lost" in world.last("channel:10").content
    await call(world, cog.roll, 2, pool=0)
    assert "automatic failure" in world.last("channel:10").content


async def test_opposed_roll_in_one_message_names_the_tie_rule(bot, world):
    cog = cog_of(bot)
    for _ in range(30):       # some of these rolls tie: the rule is named then
        await call(world, cog.opposed, 2, opponent=world.users[3], pool=1, their_pool=1, difficulty=10,
                   their_difficulty=10, tie_rule="escaper")
        text = world.last("channel:10").content
        assert "<@2>" in text and "<@3>" in text and "After the adjustments" in text
        if "the escaping model wins ties" in text:
            break
    else:
        raise AssertionError("no tie in 30 one-die opposed rolls at difficulty 10")
    assert "**<@2> wins** the tie" in text
    await call(world, cog.opposed, 2, opponent=world.users[2], pool=3, their_pool=3)
    assert "another member" in last_private(world, 2)
    # no dice on either side: a plain tie, said once
    await call(world, cog.opposed, 2, opponent=world.users[3], pool=0, their_pool=0)
    text = world.last("channel:10").content
    assert "**A tie**: neither side wins." in text and "a tie: a tie" not in text


async def test_odds_are_exact_and_private(bot, world):
    cog = cog_of(bot)
    await call(world, cog.odds_command, 2, pool=1, difficulty=7)
    text = last_private(world, 2)
    # one die: the Destiny Die alone; Aces on 7-10 (40%), a 1 is a Fumble (10%)
    assert "` 1` Aces: 40.0% exactly" in text and "Fumble: 10.0%" in text and "Critical: 10.0%" in text
    assert not world.public()
    await call(world, cog.odds_command, 2, pool=1, difficulty=7, karma=1, public=True)
    text = world.last("channel:10").content
    # two dice: no Ace = Destiny 2-6 and a miss (0.5·0.6), or Destiny 1, which fumbles or discards (0.1) = 40%
    assert "` 0` Aces: 40.0% exactly" in text and "Fumble: 6.0%" in text and "Without the Karma dice: at least one Ace 40.0%" in text


# ---------------------------------------------------------------------------- squads
async def build(world, user, name, faction, members, points=200):
    cog = cog_of(world.bot)
    await call(world, cog.squad_create, user, name=name, faction=faction, points=points)
    for profile, extra in members:
        await call(world, cog.squad_add, user, squad=name, profile=profile, **extra)


RASHAAR = [("Magi-Rashaar", {"leader": True, "spells": "Infernal Images, Blessing"}), ("Ugdru-Rashaar", {}),
           ("Hybrid", {}), ("Citizen of Venice", {})]
GUILD = [("Capodecime", {"leader": True}), ("Butcher", {}), ("Pulcinella", {}),
         ("Harlot", {"equipment": "Devil's Mask"})]


async def test_squad_building_refuses_over_limit_with_a_clear_reason(bot, world):
    cog = cog_of(bot)
    await build(world, 2, "Small", "The Rashaar", [("Magi-Rashaar", {"leader": True}), ("Ugdru-Rashaar", {}),
                                                   ("Hybrid", {})], points=150)
    await call(world, cog.squad_add, 2, squad="Small", profile="Ugdru-Rashaar")
    assert "Frequency" in last_private(world, 2)
    await call(world, cog.squad_add, 2, squad="Small", profile="Hybrid")
    assert "147/150 points" in last_private(world, 2)
    # an unnamed model is its profile, said once (not "Hybrid (Hybrid)")
    assert "`3.` Hybrid — " in last_private(world, 2) and "Hybrid (Hybrid)" not in last_private(world, 2)
    await call(world, cog.squad_add, 2, squad="Small", profile="Hybrid")
    refusal = last_private(world, 2)
    assert "Cannot add Hybrid" in refusal and "costs 173 points, over the limit of 150 by 23" in refusal
    await call(world, cog.squad_add, 2, squad="Small", profile="Butcher")
    assert "single-affiliation" in last_private(world, 2)
    saved = await bot.store.character(1, 2, "carnevale", "Small")
    assert [m["profile"] for m in saved["squad"]["members"]] == ["Magi-Rashaar", "Ugdru-Rashaar", "Hybrid", "Hybrid"]
    # removing, listing
    await call(world, cog.squad_remove, 2, squad="Small", number=3)
    assert "Hybrid** leaves" in last_private(world, 2)
    await call(world, cog.squad_list, 2)
    assert "**Small** — The Rashaar · 121/150 pts · 3 models" in last_private(world, 2)
    await call(world, cog.squad_create, 2, name="Small", faction="The Guild")
    assert "already have a squad" in last_private(world, 2)
    await call(world, cog.squad_create, 2, name="Nope", faction="The Duke's Men")
    assert "not a faction" in last_private(world, 2)
    assert not world.public()


# A guild pack as a server would import it: two factions, one profile each.
GUILD_PACK = """
pack: {name: Our Pack}
factions:
  - name: The Guild
    classes:
      - name: Bravo
        cost: 30
        ap: 3
        attributes: {MOV: 5, COM: 5, DEX: 5, SHO: 4, MIN: 4, PRO: 2}
        karma: 2
        command: 2
        life_track: [0, 0, 0, -1, -1, -2]
        equipment: [Sword]
  - name: The Rashaar
    classes:
      - name: Spawn
        cost: 20
        ap: 3
        attributes: {MOV: 5, COM: 4, DEX: 4, SHO: 2, MIN: 3, PRO: 1}
        karma: 1
        command: 1
        life_track: [0, 0, -1, -2]
"""


async def test_squads_from_a_guild_pack(bot, world):
    from cogs.host import systems
    text = GUILD_PACK
    system = systems.get("carnevale")
    system.load_pack(text, "ours.yaml")            # validates
    await bot.store.save_pack(1, "carnevale", "ours", text, 1)
    cog = cog_of(bot)
    await call(world, cog.squad_create, 2, name="Bravi", faction="The Guild", pack="ours", points=100)
    await call(world, cog.squad_add, 2, squad="Bravi", profile="Bravo", leader=True)
    assert "30/100 points" in last_private(world, 2) and "Ready to play" in last_private(world, 2)
    await call(world, cog.squad_add, 2, squad="Bravi", profile="Butcher")
    assert "no profile called 'Butcher'" in last_private(world, 2)
    await call(world, cog.squad_create, 2, name="Lost", faction="The Guild", pack="theirs")
    assert "no Carnevale pack called" in last_private(world, 2)


async def test_squad_show_private_and_public_hides_the_magical_item(bot, world):
    await build(world, 3, "Guild", "The Guild", GUILD)
    cog = cog_of(bot)
    await call(world, cog.squad_show, 3, squad="Guild")
    mine = world.ephemeral(world.users[3])[-1]
    assert "Devil's Mask" in mine.content and mine.file.filename == "carnevale-squad.png"
    assert not world.public()
    await call(world, cog.squad_show, 3, squad="Guild", public=True)
    await call(world, cog.squad_show, 2, squad="Guild", member=world.users[3], public=True)
    assert len(world.public()) == 2 and all(m.file for m in world.public())
    assert "Devil's Mask" not in world.public_text()
    await call(world, cog.squad_show, 2, squad="Guild", member=world.users[3])      # privately, still hidden
    theirs = world.ephemeral(world.users[2])[-1]
    assert theirs.file and "Devil's Mask" not in (theirs.content or "") and len(world.public()) == 2


# ---------------------------------------------------------------------------- a game
def peek(state, steps):
    """Apply engine actions to a copy of a stored state: what the cog commands below will do."""
    events = []
    for actor, action in steps:
        out = ENGINE.apply(state, action, Actor(actor))
        state = out.state
        events += out.events
    return state, events


async def start_game(bot, world, monkeypatch, seed):
    monkeypatch.setattr("cogs.host.gamehost.secrets.randbits", lambda bits: seed)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", their_squad="Guild",
               deploy_all=True)
    return await bot.store.active_game(1, 10)


def first_turn_plan(state):
    harlot_min = state.models["b4"].attrs["MIN"]
    return [
        ("2", A.Activate("a1")),
        ("2", A.Cast("a1", "Infernal Images", target="b2")),
        ("2", A.Cast("a1", "Blessing", target="a2", attribute="COM")),
        ("2", A.Stun("b2", "Infernal Images")),
        ("2", A.EndActivation("a1")),
        ("3", A.Activate("b4")),
        ("3", A.Stun("b2", "Low Blow")),
        ("3", A.Stun("b2", "again")),
        ("3", A.Morale(("b4",), modifier=1 - harlot_min)),
    ]


async def test_full_game_of_two_sample_squads_through_the_cog(bot, world, monkeypatch):
    cog = cog_of(bot)
    # the GM runs the End of Round by command below: the server keeps single choices to a click
    await bot.store.set_house_rule(1, "carnevale", "confirm_single_choice", True)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", GUILD)
    assert not world.public()
    # Find a seed whose dice give the story we want to tell (a morale fumble); the cog plays it.
    for seed in range(1, 400):
        game = await start_game(bot, world, monkeypatch, seed)
        state = ENGINE.load_state(game.state)
        winner = state.initiative["winner"]
        ordered, _ = peek(state, [(winner, Choose("order-r1", ("me" if winner == "2" else "opponent",)))])
        try:
            _, events = peek(ordered, first_turn_plan(ordered))
        except Exception:
            events = []
        casts = [e.data["karma_cost"] for e in events if e.kind == "cast"]
        if casts == [1, 2] and "flee" in [e.kind for e in events]:
            break
        await bot.store.end_game(game)
        world.sent.clear()
    else:
        raise AssertionError("no seed in range")
    start = world.last("channel:10", with_view=True)
    public = world.public_text()
    assert "Carnevale: <@2> against <@3>" in public
    assert any(m.file and m.file.filename == f"carnevale-{game.id}-sheet.png" for m in world.public())
    # Agendas went by DM, never to the channel
    for pid, user in (("2", world.users[2]), ("3", world.users[3])):
        agenda = AGENDAS[state.players[pid].agenda][0]
        assert any(agenda in (m.content or "") for m in world.dms(user))
    # --- the Initiative winner's button: Alice goes first
    assert "Who activates first" in start.content
    await click(world, start, world.users[int(winner)], index=0 if winner == "2" else 1)
    # --- Turn 1, Alice: the Magi-Rashaar casts twice; the second spell costs 2 Karma
    a1_karma = state.models["a1"].karma
    plan = first_turn_plan(ordered)
    await call(world, cog.activate, 2, model="a1")
    assert last_private(world, 2) == "✓ Done."
    await call(world, cog.activate, 3, model="b1")            # not Bruno's model to move now
    refusal = last_private(world, 3)
    assert refusal != "✓ Done." and world.ephemeral(world.users[3])
    await call(world, cog.cast, 2, model="a1", spell="Infernal Images", target="b2")
    await call(world, cog.cast, 2, model="a1", spell="Blessing", target="a2", attribute="COM")
    record = await bot.store.game(game.id)
    assert record.state["models"]["a1"]["karma"] == a1_karma - 3
    assert "casts Blessing: 1 AP and 2 Karma" in world.public_text()
    # Bruno cannot act for Alice's models
    await call(world, cog.end, 3, model="a1")
    assert "✓" not in last_private(world, 3)
    await call(world, cog.stun, 2, model="b2", source="Infernal Images")
    await call(world, cog.end, 2, model="a1")
    # --- Turn 2, Bruno: a double stun (the second, in a later Turn, is 1 damage; a third this Turn is ignored)
    await call(world, cog.activate, 3, model="b4")
    await call(world, cog.stun, 3, model="b2", source="Low Blow")
    assert "becomes 1 damage" in world.public_text()
    await call(world, cog.stun, 3, model="b2", source="again")
    assert "already been Stunned this Turn" in world.public_text()
    record = await bot.store.game(game.id)
    assert record.state["models"]["b2"]["damage"] == 1
    # --- the Harlot's Morale fumbles: she flees (and is Stunned)
    await call(world, cog.morale, 3, model="b4", modifier=plan[-1][1].modifier)
    record = await bot.store.game(game.id)
    assert record.state["models"]["b4"]["fleeing"] and "flees" in world.public_text()
    await call(world, cog.end, 3, model="b4")
    # --- Turn 3, Alice: the Hybrid attacks the Pulcinella (the bot rolls both sides) …
    await call(world, cog.activate, 2, model="a3")
    version = (await bot.store.game(game.id)).version
    await call(world, cog.attack, 2, model="a3", target="b3")
    assert last_private(world, 2) == "✓ Done." and (await bot.store.game(game.id)).version == version + 1
    assert "Hybrid" in world.public().pop().content or "Pulcinella" in world.public_text()
    for _ in range(4):                      # a reroll window, if the dice opened one: let it stand
        state = ENGINE.load_state((await bot.store.game(game.id)).state)
        prompt = ENGINE.pending(state)[-1]
        if not prompt.id.startswith(("rr-", "bg-")):
            break
        await choose(world, world.last("channel:10", with_view=True), world.users[int(prompt.player)], prompt,
                     prompt.options[0].id)
    # … then damage across the Capodecime's pain thresholds (Protection worked out)
    capo = record.state["models"]["b1"]
    before = ENGINE.view_for(ENGINE.load_state(record.state), PUBLIC)
    thresholds = next(m for m in before["models"] if m["uid"] == "b1")["thresholds"]
    protection = next(m for m in before["models"] if m["uid"] == "b1")["attributes"]["PRO"]
    amount = thresholds[1] + 1 + protection        # one box past the second threshold after Protection
    sheets = [m for m in world.public() if m.file and "sheet" in m.file.filename and not m.deleted]
    assert len(sheets) == 1                        # one live sheet, edited in place as the game goes
    sheet, image_before = sheets[0], sheets[0].file
    await call(world, cog.damage, 2, model="b1", amount=amount, source="Ugdru claws")
    record = await bot.store.game(game.id)
    after = ENGINE.view_for(ENGINE.load_state(record.state), PUBLIC)
    b1 = next(m for m in after["models"] if m["uid"] == "b1")
    assert b1["damage"] == thresholds[1] + 1 and b1["pain_penalty"] == capo["life_track"][thresholds[1]]
    assert world.public_text().count("crosses a Pain Threshold") >= 2
    # the public sheet changed: the one live sheet (the table message) is redrawn, once
    live = [m for m in world.public() if m.file and "sheet" in m.file.filename and not m.deleted]
    assert len(live) == 1
    sheet = live[0]
    assert sheet.file.fp.getvalue() != image_before.fp.getvalue()
    assert sheet.file.filename == f"carnevale-{game.id}-sheet.png"
    await call(world, cog.end, 2, model="a3")
    # --- play the Round out by buttons: activate the first model offered, then end its activation
    for _ in range(60):
        record = await bot.store.game(game.id)
        state = ENGINE.load_state(record.state)
        if state.phase != "activation":
            break
        prompt = ENGINE.pending(state)[-1]
        message = world.last("channel:10", with_view=True)
        assert Presenter("en", "carnevale").prompt(prompt) in message.content
        ids = [o.id for o in prompt.options]
        await choose(world, message, world.users[int(prompt.player)], prompt, "end" if "end" in ids else ids[0])
    assert state.phase == "end_round"
    # --- End of Round by command: AP, casts and Blessing reset
    await call(world, cog.endround, 2)
    record = await bot.store.game(game.id)
    s = ENGINE.load_state(record.state)
    assert s.round == 2
    a1 = s.models["a1"]
    assert a1.ap == a1.ap_max and not a1.activated and a1.casts_this_round == 0 and not a1.cast_locked
    assert not any(e.name == "Blessing" for e in s.models["a2"].effects)
    assert s.models["b2"].stunned                                # Stun stays until cleared
    view = ENGINE.view_for(s, PUBLIC)
    assert all(m["ap"] == m["ap_max"] for m in view["models"] if not m["fallen"])
    # --- /game status and /hand work; GM forces the rest to the end
    game_cog = bot.get_cog("GameCog")
    await game_cog.status.callback(game_cog, world.interaction(world.users[2], world.channels[10]))
    assert "Round 2/5" in world.public_text()
    hand_cog = bot.get_cog("HandCog")
    await hand_cog.hand.callback(hand_cog, world.interaction(world.users[3], world.channels[10]))
    hand = "\n".join(m.content or "" for m in world.ephemeral(world.users[3]))
    assert "Devil's Mask" in hand and AGENDAS[s.players["3"].agenda][0] in hand
    await call(world, cog.concede, 3)
    record = await bot.store.game(game.id)
    assert not record.active and "wins" in world.public_text()
    assert "/carnevale-campaign record" in world.public_text()      # these squads keep no ledger
    # --- secrecy: nothing private ever reached the channel before the end revealed it
    assert_no_secrets_before_the_end(world, s)


def assert_no_secrets_before_the_end(world, state):
    secrets_ = ["Devil's Mask"] + [AGENDAS[state.players[p].agenda][0] for p in state.seats]
    public = [m for m in world.public()]
    over = next(i for i, m in enumerate(public) if "The adventure ends" in (m.content or ""))
    before = "\n".join(text for m in public[:over] for text in m.texts())
    for secret in secrets_:
        assert secret not in before, secret


async def test_secrets_stay_private_through_random_play(bot, world, monkeypatch):
    """Random button play to the end: agendas and the hidden magical item never show in public
    (text, labels, options, file names, the views the sheet images are drawn from) until the end."""
    import random
    # the module the bot loaded: `import cogs.carnevale` can give an older copy (an earlier test's
    # import set the package attribute; discord.py's load_extension executes the module afresh)
    C = bot.extensions["cogs.carnevale"].sheet      # where the sheet image is drawn
    drawn = []
    real_sheet = C.game_sheet

    def spy(view, *words):
        drawn.append(json.dumps(view))
        return real_sheet(view, *words)
    monkeypatch.setattr(C, "game_sheet", spy)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", GUILD)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", their_squad="Guild")
    game = await bot.store.active_game(1, 10)
    picker = random.Random(5)
    gm_view = None
    for _ in range(600):
        record = await bot.store.game(game.id)
        if not record.active:
            break
        state = ENGINE.load_state(record.state)
        gm_view = state
        prompt = ENGINE.pending(state)[0]
        message = next(m for m in reversed(world.public()) if m.view is not None and any(
            f":{prompt.id}:" in cid or cid.endswith(f":{prompt.id}") for cid in m.custom_ids()))
        n = len(message.custom_ids())
        if prompt.max_choices > 1 or len(prompt.options) > 10:   # a select
            k = max(prompt.min_choices, 1)
            values = [o.value for o in message.view.children[0].item.options][:k]
            await click(world, message, world.users[int(prompt.player)], index=0, values=values)
        else:
            ids = [o.id for o in prompt.options]
            choices = [i for i, o in enumerate(ids) if o not in ("back", "endchain")] or [0]
            await click(world, message, world.users[int(prompt.player)], index=picker.choice(choices))
        assert n
    assert gm_view is not None
    hidden = ["Devil's Mask"] + [AGENDAS[gm_view.players[p].agenda][0] for p in gm_view.seats]
    gm_text = json.dumps(ENGINE.view_for(gm_view, GM))
    assert "Devil's Mask" in gm_text
    record = await bot.store.game(game.id)
    assert not record.active, "random play did not reach the end"
    assert_no_secrets_before_the_end(world, gm_view)
    assert len(drawn) > 5
    for view in drawn[:-2]:           # the last sheets are drawn after the end (the table's, the chronicle's)
        for secret in hidden:
            assert secret not in view


async def test_game_start_refusals(bot, world):
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[2])
    assert "another member" in last_private(world, 2)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Ghost")
    assert "no squad called **Ghost**" in last_private(world, 2)
    await build(world, 2, "Big", "The Rashaar", [("Magi-Rashaar", {"leader": True})], points=60)
    await bot.store.save_character(1, 2, "carnevale", "Big", {
        "squad": {**(await bot.store.character(1, 2, "carnevale", "Big"))["squad"],
                  "members": [{"profile": "Magi-Rashaar", "leader": True},
                              {"profile": "Hybrid"}]}, "pack": ""})
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Big")
    assert last_private(world, 2) == ("The squad of <@2> cannot be fielded: the squad costs 76 points, over the "
                                      "limit of 60 by 16.")
    assert await bot.store.active_game(1, 10) is None and not world.public()
    await call(world, cog.game_start, 2, opponent=world.users[3])           # two sample squads
    assert await bot.store.active_game(1, 10) is not None
    await call(world, cog.game_start, 3, opponent=world.users[2])
    assert "already running" in last_private(world, 3)


async def test_autocompletes_name_models_and_spells(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", my_faction=None,
               their_faction="The Guild", deploy_all=True)
    interaction = world.interaction(world.users[2], world.channels[10])
    choices = await cog.model_autocomplete(interaction, "")
    assert choices[0].value == "a1" and "Magi-Rashaar" in choices[0].name
    assert {c.value for c in choices} >= {"a1", "a2", "b1"}
    assert [c.value for c in await cog.model_autocomplete(interaction, "hybrid")] == ["a3"]
    interaction.namespace = type("NS", (), {"model": "a1"})()
    spells = [c.value for c in await cog.spell_autocomplete(interaction, "")]
    assert spells == ["Infernal Images", "Blessing"]
    interaction.namespace = type("NS", (), {"squad": "Rashaar"})()
    profiles = [c.value for c in await cog.profile_autocomplete(interaction, "")]
    assert "Hybrid" in profiles and "Butcher" not in profiles and "The Duke" in profiles
    squads = await cog.my_squad_autocomplete(interaction, "ras")
    assert [c.value for c in squads] == ["Rashaar"]


async def test_closed_dms_the_agenda_waits_in_hand(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    bruno = world.users[3]
    bruno.dm_closed = True
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=bruno, my_squad="Rashaar", their_faction="The Guild",
               deploy_all=True)
    game = await bot.store.active_game(1, 10)
    state = ENGINE.load_state(game.state)
    assert any("could not DM" in (m.content or "") and "<@3>" in m.content for m in world.public())
    agenda = AGENDAS[state.players["3"].agenda][0]
    assert agenda not in world.public_text()
    hand_cog = bot.get_cog("HandCog")
    await hand_cog.hand.callback(hand_cog, world.interaction(bruno, world.channels[10]))
    assert agenda in "\n".join(m.content or "" for m in world.ephemeral(bruno))
    # /carnevale-game sheet: the public sheet again, and the private view to the caller only
    await call(world, cog.sheet, 3)
    private = "\n".join(m.content or "" for m in world.ephemeral(bruno))
    assert "Your private view" in private and agenda in private
    assert world.last("channel:10").file.filename == f"carnevale-{game.id}-sheet.png"
    assert agenda not in world.public_text()


async def test_refusals_are_private_and_change_nothing(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", deploy_all=True)
    game = await bot.store.active_game(1, 10)
    public_before = len(world.public())
    await call(world, cog.activate, 3, model="a1")
    assert "not your model" in last_private(world, 3)
    await call(world, cog.damage, 4, model="a1", amount=3)          # Carla is not playing
    assert "Only the players or a GM" in last_private(world, 4)
    await call(world, cog.endround, 2)
    assert "every model has activated" in last_private(world, 2)
    assert len(world.public()) == public_before
    assert (await bot.store.game(game.id)).version == game.version
    # a GM may act for anyone: the owner (an admin) damages, heals directly, and moves a player's model
    await call(world, cog.damage, 1, model="b1", amount=3, ignore_protection=True)
    await call(world, cog.heal, 1, model="b1", amount=1)
    assert (await bot.store.game(game.id)).state["models"]["b1"]["damage"] == 2
    state = ENGINE.load_state((await bot.store.game(game.id)).state)
    winner = state.initiative["winner"]
    await call(world, cog.activate, 1, model="a1")          # the order is not chosen yet
    assert "✓" not in last_private(world, 1)
    await click(world, world.last("channel:10", with_view=True), world.users[1], index=0 if winner == "2" else 1)
    await call(world, cog.activate, 1, model="a1")
    assert last_private(world, 1) == "✓ Done."
    assert (await bot.store.game(game.id)).state["active"] == "a1"


async def test_no_game_here_is_a_clear_private_answer(bot, world):
    cog = cog_of(bot)
    await call(world, cog.activate, 2, model="a1")
    assert "no" in last_private(world, 2).lower() and not world.public()


async def test_game_with_a_guild_pack(bot, world):
    text = GUILD_PACK
    await bot.store.save_pack(1, "carnevale", "ours", text, 1)
    cog = cog_of(bot)
    await call(world, cog.squad_create, 2, name="Bravi", faction="The Guild", pack="ours", points=100)
    await call(world, cog.squad_add, 2, squad="Bravi", profile="Bravo", leader=True)
    await call(world, cog.squad_create, 3, name="Spawns", faction="The Rashaar", pack="ours", points=100)
    await call(world, cog.squad_add, 3, squad="Spawns", profile="Spawn", leader=True)
    await call(world, cog.squad_create, 3, name="Sampled", faction="The Rashaar", points=100)
    await call(world, cog.squad_add, 3, squad="Sampled", profile="Hybrid")
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Bravi", their_squad="Sampled")
    assert "different packs" in last_private(world, 2)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Bravi", their_squad="Spawns",
               deploy_all=True)
    game = await bot.store.active_game(1, 10)
    assert [m["profile"] for m in game.state["models"].values()] == ["Bravo", "Spawn"]


async def test_campaign_ledger_across_adventures(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    cog = cog_of(bot)
    await call(world, cog.campaign_record, 2, squad="Rashaar", vp=7, won=True)
    assert "no campaign yet" in last_private(world, 2)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    assert "ledger of **Rashaar** is open" in last_private(world, 2)
    await call(world, cog.campaign_record, 2, squad="Rashaar", vp=3, won=False)       # no adventure named
    assert "Adventure 1: 3 VP → 3 Campaign Points (bank 3)." in world.public_text()
    assert "(Adventure 1)" not in world.public_text()
    await call(world, cog.campaign_record, 2, squad="Rashaar", vp=7, won=True, adventure="Unexpected Clash")
    assert "Adventure 2 (Unexpected Clash): 7 VP and the win → 12 Campaign Points (bank 15)" in world.public_text()
    await call(world, cog.campaign_experience, 2, squad="Rashaar", member="Hybrid")
    assert "Hybrid: rolled" in world.public_text() and "(needs 8+)" in world.public_text()
    await call(world, cog.campaign_injury, 2, squad="Rashaar", member="Citizen of Venice")
    assert "Citizen of Venice: rolled" in world.public_text()
    # the ledger keeps data (the action and its events), not lines of text
    entries = (await bot.store.character(1, 2, "carnevale", "Rashaar"))["campaign"]["ledger"]
    assert [e["action"]["type"] for e in entries] == ["record_adventure", "record_adventure", "experience", "injury"]
    rolls = [ev["data"]["member"] for e in entries[2:] for ev in e["events"]]
    assert rolls == ["Hybrid", "Citizen of Venice"]
    await call(world, cog.campaign_bonus, 2, squad="Rashaar", vp=7, members="Magi-Rashaar")
    assert "non-Leader" in last_private(world, 2)
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=50, what="a Musket")
    assert "the bank holds 15" in last_private(world, 2)
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=10, what="a Lantern")
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    assert data["campaign"]["bank"] == 5 and len(data["campaign"]["adventures"]) == 2
    await call(world, cog.campaign_upkeep, 2, squad="Rashaar")
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    shown = last_private(world, 2)
    assert "bank **5 CP**" in shown and "2/5 adventures" in shown and "Unexpected Clash: 7 VP — won → 12 CP" in shown
    # another member cannot touch this ledger
    await call(world, cog.campaign_spend, 3, squad="Rashaar", amount=1, what="theft")
    assert "no squad called" in last_private(world, 3)


async def test_ap_karma_command_and_penetration_through_the_cog(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", GUILD)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", their_squad="Guild",
               deploy_all=True)
    game = await bot.store.active_game(1, 10)
    winner = ENGINE.load_state(game.state).initiative["winner"]
    await click(world, world.last("channel:10", with_view=True), world.users[int(winner)],
                index=0 if winner == "2" else 1)

    def models():
        return bot.store.game(game.id)

    await call(world, cog.activate, 2, model="a2")
    start = (await models()).state["models"]
    await call(world, cog.command_, 2, model="a1", target="a2", n=1)
    await call(world, cog.karma, 2, model="a2", n=1, use="protection")
    await call(world, cog.ap, 2, model="a2", action="walk")
    now = (await models()).state["models"]
    assert now["a1"]["command"] == start["a1"]["command"] - 1
    assert now["a2"]["ap"] == start["a2"]["ap"] + 1 - 1
    assert now["a2"]["karma"] == start["a2"]["karma"] - 1
    await call(world, cog.command_, 2, model="a1", target="a2", n=2)      # at most 2 per model per Turn
    assert "✓" not in last_private(world, 2)
    await call(world, cog.end, 2, model="a2")
    # Penetration lowers Protection: 3 damage with Penetration 2 against PRO 2 costs 3 LP
    view = ENGINE.view_for(ENGINE.load_state((await models()).state), PUBLIC)
    pro = next(m for m in view["models"] if m["uid"] == "b1")["attributes"]["PRO"]
    await call(world, cog.damage, 2, model="b1", amount=3, penetration=pro)
    assert (await models()).state["models"]["b1"]["damage"] == 3
    await call(world, cog.damage, 2, model="b1", amount=pro)                # all absorbed by Protection
    assert (await models()).state["models"]["b1"]["damage"] == 3


async def test_a_finished_game_is_recorded_in_both_campaign_ledgers(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", GUILD)
    cog = cog_of(bot)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    await call(world, cog.campaign_start, 3, squad="Guild")
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", their_squad="Guild",
               adventure="unexpected_clash", deploy_all=True)
    game = await bot.store.active_game(1, 10)
    await call(world, cog.damage, 2, model="a3", amount=50, ignore_protection=True)     # the Hybrid falls
    await call(world, cog.concede, 3)
    result = (await bot.store.game(game.id)).state["result"]["vp"]
    records = {u: (await bot.store.character(1, u, "carnevale", n))["campaign"] for u, n in ((2, "Rashaar"),
                                                                                          (3, "Guild"))}
    # 1 VP per own model alive, the Trifling Citizen of Venice ignored (2 and 4); each fallen enemy counts
    # for the other side (the Hybrid, for Bruno);
    # Campaign Points = VP, +5 for the winner (the side that did not concede)
    assert (result["2"]["alive"], result["3"]["alive"], result["2"]["kills"], result["3"]["kills"]) == (2, 4, 0, 1)
    for u, won in ((2, True), (3, False)):
        (adv,) = records[u]["adventures"]
        assert adv["name"] == "Unexpected Clash" and adv["won"] is won and adv["vp"] == result[str(u)]["total"]
        assert adv["cp"] == adv["vp"] + (5 if won else 0) and records[u]["bank"] == adv["cp"]
    assert (records[2]["adventures"][0]["fallen"], records[3]["adventures"][0]["fallen"]) == (["Hybrid"], [])
    text = world.public_text()
    assert f"→ {records[2]['bank']} Campaign Points (bank {records[2]['bank']})" in text
    assert f"→ {records[3]['bank']} Campaign Points (bank {records[3]['bank']})" in text
    # only the Hybrid fell: only it rolls on the Fallen table, once
    await call(world, cog.campaign_injury, 2, squad="Rashaar", member="Ugdru-Rashaar")
    assert last_private(world, 2) == ("Ugdru-Rashaar did not fall in Unexpected Clash: only a model that Fell in "
                                      "Combat rolls on the Fallen table.")
    await call(world, cog.campaign_injury, 2, squad="Rashaar", member="Hybrid")
    assert "Hybrid: rolled" in world.public_text()
    await call(world, cog.campaign_injury, 2, squad="Rashaar", member="Hybrid")
    assert last_private(world, 2) == "Hybrid has already rolled on the Fallen table after Unexpected Clash."


async def test_campaign_powers_hostage_and_legacy_commands(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    cog = cog_of(bot)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    await call(world, cog.campaign_power, 2, squad="Rashaar", member="Hybrid")
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    hybrid = next(m for m in data["campaign"]["members"] if m["name"] == "Hybrid")
    assert "Hybrid: Powers table" in world.public_text() and (hybrid["powers"] or "nothing" in world.public_text())
    await call(world, cog.campaign_hostage, 2, squad="Rashaar", members="Hybrid")
    assert "nobody was captured" in world.public_text()
    rec = data["campaign"]
    for m in rec["members"]:
        if m["name"] in ("Hybrid", "Citizen of Venice"):
            m["dead"] = True
    await bot.store.save_character(1, 2, "carnevale", "Rashaar", data)
    await call(world, cog.campaign_hostage, 2, squad="Rashaar", members="Hybrid, Citizen of Venice")
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    citizen = next(m for m in data["campaign"]["members"] if m["name"] == "Citizen of Venice")
    assert citizen["captured"] and not citizen["dead"]                 # the cheaper of the two
    assert "Citizen of Venice did not die: captured" in world.public_text()
    await call(world, cog.campaign_promote, 2, squad="Rashaar", member="Ugdru-Rashaar")
    assert "gains Command (3) and Leader (+10 points)" in world.public_text()
    await call(world, cog.campaign_retire, 2, squad="Rashaar", member="Citizen of Venice")
    assert "Citizen of Venice retires (rolled" in world.public_text() or "must stay" in world.public_text()
    await call(world, cog.campaign_legacy, 2, squad="Rashaar")
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    assert data["campaign"]["campaign_no"] == 2 and "Campaign 2 begins" in world.public_text()
    await call(world, cog.campaign_promote, 3, squad="Rashaar", member="Hybrid")
    assert "no squad called" in last_private(world, 3)



async def test_gondola_capacity_through_the_status_command(bot, world):
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    cog = cog_of(bot)
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", deploy_all=True)
    game = await bot.store.active_game(1, 10)
    await call(world, cog.status, 2, model="a2", status="on_gondola", gondola="g1")     # Ugdru-Rashaar, 40 mm
    await call(world, cog.status, 2, model="a3", status="on_gondola", gondola="g1")     # Hybrid, 30 mm: full
    assert "Gondola g1 is full" in last_private(world, 2)
    await call(world, cog.status, 2, model="a3", status="on_gondola", gondola="g2")
    models = (await bot.store.game(game.id)).state["models"]
    assert (models["a2"]["gondola"], models["a3"]["gondola"]) == ("g1", "g2")


async def fumbling_game(bot, world, monkeypatch):
    """A game where Alice's Citizen of Venice (a4, the fewest dice) fumbles its first attack on the
    Pulcinella (b3): the seed is searched for through the engine, then the cog plays it."""
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", GUILD)
    for seed in range(1, 400):
        game = await start_game(bot, world, monkeypatch, seed)
        state = ENGINE.load_state(game.state)
        winner = state.initiative["winner"]
        order = Choose("order-r1", ("me" if winner == "2" else "opponent",))
        ordered, _ = peek(state, [(winner, order)])
        try:
            after, _ = peek(ordered, [("2", A.Activate("a4")), ("2", A.Attack("a4", "b3"))])
        except Exception:
            after = None
        if after is not None and [p.kind for p in ENGINE.pending(after)] == ["opportunity"]:
            await click(world, world.last("channel:10", with_view=True), world.users[int(winner)],
                        index=0 if winner == "2" else 1)
            cog = cog_of(bot)
            await call(world, cog.activate, 2, model="a4")
            await call(world, cog.attack, 2, model="a4", target="b3")
            return game
        await bot.store.end_game(game)
        world.sent.clear()
    raise AssertionError("no seed in range")


async def test_a_fumble_offers_the_attack_of_opportunity_as_buttons(bot, world, monkeypatch):
    from bench.messages import answer, prompt_message
    game = await fumbling_game(bot, world, monkeypatch)
    assert "Pulcinella may make a free Attack of Opportunity on Citizen of Venice (Fumble)." in world.public_text()
    state = ENGINE.load_state((await bot.store.game(game.id)).state)
    (prompt,) = ENGINE.pending(state)
    assert (prompt.kind, prompt.player) == ("opportunity", "3")
    message = prompt_message(world, game.id, prompt.id)
    labels = [item.item.label for item in message.view.children]
    assert labels == ["Attack Citizen of Venice (free)", "Let it go"]
    assert "Citizen of Venice fumbled against Pulcinella: make a free Attack of Opportunity (0 AP) on " \
           "Citizen of Venice?" in message.content
    # Alice's other actions wait for Bruno's answer
    await call(world, cog_of(bot).end, 2, model="a4")
    assert "Pulcinella may first make a free Attack of Opportunity on Citizen of Venice" in last_private(world, 2)
    assert await answer(world, game.id, prompt, ["take"], world.users[3])
    state = ENGINE.load_state((await bot.store.game(game.id)).state)
    assert state.opportunities == [] and state.active == "a4"
    assert "Pulcinella — Attack of Opportunity on Citizen of Venice" in world.public_text()


async def test_the_attack_of_opportunity_by_command(bot, world, monkeypatch):
    game = await fumbling_game(bot, world, monkeypatch)
    version = (await bot.store.game(game.id)).version
    await call(world, cog_of(bot).attack, 3, model="b3", target="a4", opportunity=True)
    assert last_private(world, 3) == "✓ Done."
    record = await bot.store.game(game.id)
    assert record.version == version + 1 and record.state["opportunities"] == []
    await call(world, cog_of(bot).attack, 3, model="b3", target="a4", opportunity=True)
    assert "has no free Attack of Opportunity on Citizen of Venice" in last_private(world, 3)
