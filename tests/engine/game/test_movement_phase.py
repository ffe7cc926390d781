"""The movement phase of a turn (RULES §2.3–§2.6, §3.4, §4.3–§4.8; SoP; errata)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, IllegalMove, NotYourTurn
from engine.game import actions as a
from engine.game.events import LegionMoved, MovementEnded, MovementRolled, MoveTakenBack, Recombined
from engine.game.legal import legal_actions
from engine.game.state import Phase
from engine.movement import MoveKind
from tests.engine.game.helpers import ANGEL_HALF, TITAN_HALF, act, of_type, pos

T = ",".join(TITAN_HALF)
A = ",".join(ANGEL_HALF)
FIRST_MOVE = f"Bk01@100:{T} Bk02@100:{A} Rd01@600:Titan | turn=Bk phase=move roll=2 first=yes"
TWO = "Bk01@100:Titan,Ogre Bk02@200:Angel,Troll Rd01@600:Titan | turn=Bk phase=move roll=2"


def test_sop_mulligan_once_on_the_first_turn():
    state = pos(FIRST_MOVE)
    assert a.Mulligan() in legal_actions(state, 0)
    state, events = act(state, 0, a.Mulligan())
    assert state.turn.mulligan_used and 1 <= state.turn.roll <= 6
    assert events == [MovementRolled(0, state.turn.roll, mulligan=True)]
    assert a.Mulligan() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="once, on your first turn"):
        act(state, 0, a.Mulligan())


def test_sop_mulligan_only_before_any_move_stands():
    state = pos(FIRST_MOVE)
    state, _ = act(state, 0, a.Move("Bk01", 4))
    assert a.Mulligan() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="take back every move"):
        act(state, 0, a.Mulligan())
    state, _ = act(state, 0, a.TakeBack("Bk01"), a.Mulligan())
    assert state.turn.mulligan_used


def test_sop_no_mulligan_after_the_first_turn():
    state = pos(TWO)
    assert a.Mulligan() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, a.Mulligan())


def test_sop_legions_move_one_at_a_time_each_completing_its_move():
    state = pos(TWO)
    state, events = act(state, 0, a.Move("Bk01", 42))
    assert of_type(events, LegionMoved) == [
        LegionMoved("Bk01", 100, 42, MoveKind.NORMAL, None, None)
    ]
    with pytest.raises(IllegalMove, match="has moved already"):
        act(state, 0, a.Move("Bk01", 4))
    assert a.TakeBack("Bk01") in legal_actions(state, 0)
    assert not [x for x in legal_actions(state, 0) if isinstance(x, a.Move) and x.legion == "Bk01"]
    with pytest.raises(NotYourTurn):
        act(state, 1, a.Move("Rd01", 34))
    with pytest.raises(IllegalMove, match="cannot reach 3 with a 2"):
        act(state, 0, a.Move("Bk02", 3))


def test_errata_7_0_take_back_takes_back_every_later_move():
    state = pos(TWO)
    state, _ = act(state, 0, a.Move("Bk01", 42), a.Move("Bk02", 7))
    state, events = act(state, 0, a.TakeBack("Bk01"))
    assert events == [MoveTakenBack("Bk02", 200), MoveTakenBack("Bk01", 100)]
    assert state.legion("Bk01").land == 100 and state.legion("Bk02").land == 200
    assert state.turn.moves == ()
    state, _ = act(state, 0, a.Move("Bk02", 11), a.Move("Bk01", 4))
    assert [m.marker for m in state.turn.moves] == ["Bk02", "Bk01"]


def test_errata_7_0_take_back_only_a_moved_legion_in_the_movement_phase():
    state = pos(TWO)
    with pytest.raises(IllegalMove, match="has not moved"):
        act(state, 0, a.TakeBack("Bk01"))
    state, _ = act(state, 0, a.Move("Bk01", 42), a.EndMovement())
    assert state.phase is Phase.MUSTER
    with pytest.raises(IllegalAction):
        act(state, 0, a.TakeBack("Bk01"))


def test_errata_10_4_entry_side_chosen_at_move_time():
    state = pos("Bk01@1:Titan,Ogre Rd01@4000:Troll Rd02@600:Titan | turn=Bk phase=move roll=4")
    moves = [x for x in legal_actions(state, 0) if isinstance(x, a.Move) and x.land == 4000]
    assert moves == [a.Move("Bk01", 4000, None, 1), a.Move("Bk01", 4000, None, 5)]
    with pytest.raises(IllegalMove, match="by side 1 or 5: choose one"):
        act(state, 0, a.Move("Bk01", 4000))
    state, events = act(state, 0, a.Move("Bk01", 4000, entry_side=5))
    assert state.turn.moves[0].entry_side == 5
    state, events = act(state, 0, a.EndMovement())
    assert of_type(events, MovementEnded) == [MovementEnded((4000,))]
    state, _ = act(state, 0, a.Engage(4000))
    assert state.engagement is not None and state.engagement.entry_side == 5


def test_errata_10_4_e17_titan_teleport_entry_side_facing_off_the_board():
    """E17: a Titan teleport onto 135 may enter by side 3, which faces off the board."""
    state = pos(
        "Bk01@5:Ogre,Titan Rd01@135:Troll Rd02@600:Titan | turn=Bk phase=move roll=6 scores=Bk:400"
    )
    teleports = [x for x in legal_actions(state, 0) if x.__class__ is a.Move and x.kind]
    assert a.Move("Bk01", 135, MoveKind.TITAN_TELEPORT, 3) in teleports
    state, events = act(state, 0, a.Move("Bk01", 135, MoveKind.TITAN_TELEPORT, 3))
    assert of_type(events, LegionMoved)[0].lord == "Titan"
    assert state.legion("Bk01").revealed == ("Titan",)
    state, _ = act(state, 0, a.EndMovement(), a.Engage(135))
    assert state.engagement is not None and state.engagement.entry_side == 3


def test_rule_19_2_titan_teleport_needs_400_points():
    state = pos(
        "Bk01@5:Ogre,Titan Rd01@135:Troll Rd02@600:Titan | turn=Bk phase=move roll=6 scores=Bk:399"
    )
    with pytest.raises(IllegalMove, match="score of 400"):
        act(state, 0, a.Move("Bk01", 135, MoveKind.TITAN_TELEPORT, 3))


def test_errata_7_1_8_2_no_titan_teleport_into_an_engagement_of_ones_own():
    state = pos(
        "Bk01@5:Ogre,Titan Bk02@141:Ogre Rd01@135:Troll Rd02@600:Titan | turn=Bk "
        "phase=move roll=6 scores=Bk:400"
    )
    state, _ = act(state, 0, a.Move("Bk02", 135))
    with pytest.raises(IllegalMove, match=r"errata 7\.1"):
        act(state, 0, a.Move("Bk01", 135, MoveKind.TITAN_TELEPORT, 3))


def test_rule_4_4_tower_teleport_reveals_a_lord_and_only_one_teleport_a_turn():
    state = pos(
        "Bk01@100:Angel,Ogre Bk02@200:Archangel,Troll Rd01@600:Titan | turn=Bk phase=move roll=6"
    )
    state, events = act(state, 0, a.Move("Bk01", 30, MoveKind.TOWER_TELEPORT))
    assert of_type(events, LegionMoved)[0].lord == "Angel"
    assert events[0].audience is None
    with pytest.raises(IllegalMove, match="only one legion may teleport"):
        act(state, 0, a.Move("Bk02", 7, MoveKind.TOWER_TELEPORT))
    state, _ = act(state, 0, a.TakeBack("Bk01"))
    state, events = act(state, 0, a.Move("Bk02", 7, MoveKind.TOWER_TELEPORT, lord="Archangel"))
    assert of_type(events, LegionMoved)[0].lord == "Archangel"


def test_errata_8_1_no_teleport_loop():
    state = pos("Bk01@100:Angel,Ogre Rd01@600:Titan | turn=Bk phase=move roll=6")
    with pytest.raises(IllegalMove, match=r"errata 8\.1"):
        act(state, 0, a.Move("Bk01", 100, MoveKind.TOWER_TELEPORT))
    assert not [x for x in legal_actions(state, 0) if isinstance(x, a.Move) and x.land == 100]


def test_rule_3_4_split_legions_still_together_recombine_under_the_original_marker():
    """§2.4: the mover may block a split-off's only destinations so that it recombines."""
    state = pos(
        f"Bk01@100:{T} Bk02@100:{A} Bk03@3:Troll Bk04@41:Troll Bk05@101:Troll Bk06@20:Ogre "
        "Rd01@600:Titan | turn=Bk phase=move roll=1 splits=Bk02<Bk01"
    )
    state, _ = act(state, 0, a.Move("Bk03", 4))
    assert a.EndMovement() not in legal_actions(state, 0)  # 3 is free: one must leave
    state, _ = act(state, 0, a.TakeBack("Bk03"), a.Move("Bk06", 21))
    state, events = act(state, 0, a.EndMovement())
    merged = state.legion("Bk01")
    assert merged.height == 8 and merged.land == 100 and "Bk02" not in state.legions
    assert of_type(events, Recombined) == [Recombined("Bk01", ("Bk02",), 100, 8)]
    assert "Bk02" in state.free_markers(0)


