"""Discord's per-route rate limits, as the fake Discord keeps them (see
:mod:`tests.bot.discord.fake`).

A :class:`Bucket` lets ``limit`` requests of a route through per ``window`` seconds, for
each value of the route's major parameter (a guild, a channel). Like Discord's, a window
opens with its first request; every answer in the bucket carries ``X-RateLimit-Limit``,
``-Remaining``, ``-Reset``, ``-Reset-After`` and ``-Bucket`` (unless the bucket is
``hidden``: a limit Discord does not announce, as for a shared resource), and a request
beyond the limit gets 429 with the seconds to wait in ``retry_after`` (body) and
``Retry-After`` (header), ``Via`` set (without it discord.py takes the 429 for
Cloudflare's ban). A request that comes while a 429 it had said to wait for runs is a
*violation*: Discord counts those toward banning the bot's IP (10,000 invalid requests in
10 minutes), so the tests count them.

Time is the real monotonic clock: discord.py waits in real time.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Answer = tuple[int, Any]


def _ms_up(seconds: float) -> float:
    """Seconds rounded up to the millisecond, as Discord states them."""
    return math.ceil(seconds * 1000) / 1000


@dataclass
class Bucket:
    """One route's limit: ``method`` and ``pattern`` (matched against the whole path; its
    first group is the major parameter)."""

    method: str
    pattern: str
    limit: int
    window: float
    name: str
    hidden: bool = False
    clock: Callable[[], float] = time.monotonic
    served: int = 0
    """Requests let through."""
    limited: int = 0
    """Requests answered 429."""
    violations: int = 0
    """Requests that came before the end of a 429's ``retry_after``."""
    _opened: dict[str, tuple[float, int]] = field(default_factory=dict)
    _blocked: dict[str, float] = field(default_factory=dict)

    def major(self, method: str, path: str) -> str | None:
        """The major parameter of a request in this bucket (None: not in it)."""
        found = re.fullmatch(self.pattern, path)
        if method != self.method or found is None:
            return None
        return found.group(1) if found.groups() else ""

    def take(self, major: str) -> tuple[Answer | None, dict[str, str]]:
        """A request of ``major``: None and the headers to add when it may go, else the
        429 and its headers."""
        now = self.clock()
        if now < self._blocked.get(major, 0.0):
            self.violations += 1
        start, used = self._opened.get(major, (now, 0))
        if now >= start + self.window:
            start, used = now, 0
        reset_after = _ms_up(start + self.window - now)
        if used >= self.limit:
            self.limited += 1
            self._blocked[major] = now + reset_after
            body = {"message": "You are being rate limited.", "retry_after": reset_after}
            body["global"] = False
            headers = self._headers(0, reset_after) | {
                "Via": "1.1 google",
                "Retry-After": str(math.ceil(reset_after)),
                "X-RateLimit-Scope": "shared" if self.hidden else "user",
            }
            return (429, body), headers
        self._opened[major] = (start, used + 1)
        self.served += 1
        headers = {} if self.hidden else self._headers(self.limit - used - 1, reset_after)
        return None, headers

    def _headers(self, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


CHANNEL_CREATION_LIMIT, CHANNEL_CREATION_WINDOW = 5, 0.25
"""The fake's pace for creating a guild's channels: 5 per window (Discord's is as small,
over a longer window; the tests' time runs faster)."""


def channel_creation(hidden: bool = False, window: float = CHANNEL_CREATION_WINDOW) -> Bucket:
    """The bucket of ``POST /guilds/{guild}/channels``, per guild."""
    return Bucket(
        "POST",
        r"guilds/(\d+)/channels",
        CHANNEL_CREATION_LIMIT,
        window,
        "fake-channel-creation",
        hidden=hidden,
    )
