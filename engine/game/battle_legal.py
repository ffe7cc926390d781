"""What each seat may do during a battle (RULES §5.8, §6.6, §7.2a, §8–§10).

Every action listed applies; :mod:`engine.game.legal` adds ``Withdraw``. Strikes are
listed with every legal announcement (§9.5; the natural one with no values), rangestrikes
with every strike number a clear path allows (errata 13.3), reinforcements with every
distinct set of recruiters, least revealing first (:mod:`engine.reveals`).
"""

from __future__ import annotations

from engine.battle.concession import concede_mode, may_concede
from engine.battle.maneuvering import destinations
from engine.battle.position import Side
from engine.battle.state import Battle, BattleStep
from engine.battle.striking import due_strikers, rangestrike_options, strike_options
from engine.battle.turn import reinforcement_options, summon_options
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.battle_flow import battle_of, supplies
from engine.game.common import take_backs_left
from engine.game.outcome import owner_of
from engine.game.state import GameState


def battle_seat(state: GameState) -> int | None:
    """The seat the battle waits for, or None."""
    battle = battle_of(state)
    if battle is None or battle.decider is None:
        return None
    return owner_of(state, battle.decider)


def battle_actions(state: GameState, seat: int) -> list[a.Action]:
    """The battle actions ``seat`` may take now (without ``Withdraw``)."""
    battle = battle_of(state)
    if battle is None:
        return []
    sides = [side for side in Side if owner_of(state, side) == seat]
    if not sides:
        return []
    side = sides[0]
    found: list[a.Action] = []
    if battle.concession is not None:
        if battle.concession.responder is side:
            found.append(b.AcceptConcession())
            if battle.concession.countered or may_concede(battle, side):
                found.append(b.ConcedeInstead())
        return found
    if battle.decider is side:
        found += _decisions(state, battle)
    if concede_mode(battle, side) is not None:
        found.append(a.Concede())
    return found


def _decisions(state: GameState, battle: Battle) -> list[a.Action]:
    if battle.carry is not None:
        return [b.CarryOver(target) for target in battle.carry.targets]
    step = battle.step
    if step is BattleStep.SUMMON:
        pairs = summon_options(battle, supplies(state))
        return [*(a.Summon(donor, lord) for donor, lord in pairs), a.Decline()]
    if step is BattleStep.REINFORCE:
        options = reinforcement_options(battle, supplies(state))
        reveals = [a.Reinforce(o.recruit, way) for o in options for way in o.recruiters]
        return [*reveals, a.Decline()]
    if step is BattleStep.MANEUVER:
        return maneuver_actions(battle, take_backs_left(state, battle.take_backs))
    if step in (BattleStep.STRIKE, BattleStep.COUNTERSTRIKE):
        return _strikes(battle)
    if step in (
        BattleStep.OPEN_ATTACKER,
        BattleStep.OPEN_DEFENDER,
        BattleStep.DRIFT,
        BattleStep.SLEW_ALL,
        BattleStep.END_CHECK,
    ):
        return [a.Decline()]
    return []


def maneuver_actions(battle: Battle, may_take_back: bool = False) -> list[a.Action]:
    """The phasing side's maneuvers, take-backs (when allowed) and the end of the phase."""
    found: list[a.Action] = [
        b.Maneuver(who, to) for who, ends in destinations(battle).items() for to in sorted(ends)
    ]
    if may_take_back:
        found += [b.TakeBackManeuver(record.end) for record in battle.moves]
    return [*found, b.EndManeuver()]


def _strikes(battle: Battle) -> list[a.Action]:
    found: list[a.Action] = []
    for striker, target, option in strike_options(battle):
        if option.natural:
            found.append(b.Strike(striker.hex, target.hex))
        else:
            values = option.values
            found.append(b.Strike(striker.hex, target.hex, values.dice, values.strike_number))
    for striker, target, ranged in rangestrike_options(battle):
        found.append(b.Rangestrike(striker.hex, target.hex))
        found += [b.Rangestrike(striker.hex, target.hex, n) for n in ranged.alternatives]
    if battle.step is BattleStep.STRIKE and not due_strikers(battle):
        found.append(b.EndStrikes())
    return found
