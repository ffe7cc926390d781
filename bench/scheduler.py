"""Benchmark of the scheduler: 10,000 active games with clocks in one database (issue 12).

    .venv/bin/python bench/scheduler.py [--games 10000] [--ticks 200] [--computers 4]
                                        [--db PATH]

Plays one four-player game with a clock (``deadline 4h timeout ai``) a few turns in, until
it waits for a movement phase, then copies its rows with SQL into ``--games`` games, one a
channel, each with its own players (in one game out of ``--computers`` the last seat is an
AI's) — real games, which load to the same state — and its clock and due items (the
deadline and the two reminders of that decision): the measured games' deadlines a second
apart, the others' over the following days. Then measures:

- start-up: a fresh service and scheduler, from opening the file to the first ``run_due``
  (nothing due yet) and ``next_at``, as the bot does (:meth:`Scheduler.start`: the games
  waiting for an AI seat advanced first), and the memory it takes (resident memory before
  and after; Python's own allocations under tracemalloc, in a second start-up);
- a tick: one due deadline of one game applied by ``run_due`` — the game loaded, the
  computer plays the seat's whole movement phase, each action stored with its news in the
  outbox, the next decision's clock started — ``--ticks`` times in different games loaded
  from SQLite (cold), and as many again in games cached (warm, as after a reminder).

Targets: start-up ≤ 2 s, ≤ 50 MB extra memory, tick p99 ≤ 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bot.context import Caller, Place  # noqa: E402
from bot.schedule.clock import ManualClock  # noqa: E402
from bot.schedule.decisions import decision_of  # noqa: E402
from bot.schedule.scheduler import Scheduler  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import due as items  # noqa: E402
from bot.storage import games as rows  # noqa: E402
from bot.storage.checksum import snapshot_checksum  # noqa: E402
from bot.storage.connection import Connection  # noqa: E402
from bot.storage.record import load_game  # noqa: E402
from engine.game import actions as a  # noqa: E402
from engine.game.legal import legal_actions, to_act  # noqa: E402
from engine.game.state import GameState, Phase  # noqa: E402

START = 1_800_000_000.0
HOUR = 3600.0
LATER = 2 * 24 * HOUR
"""How much later than the measured games' the other games' deadlines fall."""
SKIP = (a.Withdraw, a.TakeBack, a.UndoSplit, a.ExpireTimeLimit, a.Reveal)
TURNS = 6
"""Player turns the copied game is played into before it waits (for a movement phase)."""


def user(channel: int, seat: int) -> int:
    return channel * 100 + seat + 1


async def template(path: Path) -> GameState:
    """Game 1 in channel 1: opened with a clock, played at random until it waits for a
    movement phase of turn ``TURNS`` (the clock then starts at ``START``). Its state."""
    clock = ManualClock(START)
    service = await GameService.open(path, seeds=lambda: 5, wall_clock=clock)
    rng = random.Random(1)
    place = Place(1)
    try:
        lobby = ["new players 4 deadline 4h timeout ai", "join", "join", "join", "start"]
        for seat, text in zip([0, 1, 2, 3, 0], lobby, strict=True):
            replies = await service.submit(place, Caller(user(1, seat), f"P{seat}"), text)
            assert not replies.error, replies.ephemeral
        while True:
            game = await service.game_in(1)
            assert game is not None and game.state is not None
            state = game.state
            if state.turn.number >= TURNS and state.phase is Phase.MOVE and not state.turn.moves:
                return state
            awaited = to_act(state)
            assert awaited is not None
            choices = [x for x in legal_actions(state, awaited) if not isinstance(x, SKIP)]
            caller = Caller(user(1, awaited), f"P{awaited}")
            replies = await service.act(place, caller, rng.choice(choices))
            assert not replies.error, replies.ephemeral
    finally:
        await service.close()


def copy(path: Path, games: int, measured: int, computers: int) -> None:
    """Copy game 1 into games 2…``games`` (channels alike), with SQL; the first
    ``measured`` games' deadlines fall a second apart from ``START`` + 4 h on, the others'
    ``LATER``, ten seconds apart; each clock starts 4 h before its deadline."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.create_function("checksum", 3, snapshot_checksum, deterministic=True)
        connection.execute("PRAGMA synchronous = OFF")
        connection.execute("BEGIN")
        connection.execute(
            "CREATE TEMP TABLE copies (i INTEGER PRIMARY KEY, shift REAL, computer INTEGER)"
        )
        connection.execute(
            "INSERT INTO copies WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k"
            " WHERE i < ?) SELECT i, CASE WHEN i <= ? THEN i ELSE ? + 10.0 * i END,"
            " i > ? AND i % ? = 0 FROM k",
            (games, measured, LATER, measured, computers),
        )
        for statement in COPIES:
            connection.execute(statement)
        connection.execute("COMMIT")
        connection.execute("ANALYZE")
    finally:
        connection.close()


