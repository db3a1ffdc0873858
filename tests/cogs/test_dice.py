import re
import time

import d20
import pytest

import i18n

from cogs.dice import DiceError, RollOutcome, _refusal, format_roll, plain_moments, roll
from i18n import t


def test_notation_through_d20():
    assert 3 <= roll("4d6kh3").total <= 18
    assert 1 <= roll("2d20kl1").total <= 20
    assert roll("3+4").total == 7


def test_success_pool_counts_dice_meeting_the_target():
    outcome = roll("8d10>=7")
    assert outcome.successes and 0 <= outcome.total <= 8
    assert outcome.detail.count("**") // 2 == outcome.total


@pytest.mark.parametrize("bomb", ["1000000d1000000", "1000000d6>=4", "1001d6", "500d6+501d6"])
def test_dice_bombs_are_refused_quickly(bomb):
    t("roll.bomb", None, limit=1)      # the catalogues load once per process: time the refusal, not that
    took = []
    for _ in range(3):                 # the best of three: a garbage collection is not the refusal's cost
        start = time.perf_counter()
        with pytest.raises(DiceError) as refused:
            roll(bomb)
        assert refused.value.key == "bomb" and "too many dice" in refused.value.words("en")
        took.append(time.perf_counter() - start)
    assert min(took) < 0.1


@pytest.mark.parametrize("bad, says", [
    ("", "at most 200 characters"), ("x" * 300, "at most 200 characters"),
    ("2d", "can't read `2d` as dice"), ("hello", "can't read `hello` as dice"), ("1d20+", "can't read `1d20+`")])
def test_bad_expressions_get_a_clear_message(bad, says):
    with pytest.raises(DiceError) as refused:
        roll(bad)
    assert says in refused.value.words("en-US")


def test_a_refused_roll_is_worded_for_its_reader():
    with pytest.raises(DiceError) as refused:
        roll("hello")
    assert refused.value.words("it") == ("Non riesco a leggere `hello` come dadi. Prova `2d6+3`, `4d6kh3`, "
                                         "`2d20kl1` o `8d10>=7`.")
    assert refused.value.words("es-419").startswith("No sé leer `hello`")


@pytest.mark.parametrize("bad, key, en, it, es", [
    ("1d6/0", "zero_division", "That roll divides by zero: `1d6/0`.", "Questo tiro divide per zero: `1d6/0`.",
     "Esa tirada divide entre cero: `1d6/0`."),
    ("2d6%0", "zero_division", "That roll divides by zero: `2d6%0`.", "Questo tiro divide per zero: `2d6%0`.",
     "Esa tirada divide entre cero: `2d6%0`."),
    ("1d0", "zero_sides", "A die needs at least one side: `1d0`.", "Un dado deve avere almeno una faccia: `1d0`.",
     "Un dado necesita al menos una cara: `1d0`."),
    ("1d20mih3", "bad_selector", "`mi` and `ma` take a plain number (as in `1d20mi2`), not `h3`.",
     "`mi` e `ma` vogliono un numero semplice (come in `1d20mi2`), non `h3`.",
     "`mi` y `ma` llevan un número simple (como en `1d20mi2`), no `h3`."),
    ("4d6ma>3", "bad_selector", "`mi` and `ma` take a plain number (as in `1d20mi2`), not `>3`.",
     "`mi` e `ma` vogliono un numero semplice (come in `1d20mi2`), non `>3`.",
     "`mi` y `ma` llevan un número simple (como en `1d20mi2`), no `>3`.")])
def test_a_roll_that_cannot_be_made_says_why_in_the_readers_language(bad, key, en, it, es):
    """d20's own reasons are English sentences: each is a catalogue key, none of d20's words reach a reader."""
    with pytest.raises(DiceError) as refused:
        roll(bad)
    assert refused.value.key == key
    assert (refused.value.words("en-US"), refused.value.words("it"), refused.value.words("es-ES")) == (en, it, es)


@pytest.mark.parametrize("error", [d20.RollError("Some new reason d20 gives."), OverflowError("int too large"),
                                   RecursionError("maximum recursion depth exceeded")])
def test_a_reason_d20_words_otherwise_is_not_shown_to_a_reader(error):
    """Any other failure names the expression in the reader's words: d20's sentence stays out."""
    refused = _refusal(error, "1d6+1")
    assert refused.key == "value"
    assert (refused.words("en-US"), refused.words("it"), refused.words("es-ES")) == (
        "That roll can't be made: `1d6+1`.", "Questo tiro non si può fare: `1d6+1`.",
        "Esa tirada no se puede hacer: `1d6+1`.")


