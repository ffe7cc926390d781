"""Two processes on one PostgreSQL database, hammering the same games.

Two services (:mod:`tests.bot.concurrency_worker`, each a process of its own) play
commands for 20 games both keep choosing and for 500 others, half of them as button
clicks made at a version, while their schedulers time out the seats of ten clocked games
nobody plays and their deliverers send what each change must tell. Then: every command
either process was told was done is one action of the log and nothing else is (no lost
update, no duplicate); each log is gapless and replays to the stored state; each
deadline timed its decision out once and was told once; every outbox row was delivered,
each message by one process, once. (SQLite is one process per file: a second one is
refused, see test_lock.py.)
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from bot.context import Place
from bot.service import GameService
from bot.storage import SeatRow, Status
from bot.storage import games as rows
from bot.storage.backends import open_database
from bot.storage.eventlog import events_to_json
from bot.storage.record import encode_state, full_replay, load_game
from bot.syntax import parse_command, to_action
from engine.game.actions import action_to_json
from engine.game.apply import apply
from engine.game.setup import new_game
from tests.bot.agent import caller, choose, user_id
from tests.bot.concurrency_worker import FIRST_HOT, GUARD, HOT, OTHERS, SLEEPERS, FastClock
from tests.bot.tampering import query

REPO = Path(__file__).resolve().parents[2]
SECONDS = 20.0


async def populate(dsn: str, epoch: float) -> dict[int, int]:
    """The hot games and the others, started and a few actions in (written straight to
    the tables), and the sleepers' clocked games (through the service); the actions each
    game starts with, by game id."""
    rng = random.Random(7)
    database = await open_database(dsn)
    start: dict[int, int] = {}
    channels = [*HOT, *OTHERS]
    try:
        for first in range(0, len(channels), 100):
            async with database.transaction() as db:
                for channel in channels[first : first + 100]:
                    game, n = await store_started(db, channel, rng)
                    start[game] = n
    finally:
        await database.close()
    service = await GameService.open(dsn, wall_clock=FastClock(epoch))
    try:
        for channel in SLEEPERS:
            for seat, text in [(0, "new players 2 deadline 1h timeout pass"), (1, "join"),
                               (0, "start")]:  # fmt: skip
                replies = await service.submit(Place(channel), caller(channel, seat), text)
                assert not replies.error, replies.ephemeral
            game = await service.game_in(channel)
            assert game is not None
            start[game.id] = game.n
    finally:
        await service.close()
    return start


async def store_started(db: object, channel: int, rng: random.Random) -> tuple[int, int]:
    names = [f"P{s}" for s in range(rng.randint(2, 4))]
    seed = rng.getrandbits(40)
    conn = db  # a Connection
    game = await rows.create_game(conn, channel, None, {"host": user_id(channel, 0)})  # type: ignore[arg-type]
    seats = [SeatRow(s, user_id(channel, s), name) for s, name in enumerate(names)]
    await rows.set_seats(conn, game, seats)  # type: ignore[arg-type]
    await rows.update_game(conn, game, Status.ACTIVE, seed=seed)  # type: ignore[arg-type]
    state, _ = new_game(names, seed)
    await rows.save_snapshot(conn, game, 0, encode_state(state))  # type: ignore[arg-type]
    played = 0
    for n in range(1, rng.randint(0, 5) + 1):
        seat, command = choose(state, 5, n - 1)
        action = (
            to_action(parse_command(command), state, seat) if isinstance(command, str) else command
        )
        after, events = apply(state, seat, action)
        turn, state = state.turn.number, after
        await rows.append_action(  # type: ignore[arg-type]
            conn, game, n, seat, json.dumps(action_to_json(action)), events_to_json(events),
            turn=turn,
        )  # fmt: skip
        played = n
    return game, played


def run_workers(dsn: str, epoch: float) -> tuple[list[Counter[int]], list[int], list[str]]:
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.bot.concurrency_worker",
                dsn,
                str(index),
                str(SECONDS),
                repr(epoch),
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for index in (1, 2)
    ]
    accepted: list[Counter[int]] = []
    refused: list[int] = []
    nonces: list[str] = []
    for worker in workers:
        out, err = worker.communicate(timeout=SECONDS * (GUARD + 1) + 240)
        assert worker.returncode == 0, err[-3000:]
        lines = out.splitlines()
        assert lines[0] == "ready"
        counts, refusals = lines[-1].removeprefix("done ").rsplit(" ", 1)
        accepted.append(Counter({int(k): v for k, v in json.loads(counts).items()}))
        refused.append(int(refusals))
        nonces += [line.split(" ", 1)[1] for line in lines if line.startswith("sent ")]
    return accepted, refused, nonces


async def replays(dsn: str) -> int:
    database = await open_database(dsn)
    checked = 0
    try:
        async with database.reading() as db:
            ids = await rows.game_ids(db)
        for game_id in ids:
            async with database.reading() as db:
                row = await rows.game(db, game_id)
                assert row is not None
                loaded = await load_game(db, row)
                assert loaded.state == await full_replay(db, row), game_id
            checked += 1
    finally:
        await database.close()
    return checked


def test_two_processes_hammering_the_same_games_lose_and_repeat_nothing(pg_migrated: str):
    dsn = pg_migrated
    epoch = time.time()
    start = asyncio.run(populate(dsn, epoch))
    accepted, refused, nonces = run_workers(dsn, epoch)

    # Every accepted command is one action, and every action not given by a clock is one.
    own = dict(query(dsn, "SELECT game, count(*) FROM actions WHERE cause IS NULL GROUP BY game"))
    logged = {game: int(own.get(game, 0)) - start[game] for game in start}
    both = accepted[0] + accepted[1]
    assert {g: n for g, n in logged.items() if n} == dict(both)
    first, last = HOT[0], HOT[FIRST_HOT - 1]
    hot_ids = [
        g for (g,) in query(dsn, "SELECT id FROM games WHERE channel BETWEEN ? AND ?", first, last)
    ]
    assert all(accepted[0][g] and accepted[1][g] for g in hot_ids), "both played them"
    assert sum(refused) > 0, "the processes raced (stale clicks refused)"

    # Each log is gapless and replays to its stored state.
    gaps = query(dsn, "SELECT game FROM actions GROUP BY game HAVING max(n) <> count(*)")
    assert gaps == []
    assert asyncio.run(replays(dsn)) == len(start)

    # Each deadline timed its decision out once, and was told once.
    timed_out = query(
        dsn,
        "SELECT game, decision FROM due WHERE kind = 'deadline' AND outcome = 'timed out: pass'",
    )
    assert len(timed_out) == len(set(timed_out)) >= len(SLEEPERS)
    told = Counter(
        game
        for game, body in query(dsn, "SELECT game, body FROM outbox WHERE kind = 'post'")
        if "deadline passed" in body
    )
    assert told == Counter(game for game, _ in timed_out)
    holders = query(dsn, "SELECT DISTINCT claimed_by FROM due WHERE claimed_by IS NOT NULL")
    assert len(holders) == 2, "both schedulers claimed deadlines"

    # Every row delivered; each message sent once, by one process.
    assert query(dsn, "SELECT count(*) FROM outbox WHERE delivered_at IS NULL") == [(0,)]
    assert len(nonces) == len(set(nonces)) > 0
    assert query(dsn, "SELECT count(*) FROM leases") == [(0,)], "both let their leases go"
