"""Each game is one façade and rules/ does no I/O (issue 10).

Code outside `rules/<game>/` uses a game through `rules.<game>` only (its `__init__`: the engine
and the queries its cog may use), so a game's inside can move without touching the cogs; and no
module in `rules/` reads a file or keys a cache by `id()`: content is loaded by the caller
(`content/`) and passed in."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("klash", "karmic", "carnevale", "carnival_zombie")
OUTSIDE = ("cogs", "renderers", "bench", "i18n", "content", "bot.py")


def python_files(*names: str) -> list[Path]:
    files: list[Path] = []
    for name in names:
        path = ROOT / name
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def deep_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names = ([node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0
                 else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        for name in names:
            parts = name.split(".")
            if len(parts) > 2 and parts[0] == "rules" and parts[1] in GAMES:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    return found


def test_cogs_renderers_and_benches_use_each_game_through_its_facade():
    assert [hit for path in python_files(*OUTSIDE) for hit in deep_imports(path)] == []


READS = re.compile(r"\bopen\(|\.read_text\(|\.read_bytes\(|Path\(__file__\)|importlib\.resources|\bid\(\w+\)\s*\]")


def test_no_module_in_rules_reads_a_file_or_keys_a_cache_by_id():
    hits = []
    for path in python_files("rules"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if READS.search(code):
                hits.append(f"{path.relative_to(ROOT)}:{number} {line.strip()}")
    # rules/common/safe_yaml.py measures one YAML tree by its nodes' ids inside one call: not a cache
    offenders = {h.split(":", 1)[0] for h in hits if not h.startswith("rules/common/safe_yaml.py")}
    # every game takes its pack from the caller (content/)
    assert offenders == set()
