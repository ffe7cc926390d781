"""The masterboard picture: lands, signs, legion markers, highlights and the player strip.

Like ``chess.svg.board``: a pure function of the position with keyword-only options.
Only public information is drawn (see :mod:`render.board_info`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PIL import Image, ImageDraw

from engine.game.view import View
from render.board_base import DEFAULT_WIDTH, board_base, layout
from render.board_info import BoardInfo, BoardLike, MarkerInfo, MoveInfo, board_info
from render.counters import draw_marker
from render.geometry import BoardFrame, Point, inset, ray_exit
from render.strip import draw_strip
from render.style import (
    ENGAGED,
    HIGHLIGHT,
    INK,
    LAST_MOVE,
    REACHABLE,
    RGB,
    TELEPORT,
    font,
    player_rgb,
    png_bytes,
)


def masterboard(
    board: BoardLike | View | BoardInfo,
    *,
    reachable: Iterable[int] = (),
    highlights: Iterable[int] = (),
    engagements: Iterable[int] | None = None,
    last_moves: Iterable[MoveInfo] | None = None,
    selected: str | None = None,
    size: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The masterboard of ``board`` (a game state, a public view or a :class:`BoardInfo`).

    ``reachable``: lands a chosen legion may reach (yellow); ``highlights``: any other
    lands to point out (cyan); ``engagements``: lands to mark as pending engagements
    (red; default: every land with legions of two players); ``last_moves``: moves to
    draw as arrows (default: this turn's moves; teleports purple and dashed);
    ``selected``: a marker to ring; ``size``: the picture's width in px.
    """
    info = board_info(board)
    lay = layout(size)
    image = board_base(size).copy()
    draw = ImageDraw.Draw(image)
    frame = lay.frame
    contested = info.contested() if engagements is None else tuple(engagements)
    _outline_lands(draw, frame, reachable, REACHABLE, 0.2)
    _outline_lands(draw, frame, highlights, HIGHLIGHT, 0.2)
    _outline_lands(draw, frame, contested, ENGAGED, 0.2)
    for move in info.moves if last_moves is None else last_moves:
        _draw_move(draw, frame, move)
    _draw_legions(draw, frame, info, selected)
    draw_strip(draw, lay, info, contested)
    return image


def masterboard_png(
    board: BoardLike | View | BoardInfo,
    *,
    reachable: Iterable[int] = (),
    highlights: Iterable[int] = (),
    engagements: Iterable[int] | None = None,
    last_moves: Iterable[MoveInfo] | None = None,
    selected: str | None = None,
    size: int = DEFAULT_WIDTH,
) -> bytes:
    """:func:`masterboard` encoded as PNG bytes."""
    image = masterboard(
        board,
        reachable=reachable,
        highlights=highlights,
        engagements=engagements,
        last_moves=last_moves,
        selected=selected,
        size=size,
    )
    return png_bytes(image, palette=True)


def _outline_lands(
    draw: ImageDraw.ImageDraw, frame: BoardFrame, lands: Iterable[int], colour: RGB, width: float
) -> None:
    """A thick band just inside each land's border."""
    band = max(3, round(frame.s * width))
    for number in lands:
        ring = inset(frame.vertices(number), band / 2 + frame.s * 0.05)
        draw.line([*ring, ring[0]], fill=colour, width=band, joint="curve")


def marker_positions(frame: BoardFrame, number: int, count: int) -> list[Point]:
    """Centres of ``count`` markers standing in one land (side by side, overlapping if many)."""
    cx, cy = frame.marker_centre(number)
    size = marker_size(frame)
    if count <= 1:
        return [(cx, cy)]
    step = min(size * 1.08, 3.6 * frame.s / (count - 1))
    first = cx - step * (count - 1) / 2
    return [(first + i * step, cy) for i in range(count)]


def marker_size(frame: BoardFrame) -> float:
    return 2.1 * frame.s


