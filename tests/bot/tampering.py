"""Damage done to a stored game behind the bot's back (a bad write, a hand edit), through
a separate SQLite connection, the way a disk error or a stray tool would leave it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any


def execute(path: Path, sql: str, *params: object) -> int:
    """Run one statement and commit; the number of rows it changed."""
    connection = sqlite3.connect(path)
    try:
        with connection:
            return connection.execute(sql, params).rowcount
    finally:
        connection.close()


def query(path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def last_action(path: Path, game: int) -> int:
    [(n,)] = query(path, "SELECT max(n) FROM actions WHERE game = ?", game)
    return int(n)


def truncate_action(path: Path, game: int, n: int) -> None:
    """Cut action ``n``'s JSON in half, as a torn write leaves it."""
    changed = execute(
        path,
        "UPDATE actions SET action = substr(action, 1, length(action) / 2)"
        " WHERE game = ? AND n = ?",
        game,
        n,
    )
    assert changed == 1


def delete_action(path: Path, game: int, n: int) -> None:
    assert execute(path, "DELETE FROM actions WHERE game = ? AND n = ?", game, n) == 1


def edit_snapshot(path: Path, game: int, n: int, edit: Callable[[dict[str, Any]], None]) -> None:
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
