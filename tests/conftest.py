"""Fixtures for the whole suite: nothing in any test can reach Discord.

Every test runs with discord.py's REST base and gateway pointed at a closed loopback port;
the Discord tests point them at their local fake Discord instead.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import os
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import discord
import pytest
import yarl

from bot.storage.backends import Target
from bot.storage.database import Database
from bot.storage.postgres import migrate
from tests.pg import Server, throwaway_server
from tests.pg_reuse import emptied, schema_digest


def closed_port() -> int:
    """A loopback port nobody listens on (connections to it are refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


QUICK = (
    "tests/engine/",
    "tests/data/",
    "tests/tournament/",
    "tests/test_",
    "tests/bot/test_service.py",
    "tests/bot/test_syntax.py",
    "tests/bot/test_battle_syntax.py",
    "tests/bot/test_words.py",
    "tests/bot/test_offers.py",
    "tests/bot/test_lobby.py",
    "tests/bot/test_reveal.py",
)
"""The quick tier (``pytest -m quick``, README): the rules engine, the conformance cases,
the data, the tournament's pure maths and the service's own tests, without the fake
Discord, subprocesses or whole tournaments."""


def pytest_configure(config: pytest.Config) -> None:
    """Compiled modules kept for the processes the tests start (the workers, the bots the
    crash tests kill and start again), outside the repository, when the environment says
    not to write them beside the sources; and one worker per core, each kept on its own
    (``-n auto``): a test's threads (aiosqlite's, the AI's) then hand work to each other on
    one core instead of waking an idle one, which on a virtual machine costs more than the
    work (a game of the leak test: about half)."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "titanbot-pycache")
        del os.environ["PYTHONDONTWRITEBYTECODE"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if not worker.startswith("gw") or not hasattr(os, "sched_setaffinity"):
        return
    cores = sorted(os.sched_getaffinity(0))
    if count > 1 and len(cores) > 1:
        os.sched_setaffinity(0, {cores[int(worker[2:]) % len(cores)]})


LONGEST = (
    "tests/bot/test_leaks.py",
    "tests/bot/competition/test_heats.py",
    "tests/bot/test_crash.py",
    "tests/bot/competition/test_advancing.py",
    "tests/bot/test_concurrency.py",
    "tests/engine/battle/test_random_battles.py",
    "tests/bot/discord/test_clicking.py",
    "tests/engine/game/test_random_games.py",
    "tests/bot/test_ai_seats.py",
    "tests/engine/battle/test_fast_queries.py",
    "tests/bot/test_schedule_crash.py",
    "tests/bot/discord/test_crash_delivery.py",
    "tests/bot/discord/test_tournament.py",
    "tests/bot/discord/test_live_message.py",
    "tests/engine/ai/test_games.py",
    "tests/bot/test_schedule.py",
    "tests/bot/discord/test_two_processes.py",
    "tests/bot/discord/test_table_channels.py",
    "tests/bot/discord/test_live_news.py",
    "tests/bot/test_local.py",
    "tests/render/test_replay.py",
    "tests/bot/competition/test_by_themselves.py",
    "tests/bot/test_timeout_leaks.py",
    "tests/bot/storage_pg/test_transfer.py",
    "tests/bot/discord/test_leaks.py",
    "tests/bot/discord/test_wording.py",
    "tests/bot/test_mygames.py",
    "tests/bot/competition/test_desk.py",
)
"""The files whose tests take longest (whole games and tournaments, killed processes),
longest first: the workers start on them (``--no-loadscope-reorder``, pyproject), so that
the short files fill the end and no worker is left finishing a long one alone."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    rank: dict[pytest.Item, int] = {}
    for item in items:
        where = item.path.relative_to(root).as_posix()
        if where.startswith(QUICK):
            item.add_marker(pytest.mark.quick)
        rank[item] = LONGEST.index(where) if where in LONGEST else len(LONGEST)
    items.sort(key=rank.__getitem__)  # stable: each file's tests keep their order


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting left alive (every module imported, the tests' items: a few hundred
    thousand objects, for good) is set aside from the garbage collector, which would
    otherwise walk all of it again at each of its full collections during the run."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Point discord.py's REST base and gateway at a closed local port."""
    port = closed_port()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    gateway = yarl.URL(f"ws://127.0.0.1:{port}/")
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    yield


# --- a real PostgreSQL server (tests/pg.py), started when a test first needs one -----------
_databases = itertools.count(1)
TEMPLATE = "titan_migrated"
"""A database migrated once per session; each test's database is a copy of it."""


_emptied: list[str] = []
"""Migrated databases of this worker's tests done with, emptied for the next ones
(tests/pg_reuse.py)."""
_template_digest: list[str] = []


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """A throwaway PostgreSQL server; its absence fails the tests (see tests/pg.py)."""
    with throwaway_server() as server:
        asyncio.run(_create_template(server))
        yield server


async def _create_template(server: Server) -> None:
    admin = await asyncpg.connect(server.dsn())
    try:
        await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await admin.close()
    await migrate(server.dsn(TEMPLATE))
    _template_digest[:] = [await schema_digest(server.dsn(TEMPLATE))]


async def _new_database(server: Server, template: str | None) -> str:
    name = f"test_{os.getpid()}_{next(_databases)}"
    admin = await asyncpg.connect(server.dsn())
    try:
        copy = f" TEMPLATE {template}" if template else ""
        await admin.execute(f"CREATE DATABASE {name}{copy}")
    finally:
        await admin.close()
    return name


async def _drop_database(server: Server, name: str) -> None:
    admin = await asyncpg.connect(server.dsn())
    try:
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.fixture
async def pg_dsn(pg_server: Server) -> AsyncIterator[str]:
    """The URL of a new, empty database on the server (never migrated), dropped after."""
    name = await _new_database(pg_server, None)
    yield pg_server.dsn(name)
    await _drop_database(pg_server, name)


@pytest.fixture
async def pg_migrated(pg_server: Server) -> AsyncIterator[str]:
    """The URL of a database as the migrated template is (a copy of it, or one a test of
    this worker was done with, emptied: tests/pg_reuse.py); dropped after, or emptied for
    the next test when its schema is still the template's."""
    name = _emptied.pop() if _emptied else await _new_database(pg_server, TEMPLATE)
    yield pg_server.dsn(name)
    if await emptied(pg_server.dsn(name), _template_digest[0]):
        _emptied.append(name)
    else:
        await _drop_database(pg_server, name)


BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each test that asks for a database runs on SQLite and on PostgreSQL."""
    return str(request.param)


@pytest.fixture(scope="session")
def sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once per worker, closed (the tests' databases copy it)."""
    path = tmp_path_factory.mktemp("template") / "games.sqlite3"

    async def made() -> None:
        await (await Database.open(path)).close()

    asyncio.run(made())
    assert not path.with_name(path.name + "-wal").exists()  # all of it in the one file
    return path


@pytest.fixture
def db_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Target:
    """Where the test's database is: a new SQLite file (a copy of the migrated one: opened,
    it has nothing to migrate), or a new PostgreSQL database (the same)."""
    if backend == "sqlite":
        path = tmp_path / "games.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_migrated"), path)
        return path
    return str(request.getfixturevalue("pg_migrated"))
