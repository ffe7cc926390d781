"""The battle turn, step by step, on the pure battle state (RULES §8.3–§8.7, §9–§11.1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battle import maneuvering, striking, turn
from engine.battle.ending import end_check, verdict
from engine.battle.events import (
    CarriedOver,
    CarryToPlace,
    DriftDamage,
    EntrantArrived,
    EntrantReturned,
    LeftOff,
)
from engine.battle.notation import format_battle, parse_battle
from engine.battle.position import Side
from engine.battle.state import BattleStep, EndKind, Supplies
from engine.battle.strike import StrikeValues
from engine.battle.turn import advance, new_battle
from engine.errors import IllegalManeuver, IllegalStrike, WrongPhase
from tests.engine.battle.helpers import battle

DONORS = Supplies(donors=(("Rd05", "Angel"),))
TOWER_HEXES = {"C3", "C4", "D3", "D4", "D5", "E3", "E4"}


def step(found, supplies=None):
    """Advance a rules step's battle to the next decision."""
    result, _ = advance(found[0], supplies or Supplies())
    return result


# --- §8.3 setting up ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("terrain", "side", "attacker", "defender"),
    [
        ("Plains", 1, "F1 F2 F3 F4", "A1 A2 A3"),
        ("Plains", 3, "A1 B1 C1 D1", "D6 E5 F4"),
        ("Plains", 5, "A3 B4 C5 D6", "D1 E1 F1"),
        ("Tower", 1, "A1 B1 C1 D1", "D6 E5 F4"),
        ("Tower", 5, "A1 B1 C1 D1", "D6 E5 F4"),
    ],
)
def test_rule_8_3_entry_edges_follow_the_entry_side(terrain, side, attacker, defender):
    fought = new_battle(
        terrain,
        side,
        {Side.ATTACKER: "Rd01", Side.DEFENDER: "Bk01"},
        {Side.ATTACKER: ("Ogre",), Side.DEFENDER: ("Troll",)},
        {Side.ATTACKER: 6, Side.DEFENDER: 6},
    )
    assert set(fought.edge(Side.ATTACKER).hexes) == set(attacker.split())
    assert set(fought.edge(Side.DEFENDER).hexes) == set(defender.split())
    # SoP: as the battle begins, the attacker and then the defender may concede.
    assert (fought.turn, fought.phasing, fought.step) == (
        1,
        Side.DEFENDER,
        BattleStep.OPEN_ATTACKER,
    )
    assert fought.decider is Side.ATTACKER
    fought, _ = turn.decline(fought, Side.ATTACKER)
    assert fought.step is BattleStep.OPEN_DEFENDER and fought.decider is Side.DEFENDER
    fought, _ = turn.decline(fought, Side.DEFENDER)
    assert (fought.turn, fought.phasing, fought.step) == (1, Side.DEFENDER, BattleStep.MANEUVER)


def test_rule_8_3_tower_defender_is_placed_on_the_tower_hexes_and_stays():
    fought = battle("Tower t1 defender maneuver: Bk01 Titan@off Ogre@off | Rd01 Troll@off")
    assert maneuvering.destinations(fought) == {"Ogre": TOWER_HEXES, "Titan": TOWER_HEXES}
    fought, _ = maneuvering.maneuver(fought, "Ogre", "D4")
    moves = maneuvering.destinations(fought)
    assert "D4" not in moves and moves["Titan"] == TOWER_HEXES - {"D4"}


def test_rule_8_3_tower_attacker_enters_by_a1_to_d1():
    fought = battle("Tower s5 t1 attacker maneuver: Bk01 Titan@D4 | Rd01 Centaur@off")
    assert set(fought.edge(Side.ATTACKER).hexes) == {"A1", "B1", "C1", "D1"}
    assert maneuvering.destinations(fought)["Centaur"] >= {"A1", "B1", "C1", "D1"}


def test_V9_tower_reinforcing_ogre_enters_by_d6_e5_f4():
    supplies = Supplies(caretaker={"Ogre": 5, "Centaur": 5, "Gargoyle": 5})
    fought = battle("Tower t4 defender reinforce: Bk01 Troll@A1 | Rd01 Troll@F1", supplies)
    assert fought.step is BattleStep.REINFORCE
    fought, _, shown = turn.reinforce(fought, "Ogre", (), supplies)
    assert shown == () and fought.entrant is not None
    assert maneuvering.destinations(fought)["Ogre"] == {"C5", "D6", "E5", "F3", "F4"}


