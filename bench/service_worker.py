"""One process of the service benchmark (``bench/service.py --worker K``).

Each worker has a :class:`~bot.service.GameService` of its own on the benchmark's
database and plays its own share of the stored games' channels (every ``processes``-th
one). It runs the phases of :data:`PHASES` in step with the other workers: before each it
says it is ready (a JSON line on its standard output) and waits for the parent's ``go``
(a line on its standard input); after it, it sends what it measured, one JSON line.

- ``cold``: single commands on random games of its share, each loaded from the database;
- ``warm``: single commands on 200 games of its share, cached;
- ``load``: its share of the concurrent games played as fast as they answer, for the
  given seconds; with shared games, every worker also plays those (the cross-process
  path: each process caches them, the other changes them). What fails there is counted,
  apart from the worker's own games.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import json
import logging
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bench.service_games import choose, user
from bot.context import Caller, Place
from bot.pictures import Renderer, default_renderer
from bot.replies import Picture, PictureKind, Replies
from bot.service import GameService
from bot.storage.backends import as_target, is_postgres
from engine.game.setup import new_game

PHASES = ("cold", "warm", "load")
WARM_GAMES = 200
PAINTING: set[asyncio.Task[object]] = set()
"""Pictures being drawn in the background."""


class CommandFailed(RuntimeError):
    """The service refused a command, or failed on it (``fault``)."""

    def __init__(self, command: object, replies: Replies) -> None:
        told = replies.ephemeral.text if replies.ephemeral is not None else "(nothing said)"
        super().__init__(f"{command}: {told}")
        self.fault = replies.fault


@dataclass(frozen=True)
class Share:
    """Which channels worker ``index`` of ``processes`` plays."""

    index: int
    processes: int
    games: int
    shared: int = 0
    """The last channels, played by every worker (none by default)."""

    @property
    def own(self) -> list[int]:
        last = self.games - self.shared
        return list(range(self.index + 1, last + 1, self.processes))

    @property
    def common(self) -> list[int]:
        return list(range(self.games - self.shared + 1, self.games + 1))

    def concurrent(self, total: int) -> list[int]:
        """This worker's part of ``total`` games played at once (its first channels)."""
        count = total // self.processes + (1 if self.index < total % self.processes else 0)
        return self.own[:count]


async def one_command(service: GameService, channel: int, rng: random.Random) -> float | None:
    """Time one agent command in ``channel`` (None when its game is over).

    The time counts loading the game (when not cached) and the command; not the agent's
    own choice. Its picture is then drawn as a transport would ask for it, in the
    background (the next command does not wait for it). Raises :class:`CommandFailed`.
    """
    started = time.perf_counter()
    game = await service.game_in(channel)
    loaded = time.perf_counter()
    if game is None or game.state is None:
        return None
    seat, command = choose(game.state, rng)
    caller = Caller(user(channel, seat), f"P{seat}")
    sent = time.perf_counter()
    if isinstance(command, str):
        replies = await service.submit(Place(channel), caller, command)
    else:
        replies = await service.act(Place(channel), caller, command)
    if replies.error:
        raise CommandFailed(command, replies)
    took = (loaded - started) + (time.perf_counter() - sent)
    if replies.public is not None and replies.public.picture is not None:
        task = asyncio.create_task(service.paint(replies.public, channel))
        PAINTING.add(task)
        task.add_done_callback(PAINTING.discard)
    return took


async def latency(
    service: GameService, channels: list[int], samples: int, cold: bool, rng: random.Random
) -> list[float]:
    """Single commands on random games of ``channels``: loaded each time, or cached."""
    found: list[float] = []
    while len(found) < samples:
        if cold:
            service.forget()
        took = await one_command(service, rng.choice(channels), rng)
        if took is not None:
            found.append(took)
    return found


@dataclass
class Load:
    """What the ``load`` phase measured."""

    took: list[float] = field(default_factory=list)
    seconds: float = 0.0
    common: list[float] = field(default_factory=list)
    faults: int = 0
    refused: int = 0
    failures: list[str] = field(default_factory=list)


async def throughput(
    service: GameService, own: list[int], common: list[int], seconds: float, worker: int
) -> Load:
    """Every channel's game played as fast as it answers, for ``seconds``: each
    command's latency, its own channels' apart from the shared ones' (where ``worker``
    picks its own commands)."""
    load = Load()
    stop = time.perf_counter() + seconds

    async def run(channel: int, shared: bool) -> None:
        rng = random.Random(channel * 100 + worker)
        while time.perf_counter() < stop:
            try:
                took = await one_command(service, channel, rng)
            except CommandFailed as failed:
                if not shared:
                    raise
                load.faults += failed.fault
                load.refused += not failed.fault
                if len(load.failures) < 3:
                    load.failures.append(str(failed))
                continue
            if took is None:
                return
            (load.common if shared else load.took).append(took)

    started = time.perf_counter()
    await asyncio.gather(*(run(c, False) for c in own), *(run(c, True) for c in common))
    load.seconds = time.perf_counter() - started
    return load


