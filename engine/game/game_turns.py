"""Game turns, as players count them (RULES §1.6 step 4).

The state counts *player* turns (``Turn.number``: every player's turns of the whole game,
one after another). Players count *game* turns: in game turn 11 every player still in
the game takes his eleventh turn, in turn order (descending starting tower, the
eliminated skipped). A player's own turns are counted in ``Player.turns_taken``, raised
as each of his turns ends (``finish_turn`` in :mod:`engine.game.turns`; a player out of
the game ends his turn at once, RULES §12.2), so the game turn of a player's turn is his
count of earlier turns plus one, however many players have left meanwhile.
"""

from __future__ import annotations

from engine.game.state import GameState, Phase

#: The phases of a turn being played (the colours come before the first turn).
_PLAYING = frozenset({Phase.SPLIT, Phase.MOVE, Phase.ENGAGE, Phase.MUSTER})


def game_turn(state: GameState) -> int:
    """The game turn of the player turn under way: the active player's turns so far plus
    one; 0 while the colours are chosen (RULES §1.6), before the first turn. Once the game
    is over, the game turn of the last turn played (a game ended on time, errata 21.1,
    ends after its last turn closed; one ended by an elimination, RULES §12.5, within
    it)."""
    if state.phase is Phase.COLOURS:
        return 0
    player = state.player(state.active)
    return player.turns_taken + (1 if _under_way(state) else 0)


def _under_way(state: GameState) -> bool:
    """Whether the active player's turn has started and not ended."""
    if state.phase in _PLAYING:
        return True
    closed = sum(p.turns_taken for p in state.players)
    return state.phase is Phase.OVER and closed < state.turn.number


def player_turns(state: GameState) -> tuple[tuple[int, int], ...] | None:
    """The seat and the game turn of every player turn of the game so far, the current one
    included: entry ``n - 1`` is player turn ``n`` (``Turn.number``, ``TurnStarted.number``).

    Each player plays game turns 1, 2, … until he leaves, in the turn order of RULES §1.6
    step 4 (descending starting tower), so the turns each player started tell the whole
    sequence. None when the counts do not add up to the state's player turns (a position
    written by hand, :mod:`engine.game.notation`, keeps no history)."""
    under_way = 1 if state.phase is not Phase.COLOURS and _under_way(state) else 0
    started = {p.seat: p.turns_taken for p in state.players}
    started[state.active] += under_way
    if sum(started.values()) != state.turn.number:
        return None
    order = [p.seat for p in sorted(state.players, key=lambda p: -p.tower)]
    turns: list[tuple[int, int]] = []
    for round_ in range(1, max(started.values(), default=0) + 1):
        turns += [(seat, round_) for seat in order if started[seat] >= round_]
    return tuple(turns)
