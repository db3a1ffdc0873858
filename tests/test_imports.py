"""The house's import rules, read from the source with `ast` (nothing is imported): no file imports
one that imports it back, however long the circle, and each package imports only the layers below
it (docs/architecture.md)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("bot.py", "bench", "clock", "cogs", "content", "db", "i18n", "renderers", "rules", "web")
GAMES = ("karmic", "klash", "carnevale", "carnival_zombie")


def _modules() -> dict[str, Path]:
    found = {}
    for source in SOURCES:
        path = ROOT / source
        for file in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            parts = file.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = file
    return found


def _type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _imported(name: str, file: Path, modules: dict[str, Path], type_only: bool = False) -> set[str]:
    """The modules of this tree `name` imports, at any depth of the file (a function's import is
    an edge too; an `if TYPE_CHECKING:` block's only with `type_only`). `from a import b` goes to
    `a.b` when that is a module, else to `a` (its `__init__`)."""
    package = name if file.name == "__init__.py" else name.rpartition(".")[0]

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    edges: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child) and not type_only:
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                edges.update(filter(None, (known(alias.name) for alias in child.names)))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join(up + ([child.module] if child.module else []))
                for alias in child.names:
                    target = f"{base}.{alias.name}" if base else alias.name
                    edges.add(target if target in modules else known(base) or "")
            visit(child)

    visit(ast.parse(file.read_text(encoding="utf-8")))
    return {e for e in edges if e and e != name}


def _graph(type_only: bool = False) -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, file, modules, type_only) for name, file in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module: each is a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_the_walk_finds_a_circle_and_a_function_level_import():
    """The checker itself: a two-file circle through a lazy import is one component."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert _circles(graph) == [["a", "b"]]
    modules = _modules()
    edges = _imported("cogs.host.untrusted", modules["cogs.host.untrusted"], modules)
    assert "cogs.host.systems" in edges          # imported inside a function there


def test_no_file_imports_one_that_imports_it_back():
    assert _circles(_graph()) == []


def test_not_even_a_type_only_import_makes_a_circle():
    """What a module needs of one that imports it is a Protocol it declares (the engines' mixins:
    `rules/<game>/sections.py`), not that module's class under TYPE_CHECKING."""
    assert _circles(_graph(type_only=True)) == []


def _violations(graph: dict[str, set[str]], who: str, banned: tuple[str, ...]) -> list[str]:
    return sorted(f"{m} -> {d}" for m, deps in graph.items() if m == who or m.startswith(who + ".")
                  for d in deps if any(d == b or d.startswith(b + ".") for b in banned))


def test_each_layer_imports_only_the_layers_below_it():
    graph = _graph()
    games = tuple(f"cogs.{g}" for g in GAMES)
    general = ("cogs.dice", "cogs.game", "cogs.gm", "cogs.hand", "cogs.help", "cogs.packs", "cogs.profile", "cogs.turns")
    # the framework knows no game and no general command; no cog imports the web companion above
    # them (/game web asks the bot's companion, `bot.web`)
    assert _violations(graph, "cogs.host", games + general) == []
    assert _violations(graph, "cogs", ("web",)) == []
    # the web companion is another entrance into the host: it knows no game and no command
    assert _violations(graph, "web", games + general + ("bot",)) == []
    # a game's cogs know no other game's
    for game in GAMES:
        others = tuple(g for g in games if g != f"cogs.{game}")
        assert _violations(graph, f"cogs.{game}", others) == []
    # the rules know nothing but themselves; the pictures take their words from the presenter
    assert _violations(graph, "rules", ("bot", "cogs", "db", "i18n", "renderers")) == []
    assert _violations(graph, "renderers", ("bot", "cogs", "db")) == []
    for below in ("db", "i18n"):
        assert _violations(graph, below, ("cogs", "bot", "web")) == []
    # time is the lowest layer: the clock's arithmetic and its source import none of Bauta
    assert _violations(graph, "clock", ("bot", "cogs", "db", "i18n", "renderers", "rules")) == []
