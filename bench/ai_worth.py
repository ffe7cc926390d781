"""What a character is worth to its side's chance of winning a battle (issue 24).

Run: ``.venv/bin/python bench/ai_worth.py [--games 40] [--shard 0/2] [--save FILE]
[--load FILE ...]``. Battle starts are harvested from seeded games between ``normal``
computer players (seeds apart from ``bench/ai_levels.py``'s, which measures the levels),
then fought by ``hard`` and ``normal`` in three pairings. At the start of every maneuver
phase the battle's state is kept, labelled with who won the battle in the end.

A side's strength is the sum over its living characters (on the board or waiting to enter)
of ``(Power - hits) ** a * Skill ** b``. For each pair of exponents, a logistic regression
of the attacker's win on the log-ratio of the two strengths, the halves left until the
time loss (RULES §11.1) and their product is fitted and scored on held-out battles
(five folds, by battle; the log loss, lower is better). Power × Skill, the value of
RULES §0.2, is ``a = b = 1``. The exponents that tell best who wins are the fighting value
the searching player ``hard`` weighs blows and losses by
(:func:`engine.ai.tactics.damage.fighting_value`).

``--save`` writes the kept states (a JSON file) so that shards fought apart can be fitted
together with ``--load``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(1, str(HERE))

from ai_levels import fight as fought_out  # noqa: E402
from ai_levels import harvest  # noqa: E402

from engine.ai.levels import Level  # noqa: E402
from engine.ai.tactics.planner import halves_left  # noqa: E402
from engine.battle.position import Side  # noqa: E402
from engine.battle.state import LAST_TURN, Battle, BattleStep  # noqa: E402
from engine.characters import character  # noqa: E402
from engine.game.state import GameState  # noqa: E402

#: The first seed of the harvesting games (``bench/ai_levels.py`` starts at 7000).
FIRST_SEED = 30_000
#: Who attacks and who defends in each fight of a start.
PAIRINGS: tuple[tuple[Level, Level], ...] = (
    ("hard", "hard"),
    ("hard", "normal"),
    ("normal", "hard"),
)
#: The exponents of Power and Skill tried.
POWERS = (0.75, 1.0, 1.25, 1.5, 1.75)
SKILLS = (1.0, 1.25, 1.5, 1.75, 2.0)
FOLDS = 5

Character = tuple[int, int, int]
"""(Power, hits, Skill) of a living character."""
Phase = dict[str, Any]
"""A maneuver phase's start: ``sides`` (each side's characters) and ``halves`` left."""
Fought = dict[str, Any]
"""A battle fought out: its ``phases`` and the attacker's ``result``."""


def kept(battle: Battle) -> Phase:
    """A maneuver phase's start as the fit reads it: each side's living characters and
    the halves left until the time loss."""
    sides: dict[str, list[Character]] = {}
    for side in Side:
        found = [
            (f.power, f.hits, f.character.skill) for f in battle.position.of_side(side) if f.alive
        ]
        found += [(battle.power_of(side, n), 0, character(n).skill) for n in battle.waiting(side)]
        sides[side.value] = found
    return {"sides": sides, "halves": halves_left(battle)}


def fight(start: GameState, attacker: Level, defender: Level) -> Fought:
    """The battle from ``start`` fought out: its maneuver phases' starts and the
    attacker's result (1 a win, 0 a loss, ½ a draw)."""
    phases: list[Phase] = []
    before: Battle | None = None

    def watch(now: Battle) -> None:
        nonlocal before
        new_phase = (
            before is None
            or before.step is not BattleStep.MANEUVER
            or before.phasing is not now.phasing
        )
        if now.step is BattleStep.MANEUVER and new_phase:
            phases.append(kept(now))
        before = now

    result = fought_out(start, attacker, defender, defaultdict(list), watch)
    return {"phases": phases, "result": result}


def strength(characters: list[Character], power: float, skill: float) -> float:
    """The summed fighting value of a side's living characters."""
    return float(sum((p - hits) ** power * s**skill for p, hits, s in characters))


def inputs(phase: Phase, power: float, skill: float) -> list[float]:
    """The regression's inputs for one phase start: 1, the log-ratio of the strengths,
    the share of the battle's halves left, and their product."""
    sides = phase["sides"]
    ratio = math.log(
        (strength(sides["attacker"], power, skill) + 1)
        / (strength(sides["defender"], power, skill) + 1)
    )
    time = phase["halves"] / (2 * LAST_TURN)
    return [1.0, ratio, time, ratio * time]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


def logistic(xs: list[list[float]], ys: list[float], steps: int = 12) -> list[float]:
    """The weights of a logistic regression of ``ys`` (0 to 1) on ``xs``, by Newton's
    method with a slight ridge."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [1e-3 * wi for wi in w]
        hess = [[1e-3 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys, strict=True):
            p = _sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True)))
            q = p * (1 - p)
            for i in range(k):
                grad[i] += (p - y) * x[i]
                for j in range(i + 1):
                    hess[i][j] += q * x[i] * x[j]
        for i in range(k):
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def log_loss(w: list[float], xs: list[list[float]], ys: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(max(_sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True))), 1e-6), 1 - 1e-6)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(ys)


def held_out(battles: list[Fought], power: float, skill: float, folds: int = FOLDS) -> float:
    """The mean held-out log loss of the fit with these exponents, the battles split
    into ``folds`` (every phase of a battle in the same fold)."""
    total, count = 0.0, 0
    for k in range(folds):
        train = [b for i, b in enumerate(battles) if i % folds != k]
        test = [b for i, b in enumerate(battles) if i % folds == k]
        w = logistic(*_table(train, power, skill))
        xs, ys = _table(test, power, skill)
        total += log_loss(w, xs, ys) * len(ys)
        count += len(ys)
    return total / count


def _table(
    battles: list[Fought], power: float, skill: float
) -> tuple[list[list[float]], list[float]]:
    xs: list[list[float]] = []
    ys: list[float] = []
    for battle in battles:
        for phase in battle["phases"]:
            xs.append(inputs(phase, power, skill))
            ys.append(battle["result"])
    return xs, ys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="harvesting games")
    parser.add_argument("--shard", default="0/1", help="i/n: every n-th start from the i-th")
    parser.add_argument("--save", type=Path, help="write the fought battles here")
    parser.add_argument("--load", type=Path, nargs="*", default=[], help="fit these instead")
    args = parser.parse_args()
    battles: list[Fought] = []
    for path in args.load:
        battles += json.loads(path.read_text())
    if not args.load:
        index, count = (int(x) for x in args.shard.split("/"))
        starts = harvest(args.games, FIRST_SEED)[index::count]
        battles = [fight(s, att, dfn) for s in starts for att, dfn in PAIRINGS]
        print(f"{len(starts)} battle starts, {len(battles)} battles")
    if args.save:
        args.save.write_text(json.dumps(battles))
        return
    phases = sum(len(b["phases"]) for b in battles)
    print(f"{len(battles)} battles, {phases} maneuver phases; held-out log loss (lower is better)")
    scored = sorted(
        (held_out(battles, power, skill), power, skill) for power in POWERS for skill in SKILLS
    )
    for loss, power, skill in scored:
        mark = "  (Power × Skill)" if power == skill == 1.0 else ""
        print(f"  Power ** {power:<4} × Skill ** {skill:<4}  {loss:.4f}{mark}")


if __name__ == "__main__":
    main()
