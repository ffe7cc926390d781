"""A process that plays agent commands and prints ``ack N ACTION`` after each commit.

``python -m tests.bot.crash_worker DB`` resumes (or starts) the game of channel 1 and plays
until it is over or the process is killed; test_crash.py kills it at random moments.
"""

from __future__ import annotations

import asyncio
import json
import sys

from bot.service import GameService
from bot.storage import games as rows
from tests.bot.agent import open_game, step

CHANNEL = 1
SEED = 99
AGENT = 5


async def main(path: str) -> None:
    service = await GameService.open(path, seeds=lambda: SEED, snapshot_every=4)
    if await service.game_in(CHANNEL) is None:
        await open_game(service, CHANNEL, 3)
    print("ready", flush=True)
    while (game := await service.game_in(CHANNEL)) is not None:
        await step(service, CHANNEL, AGENT)
        async with service.db.reading() as db:
            (entry,) = await rows.actions(db, game.id, after=game.n, limit=1)
        print(f"ack {entry.n} {json.dumps(entry.action)}", flush=True)
    print("over", flush=True)
    await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
