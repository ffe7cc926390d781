"""Benchmark of tournaments: a heat's 100 tables seated and started, and the standings and
ratings of 10,000 finished games.

    .venv/bin/python bench/tournament.py [--tables 100] [--results 10000] [--samples 200]
                                         [--synchronous FULL|NORMAL|OFF] [--quick]
                                         [--profile] [--db FOLDER]

1. A heat: a tournament created in a server, ``4 × --tables`` human entrants added
   (``tournament add NAME <@id> …``, 50 a command), sign-up closed, then
   ``tournament heat`` and the tables opened and started (``service.tables.idle()``),
   through the service as on Discord, with a stub Discord: a transport that records what
   it is asked and answers at once with new ids (Discord's own pace excluded), behind the
   bot's deliverer. Measured: the wall time of the heat command and of opening and
   starting every table, then of delivering the news; the extra memory (resident memory
   before and after; Python's allocations under tracemalloc, in a second run on a fresh
   database); and that every table's game is active.
2. ``--results`` finished 3–4-player games (places, Titan kills, scores; shared places
   from mutuals, eliminations in one battle and time limits) stored with ``add_result``
   in one database, spread over the heats of one tournament of ``4 × --tables`` entrants
   and rated in its server. Measured: the tournament's standings
   (``tournament_standings``) and the server's ratings rebuilt from every result
   (``rebuilt_ratings``), each also split into reading the rows and the pure rules; and
   the incremental rating of one game (``apply_rating`` in a transaction, as a game's end
   does, and the pure ``rate``), ``--samples`` times.

The heat's database commits as the bot's does (``synchronous = FULL``: an fsync a
commit) unless ``--synchronous`` says otherwise, to tell the disk's share from the bot's.
Targets: the heat with its tables ≤ 5 s; standings ≤ 1 s; ratings rebuilt ≤ 1 s.
``--profile`` prints where the time of each measured step goes (cProfile).
Figures on a shared machine vary with its load: run twice before trusting a FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import itertools
import pstats
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bot.competition.codec import result_from_json, result_to_json  # noqa: E402
from bot.competition.ranking import rebuilt_ratings, tournament_standings  # noqa: E402
from bot.competition.results import apply_rating  # noqa: E402
from bot.competition.settings import TournamentSettings  # noqa: E402
from bot.context import Caller, Place  # noqa: E402
from bot.replies import Message  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import Database  # noqa: E402
from bot.storage import games as rows  # noqa: E402
from bot.storage import tournaments as store  # noqa: E402
from bot.tournament.places import Ending, GameResult  # noqa: E402
from bot.tournament.places import Place as Line  # noqa: E402
from bot.tournament.ratings import Rating, rate, rebuild  # noqa: E402
from bot.tournament.seating import table_sizes  # noqa: E402
from bot.tournament.standings import HeatGame, StandingOptions, standings  # noqa: E402

T = TypeVar("T")

GUILD = 900_000_000_000_000_001
CHANNEL = 900_000_000_000_000_002
"""The organiser's channel, where the tournament is run."""
FIRST_USER = 1 << 56
"""Entrants' ids: plausible Discord snowflakes (every one ≥ 2**32)."""
FIRST_TABLE = 1 << 57
"""The stub Discord's first new channel id."""
ORGANISER = Caller(FIRST_USER - 1, "Org", organiser=True)
PER_ADD = 50
"""Mentions in one ``tournament add`` (about 1,100 characters: within a message)."""
NAME = "Bench"
HEAT_TARGET, STANDINGS_TARGET, REBUILD_TARGET = 5.0, 1.0, 1.0
EPOCH = datetime(2030, 1, 1, tzinfo=UTC)
"""When the first stored game finished (the next a minute later, and so on)."""
REPEATS = 3
"""Each read of part 2 is timed this many times; the median is reported."""


