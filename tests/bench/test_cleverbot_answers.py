"""The measure of how well ``hard``'s forecast foresees an opponent's maneuvers: the
opponent's actual moves and the planner's modelled answers valued by the same forecast,
a miss where the actual moves are worse for us than every modelled answer (the battles
against CleverBot themselves need the harness and a Slugathon checkout, which the tests do
not have)."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from engine.ai.tactics import planner
from engine.battle.notation import parse_battle
from engine.battle.position import Side

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
try:
    from cleverbot_answers import Phase, judge_phase, main, table
finally:
    sys.path.remove(str(BENCH))

#: The attacker's maneuver, three of its characters a few hexes from two defenders.
START = "Plains t2 attacker maneuver: Bk01 Troll@C3 Ogre@D4 | Rd01 Lion@E2 Centaur@F1 Gargoyle@F2"


def test_a_modelled_answer_is_never_a_miss_and_the_worst_is_the_least_of_them():
    start = parse_battle(START)
    answers = planner.answers(start, Side.ATTACKER)
    assert len(answers) >= 2
    phases = [judge_phase(start, moves, Side.DEFENDER) for moves in answers]
    assert not any(p.missed for p in phases)
    assert {p.worst for p in phases} == {min(p.actual for p in phases)}
    assert len({p.actual for p in phases}) == len(phases)


def test_moves_worse_for_us_than_every_modelled_answer_are_a_miss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = parse_battle(START)
    closing_in = planner.answers(start, Side.ATTACKER)[0]
    monkeypatch.setattr(planner, "answers", lambda battle, enemy: [()])
    stood = judge_phase(start, (), Side.DEFENDER)
    assert stood.actual == stood.worst and not stood.missed
    closed = judge_phase(start, closing_in, Side.DEFENDER, "pos001")
    assert closed.actual < stood.worst
    assert closed.missed and closed.id == "pos001" and closed.turn == 2


def test_the_table_counts_each_turns_misses_their_cost_and_the_mean_gap():
    phases = [
        Phase("a", 1, actual=-10.0, worst=-4.0),
        Phase("b", 1, actual=6.0, worst=-4.0),
        Phase("c", 1, actual=-4.0, worst=-4.0),
        Phase("a", 2, actual=-1.0, worst=-3.0),
    ]
    lines = table(phases)
    assert lines[1].split() == ["1", "3", "1", "-6.0", "1.33"]
    assert lines[2].split() == ["2", "1", "0", "0.0", "2.00"]
    assert len(lines) == 3


def test_the_tally_adds_up_the_phases_kept_by_the_shards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shards = [
        [Phase("a", 1, actual=-10.0, worst=-4.0)],
        [Phase("b", 1, actual=2.0, worst=0.0), Phase("b", 3, actual=-9.0, worst=-8.0)],
    ]
    paths = []
    for i, phases in enumerate(shards):
        paths.append(tmp_path / f"shard{i}.json")
        paths[-1].write_text(json.dumps([asdict(p) for p in phases]))
    assert main(["--tally", *map(str, paths)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["1", "2", "1", "-6.0", "-2.00"]
    assert lines[2].split() == ["3", "1", "1", "-1.0", "-1.00"]
