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