def test_rule_3_4_recombining_without_the_original_keeps_the_chosen_marker():
    state = pos(
        "Bk01@100:Titan,Ogre Bk02@100:Troll*2 Bk03@100:Lion*2 Bk04@41:Troll Bk05@101:Troll "
        "Rd01@600:Titan | turn=Bk phase=move roll=1 splits=Bk02<Bk01,Bk03<Bk01"
    )
    state, _ = act(state, 0, a.Move("Bk01", 3))
    state, _ = act(state, 0, a.EndMovement(keep=("Bk03",)))
    assert state.legion("Bk03").characters == ("Lion", "Lion", "Troll", "Troll")
    assert "Bk02" not in state.legions and "Bk02" in state.free_markers(0)


def test_errata_6_2_must_move_at_least_one_legion():
    state = pos(TWO)
    assert a.EndMovement() not in legal_actions(state, 0)
    with pytest.raises(IllegalMove, match="at least one legion"):
        act(state, 0, a.EndMovement())
    state, _ = act(state, 0, a.Move("Bk02", 7), a.EndMovement())
    assert state.phase is Phase.MUSTER


def test_errata_6_2_split_legions_must_separate_if_they_can():
    """With a three-way split, two of the three must leave if they can (RULES §2.6b)."""
    state = pos(
        "Bk01@100:Titan,Ogre Bk02@100:Troll*2 Bk03@100:Lion*2 Rd01@600:Titan | turn=Bk "
        "phase=move roll=3 splits=Bk02<Bk01,Bk03<Bk01"
    )
    state, _ = act(state, 0, a.Move("Bk01", 5))
    with pytest.raises(IllegalMove, match="must separate"):
        act(state, 0, a.EndMovement())
    state, _ = act(state, 0, a.Move("Bk02", 1), a.EndMovement())
    assert state.legion("Bk03").land == 100 and state.phase is Phase.MUSTER


