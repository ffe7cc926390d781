"""Battle decisions (RULES §5.8, §6.6, §7.2a, §8–§10): summons and reinforcements, the
maneuver and strike phases, and the concession windows (declined: fighting on can only
slay more of the enemy, and a time loss gives him no points, RULES §11.1)."""

from __future__ import annotations

from engine.ai.blunders import choose_blunder
from engine.ai.engaging import best_summon
from engine.ai.levels import DEFAULT, Level
from engine.ai.maneuvering import choose_maneuver
from engine.ai.striking import choose_strike
from engine.ai.tactics.planner import choose_tactical_maneuver
from engine.ai.tactics.striker import choose_tactical_strike
from engine.ai.tiebreak import tiebreaker
from engine.battle.position import Side
from engine.battle.state import BattleStep
from engine.characters import character
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.outcome import owner_of
from engine.game.state import GameState


def choose_battle_action(
    state: GameState, seat: int, legal: list[a.Action], level: Level = DEFAULT
) -> a.Action:
    """The next battle action for ``seat`` at ``level``: ``hard`` plans each maneuver
    phase (:mod:`engine.ai.tactics`), ``easy`` blunders (:mod:`engine.ai.blunders`)."""
    battle = battle_of(state)
    assert battle is not None
    if b.AcceptConcession() in legal:
        return b.AcceptConcession()
    side = _side(state, seat)
    tie = tiebreaker(state, seat)
    step = battle.step
    striking = battle.carry is not None or step in (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE)
    if level == "easy" and (striking or step is BattleStep.MANEUVER):
        return choose_blunder(state, seat, battle, side, legal, tie)
    if striking:
        if level == "hard":
            return choose_tactical_strike(battle, legal, tie)
        return choose_strike(battle, legal, tie)
    if step is BattleStep.MANEUVER:
        if level == "hard":
            return choose_tactical_maneuver(battle, side, legal)
        return choose_maneuver(battle, side, legal, tie)
    if step is BattleStep.SUMMON:
        summons = [x for x in legal if isinstance(x, a.Summon)]
        choice = best_summon(state, summons) if summons else None
        return choice if choice is not None else a.Decline()
    if step is BattleStep.REINFORCE:
        options = [x for x in legal if isinstance(x, a.Reinforce)]
        if options:
            return max(options, key=lambda x: (character(x.recruit).value_at(), x.recruit))
    if a.Decline() in legal:
        return a.Decline()
    return next(x for x in legal if not isinstance(x, a.Withdraw | a.Concede))


def _side(state: GameState, seat: int) -> Side:
    for role in Side:
        if owner_of(state, role) == seat:
            return role
    raise ValueError(f"seat {seat} is not in the battle")
