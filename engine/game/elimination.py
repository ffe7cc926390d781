"""Removing a player from the game: half points, markers, game end (RULES §12; rule 19.3).

Errata 4.6, 10.5, 20.4 and the SoP: the eliminated player's legions are removed as if
slain; each legion (and the Titan legion's survivors) is worth half its value to the
player it is in an unresolved engagement with, otherwise to the eliminator; each receiver
gets ⌊credited total / 2⌋ (rounded per player, not per legion). The eliminator inherits
all the player's markers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from engine.characters import character
from engine.frozen import evolve
from engine.game.common import Step, reveal_winners
from engine.game.events import (
    TITAN_LOST,
    WITHDREW,
    CharactersSlain,
    Event,
    GameOver,
    LegionEliminated,
    MarkersInherited,
    PlayerEliminated,
    PointsScored,
)
from engine.game.state import GameState, Legion, Phase, Result
from engine.game.turns import drop_final_turn


def value_of(state: GameState, owner: int, names: Iterable[str]) -> int:
    """Value of characters of ``owner`` (a Titan's at its owner's score, RULES §1.3)."""
    score = state.player(owner).score
    return sum(character(n).value_at(score) for n in names)


def engaged_opponent(state: GameState, legion: Legion, current_land: int | None) -> int | None:
    """The player ``legion`` is in an unresolved engagement with, if any (RULES §12.2)."""
    if state.phase is not Phase.ENGAGE or legion.land == current_land:
        return None
    others = {leg.owner for leg in state.legions_in(legion.land) if leg.owner != legion.owner}
    living = [o for o in others if not state.player(o).eliminated]
    return living[0] if living else None


def eliminate_players(
    state: GameState,
    eliminated: dict[int, int | None],
    *,
    survivors: dict[int, tuple[str, ...]] | None = None,
    pay_engaged: bool = True,
    current_land: int | None = None,
) -> tuple[GameState, list[Event], list[str]]:
    """Remove the players of ``eliminated`` (seat → eliminator or None) at once.

    ``survivors``: characters of a slain Titan's legion still alive (seat → names), worth
    half points to the eliminator (rule 19.3). ``pay_engaged`` false for a game concession
    away from the Titan's engagement (errata 20.4: nobody scores). Returns the new state,
    the events and every character removed (for regeneration and the dead pile).
    """
    credits: dict[int, int] = defaultdict(int)
    removed: list[str] = []
    events: list[Event] = []
    gone = set(eliminated)
    for seat, eliminator in eliminated.items():
        receiver_of_rest = eliminator if eliminator not in gone else None
        names = (survivors or {}).get(seat, ())
        if names and receiver_of_rest is not None and pay_engaged:
            credits[receiver_of_rest] += value_of(state, seat, names)
        removed += names
        for legion in sorted(state.legions_of(seat), key=lambda leg: leg.marker):
            engaged = engaged_opponent(state, legion, current_land)
            receiver = engaged if engaged is not None else receiver_of_rest
            if receiver is not None and receiver not in gone and pay_engaged:
                credits[receiver] += value_of(state, seat, legion.characters)
            removed += legion.characters
            events += [
                CharactersSlain(legion.marker, legion.characters, "player eliminated"),
                LegionEliminated(legion.marker, seat),
            ]
            state = state.without_legion(legion.marker)
    for seat, eliminator in eliminated.items():
        state, more = _retire(state, seat, eliminator if eliminator not in gone else None)
        events += more
    for receiver, total in sorted(credits.items()):
        state, more = award(state, receiver, total // 2, "half points for an eliminated player")
        events += more
    return state, events, removed


def _retire(state: GameState, seat: int, eliminator: int | None) -> Step:
    """``seat`` leaves: a player whose withdrawal was under way withdrew (RULES §12.4),
    any other lost his Titan (§12.1)."""
    player = state.player(seat)
    reason = WITHDREW if player.withdrawing else TITAN_LOST
    state = drop_final_turn(state, seat)
    state = state.with_player(evolve(player, eliminated=True, withdrawing=False, markers=()))
    events: list[Event] = [PlayerEliminated(seat, eliminator, reason)]
    if eliminator is not None:
        heir = state.player(eliminator)
        state = state.with_player(evolve(heir, markers=heir.markers + player.markers))
        events.append(MarkersInherited(eliminator, player.markers))
    return state, events


def award(state: GameState, seat: int, points: int, reason: str) -> Step:
    """Add ``points`` to a living player's score."""
    if points <= 0 or state.player(seat).eliminated:
        return state, []
    player = state.player(seat)
    state = state.with_player(evolve(player, score=player.score + points))
    return state, [PointsScored(seat, points, player.score + points, reason)]


def check_game_over(state: GameState, last_out: Iterable[int] = ()) -> Step:
    """End the game when fewer than two players remain (RULES §12.5)."""
    living = state.living_seats()
    if len(living) >= 2 or state.result is not None:
        return state, []
    if living:
        winners, reason = tuple(living), "last Titan standing"
    else:
        winners, reason = tuple(sorted(last_out)), "draw: the last Titans fell together"
    result = Result(winners, reason)
    state = evolve(state, phase=Phase.OVER, result=result, engagement=None)
    return state, [GameOver(winners, reason), *reveal_winners(state)]
