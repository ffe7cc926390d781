"""Turns in words, as players count them: the game turn and whose turn it is.

The state counts player turns (``Turn.number``); players count game turns, every player
taking one turn in each (:mod:`engine.game.game_turns`). Every text that shows a turn
says it one of two ways: ``Turn 11 · Bob`` as a heading (the narration of a turn's start,
the pictures), ``turn 11, Bob's`` within a sentence (``status``, ``mygames``, the
tournament desk).
"""

from __future__ import annotations

from engine.game.game_turns import game_turn
from engine.game.state import GameState, Phase


def turn_heading(state: GameState, name: str | None = None) -> str:
    """``Turn 11 · Bob`` (``name``: the active player's, default the state's);
    ``Colours`` while the colours are chosen, before turn 1."""
    if state.phase is Phase.COLOURS:
        return "Colours"
    return f"Turn {game_turn(state)} · {name or state.player(state.active).name}"


def turn_phrase(state: GameState, whose: str | None = None) -> str:
    """``turn 11, Bob's`` (``whose``: the possessive, such as ``yours``; default the active
    player's name and 's); ``before turn 1`` while the colours are chosen."""
    if state.phase is Phase.COLOURS:
        return "before turn 1"
    if whose is None:
        whose = f"{state.player(state.active).name}'s"
    return f"turn {game_turn(state)}, {whose}"
