"""A table picture: a title, column headers (under group labels where columns share one),
rows of cells and a legend (standings, a leaderboard).

Pure: plain strings in, a layout (:func:`table_layout`: every text, band and mark with its
place), an image (:func:`table_image`) or PNG bytes (:func:`table_png`) out. The picture
is sized to its content; text is at least 15 px. Any Unicode may come in: what the font
cannot draw becomes its plain letter (``é`` → ``e``) or ``?``, control characters are
dropped, and cells too wide for their column are clipped with ``…``. A row may carry a
mark in the left margin: a tick on a green band (a player who advances) or a ring on a
faint band (one who would advance if play ended now); a legend line may show the mark it
explains. At most ``limit`` rows are drawn; a last line says how many more there are.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
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
GROUP = 24
"""The line of group labels above the headers, when some columns have a group."""
TEXT_COLUMN = 300
"""The widest a text column grows (longer cells are clipped)."""
NUMBER_COLUMN = 140
MAX_TITLE = 1400

MUTED: RGB = (150, 158, 168)
STRIPE: RGB = mix(BACKGROUND, PAPER, 0.05)
MARKED: RGB = mix(BACKGROUND, PLAYER_COLOURS["Green"], 0.55)
PENDING: RGB = mix(BACKGROUND, PLAYER_COLOURS["Green"], 0.2)
TICK: RGB = (120, 230, 140)
MIN_LEGEND = 520
"""The narrowest the legend wraps to (a narrow table gets a wider picture)."""
ELLIPSIS = "…"


class Mark(Enum):
    """A row's mark in the left margin."""

    TICK = "tick"
    """On a green band: decided (a player who advances)."""
    RING = "ring"
    """On a faint band: not decided yet (one who would advance if play ended now)."""


BANDS: dict[Mark, RGB] = {Mark.TICK: MARKED, Mark.RING: PENDING}


@dataclass(frozen=True)
class Column:
    """A column: its header, whether it holds numbers (drawn right-aligned), and the
    group it belongs to (a label spanning the neighbouring columns of the same group)."""

    header: str
    numeric: bool = False
    group: str = ""


@dataclass(frozen=True)
class Line:
    """A row: one cell per column, and its mark, if any."""

    cells: tuple[str, ...]
    mark: Mark | None = None


@dataclass(frozen=True)
class Note:
    """A line of the legend, led by the sample of ``mark`` when it explains one."""

    text: str
    mark: Mark | None = None


@dataclass(frozen=True)
class Text:
    """A text of the layout: what, where (``anchor`` as Pillow's), how big, and its role:
    ``title``, ``group``, ``head``, ``cell``, ``more`` or ``note``."""

    role: str
    text: str
    at: tuple[float, float]
    size: int
    anchor: str = "lm"


@dataclass(frozen=True)
class Sign:
    """A mark of the layout, centred at ``at``: a row's (``role`` ``row``) or a legend
    line's (``note``)."""

    role: str
    mark: Mark
    at: tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """Everything the picture draws, placed: its size, bands (y from, y to, colour),
    texts, marks and rules (x from, x to, y)."""

    size: tuple[int, int]
    bands: list[tuple[float, float, RGB]] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    marks: list[Sign] = field(default_factory=list)
    rules: list[tuple[float, float, float]] = field(default_factory=list)

    def of(self, role: str) -> list[str]:
        """The texts of ``role``, in drawing order."""
        return [t.text for t in self.texts if t.role == role]

    def signs(self, role: str) -> list[Mark]:
        """The marks of ``role`` (``row`` or ``note``), top to bottom."""
        return [s.mark for s in self.marks if s.role == role]


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


def _runs(columns: Sequence[Column]) -> list[tuple[str, int, int]]:
    """Each run of neighbouring columns of one group: its label, first and last index."""
    runs: list[tuple[str, int, int]] = []
    for i, column in enumerate(columns):
        if column.group and runs and runs[-1][0] == column.group and runs[-1][2] == i - 1:
            runs[-1] = (column.group, runs[-1][1], i)
        elif column.group:
            runs.append((column.group, i, i))
    return runs


