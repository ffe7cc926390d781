"""Normal strikes (RULES §9.1–§9.3): the rule cases of RULES §13 and random positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battle.position import Fighter, Position, Side, fighter, in_contact
from engine.battle.strike import (
    MAX_STRIKE_NUMBER,
    MIN_STRIKE_NUMBER,
    StrikeValues,
    can_strike,
    crossing,
    strike_number,
    strike_targets,
    strike_values,
)
from engine.battleland import BATTLELANDS, LABELS, battleland, neighbours
from engine.characters import CHARACTERS
from engine.errors import IllegalStrike


def battle(notation: str) -> Position:
    """A position from one line: ``"Tower: Cyclops C3 | Gargoyle B2, Ogre C4:2"``.

    Attackers before ``|``, defenders after; ``:n`` gives hits taken, ``Titan@327`` a
    Titan's owner's score.
    """
    terrain, sides = notation.split(":", 1)
    fighters = []
    for side, part in zip((Side.ATTACKER, Side.DEFENDER), sides.split("|"), strict=True):
        for item in filter(None, (p.strip() for p in part.split(","))):
            name, hex_label = item.split()
            hex_label, _, hits = hex_label.partition(":")
            name, _, score = name.partition("@")
            f = fighter(name, side, hex_label, score=int(score or 0), hits=int(hits or 0))
            fighters.append(f)
    return Position(terrain.strip(), tuple(fighters))


def at(position: Position, hex_label: str) -> Fighter:
    found = position.at(hex_label)
    assert found is not None, hex_label
    return found


def values(position: Position, striker: str, target: str) -> StrikeValues:
    return strike_values(position, at(position, striker), at(position, target))


# --- V1: the strike chart -------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender", "expected"),
    [
        (4, 2, 2),
        (4, 3, 3),
        (4, 4, 4),
        (3, 2, 3),
        (3, 3, 4),
        (3, 4, 5),
        (2, 2, 4),
        (2, 3, 5),
        (2, 4, 6),
        (1, 4, 6),
        (5, 2, 1),
    ],
)
def test_v1_strike_chart(attacker, defender, expected):
    assert strike_number(attacker, defender) == expected


def test_strike_number_is_capped_at_6_and_may_fall_to_1():
    assert strike_number(1, 5) == 6
    assert strike_number(0, 6) == 6
    assert strike_number(6, 1) == 1


# --- V2: Plains, no hazards -----------------------------------------------------------


@pytest.mark.parametrize(
    ("striker", "target", "dice", "number"),
    [
        ("Titan", "Gargoyle", 6, 3),
        ("Centaur", "Gargoyle", 3, 3),
        ("Centaur", "Centaur", 3, 4),
        ("Centaur", "Ogre", 3, 2),
        ("Gargoyle", "Titan", 4, 5),
        ("Ogre", "Gargoyle", 6, 5),
        ("Ogre", "Centaur", 6, 6),
        ("Angel", "Troll", 6, 2),
    ],
)
def test_v2_plains(striker, target, dice, number):
    position = battle(f"Plains: {striker} C3 | {target} C4")
    assert values(position, "C3", "C4") == StrikeValues(dice, number)


def test_titan_power_follows_the_score():
    position = battle("Plains: Titan@327 C3 | Ogre C4")
    assert values(position, "C3", "C4").dice == 9


# --- V3: Hills, Slopes ----------------------------------------------------------------


def test_v3_hills_native_ogre_strikes_down_slopes():
    position = battle("Hills: Ogre B3 | Troll B2, Lion C3")
    assert values(position, "B3", "B2") == StrikeValues(7, 4)
    assert values(position, "B3", "C3") == StrikeValues(7, 5)


def test_v3_hills_non_native_troll_strikes_up_a_slope():
    position = battle("Hills: Troll B2 | Ogre B3")
    assert values(position, "B2", "B3") == StrikeValues(8, 5)


def test_v3_hills_native_lion_strikes_up_a_slope_unpenalised():
    position = battle("Hills: Lion C3 | Ogre B3")
    assert values(position, "C3", "B3") == StrikeValues(5, 3)


def test_v3_hills_no_hexside_hazard():
    position = battle("Hills: Centaur C2 | Troll B2")
    assert values(position, "C2", "B2") == StrikeValues(3, 2)


# --- V4: Mountains, the Volcano and a Cliff -------------------------------------------


def test_v4_dragon_in_the_volcano():
    position = battle("Mountains: Dragon D4 | Ogre D3, Troll E4, Lion C3")
    dragon = at(position, "D4")
    assert values(position, "D4", "D3") == StrikeValues(12, 3)
    assert values(position, "D4", "E4") == StrikeValues(12, 3)
    assert not can_strike(position, dragon, at(position, "C3"))
    assert {f.hex for f in strike_targets(position, dragon)} == {"D3", "E4"}


def test_v4_no_strike_across_a_cliff():
    position = battle("Mountains: Dragon D4 | Lion C3")
    with pytest.raises(IllegalStrike, match="Cliff"):
        values(position, "D4", "C3")
    with pytest.raises(IllegalStrike, match="Cliff"):
        values(position, "C3", "D4")


# --- Errata examples (RULES §13.1) ----------------------------------------------------


def test_errata_11_7_E6_native_lion_values_in_the_desert():
    position = battle("Desert: Lion E3 | Gargoyle D3, Gargoyle E4")
    assert values(position, "E3", "D3") == StrikeValues(5, 4)
    assert values(position, "E3", "E4") == StrikeValues(5, 4)  # up a Dune, native


def test_errata_11_7_E7_non_native_unicorn_up_a_dune_loses_a_die():
    position = battle("Desert: Unicorn F3 | Centaur F2, Gargoyle E4, Gargoyle F4")
    assert values(position, "F3", "F2") == StrikeValues(6, 4)
    assert values(position, "F3", "E4") == StrikeValues(5, 3)
    assert values(position, "F3", "F4") == StrikeValues(6, 3)


def test_errata_11_7_E9_troll_and_gorgon_in_bramble():
    position = battle("Brush: Troll C4 | Gorgon D5")
    assert values(position, "C4", "D5") == StrikeValues(8, 6)


def test_bramble_native_striker_gets_no_penalty_and_gives_no_bonus():
    position = battle("Brush: Gorgon C4 | Gargoyle D5")
    assert values(position, "C4", "D5") == StrikeValues(6, 4)


def test_errata_12_x_E11_cyclops_down_a_tower_wall():
    position = battle("Tower: Cyclops C3 | Gargoyle B2, Ogre C4")
    assert values(position, "C3", "B2") == StrikeValues(9, 4)
    assert values(position, "C3", "C4") == StrikeValues(9, 4)


@pytest.mark.parametrize(
    ("target", "number"),
    [("D4", 6), ("E3", 5), ("C3", 4), ("C2", 4), ("D2", 5)],
)
def test_errata_12_x_E12_serpent_in_the_tower(target, number):
    position = battle(
        "Tower: Serpent D3 | Centaur D4:2, Lion E3, Ogre C3:4, Gargoyle C2, Ranger D2:3"
    )
    assert values(position, "D3", target) == StrikeValues(18, number)


def test_errata_12_x_E13_hydra_desert_dune_bonus():
    position = battle("Desert: Hydra E4 | Ogre D4, Lion E3, Gargoyle F3")
    assert values(position, "E4", "D4") == StrikeValues(10, 3)
    assert values(position, "E4", "E3") == StrikeValues(12, 4)
    assert values(position, "E4", "F3") == StrikeValues(12, 4)


def test_errata_12_x_E14_lion_down_a_mountain_slope():
    position = battle("Mountains: Lion B2 | Gargoyle A1, Ogre B3")
    assert values(position, "B2", "A1") == StrikeValues(5, 4)
    assert values(position, "B2", "B3") == StrikeValues(6, 3)


def test_strike_number_may_fall_to_1_down_a_wall():
    position = battle("Tower: Angel D4 | Ogre C3")
    assert values(position, "D4", "C3") == StrikeValues(6, 1)


# --- Who may strike (RULES §9.1) ------------------------------------------------------


def test_a_slain_target_may_not_be_struck_but_a_slain_striker_still_strikes():
    position = battle("Plains: Ogre C3:6 | Troll C4:8, Lion D3")
    ogre, troll, lion = at(position, "C3"), at(position, "C4"), at(position, "D3")
    assert not ogre.alive
    assert not can_strike(position, ogre, troll)
    assert can_strike(position, ogre, lion)
    with pytest.raises(IllegalStrike, match="slain"):
        strike_values(position, ogre, troll)


def test_no_strike_at_a_friend_or_out_of_contact():
    position = battle("Plains: Ogre C3, Troll C4 | Lion E3")
    ogre = at(position, "C3")
    assert not can_strike(position, ogre, at(position, "C4"))
    assert not can_strike(position, ogre, at(position, "E3"))
    assert strike_targets(position, ogre) == []


def test_crossing_reports_up_and_down():
    land = battleland("Tower")
    assert crossing(land, "C3", "B2").down("Wall")
    assert crossing(land, "B2", "C3").up("Wall")
    assert crossing(land, "C3", "C4").hazard is None


# --- Random positions -----------------------------------------------------------------

NAMES = sorted(CHARACTERS)


@st.composite
def adjacent_pair(draw):
    terrain = draw(st.sampled_from(sorted(BATTLELANDS)))
    here = draw(st.sampled_from(LABELS))
    there = draw(st.sampled_from([n for n in neighbours(here) if n is not None]))
    striker = fighter(
        draw(st.sampled_from(NAMES)),
        Side.ATTACKER,
        here,
        score=draw(st.integers(0, 1500)),
    )
    name = draw(st.sampled_from(NAMES))
    power = CHARACTERS[name].power_at(0)
    target = fighter(name, Side.DEFENDER, there, hits=draw(st.integers(0, power - 1)))
    return Position(terrain, (striker, target)), striker, target


@settings(max_examples=300, deadline=None)
@given(adjacent_pair())
def test_strike_values_are_always_in_range(case):
    position, striker, target = case
    allowed = can_strike(position, striker, target)
    assert allowed == in_contact(position.land, striker.hex, target.hex)
    if allowed:
        result = strike_values(position, striker, target)
        assert MIN_STRIKE_NUMBER <= result.strike_number <= MAX_STRIKE_NUMBER
        assert result.dice >= 1
        assert strike_targets(position, striker) == [target]
    else:
        with pytest.raises(IllegalStrike):
            strike_values(position, striker, target)
