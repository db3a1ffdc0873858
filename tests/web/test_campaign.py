"""The campaign pages over HTTP, through the real bot: each game seeded through its cogs, each page
read with a member's own link. A Carnevale squad's ledger is its owner's; a Karmic sheet and deck
are their owner's (the GM's sheets the GM's); a Carnival Zombie campaign's Calendar and Days and
Nights are the table's. A game whose system keeps no campaign has no page (404), and an altered
link is refused before anything is read."""
from __future__ import annotations

import random

import pytest
from markupsafe import escape

from cogs.host import systems
from i18n.present import Presenter
from rules.carnival_zombie import ENGINE as CZ, content_for
from rules.karmic import Character, deck_summary
from rules.common import PUBLIC
from tests.cogs.test_carnevale import GUILD, RASHAAR, build, call, cog_of as carnevale_cog
from tests.cogs.test_carnival_zombie import answer, open_table, state_of
from tests.cogs.test_karmic import import_sheet, cog_of as karmic_cog
from tests.rules.carnival_zombie.policies import sensible_policy
from tests.web.helpers import ask_link, fetch, web_bot

GUILD_NAME = 'Guild <i>&"x"</i>'        # a name a member typed: text on the page, never markup


@pytest.fixture
async def bot(database):
    bot = await web_bot(database)
    yield bot
    await bot.close()


def body(page: str) -> str:
    """The campaign section of a page ('' when it has none)."""
    start = page.find('<section class="campaign">')
    return page[start:page.index("</section>", start)] if start >= 0 else ""


# ---------------------------------------------------------------------------- Carnevale
async def test_a_squads_ledger_is_shown_to_its_owner_only(bot, world):
    cog = carnevale_cog(bot)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, GUILD_NAME, "The Guild", GUILD)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    await call(world, cog.campaign_record, 2, squad="Rashaar", vp=7, won=True, adventure="Unexpected Clash")
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", their_squad=GUILD_NAME,
               deploy_all=True)
    game = await bot.store.active_game(1, 10)
    assert game is not None and game.system == "carnevale"
    stored = (await bot.store.character(1, 2, "carnevale", "Rashaar"))["campaign"]
    assert stored["bank"] == 12 and len(stored["adventures"]) == 1

    alice = await ask_link(bot, world, world.users[2])
    status, page, _ = await fetch(alice)
    assert status == 200 and f'href="/g/{alice.split("/g/")[1]}/campaign"' in page
    status, page, _ = await fetch(alice + "/campaign")
    assert status == 200
    shown = body(page)
    assert ("📒 <strong>Rashaar</strong> (The Rashaar) — campaign 1: 1/5 adventures · bank <strong>12 CP</strong>"
            in shown)
    assert "• 1. Unexpected Clash: 7 VP — won → 12 CP" in shown
    assert "<strong>Magi-Rashaar</strong> — Leader" in shown
    assert "· Adventure 1 (Unexpected Clash): 7 VP and the win → 12 Campaign Points (bank 12)." in shown
    assert "Guild" not in shown

    # Bruno's squad keeps no ledger: he is told so, with his squad's name as text; Alice's stays hers
    bruno = await ask_link(bot, world, world.users[3])
    status, page, _ = await fetch(bruno + "/campaign")
    assert status == 200
    shown = body(page)
    assert shown.endswith(f"<p><strong>{escape(GUILD_NAME)}</strong> has no campaign yet: "
                          "<code>/carnevale-campaign start</code>.</p>")
    assert "<i>" not in page and "12 CP" not in page and "Rashaar" not in page

    # the GM sees no one's ledger (in Discord, only its owner shows it)
    gm = await ask_link(bot, world, world.users[1])
    status, page, _ = await fetch(gm + "/campaign")
    assert status == 200 and body(page) == ""
    assert ('<p id="campaign-empty">Nothing of this game\'s campaign is yours to see: a sheet, a squad\'s ledger '
            "stay their owner\'s.</p>").replace("'", "&#39;") in page
    assert "12 CP" not in page


