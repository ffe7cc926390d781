"""A long, genuine two-player game for tests and benchmarks of the action log.

The agent plays random legal actions through the engine, often takes back a move or undoes
a split (at most :data:`TAKE_BACKS` times a phase, far below any cap), and keeps
both Titans out of harm (it never attacks with or into a Titan legion when it has a
choice, and the other side gives way when a Titan is engaged), so the game lasts as long
as asked while still holding engagements and battles. A game that ends early anyway is
played again from the next seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from bot.storage import SeatRow, Status
from bot.storage import games as rows
from bot.storage.connection import Connection
from bot.storage.eventlog import events_to_json
from bot.storage.record import encode_state
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.actions import action_to_json
from engine.game.apply import apply
from engine.game.events import Event
from engine.game.legal import legal_actions, to_act
from engine.game.setup import new_game
from engine.game.state import GameState

NAMES = ("Ann", "Bob")
SNAPSHOT_EVERY = 50
TAKE_BACKS = 20
"""Take-backs (or undone splits) a phase at most (the engine may cap them at 50)."""
SKIP = (a.Withdraw, a.TakeBack, a.UndoSplit, a.ExpireTimeLimit, b.TakeBackManeuver)
PEACEFUL = (a.Flee, a.Concede, a.Propose, a.NoMoreProposals, a.Accept, b.ConcedeInstead)
GIVING_WAY = (a.Concede, b.ConcedeInstead, a.Flee)


@dataclass(frozen=True)
class Logged:
    """One action of the log: who, what, what happened, and the player turn it was in."""

    n: int
    seat: int
    action: a.Action
    events: tuple[Event, ...]
    turn: int
    """``state.turn.number`` before the action."""


@dataclass(frozen=True)
class LongGame:
    seed: int
    start: GameState
    log: tuple[Logged, ...]
    final: GameState
    snapshots: dict[int, GameState] = field(default_factory=dict)
    """The state after every :data:`SNAPSHOT_EVERY` actions, by action number."""


def _has_titan(state: GameState, marker: str) -> bool:
    legion = state.legions.get(marker)
    return legion is not None and "Titan" in legion.characters


def _risks_a_titan(state: GameState, action: a.Action) -> bool:
    """Whether ``action`` moves a legion into an engagement with a Titan on either side."""
    if not isinstance(action, a.Move):
        return False
    mover = state.legions[action.legion]
    enemies = [
        leg
        for leg in state.legions.values()
        if leg.land == action.land and leg.owner != mover.owner
    ]
    return bool(enemies) and (
        "Titan" in mover.characters or any("Titan" in leg.characters for leg in enemies)
    )


def _spare_titans(state: GameState, seat: int, choices: list[a.Action]) -> a.Action | None:
    """In an engagement with a Titan: the other side gives way, the Titan's side fights."""
    engagement = state.engagement
    if engagement is None:
        return None
    attacker = state.legions.get(engagement.attacker)
    mine = engagement.attacker if attacker and attacker.owner == seat else engagement.defender
    theirs = engagement.defender if mine == engagement.attacker else engagement.attacker
    if _has_titan(state, theirs) and not _has_titan(state, mine):
        return next((x for x in choices if isinstance(x, GIVING_WAY)), None)
    if _has_titan(state, mine):
        return next((x for x in choices if not isinstance(x, (*GIVING_WAY, a.Propose))), None)
    return None


def _choose(
    state: GameState, seat: int, legal: list[a.Action], rng: random.Random, undoing: bool
) -> a.Action:
    """A random playable action of ``legal``; while ``undoing``, mostly a move or a split."""
    choices = [x for x in legal if not isinstance(x, SKIP)]
    spared = _spare_titans(state, seat, choices)
    if spared is not None:
        return spared
    playable = [x for x in choices if not _risks_a_titan(state, x)] or choices
    undoable = [x for x in playable if _undoing(x) is not None]
    if undoing and undoable and rng.random() < 0.98:
        return rng.choice(undoable)
    warlike = [x for x in playable if not isinstance(x, PEACEFUL)]
    if warlike and rng.random() < 0.97:
        playable = warlike
    return rng.choice(playable)


def _undoing(action: a.Action) -> a.Action | None:
    """What takes ``action`` back: a move's take-back, a split's undoing (errata 7.0, 4.7)."""
    if isinstance(action, a.Move):
        return a.TakeBack(action.legion)
    if isinstance(action, a.Split):
        return a.UndoSplit(action.new_marker)
    return None


def _attempt(length: int, seed: int) -> LongGame | None:
    rng = random.Random(seed)
    start, _ = new_game(list(NAMES), seed)
    state = start
    log: list[Logged] = []
    snapshots: dict[int, GameState] = {}
    phase, taken = (0, state.phase), 0
    known: tuple[GameState, list[a.Action]] | None = None

    def play(seat: int, action: a.Action) -> None:
        nonlocal state
        turn = state.turn.number
        state, events = apply(state, seat, action)
        log.append(Logged(len(log) + 1, seat, action, tuple(events), turn))
        if len(log) % SNAPSHOT_EVERY == 0:
            snapshots[len(log)] = state

    while len(log) < length:
        if state.result is not None:
            return None
        seat = to_act(state)
        assert seat is not None
        if (state.turn.number, state.phase) != phase:
            phase, taken = (state.turn.number, state.phase), 0
        before = state
        legal = known[1] if known and known[0] == state else legal_actions(state, seat)
        action = _choose(state, seat, legal, rng, taken < TAKE_BACKS)
        play(seat, action)
        undo = _undoing(action)
        if undo and len(log) < length and taken < TAKE_BACKS and rng.random() < 0.95:
            play(seat, undo)
            taken += 1
            known = (before, legal)  # taken back: most likely the same choices again
    return LongGame(seed, start, tuple(log), state, snapshots)


def long_game(length: int, seed: int = 1, attempts: int = 50) -> LongGame:
    """A game of exactly ``length`` actions, not over (the first seed from ``seed`` whose
    game lasts that long)."""
    for tried in range(seed, seed + attempts):
        game = _attempt(length, tried)
        if game is not None:
            return game
    raise RuntimeError(f"no game of {length} actions from seeds {seed}…{seed + attempts - 1}")


def user_of(channel: int, seat: int) -> int:
    """The Discord user id of ``seat`` in the long game of ``channel``."""
    return channel * 100 + seat + 1


async def store_long_game(
    conn: Connection,
    channel: int,
    game: LongGame,
    *,
    length: int | None = None,
    turns: bool = True,
) -> int:
    """Write ``game`` (its first ``length`` actions) as an active game of ``channel``, with
    snapshots, straight to the tables (inside the caller's transaction); its id.

    Without ``turns`` the rows carry no player turn, as rows logged before it was kept.
    """
    log = game.log[:length]
    host = user_of(channel, 0)
    game_id = await rows.create_game(conn, channel, None, {"host": host})
    seats = [SeatRow(s, user_of(channel, s), name) for s, name in enumerate(NAMES)]
    await rows.set_seats(conn, game_id, seats)
    await rows.update_game(conn, game_id, Status.ACTIVE, seed=game.seed)
    await rows.save_snapshot(conn, game_id, 0, encode_state(game.start))
    for entry in log:
        text = json.dumps(action_to_json(entry.action))
        turn = entry.turn if turns else None
        events = events_to_json(entry.events)
        await rows.append_action(conn, game_id, entry.n, entry.seat, text, events, turn=turn)
        if entry.n in game.snapshots:
            await rows.save_snapshot(conn, game_id, entry.n, encode_state(game.snapshots[entry.n]))
    return game_id