# --- the stub Discord --------------------------------------------------------------------------
@dataclass
class StubDiscord:
    """A transport that records every call and answers at once, with new ids."""

    calls: dict[str, int] = field(default_factory=dict)
    tables: dict[tuple[int, str, str, bool, int | None], int] = field(default_factory=dict)
    pinged: int = 0
    _ids: int = FIRST_TABLE

    def _called(self, kind: str) -> int:
        self.calls[kind] = self.calls.get(kind, 0) + 1
        self._ids += 1
        return self._ids

    async def post(
        self, channel: int, message: Message, nonce: str, reply_to: str | None
    ) -> tuple[str, int | None]:
        self.pinged += len(message.mention)
        return "sent", self._called("post")

    async def edit(
        self, channel: int, message_id: int, message: Message, added: str, *, kept: bool = False
    ) -> str:
        self._called("edit")
        return "sent"

    def measure(self, message: Message) -> int:
        return len(message.text)

    async def unbutton(self, channel: int, message_id: int) -> None:
        self._called("unbutton")

    async def open_thread(self, channel: int, message_id: int, name: str) -> int:
        return self._called("open_thread")

    async def close_thread(self, thread: int) -> None:
        self._called("close_thread")

    async def open_table(
        self,
        guild: int,
        category: str,
        name: str,
        players: tuple[int, ...],
        private_thread: bool,
        parent: int | None,
    ) -> int:
        key = (guild, category, name, private_thread, parent if private_thread else None)
        if key not in self.tables:  # idempotent, as the protocol asks
            self.tables[key] = self._called("open_table")
        return self.tables[key]

    async def dm(self, user: int, channel: int, message: Message, nonce: str) -> str:
        self._called("dm")
        return "sent"

    async def answer(self, reply_to: str | None, message: Message | None, user: int | None) -> str:
        self._called("answer")
        return "sent"

    async def tell(self, reply_to: str, message: Message) -> str:
        self._called("tell")
        return "sent"


# --- figures ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Took:
    """Wall time and the process's CPU time (every thread's: SQLite's too), in seconds."""

    wall: float
    cpu: float

    def __str__(self) -> str:
        return f"{self.wall * 1000:8.1f} ms (CPU {self.cpu * 1000:.0f} ms)"


class Stopwatch:
    """Wall and CPU time since it was made."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def took(self) -> Took:
        return Took(time.perf_counter() - self.wall, time.process_time() - self.cpu)


class Verdicts:
    """The targets met and missed, printed as they are measured."""

    def __init__(self) -> None:
        self.passed: list[str] = []
        self.failed: list[str] = []

    def check(self, label: str, took: Took, target: float) -> None:
        """The target is on the wall time; the CPU time says how much of it is the load."""
        ok = took.wall <= target
        (self.passed if ok else self.failed).append(label)
        verdict = "PASS" if ok else "FAIL"
        print(
            f"  {verdict}  {label}: {took.wall:.3f} s (target ≤ {target:g} s; CPU {took.cpu:.3f} s)"
        )

    def summary(self) -> str:
        missed = f" (missed: {', '.join(self.failed)})" if self.failed else ""
        total = len(self.passed) + len(self.failed)
        return f"targets: {len(self.passed)} of {total} met{missed}"


def rss() -> float:
    """The process's resident memory now, in MB (Linux; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(label: str, values: list[float]) -> None:
    ms = [v * 1000 for v in values]
    print(
        f"  {label:<36} p50 {percentile(ms, 50):7.2f} ms   p99 {percentile(ms, 99):7.2f} ms   "
        f"mean {statistics.mean(ms):7.2f} ms   (n={len(ms)})"
    )


async def timed(work: Callable[[], Awaitable[T]], profile: bool, label: str) -> tuple[T, Took]:
    """``work``'s value and the median times of :data:`REPEATS` runs; with ``profile``,
    one more run under cProfile, its top functions printed."""
    took = []
    for _ in range(REPEATS):
        watch = Stopwatch()
        value = await work()
        took.append(watch.took())
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        await work()
        profiler.disable()
        print_profile(profiler, label)
    wall = statistics.median(t.wall for t in took)
    return value, Took(wall, statistics.median(t.cpu for t in took))


def print_profile(profiler: cProfile.Profile, label: str, top: int = 15) -> None:
    """The functions that took the most time themselves (callees excluded)."""
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    print(f"--- profile: {label} ---")
    print("\n".join(out.getvalue().strip().splitlines()[4:]))


# --- 1. a heat's tables -----------------------------------------------------------------------
@dataclass(frozen=True)
class Heat:
    command: Took
    """The heat command, seating every entrant."""
    opened: Took
    """From the command to every table open and its game started."""
    delivered: Took
    """From the command to all their news delivered."""
    rss: float
    traced: int
    """Python's peak allocations during the heat (bytes; 0 when not traced)."""
    active: int
    playing: int
    transport: StubDiscord


