"""Whether a command failed on damaged rows, and whose they are.

A command that fails unexpectedly either hit a bug or read a row it cannot read (a bad
write, a hand edit). Before the bot apologises for a bug, it reads the rows of the
channel's game and of the tournament concerned as ``check-db`` reads them: damage found
there is told plainly (what is damaged, what to do) instead, and concerns only that game
or tournament; every other channel and tournament goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.records.check_rows import RowProblem, check_rows
from bot.records.damage import damage_notice
from bot.storage.connection import Connection
from bot.syntax import Command
from engine.game.actions import Action

RATINGS = ("ratings", "rating")
"""The commands that read a server's ratings and every rated result."""


@dataclass(frozen=True)
class Damage:
    """The first damaged rows found of the channel's open game (``game``: its id), else of
    the tournament concerned (``tournament``: its name), else of the server's ratings."""

    reason: str
    game: int | None = None
    tournament: str | None = None

    def notice(self) -> str:
        """What the command's caller is told: what is damaged, what to do."""
        if self.game is not None:
            return damage_notice(self.game, self.reason)
        if self.tournament is not None:
            return tournament_damage_notice(self.tournament, self.reason)
        return ratings_damage_notice(self.reason)


async def diagnose(
    db: Connection, channel: int, guild: int | None, command: Command | Action | str
) -> Damage | None:
    """The damage behind a failed ``command`` in ``channel``, if its rows hold any."""
    game = await _open_game(db, channel)
    tournament = await _tournament(db, guild, command, game)
    problems = [p for p in (await check_rows(db))[0] if p.played]
    if game is not None:
        mine = [p for p in problems if p.game == game]
        if mine:
            return Damage(_reasons(mine), game=game)
    if tournament is not None:
        number, name = tournament
        games = await _games_at(db, number)
        theirs = [p for p in problems if p.tournament == number or p.game in games]
        if theirs:
            return Damage(_reasons(theirs), tournament=name)
    if isinstance(command, Command) and command.verb in RATINGS:
        rated = [p for p in problems if p.ratings_of == (guild or 0)]
        if rated:
            return Damage(_reasons(rated))
    return None


async def game_damage(db: Connection, game: int) -> str | None:
    """What is damaged among the rows playing ``game`` reads (its clock, lapses, seats,
    table …), or None: asked when a due item of the game failed."""
    mine = [p for p in (await check_rows(db))[0] if p.played and p.game == game]
    return _reasons(mine) if mine else None


def _reasons(problems: list[RowProblem]) -> str:
    first = str(problems[0])
    more = len(problems) - 1
    return first + (f"; and {more} more" if more else "")


def tournament_damage_notice(name: str, reason: str) -> str:
    """The plain explanation for a command on the damaged tournament ``name``."""
    return (
        f"Tournament {name} is damaged ({reason}). Its other rows, the other tournaments and "
        "every game go on; the bot's operator can list every damaged row with "
        "`titanbot check-db` and mend them (or restore a backup)."
    )


def ratings_damage_notice(reason: str) -> str:
    """The plain explanation for a command on the damaged ratings of a server."""
    return (
        f"The ratings of this server are damaged ({reason}). Games and tournaments go on; "
        "the bot's operator can list every damaged row with `titanbot check-db`, mend them, "
        "then rebuild the ratings with `titanbot ratings --rebuild`."
    )


async def _open_game(db: Connection, channel: int) -> int | None:
    async with db.execute(
        "SELECT id FROM games WHERE channel = ? AND status IN ('lobby', 'active')"
        " AND damaged IS NULL ORDER BY id DESC LIMIT 1",
        (channel,),
    ) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else None


async def _tournament(
    db: Connection, guild: int | None, command: Command | Action | str, game: int | None
) -> tuple[int, str] | None:
    """The tournament a ``tournament SUBCOMMAND NAME …`` command names, or else the one
    whose table the channel's game is."""
    if isinstance(command, Command) and command.verb == "tournament" and len(command.words) > 1:
        async with db.execute(
            "SELECT id, name FROM tournaments WHERE coalesce(guild, 0) = ?"
            " AND lower(name) = lower(?)",
            (guild or 0, command.words[1]),
        ) as cursor:
            row = await cursor.fetchone()
        if row is not None:
            return int(row[0]), str(row[1])
    if game is None:
        return None
    async with db.execute(
        "SELECT tournaments.id, tournaments.name FROM tables"
        " JOIN tournaments ON tournaments.id = tables.tournament WHERE tables.game = ?",
        (game,),
    ) as cursor:
        row = await cursor.fetchone()
    return (int(row[0]), str(row[1])) if row else None


async def _games_at(db: Connection, tournament: int) -> set[int]:
    async with db.execute(
        "SELECT game FROM tables WHERE tournament = ? AND game IS NOT NULL", (tournament,)
    ) as cursor:
        return {int(row[0]) async for row in cursor}
