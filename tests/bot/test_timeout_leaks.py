"""The leak test for what the clock says: whole games where one seat never answers.

Every decision of the sleeping seat times out (the computer plays it, or the least the
rules allow), or a stand-in they named gets its news while they are away. Everything the
service queues — the other players' news, the timeouts' notices, reminders, DMs to the
sleeper and to the stand-in — is read back from the outbox and checked against what its
recipient may know (:class:`~tests.bot.leakcheck.Watch`), action by action.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.context import Caller, Place
from bot.outbox.codec import message_from_json
from bot.schedule.clock import ManualClock
from bot.schedule.scheduler import Scheduler
from bot.service import GameService
from bot.storage import games as rows
from bot.storage import outbox
from bot.storage.record import replay_entry
from engine.game.legal import legal_actions, to_act
from tests.bot.agent import caller, pick, user_id
from tests.bot.leakcheck import Watch, parts

PLAYERS = 3
SLEEPER = 1
STANDIN = Caller(300_000_000_000_000_009, "Sub")
MOST_STEPS = 4000
HOUR = 3600.0


class Reader:
    """Follows the stored game and checks every outbox row written since the last look."""

    def __init__(self, service: GameService, channel: int, watch: Watch, game_id: int) -> None:
        self.service, self.channel, self.watch, self.game = service, channel, watch, game_id
        self.n = 0
        self.row = 0
        self.found: list[str] = []
        self.seats = {user_id(channel, s): s for s in range(PLAYERS)}
        self.seats[STANDIN.user] = SLEEPER  # the stand-in knows what the sleeper knows
        self.told = 0
        self.kinds: dict[str, int] = {}

    async def look(self) -> None:
        async with self.service.db.reading() as db:
            new = await rows.actions(db, self.game, self.n)
            written = [r for r in await outbox.waiting(db, self.channel) if r.id > self.row]
        by_version: dict[int | None, list[outbox.OutboxRow]] = {}
        for row in written:
            by_version.setdefault(row.version, []).append(row)
        for entry in new:
            after, events = replay_entry(self.watch.state, entry)
            self.watch.follow(after, events)
            self.n = entry.n
            for row in by_version.pop(entry.n, []):
                self._check(row, now=False)
        for late in by_version.values():  # reminders and notices between actions
            for row in late:
                self._check(row, now=True)
        if written:
            self.row = written[-1].id

    def _check(self, row: outbox.OutboxRow, now: bool) -> None:
        stored = message_from_json(row.body)
        seat = None if row.kind == "post" else self.seats[row.recipient or 0]
        drawing = stored.drawing
        assert drawing is None or drawing.viewer in (None, seat), (row.kind, seat, drawing)
        if row.recipient == STANDIN.user:
            self.told += 1
        kind = "reminder" if "waits for you" in stored.message.text else row.kind
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        check = self.watch.check_now if now else self.watch.check
        for text in parts(stored.message):
            self.found += check(seat, text)


@pytest.mark.parametrize(
    ("policy", "channel", "standin"),
    [("ai", 61, False), ("pass", 62, False), ("ai", 63, True)],
)
async def test_nothing_the_clock_says_shows_hidden_contents(db_target, policy, channel, standin):
    clock = ManualClock(datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp())
    service = await GameService.open(db_target, seeds=lambda: channel, wall_clock=clock)
    try:
        place = Place(channel)
        steps = [(0, f"new players {PLAYERS} deadline 2h timeout {policy}")]
        steps += [(s, "join") for s in range(1, PLAYERS)] + [(0, "start")]
        for seat, text in steps:
            assert not (await service.submit(place, caller(channel, seat), text)).error
        if standin:
            away = f"away until 2027-02-25 standin <@{STANDIN.user}>"
            assert not (await service.submit(place, caller(channel, SLEEPER), away)).error
        game = await service.game_in(channel)
        assert game is not None and game.state is not None
        reader = Reader(service, channel, Watch(PLAYERS, game.state), game.id)
        scheduler = Scheduler(service)
        timeouts = 0
        for number in range(MOST_STEPS):
            await reader.look()
            state = reader.watch.state
            if state.result is not None:
                break
            seat = to_act(state)
            assert seat is not None
            if seat == SLEEPER:
                clock.advance(1.5 * HOUR)  # a reminder falls due, then the deadline
                await scheduler.run_due()
                clock.advance(0.6 * HOUR)
                await scheduler.run_due()
                timeouts += 1
                continue
            rng = random.Random(f"{channel}:{number}")
            action = pick(legal_actions(state, seat), rng, fighting=True)
            replies = await service.act(place, caller(channel, seat), action)
            assert not replies.error, (action, replies.ephemeral)
        else:
            raise AssertionError("the game did not end")
        assert timeouts > 10
        assert reader.kinds.get("post", 0) > 30 and reader.kinds.get("dm", 0) > 10
        assert reader.kinds.get("reminder", 0) > 0
        assert not reader.found, "\n".join(reader.found[:20])
        assert not standin or reader.told > 0  # the stand-in was told the sleeper's news
    finally:
        await service.close()
