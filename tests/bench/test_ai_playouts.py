"""The measure of how much ``hard`` would gain by choosing among its own plans by playing
them out (bench/ai_playouts.py, issue 24)."""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from types import ModuleType

from engine.ai.tactics import planner
from engine.battle.notation import parse_battle
from engine.battle.position import Side
from engine.game.battle_flow import battle_of
from engine.game.state import GameState
from tests.bench.scripts import load_script

#: The attacker's maneuver, three of its characters a few hexes from two defenders.
START = "Plains t2 attacker maneuver: Bk01 Troll@C3 Ogre@D4 | Rd01 Lion@E2 Centaur@F1 Gargoyle@F2"


@cache
def load() -> ModuleType:
    """The script as a module, without running it."""
    return load_script("ai_playouts.py")


@cache
def first_start() -> GameState:
    """The first battle start the level benchmark harvests."""
    return load().harvest(1)[0]


def first_phase() -> GameState:
    """That battle when its first maneuver phase begins (past the concession window)."""
    bench = load()
    state = first_start()
    while not (battle := battle_of(state)) or not bench.phase_begins(battle, battle.phasing):
        seat = bench.to_act(state)
        state, _ = bench.apply(state, seat, bench.choose_action(state, seat, "normal"))
    return state


def test_the_best_plans_begin_with_hards_and_reach_other_positions_best_first():
    bench = load()
    battle = parse_battle(START)
    plan = planner.search(battle, Side.ATTACKER)
    plans = bench.best_plans(battle, Side.ATTACKER, 4)
    assert 2 <= len(plans) <= 4
    assert plans[0] == (plan.moves, plan.score)
    scores = [score for _, score in plans]
    assert scores == sorted(scores, reverse=True)
    assert len({tuple(sorted(moves)) for moves, _ in plans}) == len(plans)
    assert all((moves, score) in plan.candidates for moves, score in plans)
    assert bench.best_plans(battle, Side.ATTACKER, 1) == plans[:1]


def test_the_plan_whose_playouts_score_best_is_chosen_the_forecasts_order_breaking_ties():
    bench = load()
    start = first_phase()
    battle = battle_of(start)
    assert battle is not None
    side = battle.phasing
    seat = start.legion(battle.marker(side)).owner
    plans = bench.best_plans(battle, side, 3)
    assert len(plans) == 3
    ends = [repr(battle_of(bench.with_plan(start, seat, moves)).position) for moves, _ in plans]

    def scorer(liked: int):
        def score(after: GameState, k: int) -> float:
            found = battle_of(after)
            assert found is not None
            # playout 0 favours the liked plan, playout 1 the first: the mean decides
            mine = ends.index(repr(found.position))
            return float(mine == liked) if k == 0 else 0.5 * float(mine == 0)

        return score

    assert bench.choose(start, seat, plans, 2, scorer(2)) == 2
    assert bench.choose(start, seat, plans, 2, scorer(1)) == 1
    assert bench.choose(start, seat, plans, 1, lambda after, k: 0.5) == 0


def test_with_one_plan_the_battle_is_hards_own():
    bench = load()
    start = first_start()
    battle = battle_of(start)
    assert battle is not None
    for side in Side:
        result, phases, changed = bench.fight_choosing(start, side, range(1, 8), 1, 2)
        assert phases >= 1 and changed == 0
        plain = bench.fight(start, *bench.seats_levels(side), defaultdict(list))
        assert result == plain


def test_the_table_counts_the_starts_that_went_better_and_worse():
    bench = load()
    rows = [
        bench.Fought(0, plain=0.0, chosen=1.0, phases=2, changed=1),
        bench.Fought(1, plain=1.0, chosen=1.0, phases=2, changed=0),
        bench.Fought(2, plain=0.5, chosen=0.0, phases=1, changed=1),
        bench.Fought(3, plain=1.0, chosen=0.5, phases=2, changed=2),
    ]
    attacking = bench.table(rows, Side.ATTACKER)
    assert "as it plays                62.5 %" in attacking
    assert "plans chosen by playouts   62.5 %" in attacking
    assert "starts better 1, worse 2" in attacking
    assert "phases judged by playouts 7, another plan chosen in 4" in attacking
    defending = bench.table(rows, Side.DEFENDER)
    assert "as it plays                37.5 %" in defending
    assert "starts better 2, worse 1" in defending
