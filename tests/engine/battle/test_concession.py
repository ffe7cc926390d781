"""Conceding during a battle (RULES §5.8; errata 9.4, 10.5, 14.2; SoP; §14 C11, C12)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battle import concession, maneuvering, striking, turn
from engine.battle.concession import ConcedeMode, concede_mode
from engine.battle.ending import verdict
from engine.battle.events import ConcessionRollOff
from engine.battle.notation import parse_battle
from engine.battle.position import Side
from engine.battle.state import BattleStep, EndKind, Supplies
from engine.battle.turn import advance
from engine.errors import IllegalEngagement, WrongPhase
from tests.engine.battle.helpers import battle

MANEUVER = "Plains t2 defender maneuver: Bk01 Ogre@A1 Centaur@slain | Rd01 Troll@F4 Ogre@F3"


def step(found):
    result, _ = advance(found[0], Supplies())
    return result


def test_rule_5_8_an_accepted_attempt_concedes_the_whole_legion():
    fought, _ = concession.attempt(battle(MANEUVER), Side.DEFENDER)
    assert fought.decider is Side.ATTACKER
    with pytest.raises(WrongPhase):
        maneuvering.maneuver(fought, "A1", "A2")
    fought, _ = concession.accept(fought, Side.ATTACKER)
    found = verdict(fought)
    assert (found.kind, found.winner) == (EndKind.CONCESSION, Side.ATTACKER)
    assert found.slain[Side.DEFENDER] == ("Centaur", "Ogre") and found.points == 12 + 12


def test_rule_5_8_the_other_side_may_concede_instead():
    fought, _ = concession.attempt(battle(MANEUVER), Side.DEFENDER)
    fought, _ = concession.instead(fought, Side.ATTACKER)
    assert fought.decider is Side.DEFENDER
    fought, _ = concession.accept(fought, Side.DEFENDER)
    found = verdict(fought)
    assert (found.winner, found.points) == (Side.DEFENDER, 16 + 12)
    assert found.slain[Side.ATTACKER] == ("Ogre", "Troll")


def test_errata_9_4_E25_both_insist_the_higher_roller_concedes_ties_reroll():
    fought, _ = concession.attempt(battle(MANEUVER), Side.DEFENDER)
    fought, _ = concession.instead(fought, Side.ATTACKER)
    ended, events = concession.roll_off(fought, Side.DEFENDER, ((4, 4), (2, 5)))
    assert events[0] == ConcessionRollOff(((4, 4), (2, 5)), Side.DEFENDER)
    assert verdict(ended).winner is Side.ATTACKER
    ended, _ = concession.roll_off(fought, Side.DEFENDER, ((6, 1),))
    assert verdict(ended).winner is Side.DEFENDER
    with pytest.raises(ValueError):
        concession.roll_off(fought, Side.DEFENDER, ((3, 3),))


def test_rule_5_8_only_the_deciding_side_attempts_to_concede():
    fought = battle(MANEUVER)
    assert concede_mode(fought, Side.DEFENDER) is ConcedeMode.ATTEMPT
    assert concede_mode(fought, Side.ATTACKER) is None
    with pytest.raises(IllegalEngagement, match="own decisions"):
        concession.attempt(fought, Side.ATTACKER)


def test_rule_5_8_nobody_concedes_while_carried_hits_wait():
    text = (
        "Tower t2 attacker strike: Bk01 Centaur@D4:2 Lion@E3 Ogre@C3:4 Gargoyle@C2 Ranger@D2:3"
        " | Rd01 Serpent@D3"
    )
    fought, _ = striking.strike(battle(text), "D3", "D4", None, (6, 6, 6, 6) + (1,) * 14)
    assert fought.carry is not None
    assert concede_mode(fought, Side.ATTACKER) is None
    assert concede_mode(fought, Side.DEFENDER) is None


def test_sop_the_side_about_to_counterstrike_may_concede_unconditionally_first():
    text = "Plains t2 defender strike: Bk01 Ogre@C3 | Rd01 Troll@C2 Ogre@D3"
    fought = step(striking.strike(battle(text), "C3", "C2", None, (1,) * 6))
    assert concede_mode(fought, Side.ATTACKER) is ConcedeMode.UNCONDITIONAL
    fought, _ = striking.strike(fought, "C2", "C3", None, (1,) * 8)
    assert concede_mode(fought, Side.ATTACKER) is ConcedeMode.ATTEMPT


SLAYING = "Plains t2 attacker strike: Bk01 Ogre@C2:5 | Rd01 Troll@C3 Lion@E4"


def test_errata_9_4_no_conceding_a_won_battle():
    fought, _ = striking.strike(battle(SLAYING), "C3", "C2", None, (6,) + (1,) * 7)
    assert concession.has_won(fought, Side.ATTACKER)
    with pytest.raises(IllegalEngagement, match="already won"):
        concession.attempt(fought, Side.ATTACKER)


def test_errata_9_4_but_the_slayer_may_concede_before_the_counterstrikes():
    fought = step(striking.strike(battle(SLAYING), "C3", "C2", None, (6,) + (1,) * 7))
    assert (fought.step, fought.decider) == (BattleStep.SLEW_ALL, Side.ATTACKER)
    assert concede_mode(fought, Side.ATTACKER) is ConcedeMode.UNCONDITIONAL
    mutual, _ = concession.attempt(fought, Side.ATTACKER)
    found = verdict(mutual)
    assert (found.kind, found.winner, found.points) == (EndKind.CONCESSION, None, 0)
    assert found.slain == {Side.ATTACKER: ("Lion", "Troll"), Side.DEFENDER: ("Ogre",)}
    going_on, _ = turn.decline(fought, Side.ATTACKER)
    assert going_on.step is BattleStep.COUNTERSTRIKE and going_on.decider is Side.DEFENDER


TIME_UP = "Plains t7 attacker maneuver: Bk01 Ogre@A1 | Rd01 Troll@F4 Titan@F1"


def test_errata_10_5_the_defender_may_not_concede_once_time_is_up():
    fought = step(maneuvering.end_maneuver(battle(TIME_UP)))
    assert fought.step is BattleStep.END_CHECK
    assert concede_mode(fought, Side.DEFENDER) is None
    with pytest.raises(IllegalEngagement):
        concession.attempt(fought, Side.DEFENDER)


def test_sop_the_attackers_concession_in_turn_7_pre_empts_the_time_loss():
    fought = step(maneuvering.end_maneuver(battle(TIME_UP)))
    assert concede_mode(fought, Side.ATTACKER) is ConcedeMode.UNCONDITIONAL
    fought, _ = concession.attempt(fought, Side.ATTACKER)
    found = verdict(fought)
    assert (found.kind, found.winner, found.points) == (EndKind.CONCESSION, Side.DEFENDER, 40)


def test_rule_8_7_the_other_side_may_concede_before_lethal_drift():
    text = "Tundra t2 defender maneuver: Bk01 Ogre@A1:5 | Rd01 Centaur@B2"
    fought = step(maneuvering.end_maneuver(battle(text)))
    assert concede_mode(fought, Side.ATTACKER) is ConcedeMode.UNCONDITIONAL
    assert concede_mode(fought, Side.DEFENDER) is None
    fought, _ = concession.attempt(fought, Side.ATTACKER)
    assert verdict(fought).winner is Side.DEFENDER


EARLY = "Jungle t1 attacker maneuver: Bk01 Serpent@D6 Serpent@leftoff | Rd01 Troll@off"


@pytest.mark.parametrize("forced", [True, False])
def test_errata_14_2_E18_early_attacker_concession_and_the_reinforcement(forced):
    fought = replace(parse_battle(EARLY), forced_loss=forced)
    fought, _ = concession.attempt(fought, Side.ATTACKER)
    fought, _ = concession.accept(fought, Side.DEFENDER)
    found = verdict(fought)
    assert found.winner is Side.DEFENDER and found.may_reinforce is forced


def test_errata_14_2_a_concession_after_the_attackers_first_maneuver_keeps_the_right():
    fought, _ = maneuvering.maneuver(battle(EARLY), "Troll", "A1")
    fought = step(maneuvering.end_maneuver(fought))
    assert fought.turn == 2 and Side.ATTACKER in fought.entered
    fought, _ = concession.concede(fought, Side.ATTACKER)
    assert verdict(fought).may_reinforce
