"""Runs of like events told in one line, where a line each would bury the news: the legions
that go with an eliminated player (RULES §12.1), the legions shown at the game's end."""

from __future__ import annotations

from collections.abc import Sequence

from bot.narration.table import Names, listing
from engine.events import Event
from engine.game import events as ev

#: Why :mod:`engine.game.elimination` slays the characters of a player's legions.
WITH_THE_PLAYER = "player eliminated"


def run_line(events: Sequence[Event], start: int, names: Names) -> tuple[str, int] | None:
    """The line telling the run of like events at ``start``, and how many it takes; None
    when no run starts there."""
    legions: list[str] = []
    at = start
    owner: int | None = None
    while at + 1 < len(events):
        lost, gone = events[at], events[at + 1]
        if not (
            isinstance(lost, ev.CharactersSlain)
            and lost.reason == WITH_THE_PLAYER
            and isinstance(gone, ev.LegionEliminated)
            and gone.marker == lost.marker
            and owner in (None, gone.owner)
        ):
            break
        owner = gone.owner
        legions.append(f"{lost.marker} ({listing(lost.characters)})")
        at += 2
    if legions:
        return f"{names.seat(owner)}'s legions are eliminated: {', '.join(legions)}.", at - start
    shown: list[str] = []
    who: str | None = None
    while at < len(events):
        event = events[at]
        if not (isinstance(event, ev.Revealed) and event.reason == ev.GAME_OVER):
            break
        player = names.owner(event.marker)
        if shown and player != who:
            break
        who = player
        shown.append(f"{event.marker} ({listing(event.characters)})")
        at += 1
    if len(shown) < 2:
        return None
    whose = f"{who}'s legions" if who else "Legions"
    return f"{whose} at the game's end: {', '.join(shown)}.", at - start
