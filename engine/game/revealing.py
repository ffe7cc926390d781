"""A player shows his own legion to everyone (errata 4.5, RULES §1.7).

Errata 4.5 lets a player show what is in his legions, to discourage or encourage an
attack; like a withdrawal it may be done at any time while the game is played, not only
on his turn. What he shows is public and recorded with every other reveal
(``Legion.revealed``, which record keeping shows, errata 20.0).
"""

from __future__ import annotations

from collections import Counter

from engine.characters import character
from engine.errors import IllegalAction, WrongPhase
from engine.game.actions import Reveal
from engine.game.common import Step, add_revealed, own_legion, sort_names
from engine.game.events import SHOWN_BY_OWNER, Revealed
from engine.game.state import GameState, Legion, Phase, Stage
from engine.game.waiting import waiting_words


def reveal(state: GameState, seat: int, action: Reveal) -> Step:
    """Show all of a legion (``characters`` None or empty) or the characters named.

    Raises :class:`WrongPhase` before the colours are chosen (every legion is a starting
    legion then, known to all, RULES §1.6) and after the game; :class:`NotYourTurn` for
    another player's legion; :class:`IllegalAction` for characters the legion does not
    hold and for a reveal that shows nothing new: everyone has seen all of it already, or
    it is fighting the battle in progress, where everything is public (RULES §5.7).
    """
    if state.result is not None:
        raise WrongPhase("you can show a legion only while the game is being played")
    if state.phase is Phase.COLOURS:
        raise WrongPhase(
            "you can show a legion only once the turns have begun (until then every legion is "
            f"a starting legion, known to all); {waiting_words(state, seat)}"
        )
    legion = own_legion(state, seat, action.marker)
    shown = sort_names(character(n).name for n in action.characters or legion.characters)
    missing = Counter(shown) - Counter(legion.characters)
    if missing:
        raise IllegalAction(f"{legion.marker} holds no {', '.join(missing.elements())} to show")
    if in_battle(state, legion):
        raise IllegalAction(
            f"{legion.marker} is fighting the battle: everyone sees it already (RULES §5.7)"
        )
    if not Counter(shown) - Counter(legion.revealed):
        what = ", ".join(shown) if action.characters else "all of it"
        raise IllegalAction(f"everyone has seen {what} in {legion.marker} already")
    state = state.with_legion(add_revealed(legion, shown))
    return state, [Revealed(legion.marker, shown, SHOWN_BY_OWNER)]


def in_battle(state: GameState, legion: Legion) -> bool:
    """Whether ``legion`` fights the battle in progress (its contents public, RULES §5.7)."""
    engagement = state.engagement
    return (
        engagement is not None
        and engagement.stage is Stage.BATTLE
        and legion.marker in (engagement.attacker, engagement.defender)
    )


def unrevealed(state: GameState, legion: Legion) -> bool:
    """Whether showing all of ``legion`` now would show something new."""
    if in_battle(state, legion) or not legion.characters:
        return False
    if len(legion.revealed) < len(legion.characters):  # fewer shown than it holds
        return True  # (nothing shown yet, the common case: no counting)
    return bool(Counter(legion.characters) - Counter(legion.revealed))
