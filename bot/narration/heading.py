"""Where the game stands, in one line: the head of the game's news (:mod:`bot.outbox.layout`).

``### Turn 11 · Bob (Blue) · movement, rolled 4`` on the masterboard — turns counted as
players count them, game turns (a round of every player's turn), each with its player —
and ``### Battle in 129 (Plains) · turn 2 of 7 · Rd01, the defender, strikes`` while a
battle is fought. Public facts only.
"""

from __future__ import annotations

from engine.battle.state import LAST_TURN, BattleStep
from engine.game.battle_flow import battle_of
from engine.game.game_turns import game_turn
from engine.game.state import GameState, Phase, Stage
from engine.masterboard import land as land_of

HEAD = "### "
"""How the line saying where the game stands begins (a small heading on Discord)."""
WAITING = "Waiting for **"
"""How the line naming the next decision begins (:func:`bot.handlers.play.announce`)."""
BATTLE_ENDS = "The battle ends in turn "
"""How the line telling a battle's end begins (:mod:`bot.narration.battle_events`)."""

_PHASES = {
    Phase.SPLIT: "split phase",
    Phase.MOVE: "movement",
    Phase.ENGAGE: "engagements",
    Phase.MUSTER: "muster phase",
}
_STEPS = {
    BattleStep.OPEN_ATTACKER: "the battle begins",
    BattleStep.OPEN_DEFENDER: "the battle begins",
    BattleStep.REINFORCE: "reinforcement",
    BattleStep.SUMMON: "summoning",
    BattleStep.MANEUVER: "maneuvers",
    BattleStep.DRIFT: "drift damage",
    BattleStep.STRIKE: "strikes",
    BattleStep.SLEW_ALL: "strikes",
    BattleStep.COUNTERSTRIKE: "strikes back",
    BattleStep.END_CHECK: "end of the battle turn",
    BattleStep.OVER: "the battle is over",
}


_STAGES = {
    Stage.NEGOTIATE: "engagement",
    Stage.BATTLE: "battle",
    Stage.AFTERMATH: "after the engagement",
}


def heading(state: GameState, in_battle: bool = False) -> str | None:
    """The head line of the game's news now (the battle's, ``in_battle``); None before the
    first turn and once the game is over."""
    if state.result is not None or state.phase is Phase.COLOURS:
        return None
    battle = battle_of(state)
    engagement = state.engagement
    if in_battle and battle is not None and engagement is not None:
        terrain = land_of(engagement.land).terrain
        side = battle.phasing
        marker = battle.marker(side)
        return (
            f"{HEAD}Battle in {engagement.land} ({terrain}) · turn {battle.turn} of "
            f"{LAST_TURN} · {marker}, the {side.value} · {_STEPS[battle.step]}"
        )
    player = state.player(state.active)
    phase = _PHASES.get(state.phase, state.phase.value)
    if state.phase is Phase.MOVE and state.turn.roll is not None:
        phase = f"{phase}, rolled {state.turn.roll}"
    if engagement is not None:
        phase = f"{_STAGES[engagement.stage]} in {engagement.land}"
    colour = f" ({player.colour})" if player.colour else ""
    return f"{HEAD}Turn {game_turn(state)} · {player.name}{colour} · {phase}"
