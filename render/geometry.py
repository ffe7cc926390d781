"""Where things are on the pictures: masterboard lands and battleland hexes, in pixels.

Masterboard (reference README, "Drawing the board"): with a unit ``s`` a land (x, y)
fits a box 6 s wide, 3·√3·s tall, top-left at (4·x·s, (4·y + (0 if inverted else 1))·√3·s);
its hexside i runs from vertex i to vertex i + 1. Battlelands: flat-topped hexes of
circumradius ``r`` centred at ``engine.battleland.centre`` (y flipped to point down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.battleland import LABELS, centre
from engine.masterboard import LANDS

SQRT3 = math.sqrt(3)
Point = tuple[float, float]

_VERTICES_INVERTED = ((1, 0), (5, 0), (6, 1), (4, 3), (2, 3), (0, 1))
_VERTICES_NORMAL = ((2, 0), (4, 0), (6, 2), (5, 3), (1, 3), (0, 2))
BOARD_WIDTH_S = 62
BOARD_HEIGHT_S = 32 * SQRT3


@dataclass(frozen=True)
class BoardFrame:
    """The masterboard drawn with unit ``s`` px, its top-left corner at (left, top)."""

    s: float
    left: float = 0.0
    top: float = 0.0

    @property
    def width(self) -> int:
        return math.ceil(BOARD_WIDTH_S * self.s + 2 * self.left)

    @property
    def height(self) -> int:
        return math.ceil(BOARD_HEIGHT_S * self.s + 2 * self.top)

    def _box(self, number: int) -> tuple[float, float, bool]:
        land = LANDS[number]
        row = 4 * land.y + (0 if land.inverted else 1)
        return self.left + 4 * land.x * self.s, self.top + row * SQRT3 * self.s, land.inverted

    def vertices(self, number: int) -> list[Point]:
        """The six corners of a land; hexside i runs from corner i to corner i + 1."""
        x0, y0, inverted = self._box(number)
        units = _VERTICES_INVERTED if inverted else _VERTICES_NORMAL
        return [(x0 + ux * self.s, y0 + uy * SQRT3 * self.s) for ux, uy in units]

    def centre(self, number: int) -> Point:
        """The land's centroid (the centre of its triangle)."""
        x0, y0, inverted = self._box(number)
        down = 4 / 3 if inverted else 5 / 3
        return x0 + 3 * self.s, y0 + down * SQRT3 * self.s

    def toward_tip(self, number: int) -> float:
        """+1 when the land's narrow tip points down (inverted), -1 when it points up."""
        return 1.0 if LANDS[number].inverted else -1.0

    def marker_centre(self, number: int) -> Point:
        """Where a land's legion markers stand: its centroid."""
        return self.centre(number)

    def number_centre(self, number: int) -> Point:
        """Where the land number goes: between the centroid and the narrow tip."""
        cx, cy = self.centre(number)
        return cx, cy + self.toward_tip(number) * 1.55 * self.s

    def name_centre(self, number: int) -> Point:
        """Where the terrain name goes: between the centroid and the wide side."""
        cx, cy = self.centre(number)
        return cx, cy - self.toward_tip(number) * 0.62 * self.s

    def hexside(self, number: int, side: int) -> tuple[Point, Point]:
        corners = self.vertices(number)
        return corners[side], corners[(side + 1) % 6]

    def sign_anchor(self, number: int, side: int) -> tuple[Point, Point, Point]:
        """(centre, unit along the side, unit pointing out of the land) of a sign."""
        (x1, y1), (x2, y2) = self.hexside(number, side)
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        # Corners run clockwise on screen (y down), so the outward normal is (uy, -ux).
        nx, ny = uy, -ux
        inset = 0.42 * self.s
        mx, my = (x1 + x2) / 2 - nx * inset, (y1 + y2) / 2 - ny * inset
        return (mx, my), (ux, uy), (nx, ny)


def scaled(points: list[Point], factor: float) -> list[Point]:
    return [(x * factor, y * factor) for x, y in points]


@dataclass(frozen=True)
class HexFrame:
    """A battleland of flat-topped hexes of circumradius ``r`` px, origin at (left, top)."""

    r: float
    left: float
    top: float

    @property
    def map_width(self) -> float:
        return 9.5 * self.r

    @property
    def map_height(self) -> float:
        return 12 * SQRT3 / 2 * self.r

    def centre(self, label: str) -> Point:
        """Pixel centre of a hex (A1 lower left, D6 top)."""
        x, y = centre(label)
        top_y = 10 * SQRT3 / 2
        return self.left + (x + 1) * self.r, self.top + (top_y - y + SQRT3 / 2) * self.r

    def corners(self, label: str, shrink: float = 0.0) -> list[Point]:
        """Corners of a hex starting at the upper left; side i runs corner i → i + 1.

        Side 0 (N) is the top edge, then clockwise: NE, SE, S, SW, NW.
        """
        cx, cy = self.centre(label)
        radius = self.r - shrink
        angles = (240, 300, 0, 60, 120, 180)  # screen angles (y down) of the corners
        return [
            (cx + radius * math.cos(math.radians(a)), cy + radius * math.sin(math.radians(a)))
            for a in angles
        ]

    def side(self, label: str, side: int, shrink: float = 0.0) -> tuple[Point, Point]:
        corners = self.corners(label, shrink)
        return corners[side], corners[(side + 1) % 6]

    def all_centres(self) -> dict[str, Point]:
        return {label: self.centre(label) for label in LABELS}


def inset(points: list[Point], by: float) -> list[Point]:
    """A convex polygon (corners clockwise on screen) with every side moved ``by`` px inward."""
    lines = []
    count = len(points)
    for i in range(count):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % count]
        length = math.hypot(x2 - x1, y2 - y1)
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length  # inward normal (clockwise, y down)
        lines.append(((x1 + nx * by, y1 + ny * by), (x2 - x1, y2 - y1)))
    result = []
    for i in range(count):
        (px, py), (dx, dy) = lines[i - 1]
        (qx, qy), (ex, ey) = lines[i]
        denom = dx * ey - dy * ex
        t = ((qx - px) * ey - (qy - py) * ex) / denom
        result.append((px + t * dx, py + t * dy))
    return result


def ray_exit(points: list[Point], origin: Point, direction: Point) -> float:
    """How far a ray from ``origin`` (inside a convex polygon) runs before leaving it."""
    ox, oy = origin
    dx, dy = direction
    best = math.inf
    count = len(points)
    for i in range(count):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % count]
        ex, ey = bx - ax, by - ay
        denom = dx * ey - dy * ex
        if abs(denom) < 1e-12:
            continue
        t = ((ax - ox) * ey - (ay - oy) * ex) / denom
        u = ((ax - ox) * dy - (ay - oy) * dx) / denom
        if t > 0 and -1e-9 <= u <= 1 + 1e-9:
            best = min(best, t)
    return best
