"""Lighter uploads (issue 23): every picture is a palette PNG at a fraction of the bytes of
a true-colour one, exact when it has at most 256 colours, otherwise within a small error
of the drawn picture on every pixel."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.battle.position import Side
from render.battleland import battleland_image
from render.demo import demo_position, demo_state
from render.legions import legion_card, legions_sheet, public_legion
from render.masterboard import masterboard
from render.style import palette_image, png_bytes
from tests.render.helpers import PNG_SIGNATURE, decode


def pictures() -> dict[str, Image.Image]:
    state = demo_state()
    red = state.legion("Rd01")
    position, striker, target = demo_position("Mountains")
    chosen = next(f for f in position.fighters if f.side is Side.ATTACKER)
    return {
        "masterboard": masterboard(state, reachable={1, 3, 101}),
        "battleland": battleland_image(
            position, entry_side=3, turn=3, last_strike=(striker, target), selected=chosen.hex
        ),
        "legion card": legion_card(red.marker, red.characters, score=412),
        "public legion": public_legion(red.marker, red.height, red.revealed),
        "my legions": legions_sheet(state, 0),
    }


PICTURES = pictures()


def true_colour_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


@pytest.mark.parametrize("name", list(PICTURES))
def test_a_picture_is_a_palette_png_close_to_what_was_drawn(name: str) -> None:
    drawn = PICTURES[name]
    encoded = png_bytes(drawn)
    assert encoded.startswith(PNG_SIGNATURE)
    assert Image.open(io.BytesIO(encoded)).mode == "P"
    decoded = decode(encoded)
    assert decoded.size == drawn.size
    difference = ImageChops.difference(drawn.convert("RGB"), decoded)
    assert max(high for _, high in difference.getextrema()) <= 48  # no pixel far off
    worst = difference.convert("L").histogram()
    pixels = drawn.width * drawn.height
    assert sum(worst[17:]) <= pixels / 1000  # hardly any visibly off
    assert sum(i * n for i, n in enumerate(worst)) / pixels < 2  # on average invisible
    assert len(encoded) < 0.8 * len(true_colour_png(drawn))


def test_a_picture_of_at_most_256_colours_is_kept_exactly() -> None:
    rng = random.Random(7)
    image = Image.new("RGB", (320, 200), (44, 52, 62))
    draw = ImageDraw.Draw(image)
    colours = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(255)]
    for i, colour in enumerate(colours):
        x, y = (i % 20) * 16, (i // 20) * 15
        draw.rectangle((x, y, x + 15, y + 14), fill=colour)
    assert 250 <= len(image.getcolors(256) or ()) <= 256
    assert ImageChops.difference(image, decode(png_bytes(image))).getbbox() is None
    assert palette_image(image).mode == "P"


def test_true_colour_on_request_is_lossless() -> None:
    drawn = PICTURES["legion card"]
    encoded = png_bytes(drawn, palette=False)
    assert Image.open(io.BytesIO(encoded)).mode == "RGB"
    assert ImageChops.difference(drawn, decode(encoded)).getbbox() is None
