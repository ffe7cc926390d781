"""The computer player's entry point: :func:`choose_action` (issue 7).

It dispatches on the phase and the engagement's stage to the module that decides, and
always answers with one of :func:`~engine.game.legal.legal_actions` (never ``Withdraw``,
never a voluntary ``Reveal``), so that every phase ends and the game goes on. Where legal
actions differ only in what they reveal (the recruiters of a muster, the lord of a
teleport) it considers only the first, the least revealing one (RULES §1.7,
:mod:`engine.reveals`).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.ai.battling import choose_battle_action
from engine.ai.engaging import choose_aftermath, choose_engage, choose_negotiation
from engine.ai.levels import DEFAULT, Level
from engine.ai.moving import choose_move
from engine.ai.mustering import choose_muster
from engine.ai.splitting import choose_split
from engine.errors import IllegalAction
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions
from engine.game.state import GameState, Phase, Stage


def choose_action(state: GameState, seat: int, level: Level = DEFAULT) -> a.Action:
    """One of ``seat``'s legal actions now, chosen to win (RULES §2–§12) at ``level``
    (:mod:`engine.ai.levels`).

    Raises :class:`~engine.errors.IllegalAction` when ``seat`` has nothing to decide.
    """
    legal = least_revealing(x for x in legal_actions(state, seat) if not isinstance(x, ANYTIME))
    if not legal:
        raise IllegalAction(f"seat {seat} has nothing to decide now")
    if len(legal) == 1:
        return legal[0]
    choice = _decide(state, seat, legal, level)
    return choice if choice in legal else _fallback(legal)


#: Actions open at any time that the computer player never takes: it does not give up, and
#: shows nothing it need not (RULES §1.7).
ANYTIME = (a.Withdraw, a.Reveal)


def least_revealing(actions: Iterable[a.Action]) -> list[a.Action]:
    """``actions`` without the later ones that differ from an earlier one only in what they
    reveal (:func:`~engine.game.actions.apart_from_reveal`): ``legal_actions`` lists the
    least revealing variant first."""
    kept: dict[tuple[object, ...], a.Action] = {}
    for action in actions:
        kept.setdefault(a.apart_from_reveal(action), action)
    return list(kept.values())


#: Actions never taken as a fallback: they give up or undo, and could loop.
_NOT_FALLBACK = (a.Concede, b.ConcedeInstead, a.UndoSplit, a.TakeBack, b.TakeBackManeuver)


def _fallback(legal: list[a.Action]) -> a.Action:
    """A safe legal action when a decision found none (a step it does not know)."""
    return next((x for x in legal if not isinstance(x, _NOT_FALLBACK)), legal[0])


def _decide(state: GameState, seat: int, legal: list[a.Action], level: Level) -> a.Action:
    phase = state.phase
    if phase is Phase.COLOURS:
        return legal[0]
    if phase is Phase.SPLIT:
        return choose_split(state, seat, legal)
    if phase is Phase.MOVE:
        return choose_move(state, seat, legal)
    if phase is Phase.MUSTER:
        return choose_muster(state, seat, legal)
    engagement = state.engagement
    if engagement is None:
        return choose_engage(state, seat, legal)
    if engagement.stage is Stage.NEGOTIATE:
        return choose_negotiation(state, seat, legal)
    if engagement.stage is Stage.AFTERMATH:
        return choose_aftermath(state, seat, legal)
    return choose_battle_action(state, seat, legal, level)
