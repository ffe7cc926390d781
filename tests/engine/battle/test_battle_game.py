"""Battles inside the game: actions, legal options, scoring and rights (RULES §5.7–§5.8,
§6.6, §7.2, §8–§12; errata 9.4, 10.5, 14.2, 18.1, 19.3, 20.4; §13 E18, E20, E21, E25)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from engine.battle.events import BattleEnded, ConcessionRollOff, EntrantReturned, LeftOff
from engine.battle.position import Side
from engine.battle.state import BattleStep, EndKind
from engine.codec import decode, encode
from engine.errors import IllegalAction, IllegalManeuver, IllegalStrike, NotYourTurn
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game import events as ev
from engine.game.apply import apply
from engine.game.legal import legal_actions, to_act
from engine.game.state import Engagement, GameState, Stage
from tests.engine.battle.helpers import (
    battle_game,
    by_type,
    current,
    fight,
    legal,
    loaded,
    seat_of,
)
from tests.engine.game.helpers import assert_conserved


def scores(state: GameState) -> list[int]:
    return [p.score for p in state.players]


# --- starting ------------------------------------------------------------------------------
def test_rule_5_7_fight_starts_a_public_battle_with_the_defender_first():
    state = battle_game("Plains s5 t1: Bk01 Ogre@off Titan@off | Rd01 Troll@off Titan@off")
    engagement = state.engagement
    assert engagement is not None
    state = replace(
        state,
        engagement=Engagement(engagement.land, "Rd01", "Bk01", 5, may_flee=False),
    )
    state, events = fight(state, a.NoMoreProposals(), a.Fight())
    assert [type(e).__name__ for e in events[1:5]] == [
        "BattleBegun",
        "Revealed",
        "Revealed",
        "HalfTurnBegun",
    ]
    assert all(e.audience is None for e in events[1:4])
    fought = current(state)
    assert (fought.turn, fought.phasing, fought.step) == (
        1,
        Side.DEFENDER,
        BattleStep.OPEN_ATTACKER,
    )
    # SoP: "The attacker may concede. The defender may concede." Then the turns begin.
    assert a.Concede() in legal_actions(state, to_act(state))
    state, _ = fight(state, a.Decline(), a.Decline())
    fought = current(state)
    assert (fought.turn, fought.phasing, fought.step) == (1, Side.DEFENDER, BattleStep.MANEUVER)
    assert fought.waiting(Side.DEFENDER) == ("Ogre", "Titan")
    assert to_act(state) == seat_of(state, Side.DEFENDER)
    assert b.Maneuver("Ogre", "E1") in legal(state)


def test_every_listed_battle_action_applies_and_others_only_withdraw():
    state = battle_game(
        "Tower t2 attacker strike: Bk01 Centaur@D4:2 Lion@E3 Ogre@C3:4 Gargoyle@C2 Ranger@D2:3"
        " | Rd01 Serpent@D3 Ranger@A2"
    )
    actions = legal(state)
    assert b.Strike("D3", "C2", 18, 5) in actions and b.Strike("D3", "D4") in actions
    assert b.EndStrikes() not in actions  # the Serpent must strike (RULES §9.1)
    for action in actions:
        apply(state, to_act(state) or 0, action)
    other = seat_of(state, Side.DEFENDER)
    assert legal_actions(state, other) == [a.Withdraw()]
    with pytest.raises(NotYourTurn):
        apply(state, other, b.EndStrikes())
    with pytest.raises(IllegalStrike):
        apply(state, 0, b.EndStrikes())
    with pytest.raises(IllegalStrike):
        apply(state, 0, b.Strike("D3", "C2", 17, 4))
    with pytest.raises(IllegalManeuver):
        apply(battle_game("Plains t2: Bk01 Ogre@A1 | Rd01 Troll@F4"), 1, b.Maneuver("A1", "F1"))


def test_strike_dice_come_from_the_game_and_are_in_the_events():
    state = battle_game("Plains t2 defender strike: Bk01 Ogre@C3 | Rd01 Troll@C2")
    state, events = fight(state, b.Strike("C3", "C2"))
    [struck] = [e for e in events if type(e).__name__ == "Struck"]
    assert len(struck.rolls) == 6 and state.dice.rolled == 6
    assert current(state).decider is Side.ATTACKER


def test_battle_state_survives_json_inside_the_game():
    state = battle_game("Plains t2 defender strike: Bk01 Ogre@C3:2 | Rd01 Troll@C2 Angel@off")
    assert decode(GameState, json.loads(json.dumps(encode(state)))) == state


# --- errata 14.2 / E18 ------------------------------------------------------------------------
SERPENTS = "Jungle t1 defender maneuver: Bk01 " + " ".join(["Serpent@off"] * 7)


def test_errata_14_2_E18_reinforcement_survives_an_early_attacker_concession():
    state = battle_game(SERPENTS + " | Rd01 Troll@off Ogre@off", others="Rd02@41:Titan")
    for hex_label in ("C5", "D5", "E4", "D6", "E5", "F4"):
        state, _ = fight(state, b.Maneuver("Serpent", hex_label))
    state, events = fight(state, b.EndManeuver())
    assert by_type(events, LeftOff) == [LeftOff(Side.DEFENDER, ("Serpent",), forced=True)]
    assert a.Concede() in legal(state)
    state, events = fight(state, a.Concede(), b.AcceptConcession())
    aftermath = state.engagement.aftermath if state.engagement else None
    assert aftermath is not None and aftermath.may_reinforce
    assert a.Reinforce("Serpent", ("Serpent",)) in legal(state)
    assert state.player(seat_of(state, Side.DEFENDER)).score == 16 + 12
    state, _ = fight(state, a.Reinforce("Serpent", ("Serpent",)))
    assert state.legion("Bk01").characters == ("Serpent",) * 7
    assert_conserved(state)


def test_errata_14_2_no_reinforcement_after_a_voluntary_left_off():
    state = battle_game(SERPENTS + " | Rd01 Troll@off Ogre@off", others="Rd02@41:Titan")
    state, events = fight(state, b.Maneuver("Serpent", "D6"), b.EndManeuver())
    assert by_type(events, LeftOff)[0].forced is False
    state, _ = fight(state, a.Concede(), b.AcceptConcession())
    assert state.engagement is None or not state.engagement.aftermath.may_reinforce
    assert state.legion("Bk01").characters == ("Serpent",)


# --- errata 9.4 / E25 ---------------------------------------------------------------------
def test_errata_9_4_E25_roll_off_through_the_game():
    text = "Plains t2 defender maneuver: Bk01 Ogre@A1 | Rd01 Troll@F4"
    state = battle_game(text, dice=loaded(3, 3, 5, 2))
    state, events = fight(state, a.Concede(), b.ConcedeInstead())
    assert legal(state) == [b.AcceptConcession(), b.ConcedeInstead()]
    state, events = fight(state, b.ConcedeInstead())
    assert by_type(events, ConcessionRollOff) == [
        ConcessionRollOff(((3, 3), (5, 2)), Side.ATTACKER)
    ]
    assert "Rd01" not in state.legions and state.legion("Bk01").characters == ("Ogre",)
    assert scores(state)[seat_of_marker(state, "Bk01")] == 16


def seat_of_marker(state: GameState, marker: str) -> int:
    return state.legion(marker).owner


# --- errata 10.5 / E20 ----------------------------------------------------------------------
def test_errata_10_5_E20_time_loss_pays_the_defender_nothing_but_the_titans_legions():
    state = battle_game(
        "Plains t7 attacker maneuver: Bk01 Ogre@A1 | Rd01 Titan@F4 Troll@F3",
        others="Rd02@41:Centaur,Ogre Rd03@20:Lion,Troll Gd01@20:Gargoyle Bk02@30:Ogre",
    )
    state, events = fight(state, b.EndManeuver())
    assert current(state).step is BattleStep.END_CHECK
    assert legal(state) == [a.Decline(), a.Concede(), a.Reveal("Rd02"), a.Reveal("Rd03")]
    state, events = fight(state, a.Decline())
    [ended] = by_type(events, BattleEnded)
    assert ended.kind is EndKind.TIME_LOSS and ended.winner is Side.DEFENDER
    black, gold = seat_of_marker(state, "Bk01"), seat_of_marker(state, "Gd01")
    assert scores(state)[black] == (12 + 12) // 2  # Rd02 only; no battle points
    assert scores(state)[gold] == (15 + 16) // 2  # Rd03 was engaged with Gold
    assert "Rd01" in state.player(black).markers and state.players[0].eliminated
    assert not {"Rd01", "Rd02", "Rd03"} & set(state.legions)


def test_errata_10_5_the_attacker_concedes_in_turn_7_to_pre_empt_the_time_loss():
    state = battle_game("Plains t7 attacker maneuver: Bk01 Ogre@A1 | Rd01 Centaur@F4 Troll@F3")
    state, _ = fight(state, b.EndManeuver(), a.Concede())
    assert scores(state)[seat_of_marker(state, "Bk01")] == 12 + 16


# --- errata 20.4 / E21 ----------------------------------------------------------------------
def test_errata_20_4_E21_a_defending_titan_legion_withdraws_during_battle():
    state = battle_game(
        "Plains t2 attacker maneuver: Bk01 Titan@A1 Ogre@A2 | Rd01 Troll@F4",
        others="Bk02@41:Centaur,Gargoyle",
    )
    black = seat_of_marker(state, "Bk01")
    state, _ = apply(state, black, a.Withdraw())
    assert state.players[black].eliminated and "Bk02" in state.players[0].markers
    assert scores(state)[0] == (24 + 12) + (12 + 12) // 2


def test_errata_20_4_E21_an_attacker_without_his_titan_withdraws_during_battle():
    state = battle_game(
        "Plains t2 attacker maneuver: Bk01 Ogre@A1 | Rd01 Troll@F4 Centaur@F3",
        others="Rd02@41:Titan,Gargoyle Bk02@30:Titan",
    )
    state, _ = apply(state, 0, a.Withdraw())
    black = seat_of_marker(state, "Bk01")
    assert scores(state)[black] == 16 + 12
    assert state.players[0].eliminated and not state.players[black].markers.count("Rd01")
    assert "Rd02" not in state.legions


# --- RULES §11.4, §12.2: a Titan slain mid-battle -------------------------------------------
def test_rule_11_4_titan_slain_scores_titan_and_slain_so_far_survivors_half():
    state = battle_game(
        "Plains t2 attacker strike: Bk01 Titan@C3:5 Ogre@A1 Centaur@slain | Rd01 Troll@C2",
        others="Bk02@41:Centaur,Ogre",
        dice=loaded(6, 1, 1, 1, 1, 1, 1, 1, *([1] * 6)),
    )
    state, events = fight(state, b.Strike("C2", "C3"), b.Strike("C3", "C2"))
    [ended] = by_type(events, BattleEnded)
    assert ended.kind is EndKind.TITAN_SLAIN and ended.winner is Side.ATTACKER
    points = [(e.points, e.reason) for e in by_type(events, ev.PointsScored)]
    assert points == [
        (24 + 12, "battle: Titan slain"),
        ((12 + 12 + 12) // 2, "half points for an eliminated player"),
    ]
    assert state.legion("Rd01").characters == ("Troll",)
    assert_conserved(state)


# --- summoning (RULES §7.2a; errata 15.0, 18.1) ------------------------------------------------
def due(fought):
    return replace(fought, summon_due=True)


SUMMON = "Plains t2 attacker summon: Bk01 Ogre@A2 Gargoyle@slain | Rd01 Troll@F4"


def test_rule_7_2a_summoned_lord_joins_the_attacker_and_a_lone_donor_vanishes():
    state = battle_game(SUMMON, others="Rd02@41:Angel", tweak=due)
    assert legal(state) == [a.Summon("Rd02", "Angel"), a.Decline(), a.Concede(), a.Reveal("Rd02")]
    state, events = fight(state, a.Summon("Rd02", "Angel"), b.Maneuver("Angel", "C1"))
    assert state.legion("Rd02").characters == ("Angel",)  # not yet: it must enter first
    state, events = fight(state, b.EndManeuver())
    assert "Rd02" not in state.legions and state.turn.summoned
    assert state.legion("Rd01").characters == ("Angel", "Troll")
    assert by_type(events, ev.LegionEliminated) == [ev.LegionEliminated("Rd02", 0)]
    assert_conserved(state)


def test_rule_7_2a_a_summoned_lord_that_does_not_enter_goes_back_uncounted():
    state = battle_game(SUMMON, others="Rd02@41:Angel,Ogre", tweak=due)
    state, events = fight(state, a.Summon("Rd02", "Angel"), b.EndManeuver())
    assert by_type(events, EntrantReturned) == [EntrantReturned(Side.ATTACKER, "Angel")]
    assert state.legion("Rd02").characters == ("Angel", "Ogre") and not state.turn.summoned


def test_rule_7_2_no_summon_from_a_donor_sharing_a_land_with_an_enemy():
    state = battle_game(SUMMON, others="Rd02@41:Angel Bk02@41:Ogre", tweak=due)
    attacker = to_act(state)
    assert current(state).step is BattleStep.SUMMON  # asked anyway (RULES §1.7)
    assert not [x for x in legal_actions(state, attacker) if isinstance(x, a.Summon)]
    state, _ = apply(state, attacker, a.Decline())
    assert current(state).step is BattleStep.MANEUVER and current(state).summon_used


# --- reinforcements (RULES §6.6) ---------------------------------------------------------------
REINFORCE = "Marsh t4 defender reinforce: Bk01 Ogre@A1 Ogre@A2 | Rd01 Troll@F4"


def test_rule_6_6_reinforcement_on_turn_4_comes_from_the_caretaker():
    state = battle_game(REINFORCE)
    assert a.Reinforce("Troll", ("Ogre", "Ogre")) in legal(state)
    trolls = state.caretaker["Troll"]
    state, events = fight(state, a.Reinforce("Troll", ("Ogre", "Ogre")))
    state, events = fight(state, b.Maneuver("Troll", "E4"), b.EndManeuver())
    [mustered] = by_type(events, ev.Mustered)
    assert mustered.reinforcement and mustered.recruit == "Troll"
    assert state.caretaker["Troll"] == trolls - 1
    assert state.legion("Bk01").characters == ("Ogre", "Ogre", "Troll")
    assert_conserved(state)


def test_rule_6_6_a_reinforcement_left_off_returns_and_the_right_remains():
    state = battle_game(REINFORCE)
    state, events = fight(state, a.Reinforce("Troll", ("Ogre", "Ogre")), b.EndManeuver())
    assert by_type(events, EntrantReturned) and not current(state).reinforced
    state, _ = fight(state, *[b.EndManeuver()] * 7, a.Decline())
    aftermath = state.engagement.aftermath if state.engagement else None
    assert aftermath is not None and aftermath.may_reinforce  # time loss: defender won


def test_every_battle_step_keeps_legions_and_battle_in_step():
    state = battle_game(REINFORCE)
    state, _ = fight(state, a.Reinforce("Troll", ("Ogre", "Ogre")), b.Maneuver("Troll", "E4"))
    fought = current(state)
    assert Counter(state.legion("Bk01").characters) == Counter(fought.legion(Side.DEFENDER))
    with pytest.raises(IllegalAction):
        apply(state, 1, a.Reinforce("Troll", ("Ogre", "Ogre")))
    assert state.engagement is not None and state.engagement.stage is Stage.BATTLE


def test_errata_9_4_an_immediate_defender_concession_leaves_no_attacker_left_offs():
    state = battle_game(
        "Plains t1 defender maneuver: Bk01 Ogre@off | Rd01 Troll@off Centaur@off",
        others="Bk02@41:Titan Rd02@30:Titan",
    )
    state, events = fight(state, a.Concede(), b.AcceptConcession())
    assert not by_type(events, LeftOff)
    assert state.legion("Rd01").characters == ("Centaur", "Troll")
    assert scores(state)[0] == 12


def test_rule_9_5_a_declaration_may_name_only_the_raised_strike_number():
    state = battle_game(
        "Tower t2 attacker strike: Bk01 Centaur@D4:2 Lion@E3 Ogre@C3:4 Gargoyle@C2 Ranger@D2:3"
        " | Rd01 Serpent@D3",
        dice=loaded(*([1] * 18)),
    )
    state, events = fight(state, b.Strike("D3", "C2", strike_number=5))
    [struck] = [e for e in events if type(e).__name__ == "Struck"]
    assert (struck.dice, struck.strike_number, struck.declared) == (18, 5, True)


def test_errata_7_0_take_back_through_the_game():
    state = battle_game("Plains t2 defender maneuver: Bk01 Ogre@A1 Centaur@B1 | Rd01 Troll@F4")
    state, _ = fight(state, b.Maneuver("A1", "A2"), b.Maneuver("B1", "A1"))
    assert b.TakeBackManeuver("A2") in legal(state)
    state, events = fight(state, b.TakeBackManeuver("A2"))
    assert [e.start for e in events] == ["B1", "A1"]
    assert current(state).position.at("A1") is not None and not current(state).moves
