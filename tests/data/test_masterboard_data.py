"""engine.masterboard against the shared reference masterboard.json, value by value (RULES §2)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from engine.battleland import attacker_edge, defender_edge
from engine.masterboard import ENTRY_SIDES, LANDS, TOWER_ENTRY_SIDE, TOWERS, Sign, land
from tests.shared import SHARED, reference

ALL = sorted(LANDS)


@pytest.fixture(scope="module")
def ref():
    return reference("masterboard")


@pytest.fixture(scope="module")
def ref_lands(ref):
    return {raw["number"]: raw for raw in ref["lands"]}


def test_land_count_towers_and_terrain_counts(ref, ref_lands):
    assert ref["land_count"] == len(LANDS) == 96
    assert sorted(ref_lands) == ALL
    assert list(ref["towers"]) == list(TOWERS)
    assert ref["terrain_counts"] == dict(Counter(lnd.terrain for lnd in LANDS.values()))


def test_grid_fits(ref):
    width, height = ref["grid"]["width"], ref["grid"]["height"]
    assert all(0 <= lnd.x < width and 0 <= lnd.y < height for lnd in LANDS.values())


@pytest.mark.parametrize("number", ALL)
def test_land_geometry(ref_lands, number):
    raw, lnd = ref_lands[number], land(number)
    assert lnd.terrain == raw["terrain"]
    assert (lnd.x, lnd.y) == (raw["x"], raw["y"])
    assert lnd.inverted == raw["inverted"]
    assert list(lnd.long_sides) == raw["long_sides"]
    assert lnd.label_side == raw["label_side"]
    assert list(lnd.neighbours) == raw["neighbours"]


@pytest.mark.parametrize("number", ALL)
def test_land_exits_in_order(ref_lands, number):
    got = [{"to": e.to, "type": e.sign.value, "side": e.side} for e in land(number).exits]
    assert got == ref_lands[number]["exits"]


@pytest.mark.parametrize("number", ALL)
def test_land_entrances_derived_from_exits(ref_lands, number):
    here = land(number)
    got = [
        {"from": other.number, "type": e.sign.value, "side": here.side_toward(other.number)}
        for other in LANDS.values()
        for e in other.exits
        if e.to == number
    ]
    key = lambda d: (d["side"], d["from"])  # noqa: E731
    assert sorted(got, key=key) == sorted(ref_lands[number]["entrances"], key=key)


@pytest.mark.parametrize("number", ALL)
def test_land_battle_entry(ref_lands, number):
    lnd = land(number)
    got = []
    for side in lnd.long_sides:
        entry = TOWER_ENTRY_SIDE if lnd.is_tower else lnd.entry_side_of(side)
        defender = None if lnd.is_tower else defender_edge(entry).name
        got.append(
            {
                "side": side,
                "entry_side": entry,
                "attacker_edge": attacker_edge(entry, lnd.is_tower).name,
                "defender_edge": defender,
            }
        )
    assert got == ref_lands[number]["battle_entry"]


def test_entry_sides_of_long_sides_are_1_3_5():
    for lnd in LANDS.values():
        assert sorted(lnd.entry_side_of(s) for s in lnd.long_sides) == list(ENTRY_SIDES)


def test_sign_totals():
    """RULES §2.2: 18 BLOCK, 48 ARCH, 30 ARROW, 84 ARROWS."""
    counts = Counter(e.sign for lnd in LANDS.values() for e in lnd.exits)
    assert counts == {Sign.BLOCK: 18, Sign.ARCH: 48, Sign.ARROW: 30, Sign.ARROWS: 84}


def test_block_lands():
    """RULES §2.2: the lands with a BLOCK exit."""
    blocks = {4, 5, 11, 12, 18, 19, 25, 26, 32, 33, 39, 40, 1000, 2000, 3000, 4000, 5000, 6000}
    assert {n for n, lnd in LANDS.items() if lnd.block} == blocks


#: A dozen rows of the RULES §2.7 table: land → neighbour across side 1 / 3 / 5.
SPOT = {
    1: (42, 1000, 2),
    3: (100, 2, 4),
    10: (200, 9, 11),
    27: (26, 28, 500),
    42: (1, 41, 37),
    100: (3, 101, 41),
    104: (105, None, 103),
    135: (136, None, 134),
    136: (135, 600, 137),
    142: (101, None, 141),
    400: (24, 122, 20),
    1000: (2000, 1, 6000),
    6000: (1000, 36, 5000),
}


def _across(number):
    return tuple(land(number).across_entry_side(k) for k in ENTRY_SIDES)


@pytest.mark.parametrize("number", sorted(SPOT))
def test_rules_2_7_table_spot_check(number):
    assert _across(number) == SPOT[number]


def _rules_table():
    text = (SHARED / "RULES.md").read_text(encoding="utf-8")
    section = text.split("**§2.7 Entry sides.**", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"(\d+) (\w{3}) (\d+|—)/(\d+|—)/(\d+|—)", section)
    return {
        int(n): (ter, tuple(None if s == "—" else int(s) for s in sides)) for n, ter, *sides in rows
    }


def test_rules_2_7_table_whole():
    table = _rules_table()
    assert sorted(table) == ALL
    for number, (ter, across) in table.items():
        assert land(number).terrain.startswith(ter), number
        assert _across(number) == across, number
