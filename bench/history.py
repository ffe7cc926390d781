"""Benchmark of ``history`` on a long game: twenty at once, and other channels meanwhile.

    .venv/bin/python bench/history.py [--actions 10000] [--histories 20] [--rounds 40]
                                      [--others 5] [--pace 0.1] [--baseline 3] [--cold]
                                      [--db NEW_PATH]

Stores a genuine game of ``--actions`` actions (``tests/bot/long_game.py``) in channel 1
and opens ``--others`` two-player games in other channels, each playing a command every
``--pace`` seconds. Their commands are timed without history (the baseline, ``--baseline``
seconds), and again while ``--histories`` spectators ask ``history 50`` of the long game
at once, ``--rounds`` times (the long game loaded from SQLite for the first round, or for
every round with ``--cold``); the event loop's lag is measured by a ticker task.
Target: with 20 histories on a 10,000-action game, the other channels' p99 under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bot.context import Caller, Place  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import Database  # noqa: E402
from tests.bot.agent import caller, choose, open_game  # noqa: E402
from tests.bot.long_game import long_game, store_long_game  # noqa: E402

LONG = 1
WINDOW = 50


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(label: str, seconds: list[float]) -> None:
    ms = [s * 1000 for s in seconds]
    print(
        f"{label:<44} p50 {percentile(ms, 50):7.1f} ms   p99 {percentile(ms, 99):7.1f} ms   "
        f"max {max(ms):7.1f} ms   (n={len(ms)})"
    )


class Ticker:
    """A task that sleeps 5 ms at a time and records how late it wakes (the loop's lag)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(0.005)
            self.lags.append(loop.time() - before - 0.005)


async def store(path: Path, actions: int) -> None:
    started = time.perf_counter()
    game = long_game(actions)
    played = time.perf_counter()
    db = await Database.open(path, synchronous="OFF")
    try:
        async with db.transaction() as conn:
            await store_long_game(conn, LONG, game)
    finally:
        await db.close()
    print(
        f"long game: {actions} actions, {game.final.turn.number} player turns "
        f"(played in {played - started:.1f} s, stored in {time.perf_counter() - played:.1f} s)"
    )


async def other_command(service: GameService, channel: int, rng: random.Random) -> float:
    """Time one agent command in ``channel`` (a new game there when the last one ended);
    the agent's own choice is not timed."""
    game = await service.game_in(channel)
    if game is None:
        await open_game(service, channel, 2)
        game = await service.game_in(channel)
    assert game is not None and game.state is not None
    seat, command = choose(game.state, rng.randrange(1 << 30), game.n, fighting=True)
    who = caller(channel, seat)
    started = time.perf_counter()
    if isinstance(command, str):
        replies = await service.submit(Place(channel), who, command)
    else:
        replies = await service.act(Place(channel), who, command)
    took = time.perf_counter() - started
    if replies.error:
        raise RuntimeError(f"{command}: {replies.ephemeral}")
    return took


async def others_until(
    service: GameService,
    channels: list[int],
    pace: float,
    done: asyncio.Event,
    found: list[float],
) -> None:
    """Every other channel plays a command every ``pace`` seconds until ``done``."""

    async def run(channel: int) -> None:
        rng = random.Random(channel)
        await asyncio.sleep(rng.uniform(0, pace))
        while not done.is_set():
            found.append(await other_command(service, channel, rng))
            await asyncio.sleep(pace)

    await asyncio.gather(*(run(c) for c in channels))


async def histories(service: GameService, count: int, found: list[float]) -> None:
    async def one(k: int) -> None:
        started = time.perf_counter()
        replies = await service.submit(
            Place(LONG), Caller(10_000 + k, f"W{k}"), f"history {WINDOW}"
        )
        found.append(time.perf_counter() - started)
        if replies.error:
            raise RuntimeError(f"history: {replies.ephemeral}")

    await asyncio.gather(*(one(k) for k in range(count)))


async def bench(args: argparse.Namespace, path: Path) -> None:
    await store(path, args.actions)
    service = await GameService.open(path)
    channels = list(range(2, 2 + args.others))
    try:
        for channel in channels:
            await open_game(service, channel, 2)
        alone: list[float] = []
        done = asyncio.Event()
        playing = asyncio.create_task(others_until(service, channels, args.pace, done, alone))
        await asyncio.sleep(args.baseline)
        done.set()
        await playing
        report(f"other channels ({len(channels)}), no history", alone)

        during: list[float] = []
        asked: list[float] = []
        ticker = Ticker()
        ticker.start()
        for round_ in range(args.rounds):
            if args.cold or round_ == 0:
                service.forget(LONG)  # the long game is loaded from SQLite again
            done = asyncio.Event()
            playing = asyncio.create_task(others_until(service, channels, args.pace, done, during))
            await histories(service, args.histories, asked)
            done.set()
            await playing
        await ticker.stop()
        report(f"history {WINDOW}, {args.histories} at once", asked)
        report(f"other channels, during {args.histories} histories", during)
        print(f"event loop lag: max {max(ticker.lags) * 1000:.1f} ms")
        verdict = "met" if percentile(during, 99) < 0.05 else "MISSED"
        print(f"target (other channels' p99 < 50 ms): {verdict}")
    finally:
        await service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--histories", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--others", type=int, default=5)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between commands")
    parser.add_argument("--baseline", type=float, default=3.0, help="seconds without history")
    parser.add_argument("--cold", action="store_true", help="reload the long game each round")
    parser.add_argument("--db", type=Path, default=None, help="keep the database here")
    args = parser.parse_args()
    if args.db is not None:
        asyncio.run(bench(args, args.db))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args, Path(folder) / "history.sqlite3"))


if __name__ == "__main__":
    main()
