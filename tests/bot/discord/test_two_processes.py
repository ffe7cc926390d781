"""A bot of two processes, shards 0 and 1 of 2, over one PostgreSQL database, against one
fake Discord: each process gets only its shard's server and plays the game there; the
process of shard 0 answers ``/titan mygames`` with the game in shard 1's server too; only
it synced the commands, and the other names them by the ids Discord gave; everything the
players should see arrives exactly once.

Each process runs in a folder of its own, as on two machines (a PostgreSQL bot keeps its
sync file in its working folder). The test reads the games from the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import outbox as news
from bot.storage.backends import open_database
from bot.storage.connection import Backend
from bot.storage.record import Game, load_open_game
from tests.bot.discord import payloads as p
from tests.bot.discord.conftest import mistakes
from tests.bot.discord.driver import Driver, Waiter
from tests.bot.discord.fake import FakeDiscord, Pushed
from tests.bot.discord.helpers import ANN, BOB, CAROL, registered, settle
from tests.bot.discord.processes import BotProcess

REPO = Path(__file__).resolve().parents[3]
READY = 60.0
"""Seconds a process may take to start (a busy machine, a new database)."""
DONE = 30.0
"""Seconds the bots may take over one interaction and all it tells."""
STEPS = 12
"""Actions played in each game, taking turns between the two servers."""
COMMANDS = r"^applications/\d+/commands$"


async def start(fake: FakeDiscord, dsn: str, shard: int, folder: Path) -> BotProcess:
    """``titanbot run`` as shard ``shard`` of 2, working in ``folder``, ready."""
    folder.mkdir()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.discord.bot_process",
        fake.base, fake.gateway, fake.token, dsn, "2", str(shard),
        cwd=folder, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO), "BOT_PROCESS_LOG": "INFO"},
    )  # fmt: skip
    bot = BotProcess(process, str(shard))
    bot.start_reading()
    ended = asyncio.create_task(process.wait())
    ready = asyncio.create_task(bot.ready.wait())
    await asyncio.wait({ended, ready}, timeout=READY, return_when="FIRST_COMPLETED")
    ended.cancel()
    ready.cancel()
    if not bot.ready.is_set():
        await bot.stop()
        raise AssertionError(f"shard {shard}'s process did not get ready:\n" + "\n".join(bot.log))
    return bot


class Reader:
    """The games as the test reads them: from the bots' database."""

    def __init__(self, db: Backend) -> None:
        self.db = db

    async def game_in(self, channel: int) -> Game | None:
        return await load_open_game(self.db, channel)

    async def all_told(self) -> bool:
        async with self.db.reading() as db:
            return not await news.channels_waiting(db)


def waiting_for(games: Reader) -> Waiter:
    """Waits until the bots are done with an interaction: they have answered it (every
    command and click ends with a word on its token: an edited answer, a follow-up, the
    clicked board edited) and told everything stored meanwhile."""

    async def done(fake: FakeDiscord, pushed: Pushed) -> Pushed:
        prefix = "webhooks/"

        def answered() -> bool:
            return any(r.path.startswith(prefix) and pushed.token in r.path for r in fake.requests)

        await fake.wait_for(answered, timeout=DONE)
        deadline = time.monotonic() + DONE
        while not await games.all_told():
            assert time.monotonic() < deadline, "the outbox kept rows waiting"
            await asyncio.sleep(0.05)
        await settle(fake, quiet=0.1)
        return pushed

    return done


async def slash(
    fake: FakeDiscord, games: Reader, user: int, *path: str, **options: object
) -> Pushed:
    return await waiting_for(games)(fake, await fake.slash(user, *path, **options))


@pytest.fixture
async def games(pg_dsn: str) -> AsyncIterator[Reader]:
    db = await open_database(pg_dsn)  # created and migrated: the bots find it ready
    try:
        yield Reader(db)
    finally:
        await db.close()


@contextlib.asynccontextmanager
async def running(bots: list[BotProcess]) -> AsyncIterator[list[BotProcess]]:
    try:
        yield bots
    finally:
        for bot in bots:
            await bot.stop()


