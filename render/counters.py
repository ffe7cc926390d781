"""Legion markers and character counters, shared by every picture.

A marker shows its id and the legion's height (public, RULES §3.3); a character counter
its name, Power-Skill, flyer (F) and rangestriker (R) badges and the damage taken.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from engine.characters import character
from render.geometry import Point
from render.style import DAMAGE, INK, PAPER, RGB, font, ink_on, mix

UNKNOWN = "?"
UNKNOWN_FILL: RGB = (150, 150, 156)


def draw_marker(
    draw: ImageDraw.ImageDraw, centre: Point, size: float, marker: str, height: int, fill: RGB
) -> None:
    """A legion marker: a rounded square in the owner's colour, id above, height below."""
    cx, cy = centre
    half = size / 2
    box = (cx - half, cy - half, cx + half, cy + half)
    ink = ink_on(fill)
    edge = PAPER if ink == PAPER else INK
    draw.rounded_rectangle(
        box, radius=size * 0.16, fill=fill, outline=edge, width=max(2, round(size * 0.05))
    )
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
    draw: ImageDraw.ImageDraw, centre: Point, size: float, counter: CounterFace, colour: RGB
) -> None:
    """A square character counter of side ``size`` centred on ``centre``."""
    cx, cy = centre
    half = size / 2
    fill = colour if counter.known else UNKNOWN_FILL
    ink = ink_on(fill)
    draw.rounded_rectangle(
        (cx - half, cy - half, cx + half, cy + half),
        radius=size * 0.1,
        fill=fill,
        outline=mix(fill, INK, 0.6),
        width=max(2, round(size * 0.035)),
    )
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
        _draw_slain(draw, centre, size)


def _draw_badges(
    draw: ImageDraw.ImageDraw, centre: Point, size: float, counter: CounterFace, fill: RGB
) -> None:
    """F (flies) and R (rangestrikes) at the lower left; damage at the lower right."""
    cx, cy = centre
    radius = max(7.0, size * 0.12)
    y = cy + size / 2 - radius - size * 0.05
    x = cx - size / 2 + radius + size * 0.05
    badge_ink = mix(fill, INK, 0.85) if ink_on(fill) == INK else PAPER
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
            (hx - radius, y - radius, hx + radius, y + radius), fill=DAMAGE, outline=PAPER, width=1
        )
        draw.text(
            (hx, y), str(counter.hits), font=font(round(radius * 1.4)), fill=PAPER, anchor="mm"
        )


def _draw_slain(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    cx, cy = centre
    half = size * 0.42
    width = max(3, round(size * 0.08))
    draw.line((cx - half, cy - half, cx + half, cy + half), fill=DAMAGE, width=width)
    draw.line((cx - half, cy + half, cx + half, cy - half), fill=DAMAGE, width=width)
