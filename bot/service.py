"""The game service: submit a command for a channel and a user, get the replies back.

One lock per channel (one game per channel) serialises its commands while games in
other channels run in parallel. A command is parsed, checked and applied, then stored in
one transaction before anyone is told; pictures are drawn in a worker thread by the
pluggable renderer. A :class:`~engine.errors.TitanError` becomes an ephemeral refusal
(nothing changed); anything else is logged with the game id and answered with an apology.

After every command that is not refused, the AI seats the game waits for act (each
action its own transaction), up to ``ai_limit`` actions; their news joins the command's
reply. A game left waiting for an AI (the limit reached, a restart) goes on with the next
command, ``status`` included, or with :meth:`GameService.advance`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.context import Caller, Context, Place
from bot.handlers.ai_seats import ai_turn, merge, waiting_ai
from bot.handlers.info import INFO
from bot.handlers.lobby import LOBBY
from bot.handlers.play import play
from bot.pictures import Renderer, render_message
from bot.replies import Replies
from bot.storage import Database
from bot.storage import games as rows
from bot.storage.record import Game, build_game, fetch_game
from bot.syntax import Command, VerbKind, parse_command
from engine.errors import IllegalAction, TitanError
from engine.game.actions import Action

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 50
CACHE_SIZE = 512
AI_LIMIT = 1000
"""AI actions one command may set off (a safety cap: whole AI turns fit many times)."""
#: Called with the game after each AI action is stored (progress bars, benchmarks).
Observer = Callable[[Game], None]


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
    ) -> None:
        self.db = db
        self.ai_limit = ai_limit
        self.on_ai_action = on_ai_action
        self.renderer = renderer
        self._seeds = seeds
        self._snapshot_every = snapshot_every
        self._cache_size = cache_size
        self._cache: OrderedDict[int, Game] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    @classmethod
    async def open(cls, path: Path | str, **options: Any) -> GameService:
        """A service over the database at ``path`` (created and migrated as needed)."""
        return cls(await Database.open(path), **options)

    async def close(self) -> None:
        await self.db.close()

    async def submit(self, place: Place, caller: Caller, text: str) -> Replies:
        """Run the command line ``text`` sent by ``caller`` in ``place``."""
        try:
            command = parse_command(text)
        except TitanError as exc:
            return Replies.refusal(str(exc))
        return await self.execute(place, caller, command)

    async def act(self, place: Place, caller: Caller, action: Action) -> Replies:
        """Run an engine action directly (buttons and select menus built from legal actions)."""
        return await self.execute(place, caller, action)

    async def execute(self, place: Place, caller: Caller, command: Command | Action) -> Replies:
        """Run a parsed command (or an engine action) under the channel's lock."""
        async with self.lock(place.channel):
            ctx = Context(self.db, place, caller, self._seeds, self._snapshot_every)
            try:
                replies = await self._dispatch(ctx, command)
            except TitanError as exc:
                return Replies.refusal(str(exc))
            except Exception:
                return self._apology(place, command)
            replies = await self._ai_after(ctx, replies, self.ai_limit)
        try:
            return await self._finish(replies, caller)
        except Exception:
            # The command is stored: answer in words, without pictures.
            log.exception("finishing the replies in channel %s failed", place.channel)
            return replies

    async def advance(self, place: Place, limit: int | None = None) -> Replies:
        """Let the AI seats ``place``'s game waits for act (at most ``limit`` actions,
        default ``ai_limit``); their news, as after a command."""
        caller = Caller(0, "titanbot")
        async with self.lock(place.channel):
            ctx = Context(self.db, place, caller, self._seeds, self._snapshot_every)
            replies = await self._ai_after(
                ctx, Replies(), self.ai_limit if limit is None else limit
            )
        return await self._finish(replies, caller)

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

    async def _dispatch(self, ctx: Context, command: Command | Action) -> Replies:
        channel = ctx.place.channel
        game = await self.game_in(channel)
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
        """Draw the pictures (off the event loop) and route around closed DMs.

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
        public = await render_message(replies.public, self.renderer)
        ephemeral = await render_message(ephemeral, self.renderer)
        return replace(replies, public=public, ephemeral=ephemeral, private=private)

    def _remember(self, channel: int, game: Game) -> None:
        if not game.row.status.is_open:
            self._cache.pop(channel, None)
            return
        self._cache[channel] = game
        self._cache.move_to_end(channel)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def game_in(self, channel: int) -> Game | None:
        """The open game (lobby or active) of ``channel``, from the cache or the database."""
        game = self._cache.get(channel)
        if game is not None:
            self._cache.move_to_end(channel)
            return game
        async with self.db.reading() as db:
            row = await rows.open_game(db, channel)
            stored = await fetch_game(db, row) if row else None
        if stored is None:
            return None
        game = await asyncio.to_thread(build_game, stored)
        self._remember(channel, game)
        return game

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


__all__ = ["Caller", "GameService", "Place", "Replies"]
