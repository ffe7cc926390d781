"""Counts in words, for every message shown to a player (the engine's and the bot's)."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 hit``, ``2 hits``; ``many`` is the plural where it is not the word and an s
    (``plural(2, "die", "dice")`` is ``2 dice``)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {many if many is not None else word + 's'}"
