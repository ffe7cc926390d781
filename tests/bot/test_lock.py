"""One process per database file: a second one is refused, naming the file and the pid;
the lock dies with its process, however it ends."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.service import GameService
from bot.storage import Database
from bot.storage.lock import DatabaseInUse, lock_path

REPO = Path(__file__).resolve().parents[2]


def start_holder(db: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.lock_holder", str(db)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "ready"
    return holder


def titanbot(*args: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TITANBOT_")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environ | {"PYTHONPATH": str(REPO)},
        timeout=60,
    )


async def test_a_second_database_on_the_file_is_refused_until_the_first_closes(db_path):
    first = await Database.open(db_path)
    try:
        with pytest.raises(DatabaseInUse) as refused:
            await Database.open(db_path)
        assert str(db_path.resolve()) in str(refused.value)
        assert f"pid {os.getpid()}" in str(refused.value)
        with pytest.raises(DatabaseInUse):
            await GameService.open(db_path)
    finally:
        await first.close()
    again = await Database.open(db_path)
    await again.close()
    assert lock_path(db_path) == db_path.resolve().with_name("games.sqlite3.lock")


async def test_a_second_process_is_refused_with_the_file_and_the_pid(db_path):
    holder = await Database.open(db_path)
    try:
        second = titanbot("local", "--players", "Ann,Bob", "--db", str(db_path))
    finally:
        await holder.close()
    assert second.returncode == 2
    assert second.stderr.strip() == (
        f"titanbot: the database {db_path.resolve()} is in use by another titanbot process "
        f"(pid {os.getpid()}): stop that one first (one process per database file)"
    )
    assert "Traceback" not in second.stderr and "Game #1" not in second.stdout


async def test_the_lock_of_a_killed_process_is_free_at_once(db_path):
    holder = start_holder(db_path)
    try:
        with pytest.raises(DatabaseInUse, match=f"pid {holder.pid}"):
            await Database.open(db_path)
        assert titanbot("check-db", "--db", str(db_path)).returncode == 2
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=30)
    assert holder.returncode == -signal.SIGKILL
    restarted = await Database.open(db_path)  # no clean-up needed
    await restarted.close()
    assert titanbot("check-db", "--db", str(db_path)).returncode == 0


async def test_check_db_refuses_while_the_bot_has_the_file(db_path, capsys):
    service = await GameService.open(db_path)
    try:
        assert await asyncio.to_thread(main, ["check-db", "--db", str(db_path)]) == 2
    finally:
        await service.close()
    err = capsys.readouterr().err
    assert err.startswith("titanbot check-db: the database ") and "is in use" in err
