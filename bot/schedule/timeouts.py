"""What a passed deadline plays for the seat: the AI's choice, or the least the rules allow.

``pass`` plays the most passive legal action — end the phase, decline a chance, make no
more proposals, roll without splitting; where nothing passive is legal (a colour to choose,
a forced strike, the first turn's split), the AI's choice. Both are legal by construction.
"""

from __future__ import annotations

from bot.handlers.ai_seats import decide
from bot.schedule.timing import POLICIES
from engine.ai.levels import STAND_IN, Level
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions
from engine.game.state import GameState

PASSIVE: tuple[type[a.Action], ...] = (
    a.Decline,
    a.NoMoreProposals,
    b.EndStrikes,
    b.EndManeuver,
    a.EndTurn,
    a.EndMovement,
    a.Roll,
    a.Fight,
)
"""The passive answers, the most passive first."""
AI, PASS, PAUSE = POLICIES
INACTIVITY = "inactivity"


def timeout_action(state: GameState, seat: int, policy: str, level: Level = STAND_IN) -> a.Action:
    """The action a passed deadline plays for ``seat`` under ``policy`` (``ai``, ``pass``,
    or ``inactivity``: on their own turn they concede the game, attacked they concede the
    engagement — RULES §12.4, errata 20.4 — and otherwise the computer decides, at
    ``level``)."""
    if policy == INACTIVITY:
        legal = legal_actions(state, seat)
        wanted: type[a.Action] = a.Withdraw if state.active == seat else a.Concede
        conceding = next((x for x in legal if isinstance(x, wanted)), None)
        return conceding if conceding is not None else decide(state, seat, level)
    if policy == PASS:
        legal = legal_actions(state, seat)
        for kind in PASSIVE:
            found: a.Action | None = next((x for x in legal if type(x) is kind), None)
            if found is not None:
                return found
    return decide(state, seat, level)


def timeout_note(name: str, policy: str) -> str:
    """How the channel is told (the seat's name is public; why they were late is not)."""
    if policy == INACTIVITY:
        return f"⏰ **{name}**'s deadline passed again."
    if policy == PASS:
        return (
            f"⏰ **{name}**'s deadline passed: the least the rules allow is played for them, "
            "for the rest of this turn unless they are back."
        )
    return (
        f"⏰ **{name}**'s deadline passed: the computer plays for them, for the rest of this "
        "turn unless they are back."
    )
