"""Characters, recruit trees and markers against the shared reference, value by value.

RULES §1.1 (chart), §1.3 (Titan), §1.4 (markers), §1.6 (starting legion), §6.3–§6.4.
"""

from __future__ import annotations

import pytest

from engine.characters import (
    CHARACTERS,
    NATIVE_HAZARDS,
    STARTING_LEGION,
    TITAN_POWER_PER_POINTS,
    TITAN_TELEPORT_SCORE,
    Kind,
)
from engine.markers import COLOURS, marker_colour, marker_name
from engine.muster import RECRUIT_TREES, TOWER_RULES, Qualifier
from tests.shared import reference

#: Spellings of the reference data that the engine writes otherwise.
HAZARD_NAMES = {"Brambles": "Bramble"}
FIELDS = ("plural", "power", "skill", "flies", "rangestrikes", "magic_missile", "count")
FIELDS += ("summonable", "acquirable_every")


@pytest.fixture(scope="module")
def creatures():
    return reference("creatures")


@pytest.fixture(scope="module")
def recruits():
    return reference("recruits")["terrains"]


def test_the_same_24_characters(creatures):
    assert sorted(raw["name"] for raw in creatures["creatures"]) == sorted(CHARACTERS)
    assert len(CHARACTERS) == 24


@pytest.mark.parametrize("name", sorted(CHARACTERS))
def test_every_value_of_every_character(creatures, name):
    [raw] = [r for r in creatures["creatures"] if r["name"] == name]
    ours = CHARACTERS[name]
    assert ours.name == raw["name"]
    for field in FIELDS:
        assert getattr(ours, field) == raw[field], field
    assert ours.kind is Kind(raw["kind"])
    assert ours.native == frozenset(HAZARD_NAMES.get(h, h) for h in raw["native"])


def test_native_vocabulary(creatures):
    assert {HAZARD_NAMES.get(h, h) for h in creatures["native_vocabulary"]} == NATIVE_HAZARDS


def test_starting_legion_and_titan_growth(creatures):
    assert list(STARTING_LEGION) == creatures["starting_legion"]
    titan = creatures["titan"]
    assert CHARACTERS["Titan"].power == titan["starting_power"]
    assert titan["power_per_points"] == TITAN_POWER_PER_POINTS
    assert titan["teleport_at_score"] == TITAN_TELEPORT_SCORE


def test_recruit_trees_in_order_with_their_numbers(recruits):
    ordinary = {t: raw for t, raw in recruits.items() if not raw["special"]}
    assert sorted(ordinary) == sorted(RECRUIT_TREES)
    for terrain, raw in ordinary.items():
        ours = [(r.creature, r.needs_previous, r.next_needs) for r in RECRUIT_TREES[terrain].rungs]
        theirs = [(s["creature"], s["needs_previous"], s["next_needs"]) for s in raw["tree"]]
        assert ours == theirs, terrain


def _as_reference(q: Qualifier) -> dict[str, object]:
    if q.character is not None:
        return {"name": q.character, "count": q.count}
    assert q.kind is not None
    return {"kind": q.kind.value, "same_type": q.same_type, "count": q.count}


def test_tower_rules(recruits):
    tower = recruits["Tower"]
    assert tower["special"] is True
    assert list(TOWER_RULES.free) == tower["free"]
    ours = {name: [_as_reference(q) for q in qs] for name, qs in TOWER_RULES.demilords.items()}
    assert ours == tower["demilords"]


def test_markers_six_colours_of_twelve_in_order():
    ref = reference("markers")
    assert [(c.name, c.abbrev) for c in COLOURS] == [
        (raw["name"], raw["abbrev"]) for raw in ref["colours"]
    ]
    for colour in COLOURS:
        theirs = [(m["id"], m["name"]) for m in ref["markers"][colour.name]]
        assert list(zip(colour.markers, colour.marker_names, strict=True)) == theirs
        assert all(marker_colour(i) is colour and marker_name(i) == n for i, n in theirs)


# RULES §1.1 chart, spot checks (no shared data needed) -----------------------------------

CHART = {
    # name: (kind, power, skill, value, flies, rangestrikes, natives, count)
    "Angel": ("lord", 6, 4, 24, True, False, set(), 18),
    "Cyclops": ("creature", 9, 2, 18, False, False, {"Bramble"}, 28),
    "Dragon": ("creature", 9, 3, 27, True, True, {"Slope", "Volcano"}, 18),
    "Guardian": ("demilord", 12, 2, 24, True, False, set(), 6),
    "Hydra": ("creature", 10, 3, 30, False, True, {"Bog", "Sand", "Dune"}, 10),
    "Lion": ("creature", 5, 3, 15, False, False, {"Sand", "Dune", "Slope"}, 28),
    "Serpent": ("creature", 18, 2, 36, False, False, {"Bramble"}, 10),
    "Warlock": ("demilord", 5, 4, 20, False, True, set(), 6),
}


@pytest.mark.parametrize("name", sorted(CHART))
def test_rules_1_1_chart(name):
    c = CHARACTERS[name]
    ours = (c.kind.value, c.power, c.skill, c.value_at(), c.flies, c.rangestrikes)
    assert (*ours, set(c.native), c.count) == CHART[name]


def test_rules_1_1_titan_and_warlock_magic_missile():
    assert CHARACTERS["Titan"].value_at(327) == 36  # §13 E23
    assert CHARACTERS["Titan"].power_at(1163) == 17
    assert [n for n, c in CHARACTERS.items() if c.magic_missile] == ["Warlock"]
