"""The end of an engagement and what follows it (RULES §5.5, §7, §11.3, §11.4, §12).

An :class:`Outcome` says how an engagement ended; :func:`conclude` applies it in the
SoP's order: losses, eliminations, engagement points, then the winner's remaining rights
(summon or reinforcement, then acquisitions) as decisions in the aftermath stage, and
:func:`finish_engagement` regenerates the slain and moves on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.acquisition import ARCHANGEL_EVERY, acquisitions
from engine.battle.position import Side
from engine.characters import ANGEL, ARCHANGEL, TITAN, character
from engine.frozen import evolve
from engine.game.common import (
    Step,
    add_revealed,
    contents,
    return_to_caretaker,
    sort_names,
    to_dead_pile,
)
from engine.game.elimination import award, check_game_over, eliminate_players
from engine.game.events import (
    CharactersReturned,
    CharactersSlain,
    EngagementResolved,
    Event,
    LegionEliminated,
)
from engine.game.moving import pending_engagements
from engine.game.state import Aftermath, GameState, Phase, Stage
from engine.masterboard import land as land_of
from engine.muster import FULL_HEIGHT, in_reveal_order, muster_options


@dataclass(frozen=True)
class Outcome:
    """How an engagement ended.

    ``slain``: characters each side lost. ``points``: engagement points for the winner
    (computed by the caller per RULES §11.4). ``eliminator``: per side whose Titan died,
    who eliminated its player (None: nobody).
    """

    how: str
    winner: Side | None
    slain: Mapping[Side, tuple[str, ...]]
    points: int = 0
    may_summon: bool = False
    may_reinforce: bool = False
    eliminators: Mapping[Side, Side | None] = field(default_factory=dict)
    removed_earlier: Mapping[Side, tuple[str, ...]] = field(default_factory=dict)
    """Characters of ``slain`` already taken off their legion (a battle's casualties)."""


def marker_of(state: GameState, role: Side) -> str:
    engagement = state.engagement
    assert engagement is not None
    return engagement.attacker if role is Side.ATTACKER else engagement.defender


def owner_of(state: GameState, role: Side) -> int:
    return state.legion(marker_of(state, role)).owner


def eliminators(slain: dict[Side, tuple[str, ...]]) -> dict[Side, Side | None]:
    """For each side whose Titan died, who eliminated its player (RULES §12.2, §14 C10), in
    side order (a list, not a set: a set of sides iterates in an order that changes from
    one process to the next, and so would the events of a replay)."""
    dead = [role for role in Side if TITAN in slain[role]]
    return {role: (None if role.other in dead else role.other) for role in dead}


def conclude(state: GameState, outcome: Outcome) -> Step:
    """Apply ``outcome`` to the engagement in progress."""
    engagement = state.engagement
    assert engagement is not None
    owners = {role: owner_of(state, role) for role in Side}
    events: list[Event] = [EngagementResolved(engagement.land, outcome.winner, outcome.how)]
    removed: list[str] = []
    survivors: dict[int, tuple[str, ...]] = {}
    for role in Side:
        earlier = Counter(outcome.removed_earlier.get(role, ()))
        still = tuple((Counter(outcome.slain[role]) - earlier).elements())
        state, more, left = _apply_losses(state, marker_of(state, role), still)
        events += more
        removed += outcome.slain[role]
        if TITAN in outcome.slain[role] and left:
            # The survivors leave with their player (rule 19.3); half points come later.
            marker = marker_of(state, role)
            survivors[owners[role]] = left
            state = state.without_legion(marker)
            events += [
                CharactersSlain(marker, left, "survivors of a slain Titan"),
                LegionEliminated(marker, owners[role]),
            ]
    old_score = state.player(owners[outcome.winner]).score if outcome.winner else 0
    if outcome.winner is not None:
        state, more = award(state, owners[outcome.winner], outcome.points, outcome.how)
        events += more
    eliminated = {
        owners[role]: (owners[by] if by is not None else None)
        for role, by in outcome.eliminators.items()
    }
    if eliminated:
        state, more, gone = eliminate_players(
            state, eliminated, survivors=survivors, current_land=engagement.land
        )
        events += more
        removed += gone
    state, more = check_game_over(state, eliminated)
    events += more
    if state.result is not None:
        state, more = return_slain(state, removed)
        return state, events + more
    aftermath = _rights(state, outcome, old_score, tuple(removed))
    state = evolve(state, engagement=evolve(engagement, stage=Stage.AFTERMATH, aftermath=aftermath))
    state, more = continue_aftermath(state)
    return state, events + more


def _apply_losses(
    state: GameState, marker: str, slain: tuple[str, ...]
) -> tuple[GameState, list[Event], tuple[str, ...]]:
    """Remove ``slain`` from the legion; an emptied legion is eliminated (RULES §5.9)."""
    if marker not in state.legions:
        return state, [], ()
    legion = state.legion(marker)
    left = Counter(legion.characters) - Counter(slain)
    events: list[Event] = (
        [CharactersSlain(marker, sort_names(slain), "engagement")] if slain else []
    )
    if left and not slain:
        return state, [], legion.characters
    if not left:
        return state.without_legion(marker), [*events, LegionEliminated(marker, legion.owner)], ()
    kept = sort_names(left.elements())
    legion = add_revealed(evolve(legion, characters=kept), ())
    return state.with_legion(legion), [*events, contents(legion)], kept


def _rights(
    state: GameState, outcome: Outcome, old_score: int, removed: tuple[str, ...]
) -> Aftermath:
    """The winner's pending decisions (SoP aftermath steps 1 and 4)."""
    winner = outcome.winner
    if winner is None or marker_of(state, winner) not in state.legions:
        return Aftermath(winner, outcome.points, slain=removed)
    new_score = old_score + outcome.points
    marks = tuple(a.mark for a in acquisitions(old_score, new_score)) if outcome.points else ()
    return Aftermath(
        winner,
        outcome.points,
        may_summon=outcome.may_summon and winner is Side.ATTACKER,
        may_reinforce=outcome.may_reinforce and winner is Side.DEFENDER,
        acquisitions=marks,
        slain=removed,
    )


def summon_donors(state: GameState) -> list[tuple[str, str]]:
    """(donor marker, lord) pairs the attacker may summon now (RULES §7.2)."""
    engagement = state.engagement
    if engagement is None or engagement.attacker not in state.legions:
        return []
    legion = state.legion(engagement.attacker)
    if legion.height >= FULL_HEIGHT or state.turn.summoned:
        return []
    enemy_lands = {leg.land for leg in state.legions.values() if leg.owner != legion.owner}
    return [
        (donor.marker, lord)
        for donor in sorted(state.legions_of(legion.owner), key=lambda leg: leg.marker)
        if donor.marker != legion.marker and donor.land not in enemy_lands
        for lord in (ARCHANGEL, ANGEL)
        if lord in donor.characters
    ]


def reinforcements(state: GameState) -> list[tuple[str, tuple[tuple[str, ...], ...]]]:
    """(recruit, ways to reveal) the defender may muster after winning (RULES §6.6), the
    ways least revealing first (:mod:`engine.reveals`)."""
    engagement = state.engagement
    if engagement is None or engagement.defender not in state.legions:
        return []
    legion = state.legion(engagement.defender)
    if legion.height >= FULL_HEIGHT:
        return []
    terrain = land_of(legion.land).terrain
    options = in_reveal_order(muster_options(terrain, legion.characters, dict(state.caretaker)))
    return [(o.recruit, o.recruiters) for o in options]


def acquisition_options(state: GameState) -> list[str]:
    """The lords the winner may take for the lowest pending mark (RULES §7.1)."""
    engagement = state.engagement
    if engagement is None or engagement.aftermath is None:
        return []
    aftermath = engagement.aftermath
    if not aftermath.acquisitions or aftermath.winner is None:
        return []
    legion = state.legions.get(marker_of(state, aftermath.winner))
    if legion is None or legion.height >= FULL_HEIGHT:
        return []
    mark = aftermath.acquisitions[0]
    choices = (ARCHANGEL, ANGEL) if mark % ARCHANGEL_EVERY == 0 else (ANGEL,)
    return [c for c in choices if state.caretaker.get(c, 0) > 0]


def continue_aftermath(state: GameState) -> Step:
    """Drop rights that publicly cannot be used; finish when no decision remains.

    A right that fails only on hidden contents (no Angel in another legion, no qualifying
    recruiter) is still offered, to be declined: skipping it would reveal them (§1.7).
    """
    engagement = state.engagement
    assert engagement is not None and engagement.aftermath is not None
    aftermath = engagement.aftermath
    if aftermath.may_summon and not _summon_possible(state, engagement.attacker):
        aftermath = evolve(aftermath, may_summon=False)
    if aftermath.may_reinforce and not _has_room(state, engagement.defender):
        aftermath = evolve(aftermath, may_reinforce=False)
    state = evolve(state, engagement=evolve(engagement, aftermath=aftermath))
    if not aftermath.may_summon and not aftermath.may_reinforce:
        while aftermath.acquisitions and not acquisition_options(state):
            aftermath = evolve(aftermath, acquisitions=aftermath.acquisitions[1:])
            state = evolve(state, engagement=evolve(engagement, aftermath=aftermath))
    if aftermath.may_summon or aftermath.may_reinforce or aftermath.acquisitions:
        return state, []
    return finish_engagement(state)


def _has_room(state: GameState, marker: str) -> bool:
    legion = state.legions.get(marker)
    return legion is not None and legion.height < FULL_HEIGHT


def _summon_possible(state: GameState, marker: str) -> bool:
    """Publicly possible: room in the legion, no summon yet this phase (RULES §7.2)."""
    return _has_room(state, marker) and not state.turn.summoned


def aftermath_seat(state: GameState) -> int | None:
    """Who decides in the aftermath (the winner), or None."""
    engagement = state.engagement
    if engagement is None or engagement.aftermath is None or engagement.aftermath.winner is None:
        return None
    winner = state.legions.get(marker_of(state, engagement.aftermath.winner))
    return winner.owner if winner is not None else None


def return_slain(state: GameState, removed: list[str] | tuple[str, ...]) -> Step:
    """Slain lords and demi-lords regenerate; creatures (and Titans) die (RULES §11.3 step 6)."""
    regenerated = sort_names(n for n in removed if character(n).regenerates)
    dead = sort_names(n for n in removed if not character(n).regenerates)
    if not removed:
        return state, []
    state = to_dead_pile(return_to_caretaker(state, regenerated), dead)
    return state, [CharactersReturned(regenerated, dead)]


def finish_engagement(state: GameState) -> Step:
    """Close the engagement: the next engagement or the muster phase. (When the mover was
    eliminated in it, his turn then ends at once, RULES §12.2: ``apply`` sees to that.)"""
    engagement = state.engagement
    assert engagement is not None and engagement.aftermath is not None
    state, events = return_slain(state, engagement.aftermath.slain)
    state = evolve(state, engagement=None)
    phase = Phase.ENGAGE if pending_engagements(state) else Phase.MUSTER
    return evolve(state, phase=phase), events
