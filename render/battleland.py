"""The battleland picture: any of the 11 terrains with characters on it (RULES §8–§10).

Input is a :class:`~engine.battle.position.Position` and plain keyword options, so the
picture does not depend on how a battle in progress is stored.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.battle.position import Fighter, Position, Side
from engine.battleland import EDGES, Edge, battleland
from render.battle_base import DEFAULT_WIDTH, BattleLayout, battle_base, draw_terrain_name
from render.battle_header import Heading, draw_header
from render.battle_scene import COUNTER_SHARE, Scene, battle_scene, entry_edges, outward
from render.counters import draw_counter
from render.geometry import HexFrame, Point
from render.style import (
    DAMAGE,
    HIGHLIGHT,
    INK,
    LAST_MOVE,
    PAPER,
    REACHABLE,
    RGB,
    casing,
    font,
    ink_on,
    mix,
    player_rgb,
    player_tag,
    png_bytes,
)

TURNS = 7
MUTED: RGB = (150, 158, 168)
Move = tuple[str | None, str]
"""A maneuver: (from, to); from None for a character brought on from off the board."""


@dataclass(frozen=True)
class StrikeMark:
    """A strike to draw: striker's and target's hexes, its result, whether a rangestrike."""

    striker: str
    target: str
    result: str | None = None
    rangestrike: bool = False


def battleland_image(
    position: Position,
    *,
    attacker_colour: str = "Red",
    defender_colour: str = "Blue",
    entry_side: int | None = None,
    turn: int | None = None,
    last_move: tuple[str, str] | None = None,
    last_strike: tuple[str, str] | None = None,
    strike_result: str | None = None,
    rangestrike: bool = False,
    selected: str | None = None,
    destinations: Iterable[str] = (),
    size: int = DEFAULT_WIDTH,
    heading: Heading | None = None,
    waiting: Iterable[Fighter] = (),
    moves: Sequence[Move] = (),
    strikes: Sequence[StrikeMark] = (),
) -> Image.Image:
    """The battleland of ``position.terrain`` with its fighters.

    ``entry_side`` (1, 3 or 5, RULES §8.3) marks the attacker's and defender's edges
    (default: the three attacker edges, numbered); ``turn`` lights the turn track;
    ``last_move`` (from, to) and ``moves`` draw maneuver arrows, ``last_strike`` (striker,
    target, labelled with ``strike_result``, dashed for a ``rangestrike``) and ``strikes``
    strike arrows; ``selected`` rings a hex and ``destinations`` are the hexes its
    character may move to. ``heading`` adds the header (who fights whom, who acts);
    ``waiting`` are the characters off the board, drawn by their edge (see
    :func:`~render.battle_scene.battle_scene`).
    """
    scene = battle_scene(
        position, heading=heading, waiting=waiting, entry_side=entry_side, size=size
    )
    lay = scene.layout
    image = battle_base(position.terrain, size).copy()
    draw = ImageDraw.Draw(image)
    frame = lay.frame
    colours = {
        Side.ATTACKER: player_rgb(heading.attacker.colour if heading else attacker_colour),
        Side.DEFENDER: player_rgb(heading.defender.colour if heading else defender_colour),
    }
    names = {
        Side.ATTACKER: (heading.attacker.colour if heading else attacker_colour) or "",
        Side.DEFENDER: (heading.defender.colour if heading else defender_colour) or "",
    }
    tags = dict(scene.tags)
    edge_tags = _draw_edges(draw, frame, position.terrain, entry_side, colours, tags, names)
    for label in destinations:
        _dot(draw, frame, label, REACHABLE)
    if selected is not None:
        _ring(draw, frame, selected, HIGHLIGHT)
    shown_moves = [*moves, *([last_move] if last_move is not None else [])]
    for start, end in dict.fromkeys(shown_moves):
        _draw_move(draw, scene, position, (start, end))
    for who in scene.counters:
        tag = player_tag(names[who.side])
        draw_counter(draw, who.centre, who.size, who.face, colours[who.side], tag=tag)
    shown = [*strikes]
    if last_strike is not None:
        shown.append(StrikeMark(*last_strike, strike_result, rangestrike))
    for mark in shown:
        _draw_strike(draw, frame, (mark.striker, mark.target), mark.result, mark.rangestrike)
    for at, text, colour in edge_tags:
        _tag(draw, at, text, colour, round(0.22 * frame.r))
    _draw_track(draw, lay, turn)
    if scene.header is not None:
        draw_header(draw, scene.header)
    else:
        draw_terrain_name(draw, lay, position.terrain)
    return image


def battleland_png(
    position: Position,
    *,
    attacker_colour: str = "Red",
    defender_colour: str = "Blue",
    entry_side: int | None = None,
    turn: int | None = None,
    last_move: tuple[str, str] | None = None,
    last_strike: tuple[str, str] | None = None,
    strike_result: str | None = None,
    rangestrike: bool = False,
    selected: str | None = None,
    destinations: Iterable[str] = (),
    size: int = DEFAULT_WIDTH,
    heading: Heading | None = None,
    waiting: Iterable[Fighter] = (),
    moves: Sequence[Move] = (),
    strikes: Sequence[StrikeMark] = (),
) -> bytes:
    """:func:`battleland_image` encoded as PNG bytes (same keyword options)."""
    image = battleland_image(
        position,
        attacker_colour=attacker_colour,
        defender_colour=defender_colour,
        entry_side=entry_side,
        turn=turn,
        last_move=last_move,
        last_strike=last_strike,
        strike_result=strike_result,
        rangestrike=rangestrike,
        selected=selected,
        destinations=destinations,
        size=size,
        heading=heading,
        waiting=waiting,
        moves=moves,
        strikes=strikes,
    )
    return png_bytes(image, palette=True)


def counter_size(frame: HexFrame) -> float:
    """Side of a character counter on the board, in px."""
    return COUNTER_SHARE * frame.r


def _draw_move(draw: ImageDraw.ImageDraw, scene: Scene, position: Position, move: Move) -> None:
    """A maneuver's arrow; a character brought on comes from outside its edge."""
    start, end = move
    frame = scene.layout.frame
    if start is not None:
        if start != end:
            _arrow(draw, frame, (frame.centre(start), frame.centre(end)), LAST_MOVE, dashed=False)
        return
    who = position.at(end)
    if who is None:
        _ring(draw, frame, end, HIGHLIGHT)
        return
    x, y = frame.centre(end)
    edges = [e for e in EDGES if end in e.hexes]
    if not edges:  # deployed inside a Tower: ringed
        _ring(draw, frame, end, HIGHLIGHT)
        return
    ox, oy = outward(edges[0].index)
    origin = (x + ox * 1.15 * frame.r, y + oy * 1.15 * frame.r)
    _arrow(draw, frame, (origin, (x, y)), LAST_MOVE, dashed=False)