def _draw_legions(
    draw: ImageDraw.ImageDraw, frame: BoardFrame, info: BoardInfo, selected: str | None
) -> None:
    by_land: dict[int, list[MarkerInfo]] = {}
    for legion in info.legions:
        by_land.setdefault(legion.land, []).append(legion)
    size = marker_size(frame)
    for number, legions in by_land.items():
        legions.sort(key=lambda leg: (leg.owner != info.active, leg.marker))
        for legion, centre in zip(
            legions, marker_positions(frame, number, len(legions)), strict=True
        ):
            colour = _owner_colour(info, legion)
            if legion.marker == selected:
                _ring(draw, centre, size * 0.5 + frame.s * 0.22, HIGHLIGHT, frame.s * 0.2)
            draw_marker(draw, centre, size, legion.marker, legion.height, colour)


def _owner_colour(info: BoardInfo, legion: MarkerInfo) -> RGB:
    if 0 <= legion.owner < len(info.players):
        return player_rgb(info.players[legion.owner].colour)
    return player_rgb(None)


def _ring(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, colour: RGB, width: float
) -> None:
    cx, cy = centre
    draw.rounded_rectangle(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        radius=radius * 0.3,
        outline=colour,
        width=max(2, round(width)),
    )


def _draw_move(draw: ImageDraw.ImageDraw, frame: BoardFrame, move: MoveInfo) -> None:
    """An arrow from the start land to the destination (dashed purple for a teleport)."""
    colour = TELEPORT if move.teleport else LAST_MOVE
    width = max(3, round(frame.s * 0.24))
    start, end = frame.centre(move.start), frame.centre(move.land)
    if move.start == move.land:
        _draw_loop(draw, frame, start, colour, width)
        return
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    # The head ends just inside the destination's border, clear of its markers.
    into = ray_exit(frame.vertices(move.land), end, (-ux, -uy)) - 0.15 * frame.s
    tip = (x2 - ux * into, y2 - uy * into)
    head = 0.95 * frame.s
    base = (tip[0] - ux * head, tip[1] - uy * head)
    _dashed_or_solid(draw, start, base, colour, width, dashed=move.teleport, s=frame.s)
    wing = 0.6 * frame.s
    points = [
        tip,
        (base[0] - uy * wing, base[1] + ux * wing),
        (base[0] + uy * wing, base[1] - ux * wing),
    ]
    draw.polygon(points, fill=colour, outline=INK, width=2)
    r = 0.3 * frame.s
    draw.ellipse((x1 - r, y1 - r, x1 + r, y1 + r), fill=colour, outline=INK, width=2)


def _dashed_or_solid(
    draw: ImageDraw.ImageDraw,
    a: Point,
    b: Point,
    colour: RGB,
    width: int,
    *,
    dashed: bool,
    s: float,
) -> None:
    (x1, y1), (x2, y2) = a, b
    if not dashed:
        draw.line((x1, y1, x2, y2), fill=INK, width=width + 4)
        draw.line((x1, y1, x2, y2), fill=colour, width=width)
        return
    length = math.hypot(x2 - x1, y2 - y1)
    dash = 0.8 * s
    count = max(1, int(length // (2 * dash)))
    for i in range(count + 1):
        t0, t1 = (2 * i * dash) / length, min(1.0, (2 * i + 1) * dash / length)
        if t0 >= 1:
            break
        p = (x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0)
        q = (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1)
        draw.line((*p, *q), fill=INK, width=width + 4)
        draw.line((*p, *q), fill=colour, width=width)


def _draw_loop(
    draw: ImageDraw.ImageDraw, frame: BoardFrame, centre: Point, colour: RGB, width: int
) -> None:
    """A move that came back to its start land (RULES §2.5): a circle round the markers."""
    cx, cy = centre
    r = 1.45 * frame.s
    draw.arc((cx - r, cy - r, cx + r, cy + r), 200, 520, fill=colour, width=width)
    draw.text((cx, cy + r), "loop", font=font(round(0.5 * frame.s)), fill=colour, anchor="mt")