COPIES = (
    "INSERT INTO games (id, channel, guild, status, settings, seed, created_at, updated_at)"
    " SELECT c.i, c.i, g.guild, g.status, json_set(g.settings, '$.host', c.i * 100 + 1),"
    " g.seed, g.created_at, g.updated_at FROM games g, copies c WHERE g.id = 1 AND c.i > 1",
    "INSERT INTO users (id) SELECT c.i * 100 + s.seat + 1 FROM seats s, copies c"
    " WHERE s.game = 1 AND c.i > 1",
    "INSERT INTO users (id) VALUES (-1) ON CONFLICT DO NOTHING",
    "INSERT INTO seats (game, seat, user, name) SELECT c.i, s.seat, CASE WHEN c.computer"
    " AND s.seat = 3 THEN -1 ELSE c.i * 100 + s.seat + 1 END, s.name FROM seats s, copies c"
    " WHERE s.game = 1 AND c.i > 1",
    "INSERT INTO actions (game, n, seat, action, events, created_at, turn, cause)"
    " SELECT c.i, x.n, x.seat, x.action, x.events, x.created_at, x.turn, x.cause"
    " FROM actions x, copies c WHERE x.game = 1 AND c.i > 1",
    "INSERT INTO snapshots (game, n, state, checksum) SELECT c.i, s.n, s.state,"
    " checksum(c.i, s.n, s.state) FROM snapshots s, copies c WHERE s.game = 1 AND c.i > 1",
    "INSERT INTO clocks (game, seat, decision, since, deadline) SELECT c.i, k.seat,"
    " k.decision, k.since + c.shift, k.deadline + c.shift FROM clocks k, copies c"
    " WHERE k.game = 1 AND c.i > 1",
    "INSERT INTO due (game, kind, seat, decision, at) SELECT c.i, d.kind, d.seat, d.decision,"
    " d.at + c.shift FROM due d, copies c WHERE d.game = 1 AND d.done_at IS NULL AND c.i > 1",
    # and game 1's own clock moves like its copies'
    "UPDATE clocks SET since = since + (SELECT shift FROM copies WHERE i = 1),"
    " deadline = deadline + (SELECT shift FROM copies WHERE i = 1) WHERE game = 1",
    "UPDATE due SET at = at + (SELECT shift FROM copies WHERE i = 1) WHERE game = 1",
)
"""Game 1's rows copied into the games of ``copies`` (its clock and due items moved by each
copy's ``shift``, its last seat an AI's in the copies marked ``computer``)."""


def rss() -> float:
    """The process's resident memory now, in MB (Linux; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def start(path: Path, clock: ManualClock) -> tuple[GameService, Scheduler, float | None]:
    """What the bot does at start-up, up to the scheduler's first sleep: open the file,
    advance the games waiting for AI seats, act on what is due, find the next moment."""
    service = await GameService.open(path, wall_clock=clock)
    scheduler = Scheduler(service)
    await scheduler.advance_ai_games()
    handled = await scheduler.run_due()
    assert handled == 0, "nothing is due at start-up"
    async with service.db.reading() as db:
        moment = await items.next_at(db)
    return service, scheduler, moment


async def check_loadable(service: GameService, games: int, state: GameState) -> None:
    """A few copies load to the copied game's state, each waiting with its clock."""
    rng = random.Random(2)
    async with service.db.reading() as db:
        for game_id in rng.sample(range(1, games + 1), min(games, 20)):
            row = await rows.game(db, game_id)
            assert row is not None
            loaded = await load_game(db, row)
            assert loaded.state == state and loaded.user_of(0) == user(game_id, 0)
            clock = await items.clock(db, game_id)
            decided = decision_of(state)
            assert clock is not None and decided is not None and clock.decision == decided.key
            assert [i.kind for i in await items.pending(db, game_id)].count("deadline") == 1


