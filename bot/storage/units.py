"""The classes of a command's unit on each database (:class:`~bot.storage.connection.WorkUnit`):
what a handler checks, cheaply, to tell a unit from a whole database."""

from __future__ import annotations

from bot.storage.database import Unit
from bot.storage.pg_connection import PgUnit

UNITS = (Unit, PgUnit)
