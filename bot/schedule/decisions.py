"""The decision a game waits for, as the clock counts it: one seat's phase or step.

A decision is whatever the engine waits for from one seat — a split phase, a movement
phase, a muster phase, an answer in a negotiation, a battle's maneuvers or strikes, an
aftermath's choice. Several actions may make one decision (every move of a movement
phase); the key changes when the decision is made, so the clock starts again only then.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game.legal import to_act
from engine.game.state import GameState


@dataclass(frozen=True)
class Decision:
    seat: int
    key: str


def decision_of(state: GameState | None) -> Decision | None:
    """The decision ``state`` waits for (None: no game in play, or it is over)."""
    if state is None:
        return None
    seat = to_act(state)
    if seat is None:
        return None
    parts = [str(seat), str(state.turn.number), state.phase.name, str(state.active)]
    engagement = state.engagement
    if engagement is not None:
        parts += [str(engagement.land), engagement.stage.name, engagement.to_act.name]
        parts.append(str(len(engagement.proposals)))
        battle = engagement.battle
        if battle is not None:
            parts += [str(battle.turn), battle.phasing.name, battle.step.name]
            parts.append("carry" if battle.carry is not None else "")
    return Decision(seat, ":".join(parts))
