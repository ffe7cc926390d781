"""The harness's positions can be written again under other dice, nothing else changed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "cleverbot_dice.py"

POSITIONS = {
    "harvested": 3,
    "usable": 2,
    "positions": [
        {"id": "pos000", "terrain": "Brush", "attacker": ["Titan", "Ogre"], "dice_seed": 7},
        {"id": "pos001", "terrain": "Tower", "attacker": ["Angel"], "dice_seed": 4_294_967_000},
    ],
}


def run(tmp_path: Path, k: int) -> dict[str, object]:
    source = tmp_path / "positions.json"
    source.write_text(json.dumps(POSITIONS))
    out = tmp_path / f"dice{k}.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(source), str(k), "-o", str(out)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == f"2 positions, dice {k}: {out}"
    found: dict[str, object] = json.loads(out.read_text())
    return found


def test_every_seed_moves_by_its_shift_and_the_rest_stays(tmp_path):
    found = run(tmp_path, 2)
    moved = found["positions"]
    assert isinstance(moved, list)
    assert [p["dice_seed"] for p in moved] == [7 + 2_000_006, 4_294_967_000 + 2_000_006]
    for before, after in zip(POSITIONS["positions"], moved, strict=True):
        assert {**after, "dice_seed": before["dice_seed"]} == before
    assert {k: v for k, v in found.items() if k != "positions"} == {"harvested": 3, "usable": 2}


def test_the_files_own_dice_are_dice_zero(tmp_path):
    assert run(tmp_path, 0) == POSITIONS
