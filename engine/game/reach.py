"""Where the mover's legions may go after the movement roll, as one viewer knows it.

The roll, the board and the moves made are public (RULES §4.2, §2.3), so every normal move
is known to all. A teleport needs a lord (RULES §4.4) or the Titan (§4.5), and which legion
holds one is hidden (§1.7): a viewer is shown a teleport only when he knows the lord is
there. What he knows is his :func:`~engine.game.view.view` of the game (the mover sees his
own legions, so he is shown every legal move; the channel sees what the rules revealed to
all). The moves themselves come from the one source of legality,
:func:`~engine.game.moving.move_options`, given the characters the viewer knows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.game.moving import move_options
from engine.game.state import GameState, Phase
from engine.game.view import legion_view
from engine.movement import MoveKind, MoveOption


@dataclass(frozen=True)
class Reach:
    """Where one legion may go: ``lands`` by a normal move, ``teleports`` only by a
    teleport (a land both reach is in ``lands``)."""

    marker: str
    start: int
    lands: tuple[int, ...]
    teleports: tuple[int, ...] = ()

    @classmethod
    def of(cls, marker: str, start: int, options: Iterable[MoveOption]) -> Reach:
        found = list(options)
        normal = {o.destination for o in found if o.kind is MoveKind.NORMAL}
        teleport = {o.destination for o in found if o.kind is not MoveKind.NORMAL} - normal
        return cls(marker, start, tuple(sorted(normal)), tuple(sorted(teleport)))

    @property
    def destinations(self) -> tuple[int, ...]:
        """Every land it may reach, in order."""
        return tuple(sorted((*self.lands, *self.teleports)))


def reach(state: GameState, seat: int | None) -> tuple[Reach, ...]:
    """The destinations of each of the mover's legions not moved yet, by marker, as ``seat``
    (None: anyone, the channel) knows them; empty but in the movement phase after the roll.
    A legion with nowhere to go is left out."""
    if state.result is not None or state.phase is not Phase.MOVE or state.turn.roll is None:
        return ()
    found = []
    for legion in sorted(state.legions_of(state.active), key=lambda leg: leg.marker):
        shown = legion_view(state, legion, seat)
        known = shown.characters if shown.characters is not None else shown.known
        options = move_options(state, legion, known)
        if options:
            found.append(Reach.of(legion.marker, legion.land, options))
    return tuple(found)
