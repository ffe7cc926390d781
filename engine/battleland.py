"""The eleven battlelands: hex labels, geometry and hazards (RULES §8.1–§8.3), from data.

Hexes are labelled per errata 2.0 (columns A–F of 3, 4, 5, 6, 5, 4 hexes, row 1 at the
bottom). Hexsides are numbered 0 (N) to 5 (NW) clockwise; the side across from ``s`` on
the neighbour is ``(s + 3) % 6``. A hexside hazard belongs to one hex, its upper side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from engine.data import load
from engine.errors import DataError, InvalidNotation

PLAIN = "Plain"
HEX_HAZARDS = ("Plain", "Tree", "Bramble", "Bog", "Sand", "Drift", "Volcano", "Tower")
HEXSIDE_HAZARDS = ("Slope", "Cliff", "Dune", "Wall")
COLUMNS = "ABCDEF"
# Height of row 1's centre above D1, in half-hex units, per column (RULES §8.1).
_HALF_BASE = (3, 2, 1, 0, 1, 2)
# (column, half) step across hexsides N, NE, SE, S, SW, NW.
_STEPS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))
# Axial r offset per column: r = row − b (RULES §8.1).
_AXIAL_B = (5, 6, 7, 8, 8, 8)


def _labels(heights: list[int]) -> tuple[str, ...]:
    return tuple(
        f"{c}{row}" for c, h in zip(COLUMNS, heights, strict=True) for row in range(1, h + 1)
    )


_DATA = load("battlelands")
LABELS: tuple[str, ...] = _labels(_DATA["columns"])
_HEIGHTS: dict[str, int] = dict(zip(COLUMNS, _DATA["columns"], strict=True))


def check_label(label: str) -> str:
    """``label`` if it is a battle hex (``A1`` … ``F4``), else :class:`InvalidNotation`."""
    if label not in _LABEL_SET:
        raise InvalidNotation(f"{label!r} is not a battleland hex (A1–A3, B1–B4 … F1–F4)")
    return label


_LABEL_SET = frozenset(LABELS)
#: Each battle hex as one bit of an int, so that a set of hexes is an int (LABELS order).
BIT: Mapping[str, int] = MappingProxyType({label: 1 << i for i, label in enumerate(LABELS)})


def column_row(label: str) -> tuple[int, int]:
    """(column index 0–5, row 1–6) of a hex."""
    check_label(label)
    return COLUMNS.index(label[0]), int(label[1:])


def axial(label: str) -> tuple[int, int]:
    """Axial coordinates (q, r) of RULES §8.1."""
    q, row = column_row(label)
    return q, row - _AXIAL_B[q]


def _distance(a: str, b: str) -> int:
    qa, ra = axial(a)
    qb, rb = axial(b)
    dq, dr = qb - qa, rb - ra
    return max(abs(dq), abs(dr), abs(dq + dr))


_DISTANCES: dict[tuple[str, str], int] = {(a, b): _distance(a, b) for a in LABELS for b in LABELS}


def distance(a: str, b: str) -> int:
    """Hex distance; range for rangestrikes is this + 1 (RULES §10.2)."""
    found = _DISTANCES.get((a, b))
    return _distance(a, b) if found is None else found  # an unknown hex raises


def centre(label: str) -> tuple[float, float]:
    """Centre (x, y) for hexes of circumradius 1, y pointing up (RULES §8.1)."""
    col, row = column_row(label)
    half = _HALF_BASE[col] + 2 * (row - 1)
    return 1.5 * col, half * math.sqrt(3) / 2


@cache
def neighbours(label: str) -> tuple[str | None, ...]:
    """The neighbouring hex across each hexside 0–5, or None off the map."""
    col, row = column_row(label)
    half = _HALF_BASE[col] + 2 * (row - 1)
    result: list[str | None] = []
    for dc, dh in _STEPS:
        c, h = col + dc, half + dh
        found = None
        if 0 <= c < 6 and (h - _HALF_BASE[c]) % 2 == 0:
            r = (h - _HALF_BASE[c]) // 2 + 1
            if 1 <= r <= _HEIGHTS[COLUMNS[c]]:
                found = f"{COLUMNS[c]}{r}"
        result.append(found)
    return tuple(result)


_SIDES: dict[tuple[str, str], int] = {
    (a, b): side for a in LABELS for side, b in enumerate(neighbours(a)) if b is not None
}


def hexside_toward(a: str, b: str) -> int | None:
    """The hexside of ``a`` facing ``b``, or None when they are not adjacent."""
    side = _SIDES.get((a, b))
    if side is None:
        check_label(a)  # an unknown hex is an error, not a non-neighbour
    return side


@dataclass(frozen=True)
class BattleHex:
    """One hex of one battleland."""

    label: str
    hazard: str
    elevation: int
    hexsides: tuple[str | None, ...]
    """Hazard on this hex's own side of each hexside (this hex is the upper one)."""
    opposite: tuple[str | None, ...]
    """Hazard on the neighbour's side facing this hex (this hex is the lower one)."""
    neighbours: tuple[str | None, ...]


Border = tuple[str | None, str | None]


