"""The catalogues read as a native player writes: no slash plurals, no vosotros, commands by the
names the reader's client shows.

Scope: the framework's files, Klash! and Carnival Zombie (their other games' catalogues belong to
their own issues; add them to GAMES when they pass)."""
from __future__ import annotations

import re

import pytest
import yaml

from i18n import HERE, _flatten
from i18n.translator import catalogue as commands_catalogue

LANGUAGES = ("en", "it", "es")
PARTS = ("", ".common", ".help", ".house_rules", ".files", ".packs", ".botplayer")
GAMES = (".klash", ".carnival_zombie", ".karmic", ".carnevale")

# "card(s)", "carta/e", "giocatore/i", "jugador(es)": a plural the reader has to work out
SLASH_PLURAL = re.compile(r"\w\((?:s|e|i|a|es|as|os)\)|\w/(?:e|i|a|es|as|os)\b")
# Spanish for Spain only: the Latin American reader (es-419) says "ustedes"
VOSOTROS = re.compile(r"\b(?:vosotr[oa]s|vuestr[oa]s?|os|decís|veis|vais|dais|sois|salid|entrad|elegid|sobrevivid"
                      r"|jugad|mirad|\w+áis|\w+éis)\b", re.I)
QUOTED = re.compile(r"`/([^`:…{]+)")


def values(language: str, parts=PARTS + GAMES) -> dict[str, str]:
    out = {}
    for part in parts:
        path = HERE / f"{language}{part}.yaml"
        if path.exists():
            out |= {f"{path.name}:{k}": v for k, v in _flatten(yaml.safe_load(path.read_text("utf-8")) or {}).items()
                    if isinstance(v, str)}
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_slash_plurals(language):
    """A count gets plural forms (docs/cogs.md "Plurals") or a label ("Gettoni rimasti: 1")."""
    assert sorted(k for k, v in values(language).items() if SLASH_PLURAL.search(v)) == []


def test_spanish_reads_for_both_spains():
    commands = {f"commands/es.yaml:{k}": v[1] for k, v in commands_catalogue("es").items() if k != "choices"}
    assert sorted(k for k, v in (values("es") | commands).items() if VOSOTROS.search(v)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_games_quote_commands_by_their_localized_names(language):
    """`/klash squadra` in Italian, `/paquete lista` in Spanish: what the reader's client shows."""
    table = commands_catalogue(language)
    localized = {" ".join(table[" ".join(path.split()[:i + 1])][0] for i in range(len(path.split())))
                 for path in table if path != "choices"}
    quoted = [(k, m.strip()) for k, v in values(language, GAMES).items() for m in QUOTED.findall(v)]
    assert quoted and sorted(f"{k}: /{q}" for k, q in quoted if q not in localized) == []


@pytest.mark.parametrize("language", ("it", "es"))
def test_every_framework_catalogue_exists_in_each_language(language):
    """A missing file is a whole feature read in English (the bot player's refusals were)."""
    english = sorted(p.name.removeprefix("en") for p in HERE.glob("en.*.yaml"))
    assert [part for part in english if not (HERE / f"{language}{part}").exists()] == []


@pytest.mark.parametrize("language, game, key, params, expected", [
    ("it", "carnival_zombie", "events.pile", {"n": 1}, "1 cubetto atterra sano e salvo sul Mucchio di Cadaveri."),
    ("es", "carnival_zombie", "events.pile", {"n": 1}, "1 cubo cae a salvo sobre la Pila de Cadáveres."),
    ("it", "carnival_zombie", "prompts.hit", {"name": "Colombina", "left": 1, "wounds": 1, "how": ""},
     "Colombina: Colpi rimasti: 1. Bersaglio di questo Colpo (Ferite: 1)?"),
    ("it", "carnival_zombie", "events.order", {"name": "Capitan Spaventa", "other": "Arlecchino"},
     "Segnalino Ordine di Capitan Spaventa per Arlecchino."),
    ("it", "klash", "events.event_swap", {"player": "1", "count": 1},
     "<@1> cambia una Carta Evento: la scarta e ne pesca un'altra."),
    ("es", "klash", "events.event_swap", {"player": "1", "count": 2},
     "<@1> cambia 2 Cartas de Evento: las descarta y roba otras tantas."),
    ("it", "klash", "events.test", {"name": "Arciere Elfico 1", "test": "Gettone Addestramento", "sum": "3+5",
                                    "total": 8, "target": 7, "result": "fallimento"},
     "Arciere Elfico 1, Test di Disciplina (Gettone Addestramento): 3+5 = 8 contro 7: fallimento."),
    ("es", "klash", "events.token_gain", {"player": "1", "amount": 1},
     "<@1> gana Fichas de Entrenamiento: +1."),
])
def test_the_worst_lines_read_right(language, game, key, params, expected):
    from i18n.present import Presenter
    assert Presenter(language, game=game).text(key, **params) == expected
