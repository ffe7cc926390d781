"""Users' battle choices made for them (:mod:`bot.handlers.preferences`,
:mod:`bot.handlers.autostrike`): ``autostrike``, which of their strike-phase decisions
are made for them, and ``fighton``, whether their chances to concede outright are answered
"fight on". Plain queries inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from bot.storage.connection import Connection

Mode = Literal["off", "forced", "all"]
"""Nothing; the strike-phase decisions that leave no choice
(:func:`engine.game.forced.forced_action`); every strike-phase decision."""
MODES: tuple[Mode, ...] = get_args(Mode)


@dataclass(frozen=True)
class Autoplay:
    """What a user has made for them in battle: their strike phases at ``strikes``; their
    concession windows (:func:`engine.game.forced.concession_window`) with ``fight_on``."""

    strikes: Mode = "off"
    fight_on: bool = False


async def set_autostrike(db: Connection, user: int, mode: Mode) -> None:
    await db.execute(
        "INSERT INTO users (id, autostrike) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET autostrike = excluded.autostrike",
        (user, mode),
    )


async def set_fighton(db: Connection, user: int, on: bool) -> None:
    await db.execute(
        "INSERT INTO users (id, fighton) VALUES (?, ?)"
        " ON CONFLICT (id) DO UPDATE SET fighton = excluded.fighton",
        (user, int(on)),
    )


async def autoplay_of(db: Connection, users: Iterable[int]) -> dict[int, Autoplay]:
    """The choices of those of ``users`` who turned ``autostrike`` or ``fighton`` on (the
    others have everything off)."""
    ids = [user for user in users if user >= 0]
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    async with db.execute(
        "SELECT id, autostrike, fighton FROM users"
        f" WHERE (autostrike <> 'off' OR fighton = 1) AND id IN ({marks})",
        ids,
    ) as cursor:
        return {int(row[0]): Autoplay(_mode(row[1]), bool(row[2])) async for row in cursor}


async def autostrike_modes(db: Connection, users: Iterable[int]) -> dict[int, Mode]:
    """The mode of those of ``users`` who turned ``autostrike`` on (the others are off)."""
    chosen = await autoplay_of(db, users)
    return {user: choice.strikes for user, choice in chosen.items() if choice.strikes != "off"}


def _mode(text: object) -> Mode:
    return next(mode for mode in MODES if mode == text)
