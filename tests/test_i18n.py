"""The catalogues: Italian and Spanish say everything English says, with the same parameters."""
import re
import string

import pytest
import yaml

from cogs.host import systems
from i18n import HERE, _flatten
from i18n.translator import FOLDER, english_source
from i18n.translator import catalogue as commands_catalogue
from tests.conftest import make_bot

# The framework's own words, per file; each game's catalogue (en.<game>.yaml) comes with its own issue.
FRAMEWORK = ("", ".help", ".house_rules", ".files", ".packs", ".botplayer", ".profile", ".chronicle", ".clock", ".web")
LANGUAGES = ("it", "es")

# Texts allowed to read the same as the English: only symbols and placeholders ("✅ {who}: {choice}").
SAME = {lang: {"prompt.answered", "common.errors.pack.in_file", "common.errors.pack.in_entry",
              "web.role_gm"} for lang in ("it", "es")}       # "GM" in every language
SAME["it"].add("web.replay")                                    # Italian says "replay" too


def flat(name: str) -> dict[str, str]:
    return _flatten(yaml.safe_load((HERE / name).read_text(encoding="utf-8")) or {})


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("part", FRAMEWORK)
def test_every_english_key_is_translated_with_the_same_placeholders(language, part):
    english, other = flat(f"en{part}.yaml"), flat(f"{language}{part}.yaml")
    assert sorted(set(english) - set(other)) == [], "missing"
    assert sorted(set(other) - set(english)) == [], "not in English any more"
    wrong = {key: (placeholders(english[key]), placeholders(other[key]))
             for key in english if placeholders(english[key]) != placeholders(other[key])}
    assert wrong == {}
    same = sorted(key for key in english if english[key] == other[key] and key not in SAME[language])
    assert same == []


def test_every_house_rule_of_every_game_is_explained_in_every_language():
    import importlib

    from bot import available_cogs
    for name in available_cogs():
        importlib.import_module(name)
    games = [s for s in systems.listed() if s.name != "duel"]  # duel: the tests' own toy game
    assert {s.name for s in games} == {"karmic", "klash", "carnival_zombie", "carnevale"}
    for language in ("en",) + LANGUAGES:
        explained = flat(f"{language}.house_rules.yaml")
        missing = [f"{s.name}.{k}" for s in games for k in s.house_rules if f"house_rules.{s.name}.{k}" not in explained
                   and f"house_rules.common.{k}" not in explained]
        assert missing == [], language
        extra = [k for k in explained if k.split(".")[1] != "common"
                 and k.split(".", 2)[2] not in systems.SYSTEMS[k.split(".")[1]].house_rules]
        assert extra == [], language


async def test_the_english_command_source_matches_the_code_and_every_entry_is_translated(tmp_path):
    bot = await make_bot(tmp_path / "b.sqlite3")
    try:
        source = await english_source(bot.tree)
    finally:
        await bot.close()
    snapshot = yaml.safe_load((FOLDER / "en.yaml").read_text(encoding="utf-8"))
    # When this fails, a command changed: run `python3 bot.py --write-commands`, then translate the
    # changed lines in i18n/commands/it.yaml and es.yaml.
    assert snapshot == source
    assert len(source) - 1 >= 400  # every command, group and option of the 105 commands
    for language in LANGUAGES:
        table = commands_catalogue(language)
        assert sorted(set(source) ^ set(table)) == [], language
        assert sorted(set(source["choices"]) ^ set(table["choices"])) == [], language


async def test_write_commands_writes_the_snapshot_as_committed(tmp_path):
    """`python3 bot.py --write-commands` builds the tree offline (the translator imports no bot)
    and writes, line for line and in order, the snapshot the repository holds."""
    from bot import write_commands
    assert await write_commands(tmp_path / "en.yaml") == 0
    assert (tmp_path / "en.yaml").read_text(encoding="utf-8") == (FOLDER / "en.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", ("en",) + LANGUAGES)
def test_commands_quoted_in_the_framework_texts_are_the_localized_ones(language):
    """`/mano` in Italian, `/ayuda juego:` in Spanish: the names the reader's client shows."""
    table = commands_catalogue(language)
    localized = {" ".join(table[" ".join(path.split()[:i + 1])][0] for i in range(len(path.split())))
                 for path in table if path != "choices"}
    quoted = set()
    for part in FRAMEWORK:
        for text in flat(f"{language}{part}.yaml").values():
            quoted |= {m.strip() for m in re.findall(r"`/([^`:…{]+)", text)}
    assert quoted and sorted(q for q in quoted if q not in localized) == []
