"""AI seats play on by themselves: in bounded slices, the rest in a task of the channel's.

After a command (a deadline's answer, an organiser's tool, a table opened) the service
lets the AI seats the game waits for act in one *slice*, under the channel's lock: at
most ``ai_limit`` actions (:data:`~bot.service.AI_SLICE`) and about
:data:`SLICE_SECONDS`; each choice is thought out in a worker thread and each action
stored in its own transaction, so the event loop runs on between them. When the slice
ends and the game still waits for an AI seat, the :class:`AiRunner` goes on with it in a
task of the channel's own: slice after slice, each under the lock taken anew, so that a
command sent meanwhile (a ``status``) is answered between two slices (the lock is fair:
it goes to whoever waited first). The command's answer carries only its first slice's
news; the news of every later action goes out through the outbox as it is stored.

Nothing caps the AI actions of a game: the engine's games end, and a game of computers
alone plays on until it is over (its result stored and, for a tournament's table, the
heat's standings told) or waits for a person. As a safety the runner logs a warning every
:data:`NOTE_EVERY` actions a game plays without a person, and goes on. A slice that fails
(anything but an action the engine refuses, which gives way to the first legal one) is
logged, and the game is tried again :data:`RETRY_AFTER` seconds later by the scheduler
(:meth:`retry_due`, the bot's one clock), or by the next command given in its channel.

At most :data:`AT_ONCE` games play background slices at the same moment (the others wait
their turn between slices), so that computers never crowd out the commands of people.

A restart goes on with every game left waiting for an AI seat
(:meth:`~bot.schedule.scheduler.Scheduler.advance_ai_games`). On a database shared by
several processes one process at a time plays a game's AI seats: the one holding its
lease (``ai:<channel>``, :func:`bot.storage.leases.ai_lease`), renewed at every slice and
let go once the game waits for a person; another process's scheduler takes the game over
(:meth:`sweep`) once a dead holder's lease has run out. The revision checks
(:class:`~bot.storage.errors.LostRace`) keep the writes right in any case.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.context import Caller, Place
from bot.handlers.ai_seats import ai_caller, ai_choice, ai_play, waiting_ai
from bot.handlers.autostrike import (
    called_back,
    choices_of,
    deciding_person,
    made_caller,
    made_for_them,
    marked,
)
from bot.handlers.play import play
from bot.ports import RACES, SLICE_SECONDS, GameHost, Slice
from bot.records.diagnosis import diagnose
from bot.storage import games as rows
from bot.storage import leases
from bot.storage.autostrike import Autoplay
from bot.storage.errors import LostRace
from bot.storage.record import Game
from engine.game import actions as a

log = logging.getLogger(__name__)

RETRY_AFTER = 60.0
"""Seconds (of the service's clock) before a game whose AI slice failed is tried again."""
NOTE_EVERY = 10_000
"""AI actions in a row, without a person, after which (and every as many again) the log
is told that a game goes on (a safety: a game of computers takes a few thousand)."""
AT_ONCE = 4
"""Games whose AI seats play background slices at the same moment."""
LEASE = 60.0
"""Seconds a process keeps a game's AI seats to itself without renewing the lease."""
GIVE_UP_TRIES = 3
"""Tries of letting the leases go when the runner closes."""


@dataclass(frozen=True)
class Turn:
    """A decision the game makes by itself: whose, given by whom, and the action when it
    is known already (one made by a person's ``autostrike`` or ``fighton``; None: the AI
    thinks it out)."""

    seat: int
    caller: Caller
    action: a.Action | None = None


class AiRunner:
    """The background tasks that play on the games whose AI slice ran out, one a channel."""

    def __init__(self, service: GameHost) -> None:
        self.service = service
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._retry: dict[int, tuple[Place, float]] = {}
        self._played: dict[int, int] = {}
        self._held: set[int] = set()
        self._turns = asyncio.Semaphore(AT_ONCE)
        self._closed = False

    async def slice(
        self, place: Place, most: int | None = None, seconds: float | None = SLICE_SECONDS
    ) -> Slice:
        """One slice of AI actions in ``place``'s game, each stored with its news in its
        own transaction: while the game waits for an AI seat, at most ``most`` actions
        (default ``ai_limit``), ending after the action under way once ``seconds`` are
        spent. The caller holds the channel's lock.

        An AI action that fails ends the slice with a log entry (the slice is marked
        failed): the command and the AI actions before it are stored. On a shared
        database the slice plays only while this process holds the game's AI lease.
        """
        channel = place.channel
        most = self.service.ai_limit if most is None else most
        played = Slice()
        races = 0
        try:
            game = await self.service.game_in(channel) if most > 0 else None
            turn = await self.next_turn(game) if game is not None else None
        except Exception:
            log.exception("channel %s: loading the game for its AI seats failed", channel)
            played.failed = True
            return played
        if game is None or turn is None:
            await self.let_go(channel)
            return played
        if not await self.hold(channel):
            played.elsewhere = True
            return played
        began = time.perf_counter()
        while game is not None and turn is not None:
            spent = seconds is not None and time.perf_counter() - began >= seconds
            if len(played.chain) >= most or (played.chain and spent):
                played.more = True
                return played
            seat = turn.seat
            try:
                action = turn.action
                if action is None:
                    action = await ai_choice(game, seat)
                async with self.service.db.unit() as unit:
                    ctx = self.service.context(place, turn.caller, unit)
                    if turn.action is None:
                        replies, game = await ai_play(ctx, game, seat, action)
                    else:  # made by a person's choice: never another in its place
                        replies, game = await play(ctx, game, action)
                        assert turn.caller.cause is not None
                        replies = called_back(marked(replies, turn.caller.cause), game, seat)
                    self.service.games.remember(channel, game)
                    replies = await self.service.told(unit, place, turn.caller, replies, None, game)
            except LostRace as lost:  # another process moved the game on: go on from there
                self.service.games.drop(channel)
                races += 1
                log.info("game %s: the AI of seat %s %s", game.id, seat, lost)
                if races >= RACES:  # it plays them too: it goes on with them
                    played.elsewhere = True
                    return played
                game = await self.service.game_in(channel)
                turn = await self.next_turn(game) if game is not None else None
                continue
            except Exception:
                self.service.games.drop(channel)
                log.exception("game %s: the AI of seat %s failed", game.id, seat)
                played.failed = True
                return played
            self.service.deliver_soon(channel, replies)
            played.chain.append(replies)
            if self.service.on_ai_action is not None:
                self.service.on_ai_action(game)
            turn = await self.next_turn(game)
        await self.let_go(channel)
        return played

    async def next_turn(self, game: Game) -> Turn | None:
        """What ``game`` plays by itself next: an AI seat's decision (its action still to
        be thought out), or a person's strike-phase decision or concession window when
        their ``autostrike`` or ``fighton`` makes it (:mod:`bot.handlers.autostrike`);
        None when it waits for a person."""
        seat = waiting_ai(game)
        if seat is not None:
            return Turn(seat, ai_caller(game, seat))
        seat = deciding_person(game)
        if seat is None:
            return None
        try:
            async with self.service.db.reading() as db:
                choices = await choices_of(db, game, seat)
        except Exception:  # the player decides: the game waits for them as without
            log.exception("game %s: reading the choices of seat %s failed", game.id, seat)
            return None
        if choices == Autoplay():
            return None
        made = await asyncio.to_thread(made_for_them, game, seat, choices)
        if made is None:
            return None
        return Turn(seat, made_caller(game, seat, made.cause), made.action)

    def busy(self, channel: int) -> bool:
        """Whether a task plays on ``channel``'s game (it will go on after the lock's
        holder: a command need not play a slice of its own)."""
        task = self._tasks.get(channel)
        return task is not None and not task.done()

    def wake(self, place: Place) -> None:
        """Go on with ``place``'s game in the background (a task of its own; if one runs
        already, it looks once more before it stops). Nothing when the service's AI seats
        act only when asked (``ai_limit`` 0) or once the service is closing."""
        if self._closed or self.service.ai_limit <= 0:
            return
        channel = place.channel
        self._retry.pop(channel, None)
        if self.busy(channel):
            self._again.add(channel)
            return
        self._tasks[channel] = asyncio.create_task(self._run(place), name=f"titanbot-ai-{channel}")

    async def _run(self, place: Place) -> None:
        channel = place.channel
        try:
            while True:
                self._again.discard(channel)
                await asyncio.sleep(0)  # the command that woke the runner answers first
                try:
                    async with self._turns, self.service.lock(channel):
                        played = await self.slice(place)
                except Exception:  # a bug must not stop the game for good
                    log.exception("channel %s: a slice of AI actions failed", channel)
                    played = Slice(failed=True)
                self.count(channel, played)
                if played.failed:
                    if not await self._damaged(place):
                        self.failed(place)
                    return
                if not played.more and channel not in self._again:
                    return
        finally:
            if self._tasks.get(channel) is asyncio.current_task():
                del self._tasks[channel]

    def count(self, channel: int, played: Slice) -> None:
        """Count a slice's actions towards the game's run without a person (the safety's
        note in the log every :data:`NOTE_EVERY`); a slice that did not run out ends it."""
        if not played.more:
            self._played.pop(channel, None)
            return
        before = self._played.get(channel, 0)
        after = before + len(played.chain)
        self._played[channel] = after
        if after // NOTE_EVERY > before // NOTE_EVERY:
            log.warning(
                "channel %s: %d AI actions without a person; the game goes on", channel, after
            )

    async def _damaged(self, place: Place) -> bool:
        """Whether the failed slice met damaged rows of the game: it is then marked
        damaged and its channel told the damage notice (once), instead of being tried
        again for ever (:mod:`bot.records.diagnosis`)."""
        try:
            async with self.service.db.reading() as db:
                damage = await diagnose(db, place.channel, place.guild, "the AI seats' turn")
        except Exception:
            log.exception(
                "channel %s: its rows could not be checked after a failure", place.channel
            )
            return False
        if damage is None or damage.game is None:
            return False
        log.warning("channel %s: its AI seats met damaged rows: %s", place.channel, damage.reason)
        await self.service.mark_damaged(damage.game, place.channel, damage.reason)
        await self.let_go(place.channel)
        return True

    def failed(self, place: Place) -> None:
        """A slice of ``place``'s game failed: try it again in :data:`RETRY_AFTER` seconds
        (the scheduler wakes to do so)."""
        moment = self.service.wall_clock.now() + RETRY_AFTER
        self._retry[place.channel] = (place, moment)
        log.warning(
            "channel %s: its AI seats failed to act; tried again in %.0f s",
            place.channel,
            RETRY_AFTER,
        )
        if self.service.on_planned is not None:
            self.service.on_planned()

    def next_retry(self) -> float | None:
        """When the next game whose slice failed is to be tried again (None: none is)."""
        return min((moment for _, moment in self._retry.values()), default=None)

    def retry_due(self, now: float) -> int:
        """Go on with the games whose retry is due at ``now``; how many."""
        due = [place for place, moment in self._retry.values() if moment <= now]
        for place in due:
            self.wake(place)
        return len(due)

    async def sweep(self, waiting: Sequence[tuple[int, int | None]]) -> int:
        """Go on with the ``waiting`` games (channel, guild) that no task plays and whose
        lease nobody else holds (at start-up; on a shared database, a dead process's
        games); how many were woken."""
        if self._closed or self.service.ai_limit <= 0:
            return 0
        now = time.time()
        free = []
        async with self.service.db.reading() as db:
            for channel, guild in waiting:
                if self.busy(channel) or channel in self._retry:  # (tried again in time)
                    continue
                holder = await leases.holder_of(db, leases.ai_lease(channel), now)
                if holder is None or holder == self.service.holder:
                    free.append(Place(channel, guild))
        for place in free:
            self.wake(place)
        return len(free)

    async def wake_choices_of(self, user: int) -> int:
        """Go on with the games that wait for ``user``'s strikes or concession windows
        (they turned ``autostrike`` or ``fighton`` on: what it makes is made at once); how
        many were woken."""
        async with self.service.db.reading() as db:
            waiting = await rows.active_games_waiting_for_ai(db, user)
        return await self.sweep(waiting)

    async def hold(self, channel: int) -> bool:
        """Take or renew the lease of ``channel``'s AI seats (always held on a database of
        one process): whether this process may play them now."""
        if not self.service.db.shared:
            return True
        self._held.add(channel)  # before: a close that cuts the taking short lets it go
        async with self.service.db.transaction() as db:
            name, holder = leases.ai_lease(channel), self.service.holder
            held = await leases.take(db, name, holder, time.time(), LEASE)
        if not held:
            self._held.discard(channel)
        return held

    async def let_go(self, channel: int) -> None:
        """Let the lease of ``channel``'s AI seats go, if held (the game waits for a person
        or is over)."""
        if channel not in self._held:
            return
        async with self.service.db.transaction() as db:
            await leases.give_up(db, leases.ai_lease(channel), self.service.holder)
        self._held.discard(channel)  # after: a close that cuts this short lets it go

    async def idle(self, channels: Sequence[int] | None = None) -> None:
        """Wait until no task plays on (in ``channels``, or anywhere): each game is over,
        waits for a person, or failed and waits for its retry (tests, tools)."""
        while True:
            busy = [
                task
                for channel, task in self._tasks.items()
                if not task.done() and (channels is None or channel in channels)
            ]
            if not busy:
                return
            await asyncio.gather(*(asyncio.shield(t) for t in busy), return_exceptions=True)

    async def close(self) -> None:
        """Stop every task (a slice under way is cut off: its action under way is not
        stored); the games go on at the next start. The leases are let go."""
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        if self.service.db.shared:  # every AI lease of this process, held or half taken
            await self._give_up_leases()
        self._held.clear()

    async def _give_up_leases(self) -> None:
        """Let every AI lease of this process go, trying again a few times: a query the
        closing cut short may keep the connection busy for a moment; were the leases not
        let go, another process would wait for them to run out (:data:`LEASE`)."""
        for attempt in range(GIVE_UP_TRIES):
            try:
                async with self.service.db.transaction() as db:
                    await leases.give_up_prefixed(db, leases.AI_PREFIX, self.service.holder)
                return
            except Exception:  # the database may be gone already: the leases run out
                if attempt + 1 == GIVE_UP_TRIES:
                    log.warning("the AI leases could not be let go", exc_info=True)
                    return
                await asyncio.sleep(0.1 * (attempt + 1))
