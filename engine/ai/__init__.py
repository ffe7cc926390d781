"""A computer player for TITAN: :func:`choose_action` picks one of the legal actions.

Pure and deterministic: it reads the game state only as the rules let its seat see it
(RULES §1.7, through :func:`engine.game.view.view`), uses heuristics rather than search, and
breaks ties with hashes of the game's seed and dice counter, never a global generator.
"""

from engine.ai.player import choose_action

__all__ = ["choose_action"]
