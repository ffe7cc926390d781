"""Descriptions shared by the commands that set a game's clock (``/titan settings`` for
the host, ``/titan-admin settings`` for organisers)."""

from __future__ import annotations

CLOCK_OPTIONS = {
    "deadline": "how long each decision may wait, like 24h or 2d, or off",
    "timeout": "when a deadline passes: ai plays, pass plays the least, pause waits",
    "standin": "the computer's level for a late or away player (default hard)",
    "remind": "reminders at these fractions of the deadline, like 0.5,0.9",
    "before": "and a reminder this long before the deadline, like 1h",
}
CONFIRM = "True: skip the second look at what it gives up"
"""The ``confirm`` option of a command that may throw something away (:mod:`bot.second_look`)."""
