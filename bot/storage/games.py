"""Rows of the game database: games, seats, users, the action log and snapshots.

Plain queries on a connection inside :meth:`Database.transaction` or
:meth:`Database.reading`; JSON columns are passed as already-encoded text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from bot.storage.checksum import snapshot_checksum
from bot.storage.connection import Connection
from bot.storage.errors import LostRace
from bot.untrusted import loads
from engine.ai.levels import DEFAULT, Level, level_of
from engine.game.forced import WINDOWS as CONCESSION_WINDOWS


class Status(Enum):
    """Where a game stands."""

    LOBBY = "lobby"
    ACTIVE = "active"
    OVER = "over"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (Status.LOBBY, Status.ACTIVE)


@dataclass(frozen=True)
class GameRow:
    """A row of ``games``; ``settings`` decoded from JSON (``{}`` when unreadable, which
    the loader then reports as damage). ``damaged`` is why the game's record cannot be
    read back, once it was found so (the game then leaves its channel); ``salt`` the
    secret drawn with the seed for the dice commitment (None before the start, and for the
    games started before commitments, see :mod:`bot.records.proof`)."""

    id: int
    channel: int
    guild: int | None
    status: Status
    settings: dict[str, Any]
    seed: int | None
    created_at: str
    updated_at: str
    damaged: str | None = None
    salt: str | None = None
    revision: int = 0
    """Bumped by every change to the game: a change made from an older one is refused
    (:class:`~bot.storage.errors.LostRace`), and a cached game older than it reloaded."""
    pledge: str | None = None
    """The canonical JSON that the start's commitment hashes (:mod:`bot.records.proof`);
    None before the start and for games started before ``titanbot-game/2``."""


@dataclass(frozen=True)
class SeatRow:
    """A seat: engine seat number, Discord user id and the player's name.

    An AI seat has a reserved user id below zero (Discord's ids are above zero).
    """

    seat: int
    user: int
    name: str
    level: str | None = None
    """An AI seat's level of play (:mod:`engine.ai.levels`; None: the default)."""

    @property
    def is_ai(self) -> bool:
        return self.user < 0

    @property
    def ai_level(self) -> Level:
        """The level the computer plays this seat at when it is an AI's: the one chosen,
        else the default."""
        return level_of(self.level) or DEFAULT


def ai_user(number: int) -> int:
    """The reserved user id of a game's AI seat ``number`` (1, 2, …)."""
    return -number


@dataclass(frozen=True)
class SnapshotRow:
    """A stored snapshot: the state JSON after ``n`` actions and its checksum (None for
    one written before checksums existed)."""

    n: int
    state: str
    checksum: str | None


@dataclass(frozen=True)
class ActionRow:
    """One entry of the append-only action log (JSON texts as stored); ``cause`` why it was
    given when its seat did not give it (a passed deadline, a stand-in), when read."""

    n: int
    seat: int
    action: str
    events: str
    created_at: str
    cause: str | None = None


SEED_DIGITS = 80
"""The most decimal digits of a stored seed (a 256-bit number has 78)."""


def now(at: float | None = None) -> str:
    """The moment ``at`` (seconds since the epoch; None: now) as stored: UTC, ISO 8601."""
    moment = datetime.now(UTC) if at is None else datetime.fromtimestamp(at, UTC)
    return moment.isoformat(timespec="milliseconds")


STRIKES = "%STRIKE:%"
"""How the clock's key of a battle's strikes or counterstrikes reads (a LIKE pattern over
:func:`bot.schedule.decisions.decision_of`'s keys, which hold the battle's step)."""
WINDOWS = tuple(f"%:{step.name}:%" for step in CONCESSION_WINDOWS)
"""How the clock's keys of a battle's concession windows read (LIKE patterns, as
:data:`STRIKES`)."""

GAME_COLUMNS = (
    "id, channel, guild, status, settings, seed_text, created_at, updated_at, damaged, salt,"
    " revision, pledge"
)
_OPEN = "status IN ('lobby', 'active')"


def game_row(row: Iterable[Any]) -> GameRow:
    """A game's row read with :data:`GAME_COLUMNS`."""
    id_, channel, guild, status, settings, seed, created, updated, damaged, salt, *rest = row
    revision, pledge = rest
    try:
        decoded = loads(settings)
    except (TypeError, ValueError):
        decoded = None
    if not isinstance(decoded, dict):
        decoded = {}
    return GameRow(
        id_, channel, guild, Status(status), decoded, stored_seed(seed), created, updated,
        damaged, salt, revision, pledge,
    )  # fmt: skip


def stored_seed(text: object) -> int | None:
    """The seed kept in decimal text (None when there is none, or it is not a whole
    number: the checks then name a started game without a seed)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= SEED_DIGITS:
        return int(text)
    return None


async def open_game(db: Connection, channel: int) -> GameRow | None:
    """The lobby or active game of ``channel``, if any (a damaged one does not count)."""
    async with db.execute(
        f"SELECT {GAME_COLUMNS} FROM games WHERE channel = ? AND {_OPEN} AND damaged IS NULL",
        (channel,),
    ) as cursor:
        row = await cursor.fetchone()
    return game_row(row) if row else None


async def damaged_game(db: Connection, channel: int) -> GameRow | None:
    """The newest game of ``channel`` found damaged and not yet aborted, if any."""
    async with db.execute(
        f"SELECT {GAME_COLUMNS} FROM games WHERE channel = ? AND {_OPEN}"
        " AND damaged IS NOT NULL ORDER BY id DESC LIMIT 1",
        (channel,),
    ) as cursor:
        row = await cursor.fetchone()
    return game_row(row) if row else None


async def latest_game(db: Connection, channel: int) -> GameRow | None:
    """The newest game of ``channel`` in any status (the open one when there is one)."""
    async with db.execute(
        f"SELECT {GAME_COLUMNS} FROM games WHERE channel = ? ORDER BY id DESC LIMIT 1",
        (channel,),
    ) as cursor:
        row = await cursor.fetchone()
    return game_row(row) if row else None


async def finished_game(db: Connection, channel: int) -> GameRow | None:
    """The newest game of ``channel`` when it is over and was not found damaged, if so.

    Only the newest game counts: once another game is opened in the channel (whatever
    becomes of it), the channel's finished game is none, as ``record`` without a game
    number then names the newer game too. A cancelled game is not over (it has no result).
    """
    async with db.execute(
        f"SELECT {GAME_COLUMNS} FROM games"
        " WHERE id = (SELECT max(id) FROM games WHERE channel = ?)"
        " AND status = 'over' AND damaged IS NULL",
        (channel,),
    ) as cursor:
        row = await cursor.fetchone()
    return game_row(row) if row else None


async def game_ids(db: Connection) -> list[int]:
    """Every game's id, oldest first."""
    async with db.execute("SELECT id FROM games ORDER BY id") as cursor:
        return [int(row[0]) async for row in cursor]


async def mark_damaged(db: Connection, game_id: int, reason: str) -> bool:
    """Record why the game cannot be read back (the first reason found stays); whether
    this call marked it."""
    cursor = await db.execute(
        "UPDATE games SET damaged = ?, updated_at = ? WHERE id = ? AND damaged IS NULL",
        (reason, now(), game_id),
    )
    return cursor.rowcount > 0


async def game(db: Connection, game_id: int) -> GameRow | None:
    async with db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    return game_row(row) if row else None


async def active_games_waiting_for_ai(
    db: Connection, user: int | None = None
) -> list[tuple[int, int | None]]:
    """The channel and guild of every active game that waits for a computer seat (ids
    below zero): its clock's seat (see :mod:`bot.storage.due`) is one, or it has one and
    no clock yet (stored before clocks); or that waits for the strikes of a player who
    turned ``autostrike`` on, or for the concession window of one who turned ``fighton``
    on (which may make them, :mod:`bot.handlers.autostrike`). A game with computer seats
    that waits for a human is not among them: a start-up loads only the games it must
    advance. With ``user``, only the games waiting for that player's strikes or windows."""
    windows = " OR ".join("c.decision LIKE ?" for _ in WINDOWS)
    made = (
        "s.seat = c.seat AND (u.autostrike <> 'off' AND c.decision LIKE ?"
        f" OR u.fighton = 1 AND ({windows}))"
    )
    which = f"s.user < 0 AND (c.game IS NULL OR s.seat = c.seat) OR {made}"
    values: tuple[int, ...] = ()
    if user is not None:
        which, values = f"s.user = ? AND {made}", (user,)
    async with db.execute(
        "SELECT g.channel, g.guild FROM games g LEFT JOIN clocks c ON c.game = g.id"
        " WHERE g.status = 'active' AND EXISTS (SELECT 1 FROM seats s"
        f" LEFT JOIN users u ON u.id = s.user WHERE s.game = g.id AND ({which}))"
        " ORDER BY g.channel",
        (*values, STRIKES, *WINDOWS),
    ) as cursor:
        return [(int(r[0]), r[1]) async for r in cursor]


async def create_game(
    db: Connection, channel: int, guild: int | None, settings: dict[str, Any]
) -> int:
    """A new lobby in ``channel``; its id."""
    stamp = now()
    cursor = await db.execute(
        "INSERT INTO games (channel, guild, status, settings, created_at, updated_at)"
        " VALUES (?, ?, 'lobby', ?, ?, ?)",
        (channel, guild, json.dumps(settings, sort_keys=True), stamp, stamp),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


async def update_game(
    db: Connection,
    game_id: int,
    status: Status,
    *,
    seed: int | None = None,
    salt: str | None = None,
    settings: dict[str, Any] | None = None,
    expect: int | None = None,
    pledge: str | None = None,
) -> int:
    """Set the status (and seed, salt, pledge or settings when given); bump ``updated_at``
    and the revision; the new revision.

    With ``expect``, only if the game is still at that revision: else (another writer
    changed it first) :class:`~bot.storage.errors.LostRace`. On a shared database the
    update holds the game's row until the transaction ends, so writers of one game take
    turns."""
    salted = " salt = ?," if salt is not None else ""
    pledged = " pledge = ?," if pledge is not None else ""
    expected = " AND revision = ?" if expect is not None else ""
    async with db.execute(
        "UPDATE games SET status = ?, updated_at = ?, seed_text = coalesce(?, seed_text),"
        f"{salted}{pledged} settings = coalesce(?, settings), revision = revision + 1"
        f" WHERE id = ?{expected} RETURNING revision",
        (
            status.value,
            now(),
            str(seed) if seed is not None else None,
            *((salt,) if salt is not None else ()),
            *((pledge,) if pledge is not None else ()),
            json.dumps(settings, sort_keys=True) if settings is not None else None,
            game_id,
            *((expect,) if expect is not None else ()),
        ),
    ) as cursor:
        row = await cursor.fetchone()
    if row is None:
        raise LostRace(f"game {game_id} changed since revision {expect}")
    return _gave(db, game_id, int(row[0]))


async def claim(db: Connection, game_id: int, revision: int) -> int:
    """Take ``game`` for the change of the current transaction, made from ``revision``:
    the new revision, or :class:`~bot.storage.errors.LostRace` when another writer
    changed it first (see :func:`update_game`)."""
    async with db.execute(
        "UPDATE games SET revision = revision + 1 WHERE id = ? AND revision = ? RETURNING revision",
        (game_id, revision),
    ) as cursor:
        row = await cursor.fetchone()
    if row is None:
        raise LostRace(f"game {game_id} changed since revision {revision}")
    return _gave(db, game_id, int(row[0]))


def _given(db: Connection) -> dict[int, int] | None:
    """The revisions ``db``'s open transaction gave games, where the connection keeps them
    (:attr:`bot.storage.sqlite_connection.SqliteConnection.revisions`)."""
    given: dict[int, int] | None = getattr(db, "revisions", None)
    return given


def _gave(db: Connection, game_id: int, revision: int) -> int:
    if (given := _given(db)) is not None:
        given[game_id] = revision
    return revision


async def revision(db: Connection, game_id: int) -> int | None:
    """The game's revision now (None: no such game); one the open transaction gave it is
    known without asking (its row is held until the transaction ends)."""
    given = _given(db)
    if given is not None and game_id in given:
        return given[game_id]
    async with db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else None


async def seats(db: Connection, game_id: int) -> list[SeatRow]:
    async with db.execute(
        "SELECT seat, user, name, level FROM seats WHERE game = ? ORDER BY seat", (game_id,)
    ) as cursor:
        return [SeatRow(*row) async for row in cursor]


async def set_seats(db: Connection, game_id: int, rows: Iterable[SeatRow]) -> None:
    """Replace the seats of a game (the lobby renumbers them on every change)."""
    rows = list(rows)
    await db.execute("DELETE FROM seats WHERE game = ?", (game_id,))
    await db.executemany(
        "INSERT INTO users (id) VALUES (?) ON CONFLICT DO NOTHING", [(r.user,) for r in rows]
    )
    await db.executemany(
        "INSERT INTO seats (game, seat, user, name, level) VALUES (?, ?, ?, ?, ?)",
        [(game_id, r.seat, r.user, r.name, r.level) for r in rows],
    )


async def append_action(
    db: Connection,
    game_id: int,
    n: int,
    seat: int,
    action: str,
    events: str,
    *,
    turn: int | None = None,
    cause: str | None = None,
    at: float | None = None,
    player: int | None = None,
) -> None:
    """Log action number ``n`` (the primary key refuses a duplicate ``n``), played in player
    turn ``turn`` (``state.turn.number`` before it; None leaves it unknown, and ``history``
    then reads the whole log before its window) at ``at`` (the service's clock; None: now)
    for the seat's ``player`` (the user holding it then)."""
    await db.execute(
        "INSERT INTO actions (game, n, seat, action, events, created_at, turn, cause, player)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, n, seat, action, events, now(at), turn, cause, player),
    )


async def actions(
    db: Connection, game_id: int, after: int = 0, limit: int | None = None
) -> list[ActionRow]:
    """Logged actions numbered above ``after``, in order (at most ``limit``), with their
    causes."""
    async with db.execute(
        "SELECT n, seat, action, events, created_at, cause FROM actions"
        " WHERE game = ? AND n > ? ORDER BY n LIMIT ?",
        (game_id, after, -1 if limit is None else limit),
    ) as cursor:
        return [ActionRow(*row) async for row in cursor]


async def last_actions(db: Connection, game_id: int, count: int) -> list[ActionRow]:
    """The last ``count`` logged actions, oldest first."""
    async with db.execute(
        "SELECT n, seat, action, events, created_at FROM actions"
        " WHERE game = ? ORDER BY n DESC LIMIT ?",
        (game_id, count),
    ) as cursor:
        rows = [ActionRow(*row) async for row in cursor]
    return rows[::-1]


async def turn_of(db: Connection, game_id: int, n: int) -> int | None:
    """The player turn action ``n`` was played in (None: no such action, or not known)."""
    async with db.execute(
        "SELECT turn FROM actions WHERE game = ? AND n = ?", (game_id, n)
    ) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else None


async def turn_actions(
    db: Connection,
    game_id: int,
    turn: int,
    before: int,
    *,
    mentioning: Sequence[str] = (),
) -> list[ActionRow]:
    """The actions of player turn ``turn`` numbered below ``before``, in order; with
    ``mentioning``, only those whose events' text contains one of these words (a quick
    filter that keeps every row the caller looks for: it still reads the events).

    The turn's first action is found through ``actions_by_turn``; the rows are then a
    range of the primary key (turns only grow along the log).
    """
    words = " OR ".join(["instr(events, ?) > 0"] * len(mentioning))
    async with db.execute(
        "SELECT n, seat, action, events, created_at FROM actions"
        " WHERE game = ? AND turn = ? AND n < ?"
        " AND n >= (SELECT min(n) FROM actions WHERE game = ? AND turn = ?)"
        + (f" AND ({words})" if words else "")
        + " ORDER BY n",
        (game_id, turn, before, game_id, turn, *mentioning),
    ) as cursor:
        return [ActionRow(*row) async for row in cursor]


async def window_and_turn_start(
    db: Connection, game_id: int, count: int, *, mentioning: Sequence[str] = ()
) -> tuple[list[ActionRow], list[ActionRow]]:
    """The actions of the player turn of the ``count``-th last action logged before it
    (with ``mentioning``, those of them whose events mention one of the words), and the
    last ``count`` actions; both oldest first.

    Actions logged without their turn (``turn`` unknown) give the whole log before the
    window instead.
    """
    window = await last_actions(db, game_id, count)
    if not window:
        return [], []
    first = window[0].n
    turn = await turn_of(db, game_id, first)
    if turn is None:
        return await actions(db, game_id, 0, first - 1), window
    return await turn_actions(db, game_id, turn, first, mentioning=mentioning), window


async def actions_mentioning(
    db: Connection, game_id: int, mentioning: Sequence[str]
) -> list[ActionRow]:
    """The logged actions whose events' text contains one of the words ``mentioning``, in
    order (a quick filter: the caller still reads the events of those it gets)."""
    if not mentioning:
        return []
    words = " OR ".join(["instr(events, ?) > 0"] * len(mentioning))
    async with db.execute(
        "SELECT n, seat, action, events, created_at FROM actions"
        f" WHERE game = ? AND ({words}) ORDER BY n",
        (game_id, *mentioning),
    ) as cursor:
        return [ActionRow(*row) async for row in cursor]


async def action_count(db: Connection, game_id: int) -> int:
    async with db.execute("SELECT max(n) FROM actions WHERE game = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


async def missing_actions(db: Connection, game_id: int, upto: int = 0) -> list[int]:
    """The action numbers absent from the log below its last one (or below ``upto``, when
    higher: a snapshot taken after ``upto`` actions needs them all)."""
    async with db.execute(
        "SELECT count(*), coalesce(max(n), 0) FROM actions WHERE game = ?", (game_id,)
    ) as cursor:
        row = await cursor.fetchone()
    count, last = (int(row[0]), int(row[1])) if row else (0, 0)
    if count == last >= upto:
        return []
    async with db.execute("SELECT n FROM actions WHERE game = ?", (game_id,)) as cursor:
        present = {int(found[0]) async for found in cursor}
    return [n for n in range(1, max(last, upto) + 1) if n not in present]


async def save_snapshot(db: Connection, game_id: int, n: int, state: str) -> None:
    """Store the state after ``n`` actions with its checksum."""
    await db.execute(
        "INSERT OR REPLACE INTO snapshots (game, n, state, checksum) VALUES (?, ?, ?, ?)",
        (game_id, n, state, snapshot_checksum(game_id, n, state)),
    )


async def snapshot_before(
    db: Connection, game_id: int, before: int | None = None
) -> SnapshotRow | None:
    """The newest snapshot taken after fewer than ``before`` actions (any, without it)."""
    async with db.execute(
        "SELECT n, state, checksum FROM snapshots WHERE game = ? AND n < ? ORDER BY n DESC LIMIT 1",
        (game_id, (1 << 62) if before is None else before),
    ) as cursor:
        row = await cursor.fetchone()
    return SnapshotRow(int(row[0]), str(row[1]), row[2]) if row else None


async def snapshots(db: Connection, game_id: int) -> list[SnapshotRow]:
    """Every snapshot of a game, oldest first."""
    async with db.execute(
        "SELECT n, state, checksum FROM snapshots WHERE game = ? ORDER BY n", (game_id,)
    ) as cursor:
        return [SnapshotRow(int(row[0]), str(row[1]), row[2]) async for row in cursor]


async def last_snapshot_n(db: Connection, game_id: int) -> int:
    """How many actions the newest snapshot follows (0 without one)."""
    async with db.execute("SELECT max(n) FROM snapshots WHERE game = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


async def latest_snapshot(db: Connection, game_id: int) -> tuple[int, str] | None:
    """The newest snapshot of a game: (actions applied, state JSON)."""
    async with db.execute(
        "SELECT n, state FROM snapshots WHERE game = ? ORDER BY n DESC LIMIT 1", (game_id,)
    ) as cursor:
        row = await cursor.fetchone()
    return (int(row[0]), str(row[1])) if row else None


async def count_games(db: Connection, status: Status | None = None) -> int:
    query, params = "SELECT count(*) FROM games", []
    if status is not None:
        query, params = query + " WHERE status = ?", [status.value]
    async with db.execute(query, params) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0
