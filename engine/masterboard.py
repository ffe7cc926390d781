"""The masterboard: 96 lands, their signs and sides (RULES §2), loaded from data.

Hexsides of a land are numbered 0 (top) to 5 clockwise, as drawn with y growing down.
A land is *inverted* (wide side on top) when x + y is even; only long hexsides touch
another land. Entry sides 1, 3, 5 are counted from the land's label side (RULES §2.7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from engine.data import load
from engine.errors import DataError, InvalidNotation

TOWER = "Tower"
TERRAINS = (
    "Brush", "Desert", "Hills", "Jungle", "Marsh", "Mountains",
    "Plains", "Swamp", "Tower", "Tundra", "Woods",
)  # fmt: skip
#: Entry sides of a land (RULES §2.7); in a Tower the attacker always uses side 3.
ENTRY_SIDES = (1, 3, 5)
TOWER_ENTRY_SIDE = 3


class Sign(Enum):
    """A sign on a border, usable to leave its land (RULES §2.2)."""

    BLOCK = "block"
    ARCH = "arch"
    ARROW = "arrow"
    ARROWS = "arrows"

    @property
    def first_step_only(self) -> bool:
        return self in (Sign.BLOCK, Sign.ARCH)


@dataclass(frozen=True)
class Exit:
    """A sign for leaving a land toward ``to`` across its hexside ``side``."""

    to: int
    sign: Sign
    side: int


@dataclass(frozen=True)
class Land:
    """One land of the masterboard."""

    number: int
    terrain: str
    x: int
    y: int
    label_side: int
    exits: tuple[Exit, ...]
    neighbours: tuple[int | None, ...]

    @property
    def inverted(self) -> bool:
        """Wide side on top (x + y even); long hexsides are then 0, 2, 4."""
        return (self.x + self.y) % 2 == 0

    @property
    def long_sides(self) -> tuple[int, int, int]:
        return (0, 2, 4) if self.inverted else (1, 3, 5)

    @property
    def is_tower(self) -> bool:
        return self.terrain == TOWER

    @property
    def block(self) -> Exit | None:
        """The land's BLOCK exit, if it has one (RULES §2.2)."""
        return next((e for e in self.exits if e.sign is Sign.BLOCK), None)

    def entry_side_of(self, hexside: int) -> int:
        """The entry side (1, 3 or 5) of a legion entering across ``hexside`` (RULES §2.7)."""
        return (hexside - self.label_side) % 6

    def hexside_of(self, entry_side: int) -> int:
        """The hexside of this land that is entry side ``entry_side``."""
        return (entry_side + self.label_side) % 6

    def side_toward(self, neighbour: int) -> int:
        """The hexside of this land facing the neighbouring land ``neighbour``."""
        try:
            return self.neighbours.index(neighbour)
        except ValueError:
            raise InvalidNotation(f"land {neighbour} does not border land {self.number}") from None

    def entry_side_from(self, previous: int) -> int:
        """The entry side used when entering this land from the neighbour ``previous``."""
        return self.entry_side_of(self.side_toward(previous))

    def across_entry_side(self, entry_side: int) -> int | None:
        """The land across entry side ``entry_side``, or None when it faces off the board."""
        return self.neighbours[self.hexside_of(entry_side)]


def _grid_neighbour(x: int, y: int, side: int) -> tuple[int, int] | None:
    inverted = (x + y) % 2 == 0
    steps = (
        {0: (x, y - 1), 2: (x + 1, y), 4: (x - 1, y)}
        if inverted
        else {3: (x, y + 1), 1: (x + 1, y), 5: (x - 1, y)}
    )
    return steps.get(side)


def _load() -> tuple[Mapping[int, Land], tuple[int, ...]]:
    data = load("masterboard")
    cells = {tuple(raw["grid"]): int(num) for num, raw in data["lands"].items()}
    lands: dict[int, Land] = {}
    for num, raw in data["lands"].items():
        x, y = raw["grid"]
        neighbours = tuple(
            cells.get(cell) if (cell := _grid_neighbour(x, y, side)) else None for side in range(6)
        )
        exits = tuple(Exit(e["to"], Sign(e["sign"]), e["side"]) for e in raw["exits"])
        land = Land(int(num), raw["terrain"], x, y, raw["label_side"], exits, neighbours)
        _check_land(land)
        lands[land.number] = land
    for land in lands.values():
        for side, other in enumerate(land.neighbours):
            if other is not None and lands[other].neighbours[(side + 3) % 6] != land.number:
                raise DataError(f"land {land.number}: neighbours are not symmetric")
    towers = tuple(data["towers"])
    if len(lands) != 96 or sorted(n for n, lnd in lands.items() if lnd.is_tower) != list(towers):
        raise DataError("expected 96 lands and the six towers")
    return MappingProxyType(lands), towers


def _check_land(land: Land) -> None:
    if land.terrain not in TERRAINS:
        raise DataError(f"land {land.number}: unknown terrain {land.terrain!r}")
    if land.label_side in land.long_sides:
        raise DataError(f"land {land.number}: the label must sit on a short hexside")
    if sum(e.sign is Sign.BLOCK for e in land.exits) > 1 or not land.exits:
        raise DataError(f"land {land.number}: needs an exit and at most one block")
    for e in land.exits:
        if land.neighbours[e.side] != e.to:
            raise DataError(f"land {land.number}: exit to {e.to} is not across hexside {e.side}")


LANDS, TOWERS = _load()


def land(number: int) -> Land:
    """The land numbered ``number``; raises :class:`InvalidNotation` if there is none."""
    try:
        return LANDS[number]
    except KeyError:
        raise InvalidNotation(f"{number!r} is not a land of the masterboard") from None


def parse_land(text: str | int) -> int:
    """A land number from user input (``"104"`` or ``104``)."""
    try:
        number = int(text)
    except (TypeError, ValueError):
        raise InvalidNotation(f"{text!r} is not a land number") from None
    return land(number).number
