"""``titanbot tournament …``: run or inspect a tournament from the terminal, over the same
database as the bot (an organiser without Discord, or a test driving a whole one).

``titanbot tournament create Winter players 3-4`` runs ``tournament create Winter
players 3-4`` as the terminal's organiser and prints what it says and what the tables are
told; ``titanbot tournament play Winter`` lets the computer players of the tournament's
tables play (by themselves, :mod:`bot.ai_runner`) until each waits for a human or is
over. ``titanbot ratings [--rebuild]``
prints the leaderboards, rebuilt from the stored results when asked.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence

from bot.competition.ranking import rankable, ratings_text, rebuilt_ratings, server_ratings
from bot.console import Console, local_user
from bot.context import Caller, Place
from bot.service import GameService
from bot.storage import tournaments as store
from bot.storage.backends import Target, open_database
from engine.words import plural

DESK = 2
"""The terminal's channel for tournament news (the local game's is 1)."""
ORGANISER = "organiser"


async def tournament_command(
    db: Target, words: Sequence[str], *, write: Callable[[str], None] = print
) -> int:
    """Run one tournament command; 0 when it was accepted, 1 when it was refused."""
    service = await GameService.open(db)
    try:
        console = Console(service, None, write)
        console.place = Place(DESK)
        console.channels[DESK] = "the tournament's news"
        await _name_entrants(service, console)
        if list(words[:1]) == ["play"] and len(words) == 2:
            await console.connect()
            return await _play(service, console, words[1])
        await console.connect()
        replies = await service.submit(
            console.place, _organiser(console), "tournament " + shlex.join(words)
        )
        await console.tell(ORGANISER, replies)
        await service.tables.idle()
        if service.deliverer is not None:
            await service.deliverer.idle()
        return 1 if replies.error else 0
    finally:
        await service.close()


async def _name_entrants(service: GameService, console: Console) -> None:
    """Name the terminal's organiser and every entrant of the terminal's tournaments in
    what is printed (their pings would read as numbers)."""
    console.know(local_user(ORGANISER), ORGANISER)
    async with service.db.reading() as db:
        for tournament in await store.of_guild(db, None):
            for entrant in await store.entrants(db, tournament.id):
                console.know(entrant.user, entrant.name)


def _organiser(console: Console) -> Caller:
    return Caller(local_user(ORGANISER), ORGANISER, organiser=True)


async def _play(service: GameService, console: Console, name: str) -> int:
    async with service.db.reading() as db:
        found = await store.named(db, None, name)
        tables = await store.tables(db, found.id) if found else []
    if found is None:
        console.write(f"There is no tournament {name!r} here.")
        return 1
    channels = [t.channel for t in tables if t.status == store.PLAYING and t.channel]
    for channel in channels:  # (the start-up advanced them already, unless a slice failed)
        await console.tell(ORGANISER, await service.advance(Place(channel)))
    await service.ai.idle(channels)
    if service.deliverer is not None:
        await service.deliverer.idle()
    return 0


async def ratings_command(
    db: Target, rebuild: bool, *, write: Callable[[str], None] = print
) -> int:
    """Print each server's leaderboard; with ``rebuild``, first rebuild every rating from
    the stored results (deterministic) and say whether they differed from those stored."""
    database = await open_database(db)
    try:
        async with database.reading() as conn:
            guilds = await store.rated_guilds(conn)
        for guild in guilds:
            async with database.reading() as conn:
                stored = await server_ratings(conn, guild)
                rebuilt = await rebuilt_ratings(conn, guild)
                names = await rankable(conn, [int(p) for p in rebuilt])
            where = "the terminal" if guild is None else f"server {guild}"
            if rebuild:
                differ = sorted(p for p in rebuilt if rebuilt[p] != stored.get(p))
                async with database.transaction() as conn:
                    await store.set_ratings(
                        conn, guild, {int(p): (r.mu, r.sigma, r.games) for p, r in rebuilt.items()}
                    )
                write(
                    f"{where}: {plural(len(rebuilt), 'rating')} rebuilt from the results; "
                    + (f"{len(differ)} differed from those stored." if differ else "all agreed.")
                )
            write(f"{where}:\n{ratings_text(rebuilt if rebuild else stored, names)}")
        if not guilds:
            write("No rated game has finished yet.")
        return 0
    finally:
        await database.close()