def _fitted(columns: Sequence[Column], widths: list[int]) -> list[int]:
    """``widths`` widened where a group's label is wider than its columns: the missing
    width shared among them."""
    widths = list(widths)
    for label, first, last in _runs(columns):
        span = sum(widths[first : last + 1]) + GAP * (last - first)
        missing = font(HEAD_SIZE).getlength(label) + 8 - span
        if missing > 0:
            share = -(-round(missing) // (last - first + 1))
            for i in range(first, last + 1):
                widths[i] += share
    return widths


def _wrapped(text: str, size: int, width: float) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` px (a word too long for
    a line is clipped)."""
    face = font(size)
    lines: list[str] = []
    for word in text.split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and face.getlength(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(clipped(word, size, width))
    return lines or [""]


def _row_texts(
    y: float, columns: Sequence[Column], widths: Sequence[int], cells: Sequence[str], role: str
) -> list[Text]:
    """One line of cells (or the headers) with its middle at ``y``."""
    found = []
    x = float(PAD + GUTTER)
    size = HEAD_SIZE if role == "head" else CELL_SIZE
    for column, width, cell in zip(columns, widths, cells, strict=False):
        text = clipped(cell, size, width)
        at, anchor = ((x + width, y), "rm") if column.numeric else ((x, y), "lm")
        found.append(Text(role, text, at, size, anchor))
        x += width + GAP
    return found


def _groups(columns: Sequence[Column], widths: Sequence[int]) -> list[tuple[str, float, float]]:
    """Each run of neighbouring columns of one group: its label, x from, x to."""
    starts = [PAD + GUTTER + sum(widths[:i]) + GAP * i for i in range(len(widths))]
    return [
        (label, float(starts[first]), float(starts[last] + widths[last]))
        for label, first, last in _runs(columns)
    ]


def table_layout(
    title: str,
    columns: Sequence[Column],
    lines: Sequence[Line],
    *,
    legend: Sequence[Note] = (),
    footnote: str = "",
    limit: int = MAX_ROWS,
) -> Layout:
    """Where everything of the table goes: ``title`` above, the group labels and headers
    of ``columns``, the first ``limit`` of ``lines`` (marked ones on their band), "… and
    N more" when some are left out, then the ``legend`` and ``footnote`` (a last note),
    wrapped to the table's width. Raises ValueError for a limit below 1."""
    if limit < 1:
        raise ValueError("a table shows at least one row")
    columns = [Column(drawable(c.header), c.numeric, drawable(c.group)) for c in columns]
    shown = [
        Line(tuple(drawable(c) for c in line.cells[: len(columns)]), line.mark)
        for line in lines[:limit]
    ]
    hidden = len(lines) - len(shown)
    title = clipped(drawable(title), TITLE_SIZE, MAX_TITLE)
    notes = [Note(drawable(n.text), n.mark) for n in legend]
    if footnote:
        notes.append(Note(drawable(footnote)))
    widths = _fitted(columns, _widths(columns, shown))
    table_width = GUTTER + sum(widths) + GAP * max(len(widths) - 1, 0)
    text_width = max(table_width, font(TITLE_SIZE).getlength(title) + 4)
    widest = max((font(NOTE_SIZE).getlength(n.text) for n in notes), default=0)
    wrap = max(text_width - GUTTER, min(widest, MIN_LEGEND - GUTTER))
    wrapped = [(n.mark, _wrapped(n.text, NOTE_SIZE, wrap)) for n in notes]
    spans = _groups(columns, widths)
    width = round(2 * PAD + max(text_width, wrap + GUTTER))
    top = TITLE + (GROUP if spans else 0)
    rows = len(shown) + (hidden > 0)
    note_lines = sum(len(w) for _, w in wrapped)
    height = top + HEAD + ROW * rows + (NOTE * note_lines + 4 if notes else 0) + PAD
    layout = Layout((width, height))
    layout.texts.append(Text("title", title, (PAD, TITLE / 2 + 4), TITLE_SIZE))
    for label, start, end in spans:
        middle = TITLE + GROUP / 2
        layout.texts.append(
            Text(
                "group",
                clipped(label, HEAD_SIZE, end - start),
                ((start + end) / 2, middle),
                HEAD_SIZE,
                "mm",
            )
        )
        layout.rules.append((start, end, TITLE + GROUP - 2))
    layout.bands.append((top, top + HEAD, STRIP))
    layout.texts.extend(
        _row_texts(top + HEAD / 2, columns, widths, [c.header for c in columns], "head")
    )
    y = float(top + HEAD)
    for i, line in enumerate(shown):
        band = BANDS[line.mark] if line.mark is not None else STRIPE if i % 2 else None
        if band is not None:
            layout.bands.append((y, y + ROW - 1, band))
        if line.mark is not None:
            layout.marks.append(Sign("row", line.mark, (PAD + GUTTER / 2 - 2, y + ROW / 2)))
        layout.texts.extend(_row_texts(y + ROW / 2, columns, widths, line.cells, "cell"))
        y += ROW
    if hidden:
        more = f"{ELLIPSIS} and {hidden} more"
        layout.texts.append(Text("more", more, (PAD + GUTTER, y + ROW / 2), CELL_SIZE))
        y += ROW
    y += 4
    for mark, parts in wrapped:
        if mark is not None:
            layout.marks.append(Sign("note", mark, (PAD + GUTTER / 2 - 2, y + NOTE / 2)))
        for part in parts:
            layout.texts.append(Text("note", part, (PAD + GUTTER, y + NOTE / 2), NOTE_SIZE))
            y += NOTE
    return layout


def _mark(draw: ImageDraw.ImageDraw, mark: Mark, x: float, y: float) -> None:
    """A tick, or a ring, centred on (x, y) (the font has no ✓)."""
    if mark is Mark.TICK:
        points = [(x - 6, y), (x - 2, y + 5), (x + 7, y - 6)]
        draw.line(points, fill=TICK, width=3, joint="curve")
    else:
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), outline=TICK, width=2)


_INK = {"title": PAPER, "group": MUTED, "head": MUTED, "cell": PAPER, "more": MUTED, "note": MUTED}


def table_image(
    title: str,
    columns: Sequence[Column],
    lines: Sequence[Line],
    *,
    legend: Sequence[Note] = (),
    footnote: str = "",
    limit: int = MAX_ROWS,
) -> Image.Image:
    """The table as a picture, drawn from :func:`table_layout`."""
    layout = table_layout(title, columns, lines, legend=legend, footnote=footnote, limit=limit)
    width, _ = layout.size
    image = Image.new("RGB", layout.size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    for top, bottom, colour in layout.bands:
        draw.rectangle((0, top, width, bottom), fill=colour)
    for start, end, y in layout.rules:
        draw.line((start, y, end, y), fill=MUTED, width=1)
    for sign in layout.marks:
        _mark(draw, sign.mark, *sign.at)
    for text in layout.texts:
        if text.role in ("title", "group", "head"):
            bold_text(draw, text.at, text.text, text.size, _INK[text.role], text.anchor)
        else:
            ink = _INK[text.role]
            draw.text(text.at, text.text, font=font(text.size), fill=ink, anchor=text.anchor)
    return image


def table_png(
    title: str,
    columns: Sequence[Column],
    lines: Sequence[Line],
    *,
    legend: Sequence[Note] = (),
    footnote: str = "",
    limit: int = MAX_ROWS,
) -> bytes:
    """:func:`table_image` as PNG bytes."""
    image = table_image(title, columns, lines, legend=legend, footnote=footnote, limit=limit)
    return png_bytes(image)
