"""Users' ``autostrike`` (:mod:`bot.handlers.preferences`): which of their battle
decisions are made for them (:mod:`bot.handlers.autostrike`). Plain queries inside the
caller's transaction."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from bot.storage.connection import Connection

Mode = Literal["off", "forced", "all"]
"""Nothing; the strike-phase decisions that leave no choice
(:func:`engine.game.forced.forced_action`); every strike-phase decision."""
MODES: tuple[Mode, ...] = get_args(Mode)


async def set_autostrike(db: Connection, user: int, mode: Mode) -> None:
    await db.execute(
        "INSERT INTO users (id, autostrike) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET autostrike = excluded.autostrike",
        (user, mode),
    )


async def autostrike_modes(db: Connection, users: Iterable[int]) -> dict[int, Mode]:
    """The mode of those of ``users`` who turned ``autostrike`` on (the others are off)."""
    ids = [user for user in users if user >= 0]
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    async with db.execute(
        f"SELECT id, autostrike FROM users WHERE autostrike <> 'off' AND id IN ({marks})", ids
    ) as cursor:
        return {int(row[0]): _mode(row[1]) async for row in cursor}


def _mode(text: object) -> Mode:
    return next(mode for mode in MODES if mode == text)