async def submit(service: GameService, text: str) -> None:
    replies = await service.submit(Place(CHANNEL, GUILD), ORGANISER, text)
    if replies.error:
        message = replies.ephemeral.text if replies.ephemeral else "refused"
        raise RuntimeError(f"{text[:60]}: {message}")


async def heat(path: Path, tables: int, *, synchronous: str, traced: bool, profile: bool) -> Heat:
    """A fresh service over ``path``, a tournament of ``4 × tables`` entrants, and its
    first heat seated, opened and started; the figures."""
    seeds = itertools.count(1)
    database = await Database.open(path, synchronous=synchronous)
    service = GameService(database, seeds=lambda: next(seeds))
    transport = StubDiscord()
    try:
        deliverer = await service.deliver_with(transport)
        await submit(service, f"tournament create {NAME} players 3-4 heats 3 advance 16")
        users = [FIRST_USER + i for i in range(4 * tables)]
        for start in range(0, len(users), PER_ADD):
            mentions = " ".join(f"<@{u}>" for u in users[start : start + PER_ADD])
            await submit(service, f"tournament add {NAME} {mentions}")
        await submit(service, f"tournament close {NAME}")
        await deliverer.idle()
        gc.collect()
        before = rss()
        profiler = cProfile.Profile() if profile else None
        if traced:
            tracemalloc.start()
        if profiler is not None:
            profiler.enable()
        watch = Stopwatch()
        await submit(service, f"tournament heat {NAME}")
        seated = watch.took()
        await service.tables.idle()
        opened = watch.took()
        await deliverer.idle()
        delivered = watch.took()
        if profiler is not None:
            profiler.disable()
        peak = 0
        if traced:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        extra = rss() - before
        if profiler is not None:
            print_profile(profiler, f"tournament heat and its {tables} tables", top=25)
        async with service.db.reading() as db:
            found = await store.named(db, GUILD, NAME)
            assert found is not None
            seats = await store.tables(db, found.id, 1)
            async with db.execute(
                "SELECT count(*) FROM games WHERE status = ? AND guild = ?",
                (rows.Status.ACTIVE.value, GUILD),
            ) as cursor:
                (active,) = await cursor.fetchone() or (0,)
        return Heat(
            seated,
            opened,
            delivered,
            extra,
            peak,
            int(active),
            sum(1 for t in seats if t.status == store.PLAYING and t.channel is not None),
            transport,
        )
    finally:
        await service.close()


async def part_one(args: argparse.Namespace, folder: Path, verdicts: Verdicts) -> None:
    tables = args.tables
    print(f"1. a heat of {4 * tables} entrants at {tables} tables (stub Discord, no delay)")
    print(f"  (SQLite synchronous = {args.synchronous}: each commit's fsync counts)")
    how = {"synchronous": args.synchronous}
    run = await heat(folder / "heat.sqlite3", tables, **how, traced=False, profile=args.profile)
    calls = ", ".join(f"{k} {v}" for k, v in sorted(run.transport.calls.items()))
    per = run.opened.wall / tables * 1000
    print(f"  heat command (seating):              {run.command}")
    print(f"  … and every table opened, started:   {run.opened}, {per:.1f} ms a table")
    print(f"  … and all their news delivered:      {run.delivered}")
    print(f"  stub Discord asked: {calls}; {run.transport.pinged} pings")
    print(f"  games active: {run.active} of {tables}; tables playing: {run.playing}")
    print(f"  memory: +{run.rss:.1f} MB resident ({rss():.0f} MB now)")
    traced = await heat(folder / "heat-traced.sqlite3", tables, **how, traced=True, profile=False)
    print(
        f"  under tracemalloc (a second run, fresh database): Python's allocations peak at "
        f"+{traced.traced / 2**20:.1f} MB"
    )
    if run.active != tables or run.playing != tables:
        raise SystemExit(f"FAIL: {run.active} games active, {run.playing} tables playing")
    verdicts.check(f"heat of {tables} tables, opened and started", run.opened, HEAT_TARGET)


