"""Discord refuses a whole sync if one command breaks a limit; check them all offline."""
import re

import pytest

from tests.conftest import make_bot

NAME = re.compile(r"^[-_\w]{1,32}$")


def _size(node: dict) -> int:
    """Discord's count: names, descriptions and choice names/values of a command and everything in it."""
    total = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices", []) or []:
        total += len(choice["name"]) + len(str(choice["value"]))
    for option in node.get("options", []) or []:
        total += _size(option)
    return total


def _walk(node: dict, path: str, problems: list[str]) -> None:
    name = node.get("name", "")
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{path}: bad name {name!r}")
    if not 1 <= len(node.get("description", "")) <= 100:
        problems.append(f"{path}: description length {len(node.get('description', ''))}")
    options = node.get("options", []) or []
    if len(options) > 25:
        problems.append(f"{path}: {len(options)} options (max 25)")
    if len(node.get("choices", []) or []) > 25:
        problems.append(f"{path}: more than 25 choices")
    for option in options:
        _walk(option, f"{path} {option['name']}", problems)


async def test_every_command_fits_discord_limits(tmp_path):
    bot = await make_bot(tmp_path / "b.sqlite3")
    try:
        commands = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
        assert len(commands) <= 100
        problems: list[str] = []
        for command in commands:
            _walk(command, "/" + command["name"], problems)
            size = _size(command)
            if size > 4000:
                problems.append(f"/{command['name']}: {size} characters in names, descriptions and choices (max 4000)")
        assert not problems, "\n".join(problems)
    finally:
        await bot.close()
