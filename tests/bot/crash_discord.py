"""The bot in a process of its own against a fake Discord, killed and started again, and
what the test reads beside it: the games, the outbox, and what Discord was shown.

The bot is :mod:`tests.bot.discord.bot_process`; the test reads its database as a second
reader would (a SQLite file without the file's lock, read-only; PostgreSQL as shared).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.storage import outbox as news
from bot.storage.backends import Target, is_postgres, open_database
from bot.storage.connection import Backend
from bot.storage.database import Database
from bot.storage.record import Game, load_open_game
from tests.bot.discord.driver import Waiter
from tests.bot.discord.fake import FakeDiscord, Pushed, Sent
from tests.bot.discord.helpers import settle
from tests.bot.discord.processes import BotProcess
from tests.bot.tampering import query

REPO = Path(__file__).resolve().parents[2]
READY = 60.0
"""Seconds a bot process may take to get ready (a busy machine)."""
DONE = 30.0
"""Seconds the bot may take over one interaction and all it tells."""


async def start_bot(fake: FakeDiscord, target: Target, folder: Path) -> BotProcess:
    """A bot process on ``target``, ready (its outbox read, its guild known)."""
    folder.mkdir(exist_ok=True)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.discord.bot_process",
        fake.base, fake.gateway, fake.token, str(target),
        cwd=folder, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO), "BOT_PROCESS_LOG": "INFO"},
    )  # fmt: skip
    bot = BotProcess(process)
    bot.start_reading()
    ended = asyncio.create_task(process.wait())
    ready = asyncio.create_task(bot.ready.wait())
    await asyncio.wait({ended, ready}, timeout=READY, return_when="FIRST_COMPLETED")
    ended.cancel()
    ready.cancel()
    if not bot.ready.is_set():
        await bot.kill()
        raise AssertionError("the bot did not get ready:\n" + "\n".join(bot.log))
    return bot


class Beside:
    """The bot's database as the test reads it while the bot runs."""

    def __init__(self, target: Target, db: Backend) -> None:
        self.target = target
        self.db = db

    @classmethod
    async def open(cls, target: Target) -> Beside:
        """``target`` made ready (created and migrated), then opened beside the bot."""
        if is_postgres(target):
            return cls(target, await open_database(target))
        made = await open_database(target)
        await made.close()  # the bot takes the file's lock; the test reads without it
        return cls(target, await _reader(Path(target)))

    async def reopen(self) -> None:
        """A new connection (a read cut short may have left the old one in a transaction)."""
        await self.db.close()
        if is_postgres(self.target):
            self.db = await open_database(self.target)
        else:
            self.db = await _reader(Path(self.target))

    async def close(self) -> None:
        await self.db.close()

    async def game_in(self, channel: int) -> Game | None:
        return await load_open_game(self.db, channel)

    async def all_told(self) -> bool:
        async with self.db.reading() as db:
            return not await news.channels_waiting(db)

    async def told(self) -> None:
        """Wait until the outbox holds nothing waiting, and the bot has gone quiet."""
        deadline = time.monotonic() + DONE
        while not await self.all_told():
            assert time.monotonic() < deadline, "the outbox kept rows waiting"
            await asyncio.sleep(0.05)


async def _reader(path: Path) -> Database:
    """A read-only connection to a SQLite file, without its lock."""
    uri = path.resolve().as_uri() + "?mode=ro"
    connection = await aiosqlite.connect(uri, uri=True, isolation_level=None)
    await connection.execute("PRAGMA query_only = ON")
    return Database(connection, path.resolve())


def waiting_for(games: Beside) -> Waiter:
    """Waits until the bot is done with an interaction: it has answered it (a word on its
    token) and told everything stored meanwhile."""

    async def done(fake: FakeDiscord, pushed: Pushed) -> Pushed:
        def answered() -> bool:
            return any(
                r.path.startswith("webhooks/") and pushed.token in r.path for r in fake.requests
            )

        await fake.wait_for(answered, timeout=DONE)
        await games.told()
        await settle(fake, quiet=0.1)
        return pushed

    return done


@dataclass(frozen=True)
class Row:
    """One row of the outbox as the test reads it."""

    id: int
    kind: str
    recipient: int | None
    reply_to: str | None
    batch: int | None
    outcome: str | None
    delivered: bool

    @property
    def token(self) -> str:
        assert self.reply_to is not None
        return str(json.loads(self.reply_to)["token"])


def outbox(target: Target) -> list[Row]:
    found = query(
        target,
        "SELECT id, kind, recipient, reply_to, batch, outcome, delivered_at FROM outbox"
        " ORDER BY id",
    )
    return [Row(*row[:6], row[6] is not None) for row in found]


def made_with(fake: FakeDiscord, token: str) -> list[Sent]:
    """Every message made with an interaction's token, deleted ones too."""
    return [m for m in fake.messages.values() if m.token == token]