# --- §8.5 maneuver ------------------------------------------------------------------------
def test_errata_7_0_take_backs_undo_later_moves_first():
    text = "Plains t2 defender maneuver: Bk01 Ogre@A1 Centaur@B1 | Rd01 Troll@F4"
    fought = battle(text)
    fought, _ = maneuvering.maneuver(fought, "A1", "A2")
    fought, _ = maneuvering.maneuver(fought, "B1", "A1")
    with pytest.raises(IllegalManeuver, match="has moved this phase"):
        maneuvering.maneuver(fought, "A1", "B1")
    fought, events = maneuvering.take_back(fought, "A2")
    assert [e.end for e in events] == ["A1", "A2"]
    assert format_battle(fought) == format_battle(parse_battle(text))


def test_rule_8_5_an_engaged_character_may_not_move():
    fought = battle("Plains t2 defender maneuver: Bk01 Ogre@C3 | Rd01 Troll@C2")
    assert "C3" not in maneuvering.destinations(fought)
    with pytest.raises(IllegalManeuver, match="engaged"):
        maneuvering.maneuver(fought, "C3", "D5")


def test_rule_8_4_only_the_first_maneuver_enters_from_off_the_board():
    fought = battle("Plains t1 defender maneuver: Bk01 Ogre@off | Rd01 Troll@off")
    with pytest.raises(IllegalManeuver, match="cannot enter to A1"):
        maneuvering.maneuver(fought, "Ogre", "A1")
    with pytest.raises(IllegalManeuver, match="no Troll off the board"):
        maneuvering.maneuver(fought, "Troll", "D6")


def test_errata_10_1_characters_left_off_are_slain_and_score():
    fought = battle("Plains t1 defender maneuver: Bk01 Ogre@off Titan@off | Rd01 Troll@off")
    fought, _ = maneuvering.maneuver(fought, "Titan", "E4")
    fought, events = maneuvering.end_maneuver(fought)
    left = [e for e in events if isinstance(e, LeftOff)]
    assert left == [LeftOff(Side.DEFENDER, ("Ogre",), forced=False)]
    assert [(c.name, c.on_board) for c in fought.casualties] == [("Ogre", False)]
    assert not fought.forced_loss
    assert fought.slain(Side.DEFENDER) == ("Ogre",)


def test_errata_15_3_left_off_characters_do_not_trigger_the_summon():
    fought = battle("Plains t1 defender maneuver: Bk01 Ogre@off Titan@off | Rd01 Troll@off")
    fought, _ = maneuvering.maneuver(fought, "Titan", "E4")
    fought = step(maneuvering.end_maneuver(fought), DONORS)
    assert (fought.phasing, fought.step, fought.summon_due) == (
        Side.ATTACKER,
        BattleStep.MANEUVER,
        False,
    )


def test_errata_14_2_E18_seven_serpents_in_the_jungle_lose_one_by_force():
    serpents = " ".join(["Serpent@off"] * 7)
    fought = battle(f"Jungle t1 defender maneuver: Bk01 {serpents} | Rd01 Troll@off")
    assert maneuvering.destinations(fought)["Serpent"] == {"C5", "D5", "D6", "E4", "E5", "F4"}
    for hex_label in ("C5", "D5", "E4", "D6", "E5", "F4"):
        fought, _ = maneuvering.maneuver(fought, "Serpent", hex_label)
    assert "Serpent" not in maneuvering.destinations(fought)
    fought, events = maneuvering.end_maneuver(fought)
    assert fought.forced_loss
    assert [e for e in events if isinstance(e, LeftOff)] == [
        LeftOff(Side.DEFENDER, ("Serpent",), forced=True)
    ]


def test_errata_14_2_a_voluntary_left_off_is_not_forced():
    serpents = " ".join(["Serpent@off"] * 7)
    fought = battle(f"Jungle t1 defender maneuver: Bk01 {serpents} | Rd01 Troll@off")
    fought, _ = maneuvering.maneuver(fought, "Serpent", "D6")
    fought, _ = maneuvering.end_maneuver(fought)
    assert not fought.forced_loss and len(fought.casualties) == 6


# --- summon and reinforcement (RULES §7.2a, §6.6) -----------------------------------------
SUMMON_DUE = "Plains t2 attacker summon: Bk01 Ogre@A1 Gargoyle@slain | Rd01 Troll@F4"


