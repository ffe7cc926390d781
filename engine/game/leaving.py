"""Conceding the game (RULES §12.4; errata 20.1, 20.4, 9.4, 19.4, 4.6)."""

from __future__ import annotations

from dataclasses import replace

from engine.errors import WrongPhase
from engine.game.actions import Withdraw
from engine.game.common import Step
from engine.game.elimination import check_game_over, eliminate_players
from engine.game.events import CharactersReturned, Event, WithdrawalQueued
from engine.game.state import GameState, Phase, Role, Stage


def withdraw(state: GameState, seat: int, action: Withdraw) -> Step:
    """Concede the game now if the rules allow, otherwise queue it (RULES §12.4)."""
    if state.result is not None or state.phase is Phase.COLOURS:
        raise WrongPhase("you can withdraw only while the game is being played")
    player = state.player(seat)
    if player.eliminated:
        raise WrongPhase("you are out of the game already")
    if seat == state.active:
        return withdraw_now(state, seat)
    engagement = state.engagement
    if (
        engagement is not None
        and engagement.stage is not Stage.AFTERMATH
        and state.legion(engagement.defender).owner == seat
        and state.legion(engagement.defender).has_titan
    ):
        return withdraw_now(state, seat)
    state = state.with_player(replace(player, withdrawing=True))
    return state, [WithdrawalQueued(seat)]


def withdraw_now(state: GameState, seat: int) -> Step:
    """Withdraw ``seat`` at once: concede its engagement, then leave (RULES §12.4)."""
    from engine.game.battle_flow import concede_battle
    from engine.game.engaging import concede_engagement
    from engine.game.turns import finish_turn

    engagement = state.engagement
    events: list[Event] = []
    if engagement is not None and engagement.stage is not Stage.AFTERMATH:
        mine = [r for r in Role if state.legion(_marker(engagement, r)).owner == seat]
        if mine:
            role = mine[0]
            titan_there = state.legion(_marker(engagement, role)).has_titan
            conceding = concede_battle if engagement.stage is Stage.BATTLE else concede_engagement
            state, events = conceding(state, role)
            if titan_there or state.player(seat).eliminated:
                return state, events
    if state.player(seat).eliminated:
        return state, events
    state, more, removed = eliminate_players(state, {seat: None}, pay_engaged=False)
    events += more
    if removed:
        from engine.game.outcome import _return_slain

        state, more = _return_slain(state, removed)
        events += more
    state, more = check_game_over(state, [seat])
    events += more
    if state.result is None and state.active == seat:
        if state.engagement is not None and state.engagement.stage is Stage.AFTERMATH:
            return state, events
        state = replace(state, engagement=None)
        state, more = finish_turn(state)
        events += more
    return state, events


def _marker(engagement: object, role: Role) -> str:
    from engine.game.state import Engagement

    assert isinstance(engagement, Engagement)
    return engagement.attacker if role is Role.ATTACKER else engagement.defender


_ = CharactersReturned
