"""The interface between an engagement and its battle.

PLACEHOLDER: until the battle engine (RULES §8–§11) is wired in, a battle is decided at
once by :func:`resolve_battle_by_placeholder`: one die weighted by the legions' values
picks the winner, and the loser's legion is slain whole. Nothing else in the game depends
on how the battle is fought: it ends in an :class:`~engine.game.outcome.Outcome`.
"""

from __future__ import annotations

from dataclasses import replace

from engine.game.common import Step
from engine.game.elimination import value_of
from engine.game.engaging import eliminators
from engine.game.events import BattleBegun, Event, Revealed
from engine.game.outcome import Outcome, conclude, marker_of
from engine.game.state import GameState, Role
from engine.masterboard import land as land_of


def begin_battle(state: GameState) -> Step:
    """Both legions become public (RULES §5.7) and the battle is fought."""
    engagement = state.engagement
    assert engagement is not None
    attacker = state.legion(engagement.attacker)
    defender = state.legion(engagement.defender)
    events: list[Event] = [
        BattleBegun(
            engagement.land,
            land_of(engagement.land).terrain,
            attacker.marker,
            defender.marker,
            engagement.entry_side,
        ),
        Revealed(attacker.marker, attacker.characters, "battle"),
        Revealed(defender.marker, defender.characters, "battle"),
    ]
    state, more = resolve_battle_by_placeholder(state)
    return state, events + more


def resolve_battle_by_placeholder(state: GameState) -> Step:
    """PLACEHOLDER battle: the winner is drawn with odds proportional to legion value."""
    values = {
        role: value_of(state, state.legion(marker_of(state, role)).owner, _names(state, role))
        for role in Role
    }
    roll, dice = state.dice.roll_one(values[Role.ATTACKER] + values[Role.DEFENDER])
    state = replace(state, dice=dice)
    winner = Role.ATTACKER if roll <= values[Role.ATTACKER] else Role.DEFENDER
    loser = winner.other
    slain = {loser: _names(state, loser), winner: ()}
    outcome = Outcome(
        "battle (placeholder)",
        winner,
        slain,
        points=values[loser],
        may_summon=True,
        may_reinforce=True,
        eliminators=eliminators(slain),
    )
    return conclude(state, outcome)


def concede_battle(state: GameState, role: Role) -> Step:
    """``role`` concedes the battle in progress (RULES §5.8)."""
    from engine.game.engaging import concede_engagement

    return concede_engagement(state, role)


def _names(state: GameState, role: Role) -> tuple[str, ...]:
    return state.legion(marker_of(state, role)).characters
