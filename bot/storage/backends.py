"""Opening the configured database: a SQLite file (the default) or a PostgreSQL server.

A *target* names the database: a path is a SQLite file; a ``postgresql://`` (or
``postgres://``) URL is a PostgreSQL database, migrated on opening as a SQLite file is.
Everything above :mod:`bot.storage` takes the :class:`~bot.storage.connection.Backend`
opened here and never asks which one it got.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.connection import Backend

Target = Path | str
"""Where the database is: a SQLite file's path, or a PostgreSQL URL."""

_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: Target) -> bool:
    """Whether ``target`` is a PostgreSQL URL (else a SQLite file)."""
    return isinstance(target, str) and target.startswith(_SCHEMES)


def as_target(text: str) -> Target:
    """A target from the configuration or the command line: a URL stays text, anything
    else is a path."""
    return text if is_postgres(text) else Path(text)


def shown(target: Target) -> str:
    """``target`` fit to print: a URL without its password."""
    if not is_postgres(target):
        return str(target)
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(str(target))
    if parts.password is None:
        return str(target)
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


async def open_database(target: Target, **sqlite_options: Any) -> Backend:
    """Open (creating and migrating as needed) the database at ``target``.

    ``sqlite_options`` go to :meth:`bot.storage.database.Database.open` (``synchronous``);
    PostgreSQL has its own durability settings on the server.
    """
    if is_postgres(target):
        from bot.storage.pg_connection import PgDatabase
        from bot.storage.postgres import migrate

        await migrate(str(target))
        return await PgDatabase.open(str(target))
    from bot.storage.database import Database

    return await Database.open(target, **sqlite_options)