def test_rule_7_2a_summon_comes_after_the_first_on_board_defender_is_slain():
    text = "Plains t1 attacker strike: Bk01 Ogre@C2:5 Gargoyle@A1 | Rd01 Troll@C3"
    fought = battle(text)
    fought, _ = striking.strike(fought, "C3", "C2", None, (6, 1, 1, 1, 1, 1, 1, 1))
    fought = step((fought, []), DONORS)  # the slain Ogre counterstrikes
    assert fought.step is BattleStep.COUNTERSTRIKE
    fought = step(striking.strike(fought, "C2", "C3", None, (1,) * 6), DONORS)
    assert fought.summon_due and (fought.turn, fought.phasing) == (2, Side.DEFENDER)
    fought = step(maneuvering.end_maneuver(fought), DONORS)
    assert (fought.turn, fought.phasing, fought.step) == (2, Side.ATTACKER, BattleStep.SUMMON)
    assert turn.summon_options(fought, DONORS) == [("Rd05", "Angel")]


def test_rule_7_2a_the_summoned_lord_must_enter_that_phase_to_count():
    fought = replace(parse_battle(SUMMON_DUE), summon_due=True)
    fought, _ = turn.summon(fought, "Rd05", "Angel", DONORS)
    assert maneuvering.destinations(fought)["Angel"]
    entered, _ = maneuvering.maneuver(fought, "Angel", "C2")
    entered, events = maneuvering.end_maneuver(entered)
    assert EntrantArrived(Side.ATTACKER, "Angel", "Rd05") in events and entered.summoned
    assert entered.legion(Side.ATTACKER) == ("Angel", "Troll")
    stayed, events = maneuvering.end_maneuver(fought)
    assert EntrantReturned(Side.ATTACKER, "Angel") in events
    assert not stayed.summoned and stayed.summon_used and stayed.waiting(Side.ATTACKER) == ()


def test_rule_7_2a_a_passed_summon_chance_is_gone():
    fought = replace(parse_battle(SUMMON_DUE), summon_due=True)
    fought, _ = advance(fought, DONORS)
    assert fought.step is BattleStep.SUMMON
    fought, _ = turn.decline(fought, Side.ATTACKER)
    assert fought.summon_used and fought.step is BattleStep.MANEUVER
    no_donor = replace(parse_battle(SUMMON_DUE), summon_due=True)
    # Without a donor the attacker is still asked, so that nobody learns what his other
    # legions hold (RULES §1.7); declining spends the chance the same way.
    asked = step((no_donor, []))
    assert asked.step is BattleStep.SUMMON and not asked.summon_used
    declined, _ = turn.decline(asked, Side.ATTACKER)
    assert declined.summon_used and declined.step is BattleStep.MANEUVER
    spent = step((no_donor, []), Supplies(summon_spent=True))
    assert spent.summon_used  # a summon made earlier this phase is public: no question


def test_rule_6_6_reinforcement_only_on_the_defenders_fourth_turn():
    supplies = Supplies(caretaker={"Troll": 5, "Ogre": 5})
    text = "Marsh t3 attacker maneuver: Bk01 Ogre@A1 Ogre@A2 | Rd01 Troll@F4"
    fought = step(maneuvering.end_maneuver(battle(text, supplies)), supplies)
    assert (fought.turn, fought.step) == (4, BattleStep.REINFORCE)
    assert [o.recruit for o in turn.reinforcement_options(fought, supplies)] == ["Ogre", "Troll"]
    fought, _, shown = turn.reinforce(fought, "Troll", (), supplies)
    assert shown == ("Ogre", "Ogre")
    fought, _ = maneuvering.maneuver(fought, "Troll", "E4")
    fought, events = maneuvering.end_maneuver(fought)
    assert EntrantArrived(Side.DEFENDER, "Troll", None, ("Ogre", "Ogre")) in events
    assert fought.reinforced


# --- §8.7 drift damage --------------------------------------------------------------------
def test_rule_8_7_C5_drift_hits_only_the_phasing_sides_non_natives():
    fought = battle("Tundra t2 defender maneuver: Bk01 Ogre@A1 Troll@E4 | Rd01 Ogre@C4")
    fought, events = advance(maneuvering.end_maneuver(fought)[0], Supplies())
    assert [e for e in events if isinstance(e, DriftDamage)] == [
        DriftDamage(Side.DEFENDER, ("A1",), ())
    ]
    assert format_battle(fought).endswith("Bk01 Ogre@A1:1 Troll@E4 | Rd01 Ogre@C4")
    fought, events = advance(maneuvering.end_maneuver(fought)[0], Supplies())
    assert [e for e in events if isinstance(e, DriftDamage)] == [
        DriftDamage(Side.ATTACKER, ("C4",), ())
    ]


