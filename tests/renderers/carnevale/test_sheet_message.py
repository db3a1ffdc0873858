"""The live game sheet the cog posts is drawn in the channel's language."""
import pytest

from i18n import present


@pytest.mark.parametrize("locale, life", [("it", "Vita"), ("es", "Vida"), ("en", "Life")])
async def test_the_posted_game_sheet_speaks_the_channels_language(bot, world, locale, life):
    await bot.store.update_settings(1, locale=locale)
    cog = bot.get_cog("CarnevaleCog")
    with present.watch() as notes:
        await cog.game_start.callback(cog, world.interaction(world.users[2], world.channels[10]),
                                      opponent=world.users[3], my_faction="The Guild",
                                      their_faction="Doctors of the Ospedale", rounds=2)
    sheets = [m for m in world.sent if m.file is not None and m.file.filename.endswith("-sheet.png")]
    assert len(sheets) == 1
    drawn = {(n.key, n.language, n.text) for n in notes if n.key.startswith("words.image_")}
    assert ("words.image_life", locale, life) in drawn
    assert [n for n in notes if n.key.startswith("words.image_") and n.fallback] == []
