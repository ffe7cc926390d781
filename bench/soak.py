"""Soak test: whole games between AI seats through the game service and SQLite (issues 7, 21).

    .venv/bin/python bench/soak.py [--games 20] [--seed 1] [--max-turns 100]
                                   [--concurrent 1] [--db PATH]

Plays ``--games`` games (2, 3, 4 players in turn; seeds ``--seed``, +1…) in one database,
``--concurrent`` at a time, each in its own channel. Nobody types anything after a game's
``start``: its AI seats play it out by themselves, in slices, as on the bot
(:mod:`bot.ai_runner`). After every action it checks that creature totals are conserved
(caretaker + legions + dead pile + the slain of the engagement under way = the counts of
``engine.characters.CHARACTERS``) and that legions hold 1 to 7 characters (the starting 8
before the first split; none only while a battle's end check is open). At each game's end
the game reloaded from SQLite (latest snapshot and replay) and the full replay from the
seed must equal the in-memory state. A game still going after ``--max-turns`` game turns
is ended by the time limit (errata 21.1).

While the games play, a monitor task sleeps 10 ms again and again and records how late it
wakes (the event loop's longest stall: target ≤ 50 ms), and a watcher asks ``status`` in
a playing channel every 50 ms (how long a person's command waits while computers play).

Reports games per hour, actions per second, the longest event-loop stall (and its p99),
``status`` latency (p50/p99/max), database size per game and peak memory. The issue's
full soak is ``--games 200``; exit status 1 on a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bot.context import Caller, Place  # noqa: E402
from bot.demo import open_ai_game  # noqa: E402
from bot.heap import settle  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import games as rows  # noqa: E402
from bot.storage.record import Game, full_replay, load_game  # noqa: E402
from engine.battle.state import BattleStep  # noqa: E402
from engine.characters import CHARACTERS, STARTING_LEGION  # noqa: E402
from engine.game import actions as a  # noqa: E402
from engine.game.game_turns import game_turn  # noqa: E402
from engine.game.state import GameState, Legion  # noqa: E402

PLAYERS = (2, 3, 4)


def in_limbo(state: GameState) -> Counter[str]:
    """The slain of the engagement under way, not yet back with the caretaker or dead
    (RULES §11.3): the battle's casualties, or the whole engagement's in its aftermath."""
    engagement = state.engagement
    if engagement is None:
        return Counter()
    if engagement.aftermath is not None:
        return Counter(engagement.aftermath.slain)
    if engagement.battle is not None:
        return Counter(c.name for c in engagement.battle.casualties)
    return Counter()


def _height_ok(state: GameState, legion: Legion) -> bool:
    if 1 <= legion.height <= 7:
        return True
    if legion.height == 8:
        owner = state.player(legion.owner)
        return owner.turns_taken == 0 and sorted(legion.characters) == sorted(STARTING_LEGION)
    battle = state.engagement.battle if state.engagement is not None else None
    return legion.height == 0 and battle is not None and battle.step is BattleStep.END_CHECK


def problems(state: GameState) -> list[str]:
    """What is wrong with ``state``: counters not conserved, legions of a wrong height."""
    totals = Counter(state.caretaker) + Counter(state.dead) + in_limbo(state)
    for legion in state.legions.values():
        totals.update(legion.characters)
    found = [
        f"{name}: {totals[name]} counters, not {c.count}"
        for name, c in CHARACTERS.items()
        if totals[name] != c.count
    ]
    found += [
        f"{legion.marker} holds {legion.height}"
        for legion in state.legions.values()
        if not _height_ok(state, legion)
    ]
    return found


@dataclass
class Soak:
    """What the games did, gathered as they go."""

    latencies: list[float] = field(default_factory=list)
    """Seconds each watcher's ``status`` took to be answered."""
    stalls: list[float] = field(default_factory=list)
    """Seconds the monitor woke late, each time."""
    longest_step: float = 0.0
    """The most CPU seconds the event loop's thread spent in one step (one callback)."""
    actions: int = 0
    failures: list[str] = field(default_factory=list)
    finals: dict[int, Game] = field(default_factory=dict)
    endings: Counter[str] = field(default_factory=Counter)
    ended: dict[int, asyncio.Event] = field(default_factory=dict)
    """Set when the game of the channel is over."""
    overtime: set[int] = field(default_factory=set)
    """The channels whose game is past ``--max-turns`` and not yet limited."""

    def observe(self, game: Game) -> None:
        """After each AI action: the invariants, and the game as held in memory."""
        assert game.state is not None
        self.actions += 1
        self.finals[game.id] = game
        for problem in problems(game.state):
            self.failures.append(f"game {game.id}, action {game.n}: {problem}")
        if game.state.result is not None and game.row.channel in self.ended:
            self.ended[game.row.channel].set()


class Overtime:
    """Declares the time limit of a game past its game turns (any seat may, errata 21.1);
    tried again after the next action when the game is in a phase that refuses it."""

    def __init__(self, service: GameService, turns: int) -> None:
        self.service, self.turns = service, turns
        self.limited: set[int] = set()
        self._trying: dict[int, asyncio.Task[None]] = {}

    def observe(self, game: Game) -> None:
        state, channel = game.state, game.row.channel
        if state is None or state.result is not None or game.id in self.limited:
            return
        if game_turn(state) <= self.turns or state.final_turns is not None:
            return
        task = self._trying.get(channel)
        if task is None or task.done():
            self._trying[channel] = asyncio.create_task(self._declare(channel, game))

    async def _declare(self, channel: int, game: Game) -> None:
        caller = Caller(game.user_of(0), game.name_of(0))
        replies = await self.service.act(Place(channel), caller, a.ExpireTimeLimit())
        if not replies.error:
            self.limited.add(game.id)


