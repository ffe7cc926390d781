"""A battleland's static layer: hexes, hazards, elevations and hexside hazards (RULES §8).

Oriented as errata 2.0 holds the map: terrain name at the upper right, turn track at the
bottom; above the map a header band tells who fights whom (drawn per picture by
:mod:`render.battle_header`). Drawn once per (terrain, size) at twice the resolution,
scaled down and cached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.battleland import LABELS, BattleHex, battleland
from render.geometry import HexFrame, Point
from render.style import (
    BACKGROUND,
    HAZARD_COLOURS,
    HEXSIDE_COLOURS,
    INK,
    PAPER,
    RGB,
    STRIP,
    TERRAIN_COLOURS,
    bold_text,
    font,
    ink_on,
    mix,
)

DEFAULT_WIDTH = 760
HEADER_SHARE = 1.9
"""Height of the header band, in hex radii."""
SUPERSAMPLE = 2
GRID: RGB = (60, 60, 60)
GROUND: RGB = (236, 230, 212)


@dataclass(frozen=True)
class BattleLayout:
    """Canvas of a battleland picture: header band, map, turn track and legend."""

    width: int
    height: int
    frame: HexFrame
    track_top: float
    header_height: float = 0.0
    """The band at the top that names the two sides (:mod:`render.battle_header`)."""


@cache
def battle_layout(width: int = DEFAULT_WIDTH) -> BattleLayout:
    """The layout of a battleland picture ``width`` px wide (at least 400)."""
    width = max(400, width)
    r = width / 11.2
    left = (width - 9.5 * r) / 2
    header = HEADER_SHARE * r
    top = header + 1.0 * r  # room for the characters waiting by a top edge
    frame = HexFrame(r, left, top)
    track_top = top + frame.map_height + 0.8 * r
    height = round(track_top + 1.95 * r)
    return BattleLayout(width, height, frame, track_top, header)


def hex_fill(terrain: str, hexagon: BattleHex) -> RGB:
    """A hex's colour: its hazard's, or the terrain's own (lightened) for Plain; darker
    for each level of elevation."""
    base = HAZARD_COLOURS.get(hexagon.hazard) or mix(TERRAIN_COLOURS[terrain], GROUND, 0.5)
    return mix(base, (70, 45, 25), 0.2 * hexagon.elevation)


@lru_cache(maxsize=44)  # 11 terrains at a few sizes; each image is ~2 MB
def battle_base(terrain: str, width: int = DEFAULT_WIDTH) -> Image.Image:
    """The static layer of ``terrain``'s battleland (do not draw on it)."""
    lay = battle_layout(width)
    k = SUPERSAMPLE
    big = Image.new("RGB", (lay.width * k, lay.height * k), BACKGROUND)
    draw = ImageDraw.Draw(big)
    frame = HexFrame(lay.frame.r * k, lay.frame.left * k, lay.frame.top * k)
    land = battleland(terrain)
    for label in LABELS:
        _draw_hex(draw, frame, terrain, land.hexes[label])
    for label in LABELS:
        for side, hazard in enumerate(land.hexes[label].hexsides):
            if hazard is not None:
                draw_hexside(draw, frame, label, side, hazard)
    draw.rectangle((0, 0, big.width, round(lay.header_height * k)), fill=STRIP)
    # Each pixel the mean of its k × k samples: as smooth as a Lanczos filter, with no
    # ringing, so far fewer colours (a palette PNG a quarter smaller).
    return big.reduce(k)


def draw_terrain_name(draw: ImageDraw.ImageDraw, lay: BattleLayout, terrain: str) -> None:
    """The terrain's name at the upper right of the map, below the header band (a picture
    with a header names it there instead)."""
    r = lay.frame.r
    at = (lay.width - 0.3 * r, lay.header_height + 0.15 * r)
    size = round(0.5 * r)
    draw.text(at, terrain.upper(), font=font(size), fill=PAPER, anchor="ra", stroke_width=1,
              stroke_fill=PAPER)  # fmt: skip


