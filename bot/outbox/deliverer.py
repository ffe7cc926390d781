"""The deliverer: sends the outbox's rows, in order per channel, until each is delivered.

One worker per channel with rows waiting takes them oldest first. The channel's waiting
posts go out as one message (an AI's run of moves, a burst of commands): the rows a
message carries are fixed before it is sent and keep their nonce, so a message resent
after a crash is recognised by the other side and not shown twice. A failure that may
pass is retried with a growing pause, for as long as it takes; one that will not is
recorded (and the command's caller told, when the channel could not be told at all).
DMs respect the player: none while they are turned off, and after a refusal none for a
day (or until the player gives a command: they may have opened them); the first refusal
is said in the channel, without revealing anything. On start every waiting row goes out.

On a shared database every process delivers: a channel's news go out through the process
that holds the channel's lease (:mod:`bot.storage.leases`), taken before its waiting rows
are read and renewed with each message, so they go out once and in order. A process that
finds the lease held by another looks again a moment later (the holder may stop before
its rows), and every :data:`SWEEP` seconds each process wakes the channels with rows
waiting and nobody delivering them (a process died).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.outbox.codec import Drawing, Stored, message_from_json, message_to_json
from bot.outbox.damage import lost_notice, row_problem
from bot.outbox.joining import join_news, join_private
from bot.outbox.posting import BATTLE, GAME, Posted, post
from bot.outbox.transport import DmsClosed, Expired, Refused, Retry, Transport
from bot.replies import BattleStage, Message, Picture
from bot.storage import dms, leases
from bot.storage import outbox as rows
from bot.storage.connection import Backend
from bot.storage.outbox import OutboxRow

log = logging.getLogger(__name__)

WORKER_NAME = "titan-outbox-"
"""Each channel's worker task is named so, and its channel id."""
MAX_CONTENT = 2000
"""Characters in one message (Discord's limit), pings included."""
BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Seconds between attempts after each failure that may pass (the last one repeats)."""
LEASE = 120.0
"""Seconds a process keeps a channel's lease without renewing it."""
LEASE_RETRY = 1.0
"""Seconds before a channel whose lease another process holds is looked at again."""
SWEEP = 15.0
"""Seconds between two looks for news nobody is delivering (a shared database)."""
DM_RETRY = timedelta(days=1)
"""How long a player whose DMs were refused gets none (unless they give a command)."""
DMS_CLOSED = (
    "I cannot send you direct messages, so I will not send you private news. "
    "Use `legions` here at any time to see your legions (only you see the answer)."
)
#: Draws a stored picture of a game at a version: the picture and its PNG, or None when
#: the game has moved on (a newer message carries the newer picture) or it cannot be drawn.
Drawer = Callable[[Drawing, int, int, int], Awaitable[tuple[Picture, bytes] | None]]
"""(what to draw, the channel, the game, its version) → the picture and its PNG."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class Deliverer:
    """Delivers one database's outbox through one transport."""

    def __init__(
        self,
        db: Backend,
        transport: Transport,
        *,
        draw: Drawer | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        now: Callable[[], datetime] = utc_now,
        backoff: Sequence[float] = BACKOFF,
        holder: str = "",
    ) -> None:
        self.db = db
        self.holder = holder
        """This process's name in the channels' leases (a shared database)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.transport = transport
        self._draw = draw
        self._sleep = sleep
        self._now = now
        self._backoff = tuple(backoff)
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._woken: set[int] = set()
        self._closed = False

    # --- running ---------------------------------------------------------------------------
    def wake(self, channel: int) -> None:
        """Rows were queued for ``channel``: deliver them (now, or after what is under way)."""
        if self._closed:
            return
        self._woken.add(channel)
        worker = self._workers.get(channel)
        if worker is None or worker.done():
            name = f"{WORKER_NAME}{channel}"
            self._workers[channel] = asyncio.create_task(self._drain(channel), name=name)

    async def start(self) -> None:
        """Deliver every row left waiting (by a crash, a restart, a long outage)."""
        async with self.db.reading() as db:
            channels = await rows.channels_waiting(db)
        for channel in channels:
            self.wake(channel)
        if self.db.shared and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep(), name=f"{WORKER_NAME}sweep")

    async def _sweep(self) -> None:
        """Wake, now and then, the channels whose news nobody delivers (shared database)."""
        while True:
            await asyncio.sleep(SWEEP)
            await self._look_once()

    async def idle(self) -> None:
        """Wait until nothing is being delivered (tests, shutdown)."""
        while busy := [w for w in self._workers.values() if not w.done()]:
            await asyncio.gather(*busy, return_exceptions=True)

    async def finish(self) -> None:
        """A graceful stop's first half: look no more for news nobody delivers, but once
        more now (a change stored by a task stopped before it woke the deliverer), and say
        what is under way (then :meth:`close`)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
            await self._look_once()
        await self.idle()

    async def _look_once(self) -> None:
        """Wake the channels whose news nobody delivers now."""
        try:
            async with self.db.reading() as db:
                channels = await rows.channels_unheld(db, self._now().timestamp())
        except Exception:
            log.exception("looking for news nobody delivers failed")
            return
        for channel in channels:
            self.wake(channel)

    async def close(self) -> None:
        """Stop delivering; what is waiting stays in the outbox for the next start."""
        self._closed = True
        tasks = [*self._workers.values(), *([self._sweeper] if self._sweeper else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._workers.clear()
        self._sweeper = None
        if self.db.shared:  # another process may take the channels over at once
            async with self.db.transaction() as db:
                await leases.give_up_all(db, self.holder)

    async def _drain(self, channel: int) -> None:
        while True:
            self._woken.discard(channel)
            if not await self._hold(channel):  # another process delivers the channel
                async with self.db.reading() as db:
                    if not await rows.waiting(db, channel):
                        return
                await self._sleep(LEASE_RETRY)
                continue
            async with self.db.reading() as db:
                waiting = await rows.waiting(db, channel)
            if not waiting:
                if channel in self._woken:
                    continue
                await self._let_go(channel)
                return
            damaged = [(row, why) for row in waiting if (why := row_problem(row)) is not None]
            if damaged:
                await self._skip(channel, damaged)
                continue
            try:
                await self._deliver(channel, batch_of(waiting))
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug must not stop the channel's news for good
                log.exception("delivering channel %s's outbox failed", channel)
                await self._sleep(self._backoff[-1])

    async def _hold(self, channel: int) -> bool:
        """Take or renew the channel's lease (always held on a database of one process)."""
        if not self.db.shared:
            return True
        async with self.db.transaction() as db:
            name = leases.outbox_lease(channel)
            return await leases.take(db, name, self.holder, self._now().timestamp(), LEASE)

    async def _let_go(self, channel: int) -> None:
        if self.db.shared:
            async with self.db.transaction() as db:
                await leases.give_up(db, leases.outbox_lease(channel), self.holder)

    async def _skip(self, channel: int, damaged: list[tuple[OutboxRow, str]]) -> None:
        """Give up rows nobody can send (:mod:`bot.outbox.damage`), and tell the channel
        that news was lost, so that its later news goes on."""
        for row, why in damaged:
            log.warning("channel %s: outbox row %s is damaged (%s): skipped", channel, row.id, why)
        game = next((row.game for row, _ in damaged if isinstance(row.game, int)), None)
        notice = Message(lost_notice(game, len(damaged)))
        async with self.db.transaction() as db:
            for row, why in damaged:
                await rows.delivered(db, [row.id], f"given up: damaged ({why})")
            await rows.add(
                db, game=game, channel=channel, kind="post", body=message_to_json(notice)
            )

    # --- one message -----------------------------------------------------------------------
    async def _deliver(self, channel: int, batch: list[OutboxRow]) -> None:
        ids = [row.id for row in batch]
        first = batch[0]
        if first.batch is None:
            async with self.db.transaction() as db:
                await rows.batched(db, ids, first.id)
        nonce = f"titan-{first.batch or first.id}"
        posted: Posted | None = None
        try:
            if first.kind == "post":
                posted = await self._post(channel, batch, nonce)
                outcome = posted.outcome
            else:
                outcome = await self._send(channel, batch, nonce)
        except Retry as exc:
            async with self.db.transaction() as db:
                await rows.attempted(db, ids)
            pause = self._backoff[min(first.attempts, len(self._backoff) - 1)]
            log.warning("channel %s: %s; trying again in %.0f s", channel, exc, pause)
            await self._sleep(max(pause, exc.after or 0.0))
            return
        except Refused as exc:
            outcome = await self._refused(channel, batch, exc)
        async with self.db.transaction() as db:
            if posted is not None:
                await posted.store(db, channel)
            await rows.delivered(db, ids, outcome)

    async def _post(self, channel: int, batch: list[OutboxRow], nonce: str) -> Posted:
        """The channel's news: in its lane, as an edit of the live message or a new one."""
        each = [message_from_json(row.body) for row in batch]
        message = await self._drawn(channel, merged(each), batch[-1])
        async with self.db.reading() as db:
            here = {lane: await rows.place(db, channel, lane) for lane in (GAME, BATTLE)}
        reply_to = batch[-1].reply_to
        return await post(self.transport, here, channel, batch[0].lane, each, message, nonce,
                          reply_to)  # fmt: skip

    async def _send(self, channel: int, batch: list[OutboxRow], nonce: str) -> str:
        kind = batch[0].kind
        if kind == "answer":
            return await self._answer(channel, batch[0])
        stored = merged([message_from_json(row.body) for row in batch], private=True)
        message = await self._drawn(channel, stored, batch[-1])
        user = batch[0].recipient
        assert user is not None
        if (skip := await self._dms_skipped(user)) is not None:
            return skip
        return await self.transport.dm(user, channel, message, nonce)

    async def _answer(self, channel: int, row: OutboxRow) -> str:
        stored = message_from_json(row.body)
        shown = stored.message.text or stored.message.offers is not None
        message = await self._drawn(channel, stored, row) if shown else None
        return await self.transport.answer(row.reply_to, message, row.recipient)

    async def _drawn(self, channel: int, stored: Stored, row: OutboxRow) -> Message:
        """The stored message with its picture drawn, when the game is still at its version."""
        if stored.drawing is None or self._draw is None or row.game is None:
            return stored.message
        if row.version is None:
            return stored.message
        drawn = await self._draw(stored.drawing, channel, row.game, row.version)
        if drawn is None:
            return stored.message
        picture, image = drawn
        return replace(stored.message, picture=picture, image=image)

    async def _dms_skipped(self, user: int) -> str | None:
        async with self.db.reading() as db:
            closed_at, off = await dms.dm_status(db, user)
        if off:
            return "skipped: the player turned DMs off"
        if closed_at is not None and (
            not closed_at or self._now() - datetime.fromisoformat(closed_at) < DM_RETRY
        ):
            return "skipped: the player's DMs are closed"
        return None

    async def _refused(self, channel: int, batch: list[OutboxRow], error: Refused) -> str:
        """Record a message that will not go, and what follows from it."""
        first = batch[0]
        if isinstance(error, DmsClosed) and first.recipient is not None:
            async with self.db.transaction() as db:
                newly = await dms.close_dms(db, first.recipient, self._now().isoformat())
                if newly:  # said once in the channel, and revealing nothing
                    notice = Message(DMS_CLOSED, mention=(first.recipient,))
                    await rows.add(
                        db, game=first.game, channel=channel, kind="post",
                        body=message_to_json(notice),
                    )  # fmt: skip
            if newly:
                self.wake(channel)
            return "skipped: the player's DMs are closed"
        if isinstance(error, Expired):
            return await self._expired(channel, first)
        log.warning("channel %s: a %s was refused for good: %s", channel, first.kind, error)
        if first.kind == "post" and batch[-1].reply_to is not None:
            text = (
                f"I could not post this game's news in the channel ({error}). Your command "
                "is stored; `status` shows where the game stands."
            )
            try:
                await self.transport.tell(batch[-1].reply_to, Message(text))
            except Refused:
                log.warning("channel %s: the caller could not be told either", channel)
        return f"given up: {error}"

    async def _expired(self, channel: int, answer: OutboxRow) -> str:
        """An answer too late for its command: its private news goes by DM instead."""
        stored = message_from_json(answer.body)
        if not stored.message.text or answer.recipient is None:
            return "given up: the command can no longer be answered"
        async with self.db.transaction() as db:
            await rows.add(
                db, game=answer.game, channel=channel, kind="dm", body=answer.body,
                recipient=answer.recipient, version=answer.version,
            )  # fmt: skip
        self.wake(channel)
        return "sent by DM: the command can no longer be answered"


def batch_of(waiting: Sequence[OutboxRow]) -> list[OutboxRow]:
    """The rows the next message carries: a batch fixed before (sent again as it was), else
    the oldest row and every waiting row of its lane (the channel's posts, or one user's
    DMs) that fits in one message; an answer always goes alone."""
    first = waiting[0]
    if first.batch is not None:
        return [row for row in waiting if row.batch == first.batch]
    if first.kind == "answer":
        return [first]
    lane = [r for r in waiting if r.kind == first.kind and r.recipient == first.recipient]
    chosen = [lane[0]]
    size = len(message_from_json(lane[0].body).message.text)
    head = _progress(lane[0])
    for row in lane[1:]:
        if row.batch is not None or row.lane != first.lane or _stage_ends_batch(chosen[-1]):
            break
        if _progress(row) != head:  # a report goes with the newer reports of it alone
            break
        size += 1 + len(message_from_json(row.body).message.text)
        if size > MAX_CONTENT - 100:  # room for the pings
            break
        chosen.append(row)
    return chosen


def _progress(row: OutboxRow) -> str | None:
    return message_from_json(row.body).message.progress


def _stage_ends_batch(row: OutboxRow) -> bool:
    """A battle's beginning is the last news of its message (a thread opens from it)."""
    battle = message_from_json(row.body).message.battle
    return battle is not None and battle.stage is BattleStage.BEGINS


def merged(stored: Sequence[Stored], *, private: bool = False) -> Stored:
    """One message saying what several say: their texts in order (public news: only the last
    says whom the game waits for; private news: only the latest list of one's legions), the
    pings of the latest that pings, and the picture and choices of the last (the newest);
    reports of work under way (batched together alone): the newest."""
    last = stored[-1]
    if len(stored) == 1 or last.message.progress is not None:
        return last  # reports of one piece of work: the newest says how it stands
    texts = [s.message.text for s in stored if s.message.text]
    join = join_private if private else join_news
    text = join(texts, MAX_CONTENT - 100)
    mention = next((s.message.mention for s in reversed(stored) if s.message.mention), ())
    battles = [s.message.battle for s in stored if s.message.battle is not None]
    battle = next((b for b in battles if b.stage is BattleStage.BEGINS), None)
    message = Message(text, mention=mention, offers=last.message.offers,
                      battle=battle or (battles[-1] if battles else None))  # fmt: skip
    return Stored(message, last.drawing)
