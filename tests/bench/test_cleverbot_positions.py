"""One run of the CleverBot battles sorts its positions by who won them in each seat, and
sets titanbot's defence beside CleverBot's by the ratio of the legions' values."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "cleverbot_positions.py"

#: position → (winner with titanbot attacking, winner with titanbot defending, the values
#: at the start when titanbot defends: titanbot's, CleverBot's)
RUN: dict[str, tuple[str | None, str | None, tuple[int, int]]] = {
    "pos0": ("titanbot", "cleverbot", (60, 100)),  # the attacker's
    "pos1": ("cleverbot", "cleverbot", (90, 100)),  # CleverBot's
    "pos2": ("titanbot", "titanbot", (95, 100)),  # titanbot's
    "pos3": ("cleverbot", "titanbot", (130, 100)),  # the defender's
    "pos4": ("titanbot", None, (200, 100)),  # drawn
}


def write(path: Path, run: dict[str, tuple[str | None, str | None, tuple[int, int]]]) -> Path:
    lines = []
    for pos, (attacking, defending, (ours, theirs)) in run.items():
        for role, winner, values in (
            ("attacker", attacking, {"titanbot": theirs, "cleverbot": ours}),
            ("defender", defending, {"titanbot": ours, "cleverbot": theirs}),
        ):
            row = {
                "id": pos,
                "titan_side": role,
                "end": "legion wiped out",
                "winner": winner,
                "error": None,
                "start_value": values,
            }
            lines.append(json.dumps(row) + "\n")
    path.write_text("".join(lines))
    return path


def test_positions_are_sorted_by_who_won_in_each_seat(tmp_path):
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from cleverbot_positions import by_ratio, kinds, rows
    finally:
        sys.path.remove(str(SCRIPT.parent))
    found = rows([write(tmp_path / "run.jsonl", RUN)])
    assert kinds(found) == {
        "the attacker's": 1,
        "CleverBot's": 1,
        "titanbot's": 1,
        "the defender's": 1,
        "drawn": 1,
    }
    # a ratio on a bucket's edge (0.6) opens that bucket; 2.0 falls in the last one
    assert by_ratio(found) == {
        0.6: (1, 0.0, 0.0),
        0.8: (2, 0.5, 0.5),
        1.2: (1, 1.0, 1.0),
        1.6: (1, 0.5, 0.0),
    }


def test_the_script_prints_the_kinds_and_the_buckets(tmp_path):
    run = write(tmp_path / "run.0.jsonl", RUN)
    out = subprocess.run(
        [sys.executable, str(SCRIPT), str(run)], capture_output=True, text=True, check=True
    ).stdout
    assert "5 positions fought in both roles:" in out
    assert "the attacker's  1" in out
    assert "0.8–1.0     2 positions: titanbot  50.0 %, CleverBot  50.0 %" in out
    assert "1.6+        1 positions: titanbot  50.0 %, CleverBot   0.0 %" in out
