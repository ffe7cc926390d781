"""What a decision is, in a reminder's words: ``your muster in Bk03``, ``your strikes in the
battle in 36`` — public facts only (a reminder may be a ping in the channel)."""

from __future__ import annotations

from engine.battle.state import BattleStep
from engine.game.battle_flow import battle_of
from engine.game.state import GameState, Phase, Stage
from engine.muster import FULL_HEIGHT

_BATTLE = {
    BattleStep.OPEN_ATTACKER: "choice to fight or concede",
    BattleStep.OPEN_DEFENDER: "choice to fight or concede",
    BattleStep.REINFORCE: "reinforcement",
    BattleStep.SUMMON: "summon",
    BattleStep.MANEUVER: "maneuvers",
    BattleStep.DRIFT: "choice to fight on or concede",
    BattleStep.STRIKE: "strikes",
    BattleStep.SLEW_ALL: "choice to fight on or concede",
    BattleStep.COUNTERSTRIKE: "strikes back",
    BattleStep.END_CHECK: "choice to fight on or concede",
    BattleStep.OVER: "battle",
}


#: The winner's step after an engagement (RULES §7.2, §6.6, §7.1), as a reminder names it.
_AFTERMATH = {"summon": "summon", "reinforce": "reinforcement", "acquire": "acquisition"}


def awaited(state: GameState, seat: int) -> str:
    """The decision ``seat`` is asked for, as ``your …``."""
    engagement = state.engagement if state.phase is Phase.ENGAGE else None
    if state.phase is Phase.COLOURS:
        return "your choice of colour"
    if state.phase is Phase.SPLIT:
        return "your split phase"
    if state.phase is Phase.MOVE:
        return f"your movement (you rolled {state.turn.roll})"
    if state.phase is Phase.MUSTER:
        turn = state.turn
        able = sorted(
            leg.marker
            for leg in state.legions_of(seat)
            if leg.marker in turn.moved and leg.marker not in turn.mustered
            and leg.height < FULL_HEIGHT
        )  # fmt: skip
        return f"your muster in {', '.join(able)}" if able else "the end of your turn"
    if engagement is None:
        return "your choice of the next engagement"
    battle = battle_of(state)
    if engagement.stage is Stage.NEGOTIATE:
        return f"your answer in the engagement in {engagement.land}"
    if engagement.stage is Stage.AFTERMATH:
        step = engagement.aftermath.step if engagement.aftermath is not None else "acquire"
        return f"your {_AFTERMATH[step]} after the engagement in {engagement.land}"
    if battle is not None and battle.carry is not None:
        return f"your carried-over hits in the battle in {engagement.land}"
    if battle is not None and battle.concession is not None:
        return f"your answer to a concession in the battle in {engagement.land}"
    step = _BATTLE[battle.step] if battle is not None else "battle"
    return f"your {step} in the battle in {engagement.land}"
