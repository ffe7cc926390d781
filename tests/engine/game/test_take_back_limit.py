"""The house limit on take-backs (``Options.take_backs_per_phase``): errata 7.0 allows
taking back within the movement phase and within one battle maneuver phase (and errata 4.7
undoing a split), but a phase must end; beyond the limit a take-back is refused."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.battle.position import Side
from engine.battle.state import BattleStep
from engine.codec import decode, encode
from engine.errors import IllegalManeuver, IllegalMove, IllegalSplit
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game.legal import legal_actions
from engine.game.notation import format_position, parse_position
from engine.game.state import GameState, Options
from tests.engine.battle.helpers import battle_game, current, fight, legal
from tests.engine.game.helpers import act, pos

MOVING = "Bk01@41:Titan,Troll Rd01@600:Titan | turn=Bk phase=move roll=1"
SPLITTING = "Bk01@41:Titan,Troll*2,Ogre*2,Lion Rd01@600:Titan | turn=Bk"


def limited(text: str, limit: int) -> GameState:
    return pos(text, options=Options(take_backs_per_phase=limit))


def test_a_movement_phase_allows_the_limit_of_take_backs():
    state = limited(MOVING, 3)
    move = next(x for x in legal_actions(state, 0) if isinstance(x, a.Move))
    for _ in range(3):
        state, _ = act(state, 0, move, a.TakeBack("Bk01"))
    assert state.turn.take_backs == 3
    state, _ = act(state, 0, move)
    assert a.TakeBack("Bk01") not in legal_actions(state, 0)
    with pytest.raises(IllegalMove, match="no more take-backs this phase: this game allows 3"):
        act(state, 0, a.TakeBack("Bk01"))
    state, _ = act(state, 0, a.EndMovement())
    assert state.turn.take_backs == 0


def test_the_default_limit_bounds_a_scripted_churn():
    """50 move/take-back pairs a phase by default, not 5,000."""
    state = pos(MOVING)
    assert state.options.take_backs_per_phase == 50
    move = next(x for x in legal_actions(state, 0) if isinstance(x, a.Move))
    for _ in range(50):
        state, _ = act(state, 0, move, a.TakeBack("Bk01"))
    state, _ = act(state, 0, move)
    with pytest.raises(IllegalMove, match="this game allows 50"):
        act(state, 0, a.TakeBack("Bk01"))


def test_errata_4_7_undoing_splits_counts_and_the_roll_starts_afresh():
    state = limited(SPLITTING, 2)
    split = a.Split("Bk01", "Bk02", ("Ogre", "Ogre"))
    for _ in range(2):
        state, _ = act(state, 0, split, a.UndoSplit("Bk02"))
    state, _ = act(state, 0, split)
    assert a.UndoSplit("Bk02") not in legal_actions(state, 0)
    with pytest.raises(IllegalSplit, match="no more take-backs this phase"):
        act(state, 0, a.UndoSplit("Bk02"))
    state, _ = act(state, 0, a.Roll())
    assert state.turn.take_backs == 0
    moves = [x for x in legal_actions(state, 0) if isinstance(x, a.Move) and x.legion == "Bk02"]
    state, _ = act(state, 0, moves[0], a.TakeBack("Bk02"))  # a new phase: allowed again


def test_errata_7_0_maneuver_take_backs_are_limited_per_maneuver_phase():
    state = battle_game("Plains t2 defender maneuver: Bk01 Ogre@A1 | Rd01 Troll@F4")
    state = replace(state, options=Options(take_backs_per_phase=2))
    step = next(x for x in legal(state) if isinstance(x, b.Maneuver))
    for _ in range(2):
        state, _ = fight(state, step, b.TakeBackManeuver(step.to))
    state, _ = fight(state, step)
    assert not [x for x in legal(state) if isinstance(x, b.TakeBackManeuver)]
    with pytest.raises(IllegalManeuver, match="no more take-backs this phase"):
        fight(state, b.TakeBackManeuver(step.to))
    state, _ = fight(state, b.EndManeuver())
    while not (
        current(state).step is BattleStep.MANEUVER and current(state).phasing is Side.ATTACKER
    ):
        state, _ = fight(
            state, next(x for x in legal(state) if isinstance(x, b.EndStrikes | a.Decline))
        )
    assert current(state).take_backs == 0
    theirs = next(x for x in legal(state) if isinstance(x, b.Maneuver))
    state, _ = fight(state, theirs, b.TakeBackManeuver(theirs.to))
    assert current(state).take_backs == 1


def test_old_snapshots_without_the_counters_still_decode():
    state = limited(MOVING, 7)
    state, _ = act(state, 0, next(x for x in legal_actions(state, 0) if isinstance(x, a.Move)))
    state, _ = act(state, 0, a.TakeBack("Bk01"))
    data = json.loads(json.dumps(encode(state)))
    del data["turn"]["take_backs"], data["options"]["take_backs_per_phase"]
    old = decode(GameState, data)
    assert old == replace(state, options=Options(), turn=replace(state.turn, take_backs=0))


def test_the_notation_writes_the_take_backs_of_the_phase():
    state = pos(MOVING)
    move = next(x for x in legal_actions(state, 0) if isinstance(x, a.Move))
    state, _ = act(state, 0, move, a.TakeBack("Bk01"), move, a.TakeBack("Bk01"))
    text = format_position(state)
    assert "takebacks=2" in text
    assert parse_position(text).turn == state.turn
