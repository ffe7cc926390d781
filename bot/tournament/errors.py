"""The one error class of the tournament rules; its messages are safe to show a player."""

from __future__ import annotations

from engine.errors import TitanError


class TournamentError(TitanError):
    """A tournament request the rules cannot satisfy (impossible seating, unfinished game,
    inconsistent result…); the message says why."""
