"""Rangestrikes and line of sight (RULES §10): errata and V-cases of RULES §13, properties."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battle.los import intervening_paths, line_of_sight
from engine.battle.position import Fighter, Position, Side, fighter
from engine.battle.rangestrike import (
    RangestrikeValues,
    can_rangestrike,
    rangestrike_problem,
    rangestrike_range,
    rangestrike_targets,
    rangestrike_values,
    rangestriker_problem,
)
from engine.battleland import BATTLELANDS, LABELS, axial, battleland, distance, neighbours
from engine.characters import CHARACTERS
from engine.errors import IllegalStrike

TERRAINS = sorted(BATTLELANDS)
RANGESTRIKERS = sorted(n for n, c in CHARACTERS.items() if c.rangestrikes)
NAMES = sorted(CHARACTERS)


def battle(notation: str) -> Position:
    """A position from one line: ``"Desert: Ranger C1, Ogre D3 | Dragon D4"``.

    Attackers (the rangestriker's side) before ``|``, defenders after; ``:n`` gives hits
    taken, a trailing ``!`` marks a character slain but not yet removed.
    """
    terrain, sides = notation.split(":", 1)
    fighters = []
    for side, part in zip((Side.ATTACKER, Side.DEFENDER), sides.split("|"), strict=True):
        for item in filter(None, (p.strip() for p in part.split(","))):
            slain = item.endswith("!")
            name, hex_label = item.rstrip("!").split()
            hex_label, _, hits = hex_label.partition(":")
            f = fighter(name, side, hex_label, hits=int(hits or 0))
            fighters.append(replace(f, slain=True) if slain else f)
    return Position(terrain.strip(), tuple(fighters))


def at(position: Position, hex_label: str) -> Fighter:
    found = position.at(hex_label)
    assert found is not None, hex_label
    return found


def values(notation: str, striker: str, target: str) -> RangestrikeValues:
    position = battle(notation)
    return rangestrike_values(position, at(position, striker), at(position, target))


def allowed(notation: str, striker: str, target: str) -> bool:
    position = battle(notation)
    return can_rangestrike(position, at(position, striker), at(position, target))


def sees(terrain: str, a: str, b: str, *occupied: str) -> bool:
    return line_of_sight(battleland(terrain), a, b, frozenset(occupied)).clear


# --- §10.5 path table -------------------------------------------------------------------

_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_BY_AXIAL = {axial(label): label for label in LABELS}


def _step(label: str, *moves: tuple[int, int]) -> str | None:
    q, r = axial(label)
    for dq, dr in moves:
        q, r = q + dq, r + dr
    return _BY_AXIAL.get((q, r))


def _table_paths(a: str, b: str) -> set[tuple[str | None, ...]]:
    """The intervening hexes by the table of RULES §10.5 (distances 2 and 3)."""
    found: set[tuple[str | None, ...]] = set()
    for i, u in enumerate(_DIRECTIONS):
        for v in (_DIRECTIONS[(i + 1) % 6], _DIRECTIONS[(i - 1) % 6]):
            if _step(a, u, u) == b:
                found.add((_step(a, u),))
            if _step(a, u, v) == b:
                found |= {(_step(a, u),), (_step(a, v),)}
            if _step(a, u, u, u) == b:
                found.add((_step(a, u), _step(a, u, u)))
            if _step(a, u, u, v) == b:
                found.add((_step(a, u), _step(a, u, v)))
    return found


@pytest.mark.parametrize("a", LABELS)
def test_paths_follow_the_table_within_range_4(a):
    for b in LABELS:
        if distance(a, b) in (2, 3):
            expected = _table_paths(a, b)
            assert set(intervening_paths(a, b)) == expected, (a, b)


def test_every_pair_has_a_connected_path_and_hexspines_have_two():
    for a in LABELS:
        for b in LABELS:
            paths = intervening_paths(a, b) if a != b else ((),)
            assert 1 <= len(paths) <= 2, (a, b)
    assert set(intervening_paths("C1", "B2")) == {("B1",), ("C2",)}
    assert intervening_paths("A1", "B1") == ((),)


# --- §13.1 errata 11.7: Desert cases ----------------------------------------------------


def test_E2_character_at_the_foot_of_the_target_cliff_does_not_block():
    notation = "Desert: Ranger C1, Ogre D3 | Dragon D4"
    assert intervening_paths("C1", "D4") == (("C2", "D3"),)
    assert values(notation, "C1", "D4") == RangestrikeValues(2, 4, 4, magic_missile=False)


def test_E3_characters_at_the_foot_of_both_cliffs_do_not_block():
    notation = "Desert: Ranger E1, Ogre D3, Ogre E2 | Griffon D4"
    got = values(notation, "E1", "D4")
    assert (got.dice, got.strike_number) == (2, 5)


def test_E4_dunes_do_not_let_a_rangestrike_pass_a_character():
    assert not allowed("Desert: Ranger D5, Ogre B3 | Ogre A2", "D5", "A2")
    assert not sees("Desert", "D5", "A2", "B3")
    assert sees("Desert", "D5", "A2")
    assert values("Desert: Ranger D5 | Ogre A2", "D5", "A2").strike_number == 3


def test_E5_character_between_blocks_in_the_desert():
    assert not allowed("Desert: Ranger E4, Ogre F2 | Unicorn F1", "E4", "F1")
    assert values("Desert: Ranger E4 | Unicorn F1", "E4", "F1").strike_number == 5


def test_errata_11_7_tree_blocks_even_from_a_hilltop():
    assert not sees("Hills", "B1", "D3")  # Tree C2, Ranger on a hilltop
    assert not sees("Woods", "B2", "D4")  # Tree C3


# --- §13.2 V5: the Tower ---------------------------------------------------------------


def test_V5_ranger_B2_at_D3_over_the_clear_hexspine_path():
    sight = line_of_sight(battleland("Tower"), "B2", "D3")
    by_path = {line.hexes: line.blocked_by for line in sight.lines}
    assert "L2" in (by_path[("C3",)] or "")
    assert by_path[("C2",)] is None
    got = values("Tower: Ranger B2 | Ogre D3", "B2", "D3")
    assert (got.dice, got.strike_number) == (2, 3)


def test_V5_ranger_D4_at_B2_is_blocked_by_the_wall():
    sight = line_of_sight(battleland("Tower"), "D4", "B2")
    assert not sight.clear
    assert "L2" in (sight.reason or "")
    assert not allowed("Tower: Ranger D4 | Ogre B2", "D4", "B2")


def test_V5_giant_B1_at_troll_D4_loses_skill_for_range_and_two_levels():
    got = values("Tower: Giant B1 | Troll D4", "B1", "D4")
    assert (got.dice, got.strike_number, got.range) == (3, 5, 4)


# --- §13.2 V6: other rangestrikes -------------------------------------------------------


def test_V6_hexspine_one_clear_path_suffices():
    assert values("Plains: Ranger C1 | Troll B2", "C1", "B2") == RangestrikeValues(
        2, 2, 3, magic_missile=False
    )
    assert allowed("Plains: Ranger C1, Ogre B1 | Troll B2", "C1", "B2")
    assert allowed("Plains: Ranger C1, Ogre C2 | Troll B2", "C1", "B2")
    assert not allowed("Plains: Ranger C1, Ogre B1, Ogre C2 | Troll B2", "C1", "B2")


def test_V6_range_4_costs_one_skill():
    assert values("Plains: Ranger A1 | Troll D1", "A1", "D1").strike_number == 3


def test_V6_ranger_cannot_target_an_angel_but_a_warlock_can():
    assert not allowed("Plains: Ranger A1 | Angel D1", "A1", "D1")
    got = values("Plains: Warlock A1 | Angel D1", "A1", "D1")
    assert (got.dice, got.strike_number, got.magic_missile) == (2, 4, True)


def test_V6_character_lower_than_both_ends_does_not_block():
    assert values("Hills: Ranger B1, Ogre B2 | Troll B3", "B1", "B3").strike_number == 2


def test_V6_intervening_bramble_costs_a_non_native_one_skill():
    assert values("Brush: Ranger A1 | Troll C3", "A1", "C3").strike_number == 3
    assert values("Plains: Ranger A1 | Troll C3", "A1", "C3").strike_number == 2
    got = values("Brush: Gorgon A1 | Troll C3", "A1", "C3")
    assert (got.dice, got.strike_number) == (3, 3)


def test_V6_tree_blocks():
    assert not sees("Woods", "C2", "C4")
    assert not allowed("Woods: Ranger C2 | Troll C4", "C2", "C4")


def test_V6_volcano():
    assert values("Mountains: Ranger D6 | Dragon D4", "D6", "D4").strike_number == 4
    assert values("Mountains: Warlock D6 | Dragon D4", "D6", "D4").strike_number == 3
    got = values("Mountains: Dragon D4 | Ogre D6", "D4", "D6")
    assert (got.dice, got.strike_number) == (6, 3)
    assert values("Mountains: Dragon B2 | Dragon D4", "B2", "D4").strike_number == 5


def test_V6_out_of_range():
    position = battle("Brush: Gorgon B3 | Troll D2")
    assert rangestrike_range("B3", "D2") == 4
    reason = rangestrike_problem(position, at(position, "B3"), at(position, "D2"))
    assert reason is not None and "range 4" in reason and "§10.2" in reason


# --- errata 13.x and the lord rule -------------------------------------------------------


def test_errata_13_1_all_or_nothing_dice_are_fixed():
    # The only choice a rangestrike offers is a hexspine path's strike-number (13.3);
    # the dice are always all of them: ⌊Power / 2⌋ (+2 from the Volcano).
    assert {f.name for f in fields(RangestrikeValues) if "dice" in f.name} == {"dice"}
    for name in RANGESTRIKERS:
        got = values(f"Plains: {name} A1 | Troll C3", "A1", "C3")
        assert got.dice == CHARACTERS[name].power // 2
    assert values("Jungle: Giant F2 | Centaur E1", "F2", "E1").dice == 3


def test_errata_13_3_hexspine_default_is_the_better_path_and_the_other_may_be_chosen():
    sight = line_of_sight(battleland("Jungle"), "F2", "E1")
    assert sorted(line.brambles for line in sight.clear_lines) == [0, 1]  # E2 is a Bramble
    got = values("Jungle: Giant F2 | Centaur E1", "F2", "E1")
    assert got.strike_number == 4
    assert got.alternatives == (5,)
    assert got.strike_numbers == (4, 5)
    plain = values("Plains: Giant F2 | Centaur E1", "F2", "E1")
    assert plain.alternatives == ()


def test_errata_13_4_rangestriking_is_optional():
    position = battle("Plains: Ranger A1, Gorgon B1 | Troll D1, Ogre C3")
    for hex_label in ("A1", "B1"):
        striker = at(position, hex_label)
        assert rangestrike_targets(position, striker)
        assert not position.is_engaged(striker)  # no strike is forced on it (RULES §9.1)


@pytest.mark.parametrize("lord", ["Titan", "Angel", "Archangel"])
def test_lords_only_by_magic_missile(lord):
    position = battle(f"Plains: Ranger A1, Warlock B1 | {lord} D1")
    with pytest.raises(IllegalStrike) as raised:
        rangestrike_values(position, at(position, "A1"), at(position, "D1"))
    assert str(raised.value) == (
        f"Ranger A1 cannot rangestrike {lord} D1: only a magic missile may target a lord"
        " (RULES §10.4)"
    )
    assert can_rangestrike(position, at(position, "B1"), at(position, "D1"))
    assert allowed("Plains: Ranger A1 | Guardian D1", "A1", "D1")  # demi-lords may be hit


# --- contact, slain characters, magic missile ---------------------------------------------


def test_no_rangestrike_in_contact_even_with_a_slain_enemy():
    assert not allowed("Plains: Ranger A1 | Troll D1, Ogre A2", "A1", "D1")
    assert not allowed("Plains: Ranger A1 | Troll D1, Ogre A2!", "A1", "D1")
    position = battle("Plains: Ranger A1 | Troll D1, Ogre A2!")
    reason = rangestriker_problem(position, at(position, "A1"))
    assert reason is not None and "Ogre A2" in reason and "§10.1" in reason
    assert rangestrike_targets(position, at(position, "A1")) == ()


def test_an_enemy_across_a_cliff_does_not_stop_a_rangestrike():
    assert allowed("Desert: Ranger B2 | Ogre B1, Troll B4", "B2", "B4")


def test_magic_missile_across_a_cliff_at_range_2_but_no_normal_rangestrike():
    got = values("Desert: Warlock D4 | Ogre C3", "D4", "C3")
    assert (got.range, got.dice, got.strike_number) == (2, 2, 2)
    assert not allowed("Desert: Ranger D4 | Ogre C3", "D4", "C3")


def test_magic_missile_ignores_line_of_sight():
    assert not sees("Woods", "C2", "C4")
    assert values("Woods: Warlock C2 | Troll C4", "C2", "C4").strike_number == 2


def test_slain_character_still_blocks_and_cannot_be_targeted():
    assert not allowed("Desert: Ranger D5, Ogre B3! | Ogre A2", "D5", "A2")
    assert not allowed("Plains: Ranger A1 | Troll C2!", "A1", "C2")


def test_non_rangestriker_refused():
    position = battle("Plains: Ogre A1 | Troll D1")
    reason = rangestrike_problem(position, at(position, "A1"), at(position, "D1"))
    assert reason is not None and reason.startswith("Ogre A1 cannot rangestrike")


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    terrain=st.sampled_from(TERRAINS),
    ends=st.lists(st.sampled_from(LABELS), min_size=2, max_size=2, unique=True),
    occupied=st.frozensets(st.sampled_from(LABELS), max_size=8),
)
def test_line_of_sight_is_symmetric(terrain, ends, occupied):
    # L1–L6 treat the two ends alike (L2 and L6 swap their first and last hexside), and
    # both hexspine paths are tried, so sight does not depend on who looks.
    a, b = ends
    land = battleland(terrain)
    assert line_of_sight(land, a, b, occupied).clear == line_of_sight(land, b, a, occupied).clear


@st.composite
def positions(draw):
    terrain = draw(st.sampled_from(TERRAINS))
    hexes = draw(st.lists(st.sampled_from(LABELS), min_size=2, max_size=8, unique=True))
    striker = fighter(draw(st.sampled_from(RANGESTRIKERS)), Side.ATTACKER, hexes[0])
    others = [
        fighter(draw(st.sampled_from(NAMES)), draw(st.sampled_from(Side)), h) for h in hexes[2:]
    ]
    target = fighter(draw(st.sampled_from(NAMES)), Side.DEFENDER, hexes[1])
    return Position(terrain, (striker, target, *others)), striker, target


@settings(max_examples=400, deadline=None)
@given(case=positions())
def test_strike_numbers_in_range_and_no_rangestrike_in_contact(case):
    position, striker, target = case
    in_contact = bool(position.adjacent_enemies(striker, living_only=False))
    if in_contact:
        assert rangestrike_targets(position, striker) == ()
    if can_rangestrike(position, striker, target):
        assert not in_contact
        got = rangestrike_values(position, striker, target)
        assert all(1 <= s <= 6 for s in got.strike_numbers)
        assert got.range <= striker.skill
        assert list(got.strike_numbers[1:]) == sorted(set(got.strike_numbers[1:]))
        assert all(s > got.strike_number for s in got.alternatives)
    else:
        with pytest.raises(IllegalStrike):
            rangestrike_values(position, striker, target)


def test_adjacent_characters_are_never_rangestruck_normally():
    for label in LABELS:
        for other in filter(None, neighbours(label)):
            position = battle(f"Plains: Ranger {label} | Troll {other}")
            assert not can_rangestrike(position, at(position, label), at(position, other))
