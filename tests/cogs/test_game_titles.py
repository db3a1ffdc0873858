"""A game's title in its reader's language, from its catalogue: Carnival Zombie's second edition is
"2ª Edizione" to an Italian reader, in /help as in a DM's header (it was English everywhere)."""
from cogs.host import systems
from tests.support.duel import register as register_duel


def test_a_title_comes_from_the_readers_catalogue():
    register_duel()
    assert systems.title("carnival_zombie", "it") == "Carnival Zombie 2ª Edizione"
    assert systems.title("carnival_zombie", "en-US") == "Carnival Zombie 2nd Edition"
    assert systems.title("klash", "it") == "Klash! Sangue & Sabbia"
    assert systems.title("duel") == systems.get("duel").title          # a test game has no catalogue
    assert systems.title("nothing") == "nothing"


async def test_help_names_the_games_in_italian(bot, world):
    user, channel = world.user(2, "Alice"), world.channel(10)
    interaction = world.interaction(user, channel, locale="it")
    await bot.get_cog("HelpCog").help.callback(bot.get_cog("HelpCog"), interaction)
    said = "\n".join(m.content or "" for m in world.sent)
    assert "Carnival Zombie 2ª Edizione" in said and "2nd Edition" not in said