# --- 2. standings and ratings -----------------------------------------------------------------
def random_result(players: list[str], rng: random.Random) -> GameResult:
    """A plausible finished game of ``players`` (seat order): mostly a last Titan
    standing, some with two players out in one battle (a shared place), some mutuals (a
    shared 1st) and time limits (ranked by score, equal scores sharing)."""
    n = len(players)
    scores = [rng.randrange(40, 400, 2) for _ in players]
    roll = rng.random()
    order = rng.sample(range(n), n)  # best first
    if roll < 0.10:
        ending, keys = Ending.TIME_LIMIT, [rng.choice((100, 150, 200, 250)) for _ in players]
        scores = keys
    elif roll < 0.15:
        ending, keys = Ending.MUTUAL, [0] * n
        for rank, seat in enumerate(order):
            keys[seat] = n - max(rank, 1)  # the two best share 1st
    else:
        ending, keys = Ending.LAST_TITAN, [0] * n
        shared = rng.random() < 0.1  # the two last out in one battle
        for rank, seat in enumerate(order):
            keys[seat] = n - (rank if not shared or rank < n - 1 else n - 2)
    places = [1 + sum(1 for k in keys if k > own) for own in keys]
    kills = [0] * n
    if ending is not Ending.TIME_LIMIT:
        for seat in range(n):  # each loser's Titan fell to someone placed above him
            better = [s for s in range(n) if places[s] < places[seat]]
            if better and rng.random() < 0.8:
                kills[rng.choice(better)] += 1
    lines = tuple(
        Line(p, place, k, s) for p, place, k, s in zip(players, places, kills, scores, strict=True)
    )
    return GameResult(lines, ending)


def finished_at(n: int) -> str:
    """When the ``n``-th stored game finished (as :func:`bot.storage.games.now` says it)."""
    return (EPOCH + timedelta(minutes=n)).isoformat(timespec="milliseconds")


