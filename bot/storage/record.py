"""A game as the service holds it: its row, seats and engine state, loaded and stored.

Loading is the newest trusted snapshot plus a replay of the later actions; storing one
action is one transaction (log row, snapshot every ``snapshot_every`` actions, status).
A snapshot is trusted when its checksum holds (:mod:`bot.storage.checksum`); one that
fails it is skipped with a warning and an earlier one (or the seed) is used. A log that
cannot be read back (a missing action, unreadable JSON, an action the engine refuses on
replay, unreadable settings) raises :class:`DamagedLog`, naming where.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.storage import ActionRow, GameRow, SeatRow, Status, Store
from bot.storage import games as rows
from bot.storage.autostrike import Mode
from bot.storage.checksum import checksum_holds
from bot.storage.connection import Connection
from bot.storage.eventlog import events_to_json
from bot.untrusted import loads
from engine.ai.levels import DEFAULT, STAND_IN, Level
from engine.codec import decode, encode
from engine.errors import IllegalAction, TitanError
from engine.game.actions import Action, action_from_json, action_to_json
from engine.game.apply import apply
from engine.game.events import Event
from engine.game.setup import new_game
from engine.game.state import GameState, Options

log = logging.getLogger(__name__)

MAX_PLAYERS = 6
MIN_PLAYERS = 2


class DamagedLog(Exception):
    """A game's stored record cannot be read back.

    ``reason`` is plain words safe for the channel ("action 57 cannot be read"); ``n`` the
    first action concerned (None when it is not one action); ``detail`` what exactly
    failed, for the log and organisers' exports only; ``row`` the game's row, when known.
    """

    def __init__(self, reason: str, n: int | None = None, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.n = n
        self.detail = detail
        self.row: GameRow | None = None


class UnusableSnapshot(Exception):
    """A snapshot whose checksum holds cannot be decoded (written by another version)."""

    def __init__(self, n: int) -> None:
        super().__init__(f"snapshot {n} cannot be decoded")
        self.n = n


@dataclass(frozen=True)
class Invitation:
    """A seat offered by the host to a user, who takes it only by accepting."""

    user: int
    name: str


AWAY_DAYS = 14
"""The most days a player's time away stops a game's clocks, unless an organiser says."""
MOST_AWAY_DAYS = 90
"""The most days one time away may last (``away until``) and a game may allow."""


@dataclass(frozen=True)
class Timing:
    """A game's clock (see :mod:`bot.schedule`): how long one decision may wait
    (``deadline`` seconds; None: no deadline), what a passed deadline does (``on_timeout``:
    ``ai``, ``pass`` or ``pause``), when the awaited player is reminded (``remind_at``:
    fractions of the deadline gone, and ``remind_before`` seconds before it; without a
    deadline after ``idle`` seconds, then every ``idle`` seconds, at most ``idle_reminders``
    times), and after how many timeouts in a row the organiser is asked to replace them."""

    deadline: int | None = None
    on_timeout: str = "ai"
    remind_at: tuple[float, ...] = (0.5,)
    remind_before: int = 3600
    idle: int = 86400
    idle_reminders: int = 3
    most_timeouts: int = 3
    inactivity: bool = False
    """The optional inactivity rule (RULES §12.4, errata 20.4) after ``most_timeouts``."""
    away_days: int = AWAY_DAYS
    """The most days a player's time away stops their clocks in this game (0: it never
    does, a tournament's choice)."""
    expires_at: float | None = None
    """The real-clock time limit (errata 21.1): the game expires by itself then."""
    stand_in: Level = STAND_IN
    """The level the computer plays at for a player (:mod:`engine.ai.levels`): after a
    passed deadline, and while they are away with the computer standing in."""


NO_CLOCK = Timing()
"""The clock of a casual game: no deadline, reminders after a day idle."""


@dataclass(frozen=True)
class TableRef:
    """A tournament's table: the tournament, the heat (or bracket round) and its number."""

    tournament: int
    heat: int
    number: int


