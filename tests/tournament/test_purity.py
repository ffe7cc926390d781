"""bot/tournament is pure: no database, asyncio, Discord or Pillow (STYLE.md)."""

from __future__ import annotations

from tests.test_boundaries import REPO, imports_of

FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "PIL", "asyncio", "random", "time", "datetime"}


def test_the_tournament_rules_import_nothing_impure():
    files = sorted((REPO / "bot" / "tournament").rglob("*.py"))
    assert files
    crossings = [
        f"{path.relative_to(REPO)}:{line} imports {top}"
        for path in files
        for line, top in imports_of(path)
        if top in FORBIDDEN
    ]
    assert crossings == []


def test_the_tournament_rules_use_only_themselves_the_engine_and_openskill():
    files = sorted((REPO / "bot" / "tournament").rglob("*.py"))
    text = {path: path.read_text(encoding="utf-8") for path in files}
    for path, source in text.items():
        for line in source.splitlines():
            if line.startswith(("from bot.", "import bot.")):
                assert line.startswith("from bot.tournament"), f"{path}: {line}"
