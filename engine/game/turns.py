"""Starting and ending player turns; turn order and the time limit (RULES §1.6, §12.6)."""

from __future__ import annotations

from engine.errors import IllegalAction, WrongPhase
from engine.frozen import evolve
from engine.game.actions import EndTurn, ExpireTimeLimit
from engine.game.common import Step, require_active, require_phase, reveal_winners
from engine.game.events import Event, GameOver, TimeLimitExpired, TurnEnded, TurnStarted
from engine.game.state import GameState, Phase, Result, Turn
from engine.game.waiting import waiting_words


def next_seat(state: GameState, seat: int) -> int:
    """The next living player after ``seat`` in descending tower order (RULES §1.6 step 4)."""
    order = sorted(state.players, key=lambda p: -p.tower)
    index = next(i for i, p in enumerate(order) if p.seat == seat)
    for step in range(1, len(order) + 1):
        candidate = order[(index + step) % len(order)]
        if not candidate.eliminated:
            return candidate.seat
    return seat


def begin_turn(state: GameState, seat: int) -> Step:
    """Start ``seat``'s turn in the split phase. (A withdrawal he queued then takes effect,
    RULES §12.4: ``apply`` sees to that.)"""
    player = state.player(seat)
    turn = Turn(number=state.turn.number + 1, first_turn=player.turns_taken == 0)
    state = evolve(state, phase=Phase.SPLIT, active=seat, turn=turn, engagement=None)
    return state, [TurnStarted(seat, turn.number)]


def end_turn(state: GameState, seat: int, action: EndTurn) -> Step:
    """End the muster phase and the turn (RULES §4.1 step 6)."""
    require_phase(state, Phase.MUSTER, doing="end your turn", seat=seat)
    require_active(state, seat)
    return finish_turn(state)


def finish_turn(state: GameState) -> Step:
    """Close the active player's turn and start the next one (or end the game)."""
    seat = state.active
    player = state.player(seat)
    state = state.with_player(evolve(player, turns_taken=player.turns_taken + 1))
    events: list[Event] = [TurnEnded(seat)]
    if state.final_turns is not None:
        left = state.final_turns - 1
        state = evolve(state, final_turns=left)
        if left <= 0:
            state, more = end_on_time(state)
            return state, events + more
    state, more = begin_turn(state, next_seat(state, seat))
    return state, events + more


def drop_final_turn(state: GameState, seat: int) -> GameState:
    """Forget ``seat``'s pending final turn as it leaves the game (errata 21.1).

    ``final_turns`` counts the current turn and the turns still to come; a player who is
    eliminated before his final turn will not play it.
    """
    if state.final_turns is None:
        return state
    upcoming, current = [], state.active
    for _ in range(state.final_turns - 1):
        current = next_seat(state, current)
        upcoming.append(current)
    return evolve(state, final_turns=state.final_turns - upcoming.count(seat))


def expire_time_limit(state: GameState, seat: int, action: ExpireTimeLimit) -> Step:
    """The current turn finishes, then every player takes one more turn (errata 21.1)."""
    if state.phase is Phase.COLOURS:
        raise WrongPhase(
            f"the time limit can end only once the turns have begun; {waiting_words(state, seat)}"
        )
    require_phase(
        state, Phase.SPLIT, Phase.MOVE, Phase.ENGAGE, Phase.MUSTER, doing="end the time limit"
    )
    if not state.options.time_limit:
        raise IllegalAction("this game was created without a time limit (RULES §12.6)")
    if state.final_turns is not None:
        raise IllegalAction(
            "the time limit has already expired: the game ends once every player has had "
            "one more turn"
        )
    remaining = 1 + len(state.living_seats())
    return evolve(state, final_turns=remaining), [TimeLimitExpired(remaining)]


def end_on_time(state: GameState) -> Step:
    """The highest score wins; ties share the win (RULES §12.6, §14 C14)."""
    living = [state.player(s) for s in state.living_seats()]
    best = max(p.score for p in living)
    winners = tuple(p.seat for p in living if p.score == best)
    result = Result(winners, "time limit")
    state = evolve(state, phase=Phase.OVER, result=result)
    return state, [GameOver(winners, result.reason), *reveal_winners(state)]