@dataclass(frozen=True)
class Settings:
    """Chosen when the game is opened (``players``: the most seats); ``invited``: the seats
    offered and not yet accepted or refused."""

    host: int
    players: int = MAX_PLAYERS
    record_keeping: bool = False
    time_limit: bool = False
    invited: tuple[Invitation, ...] = ()
    timing: Timing = NO_CLOCK
    rated: bool = True
    """Whether the result moves the players' ratings."""
    table: TableRef | None = None
    """The tournament table the game is played at."""
    two_player_rules: bool = False
    """The 2-player event's start rules (``engine.game.state.TWO_PLAYER_EVENT``)."""
    autostrike: Mode = "all"
    """The most a player's ``autostrike`` makes at this game (a tournament's choice:
    :mod:`bot.handlers.autostrike`)."""

    def invitation(self, user: int) -> Invitation | None:
        return next((i for i in self.invited if i.user == user), None)

    def without_invitation(self, user: int) -> Settings:
        return replace(self, invited=tuple(i for i in self.invited if i.user != user))

    @property
    def options(self) -> Options:
        return Options(
            record_keeping=self.record_keeping,
            time_limit=self.time_limit,
            opposite_towers=self.two_player_rules,
            first_turn_rerolls=self.two_player_rules,
            first_turn_teleport_no_tower=self.two_player_rules,
        )

    def to_json(self) -> dict[str, Any]:
        return dict(encode(self))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        settings: Settings = decode(cls, data)
        return settings


_DECODED: dict[int, tuple[dict[str, Any], Settings]] = {}
"""The settings last decoded from each row's dict (by identity: a game's row is copied
with every action, its settings dict with it, and never changed in place)."""
_DECODED_MOST = 256


def _settings_of(data: dict[str, Any]) -> Settings:
    """:meth:`Settings.from_json` of ``data``, decoded once while ``data`` is in use."""
    found = _DECODED.get(id(data))
    if found is not None and found[0] is data:
        return found[1]
    settings = Settings.from_json(data)
    if len(_DECODED) >= _DECODED_MOST:
        _DECODED.pop(next(iter(_DECODED), 0), None)  # the oldest
    _DECODED[id(data)] = (data, settings)  # holding ``data`` keeps its id from reuse
    return settings


@dataclass(frozen=True)
class Game:
    """A loaded game: ``state`` is None in the lobby; ``n`` actions have been applied."""

    row: GameRow
    seats: tuple[SeatRow, ...]
    state: GameState | None = None
    n: int = 0

    @property
    def id(self) -> int:
        return self.row.id

    @cached_property
    def settings(self) -> Settings:
        return _settings_of(self.row.settings)

    def seat_of(self, user: int) -> int | None:
        return next((s.seat for s in self.seats if s.user == user), None)

    def user_of(self, seat: int) -> int:
        return next(s.user for s in self.seats if s.seat == seat)

    def name_of(self, seat: int) -> str:
        return next(s.name for s in self.seats if s.seat == seat)

    def is_ai(self, seat: int) -> bool:
        """Whether the computer plays ``seat`` (an AI seat)."""
        return any(s.is_ai for s in self.seats if s.seat == seat)

    def level_of(self, seat: int) -> Level:
        """The level the computer plays AI seat ``seat`` at (the default when not chosen)."""
        return next((s.ai_level for s in self.seats if s.seat == seat), DEFAULT)

    @property
    def host(self) -> int | None:
        """The user holding the host's powers: the host while he holds a seat that is still
        in the game (None when no human is left to hold them; organisers keep theirs)."""
        host = self.settings.host
        seat = self.seat_of(host)
        if seat is None or self.is_ai(seat):
            return None
        if self.state is not None and self.state.player(seat).eliminated:
            return None
        return host

    def next_host(self) -> int | None:
        """Who should hold the host's powers now: the host, else the first human still in
        the game (by seat), else nobody."""
        if self.host is not None:
            return self.host
        for seat in sorted(self.seats, key=lambda s: s.seat):
            out = self.state is not None and self.state.player(seat.seat).eliminated
            if not seat.is_ai and not out:
                return seat.user
        return None

    def playing(self) -> GameState:
        """The engine state; :class:`IllegalAction` while in the lobby."""
        if self.state is None:
            raise IllegalAction(
                "the game has not started yet: the host starts it with `start` (until then "
                "a seat is given up with `leave`)"
            )
        return self.state


def encode_state(state: GameState) -> str:
    return json.dumps(encode(state), separators=(",", ":"))


def decode_state(text: str) -> GameState:
    state: GameState = decode(GameState, loads(text))
    return state


def read_action(entry: ActionRow) -> Action:
    """The logged action; :class:`DamagedLog` when its JSON (action or events) is unreadable."""
    try:
        action = action_from_json(loads(entry.action))
        events = loads(entry.events)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise DamagedLog(f"action {entry.n} cannot be read", entry.n, str(exc)) from exc
    if not isinstance(events, list):
        raise DamagedLog(f"action {entry.n} cannot be read", entry.n, "its events are not a list")
    return action


def replay_entry(state: GameState, entry: ActionRow) -> tuple[GameState, list[Event]]:
    """Apply one logged action; :class:`DamagedLog` when it is unreadable or refused."""
    action = read_action(entry)
    try:
        return apply(state, entry.seat, action)
    except TitanError as exc:
        reason = f"action {entry.n} is refused by the rules on replay"
        raise DamagedLog(reason, entry.n, str(exc)) from exc


