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
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import Any

from bot.ai_runner import SLICE_SECONDS, AiRunner, Slice
from bot.competition.results import game_ended
from bot.competition.tables import TableOpener
from bot.config import NO_LIMITS, Limits
from bot.context import Caller, Context, Place, Version
from bot.handlers.ai_seats import ai_caller, ai_choice, ai_play, merge, waiting_ai
from bot.handlers.info import INFO
from bot.handlers.lobby import LOBBY
from bot.handlers.play import Unconfirmed, play
from bot.handlers.secrets import note_export
from bot.offers import Offers, public_offers
from bot.offers.board import lobby_offers
from bot.outbox.codec import Drawing
from bot.outbox.deliverer import Deliverer
from bot.outbox.transport import Transport
from bot.outbox.writer import Told, write
from bot.painting import Painter
from bot.pictures import Renderer
from bot.ratelimit import CommandRate
from bot.records.command import RECORDS
from bot.records.course import Course, game_course
from bot.records.damage import GameDamaged, damage_notice
from bot.records.diagnosis import diagnose
from bot.records.proof import random_salt
from bot.records.seal import record_digest, sealed
from bot.replies import Message, Notice, Picture, PictureKind, Replies
from bot.routing import STALE, WITHOUT_GAME, StaleChoice, stores, table_tool
from bot.schedule.clock import Clock, SystemClock
from bot.schedule.decisions import decision_of
from bot.schedule.planner import plan
from bot.schedule.scheduler import Scheduler
from bot.schedule.standins import with_standin_copies
from bot.storage import due, readers, tournaments
from bot.storage import games as rows
from bot.storage.backends import Target, open_database
from bot.storage.connection import Backend, Connection, Store, WorkUnit
from bot.storage.errors import LostRace
from bot.storage.leases import new_holder
from bot.storage.record import (
    NO_CLOCK,
    DamagedLog,
    Game,
    Timing,
    load_game,
    load_open_game,
)
from bot.syntax import Command, VerbKind, parse_command
from engine.errors import IllegalAction, TitanError
from engine.game.actions import Action
from engine.game.state import GameState

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 50
CACHE_SIZE = 512
AI_SLICE = 20
"""AI actions one slice plays under the channel's lock (see :mod:`bot.ai_runner`)."""
ANSWER_LIMIT = 1000
"""Actions one answer for a seat may play while the game waits for the same decision (a
safety: a decision takes a few dozen); the answer's due item is then tried again."""
RACES = 3
"""Tries of a command whose game another writer changes first (a shared database)."""
BUSY = (
    "This game was changed elsewhere at the same moment, again and again: nothing was done. "
    "Please try again."
)
#: Called with the game after each AI action is stored (progress bars, benchmarks).
Observer = Callable[[Game], None]
#: Chooses the action for a seat (a passed deadline's answer), in a worker thread.
Chooser = Callable[[GameState, int], Action]
#: Work done in the transaction of a stored change (a due item marked done).
Finish = Callable[[Connection], Awaitable[None]]
SCHEDULER = Caller(0, "titanbot", on_behalf=True)
"""Who the bot's own notices come from (a reminder, a paused game)."""


#: An organiser's tool run by :meth:`GameService.change`: the context, the channel's game.
Work = Callable[..., Awaitable[Replies]]


def _made(game: Game, decision: str) -> bool:
    """Whether ``game`` no longer waits for ``decision`` (it was made, or the game is over)."""
    decided = decision_of(game.state)
    return decided is None or decided.key != decision


def _final_card(replies: Replies) -> bool:
    """Whether the channel's news is a game's end with its final card to draw."""
    shown = replies.public.picture if replies.public is not None else None
    return shown is not None and shown.kind is PictureKind.FINAL


SEED_BITS = 128
"""Bits of a game's seed: too many to be found by testing guesses against public dice."""


