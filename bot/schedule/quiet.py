"""Quiet hours: a span of the day (in the player's own time zone) when no reminder wakes
them; a reminder due then waits for its end."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.errors import IllegalAction

_SPAN = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)-([01]?\d|2[0-3]):([0-5]\d)")


@dataclass(frozen=True)
class QuietHours:
    start: time
    end: time
    zone: str

    @classmethod
    def parse(cls, span: str, zone: str = "UTC") -> QuietHours:
        """``22:00-08:00`` in time zone ``zone`` (an IANA name such as ``Europe/Paris``)."""
        found = _SPAN.fullmatch(span.strip())
        if found is None:
            raise IllegalAction(f"{span!r} is no span of hours: write it like `22:00-08:00`")
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise IllegalAction(
                f"{zone!r} is no time zone I know: give one like `Europe/Paris` or `UTC`"
            ) from None
        h1, m1, h2, m2 = (int(x) for x in found.groups())
        if (h1, m1) == (h2, m2):
            raise IllegalAction("quiet hours must start and end at different times")
        return cls(time(h1, m1), time(h2, m2), zone)

    @classmethod
    def stored(cls, text: str | None) -> QuietHours | None:
        """Read back what :meth:`to_text` stored (None for nothing, or unreadable)."""
        if not text:
            return None
        span, _, zone = text.partition(" ")
        try:
            return cls.parse(span, zone or "UTC")
        except IllegalAction:
            return None

    def to_text(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M} {self.zone}"

    def allows(self, moment: float) -> float:
        """``moment`` if it is outside the quiet hours, else the moment they end."""
        zone = ZoneInfo(self.zone)
        local = datetime.fromtimestamp(moment, UTC).astimezone(zone)
        clock = local.time().replace(tzinfo=None)
        overnight = self.start > self.end
        quiet = (
            (clock >= self.start or clock < self.end)
            if overnight
            else (self.start <= clock < self.end)
        )
        if not quiet:
            return moment
        day = local.date()
        if overnight and clock >= self.start:
            day += timedelta(days=1)
        end = datetime.combine(day, self.end, zone)
        return max(moment, end.timestamp())
