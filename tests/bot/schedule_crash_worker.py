"""A process that keeps time for four clocked games, printing ``due D`` before the
scheduler acts at each tick (``D`` deadlines are due), ``stored`` after each change
committed, and ``tick T N`` after.

``python -m tests.bot.schedule_crash_worker DB`` resumes (or opens) the games of
:data:`GAMES` and runs the clock until :data:`END`: at each tick every seat that answers
plays at once, then the clock moves :data:`STEP` on and the scheduler acts on what fell
due — reminders for the seats that never answer, their deadlines, and one game's time
limit. The clock's moment is kept next to the database (written before the scheduler acts
on it), so a restarted worker goes on from where the killed one was;
test_schedule_crash.py kills it at random moments.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bot.context import Place
from bot.schedule.clock import ManualClock
from bot.schedule.quiet import QuietHours
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import Status
from bot.storage import due as items
from bot.storage import games as rows
from bot.storage.backends import as_target
from engine.game.legal import to_act
from tests.bot.agent import caller, step, user_id

SEED = 11
AGENT = 4
HOUR = 3600.0
START = 1_800_000_000.0
STEP = HOUR
END = START + 90 * HOUR
MOST_ANSWERS = 300
"""Actions the answering seats of one game may play in one tick (a whole turn fits)."""


@dataclass(frozen=True)
class Table:
    """One clocked game: its channel, seats, clock, and the seats that never answer."""

    channel: int
    players: int
    options: str
    sleepers: frozenset[int]


GAMES = (
    Table(1, 4, "deadline 4h timeout ai", frozenset({1})),
    Table(2, 3, "deadline 2h timeout pass", frozenset({0, 2})),
    # with a real-clock time limit at START + 52 h (its warning a day before)
    Table(3, 2, "deadline 3h timeout ai time_limit 2027-01-17T12:00", frozenset({0, 1})),
    Table(4, 2, "deadline 4h timeout pause", frozenset({1})),
)
QUIET = (1, 1)
"""(channel, seat) of the sleeper with quiet hours (their reminders wait for the end)."""
DMS_CLOSED = (2, 0)
"""(channel, seat) of the sleeper whose DMs are closed (reminded in the channel)."""


def read_clock(path: Path) -> float:
    try:
        return float(path.read_text())
    except FileNotFoundError:
        return START


def write_clock(path: Path, moment: float) -> None:
    """Keep the clock's moment (written whole, then renamed: a kill leaves one or the other)."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(repr(moment))
    os.replace(temporary, path)


async def set_up(service: GameService, table: Table) -> None:
    """Open, fill and start ``table``'s game, going on from wherever a kill left it."""
    place = Place(table.channel)
    async with service.db.reading() as db:
        row = await rows.latest_game(db, table.channel)
    if row is not None and row.status is not Status.LOBBY:
        return
    commands = [] if row is not None else [(0, f"new players {table.players} {table.options}")]
    game = await service.game_in(table.channel)
    seated = len(game.seats) if game is not None else 1
    commands += [(seat, "join") for seat in range(seated, table.players)]
    for seat, text in [*commands, (0, "start")]:
        replies = await service.submit(place, caller(table.channel, seat), text)
        assert not replies.error, (text, replies.ephemeral)


async def answer(service: GameService, table: Table) -> None:
    """The seats that answer play at once, until the game waits for a sleeper."""
    for _ in range(MOST_ANSWERS):
        game = await service.game_in(table.channel)
        if game is None or game.state is None:
            return
        seat = to_act(game.state)
        if seat is None or seat in table.sleepers:
            return
        await step(service, table.channel, AGENT, fighting=True)


async def preferences(service: GameService) -> None:
    channel, seat = QUIET
    quiet = QuietHours.parse("01:00-06:00", "UTC").to_text()
    async with service.db.transaction() as db:
        await items.set_reminder_prefs(db, user_id(channel, seat), items.ReminderPrefs(quiet=quiet))
    await service.set_dms_closed(user_id(*DMS_CLOSED))


async def deadlines_due(service: GameService, moment: float) -> int:
    async with service.db.reading() as db:
        return sum(item.kind == items.DEADLINE for item in await items.due_by(db, moment))


async def main(target: str, clock_path: str) -> None:
    """Keep time for the games of the database at ``target`` (a SQLite file or a
    PostgreSQL URL), the clock's moment kept in the file ``clock_path``."""
    kept = Path(clock_path)
    clock = ManualClock(read_clock(kept))
    service = await GameService.open(
        as_target(target), seeds=lambda: SEED, snapshot_every=5, wall_clock=clock
    )
    for table in GAMES:
        await set_up(service, table)
    await preferences(service)
    scheduler = Scheduler(service)
    await scheduler.advance_ai_games()  # as at start-up
    service.on_planned = partial(print, "stored", flush=True)  # after each commit
    print("ready", flush=True)
    while clock.now() < END:
        for table in GAMES:
            await answer(service, table)
        clock.advance(STEP)
        write_clock(kept, clock.now())
        print(f"due {await deadlines_due(service, clock.now())}", flush=True)
        handled = await scheduler.run_due()
        print(f"tick {clock.now():.0f} {handled}", flush=True)
    print("over", flush=True)
    await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
