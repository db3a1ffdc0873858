"""The missing Karmic rules through the cog: the skill tables' situations on `/karmic check`, a day's
ride that costs a fatigue card written back to the sheet, and the GM's rulings named in `/help`."""
from __future__ import annotations

import pytest

from cogs.host.errors import NotGM, report_error
from cogs.karmic.situations import situation_choices, situation_ids
from rules.common import IllegalAction
from rules.karmic import ENGINE
from tests.cogs.test_karmic import (TABLE, active_game, advance_cog, choice, cog_of, game_cog, import_sheet,
                                   play_check_by_dm, stack_deck, table_text)

RIDER_YAML = """
name: Devon
attributes: {might: 1, finesse: 0}
skills: {riding: 1, climbing: 2}
"""


class Namespace:
    def __init__(self, **kw):
        self.__dict__.update(kw)


async def test_a_climb_names_its_surface_and_gear_and_the_table_reads_their_numbers(bot, world, seed):
    alice = world.users[2]
    await import_sheet(bot, world, alice, text=RIDER_YAML)
    await stack_deck(bot, alice.id, "Devon", ["2H", "6S"])
    cog = cog_of(bot)
    # what an Italian client sends back after choosing two rows: their names, with their numbers
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="climbing",
                             situation="muro di pietra (-3), corda dall'alto (+4)")
    game = await active_game(bot)
    assert ENGINE.load_state(game.state).check.situations == ["stone_wall", "top_rope"]
    await play_check_by_dm(bot, world, alice, game.id)
    assert "card -2, stone wall -3, top rope +4 = -1" in table_text(world)


async def test_a_failed_days_ride_puts_a_fatigue_card_on_the_stored_sheet(bot, world, seed):
    alice = world.users[2]
    await import_sheet(bot, world, alice, text=RIDER_YAML)
    await stack_deck(bot, alice.id, "Devon", ["5H"])
    cog = cog_of(bot)
    await cog.check.callback(cog, world.interaction(alice, world.channels[10]), skill="riding",
                             situation="day_ride")
    game = await active_game(bot)
    await play_check_by_dm(bot, world, alice, game.id)
    assert "Devon fails the day's ride: one card of fatigue for the next 12 hours" in table_text(world)
    stored = await bot.store.character(1, alice.id, "karmic", "Devon")
    assert stored["character"]["fatigue"] == 1
    # the sheet shows it, a re-import without `fatigue:` keeps it, and `fatigue: 0` takes it off
    await cog.character_show.callback(cog, world.interaction(alice, world.channels[10]))
    assert "Fatigue: 1 card (one card fewer on every draw)" in world.ephemeral(alice)[-1].content
    await import_sheet(bot, world, alice, text=RIDER_YAML)
    assert (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["fatigue"] == 1
    await import_sheet(bot, world, alice, text=RIDER_YAML + "fatigue: 0\n")
    assert (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]["fatigue"] == 0


async def test_a_situation_of_another_skill_is_refused_privately_and_starts_nothing(bot, world, seed):
    alice = world.users[2]
    await import_sheet(bot, world, alice, text=RIDER_YAML)
    cog = cog_of(bot)
    refused = world.interaction(alice, world.channels[10])
    with pytest.raises(IllegalAction) as err:
        await cog.check.callback(cog, refused, skill="climbing", situation="strongbox_lock")
    assert await active_game(bot) is None
    await report_error(refused, err.value)                 # what the global error handler answers
    said = world.ephemeral(alice)[-1].content
    assert "strongbox lock belongs to checks of lock picking" in said
    assert not [m for m in world.sent if m.where == TABLE]


@pytest.mark.parametrize("locale, typed, first", [
    ("en", "", "stone wall (-3)"), ("it", "muro di pietra (-3), ", "muro di pietra (-3), corda dall'alto (+4)")])
async def test_the_situation_choices_follow_the_typed_skill_in_the_readers_language(world, locale, typed, first):
    alice = world.users[2]
    interaction = world.interaction(alice, world.channels[10])
    interaction.namespace = Namespace(skill="climbing")
    interaction.locale = locale
    choices = await situation_choices(interaction, typed)
    names = [c.name for c in choices]
    assert first in names and len(names) == (12 if not typed else 11)
    assert all(c.value.split(", ")[-1] in {"average_tree", "rock_many_holds", "rock_some_holds", "stone_wall",
                                           "brick_wall", "rough_rock", "smooth_rock", "top_rope",
                                           "knotted_top_rope", "pitons", "climbing_shoes", "belay"}
               for c in choices)
    assert situation_ids(choices[0].value) == situation_ids(choices[0].name)


async def test_help_for_karmic_names_the_gm_rulings(bot, world):
    alice = world.users[2]
    help_cog = bot.get_cog("HelpCog")
    await help_cog.help.callback(help_cog, world.interaction(alice, world.channels[10]), game="karmic")
    said = "\n".join(m.content for m in world.ephemeral(alice))
    assert "The GM still rules" in said and "what starts a bleeding" in said
    assert "a lance attacks one target once every 4 rounds" in said


async def test_the_gm_marks_a_bleeding_and_takes_fatigue_off_in_an_undoable_step(bot, world, seed):
    gm, alice = world.users[1], world.users[2]
    await import_sheet(bot, world, alice, text=RIDER_YAML + "fatigue: 2\n")
    cog = advance_cog(bot)
    await cog.advance_condition.callback(cog, world.interaction(gm, world.channels[10]), member=alice,
                                         fatigue_off=1, bleeding=choice("start"))
    stored = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert (stored["fatigue"], stored["bleeding"]) == (1, True)
    assert "Devon: fatigue 1 (1 taken off); bleeding." in table_text(world)
    log = await bot.store.actions((await active_game(bot)).id, limit=10)
    assert [a.action["type"] for a in log] == ["condition"]
    await game_cog(bot).undo.callback(game_cog(bot), world.interaction(gm, world.channels[10]))
    restored = (await bot.store.character(1, alice.id, "karmic", "Devon"))["character"]
    assert (restored["fatigue"], restored["bleeding"]) == (2, False)
    with pytest.raises(NotGM):
        await cog.advance_condition.callback(cog, world.interaction(alice, world.channels[10]), member=alice,
                                             fatigue_off=2)