async def store_results(path: Path, count: int, entrants: int, rng: random.Random) -> int:
    """``count`` results of one tournament of ``entrants`` in ``GUILD``, heat by heat
    (each heat seats every entrant once, at tables of 3–4); the tournament's id."""
    sizes = table_sizes(entrants, 3, 4)
    heats = -(-count // len(sizes))
    settings = TournamentSettings(heats=heats, advance=16)
    users = [FIRST_USER + i for i in range(entrants)]
    db = await Database.open(path, synchronous="OFF")
    try:
        async with db.transaction() as conn:
            tournament = await store.create(conn, GUILD, NAME, settings.to_json(), 7, CHANNEL)
            for user in users:
                await store.add_entrant(conn, tournament, user, f"<@{user}>")
            await store.set_status(conn, tournament, store.CLOSED)
            stored = 0
            for heat in range(1, heats + 1):
                order = rng.sample(users, len(users))
                for size in sizes:
                    if stored == count:
                        break
                    players, order = [str(u) for u in order[:size]], order[size:]
                    game = await rows.create_game(conn, FIRST_TABLE + stored, GUILD, {})
                    result = result_to_json(random_result(players, rng))
                    row = store.ResultRow(
                        game, GUILD, tournament, heat, finished_at(stored), True, result
                    )
                    assert await store.add_result(conn, row)
                    stored += 1
            await conn.execute("UPDATE games SET status = ?", (rows.Status.OVER.value,))
    finally:
        await db.close()
    return tournament


async def part_two(args: argparse.Namespace, folder: Path, verdicts: Verdicts) -> None:
    entrants = 4 * args.tables
    path = folder / "results.sqlite3"
    rng = random.Random(3)
    print(f"2. standings and ratings of {args.results} finished games")
    started = time.perf_counter()
    tournament_id = await store_results(path, args.results, entrants, rng)
    size = path.stat().st_size / 2**20
    took = time.perf_counter() - started
    print(f"  stored {args.results} results in {took:.1f} s ({size:.1f} MB), {entrants} entrants")
    db = await Database.open(path)
    try:
        await standings_and_ratings(db, tournament_id, args, verdicts)
    finally:
        await db.close()


async def standings_and_ratings(
    db: Database, tournament_id: int, args: argparse.Namespace, verdicts: Verdicts
) -> None:
    async with db.reading() as conn:
        found = await store.by_id(conn, tournament_id)
        assert found is not None
        tournament = found

        async def read_standings() -> Any:
            return await tournament_standings(conn, tournament)

        async def read_results() -> list[HeatGame]:
            stored = await store.results_of_tournament(conn, tournament.id)
            return [HeatGame(r.heat or 1, result_from_json(r.result)) for r in stored]

        async def read_rated() -> list[GameResult]:
            return [result_from_json(r.result) for r in await store.rated_results(conn, GUILD)]

        async def read_ratings() -> dict[str, Rating]:
            return await rebuilt_ratings(conn, GUILD)

        table, whole = await timed(read_standings, args.profile, "tournament_standings")
        games, reading = await timed(read_results, False, "")
        settings = TournamentSettings.from_json(tournament.settings)
        options = StandingOptions(settings.max_games, frozenset(), settings.advance)

        async def pure_standings() -> Any:
            return standings(games, settings.scheme, options, seed=tournament.seed)

        _, pure = await timed(pure_standings, False, "")
        assert len(games) == args.results
        tied = sum(1 for r in table.rows if r.rolls)
        print(f"  standings of {len(table.rows)} players ({tied} settled by a roll):")
        print(f"    reading and decoding the rows {reading}")
        print(f"    the pure rules (standings)    {pure}")
        verdicts.check(f"standings of {args.results} games", whole, STANDINGS_TARGET)

        rebuilt, whole = await timed(read_ratings, args.profile, "rebuilt_ratings")
        results, reading = await timed(read_rated, False, "")

        async def pure_rebuild() -> dict[str, Rating]:
            return rebuild(results)

        _, pure = await timed(pure_rebuild, False, "")
        each = pure.cpu / len(results) * 1e6
        print(f"  ratings rebuilt for {len(rebuilt)} players of the server:")
        print(f"    reading and decoding the rows {reading}")
        print(f"    the pure rules (rebuild)      {pure}, {each:.0f} µs CPU a game")
        verdicts.check(f"ratings rebuilt from {args.results} games", whole, REBUILD_TARGET)
    await incremental(db, rebuilt, results, args.samples)


async def incremental(
    db: Database, rebuilt: dict[str, Rating], results: list[GameResult], samples: int
) -> None:
    """One more game rated as its end rates it, on the server's stored ratings."""
    async with db.transaction() as conn:
        stored = {int(p): (r.mu, r.sigma, r.games) for p, r in rebuilt.items()}
        await store.set_ratings(conn, GUILD, stored)
    rng = random.Random(4)
    played = [rng.choice(results) for _ in range(samples)]
    pure, whole = [], []
    for result in played:
        started = time.perf_counter()
        rate(rebuilt, result)
        pure.append(time.perf_counter() - started)
    for result in played:
        started = time.perf_counter()
        async with db.transaction() as conn:
            await apply_rating(conn, GUILD, result)
        whole.append(time.perf_counter() - started)
    print(f"  one more game rated ({len(rebuilt)} players rated in the server):")
    report("apply_rating (read, rate, write)", whole)
    report("rate (the pure rules)", pure)


# --- running ----------------------------------------------------------------------------------
async def bench(args: argparse.Namespace, folder: Path) -> None:
    verdicts = Verdicts()
    print(f"tournament benchmark: --tables {args.tables} --results {args.results}")
    await part_one(args, folder, verdicts)
    await part_two(args, folder, verdicts)
    print(verdicts.summary())
    print("(wall times on a shared machine vary with its load)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=None, help="tables of the heat (100)")
    parser.add_argument("--results", type=int, default=None, help="stored results (10000)")
    parser.add_argument("--samples", type=int, default=None, help="games rated one by one (200)")
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    parser.add_argument(
        "--synchronous",
        choices=("FULL", "NORMAL", "OFF"),
        default="FULL",
        help="SQLite's fsync policy for the heat (FULL: the bot's)",
    )
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument("--db", type=Path, default=None, help="keep the databases in this folder")
    args = parser.parse_args()
    small = args.quick
    args.tables = args.tables or (3 if small else 100)
    args.results = args.results or (60 if small else 10_000)
    args.samples = args.samples or (10 if small else 200)
    if args.tables < 1 or args.results < 1 or args.samples < 1:
        parser.error("--tables, --results and --samples must be at least 1")
    if args.db is not None:
        if args.db.exists() and any(args.db.iterdir()):
            parser.error(f"{args.db} is not empty: give a new folder")
        args.db.mkdir(parents=True, exist_ok=True)
        asyncio.run(bench(args, args.db))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args, Path(folder)))


if __name__ == "__main__":
    main()
