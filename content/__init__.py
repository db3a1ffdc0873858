"""The bundled content: each game's sample pack, read from disk here so that `rules/` does no I/O.

`rules/<game>` parses and validates pack *text* (`load_pack_text`); reading the file is the caller's
job. Games move their `sample.yaml` to `content/<game>/sample.yaml` and callers (cogs, bench, tests)
take the parsed pack from `sample_pack(game)` and pass it to the engine in the setup options.
"""
from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


@cache
def sample_text(game: str) -> str:
    """The text of a game's bundled SAMPLE pack (`game` is the rules package name, e.g. "klash")."""
    return (HERE / game / "sample.yaml").read_text(encoding="utf-8")


@cache
def sample_pack(game: str) -> Any:
    """The parsed, validated SAMPLE pack of a game, through that game's own `load_pack_text`.

    Cached once per process: the packs are treated as read-only by every engine."""
    rules = importlib.import_module(f"rules.{game}")
    return rules.load_pack_text(sample_text(game), "sample.yaml")


def install() -> None:
    """Hand the games that play a default pack their bundled sample (once, at start-up: the bot's
    `prepare`, the tests' conftest, a bench that uses an engine directly)."""
    from rules import carnevale, carnival_zombie
    carnival_zombie.use_sample(sample_pack("carnival_zombie"))
    carnevale.use_sample(sample_pack("carnevale"))
