"""``games`` (organisers): every open game of this server, the stalled ones first.

A community that runs many games at once needs to see which of them wait too long: each
game is a line with its channel, its players, its turn, whom it waits for and to do what,
its absent players, since when it waits and its deadline. A game *stalls* when it has
waited a day or more for a person's decision, or past that decision's deadline; those
come first, with their number in the head. The words are the channel's own "Waiting for"
line, without command hints (they would act in the channel they are typed in): as public
as that line. The answer fits one Discord message. A tournament's desk
(``tournament status``) shows its tables with the same line.
"""

from __future__ import annotations

from bot.context import Context
from bot.dialect import without_hints
from bot.narration.describe import waiting_for
from bot.narration.turns import turn_phrase
from bot.replies import Replies
from bot.storage import GameRow, Status, due, listing
from bot.storage.connection import Connection
from bot.storage.record import DamagedLog, Game, load_game
from bot.syntax import Args
from engine.errors import IllegalAction
from engine.words import plural

STALLED = 86400.0
"""A game waiting this long (seconds) for one decision is stalled."""
LIMIT = 2000
"""Discord's longest message."""


async def games(ctx: Context, game: Game | None, args: Args) -> Replies:
    """``games``: the open games of this server, the stalled first (organisers only)."""
    args.finish()
    if not ctx.caller.organiser:
        raise IllegalAction("only an organiser may list this server's games")
    now = ctx.now()
    async with ctx.db.reading() as db:
        found = await listing.open_games_in(db, ctx.place.guild)
        lines = [await _line(db, row, now) for row in found]
    where = "on this server" if ctx.place.guild is not None else "here"  # (the terminal)
    if not lines:
        return Replies.answer(f"No game is open {where}.")
    stalled = [text for late, text in lines if late]
    rest = [text for late, text in lines if not late]
    head = f"{plural(len(lines), 'open game')} {where}"
    head += f"; ⚠️ {len(stalled)} stalled:" if stalled else ":"
    return Replies.answer(fit([head, *stalled, *rest], "more game"))


async def _line(db: Connection, row: GameRow, now: float) -> tuple[bool, str]:
    """(whether the game is stalled, its line)."""
    head = f"- <#{row.channel}> game #{row.id}"
    try:
        game = await load_game(db, row)
    except DamagedLog:
        return True, f"{head}: its record cannot be read back"
    players = ", ".join(game.name_of(seat.seat) for seat in game.seats)
    if row.status is Status.LOBBY:
        seats = f"{len(game.seats)} of {plural(game.settings.players, 'seat')}"
        return False, f"{head}: forming, {seats} taken ({players or 'nobody yet'})"
    late, text = await waiting_line(db, game, now)
    return late, f"{head} ({players}){text}"


async def waiting_line(
    db: Connection, game: Game, now: float, paused_at: float | None = None
) -> tuple[bool, str]:
    """What ``game`` waits for, to follow its name: ``, turn 5, Ann's: waits for **Ann**
    to muster since <t:…:R>, deadline <t:…:R>``, its absent players, or its pause (a
    tournament's table paused at ``paused_at``); and whether it is stalled."""
    if game.state is None:
        return False, ": not started"
    clock = await due.clock(db, game.id)
    seat, task = waiting_for(game.state)
    who = game.name_of(seat) if seat is not None else "nobody"
    turn = turn_phrase(game.state, f"{game.name_of(game.state.active)}'s")
    text = f", {turn}: waits for **{who}** to {without_hints(task)}"
    for absent, absence in (await due.absences(db, game.id)).items():
        since = f" since <t:{int(absence.since)}:R>" if absence.since is not None else ""
        text += f"; 💤 **{game.name_of(absent)}** absent{since}"
    if clock is None:
        return False, text
    text += f" since <t:{int(clock.since)}:R>"
    if paused_at is not None:
        return False, f"{text}; ⏸ paused <t:{int(paused_at)}:R>"
    if clock.deadline is not None:
        text += f", deadline <t:{int(clock.deadline)}:R>"
    late = now - clock.since >= STALLED or (clock.deadline is not None and now > clock.deadline)
    return late and not game.is_ai(clock.seat), text


def fit(lines: list[str], more: str) -> str:
    """``lines`` within :data:`LIMIT` characters, the last of them summed up (``… and 3
    more games.``, ``more`` the singular)."""
    kept: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        tail = f"\n… and {plural(len(lines) - index, more)}."
        if size + len(line) + 1 + len(tail) > LIMIT and index > 0:
            return "\n".join(kept) + tail
        kept.append(line[: LIMIT - 100])
        size += len(kept[-1]) + 1
    return "\n".join(kept)
