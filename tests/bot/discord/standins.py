"""What a test's bot runs with in place of the real thing: the seed of its games and a
tiny picture for every drawing (shared by the fixtures and the bot processes, which must
not import pytest)."""

from __future__ import annotations

import io

from PIL import Image

from bot.replies import Picture

SEED = 42


def tiny_png(picture: Picture) -> bytes:
    """A real (small) PNG standing in for the renderer's pictures."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (120, 80, 40)).save(out, format="PNG")
    return out.getvalue()
