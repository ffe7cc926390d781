"""Bytes and median render + encode CPU time of each picture over 20 runs (issue 5 targets),
with today's encoding (``png_bytes``) against the encoding before issue 23 and a lossless
WebP of the same palette picture.

Run: ``.venv/bin/python bench/render.py``. Static layers are warmed up first, as in a
running bot. Targets on a 2-core machine: masterboard ≤ 60 ms (also with where every
legion may go after a roll of 6, teleports included, reach computed), battleland ≤ 30 ms,
legion card ≤ 10 ms (with today's encoding). The time is the CPU time of this process
(the work is single-threaded): on a quiet machine it is the wall time, and it does not
grow when other work shares the cores.

*before*: zlib level 1, a 256-colour palette for the boards and true colour for the
cards; *now*: :func:`render.style.png_bytes` (a palette PNG, exact when the picture has
≤ 256 colours, at zlib level 4); *webp*: lossless WebP (fastest method) of the palette
picture, for comparison (Discord shows both inline; slower WebP methods are smaller
still, but take 3–5 times the time budget on the masterboard).
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PIL import Image

RUNS = 20
HERE = Path(__file__).resolve().parent

Encoder = Callable[[Image.Image], bytes]


def before(palette: bool) -> Encoder:
    """The encoding before issue 23: zlib level 1, a fast palette only for the boards."""

    def encode(image: Image.Image) -> bytes:
        if palette:
            image = image.quantize(
                colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        return buffer.getvalue()

    return encode


def webp(image: Image.Image) -> bytes:
    from render.style import palette_image

    buffer = io.BytesIO()
    palette_image(image).convert("RGB").save(
        buffer, format="WEBP", lossless=True, method=0, quality=0
    )
    return buffer.getvalue()


def median_ms(job: Callable[[], bytes]) -> tuple[float, int]:
    """Median CPU time in ms over ``RUNS`` runs (after one warm-up) and the size in bytes."""
    size = len(job())
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        job()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), size


def timed(draw: Callable[[], Image.Image], encode: Encoder) -> tuple[float, int]:
    """:func:`median_ms` of drawing a picture and encoding it with ``encode``."""
    return median_ms(lambda: encode(draw()))


def main() -> None:
    # Run as a script, this file's folder comes first on sys.path and its name would
    # shadow the render package: import from the repository root instead.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    sys.path.insert(0, str(HERE.parent))
    from engine.battle.position import Side
    from engine.game.reach import reach
    from render.battleland import battleland_image
    from render.demo import demo_position, demo_state
    from render.legions import legion_card, legions_sheet, public_legion
    from render.masterboard import masterboard
    from render.style import png_bytes

    state = demo_state()
    rolled = replace(state, turn=replace(state.turn, roll=6, moves=()))  # teleports too
    red = state.legion("Rd01")
    position, striker, target = demo_position("Mountains")
    chosen = next(f for f in position.fighters if f.side is Side.ATTACKER)
    # name: (draw the picture, target ms, whether it was a palette PNG before)
    jobs: dict[str, tuple[Callable[[], Image.Image], float, bool]] = {
        "masterboard": (lambda: masterboard(state, reachable={1, 3, 101}), 60, True),
        "board + moves": (lambda: masterboard(rolled, reach=reach(rolled, 0)), 60, True),
        "battleland": (
            lambda: battleland_image(
                position, entry_side=3, turn=3, last_strike=(striker, target), selected=chosen.hex
            ),
            30,
            True,
        ),
        "legion card": (lambda: legion_card(red.marker, red.characters, score=412), 10, False),
        "public legion": (
            lambda: public_legion(red.marker, red.height, red.revealed),
            10,
            False,
        ),
        "my legions": (lambda: legions_sheet(state, 0), 30, False),
    }
    print(f"{'':14} {'before':>18}  {'now':>18}  {'webp':>18}  target")
    for name, (draw, target_ms, palette) in jobs.items():
        cells = [timed(draw, encode) for encode in (before(palette), png_bytes, webp)]
        verdict = "ok" if cells[1][0] <= target_ms else "SLOW"
        shown = "  ".join(f"{ms:6.1f} ms {size / 1024:6.1f} KiB" for ms, size in cells)
        saved = 1 - cells[1][1] / cells[0][1]
        print(f"{name:14} {shown}  {target_ms:4.0f} ms {verdict}  ({saved:.0%} fewer bytes)")


if __name__ == "__main__":
    main()
