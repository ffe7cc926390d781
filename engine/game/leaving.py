"""Conceding the game (RULES §12.4; errata 20.1, 20.4, 9.4, 19.4, 4.6)."""

from __future__ import annotations

from engine.battle.position import Side
from engine.errors import IllegalAction, WrongPhase
from engine.frozen import evolve
from engine.game.actions import Withdraw
from engine.game.battle_flow import concede_battle
from engine.game.common import Step
from engine.game.elimination import check_game_over, eliminate_players
from engine.game.engaging import concede_engagement
from engine.game.events import Event, WithdrawalQueued
from engine.game.outcome import aftermath_seat, continue_aftermath, marker_of, return_slain
from engine.game.setup import withdraw_at_setup
from engine.game.state import GameState, Phase, Stage


def withdraw(state: GameState, seat: int, action: Withdraw) -> Step:
    """Concede the game now if the rules allow, otherwise queue it (RULES §12.4); while
    the colours are chosen, at once (:func:`~engine.game.setup.withdraw_at_setup`)."""
    if state.result is not None:
        raise WrongPhase("the game is over")
    player = state.player(seat)
    if player.eliminated:
        raise WrongPhase("you are out of the game already")
    if state.phase is Phase.COLOURS:
        return withdraw_at_setup(state, seat)
    if player.withdrawing:
        raise IllegalAction(
            "your withdrawal is already queued: it takes effect when your turn begins, or "
            "at once when your Titan's legion is attacked (RULES §12.4)"
        )
    if seat == state.active:
        return withdraw_now(state, seat)
    engagement = state.engagement
    defending = None
    if engagement is not None and engagement.stage is not Stage.AFTERMATH:
        defender = state.legion(engagement.defender)
        defending = defender if defender.owner == seat else None
    if defending is not None and defending.has_titan:
        return withdraw_now(state, seat)
    state = state.with_player(evolve(player, withdrawing=True))
    events: list[Event] = [WithdrawalQueued(seat)]
    if defending is not None:
        # His legion under attack concedes at once (errata 20.4, the sleeping player).
        state, more = _concede(state, Side.DEFENDER)
        events += more
    elif engagement is not None and engagement.aftermath is not None:
        state, more = _give_up_rights(state, seat)
        events += more
    return state, events


def _give_up_rights(state: GameState, seat: int) -> Step:
    """A withdrawing winner takes no reinforcement or acquisition (errata 20.4)."""
    engagement = state.engagement
    if engagement is None or engagement.aftermath is None or aftermath_seat(state) != seat:
        return state, []
    aftermath = evolve(engagement.aftermath, may_summon=False, may_reinforce=False, acquisitions=())
    return continue_aftermath(evolve(state, engagement=evolve(engagement, aftermath=aftermath)))


def _concede(state: GameState, role: Side) -> Step:
    """``role`` concedes the engagement in progress, before or during its battle."""
    assert state.engagement is not None
    battle = state.engagement.stage is Stage.BATTLE
    return (concede_battle if battle else concede_engagement)(state, role)


def withdraw_now(state: GameState, seat: int) -> Step:
    """Withdraw ``seat`` at once: concede its engagement, then leave (RULES §12.4). (When
    the mover leaves, his turn then ends at once, §12.2: ``apply`` sees to that.)

    The player is marked withdrawing first, so that his elimination, whether by the
    concession of his Titan's legion or afterwards, is told as a withdrawal.
    """
    state = state.with_player(evolve(state.player(seat), withdrawing=True))
    engagement = state.engagement
    events: list[Event] = []
    if engagement is not None and engagement.stage is not Stage.AFTERMATH:
        mine = [r for r in Side if state.legion(marker_of(state, r)).owner == seat]
        if mine:
            role = mine[0]
            titan_there = state.legion(marker_of(state, role)).has_titan
            state, events = _concede(state, role)
            if titan_there or state.player(seat).eliminated:
                return state, events
    if state.player(seat).eliminated:
        return state, events
    state, more, removed = eliminate_players(state, {seat: None}, pay_engaged=False)
    events += more
    aftermath = state.engagement.aftermath if state.engagement is not None else None
    if aftermath is not None and len(state.living_seats()) < 2:
        removed += aftermath.slain  # the game ends: nobody will close this engagement
    if removed:
        state, more = return_slain(state, removed)
        events += more
    state, more = check_game_over(state, [seat])
    events += more
    if state.result is None and state.active == seat:
        if state.engagement is not None and state.engagement.stage is Stage.AFTERMATH:
            # The opponent keeps his rights; ours went with our legions.
            state, more = continue_aftermath(state)
            return state, events + more
        state = evolve(state, engagement=None)
    return state, events