def test_rule_8_7_drift_victims_still_strike_count_and_trigger_the_summon():
    text = "Tundra t2 defender maneuver: Bk01 Ogre@A1:5 | Rd01 Centaur@B2"
    fought = step(maneuvering.end_maneuver(battle(text)))
    assert (fought.step, fought.decider) == (BattleStep.DRIFT, Side.ATTACKER)
    fought, events = turn.decline(fought, Side.ATTACKER)
    assert DriftDamage(Side.DEFENDER, ("A1",), ("A1",)) in events
    fought = step((fought, []))
    assert [f.hex for f in striking.due_strikers(fought)] == ["A1"]
    fought = step(striking.strike(fought, "A1", "B2", None, (1,) * 6))
    assert fought.summon_due and fought.slain(Side.DEFENDER) == ("Ogre",)


# --- §9 strikes ---------------------------------------------------------------------------
def test_rule_9_1_an_engaged_character_must_strike_before_the_phase_ends():
    fought = battle("Plains t2 defender strike: Bk01 Ogre@C3 | Rd01 Troll@C2")
    with pytest.raises(IllegalStrike, match="must strike first"):
        striking.end_strikes(fought)
    with pytest.raises(IllegalStrike, match="not yours"):
        striking.strike(fought, "C2", "C3", None, (1,) * 8)


def test_rule_9_1_counterstrikes_follow_and_each_character_strikes_once():
    fought = battle("Plains t2 defender strike: Bk01 Ogre@C3 | Rd01 Troll@C2")
    fought = step(striking.strike(fought, "C3", "C2", None, (1,) * 6))
    assert (fought.step, fought.decider) == (BattleStep.COUNTERSTRIKE, Side.ATTACKER)
    with pytest.raises(IllegalStrike, match="rangestrikes are made only"):
        striking.rangestrike(fought, "C2", "C3", None, (1,))
    fought = step(striking.strike(fought, "C2", "C3", None, (1,) * 8))
    assert (fought.turn, fought.phasing, fought.step) == (2, Side.ATTACKER, BattleStep.MANEUVER)


def test_errata_12_4_E11_excess_carries_to_the_only_eligible_target():
    text = "Tower t2 attacker strike: Bk01 Gargoyle@B2 Ogre@C4 | Rd01 Cyclops@C3 Centaur@A1"
    fought = battle(text)
    fought, events = striking.strike(fought, "C3", "B2", None, (1, 1, 2, 3, 4, 4, 4, 5, 6))
    assert events[0].hits == 5 and events[0].excess == 1
    assert CarriedOver("C4", "Ogre", 1, False) in events and fought.carry is None
    with pytest.raises(IllegalStrike, match="already struck"):
        striking.strike(fought, "C3", "C4", None, (6,) * 9)
    with pytest.raises(IllegalStrike, match="already slain"):
        striking.strike(fought, "A1", "B2", None, (6,) * 3)
    assert striking.due_strikers(fought) == []


E12 = (
    "Tower t2 attacker strike: Bk01 Centaur@D4:2 Lion@E3 Ogre@C3:4 Gargoyle@C2 Ranger@D2:3"
    " | Rd01 Serpent@D3"
)


def test_errata_12_4_E12_the_striker_places_carried_hits_one_target_at_a_time():
    fought = battle(E12)
    rolls = (6, 6, 6, 6) + (1,) * 14
    fought, events = striking.strike(fought, "D3", "D4", None, rolls)
    assert CarryToPlace(Side.ATTACKER, 3, ("E3", "C3", "C2", "D2")) in events
    assert fought.decider is Side.ATTACKER
    with pytest.raises(IllegalStrike, match="may not take carry-over"):
        striking.carry_over(fought, "D4")
    with pytest.raises(WrongPhase, match="carried-over hits first"):
        striking.strike(fought, "D3", "E3", None, (1,) * 18)
    fought, events = striking.carry_over(fought, "C3")
    assert events[0] == CarriedOver("C3", "Ogre", 2, True)
    assert events[1:] == [CarryToPlace(Side.ATTACKER, 1, ("E3", "C2", "D2"))]
    fought, events = striking.carry_over(fought, "D2")
    assert events == [CarriedOver("D2", "Ranger", 1, True)] and fought.carry is None


def test_errata_12_4_E12_declared_strike_number_widens_the_carry():
    fought = battle(E12)
    assert striking.strike_plan(fought, "D3", "C2", StrikeValues(18, 5))[2].strike_number == 5
    with pytest.raises(IllegalStrike, match=r"§9\.5"):
        striking.strike_plan(fought, "D3", "C2", StrikeValues(17, 4))


