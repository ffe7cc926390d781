"""The competition tests' service: on a test's clock, its database unsynchronised (AI
games make many small transactions)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.schedule.clock import ManualClock
from bot.service import GameService
from bot.storage.backends import open_database


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())


@pytest.fixture
async def service(db_target, clock):
    database = await open_database(db_target, synchronous="OFF")
    service = GameService(database, seeds=lambda: 11, wall_clock=clock)
    yield service
    await service.close()
