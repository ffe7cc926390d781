"""The scheduler's rows: each active game's clock, the due items, seats' timeouts in a row,
and users' reminder preferences (see :mod:`bot.schedule`).

Times are seconds since the epoch, from the scheduler's clock (tests inject their own).
A due item is acted on by the process that claims it (:func:`claim`); another process
leaves it alone until the claim runs out (the claimer died), then may take it over.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.storage.connection import Connection

log = logging.getLogger(__name__)

DEADLINE, REMINDER, TIME_LIMIT = "deadline", "reminder", "time_limit"


@dataclass(frozen=True)
class Clock:
    """The decision a game waits for: whose (``seat``), which (``decision``, a key that
    changes when the decision is made), since when, and until when (None: no deadline)."""

    seat: int
    decision: str
    since: float
    deadline: float | None = None


@dataclass(frozen=True)
class DueItem:
    """Something the scheduler must do at ``at``: a deadline or a reminder of one
    decision, or a game's time limit."""

    id: int
    game: int
    kind: str
    seat: int | None
    decision: str | None
    at: float
    begun: bool = False
    """What it does has begun and is not finished (a timeout whose first actions are
    stored, the rest of its decision still to play: a crash came between them)."""


BEGUN = "begun"
"""The outcome of a pending item whose work has begun (see :func:`begin`)."""
_ITEM = "id, game, kind, seat, decision, at, outcome"


def _item(r: Any) -> DueItem:
    return DueItem(int(r[0]), int(r[1]), str(r[2]), r[3], r[4], float(r[5]), r[6] == BEGUN)


async def clock(db: Connection, game: int) -> Clock | None:
    async with db.execute(
        "SELECT seat, decision, since, deadline FROM clocks WHERE game = ?", (game,)
    ) as cursor:
        row = await cursor.fetchone()
    return _clock(row) if row else None


def _clock(row: Any) -> Clock:
    return Clock(int(row[0]), str(row[1]), float(row[2]), row[3])


@dataclass(frozen=True)
class ClockAndLapses:
    """A game's clock (None: none), and whether the seat asked about and the clock's own
    seat have deadlines missed in a row (:class:`Absence`): read in one statement after
    every change (:func:`bot.schedule.planner.plan`)."""

    clock: Clock | None
    seat_lapsed: bool
    clock_seat_lapsed: bool


async def clock_and_lapses(db: Connection, game: int, seat: int | None) -> ClockAndLapses:
    """:func:`clock` and whether ``seat`` and the clock's seat have lapses, in one trip."""
    async with db.execute(
        "SELECT c.seat, c.decision, c.since, c.deadline,"
        " EXISTS (SELECT 1 FROM lapses WHERE game = ? AND seat = ?),"
        " EXISTS (SELECT 1 FROM lapses l WHERE l.game = ? AND l.seat = c.seat)"
        " FROM (SELECT 1) AS one LEFT JOIN clocks c ON c.game = ?",
        (game, seat, game, game),
    ) as cursor:
        row = await cursor.fetchone()
    found = _clock(row) if row[1] is not None else None
    return ClockAndLapses(found, bool(row[4]), bool(row[5]))


async def set_clock(db: Connection, game: int, found: Clock) -> None:
    await db.execute(
        "INSERT INTO clocks (game, seat, decision, since, deadline) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game) DO UPDATE SET seat = excluded.seat,"
        " decision = excluded.decision, since = excluded.since, deadline = excluded.deadline",
        (game, found.seat, found.decision, found.since, found.deadline),
    )


async def drop_clock(db: Connection, game: int) -> None:
    await db.execute("DELETE FROM clocks WHERE game = ?", (game,))


_INSERT = "INSERT INTO due (game, kind, seat, decision, at) VALUES (?, ?, ?, ?, ?)"


