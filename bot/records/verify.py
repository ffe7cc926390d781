"""A stored game checked against its replay from the seed (``check-db`` and the export).

What a game's rows claim is checked: its settings read; its seats are numbered from 0 and
fit the game; the log runs 1, 2, … without a gap; every action reads and the engine
accepts it on replay; its stored events are the replay's; every snapshot holds its
checksum and equals the replayed state after its number of actions; the stored status
agrees with how the log ends (a game an organiser adjudicated is over with a log that does
not end it; a cancelled one was never ended by its log). Snapshots written before
checksums existed have none: they are compared with the replay only (and counted apart).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.storage import ActionRow, GameRow, SeatRow, SnapshotRow, Status
from bot.storage import games as rows
from bot.storage.checksum import checksum_holds
from bot.storage.connection import Connection
from bot.storage.eventlog import events_to_json
from bot.storage.record import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    DamagedLog,
    Settings,
    decode_state,
    initial_state,
    replay_entry,
)
from engine.errors import TitanError
from engine.game.state import GameState
from engine.words import plural


@dataclass(frozen=True)
class Record:
    """Every stored row of one game."""

    row: GameRow
    seats: tuple[SeatRow, ...]
    actions: tuple[ActionRow, ...]
    snapshots: tuple[SnapshotRow, ...]


async def fetch_record(db: Connection, row: GameRow) -> Record:
    """The rows of ``row``'s game (inside the caller's reading transaction)."""
    seats = tuple(await rows.seats(db, row.id))
    actions = tuple(await rows.actions(db, row.id))
    return Record(row, seats, actions, tuple(await rows.snapshots(db, row.id)))


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a stored game, in plain words (``n``: the action concerned)."""

    game: int
    text: str
    n: int | None = None

    def __str__(self) -> str:
        return f"game #{self.game}: {self.text}"


@dataclass
class Verification:
    """What :func:`verify` found: the problems, how many actions replayed cleanly from
    the seed, and how many snapshots had no checksum to check (written before them)."""

    game: int
    problems: list[Problem] = field(default_factory=list)
    replayed: int = 0
    without_checksum: int = 0

    def add(self, text: str, n: int | None = None) -> None:
        self.problems.append(Problem(self.game, text, n))


def verify(record: Record, *, adjudicated: bool = False) -> Verification:
    """Check every row of ``record`` (a full replay from the seed: run it off the loop);
    ``adjudicated``: an organiser's ruling ended the game (it has a tournament result)."""
    row = record.row
    found = Verification(row.id)
    if row.damaged is not None and row.status.is_open:
        found.add(
            f"it is damaged ({row.damaged}) and not aborted yet: an organiser can export "
            f"it, then abort it (`cancel {row.id}`)"
        )
    settings = _settings(record, found)
    _check_seats(record, settings, found)
    if row.status is Status.LOBBY or row.seed is None:
        _check_unstarted(record, found)
        return found
    if settings is not None:
        _check_replay(record, found, adjudicated)
    return found


def _settings(record: Record, found: Verification) -> Settings | None:
    try:
        return Settings.from_json(record.row.settings)
    except TitanError as exc:
        found.add(f"its settings cannot be read ({exc})")
        return None


def _check_seats(record: Record, settings: Settings | None, found: Verification) -> None:
    numbers = [s.seat for s in record.seats]
    if numbers != list(range(len(numbers))):
        found.add(f"its seats are numbered {numbers}, not 0 to {len(numbers) - 1}")
    if settings is not None and len(numbers) > settings.players:
        found.add(f"it has {len(numbers)} seats for at most {settings.players} players")
    if record.row.seed is not None and not MIN_PLAYERS <= len(numbers) <= MAX_PLAYERS:
        found.add(f"it was started with {plural(len(numbers), 'seat')} (a game has 2 to 6)")


def _check_unstarted(record: Record, found: Verification) -> None:
    """A lobby (or a game cancelled before its start) has no seed, log or snapshot."""
    row = record.row
    if row.status in (Status.ACTIVE, Status.OVER):
        found.add(f"it is stored as {row.status.value} but has no seed")
    if row.status is Status.LOBBY and row.seed is not None:
        found.add("it is a lobby with a seed")
    if record.actions or record.snapshots:
        found.add(
            f"it was never started but holds {plural(len(record.actions), 'action')} "
            f"and {plural(len(record.snapshots), 'snapshot')}"
        )


def _check_replay(record: Record, found: Verification, adjudicated: bool) -> None:
    try:
        state = initial_state(record.row, record.seats)[0]
    except TitanError as exc:
        found.add(f"it cannot be set up from its seed ({exc})")
        return
    snapshots = {s.n: s for s in record.snapshots}
    if 0 in snapshots:
        _check_snapshot(snapshots[0], state, found)
    for index, entry in enumerate(record.actions):
        expected = index + 1
        later = len(record.actions) - index - 1
        if entry.n != expected:
            found.add(_missing(expected, entry.n - 1) + _unchecked(later + 1), expected)
            return
        try:
            after, events = replay_entry(state, entry)
        except DamagedLog as exc:
            found.add(f"{exc.reason} ({exc.detail}){_unchecked(later)}", entry.n)
            return
        if json.loads(entry.events) != json.loads(events_to_json(events)):
            found.add(f"the stored events of action {entry.n} differ from the replay", entry.n)
        state = after
        found.replayed = entry.n
        if entry.n in snapshots:
            _check_snapshot(snapshots[entry.n], state, found)
    last = found.replayed
    for n in sorted(n for n in snapshots if n > last):
        found.add(f"it has a snapshot after action {n}, but its log ends at action {last}", n)
    _check_status(record.row, state, found, adjudicated)


def _missing(first: int, last: int) -> str:
    if first == last:
        return f"action {first} is missing"
    return f"actions {first} to {last} are missing"


def _unchecked(count: int) -> str:
    if count <= 0:
        return ""
    return f"; the {count} later action{'s' if count > 1 else ''} could not be checked"


def _check_snapshot(snapshot: SnapshotRow, state: GameState, found: Verification) -> None:
    game, n = found.game, snapshot.n
    if snapshot.checksum is None:
        found.without_checksum += 1
    elif not checksum_holds(game, n, snapshot.state, snapshot.checksum):
        found.add(f"the snapshot after action {n} fails its checksum", n)
    try:
        stored = decode_state(snapshot.state)
    except (ValueError, TypeError):
        found.add(f"the snapshot after action {n} cannot be read", n)
        return
    if stored != state:
        found.add(f"the snapshot after action {n} differs from the replay", n)


def _check_status(row: GameRow, state: GameState, found: Verification, adjudicated: bool) -> None:
    if row.status is Status.OVER and state.result is None and not adjudicated:
        found.add("it is stored as over, but its log does not end it (and no ruling did)")
    if row.status is Status.ACTIVE and state.result is not None:
        found.add("its log ends it, but it is stored as active")
    if row.status is Status.CANCELLED and state.result is not None and row.damaged is None:
        found.add("its log ends it, but it is stored as cancelled")
