"""Battle decisions that leave nothing to choose (RULES §9.1, §9.4), and the strike
phase's decisions: what a player's ``autostrike`` makes for them.

A strike phase is forced when every action left is a strike (no rangestrike, no end of
the phase), each by a different character: each striker has one target and no declared
reduction (a reduction needs a second engaged enemy, §9.5), so no strike can carry over
and the order cannot matter. Carried-over hits are forced when one character may take
them (all excess must be used, §9.4). Everything here follows from the battleland, which
both players see: making a forced action at once tells nobody anything (§1.7).

A strike-phase decision (:func:`strike_decision`) is any of the strikes, rangestrikes,
carried-over hits or the phase's end a side chooses among in its strike or counterstrike
phase (§9, §10); a concession to answer is none of them.

A concession window (:func:`concession_window`) is a step where a side may concede
outright or fight on and nothing else (§5.8): as the battle begins, before drift damage,
before the counterstrikes of a side slain to the last, at the end check. What ``fighton``
answers for a player.
"""

from __future__ import annotations

from engine.battle.state import BattleStep
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.battle_legal import battle_actions, battle_seat
from engine.game.state import GameState

STRIKING = (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE)
STRIKE_PHASE_ACTIONS = (b.Strike, b.Rangestrike, b.CarryOver, b.EndStrikes)
"""The actions a strike-phase decision is made with."""
WINDOWS = (
    BattleStep.OPEN_ATTACKER,
    BattleStep.OPEN_DEFENDER,
    BattleStep.DRIFT,
    BattleStep.SLEW_ALL,
    BattleStep.END_CHECK,
)
"""The steps that wait for a side to concede or fight on (RULES §5.8, the SoP)."""


def strike_decision(state: GameState, seat: int) -> bool:
    """Whether the game waits for ``seat``'s decision in its strike phase: a strike, a
    rangestrike, carried-over hits or the phase's end (RULES §9, §10), and no concession
    to answer."""
    battle = battle_of(state)
    if battle is None or battle.concession is not None or state.result is not None:
        return False
    if battle.carry is None and battle.step not in STRIKING:
        return False
    return battle_seat(state) == seat


def concession_window(state: GameState, seat: int) -> bool:
    """Whether the game waits for ``seat`` to concede or fight on, and nothing else: as
    the battle begins, before drift damage, before the counterstrikes, at the end check
    (RULES §5.8). Fighting on is declining the window (:class:`~engine.game.actions.Decline`)."""
    battle = battle_of(state)
    if battle is None or battle.concession is not None or battle.carry is not None:
        return False
    return state.result is None and battle.step in WINDOWS and battle_seat(state) == seat


def forced_action(state: GameState, seat: int) -> a.Action | None:
    """The strike, carry-over or end of the strike phase ``seat`` must make now when it
    has no other choice (conceding aside), or None."""
    if not strike_decision(state, seat):
        return None  # asked after every command: no maneuver is worked out for nothing
    choices = [x for x in battle_actions(state, seat) if not isinstance(x, a.Concede)]
    if len(choices) == 1 and isinstance(choices[0], (b.CarryOver, b.EndStrikes)):
        return choices[0]
    if not choices or not all(_natural_strike(x) for x in choices):
        return None
    strikers = [x.striker for x in choices if isinstance(x, b.Strike)]
    return choices[0] if len(set(strikers)) == len(strikers) else None


def _natural_strike(action: a.Action) -> bool:
    return isinstance(action, b.Strike) and action.dice is None and action.strike_number is None