@pytest.mark.parametrize("locale, one, many", [("en-US", "`1` success", "successes"),
                                               ("it", "`1` successo", "successi"),
                                               ("es-ES", "`1` éxito", "éxitos")])
def test_a_pool_counts_its_successes_in_the_readers_words(locale, one, many):
    pool = RollOutcome("3d10>=7", 1, "3d10 (**9**, 2, 4) >= 7 →", None, None, successes=True)
    assert format_roll("<@1>", pool, None, locale) == f"🎲 <@1>: 3d10 (**9**, 2, 4) >= 7 → {one}"
    pool.total = 2
    assert format_roll("<@1>", pool, None, locale).endswith(f"`2` {many}")


def test_plain_moments():
    assert plain_moments("2d6+3") == (10.0, 2 * 35 / 12)
    assert plain_moments("1d20-1d4") == (8.0, (399 + 15) / 12)
    assert plain_moments("4d6kh3") is None


def test_long_results_are_summarised_under_2000_characters():
    outcome = roll("999d100")
    text = format_roll("<@1>", outcome, "a big one")
    assert len(text) <= 2000 and f"`{int(outcome.total)}`" in text


async def test_public_roll_is_logged(bot, world):
    cog = bot.get_cog("DiceCog")
    alice = world.users[2]
    await cog.roll_command.callback(cog, world.interaction(alice, world.channels[10]), expression="2d6+3",
                                    secret=False, label="attack")
    message = world.public()[-1]
    assert message.content.startswith("🎲 <@2> — *attack*: 2d6")
    stats = await bot.store.roll_stats(1, 2)
    assert stats.rolls == 1 and stats.plain == 1


async def test_a_pool_rolled_on_an_italian_server_reads_italian_whoever_rolls(bot, world):
    """A public roll follows the server's language (`/gm language`), not the roller's client; a
    refusal is the roller's own."""
    await bot.store.update_settings(1, locale="it")
    cog = bot.get_cog("DiceCog")
    alice = world.users[2]
    with i18n.watch() as notes:
        await cog.roll_command.callback(cog, world.interaction(alice, world.channels[10], locale="en-US"),
                                        expression="6d10>=7", secret=False, label=None)
        await cog.roll_command.callback(cog, world.interaction(alice, world.channels[10], locale="es-ES"),
                                        expression="6d", secret=False, label=None)
    said = world.public()[-1].content
    assert said.startswith("🎲 <@2>: 6d10 (") and re.search(r"→ `\d` success[io]$", said)
    assert world.ephemeral(alice)[-1].content.startswith("No sé leer `6d`")
    assert [n for n in notes if n.fallback] == []


async def test_secret_roll_goes_to_roller_and_gm_channel_only(bot, world):
    await bot.store.update_settings(1, gm_channel_id=11)
    cog = bot.get_cog("DiceCog")
    alice = world.users[2]
    await cog.roll_command.callback(cog, world.interaction(alice, world.channels[10]), expression="1d20",
                                    secret=True, label=None)
    mine = world.ephemeral(alice)[-1].content
    gm = world.last("channel:11").content
    public = [m.content for m in world.sent if m.where == "channel:10"]
    assert mine.startswith("🎲") and mine in gm
    assert public == ["🤫 <@2> made a secret roll."]


async def test_secret_roll_without_gm_channel_dms_the_owner(bot, world):
    cog = bot.get_cog("DiceCog")
    await cog.roll_command.callback(cog, world.interaction(world.users[2], world.channels[10]),
                                    expression="1d20", secret=True, label="stealth")
    assert "Secret roll" in world.dms(world.users[1])[-1].content


async def test_bad_roll_changes_nothing(bot, world):
    cog = bot.get_cog("DiceCog")
    await cog.roll_command.callback(cog, world.interaction(world.users[2], world.channels[10]),
                                    expression="1000000d1000000", secret=False, label=None)
    assert "too many dice" in world.ephemeral(world.users[2])[-1].content
    assert (await bot.store.roll_stats(1, 2)).rolls == 0


async def test_rollstats(bot, world):
    cog = bot.get_cog("DiceCog")
    alice = world.users[2]
    for _ in range(5):
        await cog.roll_command.callback(cog, world.interaction(alice, world.channels[10]), expression="1d6",
                                        secret=False, label=None)
    await cog.rollstats.callback(cog, world.interaction(alice, world.channels[10]), user=None)
    text = world.ephemeral(alice)[-1].content
    assert "rolled 5 times" in text and "standard deviations" in text and "`1d6` ×5" in text
