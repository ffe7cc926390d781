"""The movement phase: moves, take-backs, the obligation to move, recombining (RULES §2–§4)."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable

from engine.characters import TITAN
from engine.errors import IllegalAction, IllegalMove
from engine.frozen import evolve
from engine.game.actions import EndMovement, Move, Mulligan, TakeBack
from engine.game.common import (
    Step,
    add_revealed,
    contents,
    own_legion,
    require_active,
    require_phase,
    sort_names,
    take_back_limit,
    take_backs_left,
)
from engine.game.events import (
    Event,
    LegionMoved,
    MovementEnded,
    MovementRolled,
    MoveTakenBack,
    Recombined,
)
from engine.game.state import GameState, Legion, MoveRecord, Phase
from engine.movement import (
    MoveContext,
    MoveKind,
    MoveOption,
    check_move,
    has_normal_move,
    legal_moves,
    tower_teleports,
)
from engine.reveals import teleport_lords


def move_context(
    state: GameState, legion: Legion, characters: Iterable[str] | None = None
) -> MoveContext:
    """The situation of ``legion`` for moving now (its own land is where it starts).

    ``characters``: what the legion is taken to hold, which decides its teleports (default:
    all of it; a viewer who may not see it passes what he knows, :mod:`engine.game.reach`).
    """
    roll = state.turn.roll
    if roll is None:
        raise IllegalAction("roll for movement first (RULES §4.2)")
    friendly = {leg.land for leg in state.legions_of(legion.owner) if leg.marker != legion.marker}
    enemy = {leg.land for leg in state.legions.values() if leg.owner != legion.owner}
    return MoveContext.for_legion(
        legion.land,
        roll,
        legion.characters if characters is None else characters,
        friendly=friendly,
        enemy=enemy,
        score=state.player(legion.owner).score,
        teleported_this_turn=any(m.kind is not MoveKind.NORMAL for m in state.turn.moves),
        towers_barred=state.turn.first_turn and state.options.first_turn_teleport_no_tower,
    )


def has_moved(state: GameState, marker: str) -> bool:
    return any(m.marker == marker for m in state.turn.moves)


def move_options(
    state: GameState, legion: Legion, characters: Iterable[str] | None = None
) -> list[MoveOption]:
    """Every legal move of an unmoved legion now (empty once it has moved); with
    ``characters``, those of a legion holding them (see :func:`move_context`)."""
    if state.phase is not Phase.MOVE or has_moved(state, legion.marker):
        return []
    return legal_moves(move_context(state, legion, characters))


#: The movement rolls ``Options.first_turn_rerolls`` lets a player reroll on his first turn.
REROLLABLE = (2, 5)


def mulligan_refusal(state: GameState) -> str | None:
    """Why the mover may not reroll his movement die now, or None if he may (RULES §4.3:
    once, on his first turn, before any move stands). With ``Options.first_turn_rerolls``
    the mulligan is the 2-player event's instead: on his first turn, a 2 or a 5 may be
    rerolled however many rerolls came before, and no other number may."""
    turn = state.turn
    if not state.options.first_turn_rerolls:
        if not turn.first_turn or turn.mulligan_used:
            return "a mulligan is allowed once, on your first turn only (RULES §4.3)"
    elif not turn.first_turn:
        return "a 2 or a 5 may be rerolled on your first turn only (2-player event rules)"
    elif turn.roll not in REROLLABLE:
        return (
            f"only a 2 or a 5 may be rerolled on your first turn, not a {turn.roll} "
            "(2-player event rules)"
        )
    if turn.moves:
        return "take back every move before a mulligan (RULES §4.3)"
    return None


def mulligan(state: GameState, seat: int, action: Mulligan) -> Step:
    """Reroll the movement die, before any move stands (:func:`mulligan_refusal`)."""
    require_phase(state, Phase.MOVE, doing="take a mulligan", seat=seat)
    require_active(state, seat)
    refusal = mulligan_refusal(state)
    if refusal is not None:
        raise IllegalAction(refusal)
    value, dice = state.dice.roll_one()
    turn = evolve(state.turn, roll=value, mulligan_used=True)
    return evolve(state, dice=dice, turn=turn), [MovementRolled(seat, value, mulligan=True)]


def _kind_for(ctx: MoveContext, action: Move) -> MoveKind:
    if action.kind is not None:
        return action.kind
    options = [o for o in legal_moves(ctx) if o.destination == action.land]
    if not options and ctx.towers_barred:
        # A Tower that only the first-turn bar keeps out: refuse it as the teleport it is.
        unbarred = tower_teleports(dataclasses.replace(ctx, towers_barred=False))
        options = [o for o in unbarred if o.destination == action.land]
    kinds = {o.kind for o in options}
    return MoveKind.NORMAL if MoveKind.NORMAL in kinds or len(kinds) != 1 else kinds.pop()


def _teleport_lord(legion: Legion, kind: MoveKind, wanted: str | None) -> str | None:
    """The lord a teleport reveals (RULES §4.4, §4.5): the Titan for a Titan teleport; for
    a tower teleport ``wanted``, by default the least revealing of :func:`teleport_lords`."""
    if kind is MoveKind.NORMAL:
        return None
    if kind is MoveKind.TITAN_TELEPORT:
        return TITAN
    lords = teleport_lords(legion.characters)
    if wanted is None:
        return lords[0]
    if wanted not in lords:
        raise IllegalMove(f"{legion.marker} has no {wanted} to reveal for a teleport (RULES §4.4)")
    return wanted


def move(state: GameState, seat: int, action: Move) -> Step:
    """Move one legion, fixing its entry side (RULES §2.3, §4.4–§4.8)."""
    require_phase(state, Phase.MOVE, doing="move", seat=seat)
    require_active(state, seat)
    legion = own_legion(state, seat, action.legion)
    if has_moved(state, legion.marker):
        raise IllegalMove(f"{legion.marker} has moved already; take it back first (errata 7.0)")
    ctx = move_context(state, legion)
    kind = _kind_for(ctx, action)
    option = check_move(ctx, action.land, kind, action.entry_side, label=legion.marker)
    engaged = action.land in ctx.enemy
    if engaged and len(option.entry_sides) > 1:
        sides = " or ".join(map(str, option.entry_sides))
        raise IllegalMove(
            f"{legion.marker} may enter {action.land} by side {sides}: choose one (RULES §4.8)"
        )
    entry_side = option.entry_sides[0] if engaged else None
    lord = _teleport_lord(legion, kind, action.lord)
    record = MoveRecord(legion.marker, legion.land, action.land, kind, entry_side, lord)
    moved = evolve(legion, land=action.land)
    if lord is not None:
        moved = add_revealed(moved, [lord])
    turn = evolve(state.turn, moves=(*state.turn.moves, record))
    state = evolve(state.with_legion(moved), turn=turn)
    return state, [LegionMoved(legion.marker, legion.land, action.land, kind, entry_side, lord)]


def take_back(state: GameState, seat: int, action: TakeBack) -> Step:
    """Take back a move and every later one (errata 7.0)."""
    require_phase(state, Phase.MOVE, doing="take back a move", seat=seat)
    require_active(state, seat)
    own_legion(state, seat, action.legion)
    index = next((i for i, m in enumerate(state.turn.moves) if m.marker == action.legion), None)
    if index is None:
        raise IllegalMove(
            f"{action.legion} has not moved this phase: there is no move to take back"
        )
    if not take_backs_left(state, state.turn.take_backs):
        raise IllegalMove(take_back_limit(state))
    events: list[Event] = []
    for record in reversed(state.turn.moves[index:]):
        state = state.with_legion(evolve(state.legion(record.marker), land=record.start))
        events.append(MoveTakenBack(record.marker, record.start))
    turn = evolve(state.turn, moves=state.turn.moves[:index], take_backs=state.turn.take_backs + 1)
    return evolve(state, turn=turn), events


def obligation_problem(state: GameState) -> str | None:
    """Why the movement phase may not end yet, or None (RULES §2.6)."""
    seat = state.active
    legions = list(state.legions_of(seat))
    if not state.turn.moves:
        movable = [leg for leg in legions if has_normal_move(move_context(state, leg))]
        if movable:
            return f"you must move at least one legion, e.g. {movable[0].marker} (RULES §2.6a)"
    by_land: dict[int, list[Legion]] = defaultdict(list)
    for leg in legions:
        by_land[leg.land].append(leg)
    for land, together in sorted(by_land.items()):
        if len(together) < 2:
            continue
        for leg in together:
            if not has_moved(state, leg.marker) and has_normal_move(move_context(state, leg)):
                return (
                    f"{leg.marker} shares land {land} with another of your legions and can "
                    "move: split legions must separate if they can (RULES §2.6b)"
                )
    return None


def end_movement(state: GameState, seat: int, action: EndMovement) -> Step:
    """End movement: check the obligations, recombine, list the engagements (RULES §2.6)."""
    require_phase(state, Phase.MOVE, doing="end movement", seat=seat)
    require_active(state, seat)
    problem = obligation_problem(state)
    if problem:
        raise IllegalMove(problem)
    _check_keep(state, seat, action.keep)
    state, events = _recombine(state, seat, action.keep)
    moved = frozenset(m.marker for m in state.turn.moves)
    engagements = pending_engagements(state)
    phase = Phase.ENGAGE if engagements else Phase.MUSTER
    state = evolve(state, phase=phase, turn=evolve(state.turn, moved=moved, take_backs=0))
    return state, [*events, MovementEnded(engagements)]


def _check_keep(state: GameState, seat: int, keep: tuple[str, ...]) -> None:
    """``keep`` names, once, at most one marker per land where legions of the mover
    recombine, and only where no original marker is there to stay (RULES §3.4); raises
    :class:`IllegalMove` naming the marker otherwise."""
    by_land: dict[int, list[str]] = defaultdict(list)
    for leg in state.legions_of(seat):
        by_land[leg.land].append(leg.marker)
    named: dict[int, str] = {}
    for marker in keep:
        legion = state.legions.get(marker)
        if legion is None or legion.owner != seat:
            raise IllegalMove(f"keep {marker}: it is not one of your legions")
        together = sorted(by_land[legion.land])
        if len(together) < 2:
            raise IllegalMove(f"keep {marker}: no other legion of yours recombines with it")
        if legion.land in named:
            first = named[legion.land]
            if first == marker:
                raise IllegalMove(f"keep {marker}: named twice")
            raise IllegalMove(
                f"keep one marker in {legion.land}, not both {first} and {marker} (RULES §3.4)"
            )
        named[legion.land] = marker
        originals = [m for m in together if m not in state.turn.split_parents]
        if originals and marker != originals[0]:
            raise IllegalMove(
                f"keep {marker}: the original marker {originals[0]} stays in {legion.land} "
                "(RULES §3.4)"
            )


def _recombine(state: GameState, seat: int, keep: tuple[str, ...]) -> Step:
    """Legions still sharing a land merge; the original marker stays (RULES §3.4)."""
    by_land: dict[int, list[Legion]] = defaultdict(list)
    for leg in state.legions_of(seat):
        by_land[leg.land].append(leg)
    events: list[Event] = []
    for land, together in sorted(by_land.items()):
        if len(together) < 2:
            continue
        markers = sorted(leg.marker for leg in together)
        originals = [m for m in markers if m not in state.turn.split_parents]
        chosen = [m for m in markers if m in keep]
        kept = (originals or chosen or markers)[0]
        merged = evolve(
            state.legion(kept),
            characters=sort_names(c for leg in together for c in leg.characters),
            revealed=(),
        )
        for leg in together:
            state = state.without_legion(leg.marker)
        state = state.with_legion(merged)
        others = tuple(m for m in markers if m != kept)
        events += [Recombined(kept, others, land, merged.height), contents(merged)]
    return state, events


def pending_engagements(state: GameState) -> tuple[int, ...]:
    """Lands where a legion of the mover shares a land with an enemy (RULES §5.1)."""
    lands = {leg.land for leg in state.legions_of(state.active)}
    return tuple(
        sorted(
            land
            for land in lands
            if any(leg.owner != state.active for leg in state.legions_in(land))
        )
    )
