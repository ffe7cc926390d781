"""The masterboard's legend: the four signs (RULES §2.2) and the marks the picture draws.

A picture's legend lists only what appears on it (:class:`Key`, chosen by the drawing
code from what it drew): the signs are on every board; a last move, a teleport, an
engagement, the lands a legion may reach and the letters naming its legion only when drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from PIL import ImageDraw

from engine.masterboard import LANDS, Sign
from render.signs import draw_sign
from render.style import (
    ENGAGED,
    HIGHLIGHT,
    INK,
    LAST_MOVE,
    PAPER,
    REACHABLE,
    RGB,
    TELEPORT,
    TERRAIN_COLOURS,
    bold_text,
    font,
)

SIGN_WORDS: dict[Sign, str] = {
    Sign.BLOCK: "block: must leave by it",
    Sign.ARCH: "arch: first step only",
    Sign.ARROW: "arrow: any step",
    Sign.ARROWS: "arrows: any step",
}
#: The signs on the board, in the legend's order (every masterboard shows them all).
SIGNS: tuple[Sign, ...] = tuple(
    sign
    for sign in SIGN_WORDS
    if any(e.sign is sign for land in LANDS.values() for e in land.exits)
)
BADGE_TEXT: RGB = INK
BADGE_FILL: RGB = PAPER


class Key(Enum):
    """A mark the picture may draw, with its words in the legend."""

    LAST_MOVE = "last move"
    TELEPORTED = "teleport"
    ENGAGED = "engagement"
    REACHABLE = "may move here"
    TELEPORT_TO = "may teleport here"
    LETTERS = "letter: the legion going there"
    SELECTED = "chosen legion"
    HIGHLIGHT = "marked"


def legend_height(keys: Sequence[Key], unit: float) -> float:
    """The height the legend of ``keys`` takes, in px."""
    return (28 + 36 * len(SIGNS) + 8 + 26 * len(keys)) * unit


def draw_legend(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], unit: float, keys: Sequence[Key]
) -> None:
    """The signs, then one row for each of ``keys`` (in their order)."""
    x, y = at
    small = font(round(15 * unit))
    draw.text((x, y), "Signs", font=font(round(17 * unit)), fill=PAPER)
    y += 28 * unit
    s = 22 * unit
    tile = TERRAIN_COLOURS["Plains"]
    for sign in SIGNS:
        box = (x, y - 8 * unit, x + 40 * unit, y + 24 * unit)
        draw.rounded_rectangle(box, 4, fill=tile)
        draw_sign(draw, sign, (x + 20 * unit, y + 8 * unit), (1.0, 0.0), (0.0, -1.0), s)
        draw.text((x + 52 * unit, y + 8 * unit), SIGN_WORDS[sign], font=small, fill=PAPER,
                  anchor="lm")  # fmt: skip
        y += 36 * unit
    y += 8 * unit
    for key in keys:
        _swatch(draw, key, (x, y), unit)
        draw.text((x + 52 * unit, y + 8 * unit), key.value, font=small, fill=PAPER, anchor="lm")
        y += 26 * unit


_BANDS: dict[Key, RGB] = {
    Key.ENGAGED: ENGAGED,
    Key.REACHABLE: REACHABLE,
    Key.TELEPORT_TO: TELEPORT,
    Key.HIGHLIGHT: HIGHLIGHT,
}


def _swatch(draw: ImageDraw.ImageDraw, key: Key, at: tuple[float, float], unit: float) -> None:
    """A band for an outlined land, an arrow for a move, a badge for the letters."""
    x, y = at
    if key in _BANDS:
        draw.rounded_rectangle(
            (x + 6 * unit, y, x + 34 * unit, y + 16 * unit),
            3,
            outline=_BANDS[key],
            width=max(3, round(4 * unit)),
        )
    elif key is Key.LETTERS:
        draw_badge(draw, (x + 20 * unit, y + 8 * unit), "A", 18 * unit)
    elif key is Key.SELECTED:
        box = (x + 10 * unit, y - 2 * unit, x + 30 * unit, y + 18 * unit)
        draw.rounded_rectangle(box, 4, outline=HIGHLIGHT, width=max(2, round(3 * unit)))
    else:
        colour = TELEPORT if key is Key.TELEPORTED else LAST_MOVE
        width = max(3, round(4 * unit))
        mid = y + 8 * unit
        if key is Key.TELEPORTED:
            for start in (4, 16):
                draw.line((x + start * unit, mid, x + (start + 7) * unit, mid), colour, width)
        else:
            draw.line((x + 4 * unit, mid, x + 26 * unit, mid), colour, width)
        head = [
            (x + 36 * unit, mid),
            (x + 26 * unit, mid - 7 * unit),
            (x + 26 * unit, mid + 7 * unit),
        ]
        draw.polygon(head, fill=colour)


def draw_badge(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], letter: str, size: float
) -> None:
    """A letter on a light rounded square (a legion and the lands it may reach)."""
    cx, cy = centre
    half = size / 2
    draw.rounded_rectangle(
        (cx - half, cy - half, cx + half, cy + half),
        radius=size * 0.25,
        fill=BADGE_FILL,
        outline=BADGE_TEXT,
        width=max(1, round(size * 0.08)),
    )
    bold_text(draw, (cx, cy + size * 0.03), letter, round(size * 0.72), BADGE_TEXT, "mm")