# ---------------------------------------------------------------------------- Karmic
ORC = "name: Orc\nnpc: true\nown_deck: true\nskills: {brawling: 2, sword: 2}\nweapons: [Sword]\n"


async def test_a_karmic_sheet_and_deck_are_their_owners_and_the_gms_sheets_the_gms(bot, world, seed):
    alice, gm = world.users[2], world.users[1]
    await import_sheet(bot, world, alice)
    await import_sheet(bot, world, gm, ORC, "orc.yaml", gm_sheet=True)
    cog = karmic_cog(bot)
    await cog.combat_start.callback(cog, world.interaction(alice, world.channels[10]), opponents="Orc",
                                    character="Devon", bot_plays_npcs=True)
    game = await bot.store.active_game(1, 10)
    assert game.meta["karmic_sheets"] == {"c1": [2, "Devon"], "c2": [0, "Orc"]}
    devon = deck_summary(Character.from_dict((await bot.store.character(1, 2, "karmic", "Devon"))["character"]))
    orc = deck_summary(Character.from_dict((await bot.store.character(1, 0, "karmic", "Orc"))["character"]))
    assert (devon["deck"], devon["discards"], devon["sideboard"]) == (44, 0, 10)

    alice_link = await ask_link(bot, world, alice)
    status, page, _ = await fetch(alice_link + "/campaign")
    assert status == 200
    shown = body(page)
    assert "<p><strong>Devon</strong><br>" in shown
    assert "Skills: brawling 2, combat training 1, dagger 2, dodge 2, sword 3, tracking 2<br>" in shown
    assert "Hit points: 0/30 marked (rows of 6)<br>Karma deck — cards: 44 · discarded: 0 · in the sideboard: 10" not in shown      # the gender line comes between
    assert "Hit points: 0/30 marked (rows of 6)<br>" in shown
    assert "Karma deck — cards: 44 · discarded: 0 · in the sideboard: 10<br>" in shown
    assert "Weapons: Sword (wielded), Dagger" in shown
    assert ("🂠 <strong>Devon</strong> — deck 44 · discards 0 · sideboard 10 · 0 discarded since the last shuffle"
            in shown)
    assert f"These counts are from before game #{game.id} (#…): the deck is in play there" in shown
    assert "Orc" not in shown

    # the GM's page: the GM sheet of the game, not the player's
    link = await ask_link(bot, world, gm)
    status, page, _ = await fetch(link + "/campaign")
    shown = body(page)
    assert status == 200 and "<p><strong>Orc</strong> (NPC)<br>" in shown
    assert (f"🂠 <strong>Orc</strong> — deck {orc['deck']} · discards {orc['discards']} · "
            f"sideboard {orc['sideboard']} · {orc['since_shuffle']} discarded since the last shuffle") in shown
    assert "Devon" not in shown and "Tracking" not in shown

    # a spectator reads no one's sheet
    await bot.store.set_house_rule(1, "karmic", systems.WEB_SPECTATORS, True)
    link = await ask_link(bot, world, world.users[3])
    status, page, _ = await fetch(link + "/campaign")
    assert status == 200 and body(page) == "" and 'id="campaign-empty"' in page
    assert "Devon" not in page and "Orc" not in page

    # the fight ended by the GM: the decks are written back, and the page reads them as stored now
    await cog.combat_end.callback(cog, world.interaction(gm, world.channels[10]))
    after = deck_summary(Character.from_dict((await bot.store.character(1, 2, "karmic", "Devon"))["character"]))
    assert after["discards"] > 0 and after["deck"] + after["discards"] == 44 and after["sideboard"] == 10
    status, page, _ = await fetch(alice_link + "/campaign")
    shown = body(page)
    assert (f"🂠 <strong>Devon</strong> — deck {after['deck']} · discards {after['discards']} · sideboard 10 · "
            f"{after['since_shuffle']} discarded since the last shuffle") in shown
    assert "These counts are from before" not in shown


