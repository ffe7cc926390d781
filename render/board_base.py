"""The masterboard's static layer: lands, terrain, numbers, signs and towers (RULES §2).

Drawn once per picture size at twice the resolution and scaled down (smooth edges),
then cached; every render pastes its legions and highlights on a copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.masterboard import LANDS, TOWERS
from render.geometry import BOARD_HEIGHT_S, BOARD_WIDTH_S, BoardFrame, inset
from render.signs import draw_sign
from render.style import BACKGROUND, STRIP, TERRAIN_COLOURS, bold_text, font, ink_on

DEFAULT_WIDTH = 1920
STRIP_SHARE = 0.16
MARGIN = 12
SUPERSAMPLE = 2
BORDER: tuple[int, int, int] = (40, 40, 44)
CASTLE: tuple[int, int, int] = (120, 120, 128)


@dataclass(frozen=True)
class Layout:
    """The canvas of a masterboard picture: the board at the left, the strip at the right."""

    width: int
    height: int
    frame: BoardFrame
    strip_left: int


@cache
def layout(width: int = DEFAULT_WIDTH) -> Layout:
    """Canvas and board frame for a picture ``width`` px wide (at least 800)."""
    width = max(800, width)
    strip = round(width * STRIP_SHARE)
    s = (width - strip - 2 * MARGIN) / BOARD_WIDTH_S
    height = round(BOARD_HEIGHT_S * s + 2 * MARGIN)
    return Layout(width, height, BoardFrame(s, MARGIN, MARGIN), width - strip)


def land_fill(number: int) -> tuple[int, int, int]:
    """The colour of a land's interior (its terrain's)."""
    return TERRAIN_COLOURS[LANDS[number].terrain]


@lru_cache(maxsize=4)  # a few picture widths; each image is ~8 MB
def board_base(width: int = DEFAULT_WIDTH) -> Image.Image:
    """The static masterboard layer for a picture ``width`` px wide (do not draw on it)."""
    lay = layout(width)
    k = SUPERSAMPLE
    big = Image.new("RGB", (lay.width * k, lay.height * k), BACKGROUND)
    draw = ImageDraw.Draw(big)
    draw.rectangle((lay.strip_left * k, 0, lay.width * k, lay.height * k), fill=STRIP)
    frame = BoardFrame(lay.frame.s * k, lay.frame.left * k, lay.frame.top * k)
    for number in LANDS:
        _draw_land(draw, frame, number)
    for number in LANDS:
        _draw_signs(draw, frame, number)
    # Each pixel the mean of its k × k samples: as smooth as a Lanczos filter, with no
    # ringing, so far fewer colours (a palette PNG a quarter smaller).
    return big.reduce(k)


def _draw_land(draw: ImageDraw.ImageDraw, frame: BoardFrame, number: int) -> None:
    corners = frame.vertices(number)
    fill = land_fill(number)
    draw.polygon(corners, fill=fill)
    width = max(2, round(frame.s * 0.09))
    draw.line([*corners, corners[0]], fill=BORDER, width=width, joint="curve")
    if number in TOWERS:
        _draw_tower(draw, frame, number)
    _draw_label(draw, frame, number, ink_on(fill))


def _draw_tower(draw: ImageDraw.ImageDraw, frame: BoardFrame, number: int) -> None:
    """A double stone border and a castle in the middle (the six towers)."""
    s = frame.s
    inner = inset(frame.vertices(number), 0.28 * s)
    draw.line([*inner, inner[0]], fill=CASTLE, width=max(2, round(s * 0.14)), joint="curve")
    cx, cy = frame.centre(number)
    w, h, merlon = 0.75 * s, 0.45 * s, 0.3 * s
    draw.rectangle((cx - w, cy - h, cx + w, cy + h), fill=CASTLE)
    for i in range(0, 5, 2):
        x = cx - w + i * merlon
        draw.rectangle((x, cy - h - 0.3 * s, x + merlon, cy - h), fill=CASTLE)
    draw.rectangle((cx - 0.2 * s, cy + 0.12 * s, cx + 0.2 * s, cy + h), fill=(70, 70, 76))


def _draw_label(
    draw: ImageDraw.ImageDraw, frame: BoardFrame, number: int, ink: tuple[int, int, int]
) -> None:
    """Land number (bold) toward the narrow tip, terrain name toward the wide side; the
    centre stays clear for the markers (and, in a tower, the castle)."""
    s = frame.s
    bold_text(draw, frame.number_centre(number), str(number), round(0.72 * s), ink, "mm")
    if number not in TOWERS:
        name = LANDS[number].terrain
        draw.text(
            frame.name_centre(number), name, font=font(round(0.52 * s)), fill=ink, anchor="mm"
        )


def _draw_signs(draw: ImageDraw.ImageDraw, frame: BoardFrame, number: int) -> None:
    for exit_ in LANDS[number].exits:
        anchor, along, out = frame.sign_anchor(number, exit_.side)
        draw_sign(draw, exit_.sign, anchor, along, out, frame.s)
