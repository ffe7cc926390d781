"""Two runs of the CleverBot battles are compared battle by battle, per role."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "cleverbot_compare.py"


def write(path: Path, results: dict[tuple[str, str], str | None]) -> Path:
    rows = [
        {"id": pos, "titan_side": role, "end": "legion wiped out", "winner": winner, "error": None}
        for (pos, role), winner in results.items()
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_the_battles_that_changed_are_counted_per_role(tmp_path):
    before = write(
        tmp_path / "before.jsonl",
        {
            ("pos0", "attacker"): "titanbot",
            ("pos0", "defender"): "cleverbot",
            ("pos1", "attacker"): "cleverbot",
            ("pos1", "defender"): "cleverbot",
            ("pos2", "attacker"): None,
            ("pos2", "defender"): "titanbot",
        },
    )
    after_0 = write(
        tmp_path / "after.0.jsonl",
        {("pos0", "attacker"): "titanbot", ("pos0", "defender"): "titanbot"},
    )
    after_1 = write(
        tmp_path / "after.1.jsonl",
        {
            ("pos1", "attacker"): "titanbot",
            ("pos1", "defender"): "cleverbot",
            ("pos2", "attacker"): "cleverbot",
        },
    )
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(before), "--", str(after_0), str(after_1), "--list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = done.stdout.splitlines()
    # attacking: pos1 lost → won, pos2 drawn → lost: 1.5 of 3 before, 2 of 3 after
    assert lines[:3] == [
        "titanbot as attacker: 3 battles, 50.0 % → 66.7 %; better in 1, worse in 1 "
        "(sign test p = 1)",
        "  better: pos1",
        "  worse:  pos2",
    ]
    # defending: pos2 was not fought again; pos0 lost → won
    assert lines[3:] == [
        "titanbot as defender: 2 battles, 0.0 % → 50.0 %; better in 1, worse in 0 "
        "(sign test p = 1)",
        "  better: pos0",
        "  worse:  -",
    ]


def test_a_lopsided_split_is_unlikely_by_luck():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from cleverbot_compare import sign_test
    finally:
        sys.path.remove(str(SCRIPT.parent))
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    assert abs(sign_test(10, 0) - 2 / 1024) < 1e-12
    assert sign_test(14, 5) < 0.07 < sign_test(12, 7)
