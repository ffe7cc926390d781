"""The harness's battle positions under other dice (issue 24).

Run: ``python bench/cleverbot_dice.py POSITIONS K -o OUT``: a copy of the positions file
with every position's ``dice_seed`` shifted by ``K`` times a large prime, for
``bench/cleverbot.py LEVEL battles run OUT``. The same positions fought with other dice give
more battles to compare two versions by: one run's defender score moves about three points
either way with the dice alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

#: The shift of a position's dice seed for each further dice (any integer seeds both the
#: engine's dice and Slugathon's generator in the harness, so a seed may pass 2**32).
DICE_SHIFT = 1_000_003


def shifted(positions: dict[str, Any], k: int) -> dict[str, Any]:
    """``positions`` (the harness's file, read) with every dice seed shifted ``k`` times."""
    moved = [{**p, "dice_seed": p["dice_seed"] + k * DICE_SHIFT} for p in positions["positions"]]
    return {**positions, "positions": moved}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", type=Path)
    parser.add_argument("k", type=int, help="which dice: 0 the file's own, 1, 2, ... others")
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    found = json.loads(args.positions.read_text())
    args.out.write_text(json.dumps(shifted(found, args.k), indent=1) + "\n")
    print(f"{len(found['positions'])} positions, dice {args.k}: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
