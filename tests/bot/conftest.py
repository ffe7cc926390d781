"""Fixtures for the bot's tests: a service over a new database, SQLite's and PostgreSQL's
(each test that asks for one runs on both: ``db_target`` in tests/conftest.py)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.replies import Picture
from bot.service import GameService
from bot.storage.backends import Target, is_postgres
from tests.bot.tampering import query

SEED = 42


class StubRenderer:
    """A renderer that records where it ran and returns a tiny fake PNG."""

    def __init__(self) -> None:
        self.threads: list[int] = []
        self.pictures: list[Picture] = []

    def __call__(self, picture: Picture) -> bytes:
        self.threads.append(threading.get_ident())
        self.pictures.append(picture)
        return b"\x89PNG-" + picture.kind.value.encode()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def renderer() -> StubRenderer:
    return StubRenderer()


@pytest.fixture
async def service(db_target: Target, renderer: StubRenderer) -> AsyncIterator[GameService]:
    svc = await GameService.open(
        db_target, renderer=renderer, seeds=lambda: SEED, snapshot_every=10
    )
    yield svc
    await svc.close()


def dump(path: Target) -> list[str]:
    """Every committed row of the database, as text (a separate connection)."""
    if is_postgres(path):
        tables = query(path, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return [
            f"{table}: {row!r}"
            for (table,) in sorted(tables)
            for row in sorted(query(path, f'SELECT * FROM "{table}"'), key=repr)
        ]
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()
