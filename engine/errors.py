"""The one error hierarchy of the engine.

Every message is safe to show to the player who caused it: it names the bad input and,
where a rule forbids the action, the rule (``RULES §…``). Nothing here reveals hidden
information about another player's legions.
"""

from __future__ import annotations


class TitanError(ValueError):
    """Base of every error the engine raises on purpose."""


class DataError(TitanError):
    """The game's data files are inconsistent (raised at load time)."""


class InvalidNotation(TitanError):
    """Input that cannot be parsed: an unknown land, hex, character, marker or notation."""


class IllegalAction(TitanError):
    """A well-formed action that the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """The seat that acted is not the one that must act."""


class WrongPhase(IllegalAction):
    """The action does not belong to the current phase or decision."""


class IllegalSplit(IllegalAction):
    """A split that breaks RULES §3."""


class IllegalMove(IllegalAction):
    """A masterboard move that breaks RULES §2 or §4."""


class IllegalMuster(IllegalAction):
    """A muster or reinforcement that breaks RULES §6."""


class IllegalEngagement(IllegalAction):
    """An engagement decision (flee, proposal, concession) that breaks RULES §5."""


class IllegalManeuver(IllegalAction):
    """A battle maneuver that breaks RULES §8.5."""


class IllegalStrike(IllegalAction):
    """A strike, rangestrike or carry-over that breaks RULES §9 or §10."""


class IllegalSummon(IllegalAction):
    """A summon or acquisition that breaks RULES §7."""
