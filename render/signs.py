"""The four masterboard signs (RULES §2.2) as polygons, drawn on a land's side of a border.

Shapes are given in units of the board's ``s`` in a local frame: ``u`` runs along the
hexside, ``v`` points out of the land (toward the land the exit leads to).
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from engine.masterboard import Sign
from render.geometry import Point
from render.style import SIGN, SIGN_HALO

Shape = list[tuple[float, float]]


def _arch() -> Shape:
    outer, inner, foot = 0.62, 0.3, 0.38
    steps = 10
    shape: Shape = [(outer, foot)]
    shape += [
        (outer * math.cos(math.pi * i / steps), -outer * math.sin(math.pi * i / steps))
        for i in range(steps + 1)
    ]
    shape += [(-outer, foot), (-inner, foot)]
    shape += [
        (-inner * math.cos(math.pi * i / steps), -inner * math.sin(math.pi * i / steps))
        for i in range(steps + 1)
    ]
    shape.append((inner, foot))
    return shape


def _triangle(u: float, half: float, base: float, tip: float) -> Shape:
    return [(u - half, base), (u, tip), (u + half, base)]


SHAPES: dict[Sign, list[Shape]] = {
    Sign.BLOCK: [[(-0.62, -0.28), (0.62, -0.28), (0.62, 0.3), (-0.62, 0.3)]],
    Sign.ARCH: [_arch()],
    Sign.ARROW: [_triangle(0.0, 0.5, -0.34, 0.4)],
    Sign.ARROWS: [_triangle(u, 0.22, -0.3, 0.36) for u in (-0.56, 0.0, 0.56)],
}


#: A local point inside each sign's ink (the arch's is in its dome), for tests and checks.
PROBES: dict[Sign, tuple[float, float]] = {
    Sign.BLOCK: (0.0, 0.0),
    Sign.ARCH: (0.0, -0.46),
    Sign.ARROW: (0.0, 0.0),
    Sign.ARROWS: (0.0, 0.0),
}


def place(shape: Shape, anchor: Point, along: Point, out: Point, s: float) -> list[Point]:
    """A local shape turned into pixel points at ``anchor``."""
    (ax, ay), (ux, uy), (nx, ny) = anchor, along, out
    return [(ax + (u * ux + v * nx) * s, ay + (u * uy + v * ny) * s) for u, v in shape]


def draw_sign(
    draw: ImageDraw.ImageDraw, sign: Sign, anchor: Point, along: Point, out: Point, s: float
) -> None:
    """Draw ``sign`` centred on ``anchor``, pointing along ``out``, with a light halo."""
    halo = max(2, round(s * 0.12))
    for shape in SHAPES[sign]:
        points = place(shape, anchor, along, out, s)
        draw.polygon(points, fill=SIGN_HALO)
        draw.line([*points, points[0]], fill=SIGN_HALO, width=2 * halo, joint="curve")
    for shape in SHAPES[sign]:
        draw.polygon(place(shape, anchor, along, out, s), fill=SIGN)
