"""A damaged row outside the game log (its clock, its lapses) makes the channel's game
answer with the damage notice, never an apology; the other channels go on."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.context import Place
from bot.records.damage import damage_notice
from bot.service import GameService
from bot.storage.backends import Target
from tests.bot.agent import caller, open_game, step
from tests.bot.conftest import SEED
from tests.bot.tampering import execute, query
from tests.bot.test_check_rows import check, unchecked

DAMAGED, HEALTHY, AGENT = 5, 6, 3


async def two_games(service: GameService, target: Target) -> int:
    """Games in two channels, 6 actions in each; the id of the first (to be damaged)."""
    for channel in (DAMAGED, HEALTHY):
        await open_game(service, channel, 2)
        for _ in range(6):
            await step(service, channel, AGENT)
    ((game,),) = query(target, "SELECT id FROM games WHERE channel = ?", DAMAGED)
    return int(game)


async def answered_with_notice(service: GameService, game: int, reason: str) -> None:
    """``status`` and a move in the damaged channel answer with the notice (every time:
    the game is marked damaged), ``status`` in the other one as before."""
    for text in ("status", "legions", "status"):
        found = await service.submit(Place(DAMAGED), caller(DAMAGED, 0), text)
        assert not found.fault and found.ephemeral is not None
        assert found.ephemeral.text == damage_notice(game, reason)
    healthy = await service.submit(Place(HEALTHY), caller(HEALTHY, 0), "status")
    assert not healthy.error and healthy.ephemeral is not None
    assert healthy.ephemeral.text.startswith("Game #")


async def test_a_clock_of_a_seat_the_game_lacks_gets_the_damage_notice(
    service: GameService, db_target: Target
) -> None:
    game = await two_games(service, db_target)
    assert execute(db_target, "UPDATE clocks SET seat = 9 WHERE game = ?", game) == 1
    service.forget()
    reason = f"the clock of game #{game}: it refers to seat 9, which game #{game} does not have"
    await answered_with_notice(service, game, reason)
    assert query(db_target, "SELECT damaged FROM games WHERE id = ?", game) == [(reason,)]


async def test_lapses_of_a_seat_the_game_lacks_get_the_damage_notice(
    service: GameService, db_target: Target
) -> None:
    game = await two_games(service, db_target)
    execute(db_target, "INSERT INTO lapses (game, seat, count) VALUES (?, 4, 2)", game)
    service.forget()
    reason = (
        f"the lapses of seat 4 of game #{game}: it refers to seat 4, which game #{game} "
        "does not have"
    )
    await answered_with_notice(service, game, reason)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_clock_holding_text_for_a_time_gets_the_damage_notice(
    service: GameService, db_target: Target
) -> None:
    """SQLite keeps what a bad write puts in a column, whatever its declared type."""
    game = await two_games(service, db_target)
    unchecked(Path(db_target), f"UPDATE clocks SET since = 'soon' WHERE game = {game}")
    service.forget()
    reason = f"the clock of game #{game}: its since 'soon' is not a time"
    await answered_with_notice(service, game, reason)


async def test_the_damaged_game_aborted_leaves_known_damage_only(
    db_target: Target, capsys: pytest.CaptureFixture[str]
) -> None:
    """check-db names the game found damaged by its row; once aborted, its rows are known
    damage (a SQLite file is checked while no bot has it open)."""
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        game = await two_games(service, db_target)
        execute(db_target, "INSERT INTO lapses (game, seat, count) VALUES (?, 4, 2)", game)
        service.forget()
        assert (await service.submit(Place(DAMAGED), caller(DAMAGED, 0), "status")).error
    finally:
        await service.close()
    status, lines = await check(db_target, capsys)
    assert status == 1 and lines[0].startswith(f"game #{game}: it is damaged (the lapses of")
    service = await GameService.open(db_target, seeds=lambda: SEED)
    try:
        cancelled = await service.submit(Place(DAMAGED), caller(DAMAGED, 0), f"cancel {game}")
        assert not cancelled.error, cancelled
    finally:
        await service.close()
    status, lines = await check(db_target, capsys)
    assert status == 0, lines
    assert lines[0] == (
        f"known: the lapses of seat 4 of game #{game}: it refers to seat 4, which game "
        f"#{game} does not have"
    )