# ---------------------------------------------------------------------------- Carnival Zombie
async def test_a_carnival_zombie_campaigns_days_and_nights(bot, world, seed):
    seed(3)
    alice = world.users[2]
    game = await open_table(bot, world, [alice], difficulty="medium")
    policy = sensible_policy(random.Random(3))
    for _ in range(400):
        _record, state = await state_of(bot, game.id)
        if state.phase == "night" or state.over:
            break
        await answer(bot, world, game.id, policy)
    assert state.phase == "night" and state.ticket == 1 and state.days_played == 1
    view = CZ.view_for(state, PUBLIC)
    calendar = content_for(state.pack).calendar                 # the sample pack's Boss counts, Medium
    assert view["calendar"]["bosses"] == {t: calendar[t]["medium"] for t in (1, 2, 3)} == {1: 3, 2: 4, 3: 8}
    say = Presenter("en", "carnival_zombie")
    logged = [e for r in await bot.store.actions(game.id, limit=1000) for e in r.events]
    day = next(e for e in logged if e["kind"] == "day")
    sunset = next(e for e in logged if e["kind"] == "sunset")

    link = await ask_link(bot, world, alice)
    status, page, _ = await fetch(link)
    assert status == 200 and 'id="to-campaign"' in page
    status, page, _ = await fetch(link + "/campaign")
    assert status == 200
    shown = body(page)
    assert "<strong>The Calendar</strong> · Days begun: 1" in shown
    assert ("☀️ Day 1: played<br>🌙 Night 1: now · Boss Tarots drawn that Night: 3<br>"
            "☀️ Day 2: to come<br>🌙 Night 2: to come · Boss Tarots drawn that Night: 4<br>"
            "☀️ Day 3: to come<br>🌙 Night 3: to come · Boss Tarots drawn that Night: 8</p>") in shown
    assert say.event(day).startswith("☀️ Day 1 begins at ") and say.event(sunset).startswith("🌆 Sunset at ")
    assert shown.endswith(f"<p><strong>Days and Nights</strong><br>· The Story so far is told. The first Day begins."
                          f"<br>· {escape(say.event(day))}<br>· {escape(say.event(sunset))}<br>· 🌙 Night 1, Hour 1.</p>")
    # in the reader's language (their browser's, without a /profile language)
    status, page, _ = await fetch(link + "/campaign", headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert status == 200 and "☀️ Giorno 1: giocato<br>🌙 Notte 1: adesso · Tarocchi Boss pescati quella Notte: 3" in page
    assert "<strong>Giorni e Notti</strong><br>· " in page and "🌙 Notte 1, Ora 1.</p>" in page
    # a link altered by one character opens nothing
    altered = link[:-8] + ("A" if link[-8] != "A" else "B") + link[-7:]
    status, page, _ = await fetch(altered + "/campaign")
    assert status == 403 and 'data-code="altered"' in page and "Calendar" not in page

    # the table's words: a spectator reads the same Calendar
    await bot.store.set_house_rule(1, "carnival_zombie", systems.WEB_SPECTATORS, True)
    watcher = await ask_link(bot, world, world.users[3])
    status, page, _ = await fetch(watcher + "/campaign")
    assert status == 200 and body(page) == shown


# ---------------------------------------------------------------------------- no campaign, a bad link
async def test_a_game_without_a_campaign_has_no_page_and_an_altered_link_is_refused(bot, world):
    game = await bot.host.start(world.interaction(world.users[2], world.channels[10]), "duel", ["2", "3"], seed=7)
    assert systems.get("duel").campaign is None
    link = await ask_link(bot, world, world.users[2])
    status, page, _ = await fetch(link)
    assert status == 200 and "to-campaign" not in page
    status, page, _ = await fetch(link + "/campaign")
    assert status == 404 and 'data-code="not_found"' in page
    assert f"#{game.id}" not in page
    altered = link[:-8] + ("A" if link[-8] != "A" else "B") + link[-7:]
    status, page, _ = await fetch(altered + "/campaign")
    assert status == 403 and 'data-code="altered"' in page
