"""Hostile files for the tests of untrusted input (rules/common/safe_yaml.py, cogs/untrusted.py)."""
from __future__ import annotations


def billion_laughs(levels: int = 8, width: int = 9) -> str:
    """A karmic sheet whose 'name' is an alias standing for width**(levels + 1) strings ("lol").
    The anchors sit in 'advanced' (a list field), so only the last level is in a wrong-typed field."""
    parts = [f'&a0 [{",".join(["lol"] * width)}]']
    parts += [f'&a{i} [{",".join([f"*a{i - 1}"] * width)}]' for i in range(1, levels + 1)]
    return "advanced: [" + ", ".join(parts[:-1]) + "]\nname: " + parts[-1] + "\n"


def nested(levels: int = 3000) -> str:
    """A karmic sheet whose 'advanced' list is nested `levels` deep."""
    return "name: Deep\nadvanced: " + "[" * levels + "]" * levels + "\n"


def nested_json(levels: int = 3000) -> str:
    return '{"name": "Deep", "advanced": ' + "[" * levels + "]" * levels + "}"


def bad_entries(count: int = 40_000) -> str:
    """A karmic pack of `count` weapons, each with a wrong-typed 'aim' (956 KB for 40,000)."""
    return "weapons:\n" + "".join(f"- {{name: w{i},aim: x}}\n" for i in range(count))


def longest_quote(answer: str, text: str, at_least: int = 101) -> bool:
    """True when `answer` repeats `at_least` consecutive characters of `text`."""
    return any(answer[i:i + at_least] in text for i in range(len(answer) - at_least + 1))
