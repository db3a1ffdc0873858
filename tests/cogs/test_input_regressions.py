"""Ordinary bad input through the app-command path: a clear private answer that fits, never an
internal error, and nothing stored by a refused command (issue 9, items 5–7)."""
import pytest

from cogs.host.errors import report_error
from cogs.host import reply
from rules.common import BautaError
from tests.support.command_worlds import FREE_TABLE, TABLE, FakeAttachment, build_world, karmic_combat, slash

LONG = "x" * 3000
EVERYONE = "@everyone " * 300


@pytest.fixture
async def server(bot):
    return await build_world(bot)


def answer(interaction) -> tuple[bool, str]:
    assert not interaction.extras.get("bauta_internal"), interaction.extras.get("bauta_internal")
    assert interaction.answers, "the interaction was left unanswered"
    return interaction.answers[-1]


async def stored(bot, owner: int) -> list:
    return [(name, data) for _, name, data in await bot.store.characters(1, "karmic", owner)]


# ---------------------------------------------------------------------------- item 6: typed errors
async def test_an_unknown_sample_faction_is_refused_with_the_known_ones(bot, server):
    interaction = await slash(bot, server, "carnevale-game start", 2, opponent=server.users[3], my_faction="zzz")
    ephemeral, text = answer(interaction)
    assert ephemeral
    assert text == ("'zzz' is not a faction of Carnevale SAMPLE pack: Doctors of the Ospedale, The Patricians, "
                    "The Rashaar, The Guild, Independent Characters.")
    assert await bot.store.active_game(1, FREE_TABLE) is None


async def test_a_karma_award_paid_with_a_word_names_the_bad_card_and_changes_nothing(bot, server):
    await karmic_combat(bot, server)           # Mara is Bruno's (user 3) stored pack character
    before = await stored(bot, 3)
    interaction = await slash(bot, server, "karmic-advance karma", 1, member=server.users[3], amount=4,
                              cards="test", how="add_positive", character="Mara")
    ephemeral, text = answer(interaction)
    assert ephemeral and text == "'TEST' is not a card: give ids such as 4S, AS, 10H or KD."
    assert await stored(bot, 3) == before


async def test_nudge_with_minutes_past_the_declared_range_is_refused_before_it_runs(bot, server):
    await karmic_combat(bot, server)
    game = await bot.store.active_game(1, TABLE)
    interaction = await slash(bot, server, "karmic combat nudge", 1, channel=TABLE, minutes=10 ** 15)
    ephemeral, text = answer(interaction)
    assert ephemeral and text == "`minutes` must be between 0 and 10080."
    assert (await bot.store.game(game.id)).version == game.version


async def test_out_of_range_values_are_refused_privately_even_where_answers_are_public(bot, server):
    interaction = await slash(bot, server, "carnevale roll", 2, pool=5, difficulty=-10 ** 18)
    ephemeral, text = answer(interaction)
    assert ephemeral and text == "`difficulty` must be between 2 and 10."
    assert (await bot.store.roll_stats(1, 2)).rolls == 0


async def test_a_sheet_nested_thousands_deep_is_refused_as_a_bad_file(bot, server):
    interaction = await slash(bot, server, "karmic character import", 2,
                              file=FakeAttachment("sheet.yaml", b"[" * 600))
    ephemeral, text = answer(interaction)
    assert ephemeral and text == "sheet.yaml: refused: nested more than 40 levels deep."
    assert await stored(bot, 2) == []


# ---------------------------------------------------------------------------- item 7: refused, so not stored
async def test_a_refused_check_stores_no_pack_character(bot, server):
    interaction = await slash(bot, server, "karmic check", 2, skill="tracking", character="Mara", max_helpers=2)
    ephemeral, text = answer(interaction)
    assert ephemeral and text.startswith("Only a GM can do that")
    assert await stored(bot, 2) == []


