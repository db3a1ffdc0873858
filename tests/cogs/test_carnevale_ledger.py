"""The campaign ledger through the cogs: every change is an entry of data (the action and its events),
told in the server's language, read again in each reader's, and taken back by `/carnevale-campaign undo`
exactly (the record's Rng too: the same roll made again rolls the same die). A campaign stored before
the ledger spoke data (schema 1: English history lines) keeps loading."""
import asyncio
import json
from pathlib import Path

from rules.carnevale import CampaignRecord

from .test_carnevale import RASHAAR, build, call, cog_of, last_private


async def stored(bot):
    return (await bot.store.character(1, 2, "carnevale", "Rashaar"))["campaign"]


async def rashaar_campaign(world, cog, **adventure):
    """Player 2's Rashaar squad, its campaign begun and, given `vp`/`won`, one adventure recorded."""
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    if adventure:
        await call(world, cog.campaign_record, 2, squad="Rashaar", **adventure)


def public_since(world, n):
    return "\n".join(m.content for m in world.public()[n:] if m.content)


async def test_record_read_in_italian_undo_and_read_again(bot, world):
    world.locale = "it"
    cog = cog_of(bot)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    fresh = await stored(bot)
    await call(world, cog.campaign_record, 2, squad="Rashaar", vp=7, won=True, adventure="Unexpected Clash")
    assert ("• Avventura 1 (Unexpected Clash): 7 punti vittoria e la vittoria → 12 Punti Campagna (banca 12)."
            in public_since(world, 0))
    recorded = await stored(bot)
    seen = len(world.public())
    await call(world, cog.campaign_experience, 2, squad="Rashaar", member="Hybrid")
    told = public_since(world, seen)
    assert "• Hybrid: tirato " in told and "(serve 8+)" in told
    rolled = await stored(bot)
    assert [e["action"] for e in rolled["ledger"]] == [
        {"type": "record_adventure", "name": "Unexpected Clash", "vp": 7, "won": True, "notes": [], "fallen": None},
        {"type": "experience", "member": "Hybrid"}]
    assert [ev["kind"] for ev in rolled["ledger"][0]["events"]] == ["campaign_adventure_won"]
    # the same ledger read by an Italian reader, then by an English one
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    shown = last_private(world, 2)
    assert "banca **12 PC**" in shown and "1/5 avventure" in shown
    assert "• 1. Unexpected Clash: 7 punti vittoria — vinta → 12 PC" in shown
    assert "· Avventura 1 (Unexpected Clash): 7 punti vittoria e la vittoria → 12 Punti Campagna (banca 12)." in shown
    world.locale = "en"
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    shown = last_private(world, 2)
    assert "· Adventure 1 (Unexpected Clash): 7 VP and the win → 12 Campaign Points (bank 12)." in shown
    assert "· Hybrid: rolled " in shown and "(needs 8+)" in shown
    world.locale = "it"
    # undo the roll: the record is as it was after the adventure, Rng included
    seen = len(world.public())
    await call(world, cog.campaign_undo, 2, squad="Rashaar")
    undone = public_since(world, seen)
    assert undone.startswith("↩️ <@2> annulla l'ultima voce della campagna di **Rashaar**:") and "• Hybrid: tirato " in undone
    after = await stored(bot)
    assert {k: v for k, v in after.items() if k != "ledger"} == {k: v for k, v in recorded.items() if k != "ledger"}
    assert len(after["ledger"]) == 1
    # made again, the roll rolls the same die and gives the same result
    seen = len(world.public())
    await call(world, cog.campaign_experience, 2, squad="Rashaar", member="Hybrid")
    assert public_since(world, seen) == told
    assert (await stored(bot))["members"] == rolled["members"]
    # two steps back: the campaign as it was opened; a third is refused, in Italian, privately
    seen = len(world.public())
    await call(world, cog.campaign_undo, 2, squad="Rashaar", steps=2)
    assert public_since(world, seen).startswith("↩️ <@2> annulla le ultime 2 voci della campagna di **Rashaar**:")
    back = await stored(bot)
    assert back["bank"] == 0 and back["adventures"] == [] and back["ledger"] == []
    assert back["rng"] == fresh["rng"] and back["members"] == fresh["members"]
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    assert "banca **0 PC**" in last_private(world, 2) and "0/5 avventure" in last_private(world, 2)
    await call(world, cog.campaign_undo, 2, squad="Rashaar")
    assert last_private(world, 2) == "Nel registro di questa campagna non c'è nulla da annullare."
    # someone else cannot take back this squad's ledger
    await call(world, cog.campaign_undo, 3, squad="Rashaar")
    assert "Rashaar" in last_private(world, 3) and (await stored(bot))["ledger"] == []


