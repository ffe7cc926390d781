"""A table picture: a title, column headers, rows of cells and a footnote (standings, a
leaderboard).

Pure: plain strings in, an image (:func:`table_image`) or PNG bytes (:func:`table_png`)
out. The picture is sized to its content; text is at least 15 px. Any Unicode may come
in: what the font cannot draw becomes its plain letter (``é`` → ``e``) or ``?``, control
characters are dropped, and cells too wide for their column are clipped with ``…``.
Marked rows (a player who advances) lie on a green band with a tick in the left margin.
At most ``limit`` rows are drawn; a last line says how many more there are.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from render.style import (
    BACKGROUND,
    PAPER,
    PLAYER_COLOURS,
    RGB,
    STRIP,
    bold_text,
    font,
    mix,
    png_bytes,
)

MAX_ROWS = 60
TITLE_SIZE = 24
HEAD_SIZE = 16
CELL_SIZE = 17
NOTE_SIZE = 15
PAD = 16
GAP = 18
GUTTER = 26
"""The left margin of every row, where a marked row's tick goes."""
ROW = 28
HEAD = 32
TITLE = 44
NOTE = 26
TEXT_COLUMN = 300
"""The widest a text column grows (longer cells are clipped)."""
NUMBER_COLUMN = 140
MAX_TITLE = 1400

MUTED: RGB = (150, 158, 168)
STRIPE: RGB = mix(BACKGROUND, PAPER, 0.05)
MARKED: RGB = mix(BACKGROUND, PLAYER_COLOURS["Green"], 0.55)
TICK: RGB = (120, 230, 140)
ELLIPSIS = "…"


@dataclass(frozen=True)
class Column:
    """A column: its header, and whether it holds numbers (drawn right-aligned)."""

    header: str
    numeric: bool = False


@dataclass(frozen=True)
class Line:
    """A row: one cell per column; ``marked`` rows are highlighted."""

    cells: tuple[str, ...]
    marked: bool = False


@cache
def _drawable(char: str) -> bool:
    """Whether the font has a glyph for ``char`` (its mask is not the missing-glyph box)."""
    sample = font(CELL_SIZE)
    mask = sample.getmask(char)
    missing = sample.getmask("\uffff")
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


@cache
def _safe_char(char: str) -> str:
    category = unicodedata.category(char)
    if category.startswith("Z") or char.isspace():
        return " "
    if category[0] in "CM":  # controls, format marks, surrogates, lone combining marks
        return ""
    if _drawable(char):
        return char
    base = "".join(
        c
        for c in unicodedata.normalize("NFKD", char)
        if not unicodedata.category(c).startswith(("M", "C")) and _drawable(c)
    )
    return base or "?"


def drawable(text: str) -> str:
    """``text`` with only what the font draws: plain letters for accented ones, ``?`` for
    the rest, no control or format characters, runs of space as one."""
    return " ".join("".join(_safe_char(c) for c in text).split())


def clipped(text: str, size: int, width: float) -> str:
    """``text`` (drawable) cut with ``…`` to fit ``width`` px at ``size`` px."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def _widths(columns: Sequence[Column], lines: Sequence[Line]) -> list[int]:
    """Each column's width: its widest header or cell, within the column's cap."""
    widths = []
    for i, column in enumerate(columns):
        cap = NUMBER_COLUMN if column.numeric else TEXT_COLUMN
        head = font(HEAD_SIZE).getlength(column.header) + 2
        cells = [font(CELL_SIZE).getlength(line.cells[i]) for line in lines if i < len(line.cells)]
        widths.append(round(min(cap, max([head, *cells]))))
    return widths


def _tick(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A tick mark centred on (x, y) (the font has no ✓)."""
    points = [(x - 6, y), (x - 2, y + 5), (x + 7, y - 6)]
    draw.line(points, fill=TICK, width=3, joint="curve")


def _cells(
    draw: ImageDraw.ImageDraw,
    y: float,
    columns: Sequence[Column],
    widths: Sequence[int],
    cells: Sequence[str],
    *,
    head: bool = False,
) -> None:
    """One line of cells (or the headers) with its middle at ``y``."""
    x = float(PAD + GUTTER)
    size = HEAD_SIZE if head else CELL_SIZE
    for column, width, cell in zip(columns, widths, cells, strict=False):
        text = clipped(cell, size, width)
        at, anchor = ((x + width, y), "rm") if column.numeric else ((x, y), "lm")
        if head:
            bold_text(draw, at, text, size, MUTED, anchor)
        else:
            draw.text(at, text, font=font(size), fill=PAPER, anchor=anchor)
        x += width + GAP


def table_image(
    title: str,
    columns: Sequence[Column],
    lines: Sequence[Line],
    *,
    footnote: str = "",
    limit: int = MAX_ROWS,
) -> Image.Image:
    """The table as a picture: ``title`` above, the headers of ``columns``, the first
    ``limit`` of ``lines`` (marked ones on a green band), "… and N more" when some are
    left out, then ``footnote``. Raises ValueError for a limit below 1."""
    if limit < 1:
        raise ValueError("a table shows at least one row")
    columns = [Column(drawable(c.header), c.numeric) for c in columns]
    shown = [
        Line(tuple(drawable(c) for c in line.cells[: len(columns)]), line.marked)
        for line in lines[:limit]
    ]
    hidden = len(lines) - len(shown)
    title = clipped(drawable(title), TITLE_SIZE, MAX_TITLE)
    note = clipped(drawable(footnote), NOTE_SIZE, MAX_TITLE) if footnote else ""
    widths = _widths(columns, shown)
    table_width = GUTTER + sum(widths) + GAP * max(len(widths) - 1, 0)
    text_width = max(
        font(TITLE_SIZE).getlength(title) + 4, font(NOTE_SIZE).getlength(note) if note else 0
    )
    width = round(2 * PAD + max(table_width, text_width))
    height = TITLE + HEAD + ROW * (len(shown) + (hidden > 0)) + (NOTE if note else 0) + PAD
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    bold_text(draw, (PAD, TITLE / 2 + 4), title, TITLE_SIZE, PAPER, "lm")
    draw.rectangle((0, TITLE, width, TITLE + HEAD), fill=STRIP)
    _cells(draw, TITLE + HEAD / 2, columns, widths, [c.header for c in columns], head=True)
    y = TITLE + HEAD
    for i, line in enumerate(shown):
        band = MARKED if line.marked else STRIPE if i % 2 else None
        if band is not None:
            draw.rectangle((0, y, width, y + ROW - 1), fill=band)
        if line.marked:
            _tick(draw, PAD + GUTTER / 2 - 2, y + ROW / 2)
        _cells(draw, y + ROW / 2, columns, widths, line.cells)
        y += ROW
    if hidden:
        more = f"{ELLIPSIS} and {hidden} more"
        draw.text((PAD + GUTTER, y + ROW / 2), more, font=font(CELL_SIZE), fill=MUTED, anchor="lm")
        y += ROW
    if note:
        draw.text((PAD, y + NOTE / 2 + 4), note, font=font(NOTE_SIZE), fill=MUTED, anchor="lm")
    return image


def table_png(
    title: str,
    columns: Sequence[Column],
    lines: Sequence[Line],
    *,
    footnote: str = "",
    limit: int = MAX_ROWS,
) -> bytes:
    """:func:`table_image` as PNG bytes."""
    return png_bytes(table_image(title, columns, lines, footnote=footnote, limit=limit))
