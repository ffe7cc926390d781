"""The split phase and the movement roll (RULES §3, §4.2, §4.3; errata 4.7)."""

from __future__ import annotations

from engine.errors import IllegalAction, IllegalSplit
from engine.frozen import evolve
from engine.game.actions import Roll, Split, UndoSplit
from engine.game.common import (
    Step,
    contents,
    own_legion,
    require_active,
    require_phase,
    sort_names,
    take_back_limit,
    take_backs_left,
)
from engine.game.events import Event, LegionSplit, MovementRolled, SplitUndone
from engine.game.state import GameState, Legion, Phase
from engine.split import check_split


def split(state: GameState, seat: int, action: Split) -> Step:
    """Split ``action.characters`` off a legion under a free marker (RULES §3.2, §3.3)."""
    require_phase(state, Phase.SPLIT, doing="split", seat=seat)
    require_active(state, seat)
    parent = own_legion(state, seat, action.legion)
    if action.new_marker not in state.free_markers(seat):
        raise IllegalSplit(f"{action.new_marker} is not one of your free markers (RULES §3.5)")
    first_turn = state.turn.first_turn
    if first_turn and state.turn.split_parents:
        raise IllegalSplit("the first turn allows only the 4–4 split (RULES §3.3)")
    kept = check_split(parent.characters, [action.characters], 1, first_turn=first_turn)
    child = Legion(action.new_marker, seat, parent.land, sort_names(action.characters))
    parent = evolve(parent, characters=sort_names(kept), revealed=())
    turn = evolve(
        state.turn, split_parents={**state.turn.split_parents, child.marker: parent.marker}
    )
    state = evolve(state.with_legion(parent).with_legion(child), turn=turn)
    events: list[Event] = [
        LegionSplit(parent.marker, child.marker, parent.land, parent.height, child.height),
        contents(parent),
        contents(child),
    ]
    return state, events


def undo_split(state: GameState, seat: int, action: UndoSplit) -> Step:
    """Put a split-off back: only the new marker returns (errata 4.7)."""
    require_phase(state, Phase.SPLIT, doing="undo a split", seat=seat)
    require_active(state, seat)
    child = own_legion(state, seat, action.marker)
    parent_marker = state.turn.split_parents.get(child.marker)
    if parent_marker is None or parent_marker not in state.legions:
        raise IllegalSplit(f"{child.marker} was not split off this turn (errata 4.7)")
    if child.marker in state.turn.split_parents.values():
        raise IllegalSplit(f"undo the split made from {child.marker} first (errata 4.7)")
    if not take_backs_left(state, state.turn.take_backs):
        raise IllegalSplit(take_back_limit(state))
    parent = state.legion(parent_marker)
    merged = evolve(parent, characters=sort_names(parent.characters + child.characters))
    parents = {c: p for c, p in state.turn.split_parents.items() if c != child.marker}
    turn = evolve(state.turn, split_parents=parents, take_backs=state.turn.take_backs + 1)
    state = evolve(state.without_legion(child.marker).with_legion(merged), turn=turn)
    return state, [SplitUndone(parent_marker, child.marker, merged.height), contents(merged)]


def roll(state: GameState, seat: int, action: Roll) -> Step:
    """End the split phase with the movement roll (RULES §4.2)."""
    require_phase(state, Phase.SPLIT, doing="roll for movement", seat=seat)
    require_active(state, seat)
    if state.turn.first_turn and any(leg.height > 7 for leg in state.legions_of(seat)):
        raise IllegalAction(
            "split your starting legion 4–4 before rolling, one lord in each half (RULES §3.3)"
        )
    value, dice = state.dice.roll_one()
    turn = evolve(state.turn, roll=value, take_backs=0)
    state = evolve(state, dice=dice, phase=Phase.MOVE, turn=turn)
    return state, [MovementRolled(seat, value)]
