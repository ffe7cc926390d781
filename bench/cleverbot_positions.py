"""Where a run of the CleverBot battles leaves room to gain, position by position (issue 24).

Run: ``python bench/cleverbot_positions.py RUN.jsonl...``, the output files of one
``bench/cleverbot.py LEVEL battles run`` with titanbot in both roles (its shards). Each
position was fought twice with the same dice, titanbot attacking once and defending once,
so the two results sort it:

- *the attacker's*: whoever attacks wins (titanbot attacking, and CleverBot attacking);
- *the defender's*: whoever defends wins;
- *titanbot's*: titanbot wins in both seats; *CleverBot's*: CleverBot wins in both;
- *drawn*: at least one of the two was a draw.

Defending, titanbot can gain only in the attacker's, CleverBot's and the drawn positions;
attacking, only in the defender's, CleverBot's and the drawn ones. Then, by the ratio of
the legions' values (the harness's ``start_value``: every character that fought, a
reinforcement or summoned lord included; titanbot's to CleverBot's when titanbot defends),
titanbot's score as defender beside CleverBot's as defender in the same positions.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from cleverbot_compare import rows, score  # bench/, beside this script

#: The width of a bucket of the ratio of the legions' values, and the last bucket's start.
BUCKET = 0.2
TOP = 1.6


def kind(attacking: float, defending: float) -> str:
    """The kind of a position by titanbot's results attacking and defending in it."""
    if 0.5 in (attacking, defending):
        return "drawn"
    return {
        (1.0, 0.0): "the attacker's",
        (0.0, 1.0): "the defender's",
        (1.0, 1.0): "titanbot's",
        (0.0, 0.0): "CleverBot's",
    }[(attacking, defending)]


def kinds(found: dict[tuple[str, str], dict[str, Any]]) -> Counter[str]:
    """How many positions fought in both roles are of each kind."""
    both = sorted(pos for pos, role in found if role == "attacker" and (pos, "defender") in found)
    return Counter(kind(score(found[(p, "attacker")]), score(found[(p, "defender")])) for p in both)


def by_ratio(found: dict[tuple[str, str], dict[str, Any]]) -> dict[float, tuple[int, float, float]]:
    """Per bucket of the value ratio titanbot's defence / CleverBot's attack: the
    positions, titanbot's mean score defending, and CleverBot's defending them."""
    buckets: dict[float, list[tuple[float, float]]] = {}
    for (pos, role), row in found.items():
        other = found.get((pos, "attacker"))
        if role != "defender" or other is None:
            continue
        values = row["start_value"]
        ratio = values["titanbot"] / values["cleverbot"]
        start = min(round(math.floor(ratio / BUCKET + 1e-9) * BUCKET, 1), TOP)
        buckets.setdefault(start, []).append((score(row), 1.0 - score(other)))
    return {
        start: (len(v), sum(x for x, _ in v) / len(v), sum(y for _, y in v) / len(v))
        for start, v in sorted(buckets.items())
    }


def main(argv: list[str]) -> int:
    if not argv:
        raise SystemExit(f"usage: {sys.argv[0]} RUN.jsonl...")
    found = rows(Path(p) for p in argv)
    counted = kinds(found)
    print(f"{sum(counted.values())} positions fought in both roles:")
    for name in ("the attacker's", "the defender's", "titanbot's", "CleverBot's", "drawn"):
        print(f"  {name:15s} {counted[name]}")
    print("defending, by the ratio of the legions' values (titanbot's / CleverBot's):")
    for start, (n, ours, theirs) in by_ratio(found).items():
        last = "+" if start >= TOP else f"–{start + BUCKET:.1f}"
        print(
            f"  {start:.1f}{last:5s} {n:4d} positions: titanbot {100 * ours:5.1f} %,"
            f" CleverBot {100 * theirs:5.1f} %"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
