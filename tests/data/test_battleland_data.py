"""engine.battleland against the shared reference battlelands.json, value by value (RULES §8)."""

from __future__ import annotations

import itertools
from collections import deque

import pytest

from engine.battleland import (
    BATTLELANDS,
    COLUMNS,
    EDGES,
    HEX_HAZARDS,
    HEXSIDE_HAZARDS,
    LABELS,
    TOWER_ATTACKER_EDGE,
    attacker_edge,
    battleland,
    centre,
    column_row,
    defender_edge,
    distance,
    neighbours,
)
from tests.shared import reference

TERRAINS = sorted(BATTLELANDS)
#: The reference's hex terrain names that differ from ours.
REF_HAZARD = {"Brambles": "Bramble"}


def ours(name: str | None) -> str | None:
    return None if name is None else REF_HAZARD.get(name, name)


@pytest.fixture(scope="module")
def ref():
    return reference("battlelands")


def test_labels_columns_and_vocabularies(ref):
    assert list(LABELS) == ref["labels"]
    heights = {c: sum(1 for label in LABELS if label[0] == c) for c in COLUMNS}
    assert heights == ref["columns"]
    assert sorted(HEX_HAZARDS) == sorted(ours(h) for h in ref["hex_terrains"])
    assert sorted(HEXSIDE_HAZARDS) == sorted(ref["hexside_hazards"])
    assert sorted(TERRAINS) == sorted(ref["terrains"])


@pytest.mark.parametrize("label", LABELS)
def test_geometry(ref, label):
    raw = ref["geometry"][label]
    assert column_row(label) == (raw["column"], raw["row"])
    x, y = centre(label)
    assert x == pytest.approx(raw["centre"][0], abs=1e-3)
    assert y == pytest.approx(raw["centre"][1], abs=1e-3)
    assert y / (3**0.5 / 2) == pytest.approx(raw["half"])


@pytest.mark.parametrize("label", LABELS)
def test_neighbours(ref, label):
    assert list(neighbours(label)) == ref["neighbours"][label]


@pytest.mark.parametrize("k", range(6))
def test_edges(ref, k):
    raw = ref["edges"][k]
    edge = EDGES[k]
    assert (edge.index, edge.name, edge.role) == (raw["edge"], raw["name"], raw["role"])
    assert list(edge.hexes) == raw["hexes"]
    assert (edge.index + 3) % 6 == raw["opposite_edge"]
    for label in edge.hexes:
        assert all(neighbours(label)[side] is None for side in raw["offboard_hexsides"])


def test_edge_count_and_entry(ref):
    assert len(EDGES) == len(ref["edges"]) == 6
    entry = ref["entry"]
    for side in entry["attacker_entry_sides"]:
        assert attacker_edge(side).index == side
        assert attacker_edge(side).role == "attacker"
        assert defender_edge(side).index == (side + 3) % 6
        assert defender_edge(side).role == "defender"
        assert attacker_edge(side, tower=True).index == entry["tower"]["attacker_edge"]
    assert entry["tower"]["attacker_edge"] == TOWER_ATTACKER_EDGE
    # RULES §8.3: in a Tower the defender's reinforcements come in via D6 E5 F4.
    assert defender_edge(1, tower=True).hexes == ("D6", "E5", "F4")


def test_tower_interior_and_defender_start(ref):
    tower = ref["terrains"]["Tower"]
    assert battleland("Tower").tower_interior == frozenset(tower["tower_interior"])
    assert battleland("Tower").tower_interior == frozenset(tower["defender_start"])
    for terrain in TERRAINS:
        assert battleland(terrain).is_tower == ref["terrains"][terrain]["tower"]


@pytest.mark.parametrize(("terrain", "label"), list(itertools.product(TERRAINS, LABELS)))
def test_every_hex(ref, terrain, label):
    raw = ref["terrains"][terrain]["hexes"][label]
    here = battleland(terrain).hexes[label]
    assert here.label == label
    assert here.hazard == ours(raw["terrain"])
    assert here.elevation == raw["elevation"]
    assert list(here.hexsides) == raw["hexsides"]
    assert list(here.opposite) == raw["hexsides_opposite"]
    assert list(here.neighbours) == raw["neighbours"]


def _border_key(border: dict[str, object]) -> tuple[str, str]:
    return str(border["hex"]), str(border["side"])


@pytest.mark.parametrize("terrain", TERRAINS)
def test_borders_and_hazard_hexes(ref, terrain):
    raw = ref["terrains"][terrain]
    land = battleland(terrain)
    borders = [
        {"hex": label, "side": side, "hazard": hazard, "neighbour": neighbours(label)[side]}
        for label in LABELS
        for side, hazard in enumerate(land.hexes[label].hexsides)
        if hazard is not None
    ]
    assert sorted(borders, key=_border_key) == sorted(raw["borders"], key=_border_key)
    grouped: dict[str, list[str]] = {}
    for label in LABELS:
        if land.hexes[label].hazard != "Plain":
            grouped.setdefault(land.hexes[label].hazard, []).append(label)
    assert grouped == {ours(k): sorted(v) for k, v in raw["hazard_hexes"].items()}


def test_rules_8_1_adjacency_examples():
    assert {n for n in neighbours("D3") if n} == {"C2", "C3", "D2", "D4", "E2", "E3"}
    assert {n for n in neighbours("D1") if n} == {"C1", "D2", "E1"}


def test_errata_2_0_volcano_and_jungle_trees():
    assert battleland("Mountains").hex("D4").hazard == "Volcano"
    trees = {h for h, x in battleland("Jungle").hexes.items() if x.hazard == "Tree"}
    assert trees == {"B4", "D3", "F3"}


def _bfs(start: str) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in neighbours(here):
            if there is not None and there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def test_axial_distance_equals_steps_on_the_neighbour_graph():
    for a in LABELS:
        steps = _bfs(a)
        assert len(steps) == 27
        for b in LABELS:
            assert distance(a, b) == steps[b], (a, b)


def test_neighbours_are_symmetric_and_across_opposite_hexsides():
    for label, side in itertools.product(LABELS, range(6)):
        other = neighbours(label)[side]
        if other is not None:
            assert neighbours(other)[(side + 3) % 6] == label


def test_border_is_seen_from_both_sides():
    for land in BATTLELANDS.values():
        for a in LABELS:
            for b in filter(None, neighbours(a)):
                assert land.border(a, b) == tuple(reversed(land.border(b, a)))