def _dot(draw: ImageDraw.ImageDraw, frame: HexFrame, label: str, colour: RGB) -> None:
    """A legal destination: a bold dot in the middle of the hex, clear of its hexsides."""
    cx, cy = frame.centre(label)
    radius = 0.15 * frame.r
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    draw.ellipse(box, fill=colour, outline=INK, width=max(2, round(frame.r * 0.04)))


def _ring(draw: ImageDraw.ImageDraw, frame: HexFrame, label: str, colour: RGB) -> None:
    band = max(3, round(frame.r * 0.09))
    ring = frame.corners(label, shrink=band / 2 + frame.r * 0.04)
    draw.line([*ring, ring[0]], fill=colour, width=band, joint="curve")


def _edge_sides(edge: Edge) -> list[tuple[str, int]]:
    """(hex, hexside) pairs facing off the map along ``edge`` (its sides k and k + 1)."""
    land = battleland("Plains")
    return [
        (label, side)
        for label in edge.hexes
        for side in (edge.index, (edge.index + 1) % 6)
        if land.hexes[label].neighbours[side] is None
    ]


def _draw_edges(
    draw: ImageDraw.ImageDraw,
    frame: HexFrame,
    terrain: str,
    entry_side: int | None,
    colours: dict[Side, RGB],
    tags: dict[Side, Point],
    names: dict[Side, str],
) -> list[tuple[Point, str, RGB]]:
    """The entry edges: the attacker's and defender's bands, each cased in the tone that
    stands out from its colour, or the three attacker edges; returns their tags (where,
    the words, the colour) to draw over the counters: a side's name and its colour's, at
    the place the scene found (``tags``), or the edge's number."""
    marks: list[tuple[Edge, RGB, str, Point | None]]
    if entry_side is None:
        marks = [(EDGES[k], MUTED, str(k), None) for k in (1, 3, 5)]
    else:
        edges = entry_edges(terrain, entry_side)
        marks = [
            (edges[side], colours[side], edge_tag(side, names[side]), tags.get(side))
            for side in Side
        ]
    band = max(4, round(frame.r * 0.12))
    placed: list[tuple[Point, str, RGB]] = []
    for edge, colour, text, at in marks:
        lines = [frame.side(label, side, shrink=-band * 0.7) for label, side in _edge_sides(edge)]
        for (x1, y1), (x2, y2) in lines:
            draw.line((x1, y1, x2, y2), fill=casing(colour)[0], width=band + 4)
        for (x1, y1), (x2, y2) in lines:
            draw.line((x1, y1, x2, y2), fill=colour, width=band)
        if at is None:
            label, side = _edge_sides(edge)[len(edge.hexes) // 2]
            (x1, y1), (x2, y2) = frame.side(label, side, shrink=-frame.r * 0.42)
            at = ((x1 + x2) / 2, (y1 + y2) / 2)
        placed.append((at, text, colour))
    return placed


def edge_tag(side: Side, colour: str) -> str:
    """The words on a side's entry edge: ``Attacker · Red`` (the colour named, not only
    shown)."""
    role = "Attacker" if side is Side.ATTACKER else "Defender"
    return f"{role} · {colour}" if colour else role


def _tag(draw: ImageDraw.ImageDraw, at: Point, text: str, colour: RGB, size: int) -> None:
    """``text`` on a cased label of ``colour``, moved in from the picture's sides."""
    box = draw.textbbox(at, text, font=font(size), anchor="mm")
    pad = 4
    width = draw.im.size[0]
    shift = max(0.0, 2 * pad - box[0]) - max(0.0, box[2] + 2 * pad - width)
    at = (at[0] + shift, at[1])
    box = (box[0] + shift, box[1], box[2] + shift, box[3])
    outline = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
    draw.rounded_rectangle(outline, 5, fill=colour, outline=casing(colour)[0], width=2)
    draw.text(at, text, font=font(size), fill=ink_on(colour), anchor="mm")


def _arrow(
    draw: ImageDraw.ImageDraw,
    frame: HexFrame,
    ends: tuple[Point, Point],
    colour: RGB,
    *,
    dashed: bool,
    start_clear: bool = False,
) -> tuple[Point, Point]:
    """An arrow from the first point to the edge of the counter at the second; returns
    its ends."""
    (x1, y1), (x2, y2) = ends
    length = max(1e-6, math.hypot(x2 - x1, y2 - y1))
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    stop = 0.55 * frame.r
    tip = (x2 - ux * stop, y2 - uy * stop)
    if start_clear:  # leave the first hex's counter visible
        x1, y1 = x1 + ux * stop, y1 + uy * stop
    head = 0.3 * frame.r
    base = (tip[0] - ux * head, tip[1] - uy * head)
    width = max(3, round(frame.r * 0.08))
    segments = _segments((x1, y1), base, frame.r * 0.2 if dashed else 0.0)
    for p, q in segments:
        draw.line((*p, *q), fill=INK, width=width + 4)
    for p, q in segments:
        draw.line((*p, *q), fill=colour, width=width)
    wing = 0.2 * frame.r
    head_points = [
        tip,
        (base[0] - uy * wing, base[1] + ux * wing),
        (base[0] + uy * wing, base[1] - ux * wing),
    ]
    draw.polygon(head_points, fill=colour, outline=INK, width=2)
    return (x1, y1), tip


def _segments(a: Point, b: Point, dash: float) -> list[tuple[Point, Point]]:
    if dash <= 0:
        return [(a, b)]
    (x1, y1), (x2, y2) = a, b
    length = max(1e-6, math.hypot(x2 - x1, y2 - y1))
    out = []
    t = 0.0
    while t < length:
        t2 = min(length, t + dash)
        out.append(
            (
                (x1 + (x2 - x1) * t / length, y1 + (y2 - y1) * t / length),
                (x1 + (x2 - x1) * t2 / length, y1 + (y2 - y1) * t2 / length),
            )
        )
        t += 2 * dash
    return out


def _draw_strike(
    draw: ImageDraw.ImageDraw,
    frame: HexFrame,
    hexes: tuple[str, str],
    result: str | None,
    rangestrike: bool,
) -> None:
    colour = mix(DAMAGE, (255, 140, 0), 0.5) if rangestrike else DAMAGE
    ends = (frame.centre(hexes[0]), frame.centre(hexes[1]))
    (x1, y1), (x2, y2) = _arrow(draw, frame, ends, colour, dashed=rangestrike, start_clear=True)
    text = result or ("rangestrike" if rangestrike else "strike")
    length = max(1e-6, math.hypot(x2 - x1, y2 - y1))
    nx, ny = (y2 - y1) / length, -(x2 - x1) / length
    if ny > 0 or (ny == 0 and nx < 0):  # the label goes above (or right of) the arrow
        nx, ny = -nx, -ny
    at = ((x1 + x2) / 2 + nx * 0.3 * frame.r, (y1 + y2) / 2 + ny * 0.3 * frame.r)
    _tag(draw, at, text, colour, round(0.22 * frame.r))


def _draw_track(draw: ImageDraw.ImageDraw, lay: BattleLayout, turn: int | None) -> None:
    """The battle turn track 1–7 at the bottom (RULES §8.4), the current turn lit."""
    r = lay.frame.r
    box = 0.7 * r
    gap = 0.12 * r
    total = TURNS * box + (TURNS - 1) * gap
    x0 = (lay.width - total) / 2 + 0.5 * r
    y0 = lay.track_top
    draw.text(
        (x0 - 0.25 * r, y0 + box / 2), "Turn", font=font(round(0.26 * r)), fill=PAPER, anchor="rm"
    )
    for i in range(1, TURNS + 1):
        x = x0 + (i - 1) * (box + gap)
        current = turn == i
        fill = REACHABLE if current else mix(PAPER, INK, 0.75)
        draw.rounded_rectangle((x, y0, x + box, y0 + box), 6, fill=fill, outline=PAPER, width=2)
        draw.text(
            (x + box / 2, y0 + box / 2),
            str(i),
            font=font(round(0.32 * r)),
            fill=INK if current else PAPER,
            anchor="mm",
        )
    legend = "F flies   R rangestrikes   red dot: hits taken   X slain"
    draw.text(
        (lay.width / 2, y0 + box + 0.45 * r),
        legend,
        font=font(round(0.2 * r)),
        fill=PAPER,
        anchor="mm",
    )
