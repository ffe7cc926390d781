"""Battle decisions that leave nothing to choose (RULES §9.1, §9.4): what a player's
``autostrike`` makes for them.

A strike phase is forced when every action left is a strike (no rangestrike, no end of
the phase), each by a different character: each striker has one target and no declared
reduction (a reduction needs a second engaged enemy, §9.5), so no strike can carry over
and the order cannot matter. Carried-over hits are forced when one character may take
them (all excess must be used, §9.4). Everything here follows from the battleland, which
both players see: making a forced action at once tells nobody anything (§1.7).
"""

from __future__ import annotations

from engine.battle.state import BattleStep
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of
from engine.game.battle_legal import battle_actions, battle_seat
from engine.game.state import GameState

STRIKING = (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE)


def forced_action(state: GameState, seat: int) -> a.Action | None:
    """The strike, carry-over or end of the strike phase ``seat`` must make now when it
    has no other choice (conceding aside), or None."""
    battle = battle_of(state)
    if battle is None or (battle.carry is None and battle.step not in STRIKING):
        return None  # asked after every command: no maneuver is worked out for nothing
    if state.result is not None or battle_seat(state) != seat:
        return None
    choices = [x for x in battle_actions(state, seat) if not isinstance(x, a.Concede)]
    if len(choices) == 1 and isinstance(choices[0], (b.CarryOver, b.EndStrikes)):
        return choices[0]
    if not choices or not all(_natural_strike(x) for x in choices):
        return None
    strikers = [x.striker for x in choices if isinstance(x, b.Strike)]
    return choices[0] if len(set(strikers)) == len(strikers) else None


def _natural_strike(action: a.Action) -> bool:
    return isinstance(action, b.Strike) and action.dice is None and action.strike_number is None
