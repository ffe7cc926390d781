"""How a player answered the decisions handed to them in a server's games, as the action
log tells it: each answer's wait, and whether it was a deadline's (a missed deadline).

A decision is *handed* to a seat when the action before it was another seat's, or was
made for the seat by the bot (a deadline's stand-in, an autostrike): the wait runs from
that action's moment to the seat's own next action. Actions the bot makes for the seat
(a deadline passed earlier in the turn, an autostrike, a fighton, a substitute's) are no
answers of the player; a missed deadline is, once: the first action of the decision the
clock made (``deadline passed (…)``; the rest of that decision carries the same cause).
A game's first action has no action before it and is not counted. Each action is the
player's who held its seat then (``actions.player``): a seat handed over by an organiser
leaves its earlier decisions, and its missed deadlines, to the one who left it.
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


_HANDED = (
    "(a.cause IS NULL AND (b.seat <> a.seat OR b.cause IS NOT NULL))"
    " OR (a.cause LIKE ? AND (b.seat <> a.seat OR b.cause IS NULL OR b.cause <> a.cause))"
)
"""An action that answers a decision handed to its seat, or the first of a missed one."""


async def answers(db: Connection, guild: int | None, user: int) -> list[Answer]:
    """Every decision handed to ``user`` in the games of ``guild`` (None: the terminal's),
    in no particular order: the actions logged as theirs, and those logged without a
    player (before the log kept one) of the seats they hold."""
    async with db.execute(
        "SELECT a.created_at, b.created_at, a.cause FROM actions a"
        " JOIN games g ON g.id = a.game"
        " JOIN actions b ON b.game = a.game AND b.n = a.n - 1"
        f" WHERE a.player = ? AND coalesce(g.guild, 0) = ? AND ({_HANDED})"
        " UNION ALL"
        " SELECT a.created_at, b.created_at, a.cause FROM seats s"
        " JOIN games g ON g.id = s.game"
        " JOIN actions a ON a.game = s.game AND a.seat = s.seat AND a.player IS NULL"
        " JOIN actions b ON b.game = a.game AND b.n = a.n - 1"
        f" WHERE s.user = ? AND coalesce(g.guild, 0) = ? AND ({_HANDED})",
        (user, guild or 0, MISSED, user, guild or 0, MISSED),
    ) as cursor:
        found = []
        async for answered, handed, cause in cursor:
            waited = datetime.fromisoformat(answered) - datetime.fromisoformat(handed)
            found.append(Answer(max(waited.total_seconds(), 0.0), cause is not None))
        return found


async def games_played(db: Connection, guild: int | None, user: int) -> int:
    """The started games of ``guild`` (playing or over) in which ``user`` holds a seat or
    played one before handing it over."""
    async with db.execute(
        "SELECT count(*) FROM games g WHERE coalesce(g.guild, 0) = ?"
        " AND g.status IN ('active', 'over') AND ("
        "  EXISTS (SELECT 1 FROM seats s WHERE s.game = g.id AND s.user = ?)"
        "  OR EXISTS (SELECT 1 FROM actions a WHERE a.game = g.id AND a.player = ?))",
        (guild or 0, user, user),
    ) as cursor:
        row = await cursor.fetchone()
        return int(row[0]) if row is not None else 0
