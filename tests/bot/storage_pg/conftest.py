"""Fixtures for the PostgreSQL backend's tests: a real server, one per test session (per
xdist worker), and a new empty database for each test."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from tests.pg import Server, throwaway_server

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """A throwaway PostgreSQL server; its absence fails the tests (see tests/pg.py)."""
    with throwaway_server() as server:
        yield server


@pytest.fixture
async def pg_dsn(pg_server: Server) -> AsyncIterator[str]:
    """The DSN of a new, empty database on the server, dropped after the test."""
    name = f"test_{next(_numbers)}"
    admin = await asyncpg.connect(pg_server.dsn())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    yield pg_server.dsn(name)
    admin = await asyncpg.connect(pg_server.dsn())
    try:
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()
