"""A refused file speaks its reader's language: `/pack import` of a broken pack for each of the four
games (and `/karmic character import` of a broken sheet), by someone whose Discord client is in
Italian or Spanish, names the file, the entry and the field and says what is wrong in that language,
every word from the catalogues (no English fallback, no unresolved placeholder)."""
from __future__ import annotations

import yaml
import pytest
from discord import app_commands

from content import sample_text
from i18n import present
from i18n.present import Presenter
from rules.common import IllegalAction
from tests.cogs.test_hostile_files import Attachment, command_of
from tests.support.packs import carnevale_pack


@pytest.fixture(scope="module", autouse=True)
def fork_server():
    from cogs.host import untrusted
    untrusted.warm().result(timeout=60)


async def upload(bot, world, user, command: str, locale: str, **options) -> str:
    """Invoke the command as discord.py does (its error goes to the tree's handler); the private answer."""
    cmd = command_of(bot, command)
    interaction = world.interaction(user, world.channels[10], locale=locale)
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as exc:  # noqa: BLE001 - exactly what the library hands to the error handler
        await bot.tree.on_error(interaction, app_commands.CommandInvokeError(cmd, exc))
    assert interaction.extras.get("bauta_refused") and "bauta_internal" not in interaction.extras
    return world.ephemeral(user)[-1].content


def klash_pack(change) -> str:
    doc = yaml.safe_load(sample_text("klash"))
    change(doc)
    return yaml.safe_dump(doc, allow_unicode=True)


def klash_bad_speed(doc):
    doc["characters"][1]["speed"] = "veloce"


def klash_too_small(doc):
    doc["characters"] = doc["characters"][:3]
    doc["characters"][0]["spells"] = ["healing"]


def cz_alley_twice() -> str:
    doc = yaml.safe_load(sample_text("carnival_zombie"))
    doc["map"]["alleys"].append([6, "W", 13, 0])
    return yaml.safe_dump(doc, allow_unicode=True)


CARNEVALE = carnevale_pack(equipment="Laser")

CASES = {
    "it": [
        ("klash", "klash.yaml", lambda: klash_pack(klash_bad_speed),
         ["klash.yaml: characters[1] (javelin): campo 'speed': 'veloce' non è di tipo intero"]),
        ("klash", "klash.yaml", lambda: klash_pack(klash_too_small),
         ["klash.yaml: characters[0] (spearman): campo 'spells': solo i modelli Incantatore conoscono incantesimi",
          "klash.yaml: characters: l'Asta dei Gladiatori richiede almeno 40 carte personaggio, il pacchetto ne ha 12"]),
        ("carnival_zombie", "venezia.yaml", cz_alley_twice,
         ["venezia.yaml: map.alleys[25]: il Luogo 6 ha già un Vicolo verso Ovest",
          "venezia.yaml: map.alleys[25]: il Luogo 13 ha già un Vicolo verso Est"]),
        ("karmic", "karmic.yaml", lambda: "npcs:\n  - {name: Orc, armor: Plate}\n",
         ["karmic.yaml: npcs[0] (Orc): campo 'armor': nel pacchetto non c'è un'armatura chiamata 'Plate'"]),
        ("carnevale", "bande.yaml", lambda: CARNEVALE,
         ["bande.yaml: classes (Bravo): campo 'equipment': 'Laser' non è nelle tabelle delle armi o dell'equipaggiamento"]),
    ],
    "es": [
        ("klash", "klash.yaml", lambda: klash_pack(klash_too_small),
         ["klash.yaml: characters[0] (spearman): campo 'spells': solo los modelos Hechicero conocen hechizos",
          "klash.yaml: characters: la Subasta de Gladiadores necesita al menos 40 cartas de personaje, el paquete "
          "tiene 12"]),
        ("carnival_zombie", "venezia.yaml", cz_alley_twice,
         ["venezia.yaml: map.alleys[25]: el Lugar 6 ya tiene un Callejón hacia el Oeste",
          "venezia.yaml: map.alleys[25]: el Lugar 13 ya tiene un Callejón hacia el Este"]),
    ],
}


def no_fallback(notes, locale: str) -> None:
    assert [(n.source, n.key) for n in notes if n.fallback] == []
    assert sorted({n.key for n in notes if n.language != locale}) == []


