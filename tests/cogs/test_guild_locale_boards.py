"""A server that never ran `/gm language` speaks its Discord language (`guild_locale`): Carnival
Zombie's board caption and image follow it too, not only the narration (they were English)."""
from __future__ import annotations

from i18n import present
from tests.support.fakes import click


def _english_notes(notes, game):
    return sorted({n.key for n in notes if n.game == game and n.language != "it"})


async def test_a_carnival_zombie_night_board_follows_the_servers_discord_language(bot, world):
    world.locale = "it"
    cog = bot.get_cog("CarnivalZombieCog")
    alice, bruno = world.users[2], world.users[3]
    with present.watch() as notes:
        await cog.start.callback(cog, world.interaction(alice, world.channels[10]), difficulty="easy", quick="night")
        await click(world, world.last("channel:10", with_view=True), bruno, index=0)     # Entra
        await click(world, world.last("channel:10", with_view=True), alice, index=2)     # Via
    said = "\n".join(m.content or "" for m in world.public())
    assert "🗺️ Venezia — Giorno 1, Alba." in said
    assert "Venice" not in said
    assert _english_notes(notes, "carnival_zombie") == []


async def test_cz_status_redraws_the_table_and_its_prompt_in_the_servers_discord_language(bot, world):
    """/cz status redraws the board outside any publish: the table's prompt and buttons were
    English there, as nothing told the table the server's language but an interaction."""
    world.locale = "it"
    cog = bot.get_cog("CarnivalZombieCog")
    alice = world.users[2]
    await cog.start.callback(cog, world.interaction(alice, world.channels[10]), difficulty="easy", quick="night")
    await click(world, world.last("channel:10", with_view=True), alice, index=2)         # Via
    seen = len(world.sent)
    await cog.status.callback(cog, world.interaction(world.users[4], world.channels[10]))
    shown = [m for m in world.sent[seen:] if m.public]
    assert shown and all("Ready?" not in m.content and "Start the game" not in m.texts() for m in shown)
    assert any(m.content.startswith("<@2> — Pronti? Ordine di Attivazione:") for m in shown)
