"""Line of sight for rangestrikes (RULES §10.5; errata 11.7, 13.3).

The intervening hexes are those whose interior the straight line between the two hex
centres crosses (RULES §8.1 geometry). Where the line runs along hexsides (a hexspine)
there are two candidate paths, one on each side of the line; either one being clear
suffices. Both paths are found the same way for any distance: the line is shifted by an
infinitesimal amount to its left or to its right, and the hexes it then crosses over a
stretch of positive length are the path. Within range 4 this gives the table of §10.5.

Geometry is exact: centres in the scaled frame (X, Y) = (3q, 2r + q), in which the
Euclidean inner product is X·X′ + 3·Y·Y′ and each hex is the set of points nearer its
centre than any neighbour's (a point p is inside the hex of centre c when
⟨p − c, w⟩ < ⟨w, w⟩ / 2 for the six neighbour steps w).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import pairwise

from engine.battleland import BIT, LABELS, Battleland, axial, battleland, hexside_toward
from engine.frozen import quick_init

TREE = "Tree"
BRAMBLE = "Bramble"
CLIFF = "Cliff"
DUNE = "Dune"
WALL = "Wall"

_Vector = tuple[int, int]
# A parameter t + ε·e along a shifted line, compared lexicographically.
_Param = tuple[Fraction, Fraction]

# The six neighbour steps in the scaled frame; each has ⟨w, w⟩ = 12.
_STEPS: tuple[_Vector, ...] = ((0, 2), (0, -2), (3, 1), (-3, -1), (3, -1), (-3, 1))
_HALF_STEP = 6


def _scaled(label: str) -> _Vector:
    q, r = axial(label)
    return 3 * q, 2 * r + q


def _dot(a: _Vector, b: _Vector) -> int:
    return a[0] * b[0] + 3 * a[1] * b[1]


def _crossing(label: str, start: _Vector, delta: _Vector, nudge: _Vector) -> _Param | None:
    """Where the nudged segment enters hex ``label``, or None if it crosses no stretch of it."""
    centre = _scaled(label)
    offset = (start[0] - centre[0], start[1] - centre[1])
    low: _Param = (Fraction(0), Fraction(0))
    high: _Param = (Fraction(1), Fraction(0))
    for step in _STEPS:
        a, b, c = _dot(offset, step), _dot(delta, step), _dot(nudge, step)
        if b == 0:
            if (a, c) >= (_HALF_STEP, 0):  # the whole line lies outside this hexside
                return None
            continue
        bound = (Fraction(_HALF_STEP - a, b), Fraction(-c, b))
        if b > 0:
            high = min(high, bound)
        else:
            low = max(low, bound)
    # Only a stretch of positive length counts: touching a corner crosses no interior.
    return low if low[0] < high[0] else None


def _shifted_path(a: str, b: str, side: int) -> tuple[str, ...] | None:
    """Intervening hexes of the line a→b shifted to one side (+1 left, −1 right)."""
    start, end = _scaled(a), _scaled(b)
    delta = (end[0] - start[0], end[1] - start[1])
    nudge = (-3 * delta[1] * side, delta[0] * side)  # perpendicular to delta
    entered = []
    for label in LABELS:
        if label in (a, b):
            continue
        where = _crossing(label, start, delta, nudge)
        if where is not None:
            entered.append((where, label))
    path = tuple(label for _, label in sorted(entered))
    chain = (a, *path, b)
    if any(hexside_toward(x, y) is None for x, y in pairwise(chain)):
        return None  # the line leaves the battleland: nothing to see along it
    return path


@cache
def intervening_paths(a: str, b: str) -> tuple[tuple[str, ...], ...]:
    """The candidate paths of intervening hexes from ``a`` to ``b`` (RULES §10.5).

    One path, or two along a hexspine; each lists the hexes in order from ``a``. Adjacent
    hexes have one empty path. A path that would leave the battleland is dropped.
    """
    paths: list[tuple[str, ...]] = []
    for side in (1, -1):
        path = _shifted_path(a, b, side)
        if path is not None and path not in paths:
            paths.append(path)
    return tuple(paths)


@quick_init
@dataclass(frozen=True)
class SightLine:
    """One candidate path: its intervening hexes and why it is blocked (None if clear)."""

    hexes: tuple[str, ...]
    blocked_by: str | None
    brambles: int

    @property
    def clear(self) -> bool:
        return self.blocked_by is None


@quick_init
@dataclass(frozen=True)
class LineOfSight:
    """The line of sight from ``striker`` to ``target`` over every candidate path."""

    striker: str
    target: str
    lines: tuple[SightLine, ...]

    @property
    def clear(self) -> bool:
        """Whether some candidate path is clear (RULES §10.5, original 13.3-E)."""
        return any(line.clear for line in self.lines)

    @property
    def clear_lines(self) -> tuple[SightLine, ...]:
        return tuple(line for line in self.lines if line.clear)

    @property
    def reason(self) -> str | None:
        """Why no path is clear (from the first blocked path), or None when one is."""
        if self.clear:
            return None
        return next((line.blocked_by for line in self.lines), "the line leaves the battleland")


@dataclass(frozen=True)
class _Crossed:
    """The hazard hexsides crossed along one path, classified as in RULES §10.5."""

    striker_top: str | None
    target_top: str | None
    middle: tuple[str, ...]
    wall_down: bool

    @property
    def count(self) -> int:
        tops = (self.striker_top, self.target_top)
        return len(self.middle) + sum(top is not None for top in tops)


def _classify(land: Battleland, chain: tuple[str, ...]) -> _Crossed:
    """Classify the hazards on the hexsides between consecutive hexes of ``chain``."""
    last = len(chain) - 2
    striker_top = target_top = None
    middle: list[str] = []
    wall_down = False
    for i, (x, y) in enumerate(pairwise(chain)):
        near, far = land.border(x, y)
        if i == 0 and near is not None:
            striker_top, near = near, None
        if i == last and far is not None:
            target_top, far = far, None
        # A Wall on the intervening side of the first or last hexside: L2.
        wall_down |= (i == 0 and far == WALL) or (i == last and near == WALL)
        middle += [hazard for hazard in (near, far) if hazard is not None]
    return _Crossed(striker_top, target_top, tuple(middle), wall_down)


def _terrain_block(land: Battleland, hexes: tuple[str, ...], crossed: _Crossed) -> str | None:
    """L1–L5: whether the terrain alone blocks this path, and which rule."""
    trees = [h for h in hexes if land.hex(h).hazard == TREE]
    if trees:
        return f"the Tree in {trees[0]} is in the way (RULES §10.5 L1)"
    if crossed.wall_down:
        return "a Wall stands between them (RULES §10.5 L2)"
    both_cliffs = crossed.striker_top == CLIFF and crossed.target_top == CLIFF
    if any(h in (CLIFF, DUNE) for h in crossed.middle) and not both_cliffs:
        return "a Cliff or Dune lies between them (RULES §10.5 L3)"
    no_tops = crossed.striker_top is None and crossed.target_top is None
    if crossed.middle and no_tops:
        return "a hazard hexside lies between them (RULES §10.5 L4)"
    either_missing = crossed.striker_top is None or crossed.target_top is None
    no_cliff_top = CLIFF not in (crossed.striker_top, crossed.target_top)
    if crossed.count >= 3 and either_missing and no_cliff_top:
        return "three hazard hexsides lie between them (RULES §10.5 L5)"
    return None


def _screening(
    land: Battleland, chain: tuple[str, ...], crossed: _Crossed, occupied: Collection[str]
) -> Iterator[str]:
    """L6: intervening hexes whose character blocks the line."""
    hexes = chain[1:-1]
    floor = min(land.hex(chain[0]).elevation, land.hex(chain[-1]).elevation)
    for i, label in enumerate(hexes):
        if label not in occupied or land.hex(label).elevation < floor:
            continue
        # A character at the foot of a Cliff does not block one standing atop it (errata 11.7).
        if i == 0 and crossed.striker_top == CLIFF:
            continue
        if i == len(hexes) - 1 and crossed.target_top == CLIFF:
            continue
        yield label


def _screened(label: str) -> str:
    return f"the character in {label} is in the way (RULES §10.5 L6)"


def sight_line(
    land: Battleland, a: str, b: str, hexes: tuple[str, ...], occupied: Collection[str]
) -> SightLine:
    """Judge one candidate path a, ``hexes``, b against L1–L6 (RULES §10.5)."""
    brambles = sum(land.hex(h).hazard == BRAMBLE for h in hexes)
    if not hexes:
        return SightLine(hexes, None, 0)
    chain = (a, *hexes, b)
    crossed = _classify(land, chain)
    reason = _terrain_block(land, hexes, crossed)
    if reason is None:
        screen = next(_screening(land, chain, crossed, occupied), None)
        if screen is not None:
            reason = _screened(screen)
    return SightLine(hexes, reason, brambles)


@dataclass(frozen=True)
class _Path:
    """A candidate path judged on the terrain alone (L1–L5), and what characters on it
    would change (L6): ``screens`` are the hexes, in order, whose occupant would block it,
    each with the line then; ``line`` is the line when none of them is occupied."""

    line: SightLine
    screens: tuple[tuple[str, SightLine], ...]


@lru_cache(maxsize=1 << 10)
def _paths(terrain: str, a: str, b: str) -> tuple[LineOfSight | None, tuple[_Path, ...], int]:
    """The candidate paths from ``a`` to ``b`` on ``terrain``, judged (§10.5), the line of
    sight itself when no character could change it, and the hexes whose characters could
    (as a set of :data:`BIT`). A battle asks about a few hundred pairs of hexes; the
    answers are objects the garbage collector walks, so only the recent ones are kept."""
    paths = _judged(terrain, a, b)
    fixed = LineOfSight(a, b, tuple(p.line for p in paths))
    screens = 0
    for path in paths:
        for label, _ in path.screens:
            screens |= BIT[label]
    return (None if screens else fixed), paths, screens


def _judged(terrain: str, a: str, b: str) -> tuple[_Path, ...]:
    land = battleland(terrain)
    judged = []
    for hexes in intervening_paths(a, b):
        line = sight_line(land, a, b, hexes, ())
        screens: tuple[tuple[str, SightLine], ...] = ()
        if line.clear and hexes:
            chain = (a, *hexes, b)
            screens = tuple(
                (h, SightLine(hexes, _screened(h), line.brambles))
                for h in _screening(land, chain, _classify(land, chain), LABELS)
            )
        judged.append(_Path(line, screens))
    return tuple(judged)


def _sight(path: _Path, occupied: Collection[str]) -> SightLine:
    for label, line in path.screens:
        if label in occupied:
            return line
    return path.line


def line_of_sight(
    land: Battleland, a: str, b: str, occupied: Collection[str] = frozenset()
) -> LineOfSight:
    """Line of sight from hex ``a`` to hex ``b`` (RULES §10.5).

    ``occupied`` holds every hex with a character in it, of either side, slain but not
    yet removed ones included; the two end hexes are ignored. Adjacent hexes always see
    each other. The terrain's part is judged once per battleland and pair of hexes
    (:func:`sight_line` on an empty battleland); only the characters in the way are
    looked up at each call.
    """
    fixed, paths, _ = _paths(land.terrain, a, b)
    if fixed is not None:
        return fixed
    return LineOfSight(a, b, tuple([_sight(path, occupied) for path in paths]))


def sight_verdict(
    terrain: str, a: str, b: str, occupied: int
) -> tuple[str | None, tuple[int, ...]]:
    """The :func:`line_of_sight` from ``a`` to ``b`` on ``terrain`` with the hexes
    ``occupied`` (a set of :data:`BIT`) as a rangestrike needs it: why no path is clear
    (None when one is), and the intervening Brambles of each clear path (RULES §10.5,
    §10.6)."""
    return _verdict(terrain, a, b, occupied & _screens(terrain, a, b))


@cache
def _screens(terrain: str, a: str, b: str) -> int:
    """The hexes whose characters could block the line from ``a`` to ``b`` (a number,
    kept for every pair)."""
    return _paths(terrain, a, b)[2]


@lru_cache(maxsize=1 << 14)
def _verdict(terrain: str, a: str, b: str, screens: int) -> tuple[str | None, tuple[int, ...]]:
    """:func:`sight_verdict` with only the hexes that could screen the line occupied:
    nothing else matters, so it is kept."""
    sight, paths, _ = _paths(terrain, a, b)
    if sight is None:
        sight = LineOfSight(a, b, tuple([_sight_bits(path, screens) for path in paths]))
    if not sight.clear:
        return sight.reason, ()
    return None, tuple([line.brambles for line in sight.clear_lines])


def _sight_bits(path: _Path, occupied: int) -> SightLine:
    for label, line in path.screens:
        if BIT[label] & occupied:
            return line
    return path.line