def test_errata_4_3_8_0_8_3_teleport_is_never_forced():
    """1992 preamble: a blocked split Titan legion in a Tower with a 6 may just recombine."""
    state = pos(
        f"Bk01@100:{T} Bk02@100:{A} Bk03@4:Troll Bk04@8:Troll Bk05@138:Troll Bk06@20:Ogre "
        "Rd01@600:Titan | turn=Bk phase=move roll=6 splits=Bk02<Bk01"
    )
    teleports = [x for x in legal_actions(state, 0) if isinstance(x, a.Move) and x.kind]
    assert teleports  # possible, but not required
    state, _ = act(state, 0, a.Move("Bk06", 26))
    assert a.EndMovement() in legal_actions(state, 0)
    state, events = act(state, 0, a.EndMovement())
    assert of_type(events, Recombined)[0].marker == "Bk01"


def test_errata_7_1_e15_no_legal_move_means_no_move():
    """E15 (and §14 C9): the mover simply moves nothing and the turn goes on."""
    lands = (*range(101, 142, 2), 1, 5, 7, 11, 15, 19, 21, 25, 29, 33, 35, 39, 2000, 4000, 6000)
    kinds = ["Ogre", "Troll", "Lion", "Centaur", "Cyclops", "Ranger"]
    markers = [f"{c}{i:02d}" for c in ("Bk", "Bu", "Br") for i in range(1, 13)]
    pairs = enumerate(zip(markers, lands, strict=True))
    legions = " ".join(f"{m}/Bk@{land}:{kinds[i % 6]}" for i, (m, land) in pairs)
    state = pos(
        f"{legions} Rd01@200:Titan Rd02@400:Troll Rd03@600:Troll | turn=Bk phase=move roll=4 "
        "out=Bu,Br"
    )
    mine = [a.Reveal(m) for m in sorted(state.legions) if state.legions[m].owner == 0]
    assert len(mine) == len(lands)
    assert legal_actions(state, 0) == [a.EndMovement(), *mine, a.Withdraw()]
    state, events = act(state, 0, a.EndMovement())
    assert state.phase is Phase.MUSTER and of_type(events, MovementEnded) == [MovementEnded(())]


