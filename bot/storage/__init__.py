"""Storage of games in SQLite: migrations, transactions and the append-only action log.

May import: the standard library, aiosqlite and asyncpg, :mod:`bot.names` and
:mod:`bot.untrusted`; the bottom of the bot's layers.
"""

from bot.storage.connection import Store
from bot.storage.database import Database, Unit, migrate, user_version
from bot.storage.games import ActionRow, GameRow, SeatRow, SnapshotRow, Status
from bot.storage.lock import DatabaseInUse

__all__ = [
    "ActionRow",
    "Database",
    "DatabaseInUse",
    "GameRow",
    "SeatRow",
    "SnapshotRow",
    "Status",
    "Store",
    "Unit",
    "migrate",
    "user_version",
]
