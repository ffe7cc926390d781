"""The masterboard picture: lands, signs, legion markers, highlights and the player strip.

Like ``chess.svg.board``: a pure function of the position with keyword-only options.
Of the position only public information is drawn (see :mod:`render.board_info`); a
``reach`` is drawn as given, so its caller decides whose knowledge it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from PIL import Image, ImageDraw

from engine.game.reach import Reach
from engine.game.view import View
from render.board_base import DEFAULT_WIDTH, board_base, layout
from render.board_info import BoardInfo, BoardLike, MarkerInfo, MoveInfo, board_info
from render.counters import draw_marker
from render.geometry import BoardFrame, Point, ray_exit
from render.legend import draw_badge
from render.marks import draw_bands, draw_land_letters, letter_size, marker_size, plan
from render.strip import draw_strip
from render.style import (
    HIGHLIGHT,
    INK,
    LAST_MOVE,
    RGB,
    TELEPORT,
    font,
    player_rgb,
    png_bytes,
)


def masterboard(
    board: BoardLike | View | BoardInfo,
    *,
    reach: Iterable[Reach] = (),
    reachable: Iterable[int] = (),
    highlights: Iterable[int] = (),
    engagements: Iterable[int] | None = None,
    last_moves: Iterable[MoveInfo] | None = None,
    selected: str | None = None,
    size: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The masterboard of ``board`` (a game state, a public view or a :class:`BoardInfo`).

    ``reach``: where legions may go after the roll (:func:`engine.game.reach.reach`, for
    the picture's viewer: the mover's shows teleports no one else may know of) — lands
    by a normal move yellow, by a teleport only purple, each legion named by a letter on
    its marker and in its lands when there are several (only the ``selected`` legion's
    when it is one of them); ``reachable``: other lands to mark yellow; ``highlights``:
    any other lands to point out (cyan); ``engagements``: lands to mark as pending
    engagements (red; default: every land with legions of two players); ``last_moves``:
    moves to draw as arrows (default: this turn's moves; teleports purple and dashed);
    ``selected``: a marker to ring; ``size``: the picture's width in px. The legend lists
    the marks drawn (:func:`render.marks.plan`).
    """
    info = board_info(board)
    lay = layout(size)
    image = board_base(size).copy()
    draw = ImageDraw.Draw(image)
    frame = lay.frame
    marks = plan(
        info,
        reach=reach,
        reachable=reachable,
        highlights=highlights,
        engagements=engagements,
        last_moves=last_moves,
        selected=selected,
    )
    draw_bands(draw, frame, marks)
    for move in marks.moves:
        _draw_move(draw, frame, move)
    draw_land_letters(draw, frame, marks, info)
    _draw_legions(draw, frame, info, marks.selected)
    _draw_tags(draw, frame, info, marks.letters or {})
    draw_strip(draw, lay, info, marks.engaged, marks.legend())
    return image


def masterboard_png(
    board: BoardLike | View | BoardInfo,
    *,
    reach: Iterable[Reach] = (),
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
        reach=reach,
        reachable=reachable,
        highlights=highlights,
        engagements=engagements,
        last_moves=last_moves,
        selected=selected,
        size=size,
    )
    return png_bytes(image, palette=True)


def marker_positions(frame: BoardFrame, number: int, count: int) -> list[Point]:
    """Centres of ``count`` markers standing in one land (side by side, overlapping if many)."""
    cx, cy = frame.marker_centre(number)
    size = marker_size(frame)
    if count <= 1:
        return [(cx, cy)]
    step = min(size * 1.08, 3.6 * frame.s / (count - 1))
    first = cx - step * (count - 1) / 2
    return [(first + i * step, cy) for i in range(count)]


def legion_centres(frame: BoardFrame, info: BoardInfo) -> list[tuple[MarkerInfo, Point]]:
    """Each legion and the centre of its marker (the mover's first in a shared land)."""
    by_land: dict[int, list[MarkerInfo]] = {}
    for legion in info.legions:
        by_land.setdefault(legion.land, []).append(legion)
    found: list[tuple[MarkerInfo, Point]] = []
    for number, legions in by_land.items():
        legions.sort(key=lambda leg: (leg.owner != info.active, leg.marker))
        found += zip(legions, marker_positions(frame, number, len(legions)), strict=True)
    return found


def _draw_legions(
    draw: ImageDraw.ImageDraw, frame: BoardFrame, info: BoardInfo, selected: str | None
) -> None:
    size = marker_size(frame)
    for legion, centre in legion_centres(frame, info):
        colour = _owner_colour(info, legion)
        if legion.marker == selected:
            _ring(draw, centre, size * 0.5 + frame.s * 0.22, HIGHLIGHT, frame.s * 0.2)
        draw_marker(draw, centre, size, legion.marker, legion.height, colour)


def tag_centre(frame: BoardFrame, centre: Point) -> Point:
    """Where the letter naming a legion stands on its marker: its upper left corner."""
    half = marker_size(frame) / 2
    return centre[0] - half, centre[1] - half


def _draw_tags(
    draw: ImageDraw.ImageDraw, frame: BoardFrame, info: BoardInfo, letters: Mapping[str, str]
) -> None:
    """The letter of each legion whose reach is drawn with others', on its marker."""
    for legion, centre in legion_centres(frame, info):
        if legion.marker in letters:
            draw_badge(draw, tag_centre(frame, centre), letters[legion.marker], letter_size(frame))


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