async def test_later_refusals_of_check_shoot_and_combat_store_nothing_either(bot, server):
    refusals = [
        ("karmic combat start", dict(character="Mara", opponents="Soldier", pairs="Mara-Nobody"),
         "No fighter called `Nobody` in this fight (Mara, Soldier)."),
        ("karmic shoot", dict(weapon="Slingshot", distance=10.0, character="Mara"), "Slingshot"),
        ("karmic check", dict(skill="tracking", character="Mara", opponent="Nobody"), "Nobody"),
    ]
    for path, values, said in refusals:
        ephemeral, text = answer(await slash(bot, server, path, 2, **values))
        assert ephemeral and said in text, text
        assert await stored(bot, 2) == [], path
        assert await bot.store.active_game(1, FREE_TABLE) is None


async def test_an_accepted_check_still_stores_the_pack_character(bot, server):
    await slash(bot, server, "karmic check", 2, skill="tracking", character="Mara")
    game = await bot.store.active_game(1, FREE_TABLE)
    assert game is not None and game.meta["karmic_sheets"] == {"c1": [2, "Mara"]}
    assert [name for name, _ in await stored(bot, 2)] == ["Mara"]


# ---------------------------------------------------------------------------- item 5: every reply fits
@pytest.mark.parametrize("path, values, ending", [
    ("carnevale squad show", {"squad": LONG}, "…** (see `/carnevale squad list`)."),
    ("carnevale-campaign upkeep", {"squad": LONG}, "…** (see `/carnevale squad list`)."),
    ("karmic character show", {"name": LONG}, "…` (see `/karmic character list`)."),
    ("karmic combat start", {"opponents": "Soldier", "pack": LONG}, "on this server (see `/pack list`)."),
    ("cz start", {"difficulty": "easy", "scenario": LONG}, "…`. Known: campaign, plague, no_rest, gorini, jmot, finale_bridge, "
                                                       "finale_boat, finale_airship, finale_holy_bomb."),
    ("cz start", {"difficulty": "easy", "pack": LONG}, "on this server (see `/pack list`)."),
    ("klash draft", {"pack": LONG}, "on this server (see `/pack list`)."),
    ("gm rules", {"game": LONG}, "…`."),
])
async def test_long_input_gets_a_short_private_answer(bot, server, path, values, ending):
    if path == "klash draft":
        values = {**values, "opponent": server.users[3]}
    interaction = await slash(bot, server, path, 2, **values)
    ephemeral, text = answer(interaction)
    assert ephemeral and len(text) < 400 and "x" * 99 + "…" in text and "x" * 100 not in text
    assert text.endswith(ending), text


async def test_pack_import_for_a_long_game_name_answers_shortly(bot, server):
    interaction = await slash(bot, server, "pack import", 1, game=LONG, file=FakeAttachment("p.yaml", b"a: 1\n"))
    ephemeral, text = answer(interaction)
    assert ephemeral and text == f"There is no game called `{'x' * 99}…`."


async def test_echoed_mentions_are_neutralised_and_the_bot_never_pings_everyone_or_roles(bot, server):
    interaction = await slash(bot, server, "carnevale squad show", 2, squad=EVERYONE)
    ephemeral, text = answer(interaction)
    assert ephemeral and "@\u200beveryone" in text and "@everyone" not in text
    mentions = bot.allowed_mentions
    assert (mentions.everyone, mentions.roles, mentions.users, mentions.replied_user) == (False, False, True, False)


async def test_report_error_and_reply_cut_any_text_to_2000_characters(server):
    refused = server.interaction(server.users[2], server.channels[TABLE])
    await report_error(refused, BautaError("y" * 5000))
    said = server.ephemeral(server.users[2])[-1].content
    assert len(said) == 2000 and said.endswith("y…")
    answered = server.interaction(server.users[3], server.channels[TABLE])
    await reply(answered, "z" * 2500, ephemeral=True)
    said = server.ephemeral(server.users[3])[-1].content
    assert len(said) == 2000 and said.endswith("z…")
