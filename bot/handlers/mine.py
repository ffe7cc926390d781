"""``mygames``: the caller's open games in every channel and server, those waiting for
them first.

An information command: it changes nothing and answers the caller alone. Each game is
named with its channel (``<#CHANNEL>``, which Discord shows as a link), its stage and
since when it waits: a lobby since it was opened, a game since the action that handed
the decision to the seat it waits for (``engine.game.legal.to_act``; the clock runs on
while that seat acts and still has the decision, as while it moves legion after legion).
That moment is read from the log: the replay that loads the game notes where the awaited
seat last changed, and only when it did not change since the newest snapshot are earlier
stretches of the log replayed, one snapshot back at a time. Nothing new is stored.

What a game waits for is the wording of the channel's "Waiting for …" line, without its
command hints, which would act in the channel they are typed in. It is as public as that
line: no legion's contents. The answer fits one Discord message: at most
:data:`MOST_LISTED` games, then how many more.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bot.context import Context
from bot.dialect import timestamp, without_hints
from bot.handlers.preferences import choices_text
from bot.narration.describe import waiting_for
from bot.narration.turns import turn_phrase
from bot.replies import Replies
from bot.storage import ActionRow, GameRow, Store, due, listing
from bot.storage import games as rows
from bot.storage.record import (
    DamagedLog,
    Game,
    Stored,
    UnusableSnapshot,
    build_game,
    fetch_game,
    replay_rows,
    starting_state,
    trusted_snapshot,
)
from bot.syntax import Args
from engine.game.legal import to_act
from engine.game.state import GameState

MOST_LISTED = 20
"""Games the answer lists; the others are counted."""
MOST_LOADED = 100
"""Games loaded to be sorted (the latest to change); any beyond are counted only."""
MAX_TEXT = 1980
"""Keep the answer inside one Discord message (2,000 characters; its text has no command
hint, so Discord shows it as long as it is)."""
_TAIL = 20
"""Room kept for the last line, ``… and N more``."""
NO_GAME = "You have no open game: `new` opens one here, `join` takes a seat in one being formed."


@dataclass(frozen=True)
class Listed:
    """One of the caller's games: its row, the game (None when its record cannot be read
    back) and since when it waits, as stored (ISO 8601; None when not known)."""

    row: GameRow
    game: Game | None
    since: str | None
    deadline: float | None = None
    """When the decision it waits for times out (None: no deadline)."""

    @property
    def awaited(self) -> int | None:
        """The seat the game waits for (None in a lobby, when over or unreadable)."""
        if self.game is None or self.game.state is None:
            return None
        return to_act(self.game.state)

    def waits_for(self, user: int) -> bool:
        seat = self.awaited
        return seat is not None and self.game is not None and self.game.user_of(seat) == user


async def mygames(ctx: Context, game: Game | None, args: Args) -> Replies:
    """Every open game the caller has a seat in, those waiting for them first (the longest
    waiting first), then the others (by number)."""
    args.finish()
    user = ctx.caller.user
    listed, unloaded = await my_games(ctx.db, user)
    async with ctx.db.reading() as db:
        choices = await choices_text(db, user, ctx.now())
    text = mine_text(listed, user, unloaded, choices) if listed else f"{NO_GAME}\n{choices}"
    return Replies.answer(text)


async def my_games(store: Store, user: int) -> tuple[list[Listed], int]:
    """``user``'s open games, loaded (the :data:`MOST_LOADED` latest to change), and how
    many more there are. Their rows are read in one go and replayed in one worker thread."""
    async with store.reading() as db:
        found = await listing.games_of(db, user)
        fetched = [await fetch_game(db, row) for row in found[:MOST_LOADED]]
        clocks = {row.id: await due.clock(db, row.id) for row in found[:MOST_LOADED]}
    looks = await asyncio.to_thread(lambda: [_look(stored) for stored in fetched])
    pairs = zip(fetched, looks, strict=True)
    listed = [await _finish(store, stored, look) for stored, look in pairs]
    listed = [
        replace(e, deadline=c.deadline) if (c := clocks.get(e.row.id)) is not None else e
        for e in listed
    ]
    return listed, len(found) - len(fetched)


@dataclass(frozen=True)
class _Earlier:
    """A game that waits for the same seat since before the actions it was loaded with:
    the moment is in an earlier stretch of the log, before action ``start``."""

    game: Game
    start: int


_Look = Listed | _Earlier | UnusableSnapshot
"""What a game's rows say: the game listed, its moment earlier in the log, or that its
snapshot cannot be decoded."""


def _look(stored: Stored) -> _Look:
    """The game loaded from its rows, and since when it waits if those rows say it."""
    row = stored.row
    try:
        base = build_game(replace(stored, log=()))
        if base.state is None:
            return Listed(row, base, row.created_at)
        state, handed = _last_handover(base.state, stored.log, base.n)
    except DamagedLog:
        return Listed(row, None, None)
    except UnusableSnapshot as exc:
        return exc
    game = replace(base, state=state, n=base.n + len(stored.log))
    if handed is not None:
        return Listed(row, game, _created(stored.log, handed))
    if base.n == 0:  # the same seat since the start
        return Listed(row, game, stored.log[0].created_at if stored.log else row.updated_at)
    return _Earlier(game, base.n)


async def _finish(store: Store, stored: Stored, look: _Look) -> Listed:
    """``look`` completed: reloaded from an earlier snapshot when the one read cannot be
    decoded, or its moment found in the earlier log."""
    while isinstance(look, UnusableSnapshot):
        async with store.reading() as db:
            stored = await fetch_game(db, stored.row, look.n)
        look = await asyncio.to_thread(_look, stored)
    if isinstance(look, Listed):
        return look
    try:
        since = await _handed_before(store, look.game, look.start)
    except DamagedLog:
        since = None
    return Listed(look.game.row, look.game, since)


async def _handed_before(store: Store, game: Game, start: int) -> str:
    """When the game began to wait for the seat it waits for, knowing that the seat did
    not change from action ``start`` on: the log before ``start`` replayed from the
    snapshot before it (then the one before that, …) up to the last change of seat."""
    end = before = start
    while True:
        async with store.reading() as db:
            snapshot = await trusted_snapshot(db, game.id, before)
            begin = snapshot[0] if snapshot is not None else 0
            log = await rows.actions(db, game.id, begin, end - begin)
        try:
            handed = await asyncio.to_thread(_stretch, game, snapshot, log)
        except UnusableSnapshot as exc:
            before = exc.n
            continue
        if handed is not None:
            return _created(log, handed)
        if begin == 0:
            return log[0].created_at if log else game.row.updated_at
        end = before = begin


def _stretch(game: Game, snapshot: tuple[int, str] | None, log: Sequence[ActionRow]) -> int | None:
    """The last action of ``log`` that changed the seat the game waits for, replayed from
    ``snapshot`` (or the seed)."""
    begin, state = starting_state(game.row, game.seats, snapshot)
    return _last_handover(state, log, begin)[1]


def _last_handover(
    state: GameState, log: Sequence[ActionRow], start: int
) -> tuple[GameState, int | None]:
    """``state`` (after ``start`` actions) after ``log``, and the number of the last of
    them after which the game waited for another seat than before it (None: none did)."""
    awaited, handed = to_act(state), None

    def watch(n: int, after: GameState) -> None:
        nonlocal awaited, handed
        seat = to_act(after)
        if seat != awaited:
            awaited, handed = seat, n

    return replay_rows(state, log, start, watch), handed


def _created(log: Sequence[ActionRow], n: int) -> str:
    return next(entry.created_at for entry in log if entry.n == n)


# --- the answer ------------------------------------------------------------------------------


def mine_text(listed: Sequence[Listed], user: int, unloaded: int = 0, footer: str = "") -> str:
    """The list: the games waiting for ``user`` (the longest waiting first), then the
    others (by number); at most :data:`MOST_LISTED` within :data:`MAX_TEXT` characters,
    then how many more, and ``footer``."""
    waiting = sorted((g for g in listed if g.waits_for(user)), key=lambda g: g.since or "")
    others = sorted((g for g in listed if not g.waits_for(user)), key=lambda g: g.row.id)
    count = len(listed) + unloaded
    lines = [f"Your open games: {count}, {len(waiting) or 'none'} waiting for you."]
    shown = 0
    sections = (("**Waiting for you**", waiting), ("**Your other games**", others))
    for title, games in sections if waiting else (("", others),):
        for index, entry in enumerate(games):
            line = game_line(entry, user)
            head = [title] if index == 0 and title else []
            size = len("\n".join([*lines, *head, line, footer]))
            if shown >= MOST_LISTED or size > MAX_TEXT - _TAIL:
                break
            lines += [*head, line]
            shown += 1
    if shown < count:
        lines.append(f"… and {count - shown} more")
    return "\n".join([*lines, footer] if footer else lines)


def game_line(entry: Listed, user: int) -> str:
    """One game: number, channel, stage, and since when it waits."""
    row, game = entry.row, entry.game
    head = f"- Game #{row.id} in <#{row.channel}>"
    if game is None:
        return f"{head}: its record cannot be read back (its channel says more)"
    if game.state is None:
        line = f"{head}: forming, {len(game.seats)} of {game.settings.players} seats taken"
        word = "opened"
    else:
        line, word = f"{head}, {stage(game, user)}", "asked"
    if entry.since is not None:
        line = f"{line}, {word} {_moment(entry.since)}"
    if entry.deadline is not None:
        line = f"{line}, deadline {timestamp(entry.deadline)}"
    return line


def stage(game: Game, user: int) -> str:
    """Where a started game stands: its game turn and whose it is (``turn 11, Bob's``) and
    what it waits for, in the words of the channel's waiting line."""
    state = game.playing()
    seat, task = waiting_for(state)
    mine = game.user_of(state.active) == user
    turn = turn_phrase(state, "yours" if mine else f"{game.name_of(state.active)}'s")
    if seat is None:
        return f"{turn}: {task}"
    who = "you" if game.user_of(seat) == user else game.name_of(seat)
    return f"{turn}: waiting for {who} to {without_hints(task)}"


def _moment(stored: str) -> str:
    return timestamp(datetime.fromisoformat(stored))
