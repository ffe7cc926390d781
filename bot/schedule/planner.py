"""After every stored change: start the clock of a new decision, with its due items.

Run in the change's transaction, so a decision's deadline and reminders exist exactly
when the change that began it does. The same decision (another move of one movement
phase) keeps its clock; a decision made cancels what it had pending. A game that starts
gets its real-clock time limit (errata 21.1) and the reminder a day before it. After a
deadline passed, the seat's further decisions of that player turn fall due at once (the
stand-in plays the rest of the turn): an absent player costs one deadline a turn.
"""

from __future__ import annotations

from bot.schedule.decisions import decision_of
from bot.schedule.timing import POLICIES, reminder_times
from bot.storage import Status
from bot.storage import due as items
from bot.storage.connection import Connection
from bot.storage.due import DEADLINE, REMINDER, TIME_LIMIT, Clock
from bot.storage.record import Game

STANDIN_AI = "ai"
PAUSE = POLICIES[2]
"""The clock's policy that waits for the player when a deadline passes (no stand-in)."""
EXPIRE, WARN = "expire", "warn"
"""The two time-limit items: the expiry itself, and its warning a day before."""
WARNING = 86400


async def plan(
    db: Connection, game: Game, now: float, *, by_timeout: bool, actor: int | None = None
) -> None:
    """Bring ``game``'s clock and due items up to date after a change stored at ``now``
    (``by_timeout``: the change was a passed deadline's, not the seat's own; ``actor``: the
    seat that gave it itself, back if it was absent)."""
    here = actor if actor is not None and not by_timeout else None
    found = await items.clock_and_lapses(db, game.id, here)
    if here is not None and found.seat_lapsed:
        await items.reset_lapses(db, game.id, here)  # they are here
    current = found.clock
    decision = decision_of(game.state) if game.row.status is Status.ACTIVE else None
    if current is not None and decision is not None and current.decision == decision.key:
        return
    await items.cancel(db, game.id, (DEADLINE, REMINDER))
    answered = not by_timeout and found.clock_seat_lapsed  # lapses of the clock's seat
    if current is not None and answered and current.seat != actor:
        await items.reset_lapses(db, game.id, current.seat)  # they answered in time
    if decision is None:
        if current is not None:
            await items.drop_clock(db, game.id)
        if game.row.status is not Status.ACTIVE:
            await items.cancel(db, game.id, (TIME_LIMIT,))
        return
    timing = game.settings.timing
    if current is None and timing.expires_at is not None:  # the game has just started
        if timing.expires_at - WARNING > now:
            await items.add(db, game.id, TIME_LIMIT, timing.expires_at - WARNING, None, WARN)
        await items.add(db, game.id, TIME_LIMIT, max(now, timing.expires_at), None, EXPIRE)
    await _start(db, game, decision.seat, decision.key, now, now)


async def replan(db: Connection, game: Game, now: float) -> None:
    """The game's clock was changed: the decision it waits for keeps its start, and gets
    the deadline and reminders of the new clock (a deadline already past falls due now)."""
    current = await items.clock(db, game.id)
    decision = decision_of(game.state) if game.row.status is Status.ACTIVE else None
    if decision is None:
        return
    await items.cancel(db, game.id, (DEADLINE, REMINDER))
    since = current.since if current is not None and current.decision == decision.key else now
    await _start(db, game, decision.seat, decision.key, since, now)


async def covered(db: Connection, game: Game, seat: int) -> bool:
    """Whether ``seat``'s decisions are played at once for it: a deadline of its passed in
    this player turn and it has not acted since (a timeout covers the rest of the turn —
    on its own turn, the whole turn; on another's, its negotiations and defences until
    that turn ends), unless its game waits on a passed deadline (``pause``)."""
    return _covers(game, await items.absence(db, game.id, seat))


def _covers(game: Game, absent: items.Absence | None) -> bool:
    """Whether ``absent`` (a seat's lapses) covers the game's player turn (:func:`covered`)."""
    if game.state is None or game.settings.timing.on_timeout == PAUSE:
        return False
    return absent is not None and absent.covers == game.state.turn.number


async def _start(db: Connection, game: Game, seat: int, key: str, since: float, now: float) -> None:
    """The clock of the decision ``key`` of ``seat``, begun at ``since``, with its due
    items (none of them before ``now``)."""
    timing = game.settings.timing
    computer = game.is_ai(seat)
    deadline = since + timing.deadline if timing.deadline is not None and not computer else None
    await items.set_clock(db, game.id, Clock(seat, key, since, deadline))
    if computer:
        return  # the AI answers at once
    gone, absent = await items.away_and_absence(db, game.user_of(seat), now, game.id, seat)
    if gone is not None and gone.standin == STANDIN_AI:  # the computer stands in: at once
        await items.add(db, game.id, DEADLINE, now, seat, key)
        return
    if _covers(game, absent):  # a deadline passed earlier this turn: play on
        await items.set_clock(db, game.id, Clock(seat, key, since, now))
        await items.add(db, game.id, DEADLINE, now, seat, key)
        return
    falling = [(DEADLINE, max(deadline, now), seat, key)] if deadline is not None else []
    falling += [(REMINDER, m, seat, key) for m in reminder_times(timing, since) if m >= now]
    await items.add_all(db, game.id, falling)
