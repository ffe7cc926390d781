"""The chart of a finished game's scores over its game turns: one line per player, in the
player's colour, named at its end.

Pure: plain numbers in, a :class:`ChartLayout` (where everything goes: the drawing reads
only it, and tests read it back), an image or PNG bytes out. Each line carries its
player's name and final score at its right end (labels pushed apart so none overlap),
so the chart reads without telling colours apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.style import (
    BACKGROUND,
    INK,
    PAPER,
    RGB,
    bold_text,
    font,
    luminance,
    mix,
    player_rgb,
    png_bytes,
)
from render.table import clipped, drawable

Point = tuple[float, float]

PLOT: RGB = (214, 218, 226)
"""The plot area: light, so that every player colour (black too) shows on it."""
GRID: RGB = (184, 190, 200)
MUTED: RGB = (150, 158, 168)
TITLE_SIZE = 22
TICK_SIZE = 14
NAME_SIZE = 16
PAD = 24
NAME_WIDTH = 150
"""The widest a name at a line's end may be (px); longer ones are clipped."""
LINE = 4
"""The width of a score line (drawn over a dark edge two px wider on each side)."""


@dataclass(frozen=True)
class Series:
    """A player's scores: ``scores[t]`` after game turn ``t`` (0: the start)."""

    name: str
    colour: str | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Label:
    """A text the chart shows, where and in which colour."""

    text: str
    at: Point
    fill: RGB
    size: int
    anchor: str = "la"


@dataclass(frozen=True)
class Line:
    """A player's line: its name, colour and the points it joins."""

    name: str
    fill: RGB
    points: tuple[Point, ...]


@dataclass(frozen=True)
class ChartLayout:
    """Where everything of a chart goes (in px): the plot box, the grid, lines and texts."""

    width: int
    height: int
    plot: tuple[float, float, float, float]
    grid: tuple[tuple[Point, Point], ...]
    lines: tuple[Line, ...]
    labels: tuple[Label, ...]

    def texts(self) -> list[str]:
        return [label.text for label in self.labels]


def nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2, 5 × 10ⁿ) giving about ``ticks`` intervals over ``span``."""
    rough = max(span / max(ticks, 1), 1.0)
    power = 1
    while power * 10 <= rough:
        power *= 10
    for factor in (1, 2, 5, 10):
        if factor * power >= rough:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def chart_layout(
    series: Sequence[Series],
    *,
    width: int = 960,
    height: int = 420,
    title: str = "Scores by game turn",
) -> ChartLayout:
    """Where the chart of ``series`` goes, ``width`` × ``height`` px."""
    turns = max((len(s.scores) for s in series), default=1) - 1
    top_score = max((max(s.scores, default=0) for s in series), default=0)
    y_step = nice_step(max(top_score, 1), 5)
    y_max = max(y_step, -(-top_score // y_step) * y_step)
    x_step = nice_step(max(turns, 1), 10)
    tags = [_tag(s) for s in series]
    names_width = 12 + max((font(NAME_SIZE).getlength(t) for t in tags), default=0)
    left, top = PAD + 52.0, PAD + TITLE_SIZE + 18.0
    right, bottom = width - PAD - names_width, height - PAD - TICK_SIZE - 14.0
    plot = (left, top, right, bottom)

    def x_of(turn: float) -> float:
        return left + (right - left) * turn / max(turns, 1)

    def y_of(score: float) -> float:
        return bottom - (bottom - top) * score / y_max

    labels = [Label(title, (PAD, PAD), PAPER, TITLE_SIZE)]
    grid = []
    for score in range(0, y_max + 1, y_step):
        grid.append(((left, y_of(score)), (right, y_of(score))))
        labels.append(Label(str(score), (left - 8, y_of(score)), MUTED, TICK_SIZE, "rm"))
    for turn in range(0, turns + 1, x_step):
        labels.append(Label(str(turn), (x_of(turn), bottom + 8), MUTED, TICK_SIZE, "ma"))
    lines = tuple(
        Line(
            s.name, player_rgb(s.colour), tuple((x_of(t), y_of(v)) for t, v in enumerate(s.scores))
        )
        for s in series
    )
    ends = _spread([line.points[-1][1] if line.points else bottom for line in lines], top, bottom)
    for s, line, y in zip(series, lines, ends, strict=True):
        labels.append(Label(_tag(s), (right + 12, y), _name_fill(line.fill), NAME_SIZE, "lm"))
    return ChartLayout(width, height, plot, tuple(grid), lines, tuple(labels))


def _tag(series: Series) -> str:
    """A line's end label: the player's name and final score."""
    name = clipped(drawable(series.name), NAME_SIZE, NAME_WIDTH)
    return f"{name} {series.scores[-1] if series.scores else 0}"


def _name_fill(fill: RGB) -> RGB:
    """A player's colour made readable as text on the chart's dark frame."""
    return mix(fill, PAPER, 0.45) if luminance(fill) < 150 else fill


def _spread(ys: Sequence[float], top: float, bottom: float) -> list[float]:
    """The label heights ``ys`` pushed apart to at least one name's height, kept in the
    plot's height where they fit."""
    gap = NAME_SIZE + 4
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    last = top - gap
    for i in order:
        placed[i] = max(ys[i], last + gap)
        last = placed[i]
    overflow = last - bottom
    if overflow > 0:  # pushed below the plot: shift the whole column back up
        placed = [max(top, y - overflow) for y in placed]
    return placed


def draw_chart(image: Image.Image, layout: ChartLayout, at: Point = (0, 0)) -> None:
    """Draw ``layout`` on ``image`` with its top left corner at ``at``."""
    draw = ImageDraw.Draw(image)
    dx, dy = at

    def moved(p: Point) -> Point:
        return (p[0] + dx, p[1] + dy)

    left, top, right, bottom = layout.plot
    draw.rectangle((left + dx, top + dy, right + dx, bottom + dy), fill=PLOT)
    for a, b in layout.grid:
        draw.line((*moved(a), *moved(b)), fill=GRID, width=1)
    for line in layout.lines:
        points = [moved(p) for p in line.points]
        if len(points) == 1:
            points = points * 2
        draw.line(points, fill=INK, width=LINE + 4, joint="curve")
        draw.line(points, fill=line.fill, width=LINE, joint="curve")
    for label in layout.labels:
        if label.size >= TITLE_SIZE:
            bold_text(draw, moved(label.at), label.text, label.size, label.fill, label.anchor)
        else:
            draw.text(
                moved(label.at), label.text, font=font(label.size), fill=label.fill,
                anchor=label.anchor,
            )  # fmt: skip


def score_chart(
    series: Sequence[Series],
    *,
    width: int = 960,
    height: int = 420,
    title: str = "Scores by game turn",
) -> Image.Image:
    """The chart of ``series`` as an image (see :func:`chart_layout`)."""
    layout = chart_layout(series, width=width, height=height, title=title)
    image = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    draw_chart(image, layout)
    return image


def score_chart_png(
    series: Sequence[Series],
    *,
    width: int = 960,
    height: int = 420,
    title: str = "Scores by game turn",
) -> bytes:
    """:func:`score_chart` as PNG bytes."""
    return png_bytes(score_chart(series, width=width, height=height, title=title), palette=True)
