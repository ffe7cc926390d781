"""Splitting (RULES §3.2, §3.3, §3.5; intro; 1992 preamble)."""

from __future__ import annotations

import pytest

from engine.characters import STARTING_LEGION
from engine.errors import IllegalSplit, InvalidNotation
from engine.split import check_split, split_sizes

START = list(STARTING_LEGION)  # Titan, Angel, 2 Centaurs, 2 Gargoyles, 2 Ogres
SIX = ["Troll", "Troll", "Ogre", "Ogre", "Ranger", "Lion"]


def test_rule_3_2_sizes_two_and_three_ways():
    assert split_sizes(3) == []
    assert split_sizes(4) == [(2, 2)]
    assert split_sizes(5) == [(3, 2)]
    assert split_sizes(6) == [(4, 2), (3, 3), (2, 2, 2)]
    assert split_sizes(7) == [(5, 2), (4, 3), (3, 2, 2)]


def test_rule_3_3_first_turn_sizes():
    assert split_sizes(8, first_turn=True) == [(4, 4)]
    assert split_sizes(7, first_turn=True) == []


def test_rule_3_2_split_keeps_the_rest():
    kept = check_split(SIX, [["Troll", "Ogre"]], free_markers=3)
    assert kept == ["Troll", "Ogre", "Ranger", "Lion"]


def test_rule_3_2_three_way_split_of_six():
    kept = check_split(SIX, [["Troll", "Troll"], ["Ogre", "Ogre"]], free_markers=2)
    assert kept == ["Ranger", "Lion"]


def test_rule_3_2_three_way_split_needs_height_six():
    with pytest.raises(IllegalSplit, match="cannot split 2–2–1"):
        check_split(SIX[:5], [["Troll", "Troll"], ["Ogre", "Ogre"]], free_markers=2)


def test_rule_3_2_every_legion_keeps_two():
    with pytest.raises(IllegalSplit, match="cannot split 5–1"):
        check_split(SIX, [["Lion"]], free_markers=1)
    with pytest.raises(IllegalSplit, match="cannot split 6–0"):
        check_split(SIX, [[]], free_markers=1)


def test_rule_3_2_height_three_cannot_split():
    with pytest.raises(IllegalSplit, match="legion of 3 cannot split"):
        check_split(["Ogre", "Ogre", "Troll"], [["Ogre", "Ogre"]], free_markers=1)


def test_rule_3_2_at_most_three_legions():
    with pytest.raises(IllegalSplit, match="one or two new legions"):
        check_split(SIX, [["Troll", "Troll"], ["Ogre", "Ogre"], ["Ranger", "Lion"]], 3)
    with pytest.raises(IllegalSplit, match="one or two new legions"):
        check_split(SIX, [], 3)


def test_intro_characters_come_from_the_legion():
    with pytest.raises(IllegalSplit, match="lacks 1 × Troll"):
        check_split(SIX, [["Troll", "Troll", "Troll"]], free_markers=1)
    with pytest.raises(InvalidNotation):
        check_split(SIX, [["Orc", "Troll"]], free_markers=1)


def test_rule_3_5_a_free_marker_for_each_new_legion():
    with pytest.raises(IllegalSplit, match=r"2 needed, 1 left \(RULES §3.5\)"):
        check_split(SIX, [["Troll", "Troll"], ["Ogre", "Ogre"]], free_markers=1)
    with pytest.raises(IllegalSplit, match=r"RULES §3\.5"):
        check_split(SIX, [["Troll", "Troll"]], free_markers=0)


def test_rule_3_3_first_turn_four_four_with_one_lord_each():
    kept = check_split(START, [["Angel", "Centaur", "Gargoyle", "Ogre"]], 11, first_turn=True)
    assert sorted(kept) == ["Centaur", "Gargoyle", "Ogre", "Titan"]
    check_split(START, [["Titan", "Ogre", "Ogre", "Gargoyle"]], 11, first_turn=True)


def test_rule_3_3_first_turn_lords_must_be_apart():
    with pytest.raises(IllegalSplit, match="one lord"):
        check_split(START, [["Titan", "Angel", "Ogre", "Ogre"]], 11, first_turn=True)


def test_rule_3_3_first_turn_must_be_four_four():
    with pytest.raises(IllegalSplit, match="4–4"):
        check_split(START, [["Angel", "Ogre", "Ogre"]], 11, first_turn=True)
    with pytest.raises(IllegalSplit, match="splits in two"):
        check_split(START, [["Angel", "Ogre"], ["Ogre", "Gargoyle"]], 11, first_turn=True)


def test_rule_3_3_an_eight_legion_may_split_three_ways_after_the_first_turn():
    assert split_sizes(8)[-2:] == [(4, 2, 2), (3, 3, 2)]
