"""Colours, fonts and PNG encoding shared by every picture.

Fonts come from Pillow itself (``ImageFont.load_default(size=...)``, Aileron); the font
has ASCII glyphs only (and the middle dot), so pictures draw their symbols as shapes.
Legibility is measured as the WCAG 2.x contrast ratio (:func:`contrast`): whatever is
drawn stands at least :data:`LEGIBLE` apart from its ground (tests/render/test_contrast.py).
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from engine.errors import InvalidNotation
from engine.markers import colour as named_colour

RGB = tuple[int, int, int]

#: Masterboard terrain colours, in the spirit of the printed board, all distinct.
TERRAIN_COLOURS: dict[str, RGB] = {
    "Brush": (172, 196, 104),
    "Desert": (236, 170, 78),
    "Hills": (196, 132, 82),
    "Jungle": (46, 146, 84),
    "Marsh": (168, 140, 170),
    "Mountains": (170, 92, 78),
    "Plains": (238, 222, 140),
    "Swamp": (78, 110, 96),
    "Tower": (186, 186, 190),
    "Tundra": (200, 228, 238),
    "Woods": (118, 138, 56),
}

#: Player colours (RULES §1.4) as drawn on markers and counters.
PLAYER_COLOURS: dict[str, RGB] = {
    "Black": (34, 34, 38),
    "Blue": (38, 92, 200),
    "Brown": (124, 74, 38),
    "Gold": (232, 188, 40),
    "Green": (36, 138, 60),
    "Red": (200, 36, 36),
}
NEUTRAL: RGB = (120, 120, 120)

#: Battle hex hazards (RULES §8.6); Plain takes the terrain's own colour, lightened.
HAZARD_COLOURS: dict[str, RGB] = {
    "Tree": (58, 120, 52),
    "Bramble": (128, 150, 70),
    "Bog": (110, 104, 70),
    "Sand": (240, 206, 120),
    "Drift": (244, 250, 255),
    "Volcano": (214, 78, 40),
    "Tower": (170, 170, 176),
}
HEXSIDE_COLOURS: dict[str, RGB] = {
    "Slope": (110, 66, 30),
    "Wall": (60, 60, 66),
    "Cliff": (40, 28, 20),
    "Dune": (196, 140, 40),
}

INK: RGB = (24, 24, 28)
PAPER: RGB = (250, 250, 246)
BACKGROUND: RGB = (44, 52, 62)
STRIP: RGB = (32, 38, 46)
SIGN: RGB = (22, 22, 26)
SIGN_HALO: RGB = (255, 255, 255)
LAST_MOVE: RGB = (255, 255, 255)
TELEPORT: RGB = (190, 90, 255)
ENGAGED: RGB = (230, 20, 20)
REACHABLE: RGB = (255, 236, 0)
HIGHLIGHT: RGB = (0, 220, 255)
DAMAGE: RGB = (220, 20, 20)

MIN_FONT = 12
LEGIBLE = 3.0
"""The least WCAG contrast ratio of a marker, a text or an edge against its ground."""
PNG_LEVEL = 4
"""zlib level of every PNG: the smallest files within the masterboard's 60 ms (bench/render.py)."""


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's own font at ``size`` px, never below 12 px (bars of issue 5)."""
    loaded = ImageFont.load_default(size=max(MIN_FONT, size))
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - old Pillow
        raise RuntimeError("Pillow ≥ 10.1 with FreeType is needed for scalable fonts")
    return loaded


def luminance(rgb: RGB) -> float:
    """Perceived brightness 0–255."""
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


def ink_on(rgb: RGB) -> RGB:
    """Dark or light ink, whichever reads better on ``rgb``."""
    return INK if luminance(rgb) > 140 else PAPER


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2.x relative luminance of an sRGB colour, 0 (black) to 1 (white)."""

    def linear(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2.x contrast ratio of two colours, 1 (same) to 21 (black on white)."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def casing(fill: RGB) -> tuple[RGB, RGB]:
    """The two rings round a shape filled with ``fill``: (inner, outer).

    The inner ring is the light or dark tone (PAPER, INK) that stands out more from
    ``fill``, the outer ring the other one. Every ground contrasts at least 4:1 with one of
    the two tones, so a cased shape (a Black marker on the dark background, a Gold one on
    Desert) is seen on any ground while keeping its own colour inside.
    """
    if contrast(PAPER, fill) >= contrast(INK, fill):
        return PAPER, INK
    return INK, PAPER


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` toward ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def player_rgb(colour: str | None) -> RGB:
    """The drawing colour of a player colour name (grey when unknown or unchosen)."""
    return PLAYER_COLOURS.get(colour or "", NEUTRAL)


def player_tag(colour: str | None) -> str:
    """A player colour's abbreviation (``Bk`` for Black, as on its markers), drawn next to
    the colour so that no one has to tell players apart by hue alone; ``""`` when unknown."""
    try:
        return named_colour(colour or "").abbrev
    except InvalidNotation:
        return ""


def palette_image(image: Image.Image) -> Image.Image:
    """``image`` in palette mode: exact when it has at most 256 colours; else each pixel
    becomes the nearest of 256 colours chosen (fast octree) from every other pixel of
    every other row, which is twice as fast as choosing them from every pixel and no less
    faithful (tests bound the error per pixel)."""
    if image.mode == "P":
        return image
    rgb = image.convert("RGB")
    if rgb.getcolors(256) is not None:
        return rgb.quantize(colors=256, method=Image.Quantize.MAXCOVERAGE)
    sample = rgb.resize((max(1, rgb.width // 2), max(1, rgb.height // 2)), Image.Resampling.NEAREST)
    palette = sample.quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, *, palette: bool = True) -> bytes:
    """``image`` as PNG: a palette PNG (:func:`palette_image`), or true colour with
    ``palette=False`` (for a picture of smooth gradients)."""
    buffer = io.BytesIO()
    encoded = palette_image(image) if palette else image
    encoded.save(buffer, format="PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


def bold_text(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """``text`` in a heavier weight (the font has one weight: stroked in its own ink)."""
    stroke = max(1, round(size / 28))
    draw.text(
        at, text, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill
    )
