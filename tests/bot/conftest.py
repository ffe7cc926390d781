"""Fixtures for the bot's tests: a service over a temporary SQLite file."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.replies import Picture
from bot.service import GameService

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
async def service(db_path: Path, renderer: StubRenderer) -> AsyncIterator[GameService]:
    svc = await GameService.open(db_path, renderer=renderer, seeds=lambda: SEED, snapshot_every=10)
    yield svc
    await svc.close()


def dump(path: Path) -> list[str]:
    """Every committed row of the database, as SQL text (a separate connection)."""
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()
