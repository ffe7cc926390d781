"""The one task that keeps time: it sleeps until the earliest due item and acts on what is
due, in order, then sleeps again; a change that schedules something wakes it.

At start-up it first acts on everything that fell due while the bot was down, and lets
every game waiting for an AI seat go on (a slice each, then by itself: :mod:`bot.ai_runner`).
An item whose handling fails is tried again a few minutes later (logged), so one broken
game never stalls the others; so is a game whose AI seats failed to act (the runner says
when: :meth:`~bot.ai_runner.AiRunner.next_retry`).

Every process on a shared database runs its own scheduler: an item is acted on by the one
that claims it (for :data:`CLAIM` seconds, time enough to act), and another takes it over
if that one dies before it is done. Such a scheduler also looks again every :data:`POLL`
seconds, for what other processes scheduled and for work a dead one left: its claims, the
tables of a heat it was opening, the games whose AI seats it was playing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.ports import GameHost
from bot.records.diagnosis import game_damage
from bot.schedule.runner import DueRunner
from bot.storage import due as items
from bot.storage import games as rows

log = logging.getLogger(__name__)

RETRY_AFTER = 300.0
"""Seconds before an item whose handling failed is tried again."""
BATCH = 100
CLAIM = 120.0
"""Seconds a process has a due item to itself once it claimed it."""
POLL = 15.0
"""Seconds between two looks at a shared database when nothing is due sooner."""


class Scheduler:
    def __init__(self, service: GameHost) -> None:
        self.service = service
        self.clock = service.wall_clock
        self.runner = DueRunner(service)
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.handled = 0
        """Items acted on (or found done) since start-up."""
        self._swept = self.clock.now()
        """When the games waiting for an AI seat were last looked for."""

    async def start(self) -> None:
        """Advance the games waiting for AI seats, then keep time in a task."""
        await self.advance_ai_games()
        self.service.on_planned = self.wake
        self._task = asyncio.create_task(self._loop(), name="titanbot-scheduler")

    async def close(self) -> None:
        self.service.on_planned = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        self._woken.set()

    async def advance_ai_games(self) -> int:
        """Let every active game that waits for an AI seat go on by itself (at start-up,
        and on a shared database every :data:`POLL` seconds, for the games of a process
        that died), unless a task plays it already or another process holds its lease;
        how many were woken (:meth:`~bot.ai_runner.AiRunner.sweep`)."""
        async with self.service.db.reading() as db:
            waiting = await rows.active_games_waiting_for_ai(db)
        return await self.service.ai.sweep(waiting)

    async def run_due(self) -> int:
        """Act on every item due now, earliest first; how many."""
        done = 0
        seen: set[int] = set()
        while True:
            async with self.service.db.reading() as db:
                due = await items.due_by(db, self.clock.now(), BATCH, self.service.holder)
            if not due:
                return done
            for item in due:
                if item.id in seen:  # still due after it was acted on: something failed
                    log.warning("due item %s of game %s: tried again later", item.id, item.game)
                    await self._postpone(item)
                    continue
                seen.add(item.id)
                if not await self._claim(item):
                    continue  # another process has it
                try:
                    outcome = await self.runner.run(item)
                    log.info("due %s #%s of game %s: %s", item.kind, item.id, item.game, outcome)
                except Exception:
                    log.exception("due item %s of game %s failed", item.id, item.game)
                    if not await self._damaged(item):
                        await self._postpone(item)
                done += 1
                self.handled += 1

    async def _claim(self, item: items.DueItem) -> bool:
        async with self.service.db.transaction() as db:
            return await items.claim(db, item.id, self.service.holder, self.clock.now(), CLAIM)

    async def _damaged(self, item: items.DueItem) -> bool:
        """Whether ``item`` failed on damaged rows of its game: the game is then marked
        damaged, its channel told the damage notice (once) and the item done; the other
        games go on (:func:`~bot.records.diagnosis.game_damage`)."""
        try:
            async with self.service.db.reading() as db:
                reason = await game_damage(db, item.game)
                row = await rows.game(db, item.game) if reason is not None else None
        except Exception:
            log.exception("game %s: its rows could not be checked after a failure", item.game)
            return False
        if reason is None or row is None:
            return False
        log.warning("game %s is damaged: %s", item.game, reason)
        await self.service.mark_damaged(item.game, row.channel, reason)
        async with self.service.db.transaction() as db:
            await items.finish(db, item.id, self.clock.now(), f"the game is damaged: {reason}")
        return True

    async def _postpone(self, item: items.DueItem) -> None:
        async with self.service.db.transaction() as db:
            await items.postpone(db, item.id, self.clock.now() + RETRY_AFTER)

    async def _loop(self) -> None:
        while True:
            self._woken.clear()
            try:
                await self.run_due()
                self.service.ai.retry_due(self.clock.now())
                async with self.service.db.reading() as db:
                    moment = await items.next_at(db, self.service.holder)
                if self.service.db.shared:  # other processes schedule too, and may die
                    self.service.tables.wake()
                    if self.clock.now() >= self._swept + POLL:  # (woken at every change)
                        self._swept = self.clock.now()
                        await self.advance_ai_games()
            except Exception:
                log.exception("the scheduler failed; it goes on in a minute")
                moment = self.clock.now() + 60
            if self.service.db.shared:
                moment = min(moment, self.clock.now() + POLL) if moment else self.clock.now() + POLL
            retry = self.service.ai.next_retry()
            if retry is not None:
                moment = min(moment, retry) if moment else retry
            await self.clock.sleep_until(moment, self._woken)
