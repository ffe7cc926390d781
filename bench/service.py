"""Benchmark of the game service: command latency with many stored games, and throughput.

    .venv/bin/python bench/service.py [--games 1000] [--samples 500] [--concurrent 50]
                                      [--seconds 10] [--render stub|real|none] [--db PATH]

Stores ``--games`` started games (each some actions in, with snapshots), then measures
p50/p99 latency of single commands on random games (cold: loaded from SQLite; warm:
cached), and sustained actions per second across ``--concurrent`` games played at once.
Targets: p99 ≤ 250 ms, ≥ 50 actions/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.context import Caller, Place
from bot.pictures import Renderer, default_renderer
from bot.replies import Picture, PictureKind
from bot.service import GameService
from bot.storage import Database, SeatRow, Status
from bot.storage import games as rows
from bot.storage.connection import Connection
from bot.storage.eventlog import events_to_json
from bot.storage.record import encode_state
from bot.syntax import FORMATTERS, format_action, parse_command, to_action
from engine.game import actions as a
from engine.game.actions import action_to_json
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState

SKIP = (a.Withdraw, a.TakeBack, a.UndoSplit, a.ExpireTimeLimit, a.Reveal)
SNAPSHOT_EVERY = 50
PAINTING: set[asyncio.Task[object]] = set()
"""Pictures being drawn in the background."""


def choose(state: GameState, rng: random.Random) -> tuple[int, str | a.Action]:
    """A random legal command for the seat the game waits for."""
    seat = to_act(state)
    assert seat is not None
    action = rng.choice([x for x in legal_actions(state, seat) if not isinstance(x, SKIP)])
    return seat, format_action(action) if type(action) in FORMATTERS else action


def user(channel: int, seat: int) -> int:
    return channel * 10 + seat + 1


async def populate(path: Path, games: int, rng: random.Random) -> None:
    """Store ``games`` started games, each 0–120 agent actions in (bulk, no fsync)."""
    db = await Database.open(path, synchronous="OFF")
    for first in range(0, games, 100):
        async with db.transaction() as conn:
            for channel in range(first + 1, min(first + 100, games) + 1):
                await store_one(conn, channel, rng)
    await db.close()


async def store_one(conn: Connection, channel: int, rng: random.Random) -> None:
    """One started game, some agent actions in, written straight to the tables."""
    names = [f"P{s}" for s in range(rng.randint(2, 6))]
    seed = rng.getrandbits(40)
    game = await rows.create_game(conn, channel, None, {"host": user(channel, 0)})
    await rows.set_seats(conn, game, [SeatRow(s, user(channel, s), n) for s, n in enumerate(names)])
    await rows.update_game(conn, game, Status.ACTIVE, seed=seed)
    state, _ = new_game(names, seed)
    await rows.save_snapshot(conn, game, 0, encode_state(state))
    for n in range(1, rng.randint(0, 120) + 1):
        seat, command = choose(state, rng)
        if isinstance(command, str):
            command = to_action(parse_command(command), state, seat)
        after, events = apply(state, seat, command)
        if after.result is not None:
            break
        turn, state = state.turn.number, after
        action_text = json.dumps(action_to_json(command))
        events_text = events_to_json(events)
        await rows.append_action(conn, game, n, seat, action_text, events_text, turn=turn)
        if n % SNAPSHOT_EVERY == 0:
            await rows.save_snapshot(conn, game, n, encode_state(state))


async def one_command(service: GameService, channel: int, rng: random.Random) -> float | None:
    """Time one agent command in ``channel`` (None when its game is over).

    The time counts loading the game (when not cached) and the command; not the agent's
    own choice. Its picture is then drawn as a transport would ask for it, in the
    background (the next command does not wait for it).
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
        raise RuntimeError(f"{command}: {replies.ephemeral}")
    took = (loaded - started) + (time.perf_counter() - sent)
    if replies.public is not None and replies.public.picture is not None:
        task = asyncio.create_task(service.paint(replies.public, channel))
        PAINTING.add(task)
        task.add_done_callback(PAINTING.discard)
    return took


async def latency(service: GameService, games: int, samples: int, cold: bool) -> list[float]:
    """Single commands on random games: loaded from SQLite each time, or cached."""
    rng = random.Random(1)
    found: list[float] = []
    if not cold:
        games = min(games, 200)
        for channel in range(1, games + 1):
            await service.game_in(channel)
    while len(found) < samples:
        if cold:
            service.forget()
        took = await one_command(service, rng.randint(1, games), rng)
        if took is not None:
            found.append(took)
    return found


async def throughput(
    service: GameService, channels: list[int], seconds: float
) -> tuple[float, list[float]]:
    """Actions per second with every channel's game played as fast as it answers, and
    each command's latency meanwhile."""
    took: list[float] = []
    stop = time.perf_counter() + seconds

    async def run(channel: int) -> None:
        rng = random.Random(channel)
        while time.perf_counter() < stop:
            latency = await one_command(service, channel, rng)
            if latency is None:
                return
            took.append(latency)

    started = time.perf_counter()
    await asyncio.gather(*(run(c) for c in channels))
    return len(took) / (time.perf_counter() - started), took


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(label: str, values: list[float]) -> None:
    ms = [v * 1000 for v in values]
    print(
        f"{label:<28} p50 {percentile(ms, 50):7.1f} ms   p99 {percentile(ms, 99):7.1f} ms   "
        f"mean {statistics.mean(ms):6.1f} ms   (n={len(ms)})"
    )


def stub(picture: Picture) -> bytes:
    return b"\x89PNG-" + picture.kind.value.encode()


def pick_renderer(name: str) -> Renderer | None:
    chosen: dict[str, Callable[[], Renderer | None]] = {
        "stub": lambda: stub,
        "real": default_renderer,
        "none": lambda: None,
    }
    return chosen[name]()


async def bench(args: argparse.Namespace, path: Path) -> None:
    rng = random.Random(0)
    started = time.perf_counter()
    await populate(path, args.games, rng)
    print(f"stored {args.games} games in {time.perf_counter() - started:.1f} s ({path})")
    renderer = pick_renderer(args.render)
    print(f"renderer: {args.render}" + (" (unavailable)" if renderer is None else ""))
    processes = args.render == "real"
    service = await GameService.open(path, renderer=renderer, paint_in_processes=processes)
    try:
        if renderer is not None:  # start the pool before timing anything
            await service.painter.draw(Picture(PictureKind.MASTERBOARD, new_game(["A", "B"], 1)[0]))
        report("cold (load from SQLite)", await latency(service, args.games, args.samples, True))
        report("warm (cached, 200 games)", await latency(service, args.games, args.samples, False))
        channels = list(range(1, args.concurrent + 1))
        rate, took = await throughput(service, channels, args.seconds)
        print(f"sustained: {rate:.0f} actions/s over {args.concurrent} concurrent games")
        report(f"under load ({args.concurrent} games)", took)
        painter = service.painter
        if painter.drawn:
            where = "a worker process" if processes else "a worker thread"
            mean = painter.seconds / painter.drawn * 1000
            print(f"pictures drawn: {painter.drawn} (mean {mean:.1f} ms in {where})")
    finally:
        await service.close()


def main() -> None:
    # This folder holds other benchmarks (bench/render.py) that would shadow packages.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--concurrent", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--render", choices=("stub", "real", "none"), default="stub")
    parser.add_argument("--db", type=Path, default=None, help="keep the database here")
    args = parser.parse_args()
    if args.db is not None:
        asyncio.run(bench(args, args.db))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args, Path(folder) / "bench.sqlite3"))


if __name__ == "__main__":
    main()
