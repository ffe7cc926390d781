"""Damage done to a stored game behind the bot's back (a bad write, a hand edit), through
a separate connection (SQLite's or PostgreSQL's), the way a disk error or a stray tool
would leave it. SQL is written with ``?`` placeholders for both."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import asyncpg

from bot.storage.backends import Target, is_postgres
from bot.storage.pg_connection import translate


def execute(path: Target, sql: str, *params: object) -> int:
    """Run one statement and commit; the number of rows it changed."""
    if is_postgres(path):
        status = _on_postgres(str(path), lambda c: c.execute(translate(sql), *params))
        return int(str(status).rsplit(" ", 1)[-1])  # UPDATE 1, DELETE 1
    connection = sqlite3.connect(path)
    try:
        with connection:
            return connection.execute(sql, params).rowcount
    finally:
        connection.close()


def query(path: Target, sql: str, *params: object) -> list[tuple[Any, ...]]:
    if is_postgres(path):
        found = _on_postgres(str(path), lambda c: c.fetch(translate(sql), *params))
        return [tuple(row) for row in found]
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def _on_postgres(dsn: str, work: Callable[[asyncpg.Connection], Any]) -> Any:
    """``work`` on a new connection to ``dsn``, in a thread of its own (a test calling
    this is itself running in an event loop)."""

    async def run() -> Any:
        connection = await asyncpg.connect(dsn)
        try:
            return await work(connection)
        finally:
            await connection.close()

    result: list[Any] = []
    failure: list[BaseException] = []

    def thread() -> None:
        try:
            result.append(asyncio.run(run()))
        except BaseException as exc:
            failure.append(exc)

    worker = threading.Thread(target=thread)
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return result[0]


def last_action(path: Target, game: int) -> int:
    [(n,)] = query(path, "SELECT max(n) FROM actions WHERE game = ?", game)
    return int(n)


def truncate_action(path: Target, game: int, n: int) -> None:
    """Cut action ``n``'s JSON in half, as a torn write leaves it."""
    changed = execute(
        path,
        "UPDATE actions SET action = substr(action, 1, length(action) / 2)"
        " WHERE game = ? AND n = ?",
        game,
        n,
    )
    assert changed == 1


def delete_action(path: Target, game: int, n: int) -> None:
    assert execute(path, "DELETE FROM actions WHERE game = ? AND n = ?", game, n) == 1


def edit_snapshot(path: Target, game: int, n: int, edit: Callable[[dict[str, Any]], None]) -> None:
    """Change snapshot ``n``'s state JSON in place (its checksum left as it was)."""
    [(text,)] = query(path, "SELECT state FROM snapshots WHERE game = ? AND n = ?", game, n)
    state = json.loads(text)
    edit(state)
    changed = execute(
        path,
        "UPDATE snapshots SET state = ? WHERE game = ? AND n = ?",
        json.dumps(state, separators=(",", ":")),
        game,
        n,
    )
    assert changed == 1


def give_score(score: int) -> Callable[[dict[str, Any]], None]:
    """An edit setting the first player's score (0 → 400, say)."""

    def edit(state: dict[str, Any]) -> None:
        state["players"][0]["score"] = score

    return edit
