"""Tournaments as stored: the tournament, its entrants, its heats' tables, the results of
finished games (every rated game's, tournament or not) and the ratings they gave.

The rules of a tournament (seating, standings, ratings) are pure functions in
:mod:`bot.tournament`; this module only reads and writes their rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bot.names import told_apart
from bot.storage.connection import Connection
from bot.storage.games import now

SIGNUP, CLOSED, OVER = "signup", "closed", "over"
OPENING, PLAYING, DONE = "opening", "playing", "over"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild: int | None
    name: str
    status: str
    settings: dict[str, Any]
    seed: int
    channel: int
    """Where the organiser runs it (its news goes there)."""


@dataclass(frozen=True)
class EntrantRow:
    user: int
    """Who the entrant is (an AI entrant's AI user id): entrants are keyed by it alone."""
    name: str
    """The name shown: the one signed up with, numbered when it reads the same as an
    earlier entrant's (``Ann 2``: :func:`bot.names.told_apart`)."""
    joined: int
    """The order of sign-up (1, 2, …)."""
    eliminator_from: int | None = None
    """The heat from which the entrant plays as an eliminator only, if any."""


@dataclass(frozen=True)
class TableRow:
    heat: int
    number: int
    players: tuple[int, ...]
    status: str
    channel: int | None = None
    game: int | None = None
    paused_at: float | None = None
    """Since when the organiser has paused the table (its clock stopped), if they have."""

    @property
    def label(self) -> str:
        """``HEAT.TABLE``, as organisers name a table (``2.3``)."""
        return f"{self.heat}.{self.number}"


@dataclass(frozen=True)
class ResultRow:
    game: int
    guild: int | None
    tournament: int | None
    heat: int | None
    finished_at: str
    rated: bool
    result: dict[str, Any]


_TOURNAMENT = "id, guild, name, status, settings, seed, channel"


def _tournament(row: Iterable[Any]) -> TournamentRow:
    id_, guild, name, status, settings, seed, channel = row
    return TournamentRow(id_, guild, name, status, json.loads(settings), seed, channel)


TOURNAMENT_SEEDS = 1 << 62
"""A tournament's seed is below this (its draws are public; a game's seed is not)."""


async def create(
    db: Connection,
    guild: int | None,
    name: str,
    settings: dict[str, Any],
    seed: int,
    channel: int,
) -> int:
    # A tournament's draws are public (its log shows them): its seed need not be secret,
    # and a game's 128-bit seed is cut to what an INTEGER column holds.
    seed %= TOURNAMENT_SEEDS
    cursor = await db.execute(
        "INSERT INTO tournaments (guild, name, status, settings, seed, channel, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild, name, SIGNUP, json.dumps(settings, sort_keys=True), seed, channel, now()),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


async def named(db: Connection, guild: int | None, name: str) -> TournamentRow | None:
    async with db.execute(
        f"SELECT {_TOURNAMENT} FROM tournaments WHERE coalesce(guild, 0) = ?"
        " AND lower(name) = lower(?)",
        (guild or 0, name),
    ) as cursor:
        row = await cursor.fetchone()
    return _tournament(row) if row else None


async def by_id(db: Connection, tournament: int) -> TournamentRow | None:
    async with db.execute(
        f"SELECT {_TOURNAMENT} FROM tournaments WHERE id = ?", (tournament,)
    ) as cursor:
        row = await cursor.fetchone()
    return _tournament(row) if row else None


async def of_guild(db: Connection, guild: int | None) -> list[TournamentRow]:
    async with db.execute(
        f"SELECT {_TOURNAMENT} FROM tournaments WHERE coalesce(guild, 0) = ? ORDER BY id",
        (guild or 0,),
    ) as cursor:
        return [_tournament(r) async for r in cursor]


async def names_of_guild(db: Connection, guild: int | None) -> list[str]:
    """The names of a server's tournaments, the oldest first (no other column is read: a
    tournament's damaged settings leave the others' names readable)."""
    async with db.execute(
        "SELECT name FROM tournaments WHERE coalesce(guild, 0) = ? ORDER BY id", (guild or 0,)
    ) as cursor:
        return [str(r[0]) async for r in cursor]


async def set_status(db: Connection, tournament: int, status: str) -> None:
    await db.execute("UPDATE tournaments SET status = ? WHERE id = ?", (status, tournament))


# --- entrants ---------------------------------------------------------------------------------
async def entrants(db: Connection, tournament: int) -> list[EntrantRow]:
    async with db.execute(
        "SELECT user, name, joined, eliminator_from FROM entrants WHERE tournament = ?"
        " ORDER BY joined, user",
        (tournament,),
    ) as cursor:
        found = [EntrantRow(*r) async for r in cursor]
    shown = told_apart([e.name for e in found])
    return [replace(e, name=name) for e, name in zip(found, shown, strict=True)]


async def hold(db: Connection, tournament: int) -> None:
    """Hold the tournament's row until the transaction ends, before reading what it decides
    on: its entrants and tables change under one writer at a time, across processes too
    (PostgreSQL's row lock; SQLite has one writer already)."""
    await db.execute("UPDATE tournaments SET status = status WHERE id = ?", (tournament,))


async def add_entrant(db: Connection, tournament: int, user: int, name: str) -> bool:
    """Sign ``user`` up; False when they were already."""
    async with db.execute(
        "SELECT coalesce(max(joined), 0) + 1 FROM entrants WHERE tournament = ?", (tournament,)
    ) as cursor:
        row = await cursor.fetchone()
    assert row is not None
    cursor = await db.execute(
        "INSERT INTO entrants (tournament, user, name, joined) VALUES (?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING",
        (tournament, user, name, int(row[0])),
    )
    return cursor.rowcount > 0


async def remove_entrant(db: Connection, tournament: int, user: int) -> bool:
    cursor = await db.execute(
        "DELETE FROM entrants WHERE tournament = ? AND user = ?", (tournament, user)
    )
    return cursor.rowcount > 0


async def replace_entrant(db: Connection, tournament: int, old: int, new: int, name: str) -> None:
    """``new`` takes ``old``'s place among the entrants (their sign-up order kept)."""
    await db.execute(
        "UPDATE entrants SET user = ?, name = ? WHERE tournament = ? AND user = ?",
        (new, name, tournament, old),
    )


async def set_eliminator(db: Connection, tournament: int, user: int, heat: int) -> None:
    await db.execute(
        "UPDATE entrants SET eliminator_from = ? WHERE tournament = ? AND user = ?",
        (heat, tournament, user),
    )


# --- tables -----------------------------------------------------------------------------------
def _table(row: Iterable[Any]) -> TableRow:
    heat, number, players, status, channel, game, paused_at = row
    return TableRow(heat, number, tuple(json.loads(players)), status, channel, game, paused_at)


_TABLE = "heat, number, players, status, channel, game, paused_at"


async def tables(db: Connection, tournament: int, heat: int | None = None) -> list[TableRow]:
    async with db.execute(
        f"SELECT {_TABLE} FROM tables WHERE tournament = ? AND heat = coalesce(?, heat)"
        " ORDER BY heat, number",
        (tournament, heat),
    ) as cursor:
        return [_table(r) async for r in cursor]


async def add_tables(
    db: Connection, tournament: int, heat: int, seated: Iterable[tuple[int, ...]]
) -> None:
    await db.executemany(
        "INSERT INTO tables (tournament, heat, number, players, status) VALUES (?, ?, ?, ?, ?)",
        [
            (tournament, heat, number, json.dumps(list(players)), OPENING)
            for number, players in enumerate(seated, start=1)
        ],
    )


async def add_table(
    db: Connection,
    tournament: int,
    heat: int,
    number: int,
    players: tuple[int, ...],
    status: str = OPENING,
) -> None:
    """One table (a bracket's bye is a table of one player, over at once)."""
    await db.execute(
        "INSERT INTO tables (tournament, heat, number, players, status) VALUES (?, ?, ?, ?, ?)",
        (tournament, heat, number, json.dumps(list(players)), status),
    )


async def table(db: Connection, tournament: int, heat: int, number: int) -> TableRow | None:
    async with db.execute(
        f"SELECT {_TABLE} FROM tables WHERE tournament = ? AND heat = ? AND number = ?",
        (tournament, heat, number),
    ) as cursor:
        row = await cursor.fetchone()
    return _table(row) if row else None


async def set_paused(
    db: Connection, tournament: int, heat: int, number: int, at: float | None
) -> None:
    """Pause the table (``at``: since when) or resume it (None)."""
    await db.execute(
        "UPDATE tables SET paused_at = ? WHERE tournament = ? AND heat = ? AND number = ?",
        (at, tournament, heat, number),
    )


async def paused_since(db: Connection, game: int) -> float | None:
    """Since when the table ``game`` is played at is paused (None: it is not, or the game
    is no tournament's)."""
    async with db.execute("SELECT paused_at FROM tables WHERE game = ?", (game,)) as cursor:
        row = await cursor.fetchone()
    return float(row[0]) if row and row[0] is not None else None


async def set_players(
    db: Connection, tournament: int, heat: int, number: int, players: tuple[int, ...]
) -> None:
    await db.execute(
        "UPDATE tables SET players = ? WHERE tournament = ? AND heat = ? AND number = ?",
        (json.dumps(list(players)), tournament, heat, number),
    )


async def table_opened(
    db: Connection, tournament: int, heat: int, number: int, channel: int, game: int
) -> None:
    await db.execute(
        "UPDATE tables SET status = ?, channel = ?, game = ?"
        " WHERE tournament = ? AND heat = ? AND number = ?",
        (PLAYING, channel, game, tournament, heat, number),
    )


async def table_of_game(db: Connection, game: int) -> tuple[int, TableRow] | None:
    """The tournament and table a game is played at, if any."""
    async with db.execute(
        f"SELECT tournament, {_TABLE} FROM tables WHERE game = ?", (game,)
    ) as cursor:
        row = await cursor.fetchone()
    return (int(row[0]), _table(row[1:])) if row else None


async def table_over(db: Connection, game: int) -> None:
    await db.execute("UPDATE tables SET status = ? WHERE game = ?", (DONE, game))


async def opening_tables(db: Connection) -> list[tuple[int, TableRow]]:
    """Every table still to be opened, in every tournament (a heat being seated); the
    tables whose row cannot be read are left out (:func:`unreadable_opening_tables`)."""
    return [(t, table) for t, table in await _opening(db) if isinstance(table, TableRow)]


async def unreadable_opening_tables(db: Connection) -> list[tuple[int, int, int, str]]:
    """The tables still to be opened whose row cannot be read: (tournament, heat, number,
    what is wrong), so that one damaged row holds up its own tournament only."""
    return [(t, *table) for t, table in await _opening(db) if not isinstance(table, TableRow)]


async def _opening(db: Connection) -> list[tuple[int, TableRow | tuple[int, int, str]]]:
    async with db.execute(
        f"SELECT tournament, {_TABLE} FROM tables WHERE status = ? ORDER BY tournament, heat,"
        " number",
        (OPENING,),
    ) as cursor:
        found = [tuple(r) async for r in cursor]
    read: list[tuple[int, TableRow | tuple[int, int, str]]] = []
    for tournament, *row in found:
        try:
            read.append((int(tournament), _table(row)))
        except (ValueError, TypeError, RecursionError) as exc:
            read.append((int(tournament), (row[0], row[1], f"its players cannot be read ({exc})")))
    return read


# --- results and ratings ----------------------------------------------------------------------
async def add_result(db: Connection, row: ResultRow) -> bool:
    """Store a finished game's result once; False when it was stored already."""
    cursor = await db.execute(
        "INSERT INTO results (game, guild, tournament, heat, finished_at, rated, result)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (
            row.game,
            row.guild,
            row.tournament,
            row.heat,
            row.finished_at,
            int(row.rated),
            json.dumps(row.result, sort_keys=True),
        ),
    )
    return cursor.rowcount > 0


def _result(r: Iterable[Any]) -> ResultRow:
    game, guild, tournament, heat, finished_at, rated, result = r
    return ResultRow(game, guild, tournament, heat, finished_at, bool(rated), json.loads(result))


_RESULT = "game, guild, tournament, heat, finished_at, rated, result"


async def results_of_tournament(db: Connection, tournament: int) -> list[ResultRow]:
    async with db.execute(
        f"SELECT {_RESULT} FROM results WHERE tournament = ? ORDER BY finished_at, game",
        (tournament,),
    ) as cursor:
        return [_result(r) async for r in cursor]


async def rated_results(db: Connection, guild: int | None) -> list[ResultRow]:
    """The rated results of a server (None: the terminal's), in the order they finished."""
    async with db.execute(
        f"SELECT {_RESULT} FROM results WHERE rated = 1 AND coalesce(guild, 0) = ?"
        " ORDER BY finished_at, game",
        (guild or 0,),
    ) as cursor:
        return [_result(r) async for r in cursor]


async def rated_guilds(db: Connection) -> list[int | None]:
    """The servers with a rated result (None: the terminal's games)."""
    async with db.execute(
        "SELECT guild FROM results WHERE rated = 1 GROUP BY guild ORDER BY coalesce(guild, 0)"
    ) as cursor:
        return [r[0] async for r in cursor]


async def ratings(
    db: Connection, guild: int | None, users: Iterable[int] | None = None
) -> dict[int, tuple[float, float, int]]:
    """user → (mu, sigma, games) in a server: of ``users`` only, when given."""
    if users is None:
        async with db.execute(
            "SELECT user, mu, sigma, games FROM ratings WHERE guild = ?", (guild or 0,)
        ) as cursor:
            return {int(r[0]): (float(r[1]), float(r[2]), int(r[3])) async for r in cursor}
    wanted = sorted(set(users))
    found: dict[int, tuple[float, float, int]] = {}
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        marks = ", ".join("?" * len(part))
        async with db.execute(
            f"SELECT user, mu, sigma, games FROM ratings WHERE guild = ? AND user IN ({marks})",
            (guild or 0, *part),
        ) as cursor:
            found.update({int(r[0]): (float(r[1]), float(r[2]), int(r[3])) async for r in cursor})
    return found


async def set_ratings(
    db: Connection, guild: int | None, values: dict[int, tuple[float, float, int]]
) -> None:
    await db.executemany(
        "INSERT INTO ratings (guild, user, mu, sigma, games) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild, user) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = excluded.games",
        [(guild or 0, user, mu, sigma, games) for user, (mu, sigma, games) in values.items()],
    )


async def names_of(db: Connection, users: Iterable[int]) -> dict[int, str]:
    """The name each user last took a seat under (or signed up with)."""
    wanted = sorted(set(users))
    found: dict[int, str] = {}
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        marks = ", ".join("?" * len(part))
        async with db.execute(
            f"SELECT user, name FROM entrants WHERE user IN ({marks})"
            f" UNION ALL SELECT user, name FROM seats WHERE user IN ({marks})",
            (*part, *part),
        ) as cursor:
            found.update({int(r[0]): str(r[1]) async for r in cursor})
    return found


async def log(db: Connection, tournament: int, text: str) -> None:
    """Note what the tournament decided (a roll, a ruling) in its log."""
    await db.execute(
        "INSERT INTO tournament_log (tournament, at, text) VALUES (?, ?, ?)",
        (tournament, now(), text),
    )


async def logged(db: Connection, tournament: int) -> list[tuple[str, str]]:
    async with db.execute(
        "SELECT at, text FROM tournament_log WHERE tournament = ? ORDER BY id", (tournament,)
    ) as cursor:
        return [(str(r[0]), str(r[1])) async for r in cursor]
