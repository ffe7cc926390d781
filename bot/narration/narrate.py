"""Events in words: one line per event a reader may see (RULES §1.7 audiences respected).

:data:`NARRATORS` is a table keyed on the event's type, filled by :mod:`bot.narration.game_events`
and :mod:`bot.narration.battle_events`; an event without an entry gets a plain generic line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import fields
from enum import Enum

from bot.narration import battle_events as _battle  # noqa: F401  (registers the battle's narrators)
from bot.narration import game_events as _game  # noqa: F401  (registers the game's narrators)
from bot.narration.runs import run_line
from bot.narration.table import NARRATORS, Names, Narrator, listing, narrator, plural, proposal_text
from engine.events import Event
from engine.game.events import BattleBegun, EngagementBegun, MarkersInherited


def narrate(events: Iterable[Event], names: Names, seat: int | None = None) -> list[str]:
    """The lines ``seat`` (None: everyone) may read. Private events are left out for None;
    runs of like events are told in one line (:mod:`bot.narration.runs`)."""
    lines = []
    seen = [e for e in events if e.visible_to(seat)]
    folded_until = 0
    for index, event in enumerate(seen):
        if index < folded_until:
            continue
        if (run := run_line(seen, index, names)) is not None:
            lines.append(run[0])
            folded_until = index + run[1]
            continue
        if isinstance(event, EngagementBegun | BattleBegun):
            names.engaged(event.attacker, event.defender)
        names.upcoming = seen[index + 1] if index + 1 < len(seen) else None
        function = NARRATORS.get(type(event), generic)
        line = function(event, names)
        if line:
            lines.append(line)
        if isinstance(event, MarkersInherited):  # the markers are the heir's from now on
            names.owned(event.markers, event.seat)
    return lines


def private_events(events: Iterable[Event], seat: int) -> list[Event]:
    """The events addressed to a set of seats that includes ``seat``."""
    return [e for e in events if e.audience is not None and seat in e.audience]


def generic(event: Event, names: Names) -> str:
    """``Battle ended: kind concession, winner defender.`` for events without a narrator."""
    title = re.sub(r"(?<!^)(?=[A-Z])", " ", type(event).__name__).capitalize()
    parts = [
        f"{f.name.replace('_', ' ')} {_plain(getattr(event, f.name))}"
        for f in fields(event)
        if f.name != "audience"
    ]
    return f"{title}: {', '.join(parts)}." if parts else f"{title}."


def _plain(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple | list | frozenset):
        return "(" + " ".join(_plain(v) for v in value) + ")"
    return str(value)


__all__ = [
    "NARRATORS",
    "Names",
    "Narrator",
    "generic",
    "listing",
    "narrate",
    "narrator",
    "plural",
    "private_events",
    "proposal_text",
]