def test_errata_6_2_18_0_e16_a_loop_counts_as_a_move_and_may_muster():
    """E16: from 42 a 6 may end in 42 itself."""
    state = pos("Bk01@42:Titan,Troll*2 Rd01@600:Titan | turn=Bk phase=move roll=6")
    assert {x.land for x in legal_actions(state, 0) if isinstance(x, a.Move)} == {6, 42}
    state, _ = act(state, 0, a.Move("Bk01", 42), a.EndMovement())
    assert state.turn.moved == frozenset({"Bk01"})
    assert a.Muster("Bk01", "Troll", ("Troll",)) in legal_actions(state, 0)


def test_errata_7_1_an_engaged_land_is_neither_entered_nor_crossed():
    state = pos(
        "Bk01@100:Titan,Ogre Bk02@100:Troll*2 Rd01@3:Troll Rd02@600:Titan | turn=Bk "
        "phase=move roll=1 splits=Bk02<Bk01"
    )
    state, _ = act(state, 0, a.Move("Bk01", 3))
    destinations = {x.land for x in legal_actions(state, 0) if isinstance(x, a.Move)}
    assert destinations == {41, 101}


# --- the marker kept where split legions recombine (RULES §3.4) ----------------------------
THREE_WAY = (
    "Bk01@100:Titan,Ogre Bk02@100:Troll*2 Bk03@100:Lion*2 Bk04@41:Troll Bk05@101:Troll "
    "Rd01@600:Titan | turn=Bk phase=move roll=1 splits=Bk02<Bk01,Bk03<Bk01"
)


@pytest.mark.parametrize(
    ("keep", "complaint"),
    [
        (("Rd01",), "keep Rd01: it is not one of your legions"),
        (("Bk09",), "keep Bk09: it is not one of your legions"),
        (("Bk04",), "keep Bk04: no other legion of yours recombines with it"),
        (("Bk03", "Bk03"), "keep Bk03: named twice"),
        (("Bk02", "Bk03"), "keep one marker in 100, not both Bk02 and Bk03"),
    ],
)
def test_rule_3_4_keep_names_one_recombining_marker_per_land(keep, complaint):
    state, _ = act(pos(THREE_WAY), 0, a.Move("Bk01", 3))  # Bk02 and Bk03 cannot leave
    with pytest.raises(IllegalMove, match=complaint):
        act(state, 0, a.EndMovement(keep=keep))
    act(state, 0, a.EndMovement(keep=("Bk02",)))


def test_rule_3_4_keep_cannot_overrule_the_original_marker():
    blocked = THREE_WAY.replace("Rd01@600", "Bk06@3:Ogre Bk07@20:Ogre Rd01@600")
    state, _ = act(pos(blocked), 0, a.Move("Bk07", 21))  # nobody in 100 can move
    with pytest.raises(IllegalMove, match="the original marker Bk01 stays in 100"):
        act(state, 0, a.EndMovement(keep=("Bk03",)))
    state, events = act(state, 0, a.EndMovement(keep=("Bk01",)))  # what happens anyway
    assert of_type(events, Recombined) == [Recombined("Bk01", ("Bk02", "Bk03"), 100, 6)]
