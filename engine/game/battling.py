"""Handlers of the battle actions (RULES §5.8, §6.6, §7.2a, §8–§11).

Each handler checks that the seat is the side the battle waits for, applies one rules
step of ``engine.battle`` (dice rolled here from the game's generator, so that every roll
is in the events) and hands the result to :func:`~engine.game.battle_flow.settle`. The
engagement actions ``Concede``, ``Summon``, ``Reinforce`` and ``Decline`` are dispatched
here while a battle is being fought.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.battle import concession, maneuvering, striking, turn
from engine.battle.position import Side
from engine.battle.state import Battle
from engine.battle.strike import StrikeValues
from engine.errors import IllegalManeuver, NotYourTurn, WrongPhase
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.aftermath import decline, reinforce, summon
from engine.game.battle_flow import battle_of, roll, roll_off, settle, supplies
from engine.game.common import Step, require_phase, take_back_limit, take_backs_left
from engine.game.engaging import concede
from engine.game.outcome import owner_of
from engine.game.state import GameState, Phase
from engine.game.waiting import waiting_words


def seat_side(state: GameState, seat: int) -> Side | None:
    """The side ``seat`` fights for in the battle in progress, if any."""
    for role in Side:
        if owner_of(state, role) == seat:
            return role
    return None


def _fighting(state: GameState, seat: int, doing: str) -> tuple[Battle, Side]:
    """The battle and ``seat``'s side, when the battle waits for ``seat``'s decision."""
    if state.result is not None:
        raise WrongPhase("the game is over")
    battle = battle_of(state)
    if battle is None:
        waiting = waiting_words(state, seat)
        raise WrongPhase(f"there is no battle being fought now, so you cannot {doing}; {waiting}")
    side = seat_side(state, seat)
    if side is None:
        raise NotYourTurn(f"you are not fighting in this battle; {waiting_words(state, seat)}")
    if battle.decider is not side:
        raise NotYourTurn(f"it is not your decision now; {waiting_words(state, seat)}")
    return battle, side


def maneuver(state: GameState, seat: int, action: b.Maneuver) -> Step:
    battle, _ = _fighting(state, seat, "maneuver")
    return settle(state, *maneuvering.maneuver(battle, action.character, action.to))


def take_back_maneuver(state: GameState, seat: int, action: b.TakeBackManeuver) -> Step:
    """Take back a maneuver and every later one (errata 7.0), within the house limit."""
    battle, _ = _fighting(state, seat, "take back a move")
    if battle.moves and not take_backs_left(state, battle.take_backs):
        raise IllegalManeuver(take_back_limit(state))
    return settle(state, *maneuvering.take_back(battle, action.hex))


def end_maneuver(state: GameState, seat: int, action: b.EndManeuver) -> Step:
    battle, _ = _fighting(state, seat, "end the maneuver phase")
    return settle(state, *maneuvering.end_maneuver(battle))


def strike(state: GameState, seat: int, action: b.Strike) -> Step:
    """A strike or counterstrike; the dice are rolled after the announcement (§9.5)."""
    battle, _ = _fighting(state, seat, "strike")
    declared = None
    if action.dice is not None or action.strike_number is not None:
        _, _, natural = striking.strike_plan(battle, action.striker, action.target)
        declared = StrikeValues(
            action.dice if action.dice is not None else natural.dice,
            action.strike_number if action.strike_number is not None else natural.strike_number,
        )
    _, _, used = striking.strike_plan(battle, action.striker, action.target, declared)
    state, rolls = roll(state, used.dice)
    return settle(state, *striking.strike(battle, action.striker, action.target, declared, rolls))


def carry_over(state: GameState, seat: int, action: b.CarryOver) -> Step:
    battle, _ = _fighting(state, seat, "place carried-over hits")
    return settle(state, *striking.carry_over(battle, action.target))


def rangestrike(state: GameState, seat: int, action: b.Rangestrike) -> Step:
    battle, _ = _fighting(state, seat, "rangestrike")
    _, _, values, number = striking.rangestrike_plan(
        battle, action.striker, action.target, action.strike_number
    )
    state, rolls = roll(state, values.dice)
    change = striking.rangestrike(battle, action.striker, action.target, number, rolls)
    return settle(state, *change)


def end_strikes(state: GameState, seat: int, action: b.EndStrikes) -> Step:
    battle, _ = _fighting(state, seat, "end the strike phase")
    return settle(state, *striking.end_strikes(battle))


def accept_concession(state: GameState, seat: int, action: b.AcceptConcession) -> Step:
    battle, side = _fighting(state, seat, "accept a concession")
    return settle(state, *concession.accept(battle, side))


def concede_instead(state: GameState, seat: int, action: b.ConcedeInstead) -> Step:
    """Concede instead; if the opponent did so first, insist: roll-off (RULES §5.8, E25)."""
    battle, side = _fighting(state, seat, "concede instead")
    pending = battle.concession
    if pending is not None and pending.countered:
        state, pairs = roll_off(state)
        return settle(state, *concession.roll_off(battle, side, pairs))
    return settle(state, *concession.instead(battle, side))


# --- engagement actions during a battle -------------------------------------------------
def _concede(state: GameState, seat: int, action: a.Concede) -> Step:
    """Concede, or attempt to, during the battle (RULES §5.8)."""
    require_phase(state, Phase.ENGAGE, doing="concede", seat=seat)
    battle = battle_of(state)
    side = seat_side(state, seat)
    if battle is None or side is None:
        raise NotYourTurn(f"you are not fighting in this battle; {waiting_words(state, seat)}")
    return settle(state, *concession.attempt(battle, side))


def _summon(state: GameState, seat: int, action: a.Summon) -> Step:
    battle, _ = _fighting(state, seat, "summon")
    return settle(state, *turn.summon(battle, action.donor, action.lord, supplies(state)))


def _reinforce(state: GameState, seat: int, action: a.Reinforce) -> Step:
    battle, _ = _fighting(state, seat, "reinforce")
    battle, events, _ = turn.reinforce(
        battle, action.recruit, tuple(action.revealed), supplies(state)
    )
    return settle(state, battle, events)


def _decline(state: GameState, seat: int, action: a.Decline) -> Step:
    battle, side = _fighting(state, seat, "decline")
    return settle(state, *turn.decline(battle, side))


Handler = Callable[[GameState, int, Any], Step]


def _dispatch(in_battle: Handler, otherwise: Handler) -> Handler:
    """A handler that uses ``in_battle`` while a battle is fought, else ``otherwise``."""

    def handler(state: GameState, seat: int, action: Any) -> Step:
        if battle_of(state) is not None:
            return in_battle(state, seat, action)
        return otherwise(state, seat, action)

    handler.__doc__ = otherwise.__doc__
    return handler


BATTLE_HANDLERS: dict[type[a.Action], Handler] = {
    b.Maneuver: maneuver,
    b.TakeBackManeuver: take_back_maneuver,
    b.EndManeuver: end_maneuver,
    b.Strike: strike,
    b.CarryOver: carry_over,
    b.Rangestrike: rangestrike,
    b.EndStrikes: end_strikes,
    b.AcceptConcession: accept_concession,
    b.ConcedeInstead: concede_instead,
    a.Concede: _dispatch(_concede, concede),
    a.Summon: _dispatch(_summon, summon),
    a.Reinforce: _dispatch(_reinforce, reinforce),
    a.Decline: _dispatch(_decline, decline),
}
