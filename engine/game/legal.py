"""What each seat may do now: the one source the bot's choices are built from.

:func:`legal_actions` lists concrete actions. Where a parameter is a free choice with no
effect on legality (which free marker a split uses, the marker kept where split legions
recombine) one representative is listed; :func:`~engine.game.apply.apply` accepts every
legal variant. What a player reveals is listed in full: every distinct sufficient set of
recruiters of a ``Muster`` or ``Reinforce`` and every distinct lord a tower teleport may
show (an explicit ``lord``), least revealing first (:mod:`engine.reveals`); the engine's
default for an action that does not say is the first listed. Two actions are open to
every seat at any time while the game is played: ``Withdraw`` (until it is queued), and
``Reveal`` (showing a legion, errata 4.5), listed for whole legions only.
"""

from __future__ import annotations

from itertools import combinations

from engine.battle.position import Side
from engine.characters import character
from engine.game import actions as a
from engine.game.battle_legal import battle_actions
from engine.game.common import take_backs_left
from engine.game.moving import (
    has_moved,
    move_options,
    mulligan_refusal,
    obligation_problem,
    pending_engagements,
)
from engine.game.mustering import muster_choices
from engine.game.outcome import (
    acquisition_options,
    aftermath_seat,
    owner_of,
    reinforcements,
    summon_donors,
)
from engine.game.revealing import unrevealed
from engine.game.state import GameState, Legion, Phase, Proposal, Stage
from engine.game.waiting import deciding_seat
from engine.markers import COLOURS
from engine.movement import MoveKind
from engine.reveals import teleport_lords
from engine.split import split_sizes


def legal_actions(state: GameState, seat: int) -> list[a.Action]:
    """Every action ``seat`` may take now (empty when it has nothing to decide)."""
    if state.result is not None or state.player(seat).eliminated:
        return []
    if state.phase is Phase.COLOURS:
        return [*_colours(state, seat), a.Withdraw()]
    found: list[a.Action] = []
    if state.phase is Phase.SPLIT and seat == state.active:
        found += _split_phase(state, seat)
    elif state.phase is Phase.MOVE and seat == state.active:
        found += _move_phase(state, seat)
    elif state.phase is Phase.ENGAGE:
        found += _engage_phase(state, seat)
    elif state.phase is Phase.MUSTER and seat == state.active:
        found += _muster_phase(state, seat)
    withdraw = [] if state.player(seat).withdrawing else [a.Withdraw()]
    return [*found, *_reveals(state, seat), *withdraw]


def _reveals(state: GameState, seat: int) -> list[a.Action]:
    """Showing a whole legion, for each of ``seat``'s legions with something not yet shown
    to everyone (errata 4.5). Showing part of one is legal too but not listed: there are
    too many parts (:func:`~engine.game.apply.apply` accepts each)."""
    legions = sorted(state.legions_of(seat), key=lambda leg: leg.marker)
    return [a.Reveal(leg.marker) for leg in legions if unrevealed(state, leg)]


def to_act(state: GameState) -> int | None:
    """The seat whose decision the game waits for, or None when it is over
    (:func:`engine.game.waiting.deciding_seat`)."""
    return deciding_seat(state)


def _colours(state: GameState, seat: int) -> list[a.Action]:
    if seat != state.active:
        return []
    taken = {p.colour for p in state.players}
    return [a.ChooseColour(c.name) for c in COLOURS if c.name not in taken]


def splits_of(legion: Legion, first_turn: bool, marker: str) -> list[a.Split]:
    """Every distinct way to split one part off ``legion`` (RULES §3)."""
    sizes = {size for partition in split_sizes(legion.height, first_turn) for size in partition}
    found: dict[tuple[str, ...], a.Split] = {}
    for size in sorted(sizes):
        if size > legion.height - 2:
            continue
        for part in combinations(legion.characters, size):
            if first_turn and sorted(not character(c).is_creature for c in part) != [
                False,
                False,
                False,
                True,
            ]:
                continue
            found.setdefault(part, a.Split(legion.marker, marker, part))
    return list(found.values())


