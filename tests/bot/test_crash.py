"""Killing the process at any instant loses no committed action and leaves no partial one."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.storage import games as rows
from bot.storage.backends import Target, is_postgres, open_database
from bot.storage.record import full_replay, load_game
from tests.bot.crash_worker import CHANNEL
from tests.bot.tampering import query

REPO = Path(__file__).resolve().parents[2]
ROUNDS = 6


def run_and_kill(db: Target, rng: random.Random) -> list[tuple[int, str]]:
    """Start a worker, let it commit a random number of actions, SIGKILL it mid-stream."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.crash_worker", str(db)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acks: list[tuple[int, str]] = []
    assert worker.stdout is not None
    assert worker.stdout.readline().strip() == "ready"
    wanted = rng.randint(1, 25)
    while len(acks) < wanted:
        line = worker.stdout.readline()
        if not line or line.strip() == "over":
            break
        _, n, action = line.split(" ", 2)
        acks.append((int(n), json.loads(action)))
    time.sleep(rng.random() * 0.02)  # land anywhere: inside a transaction or between two
    worker.send_signal(signal.SIGKILL)
    rest, errors = worker.communicate(timeout=30)
    assert worker.returncode in (-signal.SIGKILL, 0), errors
    for line in rest.splitlines():  # acks printed before the kill still count
        if line.startswith("ack "):
            _, n, action = line.split(" ", 2)
            acks.append((int(n), json.loads(action)))
    return acks


async def check(db: Target, acked: dict[int, str]) -> int:
    """Every acknowledged action is stored as acknowledged; the game loads consistently."""
    if not is_postgres(db):
        assert query(db, "PRAGMA integrity_check") == [("ok",)]
    stored = dict(query(db, "SELECT n, action FROM actions"))
    snapshots = [n for (n,) in query(db, "SELECT n FROM snapshots")]
    assert sorted(stored) == list(range(1, len(stored) + 1)), "the log has no gap"
    assert all(stored[n] == action for n, action in acked.items())
    assert len(stored) - max(acked, default=0) <= 1, "at most the unacknowledged last one"
    assert all(n <= len(stored) for n in snapshots)
    database = await open_database(db)
    try:
        async with database.reading() as conn:
            row = await rows.game(conn, 1)
            assert row is not None and row.channel == CHANNEL
            loaded = await load_game(conn, row)
            assert loaded.n == len(stored)
            assert loaded.state == await full_replay(conn, row)
    finally:
        await database.close()
    return len(stored)


def test_sigkill_at_random_points_loses_nothing_acknowledged(db_target):
    db = db_target
    rng = random.Random(2024)
    acked: dict[int, str] = {}
    stored = 0
    for _ in range(ROUNDS):
        for n, action in run_and_kill(db, rng):
            acked[n] = action
        stored = asyncio.run(check(db, acked))
    assert stored >= ROUNDS
