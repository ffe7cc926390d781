"""Compare two runs of the CleverBot battles, position by position (issue 24).

Run: ``python bench/cleverbot_compare.py BEFORE.jsonl... -- AFTER.jsonl... [--list]``, each
side the output files of ``bench/cleverbot.py LEVEL battles run`` (its shards). Both runs
must use the same positions: each battle is fought with the same dice in both, and with
``PYTHONHASHSEED=0`` CleverBot repeats its choices, so a battle whose result changed
changed because titanbot played it differently. Per role it prints both scores (a draw
counts one half), how many battles went better and worse, and the two-sided sign test's p;
``--list`` names the battles that changed.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROLES = ("attacker", "defender")


@dataclass(frozen=True)
class Change:
    """One role's paired view of two runs."""

    role: str
    battles: int
    before: float
    after: float
    better: list[str]
    worse: list[str]

    @property
    def p(self) -> float:
        return sign_test(len(self.better), len(self.worse))


def score(row: dict[str, Any]) -> float:
    """titanbot's result in one battle: a win 1, a draw one half, a loss 0."""
    winner = row.get("winner")
    return 1.0 if winner == "titanbot" else 0.5 if winner is None else 0.0


def rows(paths: Iterable[Path]) -> dict[tuple[str, str], dict[str, Any]]:
    """(position, titanbot's role) → the battle's row, for the battles that finished."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row.get("error") is None and "end" in row:
                found[(row["id"], row["titan_side"])] = row
    return found


def results(paths: Iterable[Path]) -> dict[tuple[str, str], float]:
    """(position, titanbot's role) → titanbot's result, for the battles that finished."""
    return {key: score(row) for key, row in rows(paths).items()}


def compare(
    before: dict[tuple[str, str], float], after: dict[tuple[str, str], float]
) -> list[Change]:
    """Per role, the battles both runs finished, compared one by one."""
    changes = []
    for role in ROLES:
        keys = sorted(k for k in before if k[1] == role and k in after)
        if not keys:
            continue
        changes.append(
            Change(
                role,
                len(keys),
                sum(before[k] for k in keys) / len(keys),
                sum(after[k] for k in keys) / len(keys),
                [k[0] for k in keys if after[k] > before[k]],
                [k[0] for k in keys if after[k] < before[k]],
            )
        )
    return changes


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven by luck."""
    n = better + worse
    if n == 0:
        return 1.0
    low = min(better, worse)
    tail: float = sum(math.comb(n, k) for k in range(low + 1)) / 2**n
    return min(1.0, 2 * tail)


def main(argv: list[str]) -> int:
    listing = "--list" in argv
    argv = [a for a in argv if a != "--list"]
    if "--" not in argv:
        raise SystemExit(f"usage: {sys.argv[0]} BEFORE.jsonl... -- AFTER.jsonl... [--list]")
    cut = argv.index("--")
    before = results(Path(p) for p in argv[:cut])
    after = results(Path(p) for p in argv[cut + 1 :])
    for c in compare(before, after):
        print(
            f"titanbot as {c.role}: {c.battles} battles, {100 * c.before:.1f} % → "
            f"{100 * c.after:.1f} %; better in {len(c.better)}, worse in {len(c.worse)} "
            f"(sign test p = {c.p:.2g})"
        )
        if listing:
            print(f"  better: {' '.join(c.better) or '-'}\n  worse:  {' '.join(c.worse) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
