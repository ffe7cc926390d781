"""Where the scheduler's time comes from: the system's, or a test's that it moves by hand."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Clock(Protocol):
    """Seconds since the epoch, and a way to wait for a moment (or to be woken first)."""

    def now(self) -> float: ...

    async def sleep_until(self, moment: float | None, woken: asyncio.Event) -> None:
        """Return at ``moment`` (never, when None) or as soon as ``woken`` is set."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, moment: float | None, woken: asyncio.Event) -> None:
        timeout = None if moment is None else max(0.0, moment - self.now())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), timeout)


class ManualClock:
    """A test's clock: time moves only by :meth:`advance`, which wakes whoever sleeps."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds
        self._moved.set()

    async def sleep_until(self, moment: float | None, woken: asyncio.Event) -> None:
        while moment is None or self._now < moment:
            if woken.is_set():
                return
            self._moved.clear()
            waits = {asyncio.ensure_future(woken.wait()), asyncio.ensure_future(self._moved.wait())}
            _, left = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in left:
                task.cancel()
