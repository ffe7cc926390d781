"""A game's clock as a host chooses it: ``deadline 24h``, ``timeout pass``, ``standin
normal``, ``time_limit 2027-03-01`` — read from a command's words onto the server's default
:class:`Timing`."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

from bot.schedule.timing import POLICIES, parse_duration, show_duration
from bot.storage.record import AWAY_DAYS, MOST_AWAY_DAYS, Timing
from bot.syntax.words import number
from engine.ai.levels import STAND_IN, level_of
from engine.errors import IllegalAction
from engine.words import plural

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2})?")


def looks_like_date(word: str | None) -> bool:
    return word is not None and _DATE.fullmatch(word) is not None


def parse_moment(text: str, now: float) -> float:
    """``2027-03-01`` (midnight UTC) or ``2027-03-01T18:00`` (UTC), in the future."""
    if not looks_like_date(text):
        raise IllegalAction(
            f"{text!r} is no date: write it like `2027-03-01` or `2027-03-01T18:00`"
        )
    try:
        moment = datetime.fromisoformat(text.replace(" ", "T")).replace(tzinfo=UTC)
    except ValueError:
        raise IllegalAction(f"{text!r} is no date of the calendar") from None
    if moment.timestamp() <= now:
        raise IllegalAction(f"the time limit must be in the future, not {text}")
    return moment.timestamp()


def with_deadline(timing: Timing, text: str) -> Timing:
    return replace(timing, deadline=parse_duration(text, "a deadline"))


def with_policy(timing: Timing, text: str) -> Timing:
    policy = text.lower()
    if policy not in POLICIES:
        raise IllegalAction(f"a passed deadline may do **ai**, **pass** or **pause**, not {text!r}")
    return replace(timing, on_timeout=policy)


def with_stand_in(timing: Timing, text: str) -> Timing:
    """``timing`` with the computer standing in at the level ``text`` names."""
    level = level_of(text)
    if level is None:
        raise IllegalAction(
            f"the computer stands in at **easy**, **normal** or **hard**, not {text!r}"
        )
    return replace(timing, stand_in=level)


def with_away_days(timing: Timing, text: str) -> Timing:
    """``timing`` whose clocks a player's time away stops for at most ``text`` days (0:
    never)."""
    days = number(text, "days away", least=0, most=MOST_AWAY_DAYS)
    return replace(timing, away_days=days)


def after_deadline(timing: Timing, *, level: bool = False) -> str:
    """What a passed deadline does, in words: ``the computer plays`` (``at hard`` when
    ``level``, or when the level is not the default), ``the least is played``, ``it waits``."""
    if timing.on_timeout != "ai":
        return {"pass": "the least is played", "pause": "it waits"}[timing.on_timeout]
    said = level or timing.stand_in != STAND_IN
    return f"the computer plays at {timing.stand_in}" if said else "the computer plays"


def describe(timing: Timing) -> str:
    """The clock in a few words, for the lobby's and the settings' news."""
    if timing.deadline is None:
        clock = "no deadline"
    else:
        clock = f"{show_duration(timing.deadline)} a decision, then {after_deadline(timing)}"
        if timing.inactivity:
            clock += f"; the inactivity rule after {timing.most_timeouts} in a row"
    said = timing.deadline is not None and timing.on_timeout == "ai"
    if timing.stand_in != STAND_IN and not said:
        clock += f"; the computer stands in at {timing.stand_in}"
    if timing.expires_at is not None:
        clock += f"; ends <t:{int(timing.expires_at)}:f>"
    if timing.away_days == 0:
        clock += "; time away stops no clock"
    elif timing.away_days != AWAY_DAYS:
        clock += f"; time away stops the clocks for at most {plural(timing.away_days, 'day')}"
    return clock
