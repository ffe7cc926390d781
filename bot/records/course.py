"""How a game went, read from its log by replaying it: what the final card, the chart of
the scores and the replay show once the game is over.

:func:`course_of` replays the logged actions from the game's start and keeps only what
everyone sees (RULES §3.3: a legion's marker, owner, land and height; the scores): the
public board at the end of each player turn (:class:`render.replay.ReplayFrame`, built
from :func:`render.board_info.board_info`, which never reads a legion's contents), the
battles fought in it, every player's score after each game turn, how each player left
the game and each one's place (:func:`bot.tournament.places.result_of`, RULES §12.5–12.6).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.storage import ActionRow, GameRow, Store
from bot.storage import games as rows
from bot.storage.record import DamagedLog, initial_state, replay_entry
from bot.tournament.errors import TournamentError
from bot.tournament.places import result_of
from engine.errors import TitanError
from engine.events import Event
from engine.game.events import (
    TITAN_LOST,
    WITHDREW,
    BattleBegun,
    EngagementBegun,
    PlayerEliminated,
    TurnEnded,
)
from engine.game.game_turns import game_turn
from engine.game.state import GameState
from render.board_info import board_info
from render.replay import ReplayFrame

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Course:
    """A game's course, public facts only; tuples by seat unless said otherwise."""

    game: int
    names: tuple[str, ...]
    colours: tuple[str | None, ...]
    scores: tuple[tuple[int, ...], ...]
    """``scores[t][seat]``: each player's score after game turn ``t`` (0: the start)."""
    places: tuple[int, ...]
    """1 best; players who tie share a place."""
    fates: tuple[str, ...]
    """What became of each player's Titan."""
    result: str
    turns: int
    """Game turns played (RULES §1.6)."""
    player_turns: int
    battles: int
    engagements: int
    frames: tuple[ReplayFrame, ...]
    """The board at the end of each player turn, and as the game ended."""
    over: bool
    """Whether the game is over (only then is its course shown)."""

    @property
    def final_scores(self) -> tuple[int, ...]:
        return self.scores[-1]

    def by_place(self) -> list[int]:
        """The seats, best place first (then by seat)."""
        return sorted(range(len(self.names)), key=lambda seat: (self.places[seat], seat))


@dataclass
class _Reading:
    """What the replay has gathered so far."""

    state: GameState
    scores: dict[int, tuple[int, ...]]
    frames: list[ReplayFrame]
    battles_now: list[int]
    battles: int = 0
    engagements: int = 0


def course_of(game: int, start: GameState, log: Sequence[ActionRow]) -> Course:
    """The course of ``game``, replaying ``log`` from ``start``; raises
    :class:`~bot.storage.record.DamagedLog` when an action cannot be replayed."""
    zero = tuple(0 for _ in start.players)
    reading = _Reading(start, {0: zero}, [], [])
    out: dict[int, tuple[PlayerEliminated, int]] = {}
    events_by_action: list[list[Event]] = []
    for entry in log:
        before = reading.state
        after, events = replay_entry(before, entry)
        reading.state = after
        events_by_action.append(events)
        turn = game_turn(before)
        for event in events:
            if isinstance(event, BattleBegun):
                reading.battles += 1
                reading.battles_now.append(event.land)
            elif isinstance(event, EngagementBegun):
                reading.engagements += 1
            elif isinstance(event, PlayerEliminated):
                out.setdefault(event.seat, (event, turn))
        reading.scores[turn] = tuple(p.score for p in after.players)
        if any(isinstance(event, TurnEnded) for event in events):
            reading.frames.append(_turn_frame(before, after, reading.battles_now))
            reading.battles_now = []
    final = reading.state
    if final.result is not None or reading.battles_now or not reading.frames:
        reading.frames.append(_end_frame(final, reading.battles_now))
    places = _places(final, events_by_action)
    return Course(
        game=game,
        names=tuple(p.name for p in final.players),
        colours=tuple(p.colour for p in final.players),
        scores=_by_turn(reading.scores, game_turn(final)),
        places=places,
        fates=tuple(_fate(final, seat, out) for seat in range(len(final.players))),
        result=result_text(final),
        turns=game_turn(final),
        player_turns=final.turn.number,
        battles=reading.battles,
        engagements=reading.engagements,
        frames=tuple(reading.frames),
        over=final.result is not None,
    )


