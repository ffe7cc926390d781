"""The game service: submit a command for a channel and a user, get the replies back.

One lock per channel (one game per channel) serialises its commands while games in
other channels run in parallel. A command is parsed, checked and applied, then stored in
one transaction before anyone is told. Replies come back with their pictures named but
not drawn: the transport answers first, then asks :meth:`GameService.paint`, which draws
off the command's path in a bounded pool (:class:`~bot.painting.Painter`). A
:class:`~engine.errors.TitanError` becomes an ephemeral refusal (nothing changed); anything
else is logged with the game id and answered with an apology.

A game whose stored record cannot be read back (:class:`~bot.storage.record.DamagedLog`)
is marked damaged when it is loaded, with a warning in the log; it leaves its channel,
whose commands are then answered with the damage notice (:mod:`bot.records.damage`)
until a fresh game is opened; ``export`` (:mod:`bot.records.command`) still reads it.

The operator's :class:`~bot.config.Limits` bound open games and history (the handlers
check them) and each user's command rate (checked here, before anything else: a command
over the rate is refused with when to try again; AI seats are exempt).

After every command that is not refused, the AI seats the game waits for act (each
action its own transaction), up to ``ai_limit`` actions; their news joins the command's
reply. A game left waiting for an AI (the limit reached, a restart) goes on with the next
command, ``status`` included, or with :meth:`GameService.advance`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.config import NO_LIMITS, Limits
from bot.context import Caller, Context, Place, Version
from bot.handlers.ai_seats import ai_turn, merge, waiting_ai
from bot.handlers.info import INFO
from bot.handlers.lobby import LOBBY
from bot.handlers.play import play
from bot.offers import Offers, public_offers
from bot.painting import Painter
from bot.pictures import Renderer
from bot.ratelimit import CommandRate
from bot.records.command import RECORDS
from bot.records.damage import GameDamaged, damage_notice
from bot.replies import Message, Replies
from bot.storage import Database
from bot.storage import games as rows
from bot.storage.record import DamagedLog, Game, load_open_game
from bot.syntax import Command, VerbKind, parse_command
from engine.errors import IllegalAction, TitanError, WrongPhase
from engine.game.actions import Action

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 50
CACHE_SIZE = 512
AI_LIMIT = 1000
"""AI actions one command may set off (a safety cap: whole AI turns fit many times)."""
WITHOUT_GAME = frozenset({"new", "help", "status", "creature", "land", "cancel"})
"""Verbs that mean something in a channel without a game; any other verb in a channel
whose game is damaged is answered with the damage notice."""
#: Called with the game after each AI action is stored (progress bars, benchmarks).
Observer = Callable[[Game], None]


STALE = "this choice is out of date: the game has moved on since it was offered"


class StaleChoice(WrongPhase):
    """A choice made for a version of the game it has moved past."""


def random_seed() -> int:
    """A fresh game seed (drawn when a game starts, then stored)."""
    return secrets.randbits(62)


class GameService:
    """Every game of one bot process, over one database."""

    def __init__(
        self,
        db: Database,
        *,
        renderer: Renderer | None = None,
        seeds: Callable[[], int] = random_seed,
        snapshot_every: int = SNAPSHOT_EVERY,
        cache_size: int = CACHE_SIZE,
        ai_limit: int = AI_LIMIT,
        on_ai_action: Observer | None = None,
        paint_in_processes: bool = False,
        limits: Limits = NO_LIMITS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db = db
        self.limits = limits
        self.ai_limit = ai_limit
        self.on_ai_action = on_ai_action
        self.renderer = renderer
        self.painter = Painter(renderer, processes=paint_in_processes)
        self._seeds = seeds
        self._snapshot_every = snapshot_every
        self._cache_size = cache_size
        self._cache: OrderedDict[int, Game] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._seating = asyncio.Lock()
        rate = limits.commands_per_minute
        self._rate = CommandRate(rate, limits.command_burst, clock) if rate else None

    @classmethod
    async def open(cls, path: Path | str, **options: Any) -> GameService:
        """A service over the database at ``path`` (created and migrated as needed)."""
        return cls(await Database.open(path), **options)

    async def close(self) -> None:
        await self.painter.close()
        await self.db.close()

    async def paint(self, message: Message | None, channel: int | None = None) -> Message | None:
        """``message`` with its picture drawn, off the command's path (see
        :class:`~bot.painting.Painter`). With ``channel``, a newer picture of that channel
        asked before this one is drawn replaces it (the message is then returned undrawn)."""
        return await self.painter.paint(message, channel)

    async def submit(
        self, place: Place, caller: Caller, text: str, *, expect: Version | None = None
    ) -> Replies:
        """Run the command line ``text`` sent by ``caller`` in ``place`` (only while the
        game is at ``expect``, when given)."""
        try:
            command = parse_command(text)
        except TitanError as exc:
            return self._over_rate(caller) or Replies.refusal(str(exc))
        return await self.execute(place, caller, command, expect=expect)

    async def act(
        self, place: Place, caller: Caller, action: Action, *, expect: Version | None = None
    ) -> Replies:
        """Run an engine action directly (buttons and select menus built from legal actions)."""
        return await self.execute(place, caller, action, expect=expect)

    async def execute(
        self,
        place: Place,
        caller: Caller,
        command: Command | Action,
        *,
        expect: Version | None = None,
    ) -> Replies:
        """Run a parsed command (or an engine action) under the channel's lock.

        With ``expect`` the command runs only if the channel's game is still at that
        version, checked under the lock: of two clicks on one button, one acts. A caller
        over their command rate is refused at once.
        """
        refused = self._over_rate(caller)
        if refused is not None:
            return refused
        async with self.lock(place.channel):
            ctx = self._context(place, caller)
            try:
                if expect is not None:
                    await self._check_version(place.channel, expect)
                replies = await self._dispatch(ctx, command)
            except TitanError as exc:
                return Replies.refusal(str(exc))
            except Exception:
                return self._apology(place, command)
            replies = await self._ai_after(ctx, replies, self.ai_limit)
            replies = await self._with_offers(place.channel, replies)
        try:
            return await self._finish(replies, caller)
        except Exception:
            # The command is stored: answer as it is.
            log.exception("finishing the replies in channel %s failed", place.channel)
            return replies

    async def advance(self, place: Place, limit: int | None = None) -> Replies:
        """Let the AI seats ``place``'s game waits for act (at most ``limit`` actions,
        default ``ai_limit``); their news, as after a command."""
        caller = Caller(0, "titanbot")
        async with self.lock(place.channel):
            ctx = self._context(place, caller)
            replies = await self._ai_after(
                ctx, Replies(), self.ai_limit if limit is None else limit
            )
            replies = await self._with_offers(place.channel, replies)
        return await self._finish(replies, caller)

    def _context(self, place: Place, caller: Caller) -> Context:
        return Context(
            self.db,
            place,
            caller,
            self._seeds,
            self._snapshot_every,
            limits=self.limits,
            seating=self._seating,
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

    async def _ai_after(self, ctx: Context, first: Replies, limit: int) -> Replies:
        """``first`` merged with the news of the AI actions that follow it.

        An AI action that fails ends the chain with a log entry only: the command and the
        AI actions before it are stored, and the game waits for the AI's next command.
        """
        channel = ctx.place.channel
        chain: list[Replies] = []
        try:
            game = await self.game_in(channel) if limit > 0 else None
        except Exception:
            log.exception("channel %s: loading the game for its AI seats failed", channel)
            return first
        while game is not None and (seat := waiting_ai(game)) is not None:
            if len(chain) >= limit:
                if limit == self.ai_limit:
                    log.warning("game %s: %d AI actions in a row, pausing", game.id, limit)
                break
            try:
                replies, game = await ai_turn(ctx, game, seat)
            except Exception:
                self._cache.pop(channel, None)
                log.exception("game %s: the AI of seat %s failed", game.id, seat)
                break
            self._remember(channel, game)
            chain.append(replies)
            if self.on_ai_action is not None:
                self.on_ai_action(game)
        return merge(first, chain)

    def lock(self, channel: int) -> asyncio.Lock:
        """The lock serialising ``channel``'s commands (held too by tools that change a
        game outside :meth:`execute`, such as an organiser replacing a player)."""
        return self._locks.setdefault(channel, asyncio.Lock())

    async def _check_version(self, channel: int, expect: Version) -> None:
        game = await self.game_in(channel)
        if game is None or game.id != expect.game or game.n != expect.n:
            raise StaleChoice(STALE)

    async def _with_offers(self, channel: int, replies: Replies) -> Replies:
        """The public message with the choices of the decision the game now waits for."""
        if replies.public is None:
            return replies
        try:
            game = await self.game_in(channel)
        except Exception:
            log.exception("channel %s: loading the game for its choices failed", channel)
            return replies
        if game is None or game.state is None:
            return replies
        offers = Offers(game.id, game.n, tuple(public_offers(game.state)))
        return replace(replies, public=replace(replies.public, offers=offers))

    async def _dispatch(self, ctx: Context, command: Command | Action) -> Replies:
        channel = ctx.place.channel
        if isinstance(command, Command) and command.verb in RECORDS:
            return await RECORDS[command.verb](ctx, command.args())
        game = await self.game_in(channel)
        if game is None and not (isinstance(command, Command) and command.verb in WITHOUT_GAME):
            notice = await self.damage_notice_in(channel)
            if notice is not None:
                raise GameDamaged(notice)
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

    def _apology(self, place: Place, command: Command | Action) -> Replies:
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

    async def _finish(self, replies: Replies, caller: Caller) -> Replies:
        """Route around closed DMs.

        The caller's own private news becomes the ephemeral answer when their DMs are
        closed; other users with closed DMs read theirs with ``legions``.
        """
        private = dict(replies.private)
        ephemeral = replies.ephemeral
        if private:
            async with self.db.reading() as db:
                closed = await rows.users_with_dms_closed(db, private)
            for user in closed:
                message = private.pop(user)
                if user == caller.user and ephemeral is None:
                    ephemeral = message
        return replace(replies, ephemeral=ephemeral, private=private)

    def _remember(self, channel: int, game: Game) -> None:
        if not game.row.status.is_open:
            self._cache.pop(channel, None)
            return
        self._cache[channel] = game
        self._cache.move_to_end(channel)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def game_in(self, channel: int) -> Game | None:
        """The open game (lobby or active) of ``channel``, from the cache or the database.

        A game whose record cannot be read back is marked damaged (with a warning in the
        log) and is not open any more: None, and :meth:`damage_notice_in` explains it.
        """
        game = self._cache.get(channel)
        if game is not None:
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

    async def _mark_damaged(self, channel: int, damage: DamagedLog) -> None:
        assert damage.row is not None
        async with self.db.transaction() as db:
            await rows.mark_damaged(db, damage.row.id, damage.reason)
        log.warning("game %s (channel %s) is damaged: %s", damage.row.id, channel, damage)

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
