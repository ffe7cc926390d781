"""Shared helpers of the render tests: decoding PNGs and comparing colours."""

from __future__ import annotations

import io

from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 2 * 1024 * 1024


def decode(png: bytes) -> Image.Image:
    """A PNG's pixels as RGB (checks it is a PNG under 2 MB)."""
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < MAX_BYTES
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def near(actual: tuple[int, ...], expected: tuple[int, int, int], tolerance: int = 14) -> bool:
    """Colours equal up to palette rounding."""
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=False))


def pixel(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    value = image.getpixel((round(x), round(y)))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]
