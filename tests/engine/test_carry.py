"""Declared reductions and carry-over (RULES §9.4, §9.5): errata examples and random positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battle.carry import (
    allocate_carry,
    apply_strike,
    carry_targets,
    dune_barred,
    eligible_carry_targets,
    is_legal_declaration,
    legal_declarations,
    resolve_strike,
)
from engine.battle.position import Position, Side, fighter
from engine.battle.strike import StrikeValues, can_strike, crossing, strike_values
from engine.battleland import BATTLELANDS, LABELS, neighbours
from engine.characters import CHARACTERS
from engine.errors import IllegalStrike
from tests.engine.test_strike import at, battle


def hexes_carried(notation, striker, target, declared=None):
    position = battle(notation)
    found = carry_targets(position, at(position, striker), at(position, target), declared)
    return {f.hex for f in found}


def legal(notation, striker, target, dice, number):
    position = battle(notation)
    return is_legal_declaration(
        position, at(position, striker), at(position, target), StrikeValues(dice, number)
    )


# --- Errata 11.7: Dunes ---------------------------------------------------------------

E6 = "Desert: Lion E3 | Gargoyle D3, Gargoyle E4"
E7 = "Desert: Unicorn F3 | Centaur F2, Gargoyle E4"


def test_errata_11_7_E6_native_carries_up_a_dune():
    assert hexes_carried(E6, "E3", "D3") == {"E4"}


def test_errata_11_7_E7_non_native_may_not_carry_up_a_dune():
    assert hexes_carried(E7, "F3", "F2") == set()


def test_errata_11_7_E7_not_even_by_declaring_five_dice():
    assert not legal(E7, "F3", "F2", 5, 4)
    with pytest.raises(IllegalStrike, match=r"§9\.5"):
        hexes_carried(E7, "F3", "F2", StrikeValues(5, 4))


def test_errata_11_7_E7_gargoyle_on_f4_would_be_eligible():
    assert hexes_carried("Desert: Unicorn F3 | Centaur F2, Gargoyle F4", "F3", "F2") == {"F4"}


def test_errata_11_7_E7_striking_up_the_dune_first_carries_with_s4_declared():
    assert hexes_carried(E7, "F3", "E4") == set()
    assert hexes_carried(E7, "F3", "E4", StrikeValues(5, 4)) == {"F2"}


def test_dune_barred_only_for_non_natives_not_striking_up_a_dune():
    position = battle(E7)
    unicorn, centaur, gargoyle = at(position, "F3"), at(position, "F2"), at(position, "E4")
    assert dune_barred(position, unicorn, centaur, gargoyle)
    assert not dune_barred(position, unicorn, gargoyle, centaur)
    lion_position = battle(E6)
    lion = at(lion_position, "E3")
    assert not dune_barred(lion_position, lion, at(lion_position, "D3"), at(lion_position, "E4"))


# --- Errata 11.7/12.4 E8: no penalty without a carry target ---------------------------


def test_errata_11_7_E8_native_may_not_refuse_a_bonus_without_carry_target():
    notation = "Desert: Hydra E4 | Lion E3"
    assert not legal(notation, "E4", "E3", 10, 4)
    position = battle(notation)
    options = legal_declarations(position, at(position, "E4"), at(position, "E3"))
    assert [o.values for o in options] == [StrikeValues(12, 4)]
    assert options[0].natural


def test_errata_12_4_no_higher_strike_number_without_carry_over():
    assert not legal("Plains: Ogre C3 | Lion C4", "C3", "C4", 6, 6)


# --- Errata 12.0 E10: the dice must be able to slay with hits to spare ----------------


@pytest.mark.parametrize(("hits", "allowed"), [(0, False), (1, False), (2, True), (3, True)])
def test_errata_12_0_E10_centaur_needs_hits_to_spare(hits, allowed):
    notation = f"Plains: Centaur A1 | Gargoyle A2:{hits}, Colossus B1"
    assert strike_values(battle(notation), *_pair(notation, "A1", "A2")) == StrikeValues(3, 3)
    assert legal(notation, "A1", "A2", 3, 4) is allowed
    if allowed:
        assert hexes_carried(notation, "A1", "A2", StrikeValues(3, 4)) == {"B1"}


def _pair(notation, striker, target):
    position = battle(notation)
    return at(position, striker), at(position, target)


def test_natural_carry_targets_do_not_depend_on_hits_to_spare():
    # Rule (c) limits announcements only; the eligible set of a natural strike stands.
    notation = "Jungle: Gargoyle C3 | Gorgon B2:1, Griffon B3, Gargoyle D4"
    assert hexes_carried(notation, "C3", "B2") == {"D4"}


# --- Errata 12.x E11: the Cyclops's rolls ---------------------------------------------

E11 = "Tower: Cyclops C3 | Gargoyle B2, Ogre C4"


def test_errata_12_x_E11_cyclops_carries_to_the_ogre():
    assert hexes_carried(E11, "C3", "B2") == {"C4"}


def test_errata_12_x_E11_rolls_slay_the_gargoyle_and_carry_one_hit():
    position = battle(E11)
    cyclops, gargoyle = at(position, "C3"), at(position, "B2")
    result = resolve_strike(position, cyclops, gargoyle, None, [1, 1, 2, 3, 4, 4, 4, 5, 6])
    assert (result.hits, result.target_slain, result.excess, result.carry_hits) == (5, True, 1, 1)
    after, carried = apply_strike(position, result)
    assert carried == (("C4", 1),)
    assert not at(after, "B2").alive
    assert at(after, "C4").hits == 1
    assert position == battle(E11)  # the input is not mutated


def test_resolve_rejects_wrong_rolls():
    position = battle(E11)
    cyclops, gargoyle = at(position, "C3"), at(position, "B2")
    with pytest.raises(IllegalStrike):
        resolve_strike(position, cyclops, gargoyle, None, [6] * 8)
    with pytest.raises(IllegalStrike):
        resolve_strike(position, cyclops, gargoyle, None, [7] * 9)


# --- Errata 12.x E12: the Serpent in the Tower ----------------------------------------

E12 = "Tower: Serpent D3 | Centaur D4:2, Lion E3, Ogre C3:4, Gargoyle C2, Ranger D2:3"


def test_errata_12_x_E12_at_the_centaur_carry_to_anyone():
    assert hexes_carried(E12, "D3", "D4") == {"E3", "C3", "C2", "D2"}


def test_errata_12_x_E12_at_the_ogre_carry_only_to_the_gargoyle():
    assert hexes_carried(E12, "D3", "C3") == {"C2"}


def test_errata_12_x_E12_at_the_gargoyle_with_s5_declared():
    assert hexes_carried(E12, "D3", "C2", StrikeValues(18, 5)) == {"C3", "D2", "E3"}


def test_errata_12_x_E12_legal_declarations_at_the_gargoyle():
    position = battle(E12)
    options = legal_declarations(position, at(position, "D3"), at(position, "C2"))
    assert {o.values: {f.hex for f in o.carry_targets} for o in options} == {
        StrikeValues(18, 4): {"C3"},
        StrikeValues(18, 5): {"C3", "D2", "E3"},
        StrikeValues(18, 6): {"C3", "D2", "E3", "D4"},
    }


# --- Errata 12.x E13: the Hydra in the Desert ------------------------------------------

E13 = "Desert: Hydra E4 | Ogre D4, Lion E3, Gargoyle F3"


def test_errata_12_4_E13_hydra_desert_twelve_dice_carry_between_lion_and_gargoyle():
    assert hexes_carried(E13, "E4", "E3") == {"F3"}
    assert hexes_carried(E13, "E4", "F3") == {"E3"}


def test_errata_12_4_E13_hydra_desert_ten_dice_carry_to_both_others():
    assert hexes_carried(E13, "E4", "E3", StrikeValues(10, 4)) == {"D4", "F3"}
    assert hexes_carried(E13, "E4", "F3", StrikeValues(10, 4)) == {"D4", "E3"}


def test_errata_12_4_E13_hydra_desert_at_the_ogre_needs_s4():
    assert hexes_carried(E13, "E4", "D4") == set()
    assert hexes_carried(E13, "E4", "D4", StrikeValues(10, 4)) == {"E3", "F3"}


def test_errata_12_5_E13_combined_announcement_is_offered():
    position = battle(E13)
    options = legal_declarations(position, at(position, "E4"), at(position, "E3"))
    assert {o.values for o in options} == {StrikeValues(12, 4), StrikeValues(10, 4)}


# --- Errata 12.x E14: the Lion on the Mountain slope ------------------------------------


def test_errata_12_x_E14_lion_at_the_gargoyle_carries_to_the_ogre():
    assert hexes_carried("Mountains: Lion B2 | Gargoyle A1, Ogre B3", "B2", "A1") == {"B3"}


def test_errata_12_x_E14_lion_at_the_ogre_without_announcement_has_no_carry():
    assert hexes_carried("Mountains: Lion B2 | Gargoyle A1, Ogre B3", "B2", "B3") == set()


def test_errata_12_x_E14_lion_at_the_ogre_with_d5_s4_carries_to_the_gargoyle():
    # The Ogre is given 2 hits so that 5 dice can slay it with hits to spare (RULES §9.5 c).
    notation = "Mountains: Lion B2 | Gargoyle A1, Ogre B3:2"
    assert hexes_carried(notation, "B2", "B3", StrikeValues(5, 4)) == {"A1"}
    assert not legal(notation, "B2", "B3", 5, 3)  # dice alone open nothing
    assert not legal(notation, "B2", "B3", 6, 4)  # S alone opens nothing either


def test_errata_12_x_E14_undamaged_ogre_leaves_no_hits_to_spare():
    assert not legal("Mountains: Lion B2 | Gargoyle A1, Ogre B3", "B2", "B3", 5, 4)


# --- Carry allocation (errata 12.4) -----------------------------------------------------


def test_carry_allocation_needs_a_choice_only_when_it_matters():
    position = battle("Plains: Hydra C3 | Gargoyle C4:3, Ogre D3:3, Lion B3, Centaur C2")
    hydra, gargoyle = at(position, "C3"), at(position, "C4")
    result = resolve_strike(position, hydra, gargoyle, None, [6] * 5 + [1] * 5)
    assert result.excess == 4
    assert {f.hex for f in result.carry_targets} == {"D3", "B3"}  # the Centaur needs 5s
    with pytest.raises(IllegalStrike, match="choose"):
        allocate_carry(result)
    assert allocate_carry(result, ["B3"]) == (("B3", 4),)
    assert allocate_carry(result, ["D3"]) == (("D3", 3), ("B3", 1))
    for wrong in (["C4"], ["C2"], ["D3", "D3"]):
        with pytest.raises(IllegalStrike):
            allocate_carry(result, wrong)


def test_carry_allocation_is_forced_when_every_target_will_be_slain():
    position = battle("Plains: Hydra C3 | Gargoyle C4:3, Ogre D3:4, Lion B3:3")
    result = resolve_strike(
        position, at(position, "C3"), at(position, "C4"), None, [6] * 5 + [1] * 5
    )
    assert sorted(allocate_carry(result)) == [("B3", 2), ("D3", 2)]


def test_excess_without_eligible_target_is_lost():
    position = battle("Plains: Hydra C3 | Gargoyle C4")
    result = resolve_strike(position, at(position, "C3"), at(position, "C4"), None, [6] * 10)
    assert (result.excess, result.carry_hits) == (6, 0)
    assert allocate_carry(result) == ()


def test_carry_over_stops_when_every_eligible_target_is_slain():
    position = battle("Plains: Hydra C3 | Gargoyle C4, Ogre D3:5")
    result = resolve_strike(position, at(position, "C3"), at(position, "C4"), None, [6] * 10)
    assert (result.excess, result.carry_hits) == (6, 1)
    after, carried = apply_strike(position, result)
    assert carried == (("D3", 1),)
    assert not at(after, "D3").alive


# --- Random positions -------------------------------------------------------------------

NAMES = sorted(CHARACTERS)


@st.composite
def engagement(draw):
    """A striker, its target and up to five more enemies around it, damaged at random."""
    terrain = draw(st.sampled_from(sorted(BATTLELANDS)))
    here = draw(st.sampled_from(LABELS))
    around = [n for n in neighbours(here) if n is not None]
    chosen = draw(st.lists(st.sampled_from(around), min_size=1, max_size=6, unique=True))
    striker = fighter(draw(st.sampled_from(NAMES)), Side.ATTACKER, here)
    enemies = []
    for hex_label in chosen:
        name = draw(st.sampled_from(NAMES))
        power = CHARACTERS[name].power_at(0)
        enemies.append(fighter(name, Side.DEFENDER, hex_label, hits=draw(st.integers(0, power))))
    position = Position(terrain, (striker, *enemies))
    return position, striker, enemies[0]


def _satisfies_conditions(position, striker, target, used, other):
    normal = strike_values(position, striker, other)
    dune_up = crossing(position.land, striker.hex, other.hex).up("Dune")
    own_up = crossing(position.land, striker.hex, target.hex).up("Dune")
    return (
        normal.dice >= used.dice
        and normal.strike_number <= used.strike_number
        and (not dune_up or own_up or striker.is_native_to("Dune"))
        and other.alive
        and other.hex != target.hex
    )


@settings(max_examples=300, deadline=None)
@given(engagement())
def test_carry_targets_meet_conditions_and_declarations_open_new_targets(case):
    position, striker, target = case
    if not can_strike(position, striker, target):
        return
    natural = strike_values(position, striker, target)
    before = {f.hex for f in eligible_carry_targets(position, striker, target, natural)}
    options = legal_declarations(position, striker, target)
    assert options[0].natural and options[0].values == natural
    for option in options:
        used = option.values
        assert used.dice <= natural.dice and used.strike_number >= natural.strike_number
        for other in option.carry_targets:
            assert _satisfies_conditions(position, striker, target, used, other)
        if not option.natural:
            assert used.dice > target.hits_to_slay
            assert {f.hex for f in option.carry_targets} - before


@settings(max_examples=300, deadline=None)
@given(engagement(), st.integers(1, 20), st.integers(1, 6))
def test_a_declaration_is_never_legal_if_it_opens_no_new_target(case, dice, number):
    position, striker, target = case
    if not can_strike(position, striker, target):
        return
    natural = strike_values(position, striker, target)
    declared = StrikeValues(dice, number)
    legal_now = is_legal_declaration(position, striker, target, declared)
    offered = {o.values for o in legal_declarations(position, striker, target)}
    assert legal_now == (declared in offered)
    if legal_now and declared != natural:
        before = {f.hex for f in eligible_carry_targets(position, striker, target, natural)}
        after = {f.hex for f in eligible_carry_targets(position, striker, target, declared)}
        assert after - before


@settings(max_examples=200, deadline=None)
@given(engagement(), st.data())
def test_resolution_conserves_hits(case, data):
    position, striker, target = case
    if not can_strike(position, striker, target):
        return
    option = data.draw(st.sampled_from(legal_declarations(position, striker, target)))
    rolls = data.draw(
        st.lists(st.integers(1, 6), min_size=option.values.dice, max_size=option.values.dice)
    )
    result = resolve_strike(position, striker, target, option.values, rolls)
    order = [f.hex for f in result.carry_targets]
    after, carried = apply_strike(position, result, order)
    assert sum(h for _, h in carried) == result.carry_hits <= result.excess
    assert result.hits == sum(1 for r in rolls if r >= option.values.strike_number)
    assert at(after, target.hex).alive != result.target_slain
    for hex_label, hits in carried:
        assert hits == at(after, hex_label).hits - at(position, hex_label).hits