# --- §10 rangestrikes ---------------------------------------------------------------------
RANGED = "Brush t2 attacker strike: Bk01 Troll@B3 | Rd01 Ranger@A1"


def test_errata_13_4_rangestrikes_are_optional():
    fought = battle(RANGED)
    assert fought.step is BattleStep.STRIKE and striking.rangestrikers(fought)
    fought = step(striking.end_strikes(fought))
    assert (fought.turn, fought.phasing) == (3, Side.DEFENDER)


def test_errata_13_3_a_rangestrike_may_take_the_hexspine_path_with_the_higher_number():
    fought = battle(RANGED)
    [(_, _, values)] = striking.rangestrike_options(fought)
    assert values.strike_numbers == (2, 3)
    after, [event] = striking.rangestrike(fought, "A1", "B3", 3, (2, 3))
    assert (event.strike_number, event.hits) == (3, 1)
    assert format_battle(after).endswith("Bk01 Troll@B3:1 | Rd01 Ranger@A1*")
    with pytest.raises(IllegalStrike, match="not 4"):
        striking.rangestrike(fought, "A1", "B3", 4, (2, 3))
    with pytest.raises(IllegalStrike, match="2 results"):
        striking.rangestrike(fought, "A1", "B3", None, (2,))


# --- §11.1 end check ----------------------------------------------------------------------
def test_rule_11_1_a_slain_titan_loses_the_battle_even_with_survivors():
    text = "Plains t2 attacker strike: Bk01 Titan@C3:5 Ogre@A1 | Rd01 Troll@C2"
    fought = step(striking.strike(battle(text), "C2", "C3", None, (6,) + (1,) * 7))
    assert fought.decider is Side.DEFENDER  # the slain Titan still counterstrikes
    fought = step(striking.strike(fought, "C3", "C2", None, (1,) * 6))
    assert fought.step is BattleStep.OVER
    assert fought.ending is not None and fought.ending.kind is EndKind.TITAN_SLAIN
    found = verdict(fought)
    assert (found.winner, found.points, found.slain[Side.DEFENDER]) == (
        Side.ATTACKER,
        24,
        ("Titan",),
    )


@pytest.mark.parametrize(
    ("text", "kind", "winner"),
    [
        (
            "Plains t3 defender strike: Bk01 Titan@slain | Rd01 Titan@slain Ogre@A1",
            "BOTH_TITANS",
            None,
        ),
        ("Plains t3 defender strike: Bk01 Ogre@slain | Rd01 Ogre@slain", "MUTUAL", None),
        ("Plains t3 defender strike: Bk01 Ogre@slain | Rd01 Ogre@A1", "WIPED_OUT", Side.ATTACKER),
        ("Plains t7 attacker strike: Bk01 Ogre@A2 | Rd01 Ogre@F1", "TIME_LOSS", Side.DEFENDER),
        ("Plains t7 defender strike: Bk01 Ogre@A2 | Rd01 Ogre@F1", None, None),
    ],
)
def test_rule_11_1_end_check(text, kind, winner):
    ending = end_check(parse_battle(text))
    if kind is None:
        assert ending is None
    else:
        assert ending is not None and (ending.kind, ending.winner) == (EndKind[kind], winner)


def test_errata_10_5_E20_time_loss_scores_nothing_and_takes_the_whole_attacker():
    text = "Plains t7 attacker maneuver: Bk01 Ogre@A1 Ogre@slain | Rd01 Troll@F4 Titan@F1"
    fought = step(maneuvering.end_maneuver(battle(text)))
    assert (fought.step, fought.decider) == (BattleStep.END_CHECK, Side.ATTACKER)
    fought, _ = turn.decline(fought, Side.ATTACKER)
    found = verdict(fought)
    assert (found.kind, found.winner, found.points) == (EndKind.TIME_LOSS, Side.DEFENDER, 0)
    assert found.slain == {Side.ATTACKER: ("Titan", "Troll"), Side.DEFENDER: ("Ogre",)}
    assert found.may_reinforce and not found.may_summon


def test_rule_11_4_a_won_battle_scores_every_enemy_slain_left_offs_included():
    text = "Plains t3 defender strike: Bk01 Ogre@slain Troll@leftoff | Rd01 Ogre@A1"
    fought = step((parse_battle(text), []))
    found = verdict(fought)
    assert (found.winner, found.points) == (Side.ATTACKER, 12 + 16)
