"""Damage met by the bot's own work, not by a command: a deadline of a game whose rows are
damaged, a due row or an outbox row nobody can read. The damaged game's channel is told
the damage notice once (what is damaged, what to do), lost news is said to be lost, and
every other game's deadlines and news go on."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.ai_runner import RETRY_AFTER
from bot.context import Place
from bot.demo import open_ai_game
from bot.outbox.damage import lost_notice
from bot.records.check_rows import check_rows
from bot.records.damage import damage_notice
from bot.schedule.clock import ManualClock
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import outbox
from bot.storage.backends import Target
from tests.bot.agent import caller, open_game
from tests.bot.tampering import execute, query
from tests.bot.test_check_rows import unchecked
from tests.bot.test_outbox import Recorder

DAMAGED, HEALTHY = 51, 52
HOUR = 3600.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())


@pytest.fixture
async def clocked(db_target: Target, clock: ManualClock):
    service = await GameService.open(db_target, seeds=lambda: 7, wall_clock=clock)
    yield service
    await service.close()


async def two_games(service: GameService, target: Target) -> int:
    """Two-player games with a two-hour deadline in two channels; the first one's id."""
    for channel in (DAMAGED, HEALTHY):
        here = Place(channel)
        steps = [(0, "new players 2 deadline 2h timeout pass"), (1, "join"), (0, "start")]
        for seat, text in steps:
            replies = await service.submit(here, caller(channel, seat), text)
            assert not replies.error, (text, replies.ephemeral)
    ((game,),) = query(target, "SELECT id FROM games WHERE channel = ?", DAMAGED)
    return int(game)


async def posts(service: GameService, channel: int) -> list[str]:
    async with service.db.reading() as db:
        return [r.body for r in await outbox.waiting(db, channel) if r.kind == "post"]


async def timeouts(target: Target, channel: int) -> int:
    rows = query(
        target,
        "SELECT count(*) FROM actions JOIN games ON games.id = actions.game"
        " WHERE games.channel = ? AND actions.cause IS NOT NULL",
        channel,
    )
    return int(rows[0][0])


async def test_a_deadline_of_a_damaged_game_tells_its_channel_once_and_the_others_go_on(
    clocked: GameService, clock: ManualClock, db_target: Target
) -> None:
    game = await two_games(clocked, db_target)
    assert execute(db_target, "UPDATE clocks SET seat = 9 WHERE game = ?", game) == 1
    clocked.forget()
    reason = f"the clock of game #{game}: it refers to seat 9, which game #{game} does not have"
    scheduler = Scheduler(clocked)
    for _ in range(3):  # past the deadline, and past the retry of a failed item
        clock.advance(6 * HOUR)
        await scheduler.run_due()
    told = [body for body in await posts(clocked, DAMAGED) if "is damaged" in body]
    assert len(told) == 1 and damage_notice(game, reason) in told[0]
    assert query(db_target, "SELECT damaged FROM games WHERE id = ?", game) == [(reason,)]
    assert await timeouts(db_target, HEALTHY) >= 1  # its deadline passed: the clock played
    assert await timeouts(db_target, DAMAGED) == 0
    status = await clocked.submit(Place(DAMAGED), caller(DAMAGED, 0), "status")
    assert status.ephemeral is not None and status.ephemeral.text == damage_notice(game, reason)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_an_unreadable_due_row_is_skipped_and_the_others_fall_due(
    clocked: GameService, clock: ManualClock, db_target: Target
) -> None:
    """SQLite keeps what a bad write puts in a column, whatever its declared type."""
    game = await two_games(clocked, db_target)
    unchecked(Path(db_target), f"UPDATE due SET game = 'gone' WHERE game = {game}")
    clocked.forget()
    scheduler = Scheduler(clocked)
    clock.advance(6 * HOUR)
    await scheduler.run_due()
    assert await timeouts(db_target, HEALTHY) >= 1


async def test_an_unreadable_message_is_skipped_said_lost_and_the_news_goes_on(
    service: GameService, db_target: Target
) -> None:
    await open_game(service, DAMAGED, 2)  # no deliverer yet: everything waits
    await open_game(service, HEALTHY, 2)
    async with service.db.reading() as db:
        waiting = await outbox.waiting(db, DAMAGED)
    secret = "the Angel in Rd01"
    broken = waiting[0].id
    body = '{"text": "' + secret  # cut short by a bad write; a DM's news, say
    assert execute(db_target, "UPDATE outbox SET body = ? WHERE id = ?", body, broken) == 1
    async with service.db.reading() as db:  # as check-db reads it
        problems, _ = await check_rows(db)
    named = f"outbox row {broken}: its body cannot be read as a message"
    assert [str(p) for p in problems] == [named]
    recorder = Recorder()
    await service.deliver_with(recorder)
    await service.deliverer.idle()
    async with service.db.reading() as db:
        outcomes = {row: outcome for row, _, outcome in await outbox.outcomes(db, DAMAGED)}
        assert await outbox.waiting(db, DAMAGED) == []
        assert await outbox.waiting(db, HEALTHY) == []
    assert outcomes[broken] == "given up: damaged (its body cannot be read as a message)"
    texts = [sent.text for sent in recorder.sent]
    game = int(query(db_target, "SELECT id FROM games WHERE channel = ?", DAMAGED)[0][0])
    assert sum(lost_notice(game, 1) in text for text in texts) == 1
    assert not any(secret in text for text in texts)
    assert len(waiting) > 1 and all(outcomes[row.id] == "sent" for row in waiting[1:])


async def test_computers_that_meet_damaged_rows_stop_and_their_channel_is_told(
    db_target: Target, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slice of AI actions that fails is tried again later; once it fails on damaged
    rows of the game, the game is marked, its channel told once, and no retry planned."""
    import bot.ai_runner as runner_module

    original = runner_module.ai_play

    async def fails(ctx, game, seat, action):  # type: ignore[no-untyped-def]
        if game.n >= 20:
            raise RuntimeError("a row that cannot be read")
        return await original(ctx, game, seat, action)

    monkeypatch.setattr(runner_module, "ai_play", fails)
    service = await GameService.open(db_target, seeds=lambda: 4, ai_limit=5, wall_clock=clock)
    try:
        await service.keep_time()
        game_id = await open_ai_game(service, Place(DAMAGED), 2)
        await asyncio.wait_for(service.ai.idle(), 600)
        assert service.ai.next_retry() == clock.now() + RETRY_AFTER  # a bug, it seems
        execute(db_target, "INSERT INTO lapses (game, seat, count) VALUES (?, 4, 2)", game_id)
        clock.advance(RETRY_AFTER)  # the scheduler wakes and tries it again
        reason = (
            f"the lapses of seat 4 of game #{game_id}: it refers to seat 4, which "
            f"game #{game_id} does not have"
        )
        for _ in range(600):
            if query(db_target, "SELECT damaged FROM games WHERE id = ?", game_id) == [(reason,)]:
                break
            await asyncio.sleep(0.1)
        await asyncio.wait_for(service.ai.idle(), 600)
        assert query(db_target, "SELECT damaged FROM games WHERE id = ?", game_id) == [(reason,)]
        assert service.ai.next_retry() is None
        told = [body for body in await posts(service, DAMAGED) if "is damaged" in body]
        assert len(told) == 1 and damage_notice(game_id, reason) in told[0]
    finally:
        await service.close()