async def test_two_processes_on_two_shards_share_one_postgresql_database(
    fake, pg_dsn, games, tmp_path
):
    mine = await fake.add_guild("Shard Zero Club", shard=(0, 2))
    theirs = fake.channels[p.CHANNEL_ID]  # the game's server: shard 1 of 2
    bots: list[BotProcess] = []
    async with running(bots):
        bots.append(await start(fake, pg_dsn, 0, tmp_path / "zero"))
        assert len(fake.paths("PUT", COMMANDS)) == 1  # shard 0's process synced
        fetched = len(fake.paths("GET", COMMANDS))
        bots.append(await start(fake, pg_dsn, 1, tmp_path / "one"))
        zero, one = bots
        assert sorted(i["shard"] for i in fake.identified) == [[0, 2], [1, 2]]
        assert zero.said("in 1 guilds on shard 0 of 2 (it syncs the commands)")
        assert one.said("in 1 guilds on shard 1 of 2 (shard 0's process syncs)")
        assert len(fake.paths("GET", COMMANDS)) == fetched + 1  # shard 1's: asked Discord

        for channel, host, guest in ((mine.id, ANN, BOB), (theirs.id, CAROL, ANN)):
            opened = await slash(fake, games, host, "titan", "new", players=2, channel=channel)
            await slash(fake, games, guest, "titan", "join", channel=channel)
            await slash(fake, games, host, "titan", "start", channel=channel)
            assert opened.shards == ((0,) if channel == mine.id else (1,))

        drivers = [
            Driver(fake, games, seed=seed, channel=channel, wait=waiting_for(games))
            for seed, channel in ((3, mine.id), (4, theirs.id))
        ]
        for _ in range(STEPS):
            for driver in drivers:
                step = await driver.step()
                assert step is not None and step.events, "each step is one action logged"
                server = fake.channels[driver.channel].guild
                assert all(pushed.shards == (0 if server == mine.guild else 1,)
                           for pushed in step.pushed)  # fmt: skip

        asked = await slash(fake, games, ANN, "titan", "mygames", channel=mine.id)
        assert asked.shards == (0,)
        [answer] = fake.ephemeral(asked)
        assert f"in <#{mine.id}>" in answer.content and f"in <#{theirs.id}>" in answer.content
        assert answer.content.startswith("Your open games: 2,")

    assert len(fake.paths("PUT", COMMANDS)) == 1  # shard 1's process synced nothing
    assert (tmp_path / "zero" / "titanbot.commands.json").is_file()
    assert not (tmp_path / "one" / "titanbot.commands.json").exists()
    ids = registered(fake)
    said_there = [m.content for m in fake.in_channel(theirs.id)]
    assert any(f":{ids['titan']}>" in text for text in said_there)  # shard 1 names by id
    assert told_once(fake) == []
    assert not any(bot.killed for bot in bots)  # each closed on Ctrl-C
    assert mistakes(fake) == []


def told_once(fake: FakeDiscord) -> list[str]:
    """What was told more than once: a post (in a channel, a thread or a DM) sent again
    with its nonce, which Discord would hide but which means a row delivered twice; an
    interaction's answer or follow-up said twice."""
    posts = fake.paths("POST", r"^channels/\d+/messages$")
    nonces = Counter(str(r.body.get("nonce")) for r in posts if r.status == 200)
    twice = [f"post {nonce} sent {n} times" for nonce, n in nonces.items() if n > 1]
    answers = Counter(
        (r.method, r.path, repr(r.body)) for r in fake.requests if r.path.startswith("webhooks/")
    )
    twice += [f"{method} {path} said {n} times" for (method, path, _), n in answers.items()
              if n > 1]  # fmt: skip
    return twice


async def test_a_process_starting_leaves_alone_what_another_is_telling(
    fake, pg_dsn, games, tmp_path
):
    """Shard 0's process is telling a new game's news (the post is on its way) when shard
    1's process starts and reads the rows left waiting: the news is told once (the
    channel's outbox is delivered by the process holding its lease)."""
    mine = await fake.add_guild("Shard Zero Club", shard=(0, 2))
    bots: list[BotProcess] = []
    async with running(bots):
        bots.append(await start(fake, pg_dsn, 0, tmp_path / "zero"))
        gate = fake.hold("POST", rf"^channels/{mine.id}/messages$", answered=False)
        await fake.slash(ANN, "titan", "new", players=2, channel=mine.id)
        await asyncio.wait_for(gate.arrived.wait(), DONE)
        bots.append(await start(fake, pg_dsn, 1, tmp_path / "one"))
        await asyncio.sleep(1.0)  # shard 1's deliverer has read the outbox by now
        gate.release()
        deadline = time.monotonic() + DONE
        while not await games.all_told():
            assert time.monotonic() < deadline, "the outbox kept rows waiting"
            await asyncio.sleep(0.05)
        await settle(fake, quiet=0.3)
    assert len([m for m in fake.in_channel(mine.id) if "opened game" in m.content]) == 1
    assert told_once(fake) == []
    assert not any(bot.killed for bot in bots)  # each closed on Ctrl-C
