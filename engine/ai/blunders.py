"""The battle play of level ``easy``: a newcomer's mistakes (issue 24, RULES §8–§10).

A newcomer charges into the open whichever side he is on, now and then moves a character
anywhere it may go or stops moving too soon, strikes the biggest enemy rather than the one
he could slay, forgets his rangestrikes and places carried hits on the first target
offered. Each mistake is decided by :func:`~engine.ai.tiebreak.jitter` of the game
position, so that the level is as deterministic as the others.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.maneuvering import choose_maneuver, stance
from engine.ai.striking import choose_strike
from engine.ai.tiebreak import jitter
from engine.battle.position import Side
from engine.battle.state import Battle
from engine.frozen import evolve
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.state import GameState

#: Pull toward the enemy of a newcomer, attacking or defending.
CHARGE = 2.0
#: Chances of a move anywhere, of ending the maneuvers early, of striking the biggest
#: enemy, of forgetting a rangestrike.
WILD_MOVE = 0.45
EARLY_END = 0.25
BIG_TARGET = 0.75
FORGET_RANGESTRIKE = 0.5


def choose_blunder(
    state: GameState,
    seat: int,
    battle: Battle,
    side: Side,
    legal: list[a.Action],
    tie: Callable[[object], float],
) -> a.Action:
    """The next maneuver- or strike-phase action of a newcomer."""

    def chance(key: str) -> float:
        return jitter(state, seat, f"easy|{key}|{len(battle.moves)}|{sorted(battle.struck)}")

    if battle.carry is not None:
        return next(x for x in legal if isinstance(x, b.CarryOver))
    moves = [x for x in legal if isinstance(x, b.Maneuver)]
    if moves or b.EndManeuver() in legal:
        if moves and chance("wild") < WILD_MOVE:
            return moves[int(chance("which") * len(moves))]
        if b.EndManeuver() in legal and battle.moves and chance("end") < EARLY_END:
            return b.EndManeuver()
        plan = evolve(stance(battle, side), pull=CHARGE)
        return choose_maneuver(battle, side, legal, tie, plan)
    strikes = [x for x in legal if isinstance(x, b.Strike)]
    if strikes and chance("big") < BIG_TARGET:
        position = battle.position

        def size(x: b.Strike) -> tuple[int, float]:
            target = position.at(x.target)
            return (target.power * target.skill if target else 0, tie(x))

        natural = [x for x in strikes if x.dice is None] or strikes
        return max(natural, key=size)
    if not strikes and b.EndStrikes() in legal and chance("forget") < FORGET_RANGESTRIKE:
        return b.EndStrikes()
    return choose_strike(battle, legal, tie)