class RoundTrips:
    """How often the PostgreSQL client waited for its server: each prepare, each run of a
    prepared statement, each simple query (``BEGIN``, ``SAVEPOINT``, ``COMMIT`` …) and
    each ``executemany`` (pipelined: one wait) is one round trip. Counted by wrapping
    asyncpg's methods (:meth:`install`), for the whole process."""

    def __init__(self) -> None:
        self.count = 0

    def reset(self) -> RoundTrips:
        self.count = 0
        return self

    def install(self) -> None:
        import asyncpg
        from asyncpg.prepared_stmt import PreparedStatement

        def counted(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            @functools.wraps(method)
            async def counting(*args: Any, **kwargs: Any) -> Any:
                self.count += 1
                return await method(*args, **kwargs)

            return counting

        for owner, name in (
            (asyncpg.Connection, "prepare"),
            (asyncpg.Connection, "execute"),
            (asyncpg.Connection, "executemany"),
            (PreparedStatement, "fetch"),
        ):
            setattr(owner, name, counted(getattr(owner, name)))


ROUND_TRIPS = RoundTrips()


def stub(picture: Picture) -> bytes:
    return b"\x89PNG-" + picture.kind.value.encode()


def pick_renderer(name: str) -> Renderer | None:
    chosen: dict[str, Callable[[], Renderer | None]] = {
        "stub": lambda: stub,
        "real": default_renderer,
        "none": lambda: None,
    }
    return chosen[name]()


def say(message: dict[str, Any]) -> None:
    """One line to the parent."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def ready(phase: str) -> None:
    """Tell the parent this worker is ready for ``phase``; wait for its ``go``."""
    say({"ready": phase})
    line = await asyncio.to_thread(sys.stdin.readline)
    if line.strip() != "go":
        raise SystemExit(f"worker: expected 'go' before {phase}, got {line!r}")


async def work(args: argparse.Namespace) -> None:
    share = Share(args.worker, args.processes, args.games, args.shared)
    if is_postgres(args.db):
        ROUND_TRIPS.install()
    renderer = pick_renderer(args.render)
    processes = args.render == "real"
    service = await GameService.open(
        as_target(args.db), renderer=renderer, paint_in_processes=processes
    )
    rng = random.Random(1 + share.index)
    try:
        if renderer is not None:  # start the pool before timing anything
            await service.painter.draw(Picture(PictureKind.MASTERBOARD, new_game(["A", "B"], 1)[0]))
        await ready("cold")
        trips = ROUND_TRIPS.reset()
        took = await latency(service, share.own, args.samples, True, rng)
        say({"phase": "cold", "took": took, "trips": trips.count})
        warm = share.own[:WARM_GAMES]
        for channel in warm:
            await service.game_in(channel)
        await ready("warm")
        trips = ROUND_TRIPS.reset()
        took = await latency(service, warm, args.samples, False, rng)
        say({"phase": "warm", "took": took, "trips": trips.count})
        await ready("load")
        trips = ROUND_TRIPS.reset()
        load = await throughput(
            service, share.concurrent(args.concurrent), share.common, args.seconds, share.index
        )
        await asyncio.gather(*PAINTING)
        painter = service.painter
        say(
            {
                "phase": "load",
                "took": load.took,
                "seconds": load.seconds,
                "common": load.common,
                "faults": load.faults,
                "refused": load.refused,
                "failures": load.failures,
                "trips": trips.count,
                "drawn": painter.drawn,
                "painting": painter.seconds,
            }
        )
    finally:
        await service.close()


class _FirstTraceback(logging.Filter):
    """Lets the first traceback through; the later ones shrink to their message (a shared
    game's stale cache fails the same way many times)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = False

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and self.seen:
            record.exc_info = None
            record.exc_text = None
        self.seen = self.seen or bool(record.exc_info)
        return True


def run_worker(args: argparse.Namespace) -> None:
    """The worker's whole run (its log on standard error); under cProfile with
    ``--profile`` (stats in ``PROFILE.K`` for worker K)."""
    logging.basicConfig(level=logging.WARNING, format=f"worker {args.worker}: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(_FirstTraceback())
    if args.profile is None:
        asyncio.run(work(args))
        return
    profile = cProfile.Profile()
    profile.enable()
    try:
        asyncio.run(work(args))
    finally:
        profile.disable()
        profile.dump_stats(f"{args.profile}.{args.worker}")