def replay_rows(
    state: GameState,
    log: Sequence[ActionRow],
    start: int = 0,
    watch: Callable[[int, GameState], None] | None = None,
) -> GameState:
    """``state`` (after ``start`` actions) after the logged actions, which must follow it
    without a gap (their stored dice make the same rolls); :class:`DamagedLog` otherwise.
    ``watch`` is shown the state after each action, with the action's number."""
    for expected, entry in enumerate(log, start + 1):
        if entry.n != expected:
            raise DamagedLog(f"action {expected} is missing", expected)
        state, _ = replay_entry(state, entry)
        if watch is not None:
            watch(entry.n, state)
    return state


@dataclass(frozen=True)
class Stored:
    """What the database holds for a game: enough to rebuild it without the database.

    ``snapshot`` is the newest trusted one (n, state JSON); ``missing`` the action numbers
    absent from the log.
    """

    row: GameRow
    seats: tuple[SeatRow, ...]
    snapshot: tuple[int, str] | None
    log: tuple[ActionRow, ...]
    missing: tuple[int, ...] = ()


async def trusted_snapshot(
    db: Connection, game_id: int, before: int | None = None
) -> tuple[int, str] | None:
    """The newest snapshot (taken after fewer than ``before`` actions) whose checksum holds.

    One that fails its checksum is skipped with a warning; one without a checksum
    (written before migration 2) is skipped quietly: never trusted, the replay covers it.
    """
    while (snapshot := await rows.snapshot_before(db, game_id, before)) is not None:
        if checksum_holds(game_id, snapshot.n, snapshot.state, snapshot.checksum):
            return snapshot.n, snapshot.state
        if snapshot.checksum is not None:
            log.warning(
                "game %s: the snapshot after action %s fails its checksum: ignored, the game "
                "is replayed from an earlier snapshot or its seed",
                game_id,
                snapshot.n,
            )
        before = snapshot.n
    return None


async def fetch_game(db: Connection, row: GameRow, before: int | None = None) -> Stored:
    """The rows needed to load ``row``'s game: its newest trusted snapshot (taken after
    fewer than ``before`` actions, when given) and the later actions."""
    seats = tuple(await rows.seats(db, row.id))
    if row.status is Status.LOBBY:
        return Stored(row, seats, None, ())
    upto = await rows.last_snapshot_n(db, row.id)
    missing = tuple(await rows.missing_actions(db, row.id, upto))
    snapshot = await trusted_snapshot(db, row.id, before)
    log = await rows.actions(db, row.id, snapshot[0] if snapshot else 0)
    return Stored(row, seats, snapshot, tuple(log), missing)


def build_game(stored: Stored) -> Game:
    """The loaded game: the snapshot (or the seed) plus a replay of the actions after it.

    Raises :class:`DamagedLog` when the record cannot be read back, and
    :class:`UnusableSnapshot` when the trusted snapshot cannot be decoded.
    """
    if stored.missing:
        raise DamagedLog(f"action {stored.missing[0]} is missing", stored.missing[0])
    read_settings(stored.row)
    if stored.row.status is Status.LOBBY:
        return Game(stored.row, stored.seats)
    start, state = starting_state(stored.row, stored.seats, stored.snapshot)
    state = replay_rows(state, stored.log, start)
    return Game(stored.row, stored.seats, state, start + len(stored.log))


def starting_state(
    row: GameRow, seats: Sequence[SeatRow], snapshot: tuple[int, str] | None
) -> tuple[int, GameState]:
    """Where a replay starts: the snapshot (n, state JSON), or the seed (0 actions).

    Raises :class:`UnusableSnapshot` when the snapshot cannot be decoded, and
    :class:`DamagedLog` when the seed cannot set the game up.
    """
    if snapshot is None:
        return 0, started_state(row, seats)
    try:
        return snapshot[0], decode_state(snapshot[1])
    except (ValueError, TypeError) as exc:
        raise UnusableSnapshot(snapshot[0]) from exc


def read_settings(row: GameRow) -> Settings:
    """The game's settings; :class:`DamagedLog` when they cannot be read."""
    try:
        return Settings.from_json(row.settings)
    except TitanError as exc:
        raise DamagedLog("its settings cannot be read", None, str(exc)) from exc


async def load_game(db: Connection, row: GameRow) -> Game:
    """Fetch and build in one go (the replay runs in a worker thread); raises
    :class:`DamagedLog` like :func:`build_game`."""
    before: int | None = None
    while True:
        stored = await fetch_game(db, row, before)
        try:
            return await asyncio.to_thread(build_game, stored)
        except UnusableSnapshot as exc:
            log.warning("game %s: %s: replaying from an earlier one", row.id, exc)
            before = exc.n


