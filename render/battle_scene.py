"""What a battleland picture shows, and where: a pure layout read back by tests.

The characters on the board stand in their hexes; those still off it (a legion before
its first maneuver, a summoned lord or a reinforcement about to enter, RULES §8.3–§8.4)
wait in a row just outside their side's entry edge. Only what the caller passes is shown:
the battle's two legions, public once the battle starts (RULES §5.7).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.battle.position import Fighter, Position, Side
from engine.battleland import EDGES, LABELS, Edge, attacker_edge, battleland, defender_edge
from render.battle_base import DEFAULT_WIDTH, BattleLayout, battle_layout
from render.battle_header import HeaderLayout, Heading, header_layout
from render.counters import CounterFace, face
from render.geometry import Point
from render.style import font

COUNTER_SHARE = 1.0
"""A counter's side on the board, in hex radii."""
WAITING_SHARE = 0.68
"""A waiting counter's side, in hex radii."""
_GAP = 0.05
_OFFSETS = (1.35, 1.55, 1.2, 1.75, 1.95)
_SHIFTS = (0.0, 0.35, -0.35, 0.7, -0.7, 1.05, -1.05, 1.4, -1.4, 1.75, -1.75)


@dataclass(frozen=True)
class Placed:
    """A character counter drawn: ``hex`` None while it waits off the board."""

    name: str
    side: Side
    hex: str | None
    centre: Point
    size: float
    face: CounterFace


@dataclass(frozen=True)
class Scene:
    """Everything a battleland picture places: the header and every counter."""

    layout: BattleLayout
    header: HeaderLayout | None
    counters: tuple[Placed, ...]
    tags: tuple[tuple[Side, Point], ...] = ()
    """Where each side's edge tag goes: after its row of waiting characters, or clear of
    the hexes when none wait (a tag on the map would sit under a counter)."""

    def on_board(self, side: Side | None = None) -> list[Placed]:
        return [c for c in self.counters if c.hex is not None and side in (None, c.side)]

    def waiting(self, side: Side | None = None) -> list[Placed]:
        return [c for c in self.counters if c.hex is None and side in (None, c.side)]

    def names(self, side: Side) -> list[str]:
        """The names of ``side``'s characters shown, on the board and waiting."""
        return [c.name for c in self.counters if c.side is side]


def entry_edges(terrain: str, entry_side: int) -> dict[Side, Edge]:
    """The edge each side enters by (RULES §8.3; in a Tower the defender's reinforcements'
    edge, where his legion waits to deploy)."""
    tower = battleland(terrain).is_tower
    return {
        Side.ATTACKER: attacker_edge(entry_side, tower),
        Side.DEFENDER: defender_edge(entry_side, tower),
    }


def fighter_face(fighter: Fighter) -> CounterFace:
    return face(fighter.name, power=fighter.power, hits=fighter.hits, slain=not fighter.alive)


def battle_scene(
    position: Position,
    *,
    heading: Heading | None = None,
    waiting: Iterable[Fighter] = (),
    entry_side: int | None = None,
    size: int = DEFAULT_WIDTH,
) -> Scene:
    """Where the picture of ``position`` puts its header and counters; ``waiting`` are the
    characters off the board (their ``hex`` is not read), drawn by their side's edge
    with the edge's tag after them (both need ``entry_side``)."""
    lay = battle_layout(size)
    frame = lay.frame
    counters = [
        Placed(f.name, f.side, f.hex, frame.centre(f.hex), COUNTER_SHARE * frame.r, fighter_face(f))
        for f in position.fighters
    ]
    tags: list[tuple[Side, Point]] = []
    off = list(waiting)
    if entry_side is not None:
        edges = entry_edges(position.terrain, entry_side)
        for side in Side:
            mine = [f for f in off if f.side is side]
            named = None if heading is not None else position.terrain
            slots, tag = tray_slots(edges[side].index, len(mine), size, named)
            small = WAITING_SHARE * frame.r
            for who, at in zip(mine, slots, strict=True):
                counters.append(Placed(who.name, side, None, at, small, fighter_face(who)))
            tags.append((side, tag))
    header = header_layout(heading, lay.width, frame.r) if heading is not None else None
    return Scene(lay, header, tuple(counters), tuple(tags))


