"""The split phase and the movement roll (RULES §3, §4.2, §4.3; SoP; errata 4.7)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, IllegalSplit, NotYourTurn, WrongPhase
from engine.game import actions as a
from engine.game.events import LegionContents, LegionSplit, MovementRolled, SplitUndone
from engine.game.legal import legal_actions
from engine.game.state import Phase
from tests.engine.game.helpers import ANGEL_HALF, START, TITAN_HALF, act, of_type, pos

FIRST = f"Bk01@100:{START} Rd01@600:{START} | turn=Rd"
LATER = (
    "Bk01@100:Titan,Troll*2,Ogre*2,Lion,Ranger Bk02@5:Ogre*2,Troll*2,Centaur,Lion "
    "Rd01@600:Titan,Ogre | turn=Bk"
)


def test_sop_first_turn_split_happens_on_the_players_own_turn():
    """1992 preamble: the starting legion is split when its owner's first turn comes."""
    state = pos(FIRST)
    assert legal_actions(state, 0) == [a.Reveal("Bk01"), a.Withdraw()]
    with pytest.raises(NotYourTurn):
        act(state, 0, a.Split("Bk01", "Bk02", ANGEL_HALF))
    state, events = act(state, 1, a.Split("Rd01", "Rd02", ANGEL_HALF))
    assert state.legion("Rd01").characters == TITAN_HALF
    assert state.legion("Rd02").characters == ANGEL_HALF
    assert state.legion("Bk01").height == 8  # Black splits on his own turn
    assert of_type(events, LegionSplit) == [LegionSplit("Rd01", "Rd02", 600, 4, 4)]


def test_rule_3_3_first_turn_split_is_4_4_one_lord_each():
    state = pos(FIRST)
    with pytest.raises(IllegalSplit, match="4–4"):
        act(state, 1, a.Split("Rd01", "Rd02", ("Angel", "Centaur", "Ogre")))
    with pytest.raises(IllegalSplit, match="one lord"):
        act(state, 1, a.Split("Rd01", "Rd02", ("Angel", "Titan", "Ogre", "Ogre")))
    with pytest.raises(IllegalSplit, match="one lord"):
        act(state, 1, a.Split("Rd01", "Rd02", ("Centaur", "Centaur", "Ogre", "Ogre")))
    splits = [x for x in legal_actions(state, 1) if isinstance(x, a.Split)]
    # 3 creatures from 6 (2 of each kind): 7 distinct choices, with the Angel or the Titan.
    assert len(splits) == 14
    assert all(len(x.characters) == 4 for x in splits)


def test_rule_3_3_no_roll_before_the_first_split_and_only_one_split():
    state = pos(FIRST)
    assert a.Roll() not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="split your starting legion"):
        act(state, 1, a.Roll())
    state, _ = act(state, 1, a.Split("Rd01", "Rd02", ANGEL_HALF))
    assert not [x for x in legal_actions(state, 1) if isinstance(x, a.Split)]
    with pytest.raises(IllegalSplit, match="only the 4–4 split"):
        act(state, 1, a.Split("Rd01", "Rd03", ("Centaur", "Titan")))
    state, events = act(state, 1, a.Roll())
    assert state.phase is Phase.MOVE and 1 <= state.turn.roll <= 6
    assert of_type(events, MovementRolled) == [MovementRolled(1, state.turn.roll)]


def test_rule_3_2_later_splits_two_ways():
    state = pos(LATER)
    state, events = act(state, 0, a.Split("Bk02", "Bk07", ("Ogre", "Ogre")))
    assert state.legion("Bk02").characters == ("Centaur", "Lion", "Troll", "Troll")
    assert state.legion("Bk07").land == 5
    # Only the owner learns the contents; everyone learns the heights.
    assert {e.audience for e in of_type(events, LegionContents)} == {frozenset({0})}
    assert of_type(events, LegionSplit)[0].audience is None


