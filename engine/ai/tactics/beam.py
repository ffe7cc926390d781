"""Plans found together rather than one mover at a time (RULES §8.5, §9): a beam search.

The movers are placed in the policy's order; each partial plan is extended by every one
of the next mover's best destinations (staying put included), and only the best few
partial plans are kept. A partial plan is judged by the coming strike half as forecast
(:mod:`~engine.ai.tactics.forecast`: who engages whom, with every blow's exact dice) and
by how each character stands apart from it (hazard, height, reach of the enemy, pull;
:meth:`~engine.ai.tactics.policy.Board.standing`). So engagements that only pay off
together — two characters on one enemy, a line that shelters the Titan — are found.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.tactics.forecast import Outlook
from engine.ai.tactics.phase import Move
from engine.ai.tactics.policy import Board, Stance, entering_after, movers, ranked
from engine.battle.maneuvering import maneuver
from engine.battle.position import Position, Side
from engine.battle.state import Battle
from engine.characters import TITAN

#: Partial plans kept after each mover, and destinations tried for each mover.
WIDTH = 4
BRANCHES = 5


@dataclass(frozen=True)
class Partial:
    moves: tuple[Move, ...]
    battle: Battle
    score: float


def beam(battle: Battle, side: Side, stance: Stance, width: int = WIDTH) -> list[Partial]:
    """The best whole plans the beam search finds, best first. A Titan still to enter
    is also tried first in the order, lest the others fill the entry edge (RULES §8.4)."""
    plans = _beam(battle, side, stance, width, movers(battle, side))
    if side not in battle.entered and TITAN in battle.waiting(side):
        plans += _beam(battle, side, stance, width, movers(battle, side, titan_last=False))
        plans.sort(key=lambda p: -p.score)
    return plans


def _beam(
    battle: Battle, side: Side, stance: Stance, width: int, order: list[str]
) -> list[Partial]:
    board = Board(battle, side, stance)
    plans = [Partial((), battle, 0.0)]
    for i, who in enumerate(order):
        later = entering_after(order, i)
        grown: dict[tuple[Move, ...], Partial] = {}
        for plan in plans:
            options = ranked(board, plan.battle, who, later)[:BRANCHES]
            if not options:
                grown.setdefault(plan.moves, plan)
            for _, to in options:
                if to == who:
                    after, moves = plan.battle, plan.moves
                else:
                    after, _ = maneuver(plan.battle, who, to)
                    moves = (*plan.moves, (who, to))
                if moves not in grown:
                    grown[moves] = Partial(moves, after, quick(board, after, side))
        plans = sorted(grown.values(), key=lambda p: -p.score)[:width]
    return plans


def quick(board: Board, battle: Battle, side: Side) -> float:
    """The coming strike half as forecast, and how ``side``'s characters stand."""
    outlook = Outlook.start(battle)
    outlook.half()
    value = outlook.utility(side)
    position = battle.position
    waiting = len(battle.waiting(side))
    for f in position.fighters:
        if f.side is side and f.alive:
            rest = Position(position.terrain, tuple(x for x in position.fighters if x is not f))
            value += board.standing(rest, f, f.hex, waiting, bool(board.foes(rest, f.hex)))
    return value