def _draw_hex(draw: ImageDraw.ImageDraw, frame: HexFrame, terrain: str, hexagon: BattleHex) -> None:
    """Fill, a raised rim per level of elevation, the hazard's icon, label and caption."""
    corners = frame.corners(hexagon.label)
    fill = hex_fill(terrain, hexagon)
    draw.polygon(corners, fill=fill)
    r = frame.r
    for level in range(hexagon.elevation):
        ring = frame.corners(hexagon.label, shrink=r * (0.2 + 0.1 * level))
        rim = max(2, round(r * 0.035))
        draw.line([*ring, ring[0]], fill=mix(fill, INK, 0.3), width=rim, joint="curve")
    draw.line([*corners, corners[0]], fill=GRID, width=max(2, round(r * 0.03)), joint="curve")
    _draw_icon(draw, frame.centre(hexagon.label), r, hexagon.hazard, fill)
    cx, cy = frame.centre(hexagon.label)
    ink = ink_on(fill)
    bold_text(draw, (cx, cy - 0.6 * r), hexagon.label, round(0.2 * r), ink, "mm")
    _draw_caption(draw, (cx, cy + 0.6 * r), r, hexagon, ink)


def _draw_caption(
    draw: ImageDraw.ImageDraw, at: Point, r: float, hexagon: BattleHex, ink: RGB
) -> None:
    """The hazard's name and, for a raised hex, a small peak and its elevation."""
    x, y = at
    words = "" if hexagon.hazard == "Plain" else hexagon.hazard
    small = font(round(0.18 * r))
    if not hexagon.elevation:
        if words:
            draw.text((x, y), words, font=small, fill=ink, anchor="mm")
        return
    words = f"{words} " if words else ""
    h = 0.17 * r
    x -= (draw.textlength(words, font=small) + h + 0.15 * r) / 2
    draw.text((x, y), words, font=small, fill=ink, anchor="lm")
    x += draw.textlength(words, font=small)
    draw.polygon([(x, y + h / 2), (x + h / 2, y - h / 2), (x + h, y + h / 2)], fill=ink)
    draw.text((x + h + 0.02 * r, y), str(hexagon.elevation), font=small, fill=ink, anchor="lm")


def _draw_icon(draw: ImageDraw.ImageDraw, centre: Point, r: float, hazard: str, fill: RGB) -> None:
    """A small picture of the hex hazard in the middle of the hex."""
    cx, cy = centre
    dark = mix(fill, INK, 0.45)
    if hazard == "Tree":
        for dx in (-0.22, 0.22):
            x = cx + dx * r
            draw.polygon(
                [(x, cy - 0.42 * r), (x - 0.2 * r, cy + 0.05 * r), (x + 0.2 * r, cy + 0.05 * r)],
                fill=dark,
            )
            draw.rectangle(
                (x - 0.04 * r, cy + 0.05 * r, x + 0.04 * r, cy + 0.22 * r), fill=(90, 60, 30)
            )
    elif hazard == "Volcano":
        draw.polygon(
            [
                (cx - 0.4 * r, cy + 0.25 * r),
                (cx - 0.1 * r, cy - 0.3 * r),
                (cx + 0.1 * r, cy - 0.3 * r),
                (cx + 0.4 * r, cy + 0.25 * r),
            ],
            fill=(110, 40, 20),
        )
        draw.ellipse((cx - 0.1 * r, cy - 0.4 * r, cx + 0.1 * r, cy - 0.24 * r), fill=(255, 200, 40))
    elif hazard in ("Bramble", "Drift", "Sand", "Bog"):
        _draw_pattern(draw, centre, r, hazard, dark)
    elif hazard == "Tower":
        for row in range(3):
            y = cy - 0.3 * r + row * 0.2 * r
            draw.line((cx - 0.4 * r, y, cx + 0.4 * r, y), fill=dark, width=max(1, round(r * 0.03)))
            for col in range(4):
                x = cx - 0.4 * r + (col + (row % 2) * 0.5) * 0.2 * r
                draw.line((x, y, x, y + 0.2 * r), fill=dark, width=max(1, round(r * 0.03)))


