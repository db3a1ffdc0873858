"""The missing Karmic rules through the cog: the skill tables' situations on `/karmic check`, a day's
ride that costs a fatigue card written back to the sheet, and the GM's rulings named in `/help`."""
from __future__ import annotations

import pytest

from cogs.errors import report_error
from cogs.karmic_situations import situation_choices, situation_ids
from rules.common import IllegalAction
from rules.karmic import ENGINE
from rules.karmic.character import Character
from tests.cogs.test_karmic import TABLE, active_game, cog_of, import_sheet, play_check_by_dm, table_text

RIDER_YAML = """
name: Devon
attributes: {might: 1, finesse: 0}
skills: {riding: 1, climbing: 2}
"""


async def stack_deck(bot, owner: int, name: str, cards: list[str]) -> None:
    record = await bot.store.character(1, owner, "karmic", name)
    char = Character.from_dict(record["character"])
    char.deck.stack(cards)
    record["character"] = char.to_dict()
    await bot.store.save_character(1, owner, "karmic", name, record)


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
    assert "Fatigue: 1 card(s)" in world.ephemeral(alice)[-1].content
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
