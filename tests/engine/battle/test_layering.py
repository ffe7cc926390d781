"""The battle rules stand alone: nothing in ``engine/battle`` imports the game layer."""

from __future__ import annotations

from tests.test_boundaries import REPO, imports_of


def test_engine_battle_does_not_import_engine_game():
    crossings = []
    for path in sorted((REPO / "engine" / "battle").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = [line for line, _ in imports_of(path)]
        crossings += [
            f"{path.name}:{n}" for n in lines if "engine.game" in text.splitlines()[n - 1]
        ]
    assert crossings == []
