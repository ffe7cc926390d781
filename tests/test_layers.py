"""Imports point one way, layer by layer (issue 25): the transports over the service, the
service over its features, the features over the interface they know it by, and all of
them over the bot's building blocks, which stand on the engine and the renderer.

Each module is in the layer of the longest prefix of its name in :data:`LAYERS`; no
module imports one of a higher layer. (Within a layer, :mod:`tests.test_no_import_circle`
forbids circles.) Each package's docstring says what it is for and what it may import.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.import_graph import graph

REPO = Path(__file__).resolve().parent.parent
TRANSPORT, CORE, FEATURE, PORT, BLOCK, BASE = 5, 4, 3, 2, 1, 0
LAYERS = {
    "bot.cli": TRANSPORT + 1,
    "bot.discord": TRANSPORT,
    "bot.console": TRANSPORT,
    "bot.demo": TRANSPORT,
    "bot.competition.terminal": TRANSPORT,
    "bot.service": CORE,
    "bot.telling": CORE,
    "bot.damaged_games": CORE,
    "bot.routing": CORE,
    "bot.handlers": FEATURE,
    "bot.competition": FEATURE,
    "bot.schedule": FEATURE,
    "bot.ai_runner": FEATURE,
    "bot.records": FEATURE,
    "bot.ports": PORT,
    "bot.open_games": PORT,
    "bot": BLOCK,
    "bot.records.proof": BLOCK,
    "bot.records.canonical": BLOCK,
    "bot.records.course": BLOCK,
    "bot.schedule.timing": BLOCK,
    "bot.schedule.clock": BLOCK,
    "engine": BASE,
    "render": BASE,
}
"""The layer of each package or module named (deeper names override their package)."""


def layer_of(module: str) -> int:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        found = LAYERS.get(".".join(parts[:end]))
        if found is not None:
            return found
    raise AssertionError(f"{module} is in no layer")


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a module of a higher layer than the importer's."""
    return sorted(
        f"{low} (layer {layer_of(low)}) imports {high} (layer {layer_of(high)})"
        for low, imported in edges.items()
        for high in imported
        if layer_of(high) > layer_of(low)
    )


def test_imports_point_down_the_layers() -> None:
    edges = graph(REPO, ("bot", "engine", "render"))
    assert "bot.ports" in edges["bot.ai_runner"]
    assert upward(edges) == []


def test_the_layer_check_sees_an_import_going_up() -> None:
    edges = {"bot.storage.games": {"bot.service"}, "bot.service": {"bot.storage.games"}}
    assert upward(edges) == ["bot.storage.games (layer 1) imports bot.service (layer 4)"]
    assert layer_of("bot.schedule.clock") == BLOCK and layer_of("bot.schedule.runner") == FEATURE


def test_every_package_says_what_it_is_for_and_what_it_may_import() -> None:
    silent = []
    for init in sorted((REPO / "bot").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        if "May import" not in doc:
            silent.append(str(init.relative_to(REPO)))
    assert silent == []
