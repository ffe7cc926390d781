"""How well ``hard``'s forecast foresees a real opponent's maneuvers (issue 24).

Run from the project's root with the harness's python (see ``bench/cleverbot.py``)::

    SLUGATHON_DIR=... PYTHONHASHSEED=0 python bench/cleverbot_answers.py \
        POSITIONS attacker|defender [--shard i/n] [--turns N] [-o OUT]
    python bench/cleverbot_answers.py --tally OUT...

``hard`` judges each of its plans by the worst of the few answers it expects from the enemy
(:func:`engine.ai.tactics.planner.answers`). This fights the positions as the harness does,
titanbot at ``hard`` at the side given and CleverBot at the other, and at each of
CleverBot's maneuver phases (up to battle turn ``N``) values by the same forecast both
CleverBot's actual moves and every modelled answer. Where the actual moves are worse for
titanbot than every modelled answer, the forecast's worst case missed them. The table gives
for each battle turn the phases, the misses, what the misses cost in forecast worth, and the
mean gap from the worst modelled answer to the actual moves (positive: the model was the
more pessimistic). ``-o`` keeps every phase as JSON; ``--tally`` makes the table of the
phases kept by several runs (the shards of one).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cleverbot import open_harness  # bench/, beside this script


@dataclass(frozen=True)
class Phase:
    """One of the opponent's maneuver phases as the forecast saw it."""

    id: str
    turn: int
    actual: float
    """The forecast's worth, to titanbot, of the opponent's actual moves."""
    worst: float
    """The worth of the worst modelled answer."""

    @property
    def missed(self) -> bool:
        return self.actual < self.worst - 1e-9


def judge_phase(start: Any, moves: Iterable[tuple[str, str]], side: Any, pid: str = "") -> Phase:
    """The opponent's phase that starts in ``start``: the worth to ``side`` (titanbot's) of
    the ``moves`` it made and of the worst answer the planner models, each followed by
    the forecast over the halves the planner would have looked ahead."""
    from engine.ai.tactics import planner

    enemy = side.other
    # as ``planner.judge`` sees it from our half before this phase
    halves = planner.halves_after(planner.halves_left(start) + 1)
    worths = [_worth(start, answer, side, halves) for answer in planner.answers(start, enemy)]
    return Phase(pid, start.turn, _worth(start, tuple(moves), side, halves), min(worths))


def _worth(start: Any, moves: tuple[tuple[str, str], ...], side: Any, halves: int) -> float:
    from engine.ai.tactics import planner
    from engine.ai.tactics.forecast import Outlook
    from engine.battle.maneuvering import maneuver

    after = start
    for who, to in moves:
        after, _ = maneuver(after, who, to)
    return planner.answered(Outlook.start(after), side, halves)


def table(phases: list[Phase]) -> list[str]:
    """Per battle turn: phases, misses, their cost and the mean gap (actual − worst)."""
    by_turn: dict[int, list[Phase]] = defaultdict(list)
    for phase in phases:
        by_turn[phase.turn].append(phase)
    lines = ["turn  phases  missed  cost of misses  mean gap"]
    for turn in sorted(by_turn):
        group = by_turn[turn]
        misses = [p for p in group if p.missed]
        cost = sum(p.actual - p.worst for p in misses)
        gap = sum(p.actual - p.worst for p in group) / len(group)
        lines.append(f"{turn:4d}  {len(group):6d}  {len(misses):6d}  {cost:14.1f}  {gap:8.2f}")
    return lines


def fight(pos: dict[str, Any], side_name: str, last_turn: int) -> list[Phase]:
    """One position fought against CleverBot to its end or ``last_turn``: each of
    CleverBot's maneuver phases judged."""
    battles = importlib.import_module("battles")  # the harness's, found on its path
    bridge = importlib.import_module("bridge")
    from engine.ai import choose_action
    from engine.battle.position import Side
    from engine.battle.state import BattleStep
    from engine.game import battle_actions as b
    from engine.game.apply import apply
    from engine.game.battle_flow import battle_of
    from engine.game.legal import to_act

    side = Side(side_name)
    ours = {Side.ATTACKER: 0, Side.DEFENDER: 1}[side]
    state = battles.start_state(pos)
    clever = bridge.CleverBotSeat(time_limit=1.0)
    clever.new_battle(int(pos["dice_seed"]))
    found: list[Phase] = []
    start = None
    moves: list[tuple[str, str]] = []
    while (battle := battle_of(state)) is not None and (seat := to_act(state)) is not None:
        if battle.turn > last_turn:
            break
        if seat == ours:
            action = choose_action(state, seat, "hard")
        else:
            if start is None and battle.step is BattleStep.MANEUVER and not battle.moves:
                start, moves = battle, []
            action = clever(state, seat)
            if start is not None and isinstance(action, b.Maneuver):
                moves.append((action.character, action.to))
            elif start is not None and isinstance(action, b.EndManeuver):
                found.append(judge_phase(start, moves, side, pos["id"]))
                start = None
        state, _ = apply(state, seat, action)
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", type=Path, nargs="?")
    parser.add_argument("side", choices=("attacker", "defender"), nargs="?")
    parser.add_argument("--shard", default="0/1", help="i/n: every n-th position from the i-th")
    parser.add_argument("--turns", type=int, default=7, help="the last battle turn judged")
    parser.add_argument("-o", "--out", type=Path, help="every phase as JSON")
    parser.add_argument("--tally", type=Path, nargs="+", help="the phases kept by runs")
    args = parser.parse_args(argv)
    if args.tally:
        kept = [Phase(**p) for path in args.tally for p in json.loads(path.read_text())]
        print("\n".join(table(kept)))
        return 0
    if args.positions is None or args.side is None:
        parser.error("POSITIONS and a side are needed to fight")
    open_harness()
    k, n = (int(x) for x in args.shard.split("/"))
    positions = json.loads(args.positions.read_text())["positions"]
    phases: list[Phase] = []
    for i, pos in enumerate(positions):
        if i % n == k:
            phases += fight(pos, args.side, args.turns)
    if args.out:
        args.out.write_text(json.dumps([asdict(p) for p in phases]))
    print("\n".join(table(phases)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
