"""Where runs of the CleverBot battles leave room to gain, position by position (issue 24).

Run: ``python bench/cleverbot_positions.py RUN.jsonl... [-- RUN.jsonl...]...
[--positions POSITIONS]``: the output files of ``bench/cleverbot.py LEVEL battles run`` with
titanbot in both roles (its shards), each run after ``--`` the same positions under other
dice (``bench/cleverbot_dice.py``). Each position was fought twice with the same dice,
titanbot attacking once and defending once, so the two results sort it:

- *the attacker's*: whoever attacks wins (titanbot attacking, and CleverBot attacking);
- *the defender's*: whoever defends wins;
- *titanbot's*: titanbot wins in both seats; *CleverBot's*: CleverBot wins in both;
- *drawn*: at least one of the two was a draw.

Defending, titanbot can gain only in the attacker's, CleverBot's and the drawn positions;
attacking, only in the defender's, CleverBot's and the drawn ones. Then titanbot's scores
attacking and defending in each band of the attacker's strength, as ``bench/ai_levels.py``
gives them: the attacker's legion's value over the defender's as the position starts
(RULES §0.2, Titans at the position's Power, read from ``POSITIONS``, by default the
harness's file). ``bench/ai_levels.py --positions POSITIONS --pairs hard:hard`` gives the
par of the same bands: the attacker's score when both seats play alike.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ai_levels import by_strength  # bench/, beside this script
from cleverbot_compare import ROLES, rows, score

from engine.characters import TITAN, character

ROOT = Path(__file__).resolve().parent.parent

Found = dict[tuple[str, str], dict[str, Any]]
"""One run's battles: (position, titanbot's role) → the battle's row."""


def default_positions() -> Path:
    """The harness's positions file (``AIBRIDGE_DIR``, default ``../shared/aibridge``)."""
    harness = Path(os.environ.get("AIBRIDGE_DIR", ROOT.parent / "shared" / "aibridge"))
    return harness / "positions" / "positions.json"


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


def both_seats(found: Found) -> list[tuple[str, float, float]]:
    """The positions of a run fought in both roles: (position, titanbot's result
    attacking, defending), by position."""
    both = sorted(pos for pos, role in found if role == "attacker" and (pos, "defender") in found)
    return [(p, score(found[(p, "attacker")]), score(found[(p, "defender")])) for p in both]


def kinds(runs: list[Found]) -> Counter[str]:
    """How many positions fought in both roles are of each kind, over the runs."""
    return Counter(kind(att, dfn) for found in runs for _, att, dfn in both_seats(found))


def strengths(positions: dict[str, Any]) -> dict[str, float]:
    """Each position's attacker's strength: its legion's value over the defender's
    (RULES §0.2), a Titan at the Power the position gives it."""
    found = {}
    for p in positions["positions"]:
        att, dfn = (value_of(p[role], p["titan_power"][role]) for role in ROLES)
        found[p["id"]] = att / max(dfn, 1)
    return found


def value_of(names: list[str], titan_power: int) -> int:
    """The summed value of the characters ``names`` (RULES §0.2), a Titan's at
    ``titan_power``."""
    return sum(
        (titan_power if n == TITAN else character(n).power) * character(n).skill for n in names
    )


def bands(runs: list[Found], strength: dict[str, float]) -> list[tuple[str, int, float, float]]:
    """titanbot's scores attacking and defending in each band of the attacker's strength
    (:func:`ai_levels.by_strength`), over the positions each run fought in both roles."""
    fought = [x for found in runs for x in both_seats(found)]
    return by_strength(
        [strength[p] for p, _, _ in fought],
        [att for _, att, _ in fought],
        [dfn for _, _, dfn in fought],
    )


USAGE = "RUN.jsonl... [-- RUN.jsonl...]... [--positions POSITIONS]"


def main(argv: list[str]) -> int:
    positions = default_positions()
    if "--positions" in argv:
        i = argv.index("--positions")
        if i + 1 >= len(argv):
            raise SystemExit(f"usage: {sys.argv[0]} {USAGE}")
        positions = Path(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    groups = runs_of(argv)
    if not groups:
        raise SystemExit(f"usage: {sys.argv[0]} {USAGE}")
    runs = [rows(Path(p) for p in group) for group in groups]
    counted = kinds(runs)
    print(f"{sum(counted.values())} positions fought in both roles, in {len(runs)} run(s):")
    for name in ("the attacker's", "the defender's", "titanbot's", "CleverBot's", "drawn"):
        print(f"  {name:15s} {counted[name]}")
    print("titanbot's scores by the attacker's strength (its legion's value over the defender's):")
    print(f"  {'band':14s} {'positions':>9s} {'attacking':>11s} {'defending':>11s}")
    for band, n, attack, defend in bands(runs, strengths(json.loads(positions.read_text()))):
        print(f"  {band:14s} {n:9d} {100 * attack:9.1f} % {100 * defend:9.1f} %")
    return 0


def runs_of(argv: list[str]) -> list[list[str]]:
    """The runs' files: ``--`` between runs."""
    groups: list[list[str]] = [[]]
    for item in argv:
        if item == "--":
            groups.append([])
        else:
            groups[-1].append(item)
    return [g for g in groups if g]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
