"""The fit of a character's fighting value to battle results (bench/ai_worth.py, issue 24)."""

from __future__ import annotations

import math
import random
from types import ModuleType

from engine.battle.position import Side
from engine.game.battle_flow import battle_of
from tests.bench.scripts import load_script


def load() -> ModuleType:
    """The script as a module, without running it."""
    return load_script("ai_worth.py")


def test_the_linear_solver_solves():
    bench = load()
    matrix = [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]
    x = [1.0, -2.0, 0.5]
    vector = [sum(a * b for a, b in zip(row, x, strict=True)) for row in matrix]
    assert all(abs(a - b) < 1e-9 for a, b in zip(bench.solve(matrix, vector), x, strict=True))


def test_the_regression_finds_the_weights_that_made_the_results():
    bench = load()
    rng = random.Random(5)
    truth = [-0.5, 2.0]
    xs, ys = [], []
    for _ in range(4000):
        x = [1.0, rng.uniform(-2, 2)]
        p = 1 / (1 + math.exp(-sum(w * v for w, v in zip(truth, x, strict=True))))
        xs.append(x)
        ys.append(1.0 if rng.random() < p else 0.0)
    found = bench.logistic(xs, ys)
    assert abs(found[0] - truth[0]) < 0.2 and abs(found[1] - truth[1]) < 0.25
    # the weights that made the results predict them better than weights that did not
    assert bench.log_loss(found, xs, ys) < bench.log_loss([0.0, 0.5], xs, ys)


def test_strength_weighs_power_left_and_skill_by_their_exponents():
    bench = load()
    ogre, wounded_ranger = (6, 0, 2), (4, 2, 4)
    assert bench.strength([ogre, wounded_ranger], 1.0, 1.0) == 6 * 2 + 2 * 4
    assert bench.strength([ogre], 2.0, 0.5) == 36 * math.sqrt(2)


def test_a_fought_battle_keeps_each_maneuver_phase_and_its_result():
    bench = load()
    start = bench.harvest(1, bench.FIRST_SEED)[0]
    fought = bench.fight(start, "normal", "normal")
    assert fought["result"] in (0.0, 0.5, 1.0)
    phases = fought["phases"]
    assert phases, "the defender's first maneuver phase at least"
    first = phases[0]
    battle = battle_of(start)
    assert battle is not None
    # the defender's whole legion waits to enter at the first maneuver phase (RULES §8.4)
    assert len(first["sides"][Side.DEFENDER.value]) == len(battle.legion(Side.DEFENDER))
    halves = [p["halves"] for p in phases]
    assert halves == sorted(halves, reverse=True) and halves[0] == 14
    attackers = first["sides"][Side.ATTACKER.value]
    assert all(p >= 1 and 0 <= hits < p and skill >= 1 for p, hits, skill in attackers)


def test_the_fit_scores_every_pair_of_exponents_on_held_out_battles():
    bench = load()
    rng = random.Random(3)
    battles = []
    for _ in range(60):
        att = [(rng.randint(3, 9), 0, rng.randint(2, 4)) for _ in range(rng.randint(2, 6))]
        dfn = [(rng.randint(3, 9), 0, rng.randint(2, 4)) for _ in range(rng.randint(2, 6))]
        # the result follows Skill squared: the fit must prefer a Skill exponent above 1
        edge = bench.strength(att, 1.0, 2.0) / (bench.strength(dfn, 1.0, 2.0) + 1e-9)
        result = 1.0 if edge > 1 else 0.0
        phase = {"sides": {"attacker": att, "defender": dfn}, "halves": 14}
        battles.append({"phases": [phase], "result": result})
    squared = bench.held_out(battles, 1.0, 2.0)
    assert squared < bench.held_out(battles, 1.0, 1.0)
    assert squared < bench.held_out(battles, 1.0, 0.5)
