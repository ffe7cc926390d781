"""Median render + PNG encode time of each picture over 20 runs (issue 5 targets).

Run: ``.venv/bin/python bench/render.py``. Static layers are warmed up first, as in a
running bot. Targets on a 2-core machine: masterboard ≤ 60 ms (also with where every
legion may go after a roll of 6, teleports included, reach computed), battleland ≤ 30 ms,
legion card ≤ 10 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

RUNS = 20
HERE = Path(__file__).resolve().parent


def median_ms(job: Callable[[], bytes]) -> tuple[float, int]:
    """Median wall time in ms over ``RUNS`` runs (after one warm-up) and the PNG size."""
    size = len(job())
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        job()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), size


def main() -> None:
    # Run as a script, this file's folder comes first on sys.path and its name would
    # shadow the render package: import from the repository root instead.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    sys.path.insert(0, str(HERE.parent))
    from engine.battle.position import Side
    from engine.game.reach import reach
    from render.battleland import battleland_png
    from render.demo import demo_position, demo_state
    from render.legions import legion_card_png, legions_sheet_png, public_legion_png
    from render.masterboard import masterboard_png

    state = demo_state()
    rolled = replace(state, turn=replace(state.turn, roll=6, moves=()))  # teleports too
    red = state.legion("Rd01")
    position, striker, target = demo_position("Mountains")
    chosen = next(f for f in position.fighters if f.side is Side.ATTACKER)
    jobs: dict[str, tuple[Callable[[], bytes], float]] = {
        "masterboard": (lambda: masterboard_png(state, reachable={1, 3, 101}), 60),
        "board + moves": (lambda: masterboard_png(rolled, reach=reach(rolled, 0)), 60),
        "battleland": (
            lambda: battleland_png(
                position, entry_side=3, turn=3, last_strike=(striker, target), selected=chosen.hex
            ),
            30,
        ),
        "legion card": (lambda: legion_card_png(red.marker, red.characters, score=412), 10),
        "public legion": (lambda: public_legion_png(red.marker, red.height, red.revealed), 10),
        "my legions": (lambda: legions_sheet_png(state, 0), 30),
    }
    for name, (job, target_ms) in jobs.items():
        ms, size = median_ms(job)
        verdict = "ok" if ms <= target_ms else "SLOW"
        print(
            f"{name:14} {ms:7.1f} ms  (target {target_ms:.0f})  {size / 1024:7.0f} KiB  {verdict}"
        )


if __name__ == "__main__":
    main()
