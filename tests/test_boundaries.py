"""The package boundaries of STYLE.md, enforced by walking every import.

engine/ imports only the standard library (no asyncio, sqlite, clock, logging or global
random) and itself; render/ imports the engine, Pillow and the standard library; nothing
imports bot/ except bot/.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names)
ENGINE_FORBIDDEN_STDLIB = frozenset(
    {"asyncio", "sqlite3", "socket", "time", "datetime", "logging", "random", "threading"}
)
ALLOWED = {
    "engine": lambda top: top == "engine" or (top in STDLIB and top not in ENGINE_FORBIDDEN_STDLIB),
    "render": lambda top: top in {"engine", "render", "PIL"} or top in STDLIB,
    "bot": lambda top: top != "tests",
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def python_files(package: str) -> list[Path]:
    return sorted((REPO / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_stay_inside_its_boundary(package):
    allowed = ALLOWED[package]
    files = python_files(package)
    assert files, f"{package}/ has no Python files"
    crossings = [
        f"{path.relative_to(REPO)}:{line} imports {top}"
        for path in files
        for line, top in imports_of(path)
        if not allowed(top)
    ]
    assert crossings == []


def test_the_checker_sees_a_crossing(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom PIL import Image\nfrom engine.errors import TitanError\n")
    tops = [top for _, top in imports_of(bad)]
    assert tops == ["asyncio", "PIL", "engine"]
    assert not ALLOWED["engine"]("asyncio")
    assert not ALLOWED["engine"]("PIL")
    assert ALLOWED["render"]("PIL")


# --- engine/game: imports point one way (STYLE.md: no modules importing each other in cycles)
GAME = REPO / "engine" / "game"


def _game_modules(node: ast.AST) -> list[str]:
    """The ``engine.game`` modules an import statement names."""
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        if node.module == "engine.game":
            return [alias.name for alias in node.names]
        if node.module.startswith("engine.game."):
            return [node.module.split(".")[2]]
    if isinstance(node, ast.Import):
        return [n.name.split(".")[2] for n in node.names if n.name.startswith("engine.game.")]
    return []


def game_imports(path: Path) -> tuple[set[str], list[tuple[int, str]]]:
    """The ``engine.game`` modules ``path`` imports, and (line, module) of those imported
    below the module's top level: in a function, a class or a conditional block."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    top = {id(node) for node in tree.body}
    found: set[str] = set()
    nested: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        for name in _game_modules(node):
            found.add(name)
            if id(node) not in top:
                nested.append((node.lineno, name))
    return found, sorted(nested)


def import_graph(folder: Path) -> dict[str, set[str]]:
    """Module → the modules of the package it imports, for every module of ``folder``."""
    return {path.stem: game_imports(path)[0] for path in sorted(folder.glob("*.py"))}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of ``graph`` as a path back to its start (``[a, b, a]``), or ``[]``."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        for after in sorted(graph.get(node, ())):
            cycle = visit(after, [*path, node])
            if cycle:
                return cycle
        done.add(node)
        return []

    return next((c for c in (visit(node, []) for node in sorted(graph)) if c), [])


def test_engine_game_imports_point_one_way():
    """Every import among engine/game modules is at a module's top, and they form no cycle
    (engine/game/apply.py is the top; what calls back up is its follow-up)."""
    nested = [
        f"{path.relative_to(REPO)}:{line} imports engine.game.{module} below the top level"
        for path in sorted(GAME.glob("*.py"))
        for line, module in game_imports(path)[1]
    ]
    assert nested == []
    graph = import_graph(GAME)
    assert {"apply", "legal", "state", "outcome", "turns"} <= set(graph)
    assert find_cycle(graph) == []


def test_the_import_graph_checker_sees_a_cycle_and_an_import_in_a_function(tmp_path):
    (tmp_path / "low.py").write_text("from engine.game import high\n")
    (tmp_path / "high.py").write_text("def f():\n    from engine.game.low import g\n")
    (tmp_path / "alone.py").write_text("import engine.game.state\nfrom engine.errors import E\n")
    graph = import_graph(tmp_path)
    assert graph == {"alone": {"state"}, "high": {"low"}, "low": {"high"}}
    assert find_cycle(graph) == ["high", "low", "high"]
    assert game_imports(tmp_path / "high.py")[1] == [(2, "low")]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