async def one_game(service: GameService, soak: Soak, channel: int, players: int) -> None:
    """Open one AI game in ``channel``, wait until it has played itself out, and compare
    its reloads with the memory."""
    soak.ended[channel] = asyncio.Event()
    game_id = await open_ai_game(service, Place(channel), players)
    await soak.ended[channel].wait()
    await service.ai.idle([channel])
    del soak.ended[channel]
    memory = soak.finals.pop(game_id)
    async with service.db.reading() as db:
        row = await rows.game(db, game_id)
        assert row is not None
        loaded = await load_game(db, row)
        replayed = await full_replay(db, row)
    if not (loaded.state == replayed == memory.state and loaded.n == memory.n):
        soak.failures.append(f"game {game_id}: reloaded from SQLite, it differs from memory")
    assert memory.state is not None and memory.state.result is not None
    soak.endings[memory.state.result.reason] += 1


async def monitor(soak: Soak, tick: float = 0.010) -> None:
    """Sleep ``tick`` again and again, recording how late each wake-up is."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(tick)
        soak.stalls.append(max(0.0, time.perf_counter() - before - tick))


@contextlib.contextmanager
def timed_steps(soak: Soak) -> Iterator[None]:
    """Time the CPU the event loop's thread spends in each step (each callback it runs):
    what the code itself holds the loop for, whatever else the machine runs meanwhile (a
    busy machine makes the monitor's wake-ups late too)."""
    run = asyncio.events.Handle._run

    def timed(handle: asyncio.events.Handle) -> None:
        start = time.thread_time()
        run(handle)
        soak.longest_step = max(soak.longest_step, time.thread_time() - start)

    asyncio.events.Handle._run = timed  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        asyncio.events.Handle._run = run  # type: ignore[method-assign]


async def watcher(service: GameService, soak: Soak, every: float = 0.050) -> None:
    """Ask ``status`` in a channel whose game is being played, every ``every`` seconds."""
    who = Caller(77, "Watcher")
    for turn in itertools.count():
        await asyncio.sleep(every)
        playing = sorted(soak.ended)
        if not playing:
            continue
        start = time.perf_counter()
        await service.submit(Place(playing[turn % len(playing)]), who, "status")
        soak.latencies.append(time.perf_counter() - start)


async def soak_games(path: Path, games: int, seed: int, turns: int, concurrent: int) -> Soak:
    """Play the games, ``concurrent`` at a time (each worker in its own channel)."""
    soak = Soak()
    overtime: Overtime | None = None

    def observe(game: Game) -> None:
        soak.observe(game)
        assert overtime is not None
        overtime.observe(game)

    service = await GameService.open(
        path, seeds=itertools.count(seed).__next__, on_ai_action=observe
    )
    overtime = Overtime(service, turns)
    settle()  # as the bot does once started (bot/heap.py)
    numbers = iter(range(games))

    async def worker(channel: int) -> None:
        for number in numbers:
            await one_game(service, soak, channel, PLAYERS[number % len(PLAYERS)])

    helpers = [asyncio.create_task(monitor(soak)), asyncio.create_task(watcher(service, soak))]
    try:
        with timed_steps(soak):
            await asyncio.gather(*(worker(100 + k) for k in range(concurrent)))
    finally:
        for task in helpers:
            task.cancel()
        await asyncio.gather(*helpers, return_exceptions=True)
        await service.close()
    return soak


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(soak: Soak, games: int, seconds: float, path: Path) -> str:
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    latency = soak.latencies or [0.0]
    stalls = soak.stalls or [0.0]
    endings = ", ".join(f"{n} {reason}" for reason, n in soak.endings.most_common())
    return "\n".join(
        [
            f"{games} games, {soak.actions} AI actions in {seconds:.1f} s ({endings})",
            f"games per hour:   {games / seconds * 3600:,.0f}",
            f"actions a second: {soak.actions / seconds:,.1f}",
            f"event-loop stall: max {max(stalls) * 1000:.1f} ms, "
            f"p99 {percentile(stalls, 0.99) * 1000:.1f} ms (target: max ≤ 50 ms); "
            f"longest step {soak.longest_step * 1000:.1f} ms of CPU",
            f"machine load:     {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
            f"on {os.cpu_count()} cores (a busy machine makes wake-ups late)",
            f"status latency:   p50 {statistics.median(latency) * 1000:.1f} ms, "
            f"p99 {percentile(latency, 0.99) * 1000:.1f} ms, max {max(latency) * 1000:.0f} ms "
            f"({len(soak.latencies)} asked while the computers played)",
            f"database:         {size / games / 1024:,.1f} KiB a game ({size / 2**20:.1f} MiB)",
            f"peak memory:      {peak:,.0f} MiB",
            f"failures:         {len(soak.failures)}",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games to play (full soak: 200)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--max-turns", type=int, default=100, help="game turns, then time")
    parser.add_argument("--concurrent", type=int, default=1, help="games played at once")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file (default: temp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="titan-soak-") as folder:
        path = args.db or Path(folder) / "soak.sqlite3"
        start = time.perf_counter()
        soak = asyncio.run(
            soak_games(path, args.games, args.seed, args.max_turns, max(1, args.concurrent))
        )
        print(report(soak, args.games, time.perf_counter() - start, path))
    for failure in soak.failures[:20]:
        print("FAILED", failure)
    return 1 if soak.failures else 0


if __name__ == "__main__":
    sys.exit(main())