def _split_phase(state: GameState, seat: int) -> list[a.Action]:
    found: list[a.Action] = []
    free = state.free_markers(seat)
    first = state.turn.first_turn
    if free and not (first and state.turn.split_parents):
        for legion in sorted(state.legions_of(seat), key=lambda leg: leg.marker):
            found += splits_of(legion, first, free[0])
    parents = set(state.turn.split_parents.values())
    if take_backs_left(state, state.turn.take_backs):
        found += [a.UndoSplit(c) for c in state.turn.split_parents if c not in parents]
    if not (first and any(leg.height > 7 for leg in state.legions_of(seat))):
        found.append(a.Roll())
    return found


def _move_phase(state: GameState, seat: int) -> list[a.Action]:
    found: list[a.Action] = []
    turn = state.turn
    if mulligan_refusal(state) is None:
        found.append(a.Mulligan())
    enemy = {leg.land for leg in state.legions.values() if leg.owner != seat}
    for legion in sorted(state.legions_of(seat), key=lambda leg: leg.marker):
        if has_moved(state, legion.marker):
            if take_backs_left(state, turn.take_backs):
                found.append(a.TakeBack(legion.marker))
            continue
        lords = teleport_lords(legion.characters)
        for option in move_options(state, legion):
            kind = None if option.kind is MoveKind.NORMAL else option.kind
            sides = option.entry_sides if option.destination in enemy else (None,)
            if len(sides) == 1:
                sides = (None,)
            shown = lords if option.kind is MoveKind.TOWER_TELEPORT else (None,)
            found += [
                a.Move(legion.marker, option.destination, kind, side, lord)
                for side in sides
                for lord in shown
            ]
    if obligation_problem(state) is None:
        found.append(a.EndMovement())
    return found


def _engage_phase(state: GameState, seat: int) -> list[a.Action]:
    engagement = state.engagement
    if engagement is None:
        if seat != state.active:
            return []
        return [a.Engage(land) for land in pending_engagements(state)]
    if engagement.stage is Stage.AFTERMATH:
        return _aftermath(state, seat)
    if engagement.stage is Stage.BATTLE:
        return battle_actions(state, seat)
    if engagement.stage is not Stage.NEGOTIATE or owner_of(state, engagement.to_act) != seat:
        return []
    role = engagement.to_act
    found: list[a.Action] = []
    if (
        role is Side.DEFENDER
        and engagement.may_flee
        and not state.legion(engagement.defender).has_lord
    ):
        found.append(a.Flee())
    theirs = [o for o in engagement.proposals if o.by is not role]
    found += [a.Accept(o.number) for o in theirs]
    found.append(a.Concede())
    if engagement.no_more is None:
        made = {o.proposal for o in engagement.proposals}
        for eliminate in (Side.ATTACKER, Side.DEFENDER, None):
            proposal = Proposal(eliminate)
            if proposal not in made:
                found.append(a.Propose((proposal,)))
        found.append(a.NoMoreProposals())
    elif engagement.no_more is role.other:
        found.append(a.Fight())
    return found


def _aftermath(state: GameState, seat: int) -> list[a.Action]:
    engagement = state.engagement
    if engagement is None or engagement.aftermath is None or aftermath_seat(state) != seat:
        return []
    aftermath = engagement.aftermath
    found: list[a.Action] = []
    if aftermath.may_summon:
        found += [a.Summon(donor, lord) for donor, lord in summon_donors(state)]
    elif aftermath.may_reinforce:
        found += [
            a.Reinforce(recruit, way) for recruit, ways in reinforcements(state) for way in ways
        ]
    else:
        found += [a.Acquire(lord) for lord in acquisition_options(state)]
    return [*found, a.Decline()]


def _muster_phase(state: GameState, seat: int) -> list[a.Action]:
    found: list[a.Action] = []
    for legion in sorted(state.legions_of(seat), key=lambda leg: leg.marker):
        for option in muster_choices(state, legion):
            found += [a.Muster(legion.marker, option.recruit, way) for way in option.recruiters]
    return [*found, a.EndTurn()]