@pytest.mark.parametrize("locale,game,name,text,expected",
                         [(locale, *case) for locale, cases in CASES.items() for case in cases],
                         ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None)
async def test_pack_import_names_the_problems_in_the_readers_language(bot, world, locale, game, name, text,
                                                                       expected):
    gm = world.users[1]
    with present.watch() as notes:
        answer = await upload(bot, world, gm, "pack import", locale, game=game, file=Attachment(name, text()))
    assert answer.split("\n") == expected
    no_fallback(notes, locale)
    assert {n.key for n in notes if n.key.startswith("errors.pack.") or n.key.startswith("common.")}
    assert await bot.store.packs(1) == []


async def test_the_schema_is_checked_before_the_references(bot, world):
    """A pack with a schema problem and a dangling reference is told the schema's problem alone: the
    references are checked only in a pack that passes the schema."""
    with present.watch() as notes:
        answer = await upload(bot, world, world.users[1], "pack import", "it", game="karmic",
                              file=Attachment("k.yaml", "npcs:\n  - {name: Orc, armor: Plate}\n"
                                                        "weapons:\n  - {name: Axe, range: far}\n"))
    assert answer == "k.yaml: weapons[0] (Axe): campo 'range': 'far' non è di tipo intero"
    no_fallback(notes, "it")


async def test_a_long_list_of_problems_is_cut_and_counted_in_the_readers_language(bot, world):
    weapons = "".join(f"  - {{name: w{i}, aim: x}}\n" for i in range(25))
    with present.watch() as notes:
        answer = await upload(bot, world, world.users[1], "pack import", "it", game="karmic",
                              file=Attachment("molte.yaml", "weapons:\n" + weapons))
    lines = answer.split("\n")
    assert lines[0] == "molte.yaml: weapons[0] (w0): campo 'aim': 'x' non è di tipo intero"
    assert len(lines) == 11 and lines[-1] == "… e altri 15"
    assert len(answer) < 2000
    no_fallback(notes, "it")


@pytest.mark.parametrize("locale,sheet,expected", [
    ("it", "name: Pia\nweapons: [Laser]\n", "pia.yaml: Pia: campo 'weapons': nel pacchetto non c'è un'arma chiamata 'Laser'"),
    ("it", "name: Pia\nattributes: {might: forte}\n",
     "pia.yaml: attributes: campo 'might': 'forte' non è di tipo intero"),
    ("es", "- solo\n- una lista\n", "pia.yaml: debe ser un mapa con al menos 'name'."),
    ("it", "name: [aperta\n",     # what the YAML parser found is quoted in its own (English) words
     "pia.yaml: riga 2, colonna 1: non è YAML valido (il lettore YAML dice: «did not find expected ',' or ']'»)."),
])
async def test_a_karmic_sheet_is_refused_in_the_players_language(bot, world, locale, sheet, expected):
    with present.watch() as notes:
        answer = await upload(bot, world, world.users[2], "karmic character import", locale,
                              file=Attachment("pia.yaml", sheet))
    assert answer == expected
    no_fallback(notes, locale)
    assert await bot.store.characters(1, "karmic", 2) == []


def refuse_a_bonus_card(n: int) -> None:
    """A rules function that refuses with a code (run in the child process by name)."""
    raise IllegalAction("bonus_once", n=n)


async def test_a_refusal_in_the_child_process_keeps_its_code_and_parameters(bot, world):
    """The child used to send back `str(error)`: a coded refusal reached the reader as
    "bonus_once(n=2)". It now crosses whole, and the handler words it from the catalogue."""
    from cogs.host import untrusted
    from cogs.host.errors import friendly
    with pytest.raises(IllegalAction) as refused:
        await untrusted.parse(refuse_a_bonus_card, 2, source="x.yaml")
    assert (type(refused.value), refused.value.code, refused.value.params) == (IllegalAction, "bonus_once", {"n": 2})
    refused.value.system = "karmic"
    assert friendly(refused.value, "it") == Presenter("it", "karmic").text("errors.bonus_once", n=2)
    assert "bonus_once" not in friendly(refused.value, "it")