def random_seed() -> int:
    """A fresh game seed of 128 bits (drawn when a game starts, then stored)."""
    return secrets.randbits(SEED_BITS)


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
        self._cache_size = cache_size
        self._cache: OrderedDict[int, Game] = OrderedDict()
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
        """A stored message's picture, drawn from its game while the game is still at the
        message's version (else a newer message carries the newer picture)."""
        game = await self.game_in(channel)
        if game is None or game.id != game_id:
            game = await self._finished(game_id)
        if game is None or game.state is None or game.n != version:
            return None
        picture = drawing.of(game.state)
        if picture.kind is PictureKind.FINAL:  # read from the whole log (the game is over)
            picture = replace(picture, course=await self._course(game))
        image = await self.painter.draw(picture, channel)
        return (picture, image) if image is not None else None

    async def _course(self, game: Game) -> Course | None:
        """How ``game`` went (None when its log cannot be replayed: no picture then)."""
        try:
            return await game_course(self.db, game.row)
        except DamagedLog as exc:
            log.warning("game %s: its course cannot be read: %s", game.id, exc)
            return None

    async def _finished(self, game_id: int) -> Game | None:
        """A game no longer open (over, cancelled), loaded to draw its last picture."""
        try:
            async with self.db.reading() as db:
                row = await rows.game(db, game_id)
                if row is None or row.damaged is not None:
                    return None
                return await load_game(db, row)
        except DamagedLog:
            return None

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
            return await self._ai_after(place, replies)

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
            return await self._dispatch(self._context(place, caller), command=command, game=game)
        run = partial(self._dispatch, command=command)
        replies = await self._stored(place, caller, run, game, reply_to, note)
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
                self._cache.pop(channel, None)
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
            return await self._ai_after(place, Replies(), limit)

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
            return await self._ai_after(place, replies)

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
    ) -> Replies:
        """Run a command that changes something: the change and what it must tell are one
        transaction (a unit); the deliverer is woken once it is committed. ``run`` gets
        the context and ``game=`` the channel's game, taken for the unit (its revision
        claimed: :class:`LostRace` when another writer changed it since it was loaded)."""
        channel = place.channel
        cached = self._cache.get(channel)
        try:
            async with self.db.unit() as unit:
                if game is not None:
                    revision = await rows.claim(unit.connection, game.id, game.row.revision)
                    game = replace(game, row=replace(game.row, revision=revision))
                if not caller.on_behalf:  # their own command: they may have opened DMs
                    await rows.reopen_dms(unit.connection, caller.user)
                replies = await run(self._context(place, caller, unit), game=game)
                if note is not None and replies.public is not None:
                    text = f"{note}\n{replies.public.text}"
                    replies = replace(replies, public=replace(replies.public, text=text))
                replies = await self._told(unit, place, caller, replies, reply_to, game)
        except BaseException:
            self._restore(channel, cached)  # the cache may hold what was not committed
            raise
        self._wake(channel, replies)
        return replies

    async def _told(
        self,
        unit: WorkUnit,
        place: Place,
        caller: Caller,
        replies: Replies,
        reply_to: str | None,
        before: Game | None,
    ) -> Replies:
        """Queue in the outbox what ``replies`` tell, the board's choices on the news (the
        decision the game now waits for); the replies, marked stored."""
        channel = place.channel
        now = self._cache.get(channel)
        if now is not None and now.row.revision != await rows.revision(unit.connection, now.id):
            now = None  # changed by the unit in a way the cached game does not show
        if now is None:
            now = await load_open_game(unit, channel)
        if now is not None:
            self._remember(channel, now)
        if now is not None:
            by_timeout = caller.cause is not None
            actor = caller.seat_in(now) if not caller.on_behalf and now.state is not None else None
            await plan(
                unit.connection, now, self.wall_clock.now(), by_timeout=by_timeout, actor=actor
            )
        elif before is not None:  # over or cancelled: nothing of it falls due any more
            await due.forget(unit.connection, before.id)
            ended = await game_ended(unit.connection, before.id)
            replies = replace(replies, elsewhere=(*replies.elsewhere, *ended))
            replies = sealed(replies, await record_digest(unit.connection, before.id))
        if replies.public is not None and now is not None and now.state is not None:
            offers = Offers.of(now.id, now.n, public_offers(now.state))
            replies = replace(replies, public=replace(replies.public, offers=offers))
        elif replies.public is not None and now is not None and replies.public.offers is None:
            seated = lobby_offers(len(now.seats), now.settings.players)
            offers = Offers.of(now.id, now.n, seated)
            replies = replace(replies, public=replace(replies.public, offers=offers))
        game = now if now is not None else before
        if replies.private and game is not None and game.state is not None:
            standins = await due.standins_of(
                unit.connection, replies.private, self.wall_clock.now()
            )
            read = await readers.readers(unit.connection, game.id) if standins else frozenset()
            replies = with_standin_copies(replies, game, standins, read)
        version = now.n if now is not None and now.state is not None else None
        if version is None and before is not None and _final_card(replies):
            version = await rows.action_count(unit.connection, before.id)  # drawn at its end
        told = Told(place, caller, game.id if game else None, version, reply_to)
        count = await write(unit.connection, told, replies)
        return replace(replies, stored=count > 0)

    def _wake(self, channel: int, replies: Replies) -> None:
        if replies.stored and self.deliverer is not None:
            self.deliverer.wake(channel)
            for notice in replies.elsewhere:
                self.deliverer.wake(notice.channel)
        if self.on_planned is not None:
            self.on_planned()

    async def play_for(
        self,
        place: Place,
        decision: str,
        choose: Chooser,
        cause: str,
        *,
        note: str | None = None,
        begun: Finish | None = None,
        done: Finish | None = None,
        once: bool = False,
        strict: bool = False,
        mention: tuple[int, ...] = (),
        elsewhere: tuple[Notice, ...] = (),
    ) -> Replies:
        """Play ``choose``'s actions for the seat ``place``'s game waits for, while it waits
        for the same ``decision`` (a passed deadline's answer: a whole movement phase, say),
        each stored with its news and with ``cause`` in the log. ``note`` heads the first
        action's news and ``begun`` runs in its transaction; ``done`` runs in the
        transaction of the action that makes the decision (the game then waits for another,
        or is over), so that a crash between two of the actions leaves the answer to be
        finished rather than marked done. The caller holds the channel's lock; the AI seats
        that follow act as after a command. With ``once`` one action only (``done`` runs in
        its transaction); ``strict`` plays nothing else when the engine refuses it (else
        the first legal action is played instead, as for the AI). ``mention`` and
        ``elsewhere`` go with the note (the organisers pinged, told in another channel)."""
        channel = place.channel
        chain: list[Replies] = []
        races = 0
        game = await self.game_in(channel)
        while game is not None and len(chain) < (1 if once else ANSWER_LIMIT):
            decided = decision_of(game.state)
            if decided is None or decided.key != decision:
                break
            seat = decided.seat
            caller = Caller(game.user_of(seat), game.name_of(seat), on_behalf=True, cause=cause)
            try:
                action = await asyncio.to_thread(choose, game.playing(), seat)
                async with self.db.unit() as unit:
                    ctx = self._context(place, caller, unit)
                    if strict:
                        replies, game = await play(ctx, game, action)
                    else:
                        replies, game = await ai_play(ctx, game, seat, action)
                    if not chain and note is not None and replies.public is not None:
                        text = f"{note}\n{replies.public.text}"
                        pings = (*replies.public.mention, *mention)
                        public = replace(replies.public, text=text, mention=pings)
                        replies = replace(replies, public=public, elsewhere=elsewhere)
                    if not chain and begun is not None:
                        await begun(unit.connection)
                    if done is not None and (once or _made(game, decision)):
                        await done(unit.connection)
                    self._remember(channel, game)
                    replies = await self._told(unit, place, caller, replies, None, game)
            except LostRace as lost:  # another process moved the game on: look again
                self._cache.pop(channel, None)
                races += 1
                log.info("game %s: playing for seat %s %s", game.id, seat, lost)
                game = await self.game_in(channel) if races < RACES else None
                continue
            except Exception:
                self._cache.pop(channel, None)
                log.exception("game %s: playing for seat %s failed", game.id, seat)
                break
            self._wake(channel, replies)
            chain.append(replies)
        return await self._ai_after(place, merge(Replies(), chain))

    async def tell(
        self, place: Place, game: Game, replies: Replies, done: Finish | None = None
    ) -> Replies:
        """Store what the bot says of its own accord about ``game`` (a reminder, a notice),
        with ``done`` in the same transaction. The caller holds the channel's lock."""
        async with self.db.unit() as unit:
            if done is not None:
                await done(unit.connection)
            replies = await self._told(unit, place, SCHEDULER, replies, None, game)
        self._wake(place.channel, replies)
        return replies

    async def announce(self, place: Place, replies: Replies) -> Replies:
        """Store what the bot says of its own accord where no game is being played (a
        tournament's news in its organiser's channel)."""
        async with self.lock(place.channel), self.db.unit() as unit:
            told = Told(place, SCHEDULER)
            count = await write(unit.connection, told, replies)
        replies = replace(replies, stored=count > 0)
        self._wake(place.channel, replies)
        return replies

    def _context(self, place: Place, caller: Caller, db: Store | None = None) -> Context:
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

    async def _ai_after(self, place: Place, first: Replies, limit: int | None = None) -> Replies:
        """``first`` merged with the news of the AI slice that follows it (the caller holds
        the channel's lock); when the game still waits for an AI seat after the slice, the
        runner goes on with it in the background. When the runner plays the game already,
        it goes on after the lock's holder: no slice is played here.

        With ``limit`` (:meth:`advance`'s), at most ``limit`` actions and nothing after.
        """
        if limit is not None:
            played = await self.ai_slice(place, limit, None)
            return merge(first, played.chain)
        if self.ai_limit <= 0:
            return first
        if self.ai.busy(place.channel):
            self.ai.wake(place)  # it looks once more before it stops
            return first
        played = await self.ai_slice(place)
        self.ai.count(place.channel, played)
        if played.more:
            self.ai.wake(place)
        elif played.failed:
            self.ai.failed(place)
        return merge(first, played.chain)

    async def ai_slice(
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
        most = self.ai_limit if most is None else most
        played = Slice()
        races = 0
        try:
            game = await self.game_in(channel) if most > 0 else None
        except Exception:
            log.exception("channel %s: loading the game for its AI seats failed", channel)
            played.failed = True
            return played
        if game is None or waiting_ai(game) is None:
            await self.ai.let_go(channel)
            return played
        if not await self.ai.hold(channel):
            played.elsewhere = True
            return played
        began = time.perf_counter()
        while game is not None and (seat := waiting_ai(game)) is not None:
            spent = seconds is not None and time.perf_counter() - began >= seconds
            if len(played.chain) >= most or (played.chain and spent):
                played.more = True
                return played
            ai = ai_caller(game, seat)
            try:
                action = await ai_choice(game, seat)
                async with self.db.unit() as unit:
                    replies, game = await ai_play(
                        self._context(place, ai, unit), game, seat, action
                    )
                    self._remember(channel, game)
                    replies = await self._told(unit, place, ai, replies, None, game)
            except LostRace as lost:  # another process moved the game on: go on from there
                self._cache.pop(channel, None)
                races += 1
                log.info("game %s: the AI of seat %s %s", game.id, seat, lost)
                if races >= RACES:  # it plays them too: it goes on with them
                    played.elsewhere = True
                    return played
                game = await self.game_in(channel)
                continue
            except Exception:
                self._cache.pop(channel, None)
                log.exception("game %s: the AI of seat %s failed", game.id, seat)
                played.failed = True
                return played
            self._wake(channel, replies)
            played.chain.append(replies)
            if self.on_ai_action is not None:
                self.on_ai_action(game)
        await self.ai.let_go(channel)
        return played

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
            self._cache.pop(channel, None)
            return await LOBBY[command.verb](ctx, game, command.args())
        if game is None:
            raise IllegalAction("there is no game in this channel: open one with `new`")
        replies, updated = await play(ctx, game, command)
        self._remember(channel, updated)
        return replies

    async def _failed(self, place: Place, command: Command | Action | str) -> Replies:
        """After an unexpected failure: the damage notice when the rows of the channel's
        game (then marked damaged), of the tournament concerned or of the server's ratings
        are damaged (:mod:`bot.records.diagnosis`); else the apology for a bug."""
        try:
            async with self.db.reading() as db:
                damage = await diagnose(db, place.channel, place.guild, command)
        except Exception:
            log.exception(
                "channel %s: the rows could not be checked after a failure", place.channel
            )
            damage = None
        if damage is None:
            return self._apology(place, command)
        log.warning(
            "channel %s: %r failed on damaged rows: %s", place.channel, str(command), damage
        )
        self._cache.pop(place.channel, None)
        if damage.game is not None:
            await self.mark_damaged(damage.game, place.channel, damage.reason)
        return Replies.refusal(damage.notice())

    def _apology(self, place: Place, command: Command | Action | str) -> Replies:
        error_id = secrets.token_hex(4)
        game = self._cache.pop(place.channel, None)
        log.exception(
            "error %s: game %s (channel %s) failed on %r",
            error_id,
            game.id if game else "?",
            place.channel,
            str(command),
        )
        apology = Replies.refusal(
            f"Sorry, something went wrong on our side (error {error_id}). "
            "`status` shows where the game stands."
        )
        return replace(apology, fault=True)

    def _restore(self, channel: int, cached: Game | None) -> None:
        """Put back the game cached before a unit that did not commit."""
        if cached is None:
            self._cache.pop(channel, None)
        elif self._cache.get(channel) is not cached:
            self._remember(channel, cached)

    def _remember(self, channel: int, game: Game) -> None:
        if not game.row.status.is_open:
            self._cache.pop(channel, None)
            return
        self._cache[channel] = game
        self._cache.move_to_end(channel)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def tournament_names(self, guild: int | None) -> list[str]:
        """The names of the server's tournaments, the newest first (for autocomplete)."""
        async with self.db.reading() as db:
            found = await tournaments.names_of_guild(db, guild)
        return list(reversed(found))

    async def game_in(self, channel: int) -> Game | None:
        """The open game (lobby or active) of ``channel``, from the cache or the database.

        A game whose record cannot be read back is marked damaged (with a warning in the
        log) and is not open any more: None, and :meth:`damage_notice_in` explains it.
        """
        game = self._cache.get(channel)
        if game is not None and self.db.shared and not await self._current(game):
            if self._cache.get(channel) is game:  # another process changed it
                del self._cache[channel]
            game = None
        if game is not None:
            if channel in self._cache:  # (the check above may have let others run)
                self._cache.move_to_end(channel)
            return game
        try:
            game = await load_open_game(self.db, channel)
        except DamagedLog as damage:
            await self._mark_damaged(channel, damage)
            return None
        if game is None:
            return None
        self._remember(channel, game)
        return game

    async def _current(self, game: Game) -> bool:
        """Whether the cached ``game`` is still as stored (its revision unchanged)."""
        async with self.db.reading() as db:
            return await rows.revision(db, game.id) == game.row.revision

    async def _mark_damaged(self, channel: int, damage: DamagedLog) -> None:
        assert damage.row is not None
        await self.mark_damaged(damage.row.id, channel, damage.reason)
        log.warning("game %s (channel %s) is damaged: %s", damage.row.id, channel, damage)

    async def mark_damaged(self, game_id: int, channel: int, reason: str) -> bool:
        """Record that ``game_id`` cannot be played on (``reason``: what is damaged) and,
        the first time, tell its channel the damage notice, whoever met the damage (a
        command, a deadline, a reminder): its players learn at once why it stopped, and
        what to do. Whether this call marked it."""
        self._cache.pop(channel, None)
        async with self.db.unit() as unit:
            newly = await rows.mark_damaged(unit.connection, game_id, reason)
            if newly:
                notice = Replies(public=Message(damage_notice(game_id, reason)))
                told = Told(Place(channel), SCHEDULER, game=game_id)
                await write(unit.connection, told, notice)
        if newly:
            self._wake(channel, Replies(stored=True))
        return newly

    async def damage_notice_in(self, channel: int) -> str | None:
        """The explanation of ``channel``'s damaged game, while no other game is open."""
        async with self.db.reading() as db:
            if await rows.open_game(db, channel) is not None:
                return None
            row = await rows.damaged_game(db, channel)
        if row is None or row.damaged is None:
            return None
        return damage_notice(row.id, row.damaged)

    async def set_dms_closed(self, user: int, closed: bool = True) -> None:
        """Remember that ``user`` does (not) accept DMs; their private news then stops."""
        async with self.db.transaction() as db:
            await rows.set_dms_closed(db, user, closed)

    def forget(self, channel: int | None = None) -> None:
        """Drop cached games (all, or one channel's); they reload from the database."""
        if channel is None:
            self._cache.clear()
        else:
            self._cache.pop(channel, None)


__all__ = ["Caller", "GameService", "Place", "Replies", "Version"]
