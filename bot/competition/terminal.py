"""``titanbot tournament …``: run or inspect a tournament from the terminal, over the same
database as the bot (an organiser without Discord, or a test driving a whole one).

``titanbot tournament create Winter players 3-4`` runs ``tournament create Winter
players 3-4`` as the terminal's organiser and prints what it says and what the tables are
told; ``titanbot tournament play Winter`` lets the computer players of the tournament's
tables play until each waits for a human or is over.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.console import Console, local_user
from bot.context import Caller, Place
from bot.service import GameService
from bot.storage import tournaments as store

DESK = 2
"""The terminal's channel for tournament news (the local game's is 1)."""
ORGANISER = "organiser"
MOST_ROUNDS = 500


async def tournament_command(
    db: Path, words: Sequence[str], *, write: Callable[[str], None] = print
) -> int:
    """Run one tournament command; 0 when it was accepted, 1 when it was refused."""
    service = await GameService.open(db)
    try:
        console = Console(service, None, write)
        console.place = Place(DESK)
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


def _organiser(console: Console) -> Caller:
    return Caller(local_user(ORGANISER), ORGANISER, organiser=True)


async def _play(service: GameService, console: Console, name: str) -> int:
    async with service.db.reading() as db:
        found = await store.named(db, None, name)
        tables = await store.tables(db, found.id) if found else []
    if found is None:
        console.write(f"There is no tournament {name!r} here.")
        return 1
    for table in tables:
        if table.status != store.PLAYING or table.channel is None:
            continue
        for _ in range(MOST_ROUNDS):
            before = await service.game_in(table.channel)
            if before is None:
                break
            await console.tell(ORGANISER, await service.advance(Place(table.channel)))
            after = await service.game_in(table.channel)
            if after is not None and after.n == before.n:
                break  # it waits for a human
    if service.deliverer is not None:
        await service.deliverer.idle()
    return 0
