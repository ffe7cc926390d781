"""``history`` on a 10,000-action game: the same words as a narration of the whole log, a
bounded number of rows read, and other channels answered while twenty run at once."""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Limits
from bot.context import Caller, Place
from bot.handlers import info
from bot.handlers.info import clip
from bot.narration.narrate import Names, narrate
from bot.service import GameService
from bot.storage import Database
from bot.storage import games as rows
from engine.game.apply import apply
from engine.game.events import BattleBegun, EngagementBegun
from engine.game.state import GameState
from tests.bot.agent import open_game, step
from tests.bot.long_game import NAMES, SNAPSHOT_EVERY, LongGame, long_game, store_long_game

LENGTH = 10_000
LONG, OLD = 1, 2
"""Channels: the long game, and its first :data:`OLD_LENGTH` actions logged without turns."""
OLD_LENGTH = 2_000
OTHERS = (11, 12, 13)
MOST = Limits().history_max


@pytest.fixture(scope="module")
def long() -> LongGame:
    return long_game(LENGTH)


@pytest.fixture(scope="module")
def stored(long: LongGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding the long game (written once for the module)."""
    path = tmp_path_factory.mktemp("long") / "games.sqlite3"

    async def write() -> None:
        db = await Database.open(path, synchronous="OFF")
        try:
            async with db.transaction() as conn:
                assert await store_long_game(conn, LONG, long) == 1
                assert await store_long_game(conn, OLD, long, length=OLD_LENGTH, turns=False)
        finally:
            await db.close()

    asyncio.run(write())
    return path


@pytest.fixture
async def service(stored: Path, tmp_path: Path) -> AsyncIterator[GameService]:
    copy = tmp_path / "games.sqlite3"
    shutil.copy(stored, copy)
    svc = await GameService.open(copy)
    yield svc
    await svc.close()


class RowsRead:
    """Counts the action rows the storage functions hand back."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        for name in ("actions", "last_actions", "turn_actions"):
            monkeypatch.setattr(rows, name, self._counting(getattr(rows, name)))

    def _counting(self, function: Callable[..., Any]) -> Callable[..., Any]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            found = await function(*args, **kwargs)
            self.count += len(found)
            return found

        return counted


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> RowsRead:
    return RowsRead(monkeypatch)


def state_after(long: LongGame, upto: int) -> GameState:
    base = upto - upto % SNAPSHOT_EVERY
    state = long.snapshots[base] if base else long.start
    for entry in long.log[base:upto]:
        state, _ = apply(state, entry.seat, entry.action)
    return state


def told(long: LongGame, upto: int, count: int, *, earlier: bool = True) -> str:
    """``history count`` after ``upto`` actions the plain way: the whole log in memory, each
    action told with the latest engagement begun before it (``earlier`` False: only with
    the engagements the window begins itself)."""
    log = long.log[:upto]
    window = min(max(count, 1), MOST)
    names = Names(state_after(long, upto))
    names.forget_engagement()
    for entry in log[:-window] if earlier else ():
        for event in entry.events:
            if isinstance(event, EngagementBegun | BattleBegun):
                names.engaged(event.attacker, event.defender)
    lines = [
        f"#{e.n} {NAMES[e.seat]}: " + " ".join(narrate(e.events, names)) for e in log[-window:]
    ]
    return clip(lines, latest=True)


def battles(long: LongGame) -> Iterator[int]:
    """The numbers of the actions that begin a battle."""
    for entry in long.log:
        if any(isinstance(e, BattleBegun) for e in entry.events):
            yield entry.n


def turn_length(long: LongGame, upto: int, window: int) -> int:
    """The actions of the player turn the window's first action is in."""
    first = long.log[upto - window]
    return sum(1 for e in long.log if e.turn == first.turn)


async def cut(service: GameService, upto: int) -> None:
    """Drop the long game's actions after ``upto`` (its log as it stood then)."""
    async with service.db.transaction() as conn:
        await conn.execute("DELETE FROM actions WHERE game = 1 AND n > ?", (upto,))
        await conn.execute("DELETE FROM snapshots WHERE game = 1 AND n > ?", (upto,))
    service.forget(LONG)


async def history(service: GameService, channel: int, count: int, who: int = 9000) -> str:
    replies = await service.submit(Place(channel), Caller(who, f"W{who}"), f"history {count}")
    assert not replies.error and replies.ephemeral is not None
    return replies.ephemeral.text


async def test_history_says_what_a_narration_of_the_whole_log_says(service, long, read):
    starts = list(battles(long))
    assert len(starts) >= 4
    cuts = [LENGTH, *sorted({min(b + 40, LENGTH) for b in starts[:: len(starts) // 4]})[::-1]]
    counts = (1, 10, 39, 40, 41, MOST, MOST + 30)
    needing_earlier = 0
    for upto in cuts:
        await cut(service, upto)
        await service.game_in(LONG)  # loaded (and its rows counted) before the histories
        for count in counts:
            window = min(count, MOST)
            read.count = 0
            answer = await history(service, LONG, count)
            expected = told(long, upto, count)
            assert answer == expected, (upto, count)
            assert window <= read.count <= window + turn_length(long, upto, window)
            needing_earlier += expected != told(long, upto, count, earlier=False)
    # Some windows begin inside a battle begun before them: their words need earlier rows.
    assert needing_earlier > 0


async def test_history_of_actions_logged_without_their_turn_reads_the_log_before(
    service, long, read
):
    await service.game_in(OLD)
    read.count = 0
    assert await history(service, OLD, MOST) == told(long, OLD_LENGTH, MOST)
    assert read.count == OLD_LENGTH


async def test_twenty_histories_leave_other_channels_answered(service, long, monkeypatch):
    """The histories' work (decoding a window's events, telling them) is done off the event
    loop, in worker threads, while the other channels' commands are answered."""
    for channel in OTHERS:
        await open_game(service, channel, 2)
    loop_thread = threading.get_ident()
    told_on: list[int] = []
    telling = info.history_lines

    def history_lines(*args: Any) -> list[str]:
        told_on.append(threading.get_ident())
        return telling(*args)

    monkeypatch.setattr(info, "history_lines", history_lines)

    async def histories() -> list[str]:
        asked = (history(service, LONG, MOST, 9000 + k) for k in range(20))
        return await asyncio.gather(*asked)

    async def commands(channel: int) -> int:
        for _ in range(8):
            await step(service, channel, seed=channel, fighting=True)
        return channel

    told_, *answered = await asyncio.gather(histories(), *(commands(c) for c in OTHERS))
    assert answered == list(OTHERS)
    assert told_ == [told(long, LENGTH, MOST)] * 20
    assert len(told_on) == 20 and loop_thread not in told_on
