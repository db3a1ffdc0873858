"""Discord refuses a whole sync if one command breaks a limit; check them all offline, in every locale.

The payload checked is the one `tree.sync()` sends (`get_translated_payload` with Bauta's translator).
Localized names follow Discord's name rule. For a command's character budget Discord counts, per
field, the longest of the default text and its localizations (discord-api-docs PR #5343); the budget
is 8,000 characters since February 2024 (PR #6668, 4,000 before). The English tree alone keeps to the
old 4,000 as well.
"""
import regex

from i18n.translator import BautaTranslator
from tests.conftest import make_bot

# Discord's rule for command and option names (the \\p classes need the `regex` module).
NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
LOCALES = ("it", "es-ES", "es-419")


def _localized(node: dict, field: str, locale: str | None) -> str:
    if locale is None:
        return node.get(field, "")
    return (node.get(f"{field}_localizations") or {}).get(locale, node.get(field, ""))


def _longest(node: dict, field: str) -> int:
    return max([len(node.get(field, ""))] + [len(v) for v in (node.get(f"{field}_localizations") or {}).values()])


def _size(node: dict, field_size=_longest) -> int:
    """Discord's count: names, descriptions and choice names/values of a command and everything in it."""
    total = field_size(node, "name") + field_size(node, "description")
    for choice in node.get("choices", []) or []:
        total += field_size(choice, "name") + len(str(choice["value"]))
    for option in node.get("options", []) or []:
        total += _size(option, field_size)
    return total


def _english(node: dict, field: str) -> int:
    return len(node.get(field, ""))


def _walk(node: dict, path: str, locale: str | None, problems: list[str]) -> None:
    name = _localized(node, "name", locale)
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{locale or 'default'} {path}: bad name {name!r}")
    description = _localized(node, "description", locale)
    if not 1 <= len(description) <= 100:
        problems.append(f"{locale or 'default'} {path}: description length {len(description)}")
    options = node.get("options", []) or []
    if len(options) > 25:
        problems.append(f"{path}: {len(options)} options (max 25)")
    names = [_localized(option, "name", locale) for option in options]
    if len(set(names)) != len(names):
        problems.append(f"{locale or 'default'} {path}: two options or subcommands share a name: {names}")
    choices = node.get("choices", []) or []
    if len(choices) > 25:
        problems.append(f"{path}: more than 25 choices")
    for choice in choices:
        if not 1 <= len(_localized(choice, "name", locale)) <= 100:
            problems.append(f"{locale or 'default'} {path}: choice {choice['name']!r} length")
    for option in options:
        _walk(option, f"{path} {option['name']}", locale, problems)


async def _payloads(tmp_path) -> list[dict]:
    bot = await make_bot(tmp_path / "b.sqlite3")
    try:
        translator = BautaTranslator()
        return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    finally:
        await bot.close()


async def test_every_command_fits_discord_limits_in_every_locale(tmp_path):
    commands = await _payloads(tmp_path)
    assert len(commands) <= 100
    problems: list[str] = []
    for locale in (None,) + LOCALES:
        top = [_localized(c, "name", locale) for c in commands]
        if len(set(top)) != len(top):
            problems.append(f"{locale}: two top-level commands share a name")
        for command in commands:
            _walk(command, "/" + command["name"], locale, problems)
    for command in commands:
        size, english = _size(command), _size(command, _english)
        if size > 8000:
            problems.append(f"/{command['name']}: {size} characters in names, descriptions and choices (max 8000)")
        if english > 4000:
            problems.append(f"/{command['name']}: {english} characters in English (keep within 4000)")
    assert not problems, "\n".join(problems)


async def test_the_translator_localizes_every_command_option_and_choice(tmp_path):
    """Each locale gets a name and a description for everything, and a name for every choice."""
    commands = await _payloads(tmp_path)
    missing: list[str] = []

    def walk(node: dict, path: str) -> None:
        for locale in LOCALES:
            for field in ("name", "description"):
                if locale not in (node.get(f"{field}_localizations") or {}):
                    missing.append(f"{locale} {path} {field}")
            for choice in node.get("choices", []) or []:
                if locale not in (choice.get("name_localizations") or {}):
                    missing.append(f"{locale} {path} choice {choice['name']}")
        for option in node.get("options", []) or []:
            walk(option, f"{path} {option['name']}")

    for command in commands:
        walk(command, "/" + command["name"])
    assert missing == []
    gm = next(c for c in commands if c["name"] == "gm")
    language = next(o for o in gm["options"] if o["name"] == "language")
    assert language["name_localizations"] == {"it": "lingua", "es-ES": "idioma", "es-419": "idioma"}
    assert "en-US" not in language["name_localizations"]  # English reads the code's own text
