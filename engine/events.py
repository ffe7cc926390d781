"""The base of every event the engine reports (game and battle alike).

Each event has an ``audience``: None for everyone, otherwise the seats that may see it
(RULES §1.7). An event addressed to a seat never carries another player's unrevealed
legion contents.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    """Base of every event."""

    audience: frozenset[int] | None = field(default=None, kw_only=True)

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)
