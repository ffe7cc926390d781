"""What one seat (or a spectator) may see of a game (RULES §1.7; errata 4.5, 20.0; SoP).

:func:`view` is the only way the bot and the renderer look at a game for a player. Every
legion shows its marker, owner, land and height; its characters only to its owner, to
the two players of its engagement (§5.2), to everyone during its battle (§5.7) and, once
the game is over, for the winners' legions (§12.5). With the record-keeping option
(errata 20.0) ``known`` lists what the rules revealed to everyone (§1.7), otherwise
nothing. :func:`events_for` filters events by their audience.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.battle.position import Side
from engine.characters import titan_power
from engine.game.events import Event
from engine.game.game_turns import game_turn
from engine.game.legal import to_act
from engine.game.moving import pending_engagements
from engine.game.outcome import aftermath_seat
from engine.game.state import (
    Engagement,
    GameState,
    Legion,
    MoveRecord,
    OfferedProposal,
    Phase,
    Result,
    Stage,
)
from engine.movement import MoveKind


@dataclass(frozen=True)
class PlayerView:
    """A player as everyone sees him."""

    seat: int
    name: str
    colour: str | None
    tower: int
    score: int
    titan_power: int
    legions: int
    markers_left: int
    eliminated: bool
    withdrawing: bool


@dataclass(frozen=True)
class LegionView:
    """A legion as one seat sees it: ``characters`` is None when hidden from it."""

    marker: str
    owner: int
    colour: str | None
    land: int
    height: int
    characters: tuple[str, ...] | None
    known: tuple[str, ...]
    """What every player has seen (record keeping, errata 20.0); empty without it."""


@dataclass(frozen=True)
class MoveView:
    """A move of this turn (public: the board shows it; a teleport shows its lord)."""

    marker: str
    start: int
    land: int
    kind: MoveKind
    entry_side: int | None
    lord: str | None


@dataclass(frozen=True)
class AftermathView:
    """The winner's remaining decisions after an engagement (RULES §11.3).

    Whether he may still summon or reinforce depends on hidden legions (a donor's Angel,
    the recruiters): only the winner is told; others see None.
    """

    winner: Side | None
    points: int
    may_summon: bool | None
    may_reinforce: bool | None
    acquisitions: tuple[int, ...]


@dataclass(frozen=True)
class EngagementView:
    """The engagement being resolved; proposals only for its two players (RULES §5.4)."""

    land: int
    attacker: str
    defender: str
    entry_side: int
    stage: Stage
    to_act: Side
    may_flee: bool
    proposals: tuple[OfferedProposal, ...]
    no_more: Side | None
    aftermath: AftermathView | None


@dataclass(frozen=True)
class View:
    """A whole game as ``seat`` (None: a spectator) may see it."""

    seat: int | None
    players: tuple[PlayerView, ...]
    legions: tuple[LegionView, ...]
    """Every legion on the board, by marker."""
    phase: Phase
    active: int
    to_act: int | None
    turn: int
    """Player turns played so far, this one included (``Turn.number``)."""
    game_turn: int
    """The game turn, as players count them (:func:`~engine.game.game_turns.game_turn`)."""
    first_turn: bool
    roll: int | None
    moves: tuple[MoveView, ...]
    engagements: tuple[int, ...]
    """Lands still to be engaged this phase (RULES §5.1)."""
    engagement: EngagementView | None
    caretaker: Mapping[str, int]
    dead: Mapping[str, int]
    final_turns: int | None
    result: Result | None


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see of ``state`` (RULES §1.7); ``seat`` None is a spectator."""
    if seat is not None:
        state.player(seat)
    return View(
        seat=seat,
        players=tuple(_player(state, p.seat) for p in state.players),
        legions=tuple(
            legion_view(state, leg, seat)
            for leg in sorted(state.legions.values(), key=lambda leg: leg.marker)
        ),
        phase=state.phase,
        active=state.active,
        to_act=to_act(state),
        turn=state.turn.number,
        game_turn=game_turn(state),
        first_turn=state.turn.first_turn,
        roll=state.turn.roll,
        moves=tuple(_move(m) for m in state.turn.moves),
        engagements=pending_engagements(state) if state.phase is Phase.ENGAGE else (),
        engagement=_engagement(state, seat),
        caretaker=dict(state.caretaker),
        dead={name: n for name, n in state.dead.items() if n},
        final_turns=state.final_turns,
        result=state.result,
    )


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` (None: a spectator) may see, in order (RULES §1.7)."""
    return [event for event in events if event.visible_to(seat)]


def may_see(state: GameState, legion: Legion, seat: int | None) -> bool:
    """Whether ``seat`` may see ``legion``'s characters now (RULES §1.7, §5.2, §5.7, §12.5)."""
    if seat == legion.owner:
        return True
    if state.result is not None:
        return legion.owner in state.result.winners
    engagement = state.engagement
    if engagement is None or legion.marker not in (engagement.attacker, engagement.defender):
        return False
    return engagement.stage is Stage.BATTLE or seat in _engaged_seats(state, engagement)


def _engaged_seats(state: GameState, engagement: Engagement) -> set[int]:
    return {
        state.legions[m].owner
        for m in (engagement.attacker, engagement.defender)
        if m in state.legions
    }


def _player(state: GameState, seat: int) -> PlayerView:
    player = state.player(seat)
    legions = sum(1 for _ in state.legions_of(seat))
    return PlayerView(
        seat=seat,
        name=player.name,
        colour=player.colour,
        tower=player.tower,
        score=player.score,
        titan_power=titan_power(player.score),
        legions=legions,
        markers_left=len(player.markers) - legions,
        eliminated=player.eliminated,
        withdrawing=player.withdrawing,
    )


def legion_view(state: GameState, legion: Legion, seat: int | None) -> LegionView:
    """What ``seat`` may see of one legion (its line of :func:`view`'s legions)."""
    return LegionView(
        marker=legion.marker,
        owner=legion.owner,
        colour=state.player(legion.owner).colour,
        land=legion.land,
        height=legion.height,
        characters=legion.characters if may_see(state, legion, seat) else None,
        known=legion.revealed if state.options.record_keeping else (),
    )


def _move(record: MoveRecord) -> MoveView:
    return MoveView(
        record.marker, record.start, record.land, record.kind, record.entry_side, record.revealed
    )


def _engagement(state: GameState, seat: int | None) -> EngagementView | None:
    engagement = state.engagement
    if engagement is None:
        return None
    aftermath = engagement.aftermath
    party = seat is not None and seat in _engaged_seats(state, engagement)
    winner = seat is not None and seat == aftermath_seat(state)
    return EngagementView(
        land=engagement.land,
        attacker=engagement.attacker,
        defender=engagement.defender,
        entry_side=engagement.entry_side,
        stage=engagement.stage,
        to_act=engagement.to_act,
        may_flee=engagement.may_flee,
        proposals=engagement.proposals if party else (),
        no_more=engagement.no_more,
        aftermath=None
        if aftermath is None
        else AftermathView(
            aftermath.winner,
            aftermath.points,
            aftermath.may_summon if winner else None,
            aftermath.may_reinforce if winner else None,
            aftermath.acquisitions,
        ),
    )
