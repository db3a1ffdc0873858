"""The Karmic sample pack's names in the reader's language (issue 12's last gap): a weapon, an armour,
a distinction and an NPC are read in Italian and Spanish in a sheet and an opposed check (the seeded
three-round combat checks the same in tests/cogs/test_karmic_languages.py); a name typed in any of the pack's languages finds its entry; a guild pack that
writes plain names keeps working. What is checked: the concrete Italian/Spanish names, and that no
English pack name is left in anything a player reads (a name the pack gives no form for in the reader's
language is English, and counts against it)."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest
import yaml

from content import sample_text
from i18n import present
from rules.common import GM
from rules.karmic import ENGINE
from tests.cogs.test_karmic import Attachment, answer_prompt, stack_deck
from tests.support.reading import said

SAMPLE = yaml.safe_load(sample_text("karmic"))
GROUPS = ("weapons", "armor", "distinctions", "npcs")


def english_pack_names(language: str) -> list[str]:
    """The sample pack's English names that a reader of `language` must not meet: every name whose
    form in that language differs (a plain string is English for everyone)."""
    out = []
    for group in GROUPS:
        for entry in SAMPLE[group]:
            name = entry["name"]
            english = name["en"] if isinstance(name, dict) else name
            local = name.get(language) if isinstance(name, dict) else None
            if local != english:
                out.append(english)
    return out


def english_left(texts: list[str], language: str) -> list[tuple[str, str]]:
    found = []
    for text in texts:
        for name in english_pack_names(language):
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text):
                found.append((name, text[:160]))
    return found


def no_fallback(notes, locale: str) -> None:
    fallbacks = Counter((n.source, n.key, n.language) for n in notes if n.fallback)
    assert sorted(fallbacks.items()) == [], sorted(fallbacks.items())


PIA = """
name: Pia
attributes: {might: 1, fortitude: 1, finesse: 1, awareness: 0, will: 0}
skills: {ax: 3, shield: 2, combat_training: 1}
weapons: [Medium Axe, Small Shield]
armor: Soldier's Armor
distinctions: [Keen Sighted]
"""

NAMES = {"it": {"axe": "Ascia media", "shield": "Scudo piccolo", "armour": "Armatura da soldato",
                "distinction": "Vista acuta", "npc": "Soldato", "skills": "ascia 3, addestramento al combattimento 1",
                "skill": "ascia", "check": "Pia fa una prova di ascia contro Soldato"},
         "es": {"axe": "Hacha mediana", "shield": "Escudo pequeño", "armour": "Armadura de soldado",
                "distinction": "Vista aguda", "npc": "Soldado", "skills": "hacha 3, entrenamiento de combate 1",
                "skill": "hacha", "check": "Pia hace una tirada de hacha contra Soldado"}}


@pytest.mark.parametrize("locale", ["it", "es"])
async def test_a_sheet_and_an_opposed_check_read_the_packs_names_in_the_readers_language(bot, world, seed, locale):
    """`/karmic character import` and `show` word the sheet's weapons, armour, distinction and the
    rulebook's skills in the player's language; `/karmic check skill: opponent:` takes the skill and
    the NPC's name as a player of that language types them, and the table reads both in that
    language, with zero fallbacks."""
    await bot.store.update_settings(1, locale=locale, gm_channel_id=11)
    alice = world.users[2]
    words = NAMES[locale]
    cog = bot.get_cog("KarmicCog")
    world.sent.clear()
    with present.watch() as notes:
        await cog.character_import.callback(cog, world.interaction(alice, world.channels[10], locale=locale),
                                            file=Attachment("pia.yaml", PIA))
        await cog.character_show.callback(cog, world.interaction(alice, world.channels[10], locale=locale),
                                          name="Pia")
        sheet = world.ephemeral(alice)[-1].content
        await stack_deck(bot, alice.id, "Pia", ["9S", "3H", "4H"])
        await cog.check.callback(cog, world.interaction(alice, world.channels[10], locale=locale), skill=words["skill"],
                                 opponent=words["npc"], bot_plays_npcs=True)
        game = await bot.store.active_game(1, 10)
        state = ENGINE.load_state(game.state)
        prompt = next(p for p in ENGINE.pending(state) if p.player != GM)
        await answer_prompt(world, world.last(f"dm:{alice.id}", with_view=True), alice, prompt,
                            prompt.options[0].id, locale=locale)
    for word in ("axe", "shield", "armour", "distinction", "skills"):
        assert words[word] in sheet, (word, sheet)
    public = world.public_text()
    assert words["check"] in public, public             # the skill typed and read in the reader's words
    assert ENGINE.load_state((await bot.store.game(game.id)).state).check.sides[0].skill == "ax"
    assert not (await bot.store.game(game.id)).active
    # /game log and /game export replay the stored events for their reader: the NPC in that language
    game_cog = bot.get_cog("GameCog")
    with present.watch() as replayed:
        await game_cog.log.callback(game_cog, world.interaction(alice, world.channels[10], locale=locale), n=10)
        log = world.ephemeral(alice)[-1].content
        await game_cog.export.callback(game_cog, world.interaction(alice, world.channels[10], locale=locale))
    export = world.ephemeral(alice)[-1].file.fp
    export.seek(0)
    exported = json.loads(export.read())
    lines = [e["said"] for entry in exported["log"] for e in entry.get("events", []) if isinstance(e, dict) and "said" in e]
    assert words["npc"] in log and any(words["npc"] in line for line in lines), (log, lines)
    assert english_left([log, *lines], locale) == [] and english_left(said(world), locale) == []
    no_fallback(notes, locale)
    no_fallback(replayed, locale)


async def test_a_guild_pack_with_plain_names_still_plays_and_reads_its_own_names(bot, world, seed):
    """A pack written by a guild names its things with plain strings: imported, used by a sheet and
    an opposed check in Italian, its names are shown as written (no fallback: they are the pack's
    only words)."""
    pack = ("weapons:\n  - {name: Falchion, skill: sword, range: 1, max_damage: 4}\n"
            "armor:\n  - {name: Gambeson, finesse_mod: 0}\n"
            "npcs:\n  - {name: Brigand, skills: {sword: 2}, weapons: [Falchion], armor: Gambeson}\n")
    await bot.store.update_settings(1, locale="it", gm_channel_id=11)
    gm, alice = world.users[1], world.users[2]
    await bot.store.save_pack(1, "karmic", "guild", pack, gm.id)
    name = "guild"
    cog = bot.get_cog("KarmicCog")
    with present.watch() as notes:
        await cog.character_import.callback(cog, world.interaction(alice, world.channels[10], locale="it"),
                                            file=Attachment("pia.yaml", "name: Pia\nskills: {sword: 2}\n"
                                                                        "weapons: [falchion]\narmor: gambeson\n"),
                                            pack=name)
        sheet = world.ephemeral(alice)[-1].content
        await cog.check.callback(cog, world.interaction(alice, world.channels[10], locale="it"), skill="sword",
                                 opponent="brigand", pack=name, bot_plays_npcs=True)
    assert "Falchion" in sheet and "Gambeson" in sheet, sheet
    assert "Brigand" in world.public_text()
    no_fallback(notes, "it")


async def test_autocompletes_offer_and_commands_take_the_readers_words(bot, world):
    """What a player picks from or types: the NPCs, weapons, skills, difficulties and hit locations
    in the reader's language (the value stays the id), and a word typed in any of the three
    languages finds its key."""
    from cogs.karmic.common import typed_skill
    cog = bot.get_cog("KarmicCog")
    it = world.interaction(world.users[2], world.channels[10], locale="it")
    assert "Soldato" in [c.name for c in await cog._npc_names(it, "sold")]
    assert [(c.name, c.value) for c in await cog._ranged_weapons(it, "arco")] == [("Arco corto", "Arco corto")]
    assert ("seguire tracce", "tracking") in [(c.name, c.value) for c in await cog._skill_names(it, "tracce")]
    assert [(c.name, c.value) for c in await cog._difficulties(it, "molto diff")] == [("molto difficile (-5)",
                                                                                      "very_difficult")]
    assert [(c.name, c.value) for c in await cog._locations(it, "testa")][0] == ("testa", "head")
    assert [typed_skill(w) for w in ("Seguire tracce", "rastrear", "Forza", "casi imposible", "juggling")] == \
        ["tracking", "tracking", "might", "nigh_impossible", "juggling"]
