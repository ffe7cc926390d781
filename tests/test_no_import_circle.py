"""No import circle anywhere in the project, and no module too long to read (issue 25).

Every module of engine/, render/, bot/, tests/ and bench/ is read from its source; a circle
is a set of modules each reaching the others by imports (``TYPE_CHECKING`` ones
included). Where a feature needs the service, it gets it as :class:`bot.ports.GameHost`.
"""

from __future__ import annotations

from pathlib import Path

from tests.import_graph import cycles, graph

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "bot", "tests", "bench")
MOST_LINES = 600


def test_the_project_has_no_import_circle() -> None:
    edges = graph(REPO, PACKAGES)
    assert {"bot.service", "bot.ports", "engine.game.apply", "render.battleland"} <= set(edges)
    assert "bot.ports" in edges["bot.schedule.scheduler"]
    assert cycles(edges) == []


def test_no_module_of_the_program_is_over_six_hundred_lines() -> None:
    long = {
        str(path.relative_to(REPO)): lines
        for package in ("engine", "render", "bot")
        for path in sorted((REPO / package).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def test_the_checker_finds_a_circle_through_a_package_and_a_type_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.low import f\n")
    (package / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import high\n"
    )
    (package / "high.py").write_text("from pkg.low import f\nfrom . import alone\n")
    (package / "alone.py").write_text("import os\n")
    edges = graph(tmp_path, ["pkg"])
    assert edges == {
        "pkg": {"pkg.low"},
        "pkg.low": {"pkg.high"},
        "pkg.high": {"pkg.low", "pkg.alone"},
        "pkg.alone": set(),
    }
    assert cycles(edges) == [["pkg.high", "pkg.low"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