async def tick(service: GameService, scheduler: Scheduler, clock: ManualClock, game: int) -> float:
    """Move the clock to ``game``'s deadline and time the scheduler acting on it."""
    async with service.db.reading() as db:
        found = await items.clock(db, game)
    assert found is not None and found.deadline is not None
    clock.advance(found.deadline - clock.now())
    started = time.perf_counter()
    handled = await scheduler.run_due()
    took = time.perf_counter() - started
    assert handled == 1, f"game {game}: {handled} items at its deadline"
    return took


async def told_by_timeouts(db: Connection, games: int) -> tuple[int, int]:
    """The actions a passed deadline gave in games 1…``games``, and the outbox rows of
    those games that say them (the reminders' DMs left out)."""
    async with db.execute(
        "SELECT count(*) FROM actions WHERE game <= ? AND cause IS NOT NULL", (games,)
    ) as cursor:
        (played,) = await cursor.fetchone() or (0,)
    async with db.execute(
        "SELECT count(*) FROM outbox WHERE game <= ? AND body NOT LIKE '%waits for you%'",
        (games,),
    ) as cursor:
        (told,) = await cursor.fetchone() or (0,)
    return int(played), int(told)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(label: str, values: list[float]) -> None:
    ms = [v * 1000 for v in values]
    print(
        f"{label:<30} p50 {percentile(ms, 50):7.1f} ms   p99 {percentile(ms, 99):7.1f} ms   "
        f"mean {statistics.mean(ms):6.1f} ms   max {max(ms):6.1f} ms   (n={len(ms)})"
    )


async def bench(args: argparse.Namespace, path: Path) -> None:
    started = time.perf_counter()
    state = await template(path)
    measured = 2 * args.ticks
    copy(path, args.games, measured, args.computers or args.games + 1)
    size = path.stat().st_size / 2**20
    built = time.perf_counter() - started
    print(f"stored {args.games} games with clocks in {built:.1f} s ({size:.0f} MB, {path})")
    with contextlib.closing(sqlite3.connect(path)) as connection:
        (pending,) = connection.execute("SELECT count(*) FROM due WHERE done_at IS NULL").fetchone()
    print(f"due queue: {pending} pending items")

    clock = ManualClock(START)
    before = rss()
    opened = time.perf_counter()
    service, scheduler, moment = await start(path, clock)
    took = time.perf_counter() - opened
    extra = rss() - before
    wait = (moment or START) - START
    print(f"start-up: {took * 1000:.0f} ms to the first sleep (the next item due in {wait:.0f} s)")
    print(f"  memory: +{extra:.1f} MB resident ({before:.0f} MB before)")
    await service.close()
    tracemalloc.start()
    service, scheduler, _ = await start(path, clock)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  under tracemalloc (a second start-up): Python's allocations peak at {peak >> 10} kB")
    try:
        await check_loadable(service, args.games, state)
        clock.advance(4 * HOUR - clock.now() + START)  # the measured games' reminders
        warming = time.perf_counter()
        reminded = await scheduler.run_due()
        warmed = time.perf_counter() - warming
        print(f"{reminded} reminders of {measured} games handled in {warmed:.1f} s")
        cold = []
        for game in range(1, args.ticks + 1):
            service.forget()  # loaded from SQLite
            cold.append(await tick(service, scheduler, clock, game))
        warm_games = range(args.ticks + 1, measured + 1)
        for game in warm_games:
            await service.game_in(game)
        warm = [await tick(service, scheduler, clock, game) for game in warm_games]
        async with service.db.reading() as db:
            done = await items.outcomes(db, 1)
            played, told = await told_by_timeouts(db, measured)
        assert [o for kind, _, o in done if kind == "deadline"] == ["timed out: ai"]
        print(f"tick (timeout of a movement phase, {args.games} games with clocks):")
        report("  cold (loaded from SQLite)", cold)
        report("  warm (cached)", warm)
        print(f"  each: {played / measured:.1f} actions, {told / measured:.1f} outbox rows")
        print(f"resident memory after the ticks: {rss():.0f} MB (start: {before:.0f} MB)")
    finally:
        await service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--ticks", type=int, default=200)
    parser.add_argument(
        "--computers", type=int, default=4, help="one game in this many has an AI seat (0: none)"
    )
    parser.add_argument("--db", type=Path, default=None, help="keep the database here (new)")
    args = parser.parse_args()
    if not 1 <= 2 * args.ticks <= args.games:
        parser.error("--ticks must be at least 1 and at most half of --games")
    if args.db is not None:
        if args.db.exists():
            parser.error(f"{args.db} exists: give a new file")
        asyncio.run(bench(args, args.db))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args, Path(folder) / "bench.sqlite3"))


if __name__ == "__main__":
    main()
