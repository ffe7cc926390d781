"""One of the processes of the concurrency test: a service on a shared PostgreSQL
database, playing commands on games the other process plays too, while its scheduler and
deliverer claim their share of what falls due and what must be said.

``python -m tests.bot.concurrency_worker DSN INDEX SECONDS EPOCH`` plays for ``SECONDS``,
then lets its deliverer finish and stops. It prints ``sent NONCE`` for every message its
transport sends and, last, ``done ACCEPTED REFUSED`` with the accepted commands per game
as JSON. Its clock runs :data:`SPEED` times faster than real time from ``EPOCH`` (the
same in both processes), so the sleepers' one-hour deadlines pass every few seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from collections import Counter

from bot.context import Place, Version
from bot.replies import Message
from bot.service import GameService
from tests.bot.agent import caller, choose

SPEED = 1200.0
"""Clock seconds per real second: a one-hour deadline passes in three seconds."""
HOT = range(1, 21)
"""The games both processes play most (their commands race)."""
OTHERS = range(1001, 1501)
"""Five hundred more games, played now and then by either process."""
SLEEPERS = range(2001, 2011)
FIRST_HOT = 5
"""The hot games each worker plays on at least once (on a busy machine it plays past its
``SECONDS`` until it has, up to :data:`GUARD` times as long)."""
GUARD = 20
"""Clocked games nobody plays: the schedulers time their seats out."""


class FastClock:
    """The scheduler's clock: :data:`SPEED` times real time, from a shared epoch."""

    def __init__(self, epoch: float) -> None:
        self._epoch = epoch

    def now(self) -> float:
        return self._epoch + (time.time() - self._epoch) * SPEED

    async def sleep_until(self, moment: float | None, woken: asyncio.Event) -> None:
        wait = 3600.0 if moment is None else max(0.0, (moment - self.now()) / SPEED)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), timeout=min(wait, 3600.0))


class RecordingTransport:
    """Says nothing; prints each message's nonce, for the test to count."""

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        print(f"sent {nonce}", flush=True)
        return "sent", None

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        return "edited"

    def measure(self, message: Message) -> int:
        return len(message.text)

    async def unbutton(self, channel: int, message_id: int) -> None:
        return None

    async def open_thread(self, channel: int, message_id: int, name: str) -> int:
        return channel

    async def close_thread(self, thread: int) -> None:
        return None

    async def open_table(self, *args: object) -> int:
        raise AssertionError("no tournament here")

    async def dm(self, user: int, channel: int, message: Message, nonce: str) -> str:
        print(f"sent {nonce}", flush=True)
        return "sent"

    async def answer(self, reply_to: str | None, message: Message | None, user: int | None) -> str:
        return "answered"

    async def tell(self, reply_to: str, message: Message) -> str:
        return "told"


async def main(dsn: str, index: int, seconds: float, epoch: float) -> None:
    service = await GameService.open(dsn, wall_clock=FastClock(epoch))
    await service.deliver_with(RecordingTransport())
    await service.keep_time()
    rng = random.Random(index)
    accepted: Counter[int] = Counter()
    refused = 0
    print("ready", flush=True)
    end = time.monotonic() + seconds
    hot_played: set[int] = set()
    while time.monotonic() < end or not hot_played >= set(HOT[:FIRST_HOT]):
        if time.monotonic() > end + GUARD * seconds:  # (a hang, not a slow machine)
            break
        channel = rng.choice(HOT) if rng.random() < 0.7 else rng.choice(OTHERS)
        game = await service.game_in(channel)
        if game is None or game.state is None:
            continue
        seat, command = choose(game.state, index * 1_000_003 + rng.randrange(1000), game.n)
        expect = Version(game.id, game.n) if rng.random() < 0.5 else None  # a button
        who, place = caller(channel, seat), Place(channel)
        if isinstance(command, str):
            replies = await service.submit(place, who, command, expect=expect)
        else:
            replies = await service.act(place, who, command, expect=expect)
        if replies.error:
            refused += 1
        elif replies.stored:  # (not a second look asked for: a state moved on since chosen)
            accepted[game.id] += 1
            hot_played.add(channel)
    # Stop keeping time first, then say everything this process stored: the other process
    # says what it stores after this one stops.
    assert service.scheduler is not None and service.deliverer is not None
    await service.scheduler.close()
    await service.deliverer.finish()
    await service.close()
    print(f"done {json.dumps(dict(accepted))} {refused}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])))
