"""A process that opens a database, says ``ready`` and keeps it open until killed.

``python -m tests.bot.lock_holder DB``: test_lock.py starts it, then kills it.
"""

from __future__ import annotations

import asyncio
import sys

from bot.storage import Database


async def main(path: str) -> None:
    database = await Database.open(path)
    print("ready", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await database.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