async def test_a_refused_change_leaves_the_ledger_as_it_was(bot, world):
    cog = cog_of(bot)
    await rashaar_campaign(world, cog, vp=3, won=False)
    before = await stored(bot)
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=50, what="a Musket")
    assert last_private(world, 2) == "a Musket costs 50 Campaign Points; the bank holds 3."
    assert await stored(bot) == before


async def test_a_campaign_stored_before_the_ledger_keeps_loading(bot, world):
    cog = cog_of(bot)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    old = data["campaign"]
    # schema 1: no ledger, the history and the members' gains in English words
    del old["ledger"]
    old["schema"] = 1
    old["bank"] = 15
    old["adventures"] = [{"number": 1, "name": "Adventure 1", "vp": 3, "won": False, "cp": 3, "notes": []},
                         {"number": 2, "name": "Unexpected Clash", "vp": 7, "won": True, "cp": 12, "notes": []}]
    old["history"] = ["Adventure 1: 3 VP → 3 Campaign Points (bank 3).",
                      "Adventure 2 (Unexpected Clash): 7 VP and the win → 12 Campaign Points (bank 15).",
                      "Hybrid: rolled 9 (needs 8+); table roll 1 → +1 COM"]
    hybrid = next(m for m in old["members"] if m["name"] == "Hybrid")
    hybrid["improvements"] = ["+1 COM"]
    hybrid["injuries"] = ["−1 DEX"]
    await bot.store.save_character(1, 2, "carnevale", "Rashaar", data)
    assert CampaignRecord.from_dict(old).history[-1] == "Hybrid: rolled 9 (needs 8+); table roll 1 → +1 COM"
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    shown = last_private(world, 2)
    assert "bank **15 CP**" in shown and "2/5 adventures" in shown
    assert "• 1. Adventure 1: 3 VP → 3 CP" in shown and "• 2. Unexpected Clash: 7 VP — won → 12 CP" in shown
    assert "**Hybrid** — improvements: +1 COM; injuries: −1 DEX" in shown
    assert "· Hybrid: rolled 9 (needs 8+); table roll 1 → +1 COM" in shown
    # the old record takes new entries, and gives them back
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=10, what="a Lantern")
    now = await stored(bot)
    assert now["bank"] == 5 and now["schema"] == 3 and len(now["ledger"]) == 1 and now["history"] == old["history"]
    assert [a["name"] for a in now["adventures"]] == ["", "Unexpected Clash"]     # "Adventure 1" was no name
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    assert last_private(world, 2).endswith("· Spent 10 CP on a Lantern (bank 5).")
    await call(world, cog.campaign_undo, 2, squad="Rashaar")
    back = await stored(bot)
    assert back["bank"] == 15 and back["history"] == old["history"] and back["ledger"] == []
    await call(world, cog.campaign_undo, 2, squad="Rashaar")
    assert last_private(world, 2) == "There is nothing in this campaign's ledger to take back."


MAIN_RECORD = Path(__file__).parents[1] / "rules" / "carnevale" / "data" / "campaign-main-83f1ea9.json"


async def test_a_campaign_stored_by_main_shows_the_same_and_round_trips(bot, world):
    """A record as main at 83f1ea9 stored it (schema 2, begun under schema 1: its unnamed adventure
    kept as "Adventure 1"): shown in Italian exactly as main showed it, then saved, read and taken
    back through the cog with its adventure unnamed."""
    cog = cog_of(bot)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    await bot.store.save_character(1, 2, "carnevale", "Rashaar",
                                   {**data, "campaign": json.loads(MAIN_RECORD.read_text(encoding="utf-8"))})
    world.locale = "it"
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    main_showed = ["📒 **Rashaar** (The Rashaar) — campagna 1: 2/5 avventure · banca **5 PC**",
                   "• 1. Avventura 1: 3 punti vittoria → 3 PC",
                   "• 2. Unexpected Clash: 7 punti vittoria — vinta → 12 PC",
                   "**Magi-Rashaar** — Capo", "**Hybrid**", "**Citizen of Venice**", "Storia:",
                   "· Adventure 1: 3 VP → 3 Campaign Points (bank 3).",
                   "· Adventure 2 (Unexpected Clash): 7 VP and the win → 12 Campaign Points (bank 15).",
                   "· Spesi 10 PC per a Lantern (banca 5)."]
    assert last_private(world, 2).split("\n") == main_showed
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=2, what="a Rope")
    now = await stored(bot)
    assert now["schema"] == 3 and [a["name"] for a in now["adventures"]] == ["", "Unexpected Clash"]
    assert [a["name"] for a in now["ledger"][0]["before"]["adventures"]] == ["", "Unexpected Clash"]
    await call(world, cog.campaign_undo, 2, squad="Rashaar")
    await call(world, cog.campaign_show, 2, squad="Rashaar")
    assert last_private(world, 2).split("\n") == main_showed
    await call(world, cog.campaign_undo, 2, squad="Rashaar")        # main's own entry: the spend of 10
    back = await stored(bot)
    assert back["bank"] == 15 and back["ledger"] == [] and [a["name"] for a in back["adventures"]] == [
        "", "Unexpected Clash"]


