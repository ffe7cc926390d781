"""The command rate of each user: a token bucket, a burst at once and then a steady rate.

Each user has a bucket of ``burst`` tokens that refills at ``per_minute`` tokens a minute;
a command spends one. A command that finds no token is refused without spending one, and
learns how long until there is one. Time comes from an injected clock (seconds).
"""

from __future__ import annotations

import time
from collections.abc import Callable

PRUNE_AT = 1024
"""Buckets kept before the full ones are forgotten (a full bucket is a new user's)."""
_EPSILON = 1e-9
"""Rounding slack: a token refilled to within this counts as whole."""


class CommandRate:
    """Token buckets by user id."""

    def __init__(
        self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("a command rate needs per_minute > 0 and burst >= 1")
        self.per_minute = per_minute
        self.burst = burst
        self._per_second = per_minute / 60
        self._clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}
        """user → (tokens, when they were counted)."""
        self._prune_at = PRUNE_AT

    def take(self, user: int) -> float:
        """Spend one of ``user``'s tokens: 0.0 when the command may go ahead; otherwise
        nothing is spent and the result is the seconds until a token is there."""
        now = self._clock()
        tokens = self._tokens(user, now)
        if tokens >= 1 - _EPSILON:
            self._buckets[user] = (max(tokens - 1, 0.0), now)
            self._prune(now)
            return 0.0
        self._buckets[user] = (tokens, now)
        return (1 - tokens) / self._per_second

    def _tokens(self, user: int, now: float) -> float:
        tokens, then = self._buckets.get(user, (float(self.burst), now))
        return min(float(self.burst), tokens + max(now - then, 0.0) * self._per_second)

    def _prune(self, now: float) -> None:
        """Forget the users whose bucket has refilled (amortised: the threshold doubles)."""
        if len(self._buckets) <= self._prune_at:
            return
        full = [u for u in self._buckets if self._tokens(u, now) >= self.burst - _EPSILON]
        for user in full:
            del self._buckets[user]
        self._prune_at = max(PRUNE_AT, 2 * len(self._buckets))

    def __len__(self) -> int:
        """The users remembered (those whose bucket is not known to be full)."""
        return len(self._buckets)