@dataclass(frozen=True)
class Battleland:
    """A terrain's battleland: 27 hexes and, for the Tower, the interior.

    ``borders`` and ``contacts`` are tables derived from the hexes once, when the data is
    loaded: the two hazards of every border, and each hex's neighbours not across a Cliff.
    """

    terrain: str
    hexes: Mapping[str, BattleHex]
    tower_interior: frozenset[str]
    borders: Mapping[tuple[str, str], Border] = field(repr=False, compare=False)
    """(a, b) → (hazard on a's side, hazard on b's side) for adjacent a and b."""
    contacts: Mapping[str, frozenset[str]] = field(repr=False, compare=False)
    """Each hex's neighbours in contact with it: not across a Cliff (RULES §8.6)."""
    contact_bits: Mapping[str, int] = field(repr=False, compare=False)
    """The same as sets of :data:`BIT`."""

    @property
    def is_tower(self) -> bool:
        return bool(self.tower_interior)

    def hex(self, label: str) -> BattleHex:
        found = self.hexes.get(label)
        return self.hexes[check_label(label)] if found is None else found

    def border(self, a: str, b: str) -> Border:
        """(hazard on a's side, hazard on b's side) of the border between adjacent a and b."""
        found = self.borders.get((a, b))
        if found is None:
            check_label(a)
            raise InvalidNotation(f"{a} and {b} are not adjacent")
        return found


@dataclass(frozen=True)
class Edge:
    """A map edge k (0–5, clockwise from the upper right) and its hexes."""

    index: int
    name: str
    role: str
    hexes: tuple[str, ...]


EDGES: tuple[Edge, ...] = tuple(
    Edge(i, raw["name"], raw["role"], tuple(raw["hexes"])) for i, raw in enumerate(_DATA["edges"])
)
TOWER_ATTACKER_EDGE: int = _DATA["tower_attacker_edge"]


def attacker_edge(entry_side: int, tower: bool = False) -> Edge:
    """The edge the attacker enters by for a masterboard entry side (RULES §8.3)."""
    return EDGES[TOWER_ATTACKER_EDGE if tower else entry_side]


def defender_edge(entry_side: int, tower: bool = False) -> Edge:
    """The defender's edge: opposite the attacker's (in a Tower, D6 E5 F4, RULES §8.3)."""
    return EDGES[(attacker_edge(entry_side, tower).index + 3) % 6]


def edge_name(edge: Edge) -> str:
    """``A1-D1`` style name of an edge (its end hexes), as conformance cases write it."""
    return f"{min(edge.hexes)}-{max(edge.hexes)}"


def _build(terrain: str, raw: dict[str, object]) -> Battleland:
    hazard_of = {label: PLAIN for label in LABELS}
    for hazard, labels in raw.get("hazards", {}).items():  # type: ignore[attr-defined]
        if hazard not in HEX_HAZARDS:
            raise DataError(f"{terrain}: unknown hex hazard {hazard!r}")
        for label in labels:
            hazard_of[check_label(label)] = hazard
    elevation_of = dict.fromkeys(LABELS, 0)
    for level, labels in raw.get("elevation", {}).items():  # type: ignore[attr-defined]
        for label in labels:
            elevation_of[check_label(label)] = int(level)
    own: dict[str, list[str | None]] = {label: [None] * 6 for label in LABELS}
    facing: dict[str, list[str | None]] = {label: [None] * 6 for label in LABELS}
    for hazard, borders in raw.get("hexsides", {}).items():  # type: ignore[attr-defined]
        if hazard not in HEXSIDE_HAZARDS:
            raise DataError(f"{terrain}: unknown hexside hazard {hazard!r}")
        for border in borders:
            upper, lower = border.split(">")
            side = hexside_toward(upper, lower)
            if side is None or facing[upper][side] or own[lower][(side + 3) % 6]:
                raise DataError(f"{terrain}: bad hexside {border}")
            own[upper][side] = hazard
            facing[lower][(side + 3) % 6] = hazard
    hexes = {
        label: BattleHex(
            label,
            hazard_of[label],
            elevation_of[label],
            tuple(own[label]),
            tuple(facing[label]),
            neighbours(label),
        )
        for label in LABELS
    }
    interior = frozenset(raw.get("interior", ()))  # type: ignore[call-overload]
    borders = {
        (a, b): (hexes[a].hexsides[side], hexes[a].opposite[side])
        for (a, b), side in _SIDES.items()
    }
    contacts = {
        a: frozenset(b for b in neighbours(a) if b is not None and "Cliff" not in borders[a, b])
        for a in LABELS
    }
    bits = {a: sum(BIT[b] for b in near) for a, near in contacts.items()}
    return Battleland(
        terrain, MappingProxyType(hexes), interior, MappingProxyType(borders),
        MappingProxyType(contacts), MappingProxyType(bits),
    )  # fmt: skip


BATTLELANDS: Mapping[str, Battleland] = MappingProxyType(
    {name: _build(name, raw) for name, raw in _DATA["terrains"].items()}
)
if len(LABELS) != 27 or len(BATTLELANDS) != 11:
    raise DataError("expected 11 battlelands of 27 hexes")


def battleland(terrain: str) -> Battleland:
    """The battleland of a masterboard terrain (``"Desert"``)."""
    try:
        return BATTLELANDS[terrain]
    except KeyError:
        raise InvalidNotation(f"{terrain!r} is not a terrain") from None
