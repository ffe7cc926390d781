"""How a player answered the decisions handed to them in a server's games, as the action
log tells it: each answer's wait, and whether it was a deadline's (a missed deadline).

A decision is *handed* to a seat when the action before it was another seat's, or was
made for the seat by the bot (a deadline's stand-in, an autostrike): the wait runs from
that action's moment to the seat's own next action. Actions the bot makes for the seat
(a deadline passed earlier in the turn, an autostrike, a fighton, a substitute's) are no
answers of the player; a missed deadline is, once: the first action of the decision the
clock made (``deadline passed (…)``; the rest of that decision carries the same cause).
A game's first action has no action before it and is not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.storage.connection import Connection

MISSED = "deadline passed (%"
"""How the cause of a missed deadline's action begins (a LIKE pattern; the decisions played
on after it read ``deadline passed earlier this turn (…)``)."""


@dataclass(frozen=True)
class Answer:
    """One decision handed to the player: how long it waited, and whether the clock
    made it (a missed deadline)."""

    waited: float
    """Seconds from the hand-off to the answer."""
    missed: bool


async def answers(db: Connection, guild: int | None, user: int) -> list[Answer]:
    """Every decision handed to ``user``'s seats in the games of ``guild`` (None: the
    terminal's), in no particular order."""
    async with db.execute(
        "SELECT a.created_at, b.created_at, a.cause FROM seats s"
        " JOIN games g ON g.id = s.game"
        " JOIN actions a ON a.game = s.game AND a.seat = s.seat"
        " JOIN actions b ON b.game = a.game AND b.n = a.n - 1"
        " WHERE s.user = ? AND coalesce(g.guild, 0) = ? AND ("
        "  (a.cause IS NULL AND (b.seat <> a.seat OR b.cause IS NOT NULL))"
        "  OR (a.cause LIKE ? AND (b.seat <> a.seat OR b.cause IS NULL OR b.cause <> a.cause))"
        " )",
        (user, guild or 0, MISSED),
    ) as cursor:
        found = []
        async for answered, handed, cause in cursor:
            waited = datetime.fromisoformat(answered) - datetime.fromisoformat(handed)
            found.append(Answer(max(waited.total_seconds(), 0.0), cause is not None))
        return found


async def games_played(db: Connection, guild: int | None, user: int) -> int:
    """The started games of ``guild`` in which ``user`` has a seat (playing or over)."""
    async with db.execute(
        "SELECT count(*) FROM seats s JOIN games g ON g.id = s.game"
        " WHERE s.user = ? AND coalesce(g.guild, 0) = ? AND g.status IN ('active', 'over')",
        (user, guild or 0),
    ) as cursor:
        row = await cursor.fetchone()
        return int(row[0]) if row is not None else 0