def test_rule_3_2_three_way_split_of_six():
    state = pos(LATER)
    state, _ = act(
        state,
        0,
        a.Split("Bk02", "Bk07", ("Ogre", "Ogre")),
        a.Split("Bk02", "Bk08", ("Troll", "Troll")),
    )
    assert [state.legion(m).height for m in ("Bk02", "Bk07", "Bk08")] == [2, 2, 2]
    with pytest.raises(IllegalSplit, match="cannot split"):
        act(state, 0, a.Split("Bk02", "Bk09", ("Centaur",)))


def test_rule_3_2_small_legions_do_not_split():
    state = pos("Bk01@100:Titan,Ogre,Troll Rd01@600:Titan | turn=Bk")
    assert legal_actions(state, 0) == [a.Roll(), a.Reveal("Bk01"), a.Withdraw()]
    with pytest.raises(IllegalSplit):
        act(state, 0, a.Split("Bk01", "Bk02", ("Ogre",)))


def test_rule_3_5_a_split_needs_a_free_marker():
    markers = " ".join(f"Bk{i:02d}@{i}:Ogre*2" for i in range(2, 13))
    state = pos(f"Bk01@100:Titan,Ogre*3 {markers} Rd01@600:Titan | turn=Bk")
    assert state.free_markers(0) == ()
    assert not [x for x in legal_actions(state, 0) if isinstance(x, a.Split)]
    with pytest.raises(IllegalSplit, match="free markers"):
        act(state, 0, a.Split("Bk01", "Bk02", ("Ogre", "Ogre")))


def test_rule_3_2_split_refusals():
    state = pos(LATER)
    with pytest.raises(NotYourTurn, match="not your legion"):
        act(state, 0, a.Split("Rd01", "Bk09", ("Ogre",)))
    with pytest.raises(IllegalSplit, match="lacks"):
        act(state, 0, a.Split("Bk02", "Bk09", ("Angel", "Ogre")))
    with pytest.raises(IllegalSplit, match="not one of your free markers"):
        act(state, 0, a.Split("Bk02", "Bk01", ("Ogre", "Ogre")))
    state, _ = act(state, 0, a.Roll())
    with pytest.raises(WrongPhase):
        act(state, 0, a.Split("Bk02", "Bk09", ("Ogre", "Ogre")))


def test_errata_4_7_undo_split():
    state = pos(LATER)
    before = state
    state, _ = act(state, 0, a.Split("Bk02", "Bk07", ("Ogre", "Ogre")))
    assert a.UndoSplit("Bk07") in legal_actions(state, 0)
    state, events = act(state, 0, a.UndoSplit("Bk07"))
    assert state.legions == before.legions and "Bk07" in state.free_markers(0)
    assert of_type(events, SplitUndone) == [SplitUndone("Bk02", "Bk07", 6)]
    with pytest.raises(IllegalSplit, match="not split off this turn"):
        act(state, 0, a.UndoSplit("Bk02"))


def test_errata_4_7_undo_a_chain_of_splits_last_first():
    state = pos(LATER)
    state, _ = act(
        state,
        0,
        a.Split("Bk01", "Bk07", ("Ogre", "Ogre", "Troll", "Troll")),
        a.Split("Bk07", "Bk08", ("Ogre", "Ogre")),
    )
    assert a.UndoSplit("Bk07") not in legal_actions(state, 0)
    with pytest.raises(IllegalSplit, match="undo the split made from Bk07 first"):
        act(state, 0, a.UndoSplit("Bk07"))
    state, _ = act(state, 0, a.UndoSplit("Bk08"), a.UndoSplit("Bk07"))
    assert state.legion("Bk01").height == 7 and state.turn.split_parents == {}


def test_errata_4_7_no_undo_after_the_roll():
    state = pos(LATER)
    state, _ = act(state, 0, a.Split("Bk02", "Bk07", ("Ogre", "Ogre")), a.Roll())
    with pytest.raises(WrongPhase):
        act(state, 0, a.UndoSplit("Bk07"))
