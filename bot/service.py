"""The game service: submit a command for a channel and a user, get the replies back.

One lock per channel (one game per channel) serialises its commands while games in
other channels run in parallel. A command that changes something (a lobby step, a game
action, an AI's action after it) is parsed, checked and applied, then stored together with
everything it must tell — the channel's news, each DM, the caller's answer — as rows of the
outbox (:mod:`bot.outbox`), in one transaction, before anyone is told; the outbox's
deliverer then says it (:meth:`GameService.deliver_with`), drawing pictures off the
command's path in a bounded pool (:class:`~bot.painting.Painter`). Information is
answered directly. A :class:`~engine.errors.TitanError` becomes an ephemeral refusal
(nothing changed); anything else is logged with the game id and answered with an apology.

A game whose stored record cannot be read back (:class:`~bot.storage.record.DamagedLog`)
is marked damaged when it is loaded, with a warning in the log; it leaves its channel,
whose commands are then answered with the damage notice (:mod:`bot.records.damage`)
until a fresh game is opened; ``export`` (:mod:`bot.records.command`) still reads it.

The operator's :class:`~bot.config.Limits` bound open games and history (the handlers
check them) and each user's command rate (checked here, before anything else: a command
over the rate is refused with when to try again; AI seats are exempt).

After every command that is not refused, the AI seats the game waits for act (each
action its own transaction) in a slice of at most ``ai_limit`` actions (:data:`AI_SLICE`)
under the channel's lock; its news joins the command's reply. When the game still waits
for an AI seat after it, the game goes on by itself, slice after slice, in a background
task of the channel's (:class:`~bot.ai_runner.AiRunner`: the lock is free between two
slices) until it is over or waits for a person; no cap stops it. A game left waiting for
an AI seat (a restart, a slice that failed) goes on at start-up, when the scheduler tries
it again, or with the next command, ``status`` included (:meth:`GameService.advance`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import Any

from bot import damaged_games as damage
from bot import telling
from bot.ai_runner import AiRunner
from bot.competition.tables import TableOpener
from bot.config import NO_LIMITS, Limits
from bot.context import Caller, Context, Place, Version
from bot.handlers.ai_seats import merge
from bot.handlers.info import INFO
from bot.handlers.lobby import LOBBY
from bot.handlers.play import Unconfirmed, play
from bot.handlers.secrets import note_export
from bot.open_games import OpenGames
from bot.outbox.codec import Drawing
from bot.outbox.deliverer import Deliverer
from bot.outbox.transport import Transport
from bot.outbox.writer import Told, write
from bot.painting import Painter
from bot.pictures import Renderer
from bot.ports import RACES, Finish, Work
from bot.ratelimit import CommandRate
from bot.records.command import RECORDS
from bot.records.course import readable_course
from bot.records.damage import GameDamaged
from bot.records.proof import random_salt, random_seed
from bot.replies import Message, Picture, PictureKind, Replies
from bot.routing import STALE, WITHOUT_GAME, StaleChoice, plays, stores, table_tool
from bot.schedule.clock import Clock, SystemClock
from bot.schedule.scheduler import Scheduler
from bot.storage import dms, due, readers, tournaments
from bot.storage import games as rows
from bot.storage.backends import Target, open_database
from bot.storage.connection import Backend, Store, WorkUnit
from bot.storage.errors import LostRace
from bot.storage.leases import new_holder
from bot.storage.record import (
    NO_CLOCK,
    DamagedLog,
    Game,
    Timing,
)
from bot.syntax import Command, VerbKind, parse_command
from engine.errors import IllegalAction, TitanError
from engine.game.actions import Action

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 50
CACHE_SIZE = 512
AI_SLICE = 20
"""AI actions one slice plays under the channel's lock (see :mod:`bot.ai_runner`)."""
BUSY = (
    "This game was changed elsewhere at the same moment, again and again: nothing was done. "
    "Please try again."
)
#: Called with the game after each AI action is stored (progress bars, benchmarks).
Observer = Callable[[Game], None]
SCHEDULER = Caller(0, "titanbot", on_behalf=True)
"""Who the bot's own notices come from (a reminder, a paused game)."""


