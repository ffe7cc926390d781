"""What a channel is told about a damaged game (its record cannot be read back).

A damaged game keeps its status but no longer occupies its channel (RULES are not at
stake: the bot cannot rebuild the position). Anyone in the channel may read the notice:
it names only the game and where its record broke, never anything private.
"""

from __future__ import annotations

from engine.errors import IllegalAction


class GameDamaged(IllegalAction):
    """A command needs the channel's game, whose record is damaged."""


def damage_notice(game_id: int, reason: str) -> str:
    """The plain explanation for the channel's damaged game ``game_id``."""
    return (
        f"Game #{game_id} in this channel is damaged ({reason}); an organiser can export "
        "what is readable and abort it. `new` opens a fresh game."
    )