async def load_open_game(database: Store, channel: int) -> Game | None:
    """The open game of ``channel``, loaded; the reads are one consistent transaction and
    the replay runs outside it, in a worker thread. Raises :class:`DamagedLog` with the
    game's row as ``row``."""
    return await _load_in(database, channel, rows.open_game)


async def load_finished_game(database: Store, channel: int) -> Game | None:
    """The finished game of ``channel`` (:func:`~bot.storage.games.finished_game`: its
    newest game, once over), loaded as :func:`load_open_game` loads the open one; raises
    :class:`DamagedLog` likewise."""
    return await _load_in(database, channel, rows.finished_game)


async def _load_in(
    database: Store, channel: int, find: Callable[[Connection, int], Awaitable[GameRow | None]]
) -> Game | None:
    """The game of ``channel`` that ``find`` gives, loaded (see :func:`load_open_game`)."""
    before: int | None = None
    while True:
        async with database.reading() as db:
            row = await find(db, channel)
            stored = await fetch_game(db, row, before) if row else None
        if row is None or stored is None:
            return None
        try:
            return await asyncio.to_thread(build_game, stored)
        except UnusableSnapshot as exc:
            log.warning("game %s: %s: replaying from an earlier one", row.id, exc)
            before = exc.n
        except DamagedLog as exc:
            exc.row = row
            raise


def initial_state(row: GameRow, seats: Sequence[SeatRow]) -> tuple[GameState, list[Event]]:
    """The state a started game begins in (its stored seed and settings)."""
    if row.seed is None:
        raise IllegalAction("the game has no seed: it was never started")
    settings = Settings.from_json(row.settings)
    return new_game([s.name for s in seats], row.seed, settings.options)


def started_state(row: GameRow, seats: Sequence[SeatRow]) -> GameState:
    """:func:`initial_state` of a stored game; :class:`DamagedLog` when it cannot be made."""
    try:
        return initial_state(row, seats)[0]
    except TitanError as exc:
        raise DamagedLog("the game cannot be set up from its seed", None, str(exc)) from exc


async def state_at(db: Connection, row: GameRow, n: int) -> GameState | None:
    """The state of ``row``'s game after its first ``n`` actions (from the newest trusted
    snapshot before them), or None when the log holds fewer; :class:`DamagedLog` when it
    cannot be read back."""
    stored = await fetch_game(db, row, before=n + 1)
    if stored.row.status is Status.LOBBY or stored.missing:
        return None
    start, state = starting_state(stored.row, stored.seats, stored.snapshot)
    upto = [entry for entry in stored.log if entry.n <= n]
    if start > n or start + len(upto) != n:
        return None
    return replay_rows(state, upto, start)


async def full_replay(db: Connection, row: GameRow) -> GameState:
    """The state rebuilt from the seed and every logged action (no snapshot)."""
    seats = await rows.seats(db, row.id)
    log = await rows.actions(db, row.id)
    return await asyncio.to_thread(lambda: replay_rows(initial_state(row, seats)[0], log))


async def store_action(
    db: Connection,
    game: Game,
    seat: int,
    action: Action,
    events: Sequence[Event],
    after: GameState,
    snapshot_every: int,
    *,
    cause: str | None = None,
    at: float | None = None,
) -> Game:
    """Log ``action`` (inside the caller's transaction) and return the game after it;
    ``cause`` says why it was given when its seat did not give it (a passed deadline);
    ``at`` is when, by the service's clock (None: now).

    The log row carries the player turn the action was played in (``state.turn.number``
    before it), which lets ``history`` read only the window it shows.
    """
    n = game.n + 1
    turn = game.state.turn.number if game.state is not None else None
    action_text = json.dumps(action_to_json(action))
    status = Status.OVER if after.result is not None else Status.ACTIVE
    # First the game's row, from the revision the action was chosen at: a writer that
    # got there first makes this one lose the race (LostRace) before anything is logged.
    revision = await rows.update_game(db, game.id, status, expect=game.row.revision)
    player = next((s.user for s in game.seats if s.seat == seat), None)
    await rows.append_action(
        db, game.id, n, seat, action_text, events_to_json(events),
        turn=turn, cause=cause, at=at, player=player,
    )  # fmt: skip
    if snapshot_every > 0 and n % snapshot_every == 0:
        await rows.save_snapshot(db, game.id, n, encode_state(after))
    row = replace(game.row, status=status, revision=revision)
    return replace(game, row=row, state=after, n=n)
