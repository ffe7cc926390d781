"""Durations as players write them (``24h``, ``90m``, ``2d12h``, ``off``) and the moments a
decision's reminders fall due."""

from __future__ import annotations

import re

from bot.storage.record import Timing
from engine.errors import IllegalAction

UNITS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"(\d{1,4})([wdhms])")
POLICIES = ("ai", "pass", "pause")
"""What a passed deadline may do: the computer plays, the least is played, the game waits."""
LONGEST = 90 * 86400
"""The longest clock a decision may have (90 days)."""


def parse_duration(text: str, what: str = "a duration") -> int | None:
    """Seconds in ``text`` (``24h``, ``1d12h``, ``90m``); None for ``off``/``none``."""
    word = text.strip().lower()
    if word in ("off", "none", "no"):
        return None
    parts = _PART.findall(word)
    if not parts or "".join(n + u for n, u in parts) != word:
        raise IllegalAction(
            f"{text!r} is not {what}: write it like `24h`, `90m`, `2d` or `1d12h` (or `off`)"
        )
    seconds = sum(int(n) * UNITS[u] for n, u in parts)
    if not 60 <= seconds <= LONGEST:
        raise IllegalAction(f"{what} must be between a minute and 90 days, not {text!r}")
    return seconds


def show_duration(seconds: int) -> str:
    """``seconds`` as players write it (``1d12h``)."""
    parts = []
    for unit, size in UNITS.items():
        if unit == "w":
            continue
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts) or "0m"


def reminder_times(timing: Timing, since: float) -> list[float]:
    """When the decision begun at ``since`` is reminded: before its deadline at the
    chosen points, or — without one — after each idle stretch, a few times."""
    if timing.deadline is None:
        return [since + timing.idle * k for k in range(1, timing.idle_reminders + 1)]
    deadline = since + timing.deadline
    moments = {since + timing.deadline * f for f in timing.remind_at if 0 < f < 1}
    if 0 < timing.remind_before < timing.deadline:
        moments.add(deadline - timing.remind_before)
    return sorted(m for m in moments if since < m < deadline)
