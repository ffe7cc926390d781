"""The channel's finished game: what the information commands show once its game is over.

A game stays visible in its channel after its end, until another game is opened there:
``status``, ``history``, ``board``, ``legions`` and ``battle`` answer for it when no game
is open (a game in the lobby or being played always comes first). The *finished game* of
a channel is its newest game when that game is over: it ended by the rules (a result,
RULES §12.5, §12.6) or by a tournament organiser's adjudication. Two kinds of games that
left the channel are not finished, and the channel then has no game to show:

* a cancelled game (the host's ``cancel``, an organiser's abort) ended without a result;
  its public record is still given by ``record`` when it had started;
* a damaged game (its stored record cannot be read back) cannot be shown: while open it
  has its own notice (:mod:`bot.records.damage`), and an over game whose record turns out
  unreadable is left out with a warning in the log.

Because only the newest game counts, ``record`` without a game number gives the very game
``status`` shows. Everything shown of a finished game is public: it is shown as everyone
sees it (viewer None, whoever asks: :func:`engine.game.view.view` then shows the winners'
legions, RULES §12.5), and its public record, which shows every legion and every die, is
given to anyone once the game is over (:mod:`bot.records.command`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime

from bot.context import Context
from bot.dialect import timestamp
from bot.storage import Status
from bot.storage import games as rows
from bot.storage.eventlog import events_from_text
from bot.storage.record import DamagedLog, Game, load_finished_game
from engine.game.events import WITHDREW, PlayerEliminated

log = logging.getLogger(__name__)

ELIMINATED = PlayerEliminated.__name__
"""The name of the event that puts a player out, which the log's text of its action holds."""


def is_over(game: Game) -> bool:
    """Whether ``game`` is over (its status; the engine's result says how it ended)."""
    return game.row.status is Status.OVER


def viewer(ctx: Context, game: Game) -> int | None:
    """The seat whose eyes ``game`` is shown with: the caller's in an open game, nobody's
    (everyone's view) once it is over."""
    return None if is_over(game) else ctx.caller.seat_in(game)


async def finished_game(ctx: Context) -> Game | None:
    """The channel's finished game (see the module), loaded; None when it has none."""
    try:
        game = await load_finished_game(ctx.db, ctx.place.channel)
    except DamagedLog as damage:
        found = damage.row.id if damage.row is not None else "?"
        log.warning("game %s (channel %s), over, is damaged: %s", found, ctx.place.channel, damage)
        return None
    if game is None or game.state is None:  # (an over game has started: it has a state)
        return None
    return game


async def eliminations(ctx: Context, game: Game) -> dict[int, PlayerEliminated]:
    """How each player put out of ``game`` left it (by seat), read from its log."""
    async with ctx.db.reading() as db:
        entries = await rows.actions_mentioning(db, game.id, (ELIMINATED,))
    found: dict[int, PlayerEliminated] = {}
    for entry in entries:
        for event in events_from_text(entry.events):
            if isinstance(event, PlayerEliminated):
                found.setdefault(event.seat, event)
    return found


async def over_text(ctx: Context, game: Game) -> str:
    """``game``'s end for ``status``: the result, every player's final score (and how those
    put out left the game), and the command giving its public record."""
    return "\n".join(result_lines(game, await eliminations(ctx, game)))


def result_lines(game: Game, out: Mapping[int, PlayerEliminated]) -> list[str]:
    """The lines of :func:`over_text`, with ``out`` the eliminations by seat."""
    state = game.state
    assert state is not None
    result = state.result
    if result is None:  # a tournament's table ended by its organiser (no engine result)
        head = f"Game #{game.id} is over: an organiser adjudicated it."
    else:
        winners = " and ".join(f"**{game.name_of(s)}**" for s in result.winners)
        verb = "win" if len(result.winners) > 1 else "wins"
        head = f"Game #{game.id} is over ({result.reason}): {winners or 'nobody'} {verb}."
    ended = _ended_at(game)
    if ended is not None:
        head += f" It ended {timestamp(ended)}."
    lines = [head, "Final scores:"]
    for player in state.players:
        line = f"  {player.name} ({player.colour or 'no colour'}): {player.score} points"
        if player.eliminated:
            line += f", {_left(game, out.get(player.seat))}"
        lines.append(line)
    lines.append("The whole game, every legion and every die: `record`. `new` opens the next game.")
    return lines


def _left(game: Game, event: PlayerEliminated | None) -> str:
    """How a player put out left the game."""
    if event is None:
        return "out of the game"
    if event.reason == WITHDREW:
        return "withdrew"
    by = f", eliminated by {game.name_of(event.by)}" if event.by is not None else ""
    return f"out of the game ({event.reason}){by}"


def _ended_at(game: Game) -> datetime | None:
    """When ``game`` ended: its row's last change (its status became over then)."""
    try:
        return datetime.fromisoformat(game.row.updated_at)
    except ValueError:
        return None