class GameService:
    """Every game of one bot process, over one database."""

    def __init__(
        self,
        db: Backend,
        *,
        renderer: Renderer | None = None,
        seeds: Callable[[], int] = random_seed,
        salts: Callable[[], str] = random_salt,
        snapshot_every: int = SNAPSHOT_EVERY,
        cache_size: int = CACHE_SIZE,
        ai_limit: int = AI_SLICE,
        on_ai_action: Observer | None = None,
        paint_in_processes: bool = False,
        limits: Limits = NO_LIMITS,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Clock | None = None,
        timing: Timing = NO_CLOCK,
    ) -> None:
        self.db = db
        self.holder = new_holder()
        """This process's name in the claims and leases of a shared database."""
        self.limits = limits
        self.ai_limit = ai_limit
        """AI actions a slice plays (0: the AI seats act only when :meth:`advance` asks)."""
        self.on_ai_action = on_ai_action
        self.renderer = renderer
        self.painter = Painter(renderer, processes=paint_in_processes)
        self.replays = Painter(renderer, processes=paint_in_processes)
        """Draws the replays (:mod:`render.replay`), one at a time, apart from the boards."""
        self._seeds = seeds
        self._salts = salts
        self._snapshot_every = snapshot_every
        self.games = OpenGames(db, cache_size, self._mark_damaged)
        """The open games kept in memory (:mod:`bot.open_games`)."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._seating = asyncio.Lock()
        self.deliverer: Deliverer | None = None
        """Who says what the outbox holds (:meth:`deliver_with`); without one it waits."""
        self.scheduler: Scheduler | None = None
        """Who acts when things fall due (:meth:`keep_time`); without one nothing does."""
        self.tables = TableOpener(self)
        """Opens the tables of a tournament's heat (:mod:`bot.competition.tables`)."""
        self.ai = AiRunner(self)
        """Plays on the games whose slice of AI actions ran out (:mod:`bot.ai_runner`)."""
        rate = limits.commands_per_minute
        self._rate = CommandRate(rate, limits.command_burst, clock) if rate else None
        self.timing = timing
        """The clock of a game whose host chooses none (the operator's ``[clock]``)."""
        self.wall_clock: Clock = wall_clock or SystemClock()
        """The scheduler's time: when decisions begin and fall due (tests move it)."""
        self.on_planned: Callable[[], None] | None = None
        """Called after a change that may have scheduled something (the scheduler wakes)."""

    @classmethod
    async def open(cls, target: Target, **options: Any) -> GameService:
        """A service over the database at ``target``, a SQLite file or a PostgreSQL URL
        (created and migrated as needed)."""
        return cls(await open_database(target), **options)

    async def close(self) -> None:
        await self.ai.close()
        await self.tables.close()
        if self.scheduler is not None:
            await self.scheduler.close()
        if self.deliverer is not None:
            await self.deliverer.close()
        await self.painter.close()
        await self.replays.close()
        await self.db.close()

    async def deliver_with(self, transport: Transport, **options: Any) -> Deliverer:
        """Say what the outbox holds through ``transport`` from now on, starting with what
        was left waiting (a crash, a restart)."""
        self.deliverer = Deliverer(
            self.db, transport, draw=self._draw, holder=self.holder, **options
        )
        await self.deliverer.start()
        return self.deliverer

    async def keep_time(self) -> Scheduler:
        """Act on what falls due from now on (deadlines, reminders, time limits), starting
        with what fell due while the bot was down, and the games waiting for an AI."""
        if self.scheduler is None:
            self.scheduler = Scheduler(self)
            await self.scheduler.start()
            self.tables.wake()  # a heat's tables left half open by a stop
        return self.scheduler

    async def _draw(
        self, drawing: Drawing, channel: int, game_id: int, version: int
    ) -> tuple[Picture, bytes] | None:
        """A stored message's picture, drawn while its game is at the message's version
        (else a newer message has a newer one); a battleland as it was at that version."""
        game = await self.game_in(channel)
        if game is None or game.id != game_id:
            game = await self.games.finished(game_id)
        if game is None or game.state is None:
            return None
        state = game.state if game.n == version else None
        if state is None and drawing.kind is PictureKind.BATTLELAND:
            state = await self.games.state_at(game, version)
        if state is None:
            return None
        picture = drawing.of(state)
        if picture.kind is PictureKind.FINAL:  # read from the whole log (the game is over)
            picture = replace(picture, course=await readable_course(self.db, game.row))
        image = await self.painter.draw(picture, channel)
        return (picture, image) if image is not None else None

    async def paint(self, message: Message | None, channel: int | None = None) -> Message | None:
        """``message`` with its picture drawn, off the command's path (see
        :class:`~bot.painting.Painter`). With ``channel``, a newer picture of that channel
        asked before this one is drawn replaces it (the message is then returned undrawn).
        A replay, long to draw, has a painter of its own, so that it holds up no board."""
        picture = message.picture if message is not None else None
        if picture is not None and picture.kind is PictureKind.REPLAY:
            return await self.replays.paint(message, channel)
        return await self.painter.paint(message, channel)

    async def submit(
        self,
        place: Place,
        caller: Caller,
        text: str,
        *,
        expect: Version | None = None,
        reply_to: str | None = None,
        note: str | None = None,
        step: bool = False,
    ) -> Replies:
        """Run the command line ``text`` sent by ``caller`` in ``place`` (see
        :meth:`execute`); ``step``: it was chosen in a private step of a decision (its
        answer shows the next step)."""
        if step:
            caller = replace(caller, step=True)
        try:
            command = parse_command(text)
        except TitanError as exc:
            return self._over_rate(caller) or Replies.refusal(str(exc))
        return await self.execute(
            place, caller, command, expect=expect, reply_to=reply_to, note=note
        )

    async def act(
        self,
        place: Place,
        caller: Caller,
        action: Action,
        *,
        expect: Version | None = None,
        reply_to: str | None = None,
        note: str | None = None,
    ) -> Replies:
        """Run an engine action directly, as the caller's exact intent (a program's: no
        second look is asked for, :mod:`bot.second_look`)."""
        return await self.execute(
            place, caller, action, expect=expect, reply_to=reply_to, note=note
        )

    async def execute(
        self,
        place: Place,
        caller: Caller,
        command: Command | Action,
        *,
        expect: Version | None = None,
        reply_to: str | None = None,
        note: str | None = None,
    ) -> Replies:
        """Run a parsed command (or an engine action) under the channel's lock.

        With ``expect`` the command runs only if the channel's game is still at that
        version, checked under the lock: of two clicks on one button, one acts. A caller
        over their command rate is refused at once. ``reply_to`` is the transport's
        reference to the command, stored with its answer in the outbox; ``note`` heads
        the channel's news of it (an organiser's tool says who did it).
        """
        refused = self._over_rate(caller)
        if refused is not None:
            return refused
        tool = table_tool(command)
        if tool is not None:  # it changes a table's game, under that table's lock
            try:
                replies = await tool(self, place, caller, command.args())  # type: ignore[union-attr]
            except TitanError as exc:
                return Replies.refusal(str(exc))
            except Exception:
                return await self._failed(place, command)
            self.tables.wake()
            return replies
        async with self.lock(place.channel):
            try:
                replies = await self._racing(
                    place.channel,
                    partial(self._run, place, caller, command, expect, reply_to, note),
                )
            except Unconfirmed as question:
                return question.replies()
            except TitanError as exc:
                return Replies.refusal(str(exc))
            except Exception:
                return await self._failed(place, command)
            return await self.ai_after(place, replies)

    async def _run(
        self,
        place: Place,
        caller: Caller,
        command: Command | Action,
        expect: Version | None,
        reply_to: str | None,
        note: str | None,
    ) -> Replies:
        """One try at a command (see :meth:`execute`), under the channel's lock."""
        game = await self._prepare(place.channel, command, expect)
        caller = await self._with_standins(caller, game)
        if not stores(command):
            replies = await self._dispatch(self.context(place, caller), command=command, game=game)
            if isinstance(command, Command) and command.verb in ("autostrike", "fighton"):
                await self.ai.wake_choices_of(caller.user)  # what it makes is made at once
            return replies
        run = partial(self._dispatch, command=command)
        replies = await self._stored(place, caller, run, game, reply_to, note, not plays(command))
        if isinstance(command, Command) and command.verb == "tournament":
            self.tables.wake()  # a heat seated: its tables open
        return replies

    async def _racing(self, channel: int, attempt: Callable[[], Awaitable[Replies]]) -> Replies:
        """``attempt``, tried again (the game reloaded) while another writer changes the
        channel's game first (another process, on a shared database); then refused."""
        for _ in range(RACES):
            try:
                return await attempt()
            except LostRace as lost:
                self.games.drop(channel)
                log.info("channel %s: %s; trying again", channel, lost)
        return Replies.refusal(BUSY)

    async def _with_standins(self, caller: Caller, game: Game | None) -> Caller:
        """The caller, knowing whom they stand in for when they have no seat of their own
        in ``game`` (``away … standin @user``)."""
        if game is None or game.state is None or caller.user <= 0:
            return caller
        if game.seat_of(caller.user) is not None:
            return caller
        async with self.db.reading() as db:
            stood = await due.stood_in_by(db, caller.user, self.wall_clock.now())
            if stood and await readers.has_read(db, game.id, caller.user):
                return caller  # who read the game's secrets stands in for nobody in it
        return replace(caller, stands_in=stood) if stood else caller

    async def seat_for(self, game: Game, user: int) -> int | None:
        """The seat ``user`` plays in ``game``: their own, or the one they stand in for."""
        return (await self._with_standins(Caller(user, ""), game)).seat_in(game)

    async def advance(self, place: Place, limit: int | None = None) -> Replies:
        """Let the AI seats ``place``'s game waits for act, as after a command: a slice now
        (its news is returned), the rest by itself in the background. With ``limit`` (a
        tool stepping through a game: the demo, a benchmark) at most ``limit`` actions
        now, and nothing after them."""
        async with self.lock(place.channel):
            return await self.ai_after(place, Replies(), limit)

    async def _prepare(
        self, channel: int, command: Command | Action | None, expect: Version | None
    ) -> Game | None:
        """The channel's game, loaded before anything is written; refuses a stale choice,
        and any command but a few in a channel whose game is damaged."""
        game = await self.game_in(channel)
        if expect is not None and (game is None or (game.id, game.n) != (expect.game, expect.n)):
            raise StaleChoice(STALE)
        verb = command.verb if isinstance(command, Command) else None
        if game is None and verb not in WITHOUT_GAME and verb not in RECORDS:
            notice = await self.damage_notice_in(channel)
            if notice is not None:
                raise GameDamaged(notice)
        return game

    async def change(
        self, place: Place, caller: Caller, work: Work, *, reply_to: str | None = None
    ) -> Replies:
        """Run a tool that changes the channel's game outside the command language (an
        organiser handing a seat over) as a command runs: under the channel's lock, with
        what it must tell stored in the same transaction. ``work`` gets the context and
        the channel's game."""
        async with self.lock(place.channel):
            try:
                replies = await self._racing(
                    place.channel, partial(self._changed, place, caller, work, reply_to)
                )
            except TitanError as exc:
                return Replies.refusal(str(exc))
            except Exception:
                return await self._failed(place, "organiser tool")
            return await self.ai_after(place, replies)

    async def _changed(
        self, place: Place, caller: Caller, work: Work, reply_to: str | None
    ) -> Replies:
        """One try at an organiser's tool (see :meth:`change`)."""
        game = await self._prepare(place.channel, None, None)
        return await self._stored(place, caller, work, game, reply_to)

    async def _stored(
        self,
        place: Place,
        caller: Caller,
        run: Callable[..., Awaitable[Replies]],
        game: Game | None,
        reply_to: str | None,
        note: str | None = None,
        claim: bool = True,
    ) -> Replies:
        """Run a command that changes something: the change and what it must tell are one
        transaction (a unit); the deliverer is woken once it is committed. ``run`` gets
        the context and ``game=`` the channel's game, taken for the unit (its revision
        claimed: :class:`LostRace` when another writer changed it since it was loaded;
        without ``claim``, ``run`` checks it as it stores the change)."""
        channel = place.channel
        cached = self.games.kept(channel)
        try:
            async with self.db.unit() as unit:
                if game is not None and claim:
                    revision = await rows.claim(unit.connection, game.id, game.row.revision)
                    game = replace(game, row=replace(game.row, revision=revision))
                if not caller.on_behalf:  # their own command: they may have opened DMs
                    await dms.reopen_dms(unit.connection, caller.user)
                replies = await run(self.context(place, caller, unit), game=game)
                if note is not None and replies.public is not None:
                    text = f"{note}\n{replies.public.text}"
                    replies = replace(replies, public=replace(replies.public, text=text))
                replies = await self.told(unit, place, caller, replies, reply_to, game)
        except BaseException:
            self.games.restore(channel, cached)  # the cache may hold what was not committed
            raise
        self.deliver_soon(channel, replies)
        return replies

    async def told(
        self, unit: WorkUnit, place: Place, caller: Caller, replies: Replies,
        reply_to: str | None, before: Game | None,
    ) -> Replies:  # fmt: skip
        """Queue in the outbox what ``replies`` tell (:func:`bot.telling.told`)."""
        return await telling.told(self, unit, place, caller, replies, reply_to, before)

    def deliver_soon(self, channel: int, replies: Replies) -> None:
        if replies.stored and self.deliverer is not None:
            self.deliverer.wake(channel)
            for notice in replies.elsewhere:
                self.deliverer.wake(notice.channel)
        if self.on_planned is not None:
            self.on_planned()

    async def tell(
        self, place: Place, game: Game, replies: Replies, done: Finish | None = None
    ) -> Replies:
        """Store what the bot says of its own accord about ``game`` (a reminder, a notice),
        with ``done`` in the same transaction. The caller holds the channel's lock."""
        async with self.db.unit() as unit:
            if done is not None:
                await done(unit.connection)
            replies = await self.told(unit, place, SCHEDULER, replies, None, game)
        self.deliver_soon(place.channel, replies)
        return replies

    async def announce(self, place: Place, replies: Replies) -> Replies:
        """Store what the bot says of its own accord where no game is being played (a
        tournament's news in its organiser's channel)."""
        async with self.lock(place.channel), self.db.unit() as unit:
            told = Told(place, SCHEDULER)
            count = await write(unit.connection, told, replies)
        replies = replace(replies, stored=count > 0)
        self.deliver_soon(place.channel, replies)
        return replies

    def context(self, place: Place, caller: Caller, db: Store | None = None) -> Context:
        return Context(
            db or self.db,
            place,
            caller,
            self._seeds,
            self._snapshot_every,
            limits=self.limits,
            timing=self.timing,
            now=self.wall_clock.now,
            seating=self._seating,
            salts=self._salts,
        )

    def _over_rate(self, caller: Caller) -> Replies | None:
        """Spend one of the caller's commands; a polite refusal when none is left (AI seats,
        with ids below zero, and commands given on a user's behalf are not counted)."""
        if self._rate is None or caller.user < 0 or caller.on_behalf:
            return None
        wait = self._rate.take(caller.user)
        if wait <= 0:
            return None
        seconds = max(1, math.ceil(round(wait, 3)))  # 10.0000001 s is "10 seconds"
        return Replies.refusal(
            f"You are sending commands faster than this bot allows ({self._rate.burst} at "
            f"once, {self._rate.per_minute:g} a minute): please try again in {seconds} "
            f"second{'s' if seconds != 1 else ''}."
        )

    async def ai_after(self, place: Place, first: Replies, limit: int | None = None) -> Replies:
        """``first`` merged with the news of the AI slice that follows it (the caller holds
        the channel's lock); when the game still waits for an AI seat after the slice, the
        runner goes on with it in the background. When the runner plays the game already,
        it goes on after the lock's holder: no slice is played here.

        With ``limit`` (:meth:`advance`'s), at most ``limit`` actions and nothing after.
        """
        if limit is not None:
            played = await self.ai.slice(place, limit, None)
            return merge(first, played.chain)
        if self.ai_limit <= 0:
            return first
        if self.ai.busy(place.channel):
            self.ai.wake(place)  # it looks once more before it stops
            return first
        played = await self.ai.slice(place)
        self.ai.count(place.channel, played)
        if played.more:
            self.ai.wake(place)
        elif played.failed:
            self.ai.failed(place)
        return merge(first, played.chain)

    def lock(self, channel: int) -> asyncio.Lock:
        """The lock serialising ``channel``'s commands (held too by tools that change a
        game outside :meth:`execute`, such as an organiser replacing a player)."""
        return self._locks.setdefault(channel, asyncio.Lock())

    async def _dispatch(
        self, ctx: Context, *, command: Command | Action, game: Game | None
    ) -> Replies:
        channel = ctx.place.channel
        if isinstance(command, Command) and command.verb in RECORDS:
            replies = await RECORDS[command.verb](ctx, command.args())
            if command.verb == "export":  # noted before the file is handed over
                await note_export(ctx, command.words)
            return replies
        if isinstance(command, Command) and command.kind is VerbKind.INFO:
            return await INFO[command.verb](ctx, game, command.args())
        if isinstance(command, Command) and command.kind is VerbKind.LOBBY:
            self.games.drop(channel)
            return await LOBBY[command.verb](ctx, game, command.args())
        if game is None:
            raise IllegalAction("there is no game in this channel: open one with `new`")
        replies, updated = await play(ctx, game, command)
        self.games.remember(channel, updated)
        return replies

    async def _failed(self, place: Place, command: Command | Action | str) -> Replies:
        return await damage.failed(self, place, command)

    async def _mark_damaged(self, channel: int, found: DamagedLog) -> None:
        assert found.row is not None
        await self.mark_damaged(found.row.id, channel, found.reason)
        log.warning("game %s (channel %s) is damaged: %s", found.row.id, channel, found)

    async def mark_damaged(self, game_id: int, channel: int, reason: str) -> bool:
        """Record that ``game_id`` cannot be played on and tell its channel, the first
        time (:func:`bot.damaged_games.mark`); whether this call marked it."""
        return await damage.mark(self, game_id, channel, reason)

    async def damage_notice_in(self, channel: int) -> str | None:
        """The explanation of ``channel``'s damaged game, while no other game is open."""
        async with self.db.reading() as db:
            return await damage.notice_in(db, channel)

    async def tournament_names(self, guild: int | None) -> list[str]:
        """The names of the server's tournaments, the newest first (for autocomplete)."""
        async with self.db.reading() as db:
            found = await tournaments.names_of_guild(db, guild)
        return list(reversed(found))

    async def game_in(self, channel: int) -> Game | None:
        """The open game (lobby or active) of ``channel``, kept in memory or loaded.

        A game whose record cannot be read back is marked damaged (with a warning in the
        log) and is not open any more: None, and :meth:`damage_notice_in` explains it.
        """
        return await self.games.game_in(channel)

    async def set_dms_closed(self, user: int, closed: bool = True) -> None:
        """Remember that ``user`` does (not) accept DMs; their private news then stops."""
        async with self.db.transaction() as db:
            await dms.set_dms_closed(db, user, closed)

    def forget(self, channel: int | None = None) -> None:
        """Drop cached games (all, or one channel's); they reload from the database."""
        self.games.drop(channel)


__all__ = ["Caller", "GameService", "Place", "Replies", "Version"]