def _draw_pattern(
    draw: ImageDraw.ImageDraw, centre: Point, r: float, hazard: str, ink: RGB
) -> None:
    """Scattered marks: thorns (Bramble), flakes (Drift), dots (Sand), reeds (Bog)."""
    cx, cy = centre
    spots = [
        (-0.3, -0.3),
        (0.3, -0.3),
        (0.0, -0.05),
        (-0.32, 0.22),
        (0.32, 0.22),
        (0.0, 0.4),
        (-0.55, 0),
        (0.55, 0),
    ]
    w = max(1, round(r * 0.035))
    for dx, dy in spots:
        x, y = cx + dx * r, cy + dy * r
        m = 0.08 * r
        if hazard == "Bramble":
            draw.line((x - m, y - m, x + m, y + m), fill=ink, width=w)
            draw.line((x - m, y + m, x + m, y - m), fill=ink, width=w)
        elif hazard == "Drift":
            for angle in (0, 60, 120):
                c, s = math.cos(math.radians(angle)) * m, math.sin(math.radians(angle)) * m
                draw.line((x - c, y - s, x + c, y + s), fill=(120, 150, 190), width=w)
        elif hazard == "Sand":
            draw.ellipse((x - m / 2, y - m / 2, x + m / 2, y + m / 2), fill=ink)
        else:
            draw.line((x - m, y + m / 2, x, y - m / 2, x + m, y + m / 2), fill=ink, width=w)


def hexside_anchor(frame: HexFrame, label: str, side: int) -> tuple[Point, Point]:
    """(start, end) of the band a hexside hazard is drawn on: just inside the owner hex."""
    return frame.side(label, side, shrink=frame.r * 0.075)


def draw_hexside(
    draw: ImageDraw.ImageDraw, frame: HexFrame, label: str, side: int, hazard: str
) -> None:
    """A Slope, Wall, Cliff or Dune on ``label``'s side ``side`` (the upper hex's side)."""
    (x1, y1), (x2, y2) = hexside_anchor(frame, label, side)
    r = frame.r
    colour = HEXSIDE_COLOURS[hazard]
    band = max(3, round(r * (0.13 if hazard in ("Wall", "Cliff") else 0.1)))
    draw.line((x1, y1, x2, y2), fill=colour, width=band)
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = uy, -ux  # pointing out of the hex (corners run clockwise on screen)
    ticks = 5
    for i in range(ticks):
        t = (i + 0.5) / ticks
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        _decorate(draw, hazard, (px, py), (ux, uy), (nx, ny), r, colour)


def _decorate(
    draw: ImageDraw.ImageDraw,
    hazard: str,
    at: Point,
    along: Point,
    out: Point,
    r: float,
    colour: RGB,
) -> None:
    (px, py), (ux, uy), (nx, ny) = at, along, out
    if hazard == "Slope":  # hachures pointing downhill, out of the upper hex
        draw.polygon(
            [
                (px - ux * 0.06 * r, py - uy * 0.06 * r),
                (px + ux * 0.06 * r, py + uy * 0.06 * r),
                (px + nx * 0.14 * r, py + ny * 0.14 * r),
            ],
            fill=colour,
        )
    elif hazard == "Wall":  # merlons on the outer face
        m = 0.05 * r
        cx, cy = px + nx * 0.1 * r, py + ny * 0.1 * r
        draw.polygon(
            [
                (cx - ux * m - nx * m, cy - uy * m - ny * m),
                (cx + ux * m - nx * m, cy + uy * m - ny * m),
                (cx + ux * m + nx * m, cy + uy * m + ny * m),
                (cx - ux * m + nx * m, cy - uy * m + ny * m),
            ],
            fill=colour,
        )
    elif hazard == "Cliff":  # long jagged teeth
        draw.polygon(
            [
                (px - ux * 0.08 * r, py - uy * 0.08 * r),
                (px + ux * 0.08 * r, py + uy * 0.08 * r),
                (px + nx * 0.17 * r, py + ny * 0.17 * r),
            ],
            fill=colour,
        )
    else:  # Dune: sand ripples
        q = 0.07 * r
        draw.arc(
            (px - q, py - q, px + q, py + q),
            0,
            360,
            fill=(120, 80, 20),
            width=max(1, round(r * 0.025)),
        )
