"""A player's reliability in a server: the decisions handed to them, the deadlines they
missed, and how soon they answer (the median wait), as ``rating`` shows it beside the
rating. Worked out from the action log (:mod:`bot.storage.punctuality`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from bot.schedule.timing import show_duration
from bot.storage.punctuality import Answer
from engine.words import plural

DAY = 86_400


@dataclass(frozen=True)
class Reliability:
    games: int
    """Started games the player holds a seat in, or played before handing it over."""
    decisions: int
    """Decisions handed to the player."""
    missed: int
    """Of them, those left to a passed deadline."""
    median: float | None
    """Seconds within which half of the decisions were answered (None: no decision)."""


def reliability(games: int, answers: Sequence[Answer]) -> Reliability:
    waits = [a.waited for a in answers]
    missed = sum(a.missed for a in answers)
    return Reliability(games, len(waits), missed, median(waits) if waits else None)


def reliability_text(found: Reliability, whom: str) -> str:
    """``Reliability here: 212 decisions in 9 games, 3 deadlines missed; half answered
    within 2h10m.`` (``whom``: "you", or "them"; one decision is "answered within")."""
    if found.median is None:
        return f"Reliability here: no decision handed to {whom} yet."
    missed = plural(found.missed, "deadline") + " missed" if found.missed else "no deadline missed"
    half = "half answered" if found.decisions > 1 else "answered"
    return (
        f"Reliability here: {plural(found.decisions, 'decision')} in "
        f"{plural(found.games, 'game')}, {missed}; {half} within {wait_text(found.median)}."
    )


def wait_text(seconds: float) -> str:
    """A wait as players write durations, to the minute (to the hour beyond a day)."""
    if seconds < 60:
        return "a minute"
    unit = 3600 if seconds >= DAY else 60
    return show_duration(round(seconds / unit) * unit)
