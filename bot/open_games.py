"""The open games the service keeps in memory, one a channel, the least recently used
dropped first; loaded from the database when not kept (or, on a shared database, when
another process changed them since).

A game whose record cannot be read back (:class:`~bot.storage.record.DamagedLog`) is not
open: loading it calls ``on_damaged`` (the service marks it and tells its channel) and
gives None.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.storage import games as rows
from bot.storage.connection import Backend
from bot.storage.record import DamagedLog, Game, load_game, load_open_game, state_at
from engine.game.state import GameState

OnDamaged = Callable[[int, DamagedLog], Awaitable[None]]
"""Told the channel and the damage of a game found damaged on loading."""


class OpenGames:
    def __init__(self, db: Backend, size: int, on_damaged: OnDamaged) -> None:
        self.db = db
        self.size = size
        self._on_damaged = on_damaged
        self._kept: OrderedDict[int, Game] = OrderedDict()

    def kept(self, channel: int) -> Game | None:
        """The game kept for ``channel``, as it is (not checked against the database)."""
        return self._kept.get(channel)

    async def game_in(self, channel: int) -> Game | None:
        """The open game (lobby or active) of ``channel``: the one kept, else loaded."""
        game = self._kept.get(channel)
        if game is not None and self.db.shared and not await self._current(game):
            if self._kept.get(channel) is game:  # another process changed it
                del self._kept[channel]
            game = None
        if game is not None:
            if channel in self._kept:  # (the check above may have let others run)
                self._kept.move_to_end(channel)
            return game
        try:
            game = await load_open_game(self.db, channel)
        except DamagedLog as damage:
            await self._on_damaged(channel, damage)
            return None
        if game is None:
            return None
        self.remember(channel, game)
        return game

    async def finished(self, game_id: int) -> Game | None:
        """A game no longer open (over, cancelled), loaded to draw its last picture."""
        try:
            async with self.db.reading() as db:
                row = await rows.game(db, game_id)
                if row is None or row.damaged is not None:
                    return None
                return await load_game(db, row)
        except DamagedLog:
            return None

    async def state_at(self, game: Game, n: int) -> GameState | None:
        """``game``'s state after its first ``n`` actions (None: not in its log, or the
        log cannot be read back there)."""
        try:
            async with self.db.reading() as db:
                return await state_at(db, game.row, n)
        except DamagedLog:
            return None

    def remember(self, channel: int, game: Game) -> None:
        """Keep ``game`` for ``channel`` (a game no longer open is dropped instead)."""
        if not game.row.status.is_open:
            self._kept.pop(channel, None)
            return
        self._kept[channel] = game
        self._kept.move_to_end(channel)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def restore(self, channel: int, kept: Game | None) -> None:
        """Put back the game kept before a unit that did not commit."""
        if kept is None:
            self._kept.pop(channel, None)
        elif self._kept.get(channel) is not kept:
            self.remember(channel, kept)

    def drop(self, channel: int | None = None) -> Game | None:
        """Drop the games kept (all, or one channel's: returned); they reload from the
        database."""
        if channel is None:
            self._kept.clear()
            return None
        return self._kept.pop(channel, None)

    async def _current(self, game: Game) -> bool:
        """Whether the kept ``game`` is still as stored (its revision unchanged)."""
        async with self.db.reading() as db:
            return await rows.revision(db, game.id) == game.row.revision
