"""Mustering (RULES §6; rules 18.1–18.5) and over-7 removal (RULES §6.7; errata 4.1)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMuster, InvalidNotation
from engine.muster import (
    RECRUIT_TREES,
    TOWER_RULES,
    MusterOption,
    can_muster,
    check_muster,
    muster_options,
    recruits_in,
)
from engine.overflow import removal_order, trim_to_seven


def recruits(terrain, legion, available=None):
    return {o.recruit for o in muster_options(terrain, legion, available)}


def ways(terrain, legion, recruit):
    [option] = [o for o in muster_options(terrain, legion) if o.recruit == recruit]
    return set(option.recruiters)


# Rule 18.3 -----------------------------------------------------------------------------


def test_rule_18_3_marsh_ogre_musters_ogre():
    assert recruits("Marsh", ["Ogre"]) == {"Ogre"}


def test_rule_18_3_marsh_troll_musters_troll_or_ogre():
    assert recruits("Marsh", ["Troll"]) == {"Troll", "Ogre"}


def test_rule_18_3_marsh_two_ogres_muster_troll():
    assert recruits("Marsh", ["Ogre", "Ogre"]) == {"Ogre", "Troll"}
    assert ways("Marsh", ["Ogre", "Ogre"], "Troll") == {("Ogre", "Ogre")}


def test_rule_18_3_mountains_two_lions_muster_minotaur_but_not_dragon():
    assert recruits("Mountains", ["Lion", "Lion"]) == {"Lion", "Minotaur"}


def test_rule_18_3_mountains_dragon_needs_two_minotaurs_a_dragon_or_a_colossus():
    assert "Dragon" in recruits("Mountains", ["Minotaur", "Minotaur"])
    assert "Dragon" in recruits("Mountains", ["Dragon"])
    assert "Dragon" in recruits("Mountains", ["Colossus"])
    assert "Dragon" not in recruits("Mountains", ["Minotaur", "Lion", "Lion", "Lion"])


def test_rule_18_3_mountains_colossus_musters_colossus_dragon_minotaur_or_lion():
    assert recruits("Mountains", ["Colossus"]) == {"Colossus", "Dragon", "Minotaur", "Lion"}
    assert ways("Mountains", ["Colossus"], "Lion") == {("Colossus",)}


def test_rule_18_3_no_creature_of_the_terrain_no_recruit():
    assert recruits("Marsh", ["Lion", "Lion", "Centaur"]) == set()


def test_rule_18_3_need_not_take_the_highest_creature():
    check_muster("Mountains", ["Colossus"], "Lion", ["Colossus"])


def test_rule_18_3_steps_cannot_be_skipped():
    with pytest.raises(IllegalMuster, match="does not qualify for Dragon"):
        check_muster("Mountains", ["Lion", "Lion", "Lion", "Lion"], "Dragon", ["Lion"] * 4)


def test_rule_18_3_only_creatures_of_the_terrain():
    with pytest.raises(IllegalMuster, match=r"cannot be mustered in Marsh \(RULES §6.3"):
        check_muster("Marsh", ["Lion", "Lion"], "Lion", ["Lion"])


# Rule 18.4 -----------------------------------------------------------------------------


def test_rule_18_4_two_ogres_or_troll():
    legion = ["Ogre", "Ogre", "Troll"]
    assert ways("Marsh", legion, "Troll") == {("Troll",), ("Ogre", "Ogre")}
    check_muster("Marsh", legion, "Troll", ["Ogre", "Ogre"])
    check_muster("Marsh", legion, "Troll", ["Troll"])


def test_rule_18_4_one_ogre_is_not_a_sufficient_reveal():
    with pytest.raises(IllegalMuster, match="reveal Troll or Ogre, Ogre"):
        check_muster("Marsh", ["Ogre", "Ogre", "Troll"], "Troll", ["Ogre"])


def test_rule_18_4_revealed_characters_must_be_in_the_legion():
    with pytest.raises(IllegalMuster, match="not all of them are in the legion"):
        check_muster("Marsh", ["Ogre", "Ogre"], "Troll", ["Troll"])


def test_rule_18_4_every_higher_creature_is_an_alternative():
    assert ways("Jungle", ["Gargoyle", "Behemoth", "Serpent"], "Gargoyle") == {
        ("Gargoyle",),
        ("Behemoth",),
        ("Serpent",),
    }


# Rule 18.5: the Tower ---------------------------------------------------------------------


def test_rule_18_5_tower_creatures_need_no_recruiter():
    options = muster_options("Tower", ["Lion", "Troll"])
    assert {o.recruit: o.recruiters for o in options} == {
        "Centaur": ((),),
        "Gargoyle": ((),),
        "Ogre": ((),),
    }
    check_muster("Tower", ["Lion", "Troll"], "Ogre", [])


def test_rule_18_5_tower_warlock_via_titan_or_warlock():
    assert ways("Tower", ["Titan", "Lion"], "Warlock") == {("Titan",)}
    assert ways("Tower", ["Warlock", "Lion"], "Warlock") == {("Warlock",)}
    assert ways("Tower", ["Titan", "Warlock"], "Warlock") == {("Titan",), ("Warlock",)}


def test_rule_18_5_tower_guardian_via_three_identical_creatures_or_a_guardian():
    assert ways("Tower", ["Troll"] * 3, "Guardian") == {("Troll",) * 3}
    assert ways("Tower", ["Troll"] * 3 + ["Ogre"] * 4, "Guardian") == {
        ("Troll",) * 3,
        ("Ogre",) * 3,
    }
    assert ways("Tower", ["Guardian", "Ogre"], "Guardian") == {("Guardian",)}


def test_rule_18_5_tower_two_identical_creatures_or_lords_do_not_qualify_for_guardian():
    assert "Guardian" not in recruits("Tower", ["Troll", "Troll", "Lion"])
    assert "Guardian" not in recruits("Tower", ["Angel", "Angel", "Angel"])
    assert recruits("Tower", ["Angel", "Lion"]) == {"Centaur", "Gargoyle", "Ogre"}


# RULES §13 V11, eligibility, caretaker ------------------------------------------------


def test_v11_titan_and_three_gargoyles():
    legion = ["Titan", "Gargoyle", "Gargoyle", "Gargoyle"]
    assert recruits("Tower", legion) == {"Centaur", "Gargoyle", "Ogre", "Warlock", "Guardian"}
    assert recruits("Brush", legion) == {"Gargoyle", "Cyclops"}


def test_v11_lone_colossus():
    assert recruits("Tundra", ["Colossus"]) == {"Troll", "Warbear", "Giant", "Colossus"}
    assert recruits("Mountains", ["Colossus"]) == {"Lion", "Minotaur", "Dragon", "Colossus"}
    assert recruits("Marsh", ["Colossus"]) == set()


def test_nothing_when_the_caretaker_stack_is_empty():
    assert recruits("Marsh", ["Troll"], available={"Ogre"}) == {"Ogre"}
    assert recruits("Marsh", ["Troll"], available={"Ogre": 0, "Troll": 2}) == {"Troll"}
    assert recruits("Marsh", ["Troll"], available=lambda name: False) == set()
    assert not can_muster("Marsh", ["Troll"], available=set())
    with pytest.raises(IllegalMuster, match="no Trolls left"):
        check_muster("Marsh", ["Troll"], "Troll", ["Troll"], available={"Ogre"})


def test_rule_18_1_nothing_at_height_seven():
    legion = ["Ogre", "Ogre", "Troll", "Troll", "Ranger", "Centaur", "Lion"]
    assert recruits("Marsh", legion) == {"Ogre", "Troll", "Ranger"}  # qualified, but full
    assert not can_muster("Marsh", legion)
    assert can_muster("Marsh", legion[:6])
    with pytest.raises(IllegalMuster, match=r"full \(RULES §6.1\)"):
        check_muster("Marsh", legion, "Ogre", ["Ogre"])


def test_check_muster_returns_the_option():
    assert check_muster("Marsh", ["Troll"], "Ogre", ["Troll"]) == MusterOption(
        "Ogre", (("Troll",),)
    )


def test_unknown_names_are_invalid_notation():
    with pytest.raises(InvalidNotation):
        muster_options("Volcano", ["Ogre"])
    with pytest.raises(InvalidNotation):
        muster_options("Marsh", ["Orc"])
    with pytest.raises(InvalidNotation):
        check_muster("Marsh", ["Ogre"], "Orc", ["Ogre"])


def test_recruit_table_matches_rules_6_3():
    table = {terrain: tree.creatures for terrain, tree in RECRUIT_TREES.items()}
    assert table["Jungle"] == ("Gargoyle", "Cyclops", "Behemoth", "Serpent")
    assert [r.needs_previous for r in RECRUIT_TREES["Jungle"].rungs] == [None, 2, 3, 2]
    assert [r.next_needs for r in RECRUIT_TREES["Desert"].rungs] == [3, 2, None]
    assert recruits_in("Tower") == ("Centaur", "Gargoyle", "Ogre", "Warlock", "Guardian")
    assert set(TOWER_RULES.demilords) == {"Warlock", "Guardian"}


# RULES §6.7, errata 4.1: over-7 removal --------------------------------------------------


def test_e19_over_seven_removal_order():
    legion = ["Angel", "Warbear", "Archangel", "Unicorn", "Guardian", "Cyclops"]
    legion += ["Warlock", "Behemoth", "Gorgon", "Titan"]
    assert removal_order(legion) == [
        "Behemoth",  # 24, Power 8
        "Unicorn",  # 24, Power 6
        "Gorgon",  # 18, flies
        "Cyclops",  # 18, Power 9
        "Warbear",  # 18, Power 6
        "Guardian",
        "Warlock",
        "Archangel",
        "Angel",
        "Titan",
    ]


def test_e19_highest_value_first_and_trim_to_seven():
    legion = ["Ogre", "Serpent", "Angel", "Centaur", "Hydra", "Ogre", "Titan", "Lion", "Gargoyle"]
    kept, removed = trim_to_seven(legion)
    assert removed == ["Serpent", "Hydra"]
    assert kept == ["Ogre", "Angel", "Centaur", "Ogre", "Titan", "Lion", "Gargoyle"]
    assert trim_to_seven(["Ogre"] * 7) == (["Ogre"] * 7, [])
