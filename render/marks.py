"""What a masterboard picture marks on its lands, and so what its legend lists.

:func:`plan` turns a picture's options into :class:`Marks`: the lands outlined (a legion's
reach, highlights, engagements), the moves drawn as arrows and the letters naming which
legion may reach which land; :meth:`Marks.legend` is the legend of exactly those.
:func:`draw_bands` and :func:`draw_land_letters` draw them.

A reach (:class:`~engine.game.reach.Reach`) is what its viewer may know: the caller picks
it (the mover's for his private answer, the public one for the channel).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from PIL import ImageDraw

from engine.game.reach import Reach
from engine.masterboard import TOWERS
from render.board_info import BoardInfo, MoveInfo
from render.geometry import BoardFrame, Point, inset
from render.legend import Key, draw_badge
from render.style import ENGAGED, HIGHLIGHT, REACHABLE, RGB, TELEPORT

LETTERS = string.ascii_uppercase
BAND = 0.2
"""A band's width, in units of the board's ``s``."""


@dataclass(frozen=True)
class Marks:
    """The marks of one picture: lands outlined, arrows, and the letters of a reach."""

    reachable: tuple[int, ...] = ()
    teleports: tuple[int, ...] = ()
    """Lands reached only by a teleport."""
    highlights: tuple[int, ...] = ()
    engaged: tuple[int, ...] = ()
    moves: tuple[MoveInfo, ...] = ()
    letters: Mapping[str, str] | None = None
    """Marker → the letter naming it on its marker and in the lands it may reach (only
    when several legions' reaches are drawn)."""
    lands: Mapping[int, str] | None = None
    """Land → the letters of the legions that may reach it."""
    selected: str | None = None
    """The marker ringed (a legion on the board)."""

    def bands(self) -> dict[int, list[RGB]]:
        """Land → the colours of its bands, outermost first."""
        found: dict[int, list[RGB]] = {}
        for lands, colour in (
            (self.engaged, ENGAGED),
            (self.reachable, REACHABLE),
            (self.teleports, TELEPORT),
            (self.highlights, HIGHLIGHT),
        ):
            for number in dict.fromkeys(lands):
                found.setdefault(number, []).append(colour)
        return found

    def legend(self) -> tuple[Key, ...]:
        """The legend of what is drawn, in the legend's order."""
        shown = {
            Key.LAST_MOVE: any(not m.teleport for m in self.moves),
            Key.TELEPORTED: any(m.teleport for m in self.moves),
            Key.ENGAGED: bool(self.engaged),
            Key.REACHABLE: bool(self.reachable),
            Key.TELEPORT_TO: bool(self.teleports),
            Key.LETTERS: bool(self.lands),
            Key.SELECTED: self.selected is not None,
            Key.HIGHLIGHT: bool(self.highlights),
        }
        return tuple(key for key in Key if shown[key])


def plan(
    info: BoardInfo,
    *,
    reach: Iterable[Reach] = (),
    reachable: Iterable[int] = (),
    highlights: Iterable[int] = (),
    engagements: Iterable[int] | None = None,
    last_moves: Iterable[MoveInfo] | None = None,
    selected: str | None = None,
) -> Marks:
    """The marks of a picture (see :func:`render.masterboard.masterboard`): of ``reach``,
    only the ``selected`` legion's when it is among them, else every legion's on the
    board, each named by a letter when there are several."""
    on_board = {leg.marker for leg in info.legions}
    reaches = [r for r in reach if r.marker in on_board]
    chosen = [r for r in reaches if r.marker == selected]
    shown = chosen or reaches
    normal = dict.fromkeys([*reachable, *(n for r in shown for n in r.lands)])
    teleport = dict.fromkeys(n for r in shown for n in r.teleports if n not in normal)
    letters: dict[str, str] = {}
    lands: dict[int, str] = {}
    if len(shown) > 1:
        for i, legion in enumerate(shown):
            letter = LETTERS[i % len(LETTERS)]
            letters[legion.marker] = letter
            for number in legion.destinations:
                lands[number] = lands.get(number, "") + letter
    return Marks(
        reachable=tuple(normal),
        teleports=tuple(teleport),
        highlights=tuple(dict.fromkeys(highlights)),
        engaged=info.contested() if engagements is None else tuple(engagements),
        moves=info.moves if last_moves is None else tuple(last_moves),
        letters=letters or None,
        lands=lands or None,
        selected=selected if selected in on_board else None,
    )


def band_ring(frame: BoardFrame, number: int, depth: int = 0) -> list[Point]:
    """The middle line of a land's ``depth``-th band (0: the outermost, just inside its
    border)."""
    band = max(3, round(frame.s * BAND))
    return inset(frame.vertices(number), band / 2 + frame.s * 0.05 + depth * band)


def draw_bands(draw: ImageDraw.ImageDraw, frame: BoardFrame, marks: Marks) -> None:
    """Each outlined land's bands, one inside the other."""
    band = max(3, round(frame.s * BAND))
    for number, colours in marks.bands().items():
        for depth, colour in enumerate(colours):
            ring = band_ring(frame, number, depth)
            draw.line([*ring, ring[0]], fill=colour, width=band, joint="curve")


def letter_size(frame: BoardFrame) -> float:
    return 0.95 * frame.s


def marker_size(frame: BoardFrame) -> float:
    """A legion marker's side (as :mod:`render.masterboard` draws it)."""
    return 2.1 * frame.s


def letter_centres(frame: BoardFrame, number: int, count: int, occupied: int = 0) -> list[Point]:
    """Where a land's ``count`` letters stand, clear of its number and signs: in a row
    between the terrain name and the number; in a column right of what stands in the
    middle, the ``occupied`` markers or a Tower's castle."""
    cx, cy = frame.centre(number)
    step = letter_size(frame) * 1.08
    if occupied or number in TOWERS:
        markers = marker_size(frame) * (1 + 1.08 * (occupied - 1)) if occupied else 0.0
        middle = max(markers, 1.6 * frame.s) / 2
        x = cx + middle + 0.12 * frame.s + letter_size(frame) / 2
        top = cy - step * (count - 1) / 2
        return [(x, top + i * step) for i in range(count)]
    y = cy + frame.toward_tip(number) * 0.45 * frame.s
    first = cx - step * (count - 1) / 2
    return [(first + i * step, y) for i in range(count)]


def draw_land_letters(
    draw: ImageDraw.ImageDraw, frame: BoardFrame, marks: Marks, info: BoardInfo
) -> None:
    """In each land some of several legions may reach, the letters of those legions."""
    size = letter_size(frame)
    for number, letters in (marks.lands or {}).items():
        occupied = len(info.legions_in(number))
        centres = letter_centres(frame, number, len(letters), occupied)
        for letter, centre in zip(letters, centres, strict=True):
            draw_badge(draw, centre, letter, size)
