"""Soak test: whole games between AI seats through the game service and SQLite (issue 7).

    .venv/bin/python bench/soak.py [--games 20] [--seed 1] [--max-turns 100]
                                   [--concurrent 1] [--db PATH]

Plays ``--games`` games (2, 3, 4 players in turn; seeds ``--seed``, +1…) in one database,
one AI action per command (``GameService.advance``), and checks after every action that
creature totals are conserved (caretaker + legions + dead pile + the slain of the
engagement under way = the counts of ``engine.characters.CHARACTERS``) and that legions
hold 1 to 7 characters (the starting 8 before the first split; none only while a battle's
end check is open). At each game's end the game reloaded from SQLite (latest snapshot and
replay) and the full replay from the seed must equal the in-memory state. A game still
going after ``--max-turns`` game turns is ended by the time limit (errata 21.1).

Reports games per hour, actions per second, p50/p99 command latency, database size per
game and peak memory. The issue's full soak is ``--games 200``; exit status 1 on a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bot.context import Place  # noqa: E402
from bot.demo import open_ai_game, play_ai_game  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import games as rows  # noqa: E402
from bot.storage.record import Game, full_replay, load_game  # noqa: E402
from engine.battle.state import BattleStep  # noqa: E402
from engine.characters import CHARACTERS, STARTING_LEGION  # noqa: E402
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
    actions: int = 0
    failures: list[str] = field(default_factory=list)
    finals: dict[int, Game] = field(default_factory=dict)
    endings: Counter[str] = field(default_factory=Counter)

    def observe(self, game: Game) -> None:
        """After each AI action: the invariants, and the game as held in memory."""
        assert game.state is not None
        self.actions += 1
        self.finals[game.id] = game
        for problem in problems(game.state):
            self.failures.append(f"game {game.id}, action {game.n}: {problem}")


async def one_game(
    service: GameService, soak: Soak, channel: int, players: int, turns: int
) -> None:
    """Play one AI game in ``channel`` and compare its reloads with the memory."""
    game_id = await open_ai_game(service, Place(channel), players)
    await play_ai_game(service, Place(channel), turns, soak.latencies)
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


async def soak_games(path: Path, games: int, seed: int, turns: int, concurrent: int) -> Soak:
    """Play the games, ``concurrent`` at a time (each worker in its own channel)."""
    soak = Soak()
    service = await GameService.open(
        path, seeds=itertools.count(seed).__next__, ai_limit=0, on_ai_action=soak.observe
    )
    numbers = iter(range(games))

    async def worker(channel: int) -> None:
        for number in numbers:
            await one_game(service, soak, channel, PLAYERS[number % len(PLAYERS)], turns)

    try:
        await asyncio.gather(*(worker(100 + k) for k in range(concurrent)))
    finally:
        await service.close()
    return soak


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(soak: Soak, games: int, seconds: float, path: Path) -> str:
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    latency = soak.latencies or [0.0]
    endings = ", ".join(f"{n} {reason}" for reason, n in soak.endings.most_common())
    return "\n".join(
        [
            f"{games} games, {soak.actions} AI actions in {seconds:.1f} s ({endings})",
            f"games per hour:   {games / seconds * 3600:,.0f}",
            f"actions a second: {soak.actions / seconds:,.1f}",
            f"command latency:  p50 {statistics.median(latency) * 1000:.1f} ms, "
            f"p99 {percentile(latency, 0.99) * 1000:.1f} ms, max {max(latency) * 1000:.0f} ms",
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