async def add(
    db: Connection,
    game: int,
    kind: str,
    at: float,
    seat: int | None = None,
    decision: str | None = None,
) -> int:
    cursor = await db.execute(
        _INSERT,
        (game, kind, seat, decision, at),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


async def add_all(
    db: Connection, game: int, new: Iterable[tuple[str, float, int | None, str | None]]
) -> None:
    """Items of ``game`` given as (kind, at, seat, decision), in one statement."""
    await db.executemany(
        _INSERT,
        [(game, kind, seat, decision, at) for kind, at, seat, decision in new],
    )


async def cancel(db: Connection, game: int, kinds: tuple[str, ...]) -> None:
    """Forget the pending items of ``kinds`` of ``game`` (their decision was made)."""
    marks = ", ".join("?" for _ in kinds)
    await db.execute(
        f"DELETE FROM due WHERE game = ? AND done_at IS NULL AND kind IN ({marks})",
        (game, *kinds),
    )


async def forget(db: Connection, game: int) -> None:
    """``game`` is over (or cancelled): no clock, nothing pending."""
    await db.execute("DELETE FROM clocks WHERE game = ?", (game,))
    await db.execute("DELETE FROM due WHERE game = ? AND done_at IS NULL", (game,))


async def next_at(db: Connection, holder: str = "") -> float | None:
    """When the earliest pending item falls due for ``holder`` (None: nothing is
    pending): an item another process claimed falls due when its claim runs out."""
    async with db.execute(
        "SELECT MIN(CASE WHEN claimed_by <> ? AND claimed_until > at THEN claimed_until"
        " ELSE at END) FROM due WHERE done_at IS NULL",
        (holder,),
    ) as cursor:
        row = await cursor.fetchone()
    return float(row[0]) if row and row[0] is not None else None


async def due_by(
    db: Connection, moment: float, limit: int = 100, holder: str = ""
) -> list[DueItem]:
    """The pending items due at ``moment`` or before, earliest first, but those another
    process than ``holder`` has claimed until later."""
    async with db.execute(
        f"SELECT {_ITEM} FROM due WHERE done_at IS NULL AND at <= ?"
        " AND (claimed_until IS NULL OR claimed_until < ? OR claimed_by = ?)"
        " ORDER BY at, id LIMIT ?",
        (moment, moment, holder, limit),
    ) as cursor:
        found = [r async for r in cursor]
    return [item for item in map(_readable_item, found) if item is not None]


_unreadable: set[str] = set()
"""The damaged due rows already warned of (once each per process)."""


def _readable_item(r: Any) -> DueItem | None:
    """The item of row ``r``, or None when a bad write damaged it (warned of once; the
    scheduler goes on with the others, and ``check-db`` names the row)."""
    try:
        return _item(r)
    except (ValueError, TypeError):
        if repr(tuple(r)) not in _unreadable:
            _unreadable.add(repr(tuple(r)))
            log.warning("due row %r cannot be read: skipped (see titanbot check-db)", tuple(r))
        return None


async def claim(db: Connection, item: int, holder: str, now: float, seconds: float) -> bool:
    """Claim ``item`` for ``holder`` until ``now + seconds``: whether it has it (no other
    process claimed it, or that claim ran out; and it is still pending)."""
    async with db.execute(
        "UPDATE due SET claimed_by = ?, claimed_until = ? WHERE id = ? AND done_at IS NULL"
        " AND (claimed_until IS NULL OR claimed_until < ? OR claimed_by = ?)",
        (holder, now + seconds, item, now, holder),
    ) as cursor:
        return cursor.rowcount == 1


async def pending(db: Connection, game: int) -> list[DueItem]:
    """``game``'s pending items, earliest first."""
    async with db.execute(
        f"SELECT {_ITEM} FROM due WHERE done_at IS NULL AND game = ? ORDER BY at, id",
        (game,),
    ) as cursor:
        return [_item(r) async for r in cursor]


async def finish(db: Connection, item: int, at: float, outcome: str) -> None:
    await db.execute(
        "UPDATE due SET done_at = ?, outcome = ? WHERE id = ? AND done_at IS NULL",
        (at, outcome, item),
    )


async def begin(db: Connection, item: int) -> None:
    """Mark a pending item begun (in the transaction of its first action): it stays
    pending, and is finished by :func:`finish` once what it does is done."""
    await db.execute("UPDATE due SET outcome = ? WHERE id = ? AND done_at IS NULL", (BEGUN, item))


async def postpone(db: Connection, item: int, at: float) -> None:
    """Put ``item`` off until ``at``, unclaimed (any process may act on it then)."""
    await db.execute(
        "UPDATE due SET at = ?, claimed_by = NULL, claimed_until = NULL"
        " WHERE id = ? AND done_at IS NULL",
        (at, item),
    )


PAUSED = 1e11
"""How far a paused table's items are put off (past any real date: year 5138), and taken
back when it resumes (see :func:`resume`)."""


async def shift(db: Connection, game: int, decision: str, by: float) -> None:
    """Put the pending deadline and reminders of ``game``'s ``decision`` off by ``by``
    seconds, and its clock's deadline (an organiser's extension)."""
    await db.execute(
        "UPDATE due SET at = at + ? WHERE game = ? AND decision = ? AND done_at IS NULL"
        " AND kind IN (?, ?)",
        (by, game, decision, DEADLINE, REMINDER),
    )
    await db.execute(
        "UPDATE clocks SET deadline = deadline + ? WHERE game = ? AND decision = ?",
        (by, game, decision),
    )


async def bring_forward(db: Connection, game: int, decision: str, at: float) -> None:
    """Make the pending deadline of ``game``'s ``decision`` fall due at ``at``, and its
    clock's deadline (an organiser's ``force``); its reminders no longer come (the
    decision is made before them)."""
    await db.execute(
        "UPDATE due SET at = ? WHERE game = ? AND decision = ? AND done_at IS NULL AND kind = ?",
        (at, game, decision, DEADLINE),
    )
    await db.execute(
        "UPDATE clocks SET deadline = ? WHERE game = ? AND decision = ?", (at, game, decision)
    )


async def pause(db: Connection, game: int) -> None:
    """Put off ``game``'s pending deadline and reminders by :data:`PAUSED` (its table is
    paused; the scheduler puts off those that fall due meanwhile the same way)."""
    await db.execute(
        "UPDATE due SET at = at + ? WHERE game = ? AND done_at IS NULL AND at < ?"
        " AND kind IN (?, ?)",
        (PAUSED, game, PAUSED, DEADLINE, REMINDER),
    )


async def resume(db: Connection, game: int, by: float) -> None:
    """``game``'s table resumes: its deadline and reminders fall due ``by`` seconds later
    than they would have (the time its decision was paused), and so does its clock's
    deadline."""
    await db.execute(
        "UPDATE due SET at = (CASE WHEN at >= ? THEN at - ? ELSE at END) + ?"
        " WHERE game = ? AND done_at IS NULL AND kind IN (?, ?)",
        (PAUSED, PAUSED, by, game, DEADLINE, REMINDER),
    )
    await db.execute("UPDATE clocks SET deadline = deadline + ? WHERE game = ?", (by, game))


async def outcomes(db: Connection, game: int) -> list[tuple[str, int | None, str]]:
    """What became of ``game``'s finished items, in the order they fell due: kind, seat,
    outcome."""
    async with db.execute(
        "SELECT kind, seat, outcome FROM due WHERE game = ? AND done_at IS NOT NULL"
        " ORDER BY at, id",
        (game,),
    ) as cursor:
        return [(str(r[0]), r[1], str(r[2])) async for r in cursor]


# --- timeouts in a row ------------------------------------------------------------------------
@dataclass(frozen=True)
class Absence:
    """A seat's deadlines missed in a row: how many, since when, and the player turn whose
    further decisions of the seat are played at once (``covers``; None: none)."""

    count: int
    since: float | None
    covers: int | None


async def absence(db: Connection, game: int, seat: int) -> Absence | None:
    async with db.execute(
        "SELECT count, since, covers FROM lapses WHERE game = ? AND seat = ?", (game, seat)
    ) as cursor:
        row = await cursor.fetchone()
    return _absence(row) if row else None


def _absence(row: Any) -> Absence:
    return Absence(int(row[0]), row[1], row[2])


async def absences(db: Connection, game: int) -> dict[int, Absence]:
    """The seats of ``game`` that missed their last deadlines, by seat."""
    async with db.execute(
        "SELECT seat, count, since, covers FROM lapses WHERE game = ? ORDER BY seat", (game,)
    ) as cursor:
        return {int(r[0]): Absence(int(r[1]), r[2], r[3]) async for r in cursor}


async def lapses(db: Connection, game: int, seat: int) -> int:
    found = await absence(db, game, seat)
    return found.count if found is not None else 0


async def lapsed(
    db: Connection, game: int, seat: int, at: float | None = None, covers: int | None = None
) -> int:
    """One more timeout of ``seat`` in a row (at ``at``; the rest of player turn ``covers``
    played at once for it); how many now."""
    await db.execute(
        "INSERT INTO lapses (game, seat, count, since, covers) VALUES (?, ?, 1, ?, ?)"
        " ON CONFLICT (game, seat) DO UPDATE SET count = lapses.count + 1,"
        " since = coalesce(lapses.since, excluded.since), covers = excluded.covers",
        (game, seat, at, covers),
    )
    return await lapses(db, game, seat)


async def reset_lapses(db: Connection, game: int, seat: int) -> None:
    await db.execute("DELETE FROM lapses WHERE game = ? AND seat = ?", (game, seat))


# --- reminder preferences ---------------------------------------------------------------------
@dataclass(frozen=True)
class ReminderPrefs:
    """A user's wishes: no reminders at all, or none during their quiet hours (stored as
    ``HH:MM-HH:MM ZONE``, e.g. ``22:00-08:00 Europe/Paris``)."""

    off: bool = False
    quiet: str | None = None


async def reminder_prefs(db: Connection, user: int) -> ReminderPrefs:
    async with db.execute("SELECT reminders_off, quiet FROM users WHERE id = ?", (user,)) as cursor:
        row = await cursor.fetchone()
    return ReminderPrefs(bool(row[0]), row[1]) if row else ReminderPrefs()


async def set_reminder_prefs(db: Connection, user: int, prefs: ReminderPrefs) -> None:
    await db.execute(
        "INSERT INTO users (id, reminders_off, quiet) VALUES (?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET reminders_off = excluded.reminders_off,"
        " quiet = excluded.quiet",
        (user, int(prefs.off), prefs.quiet),
    )


# --- time away --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Away:
    """A player away from ``since`` until ``until``: the computer plays for them
    (``standin`` "ai"), another user does (``standin_user``), or their clocks stop."""

    since: float
    until: float
    standin: str | None = None
    standin_user: int | None = None

    def stops(self, timing_days: int) -> float:
        """When their clocks run again in a game allowing ``timing_days`` days away."""
        return min(self.until, self.since + timing_days * 86400)


async def away(db: Connection, user: int, now: float) -> Away | None:
    """``user``'s time away, if they are away at ``now``."""
    async with db.execute(
        "SELECT away_from, away_until, standin, standin_user FROM users"
        " WHERE id = ? AND away_until > ?",
        (user, now),
    ) as cursor:
        row = await cursor.fetchone()
    return _away(row) if row else None


def _away(row: Any) -> Away:
    return Away(float(row[0]), float(row[1]), row[2], row[3])


async def away_and_absence(
    db: Connection, user: int, now: float, game: int, seat: int
) -> tuple[Away | None, Absence | None]:
    """:func:`away` of ``user`` and :func:`absence` of their ``seat`` in ``game``, in one
    trip (a new decision's clock asks both)."""
    async with db.execute(
        "SELECT u.away_from, u.away_until, u.standin, u.standin_user, l.count, l.since,"
        " l.covers FROM (SELECT 1) AS one"
        " LEFT JOIN users u ON u.id = ? AND u.away_until > ?"
        " LEFT JOIN lapses l ON l.game = ? AND l.seat = ?",
        (user, now, game, seat),
    ) as cursor:
        row = await cursor.fetchone()
    gone = _away(row) if row[1] is not None else None
    absent = _absence(row[4:]) if row[4] is not None else None
    return gone, absent


async def set_away(db: Connection, user: int, found: Away | None) -> None:
    values = (
        (found.since, found.until, found.standin, found.standin_user)
        if found
        else (None, None, None, None)
    )
    await db.execute(
        "INSERT INTO users (id, away_from, away_until, standin, standin_user)"
        " VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET away_from = excluded.away_from,"
        " away_until = excluded.away_until, standin = excluded.standin,"
        " standin_user = excluded.standin_user",
        (user, *values),
    )


async def stood_in_by(db: Connection, standin: int, now: float) -> frozenset[int]:
    """The users away at ``now`` who named ``standin`` to play for them."""
    async with db.execute(
        "SELECT id FROM users WHERE standin_user = ? AND away_until > ?", (standin, now)
    ) as cursor:
        return frozenset([int(r[0]) async for r in cursor])


async def standins_of(db: Connection, users: Iterable[int], now: float) -> dict[int, int]:
    """Of ``users``, those away at ``now`` with a named stand-in: user → stand-in."""
    wanted = sorted(set(users))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    async with db.execute(
        f"SELECT id, standin_user FROM users WHERE id IN ({marks})"
        " AND standin_user IS NOT NULL AND away_until > ?",
        (*wanted, now),
    ) as cursor:
        return {int(r[0]): int(r[1]) async for r in cursor}


async def awaiting(db: Connection, user: int) -> list[tuple[int, int, str]]:
    """The active games whose clock waits for ``user``'s seat: game id, seat, decision."""
    async with db.execute(
        "SELECT clocks.game, clocks.seat, clocks.decision FROM clocks"
        " JOIN seats ON seats.game = clocks.game AND seats.seat = clocks.seat"
        " WHERE seats.user = ?",
        (user,),
    ) as cursor:
        return [(int(r[0]), int(r[1]), str(r[2])) async for r in cursor]


async def still_pending(db: Connection, item: int, moment: float) -> bool:
    """Whether ``item`` is still pending and due by ``moment`` (no one acted on it since)."""
    async with db.execute(
        "SELECT 1 FROM due WHERE id = ? AND done_at IS NULL AND at <= ?", (item, moment)
    ) as cursor:
        return await cursor.fetchone() is not None
