"""A finished game's final card: the result, every player's place, score and Titan's fate,
the turns played and the battles fought, over the chart of the scores by game turn.

Pure: a :class:`CardFacts` in (plain strings and numbers, all public once the game is
over), a :class:`CardLayout` (every text and swatch and where it goes: the drawing reads
only it, tests read it back), an image or PNG bytes out. No I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.words import plural
from render.score_chart import ChartLayout, Label, Series, chart_layout, draw_chart
from render.style import (
    BACKGROUND,
    INK,
    PAPER,
    RGB,
    STRIP,
    bold_text,
    font,
    mix,
    player_rgb,
    png_bytes,
)
from render.table import clipped, drawable

Point = tuple[float, float]
MUTED: RGB = (150, 158, 168)
GOLD: RGB = (240, 200, 80)
PAD = 24
TITLE_SIZE = 30
RESULT_SIZE = 22
ROW_SIZE = 19
HEAD_SIZE = 15
ROW = 34
CHART_HEIGHT = 400


@dataclass(frozen=True)
class CardPlayer:
    """One player's line: place (1 best, shared on a tie), name, colour, score, and what
    became of the Titan."""

    place: int
    name: str
    colour: str | None
    score: int
    fate: str


@dataclass(frozen=True)
class CardFacts:
    """What the card tells: its title, the result, the players in order of place, the game
    turns and player turns played, the battles fought and engagements met."""

    title: str
    result: str
    players: tuple[CardPlayer, ...]
    turns: int
    player_turns: int
    battles: int
    engagements: int = 0


@dataclass(frozen=True)
class Swatch:
    """A player's colour square."""

    box: tuple[float, float, float, float]
    fill: RGB


@dataclass(frozen=True)
class CardLayout:
    """Where everything of a card goes (in px); the chart below, at ``chart_at``."""

    width: int
    height: int
    labels: tuple[Label, ...]
    swatches: tuple[Swatch, ...]
    bands: tuple[tuple[float, float, float, float], ...]
    chart: ChartLayout | None
    chart_at: Point

    def texts(self) -> list[str]:
        """Every text of the card, the chart's included, in reading order."""
        own = [label.text for label in self.labels]
        return own + (self.chart.texts() if self.chart is not None else [])


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th … (11th, 12th, 13th)."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def facts_line(facts: CardFacts) -> str:
    """``28 game turns (56 player turns) · 9 battles fought · 14 engagements``."""
    parts = [
        f"{plural(facts.turns, 'game turn')} ({plural(facts.player_turns, 'player turn')})",
        f"{plural(facts.battles, 'battle')} fought",
    ]
    if facts.engagements:
        parts.append(plural(facts.engagements, "engagement"))
    return " · ".join(parts)


def card_layout(facts: CardFacts, series: Sequence[Series] = (), *, width: int = 960) -> CardLayout:
    """Where the card of ``facts`` goes, with the chart of ``series`` below (none when
    empty), ``width`` px wide."""
    labels = [
        Label(
            clipped(drawable(facts.title), TITLE_SIZE, width - 2 * PAD),
            (PAD, PAD),
            PAPER,
            TITLE_SIZE,
        ),
        Label(
            clipped(drawable(facts.result), RESULT_SIZE, width - 2 * PAD),
            (PAD, PAD + TITLE_SIZE + 14),
            GOLD,
            RESULT_SIZE,
        ),
    ]
    y = PAD + TITLE_SIZE + RESULT_SIZE + 40.0
    columns = (PAD, PAD + 70.0, PAD + 104.0, PAD + 370.0, PAD + 450.0)
    for x, head in zip(columns, ("Place", "", "Player", "Score", "Titan"), strict=True):
        if head:
            anchor = "ra" if head == "Score" else "la"
            at = x + 50 if head == "Score" else x
            labels.append(Label(head, (at, y), MUTED, HEAD_SIZE, anchor))
    y += HEAD_SIZE + 10
    swatches, bands = [], []
    for index, player in enumerate(facts.players):
        if index % 2 == 0:
            bands.append((PAD - 8, y - 6, width - PAD + 8, y + ROW - 6))
        fill = GOLD if player.place == 1 else PAPER
        mid = y + ROW_SIZE / 2
        labels.append(Label(ordinal(player.place), (columns[0], mid), fill, ROW_SIZE, "lm"))
        swatches.append(
            Swatch((columns[1], mid - 11, columns[1] + 22, mid + 11), player_rgb(player.colour))
        )
        name = clipped(drawable(player.name), ROW_SIZE, columns[3] - columns[2] - 12)
        labels.append(Label(name, (columns[2], mid), fill, ROW_SIZE, "lm"))
        labels.append(Label(str(player.score), (columns[3] + 50, mid), fill, ROW_SIZE, "rm"))
        fate = clipped(drawable(player.fate), HEAD_SIZE + 1, width - PAD - columns[4])
        labels.append(Label(fate, (columns[4], mid), mix(PAPER, MUTED, 0.3), HEAD_SIZE + 1, "lm"))
        y += ROW
    y += 8
    labels.append(Label(facts_line(facts), (PAD, y), PAPER, ROW_SIZE - 1))
    y += ROW_SIZE + 16
    chart = chart_layout(series, width=width, height=CHART_HEIGHT) if series else None
    height = round(y + (chart.height if chart is not None else PAD))
    return CardLayout(width, height, tuple(labels), tuple(swatches), tuple(bands), chart, (0, y))


def final_card(facts: CardFacts, series: Sequence[Series] = (), *, width: int = 960) -> Image.Image:
    """The final card of ``facts`` (and the chart of ``series``) as an image."""
    layout = card_layout(facts, series, width=width)
    image = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for band in layout.bands:
        draw.rectangle(band, fill=STRIP)
    for swatch in layout.swatches:
        draw.rounded_rectangle(swatch.box, radius=4, fill=swatch.fill, outline=PAPER, width=2)
    for label in layout.labels:
        if label.size >= RESULT_SIZE:
            bold_text(draw, label.at, label.text, label.size, label.fill, label.anchor)
        else:
            draw.text(
                label.at, label.text, font=font(label.size), fill=label.fill, anchor=label.anchor
            )
    if layout.chart is not None:
        draw_chart(image, layout.chart, layout.chart_at)
    draw.rectangle((0, 0, layout.width - 1, layout.height - 1), outline=INK, width=2)
    return image


def final_card_png(facts: CardFacts, series: Sequence[Series] = (), *, width: int = 960) -> bytes:
    """:func:`final_card` as PNG bytes."""
    return png_bytes(final_card(facts, series, width=width), palette=True)