def outward(edge_index: int) -> Point:
    """The unit vector pointing off the map across edge ``edge_index`` (screen, y down)."""
    angle = math.radians(-60 + 60 * edge_index)
    return math.cos(angle), math.sin(angle)


@lru_cache(maxsize=1024)
def tray_slots(
    edge_index: int, count: int, size: int = DEFAULT_WIDTH, terrain: str | None = None
) -> tuple[tuple[Point, ...], Point]:
    """Places for ``count`` waiting counters in one or two rows just outside edge
    ``edge_index``, and the place of the edge's tag after them: clear of the hexes, the
    header, the turn track and the ``terrain``'s name (when the map shows it), and inside
    the picture (as far as they fit)."""
    best = min(
        (_arranged(edge_index, count, size, terrain, rows) for rows in (1, 2, 3)),
        key=lambda found: found[0],
    )
    return best[1], best[2]


def _arranged(
    edge_index: int, count: int, size: int, terrain: str | None, rows: int
) -> tuple[int, tuple[Point, ...], Point]:
    """The clearest arrangement in ``rows`` rows: (places not clear, places, tag)."""
    lay = battle_layout(size)
    r = lay.frame.r
    centres = [lay.frame.centre(h) for h in EDGES[edge_index].hexes]
    mx = sum(x for x, _ in centres) / len(centres)
    my = sum(y for _, y in centres) / len(centres)
    ox, oy = outward(edge_index)
    ax, ay = -oy, ox  # along the edge
    # square counters in a slanted row: spaced so that their boxes do not touch
    step = (WAITING_SHARE + _GAP) * r / max(abs(ax), abs(ay))
    deeper = (WAITING_SHARE + _GAP) * r / max(abs(ox), abs(oy))
    half = WAITING_SHARE * r / 2
    obstacles = _obstacles(lay, terrain)
    per_row = -(-count // rows)
    best: tuple[int, tuple[Point, ...], Point] | None = None
    for depth in _OFFSETS:
        for shift in _SHIFTS:
            start = shift * r - (per_row * step) / 2
            slots = []
            for i in range(count):
                along = start + (i % per_row) * step
                out = depth * r + (i // per_row) * deeper
                slots.append((mx + ox * out + ax * along, my + oy * out + ay * along))
            bad = sum(not _clear(lay, p, half, half, obstacles) for p in slots)
            for along in (start + (per_row - 0.5) * step + 0.62 * r, start - 0.5 * step - 0.62 * r):
                tag = (mx + ox * depth * r + ax * along, my + oy * depth * r + ay * along)
                worse = bad + (not _clear(lay, tag, 0.62 * r, 0.2 * r, obstacles))
                if best is None or worse < best[0]:
                    best = (worse, tuple(slots), tag)
                if worse == 0:
                    return best
    assert best is not None
    return best


Box = tuple[float, float, float, float]


def _obstacles(lay: BattleLayout, terrain: str | None) -> tuple[Box, ...]:
    """Boxes a waiting row must keep clear of: the header, the track, the terrain's name."""
    r = lay.frame.r
    top = lay.header_height
    boxes: tuple[Box, ...] = (
        (0, 0, lay.width, top + 2),
        (0, lay.track_top - 2, lay.width, lay.height),
    )
    if terrain is None:
        return boxes
    name = font(round(0.5 * r)).getlength(terrain.upper())
    return (*boxes, (lay.width - 0.3 * r - name - 4, top, lay.width, top + 0.75 * r))


def _clear(
    lay: BattleLayout, at: Point, half_w: float, half_h: float, obstacles: tuple[Box, ...]
) -> bool:
    """Whether a box of half sides ``half_w``, ``half_h`` centred at ``at`` stays inside the
    picture, off the hexes and off the ``obstacles``."""
    x, y = at
    if x - half_w < 2 or x + half_w > lay.width - 2:
        return False
    for x1, y1, x2, y2 in obstacles:
        if x + half_w > x1 and x - half_w < x2 and y + half_h > y1 and y - half_h < y2:
            return False
    frame = lay.frame
    limit = frame.r * 0.87 + max(half_w, half_h) * 0.9
    return all(math.hypot(x - cx, y - cy) >= limit for cx, cy in map(frame.centre, LABELS))
