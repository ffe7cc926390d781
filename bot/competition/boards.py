"""A tournament's standings and a server's leaderboard as table pictures
(:mod:`render.table`), sent as files with their text versions.

The pictures show only what the text shows (names, ranks, figures); their file names only
the tournament's name, made safe (``standings-winter.png``), or ``ratings.png``. They are
drawn in a thread, off the event loop; a drawing that fails leaves the text alone.
"""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata
from collections.abc import Sequence

from bot.replies import Attachment
from bot.tournament.heads import figure, heads, legend, shown_marks
from bot.tournament.ratings import Rating, leaderboard
from bot.tournament.standings import Advance, Standings
from render.table import MAX_ROWS, Column, Line, Mark, Note, table_png

log = logging.getLogger(__name__)

RATINGS_FILE = "ratings.png"
MARK: dict[Advance, Mark] = {Advance.YES: Mark.TICK, Advance.IF_NOW: Mark.RING}
"""The picture's mark of each outlook (the text's are :data:`~bot.tournament.heads.MARKS`)."""
_MENTION = re.compile(r"<@!?(\d+)>")


def shown_name(player: str, names: dict[str, str]) -> str:
    """How a picture names ``player``: his name, but a mention (an entrant added by an
    organiser, whose name the service never saw) as ``user …1234`` (a picture cannot
    show a mention as Discord does)."""
    name = names.get(player, player)
    return _MENTION.sub(lambda m: f"user …{m[1][-4:]}", name)


def slug(name: str) -> str:
    """``name`` as a file name's part: plain lower-case letters and digits joined by ``-``
    (``Winter Cup '25`` → ``winter-cup-25``); ``tournament`` when nothing is left."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40].strip("-") or "tournament"


def standings_file(name: str) -> str:
    return f"standings-{slug(name)}.png"


def standings_table(
    table: Standings, names: dict[str, str]
) -> tuple[list[Column], list[Line], list[Note]]:
    """The columns, lines and legend of a tournament's standings picture: the heads,
    marks and legend of the text answer (:mod:`bot.tournament.heads`)."""
    shown = heads(table.scheme)
    columns = [
        Column("#", numeric=True),
        Column("Player"),
        *(Column(h.head, numeric=True, group=h.group) for h in shown),
    ]
    lines = [
        Line(
            (str(r.rank), shown_name(r.player, names), *(figure(r.key[h.index]) for h in shown)),
            MARK.get(r.advance),
        )
        for r in table.rows
    ]
    notes = [
        Note(n.text, MARK[n.mark] if n.mark is not None else None)
        for n in legend(table.scheme, shown_marks(table))
    ]
    return columns, lines, notes


def ratings_table(
    ratings: dict[str, Rating], names: dict[str, str]
) -> tuple[list[Column], list[Line], list[Note]]:
    """The columns, lines and footnote of a server's leaderboard picture."""
    columns = [
        Column("#", numeric=True),
        Column("player"),
        Column("rating", numeric=True),
        Column("mu", numeric=True),
        Column("sigma", numeric=True),
        Column("games", numeric=True),
    ]
    lines = [
        Line(
            (
                str(r.rank),
                shown_name(r.player, names),
                f"{r.ordinal:.2f}",
                f"{r.mu:.2f}",
                f"{r.sigma:.2f}",
                str(r.games),
            )
        )
        for r in leaderboard(ratings)
    ]
    return columns, lines, [Note("rating = mu - 3 sigma (openskill)")]


Parts = tuple[Sequence[Column], Sequence[Line], Sequence[Note]]
"""A table picture's columns, lines and legend."""


def _png(title: str, parts: Parts) -> bytes:
    columns, lines, notes = parts
    return table_png(title, columns, lines, legend=notes, limit=MAX_ROWS)


async def drawn(filename: str, title: str, parts: Parts) -> Attachment | None:
    """The table drawn in a thread as the file ``filename`` (None when drawing failed:
    the answer keeps its text)."""
    try:
        data = await asyncio.to_thread(_png, title, parts)
    except Exception:
        log.exception("drawing %s failed", filename)
        return None
    return Attachment(filename, data)


async def standings_picture(
    tournament: str, table: Standings, names: dict[str, str], where: str = ""
) -> Attachment | None:
    """``standings-NAME.png``: the standings of the tournament named ``tournament``, the
    title saying ``where`` it stands (``heat 2 of 3 under way``) when given."""
    title = f"{tournament} standings" + (f", {where}" if where else "")
    return await drawn(standings_file(tournament), title, standings_table(table, names))


async def ratings_picture(ratings: dict[str, Rating], names: dict[str, str]) -> Attachment | None:
    """``ratings.png``: the server's leaderboard."""
    return await drawn(RATINGS_FILE, "Ratings", ratings_table(ratings, names))