def _turn_frame(before: GameState, after: GameState, battles: Sequence[int]) -> ReplayFrame:
    """The board as a player turn closed: where the legions stand after it, told as that
    turn (its player, game turn, roll and moves)."""
    shown = board_info(after)
    ended = board_info(before)
    board = replace(
        shown,
        active=ended.active,
        turn=ended.turn,
        phase=ended.phase,
        roll=ended.roll,
        moves=ended.moves,
        engagement=None,
    )
    return ReplayFrame(board, tuple(battles))


def _end_frame(state: GameState, battles: Sequence[int]) -> ReplayFrame:
    board = replace(board_info(state), engagement=None)
    caption = result_text(state) if state.result is not None else ""
    return ReplayFrame(board, tuple(battles), caption)


def _by_turn(scores: dict[int, tuple[int, ...]], turns: int) -> tuple[tuple[int, ...], ...]:
    """The scores after each game turn 0 … ``turns`` (a turn nobody scored in keeps the
    scores before it)."""
    found = [scores[0]]
    for turn in range(1, turns + 1):
        found.append(scores.get(turn, found[-1]))
    return tuple(found)


def result_text(state: GameState) -> str:
    """``Ann wins (last Titan standing)``, ``Ann and Bob draw (…)`` or, without a result,
    the organiser's ruling."""
    result = state.result
    if result is None:
        return "Ended by an organiser's ruling"
    names = [state.player(seat).name for seat in result.winners]
    if not names:
        return f"Nobody wins ({result.reason})"
    verb = "wins" if len(names) == 1 else "share the win"
    return f"{' and '.join(names)} {verb} ({result.reason})"


def _places(state: GameState, events: Sequence[Sequence[Event]]) -> tuple[int, ...]:
    """Each seat's place: by the rules once over (RULES §12.5–12.6), else by score."""
    seats = [str(p.seat) for p in state.players]
    try:
        found = result_of(state, events, players=seats)
        return tuple(found.of(seat).place for seat in seats)
    except TournamentError:  # no result (a ruling): ranked by score, ties sharing
        scores = [p.score for p in state.players]
        return tuple(1 + sum(other > mine for other in scores) for mine in scores)


def _fate(state: GameState, seat: int, out: dict[int, tuple[PlayerEliminated, int]]) -> str:
    """What became of ``seat``'s Titan: standing, slain (by whom, in which game turn), or
    its player withdrew (RULES §12.1–12.5)."""
    won = state.result is not None and seat in state.result.winners
    if seat not in out:
        return "Titan stands: winner" if won else "Titan stands"
    event, turn = out[seat]
    if event.reason == WITHDREW:
        return f"withdrew in turn {turn}"
    to = f" to {state.player(event.by).name}" if event.by is not None else ""
    end = " (the last Titans fell together)" if won else ""
    if event.reason == TITAN_LOST:
        return f"Titan lost{to} in turn {turn}{end}"
    return f"out in turn {turn}{end}"


async def game_course(database: Store, row: GameRow) -> Course:
    """The course of the stored game ``row`` (started): its rows read in one transaction,
    then replayed outside it, in a worker thread. Raises
    :class:`~bot.storage.record.DamagedLog` when its log cannot be replayed."""
    async with database.reading() as db:
        seats = await rows.seats(db, row.id)
        log = await rows.actions(db, row.id)
    try:
        start = initial_state(row, seats)[0]
    except TitanError as exc:
        raise DamagedLog("the game cannot be set up from its seed", None, str(exc)) from exc
    return await asyncio.to_thread(course_of, row.id, start, log)


async def readable_course(db: Store, row: GameRow) -> Course | None:
    """How the game of ``row`` went, or None when its log cannot be replayed (its final
    card is then not drawn; a warning is logged)."""
    try:
        return await game_course(db, row)
    except DamagedLog as exc:
        log.warning("game %s: its course cannot be read: %s", row.id, exc)
        return None
