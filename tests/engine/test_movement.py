"""Masterboard movement (RULES §2.3–§2.7, §4.4–§4.8): rule cases and random boards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battleland import attacker_edge, defender_edge, edge_name
from engine.errors import IllegalMove, InvalidNotation
from engine.masterboard import LANDS, TOWERS, land
from engine.movement import (
    MoveContext,
    MoveKind,
    MoveOption,
    check_move,
    has_normal_move,
    legal_moves,
    normal_moves,
    titan_teleports,
    tower_teleport_range,
    tower_teleports,
)

ALL_LANDS = sorted(LANDS)


def ctx(start, roll, friendly=(), enemy=(), **kw):
    return MoveContext(start, roll, frozenset(friendly), frozenset(enemy), **kw)


def sides(context):
    """Destination → entry sides of the normal moves."""
    return {o.destination: o.entry_sides for o in normal_moves(context)}


# --- V7: normal moves on an empty board ------------------------------------------------

V7_FROM_100 = {
    1: {3: (1,), 41: (5,), 101: (3,)},
    2: {4: None, 42: None, 142: None},
    3: {1: (1,), 5: (5,), 141: (5,)},
    4: {2: None, 6: None, 140: None},
    5: {3: (3,), 7: (3,), 139: (1,)},
    6: {4: None, 8: None, 138: None},
}
V7_FROM_200 = {
    1: {6: (5,), 10: (1,), 108: (3,)},
    2: {7: (3,), 11: (5,), 107: (1,)},
    3: {8: (1,), 12: (5,), 106: (5,)},
    4: {9: (5,), 13: (1,), 105: (1,)},
    5: {10: (3,), 14: (3,), 104: (1,)},
    6: {11: (5,), 15: (1,), 103: (5,)},
}


@pytest.mark.parametrize(
    ("start", "roll", "expected"),
    [(100, r, e) for r, e in V7_FROM_100.items()] + [(200, r, e) for r, e in V7_FROM_200.items()],
)
def test_v7_tower_rolls(start, roll, expected):
    got = sides(ctx(start, roll))
    assert set(got) == set(expected)
    for dest, side in expected.items():
        if side is not None:
            assert got[dest] == side, dest


def test_v7_block_first_step_from_1000():
    assert set(sides(ctx(1000, 3))) == {3}


def test_v7_arch_then_inner_ring_from_1():
    assert set(sides(ctx(1, 2))) == {3, 2000, 6000}


def test_v7_own_legions_block_each_other():
    assert normal_moves(ctx(39, 2, friendly={137})) == []
    assert not has_normal_move(ctx(39, 2, friendly={137}))
    assert set(sides(ctx(137, 2, friendly={39}))) == {135}


def test_v7_enemy_stops_the_move_early():
    assert sides(ctx(137, 2, friendly={39}, enemy={136})) == {136: (5,)}


# --- V8: Tower teleport range -----------------------------------------------------------

V8 = (
    set(range(1, 11))
    | {14, 30}
    | set(range(34, 43))
    | set(range(101, 109))
    | set(range(136, 143))
    | {1000, 2000, 3000, 5000, 6000, 200, 300, 400, 500, 600}
)


def test_v8_tower_teleport_from_100():
    assert len(V8) == 46
    got = tower_teleports(ctx(100, 6, has_lord=True))
    assert {o.destination for o in got} == V8
    assert all(o.kind is MoveKind.TOWER_TELEPORT and o.via == () for o in got)


def test_tower_teleport_range_ignores_contents_and_sign_direction():
    near = tower_teleport_range(100)
    assert near | {300, 400, 500} == V8
    assert {200, 600} <= near  # six lands away along the rings
    assert 100 not in near and 300 not in near


# --- Errata cases -----------------------------------------------------------------------

E15_OWN = (*range(101, 142, 2), 1, 5, 7, 11, 15, 19, 21, 25, 29, 33, 35, 39, 2000, 4000, 6000)


def test_errata_7_1_no_legal_move():
    """E15: with legions everywhere and enemies on 200, 400, 600, a 4 moves nothing."""
    for start in E15_OWN:
        context = ctx(start, 4, set(E15_OWN) - {start}, {200, 400, 600})
        assert not has_normal_move(context), start
        assert legal_moves(context) == []


def test_errata_6_2_loop():
    """E16: 42 with a 6 loops back to itself; that is a normal move."""
    options = normal_moves(ctx(42, 6))
    assert {o.destination for o in options} == {6, 42}
    loop = next(o for o in options if o.destination == 42)
    assert loop.kind is MoveKind.NORMAL and loop.via == (41,)


def test_loop_blocked_by_a_split_sibling_in_the_start_land():
    """RULES §2.3: the start land is a destination only with no other own legion there."""
    assert {o.destination for o in normal_moves(ctx(42, 6, friendly={42}))} == {6}


def test_errata_10_4_titan_teleport_into_135_off_board_side():
    """E17: side 3 of 135 faces off the board and may be chosen (A1-D1 vs D6-F4)."""
    context = ctx(1, 6, enemy={135}, has_lord=True, has_titan=True, score=400)
    option = check_move(context, 135, MoveKind.TITAN_TELEPORT, 3)
    assert option.entry_sides == (3,)
    assert land(135).across_entry_side(3) is None
    assert edge_name(attacker_edge(3)) == "A1-D1"
    assert edge_name(defender_edge(3)) == "D6-F4"
    assert titan_teleports(context)[0].entry_sides == (1, 3, 5)


def test_titan_teleport_into_a_tower_uses_side_3():
    context = ctx(1, 6, enemy={300}, has_titan=True, has_lord=True, score=500)
    assert titan_teleports(context) == [MoveOption(300, MoveKind.TITAN_TELEPORT, (3,))]


def test_errata_8_1_no_teleport_loop():
    for tower in TOWERS:
        context = ctx(tower, 6, has_lord=True)
        assert tower not in {o.destination for o in tower_teleports(context)}
        with pytest.raises(IllegalMove, match=r"errata 8\.1"):
            check_move(context, tower, MoveKind.TOWER_TELEPORT)


def test_errata_7_1_8_2_no_titan_teleport_onto_own_and_enemy():
    context = ctx(101, 6, {20}, {20, 30}, has_titan=True, has_lord=True, score=500)
    assert {o.destination for o in titan_teleports(context)} == {30}
    with pytest.raises(IllegalMove, match=r"7\.1/8\.2"):
        check_move(context, 20, MoveKind.TITAN_TELEPORT)


def test_own_and_enemy_land_is_neither_entered_nor_crossed():
    """Errata 7.1: 3 holds an engagement, so 100 cannot go through it to 4 or 5."""
    got = set(sides(ctx(100, 2, friendly={3}, enemy={3})))
    assert got == {42, 142}
    assert set(sides(ctx(100, 2, friendly={3}))) == {4, 42, 142}
    with pytest.raises(IllegalMove, match=r"engaged there \(errata 7\.1\)"):
        check_move(ctx(100, 1, friendly={3}, enemy={3}), 3)


# --- Teleport conditions (RULES §4.4–§4.6; 1992 preamble) -----------------------------


@pytest.mark.parametrize(
    ("changes", "allowed"),
    [
        ({}, True),
        ({"roll": 5}, False),
        ({"has_lord": False}, False),
        ({"teleported_this_turn": True}, False),
        ({"start": 3}, False),
    ],
)
def test_tower_teleport_conditions(changes, allowed):
    fields = {"start": 100, "roll": 6, "has_lord": True} | changes
    assert bool(tower_teleports(MoveContext(**fields))) is allowed


@pytest.mark.parametrize(
    ("changes", "allowed"),
    [
        ({}, True),
        ({"roll": 4}, False),
        ({"has_titan": False}, False),
        ({"score": 399}, False),
        ({"teleported_this_turn": True}, False),
    ],
)
def test_titan_teleport_conditions(changes, allowed):
    fields = {"start": 17, "roll": 6, "enemy": frozenset({30}), "has_titan": True}
    fields |= {"has_lord": True, "score": 400} | changes
    assert bool(titan_teleports(MoveContext(**fields))) is allowed


def test_teleport_is_never_forced():
    """1992 preamble: a legion whose only moves are teleports has no normal move."""
    context = ctx(100, 6, friendly={4, 8, 138}, has_lord=True, has_titan=True, score=900)
    assert not has_normal_move(context)
    assert tower_teleports(context)


def test_tower_teleport_excludes_occupied_lands():
    context = ctx(100, 6, friendly={3, 300}, enemy={41, 500}, has_lord=True)
    got = {o.destination for o in tower_teleports(context)}
    assert got == V8 - {3, 300, 41, 500}


# --- check_move ---------------------------------------------------------------------------


def test_check_move_names_the_legion_roll_and_rule():
    with pytest.raises(IllegalMove, match=r"Bk03 cannot reach 104 with a 3 \(RULES §2.3\)"):
        check_move(ctx(100, 3), 104, label="Bk03")
    with pytest.raises(IllegalMove, match=r"Bk03 may not end on 141: another of your legions"):
        check_move(ctx(100, 3, friendly={141}), 141, label="Bk03")


def test_check_move_narrows_the_entry_side():
    context = ctx(100, 1, enemy={3})
    assert check_move(context, 3) == MoveOption(3, MoveKind.NORMAL, (1,), (100,))
    assert check_move(context, 3, entry_side=1).via == (100,)
    with pytest.raises(IllegalMove, match=r"§4\.8"):
        check_move(context, 3, entry_side=5)
    with pytest.raises(InvalidNotation):
        check_move(context, 3, entry_side=2)


def test_check_move_teleport_refusals():
    with pytest.raises(IllegalMove, match="roll of 6"):
        check_move(ctx(100, 5, has_lord=True), 2, MoveKind.TOWER_TELEPORT)
    with pytest.raises(IllegalMove, match="occupied"):
        check_move(ctx(100, 6, {2}, has_lord=True), 2, MoveKind.TOWER_TELEPORT)
    with pytest.raises(IllegalMove, match="score of 400"):
        check_move(ctx(1, 6, enemy={30}, has_titan=True), 30, MoveKind.TITAN_TELEPORT)
    with pytest.raises(IllegalMove, match="no enemy"):
        check_move(ctx(1, 6, has_titan=True, score=400), 30, MoveKind.TITAN_TELEPORT)


def test_bad_context_is_invalid_notation():
    with pytest.raises(InvalidNotation):
        ctx(99, 3)
    with pytest.raises(InvalidNotation):
        ctx(100, 7)
    with pytest.raises(InvalidNotation):
        ctx(100, 3, enemy={43})


def test_for_legion_reads_lords_and_titan():
    context = MoveContext.for_legion(100, 6, ["Angel", "Ogre"])
    assert context.has_lord and not context.has_titan
    context = MoveContext.for_legion(100, 6, ["Titan"], score=400)
    assert context.has_lord and context.has_titan


# --- Random boards against an independent brute-force search ----------------------------


def _walks(start, roll):
    """Every sign-following walk of 1..roll steps as a list of lands, start first.

    Independent of the engine's search: plain recursion over printed sign types.
    """
    out = []

    def extend(path):
        if len(path) > 1:
            out.append(path)
        if len(path) == roll + 1:
            return
        here = LANDS[path[-1]]
        if len(path) == 1:
            kinds = {"block"} if any(e.sign.value == "block" for e in here.exits) else None
            nexts = [e.to for e in here.exits if kinds is None or e.sign.value in kinds]
        else:
            nexts = [
                e.to for e in here.exits if e.sign.value in ("arrow", "arrows") and e.to != path[-2]
            ]
        for n in nexts:
            extend([*path, n])

    extend([start])
    return out


def _legal_walk(path, roll, friendly, enemy):
    """RULES §2.3 step 3, checked on a whole walk."""
    inner, last = path[1:-1], path[-1]
    if any(n in enemy for n in inner):
        return False  # an enemy (alone or with an own legion) stops or blocks earlier
    if last in enemy:
        return last not in friendly
    return len(path) == roll + 1 and last not in friendly


def _brute_force(start, roll, friendly, enemy):
    return {(p[-1], p[-2]) for p in _walks(start, roll) if _legal_walk(p, roll, friendly, enemy)}


lands = st.sampled_from(ALL_LANDS)
boards = st.tuples(
    lands,
    st.integers(1, 6),
    st.frozensets(lands, max_size=30),
    st.frozensets(lands, max_size=12),
)


@settings(max_examples=200, deadline=None)
@given(boards)
def test_normal_moves_match_brute_force(board):
    start, roll, friendly, enemy = board
    enemy -= {start}
    got = {
        (o.destination, v) for o in normal_moves(ctx(start, roll, friendly, enemy)) for v in o.via
    }
    assert got == _brute_force(start, roll, friendly, enemy)


@settings(max_examples=200, deadline=None)
@given(
    boards,
    st.booleans(),
    st.booleans(),
    st.integers(0, 900),
    st.booleans(),
)
def test_moves_keep_the_invariants(board, lord, titan, score, teleported):
    start, roll, friendly, enemy = board
    enemy -= {start}
    context = MoveContext(start, roll, friendly, enemy, lord or titan, titan, score, teleported)
    for option in normal_moves(context):
        assert option.destination not in friendly
        assert option.entry_sides and set(option.entry_sides) <= {1, 3, 5}
        assert option.via
    may_teleport = roll == 6 and not teleported
    tower = tower_teleports(context)
    titan_moves = titan_teleports(context)
    if tower:
        assert may_teleport and land(start).is_tower and (lord or titan)
    if titan_moves:
        assert may_teleport and titan and score >= 400
    for option in tower:
        assert option.destination != start
        assert option.destination not in friendly | enemy
    for option in titan_moves:
        assert option.destination != start
        assert option.destination in enemy - friendly
