"""Legion markers and character counters, shared by every picture.

A marker shows its id and the legion's height (public, RULES §3.3); a character counter
its name, Power-Skill, flyer (F) and rangestriker (R) badges and the damage taken, and on
a battleland its owner's colour tag (``Rd``). Both are cased in a light and a dark ring
(:func:`render.style.casing`), so that every colour stands out from every ground.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from engine.characters import character
from render.geometry import Point
from render.style import DAMAGE, INK, RGB, casing, font, ink_on, mix

UNKNOWN = "?"
UNKNOWN_FILL: RGB = (150, 150, 156)


def draw_marker(
    draw: ImageDraw.ImageDraw, centre: Point, size: float, marker: str, height: int, fill: RGB
) -> None:
    """A legion marker: a rounded square in the owner's colour, id above (its first two
    letters name the colour: ``Bk03``), height below."""
    cx, cy = centre
    ink = ink_on(fill)
    cased_square(draw, centre, size, fill, radius=0.16, width=max(2, round(size * 0.05)))
    draw.text((cx, cy - size * 0.2), marker, font=font(round(size * 0.28)), fill=ink, anchor="mm")
    bold = max(1, round(size * 0.02))
    draw.text(
        (cx, cy + size * 0.17),
        str(height),
        font=font(round(size * 0.46)),
        fill=ink,
        anchor="mm",
        stroke_width=bold,
        stroke_fill=ink,
    )


def cased_square(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    size: float,
    fill: RGB,
    *,
    radius: float,
    width: int,
) -> None:
    """A rounded square of side ``size`` (corner ``radius`` in sides) filled with ``fill``,
    edged ``width`` px in the inner ring of its :func:`~render.style.casing` and wrapped in a
    thin outer ring (:func:`outer_ring` px)."""
    inner, outer = casing(fill)
    cx, cy = centre
    half = size / 2
    ring = outer_ring(size)
    draw.rounded_rectangle(
        (cx - half - ring, cy - half - ring, cx + half + ring, cy + half + ring),
        radius=size * radius + ring,
        fill=outer,
    )
    draw.rounded_rectangle(
        (cx - half, cy - half, cx + half, cy + half),
        radius=size * radius,
        fill=fill,
        outline=inner,
        width=width,
    )


def outer_ring(size: float) -> int:
    """Width in px of the outer ring round a marker or counter of side ``size``."""
    return max(1, round(size * 0.025))


@dataclass(frozen=True)
class CounterFace:
    """What a character counter shows; ``name`` is ``"?"`` for an unknown character."""

    name: str
    power: int = 0
    skill: int = 0
    flies: bool = False
    rangestrikes: bool = False
    hits: int = 0
    slain: bool = False

    @property
    def known(self) -> bool:
        return self.name != UNKNOWN


def face(name: str, *, power: int | None = None, hits: int = 0, slain: bool = False) -> CounterFace:
    """The face of character ``name`` (``power`` overrides, e.g. for a Titan)."""
    if name == UNKNOWN:
        return CounterFace(UNKNOWN)
    found = character(name)
    return CounterFace(
        name,
        found.power if power is None else power,
        found.skill,
        found.flies,
        found.rangestrikes,
        hits,
        slain,
    )


def _fitted(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> tuple[str, int]:
    """``text`` at the largest size ≤ ``size`` (≥ 12) that fits ``width``, else shortened."""
    for candidate in range(size, 11, -1):
        if draw.textlength(text, font=font(candidate)) <= width:
            return text, candidate
    while len(text) > 3 and draw.textlength(text + ".", font=font(12)) > width:
        text = text[:-1]
    return text + ".", 12


def draw_counter(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    size: float,
    counter: CounterFace,
    colour: RGB,
    *,
    tag: str = "",
) -> None:
    """A square character counter of side ``size`` centred on ``centre``; ``tag`` (the
    owner's colour abbreviation, ``Rd``) is drawn on a tab at its upper left corner."""
    cx, cy = centre
    fill = colour if counter.known else UNKNOWN_FILL
    ink = ink_on(fill)
    cased_square(draw, centre, size, fill, radius=0.1, width=max(2, round(size * 0.035)))
    if tag:
        draw_tag(draw, (cx - size / 2, cy - size / 2), size, tag, colour)
    if not counter.known:
        draw.text((cx, cy), UNKNOWN, font=font(round(size * 0.5)), fill=ink, anchor="mm")
        return
    name, name_size = _fitted(draw, counter.name, round(size * 0.2), size * 0.9)
    draw.text((cx, cy - size * 0.3), name, font=font(name_size), fill=ink, anchor="mm")
    factors = f"{counter.power}-{counter.skill}"
    bold = max(1, round(size * 0.015))
    draw.text(
        (cx, cy + size * 0.04),
        factors,
        font=font(round(size * 0.32)),
        fill=ink,
        anchor="mm",
        stroke_width=bold,
        stroke_fill=ink,
    )
    _draw_badges(draw, centre, size, counter, fill)
    if counter.slain:
        _draw_slain(draw, centre, size, fill)


def tag_size(size: float) -> int:
    """Font size of the colour tag of a counter of side ``size``."""
    return round(size * 0.17)


def draw_tag(
    draw: ImageDraw.ImageDraw, corner: Point, size: float, tag: str, fill: RGB
) -> tuple[float, float, float, float]:
    """The owner's colour ``tag`` on a small cased tab over ``corner`` (a counter's upper
    left); returns the tab's box."""
    x, y = corner
    letters = font(tag_size(size))
    left, top, right, bottom = draw.textbbox((0, 0), tag, font=letters, anchor="lt")
    pad = max(2.0, size * 0.04)
    width, height = right - left + 2 * pad, bottom - top + 2 * pad
    box = (x - pad, y - height / 2, x - pad + width, y + height / 2)
    inner, outer = casing(fill)
    ring = outer_ring(size)
    draw.rounded_rectangle(
        (box[0] - ring, box[1] - ring, box[2] + ring, box[3] + ring), 3 + ring, fill=outer
    )
    draw.rounded_rectangle(box, 3, fill=fill, outline=inner, width=1)
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    draw.text(centre, tag, font=letters, fill=ink_on(fill), anchor="mm")
    return box


def _draw_badges(
    draw: ImageDraw.ImageDraw, centre: Point, size: float, counter: CounterFace, fill: RGB
) -> None:
    """F (flies) and R (rangestrikes) at the lower left; damage at the lower right."""
    cx, cy = centre
    radius = max(7.0, size * 0.12)
    y = cy + size / 2 - radius - size * 0.05
    x = cx - size / 2 + radius + size * 0.05
    badge_ink = badge_ink_on(fill)
    for flag, letter in ((counter.flies, "F"), (counter.rangestrikes, "R")):
        if flag:
            draw.ellipse(
                (x - radius, y - radius, x + radius, y + radius), outline=badge_ink, width=2
            )
            draw.text((x, y), letter, font=font(round(radius * 1.3)), fill=badge_ink, anchor="mm")
            x += 2 * radius + size * 0.03
    if counter.hits:
        hx = cx + size / 2 - radius - size * 0.05
        draw.ellipse(
            (hx - radius, y - radius, hx + radius, y + radius),
            fill=DAMAGE,
            outline=mark_casing(fill),
            width=2,
        )
        draw.text(
            (hx, y),
            str(counter.hits),
            font=font(round(radius * 1.4)),
            fill=ink_on(DAMAGE),
            anchor="mm",
        )


def badge_ink_on(fill: RGB) -> RGB:
    """The ink of the F and R badges on a counter of ``fill`` (a shade of the fill's ink)."""
    ink = ink_on(fill)
    return mix(fill, INK, 0.85) if ink == INK else ink


def mark_casing(fill: RGB) -> RGB:
    """The casing of a damage mark (the hits dot, the slain cross) on a counter of
    ``fill``: the tone standing out from the counter, so red marks show on Red and Gold."""
    return casing(fill)[0]


def _draw_slain(draw: ImageDraw.ImageDraw, centre: Point, size: float, fill: RGB) -> None:
    cx, cy = centre
    half = size * 0.42
    width = max(3, round(size * 0.08))
    cross = (
        (cx - half, cy - half, cx + half, cy + half),
        (cx - half, cy + half, cx + half, cy - half),
    )
    for line in cross:
        draw.line(line, fill=mark_casing(fill), width=width + 4)
    for line in cross:
        draw.line(line, fill=DAMAGE, width=width)