async def test_two_ledger_commands_at_the_same_instant_the_second_is_refused_not_lost(bot, world, monkeypatch):
    """Both commands read the squad before either saves: the first to save wins; the second used to
    write over it (its spend recorded, the first one's gone). Now it is refused, in its reader's
    language, and nothing of it is saved."""
    cog = cog_of(bot)
    await rashaar_campaign(world, cog, vp=7, won=True)       # bank 12
    read, go_on = asyncio.Event(), asyncio.Event()
    reading = bot.store.character

    async def held(*args):
        data = await reading(*args)
        if not read.is_set():        # the first command has read the squad; it waits for the second
            read.set()
            await go_on.wait()
        return data

    monkeypatch.setattr(bot.store, "character", held)
    world.locale = "it"
    first = asyncio.create_task(call(world, cog.campaign_spend, 2, squad="Rashaar", amount=5, what="a Lantern"))
    await read.wait()
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=3, what="a Rope")
    go_on.set()
    await first
    assert last_private(world, 2) == ("**Rashaar** è cambiata nel frattempo (un altro comando l'ha salvata prima): "
                                      "non è stato salvato nulla. Riprova.")
    now = await stored(bot)
    assert now["bank"] == 12 - 3
    assert [e["action"]["type"] for e in now["ledger"]] == ["record_adventure", "spend"]
    assert now["ledger"][-1]["action"]["what"] == "a Rope"
    # tried again, it applies on top of the other
    await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=5, what="a Lantern")
    assert (await stored(bot))["bank"] == 12 - 3 - 5


async def test_editing_a_campaign_squad_keeps_its_ledger(bot, world):
    """/carnevale squad add and remove saved the squad alone: its campaign ledger was wiped."""
    cog = cog_of(bot)
    await rashaar_campaign(world, cog, vp=7, won=True)
    kept = await stored(bot)
    await call(world, cog.squad_add, 2, squad="Rashaar", profile="Citizen of Venice", name="Nino")
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    assert data["campaign"] == kept and data["squad"]["members"][-1]["name"] == "Nino"
    await call(world, cog.squad_remove, 2, squad="Rashaar", number=len(data["squad"]["members"]))
    data = await bot.store.character(1, 2, "carnevale", "Rashaar")
    assert data["campaign"] == kept and "Nino" not in [m["name"] for m in data["squad"]["members"]]


async def test_a_finished_game_records_onto_a_ledger_changed_at_the_same_instant(bot, world, monkeypatch):
    """The game's end writes the adventure into the ledger while a spend on the same squad saves first:
    the record is read again and the adventure goes on top of the spend; neither is lost."""
    from .test_carnevale import GUILD
    cog = cog_of(bot)
    await build(world, 2, "Rashaar", "The Rashaar", RASHAAR)
    await build(world, 3, "Guild", "The Guild", GUILD)
    await call(world, cog.campaign_start, 2, squad="Rashaar")
    await call(world, cog.campaign_start, 3, squad="Guild")
    await call(world, cog.campaign_record, 2, squad="Rashaar", vp=7, won=True)           # bank 12
    await call(world, cog.game_start, 2, opponent=world.users[3], my_squad="Rashaar", their_squad="Guild",
               deploy_all=True)
    replace, raced = bot.store.replace_character, []

    async def spend_first(guild, owner, system, name, before, data):
        if owner == 2 and not raced:                 # another command's spend lands just before this write
            raced.append(name)
            await call(world, cog.campaign_spend, 2, squad="Rashaar", amount=4, what="a Rope")
        return await replace(guild, owner, system, name, before, data)

    monkeypatch.setattr(bot.store, "replace_character", spend_first)
    await call(world, cog.concede, 3)
    now = await stored(bot)
    assert raced == ["Rashaar"]
    assert [e["action"]["type"] for e in now["ledger"]] == ["record_adventure", "spend", "record_adventure"]
    vp = (await bot.store.game((await bot.store.games(1))[0].id)).state["result"]["vp"]["2"]["total"]
    assert now["bank"] == 12 - 4 + vp + 5
