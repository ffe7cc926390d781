"""Killing the process at any instant loses no committed action and leaves no partial one,
and what it stored is told once: each answer, post and DM shown once across the kills."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.storage import games as rows
from bot.storage.backends import Target, is_postgres, open_database
from bot.storage.record import full_replay, load_game
from tests.bot.crash_discord import DONE, Beside, made_with, outbox, start_bot, waiting_for
from tests.bot.crash_worker import CHANNEL
from tests.bot.discord.conftest import mistakes
from tests.bot.discord.driver import Driver
from tests.bot.discord.fake import FakeDiscord
from tests.bot.discord.helpers import ANN, BOB, settle
from tests.bot.tampering import execute, query

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


KILLS = 12
"""SIGKILLs of the bot on the fake Discord, each at a random moment of an action."""


async def test_sigkills_show_each_answer_post_and_dm_once(db_target, tmp_path):
    """The bot killed again and again while players click and type: every answer is its
    interaction's one response (edited, or dropped when there is nothing to say; never a
    second message), every DM and every new post is made once."""
    fake = FakeDiscord()
    await fake.start()
    rng = random.Random(65)
    games = await Beside.open(db_target)
    bot = await start_bot(fake, db_target, tmp_path / "bot")
    wait = waiting_for(games)
    try:
        for user, *path in ((ANN, "titan", "new"), (BOB, "titan", "join"), (ANN, "titan", "start")):
            options = {"players": 2} if path[-1] == "new" else {}
            await wait(fake, await fake.slash(user, *path, **options))
        driver = Driver(fake, games, seed=8, wait=wait)
        for _ in range(KILLS):
            for _ in range(rng.randint(0, 2)):
                assert await driver.step() is not None, "the game lasts the test"
            under_way = asyncio.create_task(driver.step())
            await fake.wait_for(stored_more(db_target), timeout=DONE)
            await asyncio.sleep(rng.random() * 0.05)  # land anywhere in the telling
            await bot.kill()
            if is_postgres(db_target):  # the dead process's leases run out (as in 2 minutes)
                execute(db_target, "UPDATE leases SET until = 0")
            under_way.cancel()
            await asyncio.gather(under_way, return_exceptions=True)
            await games.reopen()
            bot = await start_bot(fake, db_target, tmp_path / "bot")
            await games.told()
            await settle(fake, quiet=0.2)
    finally:
        await bot.kill()
        await games.close()
        await fake.stop()
    rows = outbox(db_target)
    assert all(row.delivered for row in rows)
    answers = [row for row in rows if row.kind == "answer" and row.reply_to is not None]
    assert len(answers) >= KILLS
    for row in answers:
        pushed = next(i for i in fake.interactions.values() if i.token == row.token)
        response = fake.messages.get(pushed.original or 0)
        others = [m for m in made_with(fake, row.token) if m.id != pushed.original]
        assert others == [], f"answer {row.id} ({row.outcome}) was shown again"
        assert response is not None
        if row.outcome == "sent":
            assert response.ephemeral and not response.deleted and not response.loading
            assert response.content
        else:
            assert row.outcome is not None and row.outcome.startswith("acknowledged")
            assert response.deleted
    nonces = [(m.channel, m.nonce) for m in fake.messages.values() if m.nonce is not None]
    assert len(nonces) == len(set(nonces)), "a message was made twice"
    for row in rows:
        if row.kind == "dm" and row.outcome == "sent":
            channel = fake.dm_channel(row.recipient).id  # type: ignore[arg-type]
            assert (channel, f"titan-{row.batch}") in nonces, f"DM {row.id} was not sent"
    dropped_again = "/messages/@original: 404 {'code': 10008"  # dropped before the kill
    assert [m for m in mistakes(fake) if not m.startswith("DELETE") or dropped_again not in m] == []


def stored_more(target: Target) -> Callable[[], bool]:
    """Whether the outbox holds more rows than now (an action was stored and not told)."""
    now = len(outbox(target))
    return lambda: len(outbox(target)) > now
