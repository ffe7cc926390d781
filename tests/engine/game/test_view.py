"""What each seat sees (RULES §1.7, §5.2, §5.7, §12.5; errata 4.5, 20.0)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battle.position import Side
from engine.errors import InvalidNotation
from engine.game import actions as a
from engine.game.events import LegionContents, ProposalsMade, Revealed
from engine.game.state import Options, Proposal, Stage
from engine.game.view import events_for, view
from engine.movement import MoveKind
from tests.engine.game.helpers import act, of_type, pos

THREE = (
    "Bk01@41:Titan,Troll*2 Bk02@5:Angel,Ogre[Angel] Rd01@41:Lion,Ogre Rd02@600:Titan "
    "Gd01@300:Titan,Warlock | turn=Bk phase=engage moves=Bk01:40>41/5,Bk02:100>5+tower(Angel) "
    "scores=Gd:250"
)
BLACK, GOLD, RED = 0, 1, 2


def seen(state, seat):
    return {lv.marker: lv for lv in view(state, seat).legions}


def test_rule_1_7_own_legions_in_full_others_by_height_only():
    state = pos(THREE)
    mine = seen(state, BLACK)
    assert mine["Bk01"].characters == ("Titan", "Troll", "Troll")
    theirs = seen(state, GOLD)
    assert theirs["Bk01"].characters is None and theirs["Bk01"].height == 3
    assert (theirs["Bk01"].land, theirs["Bk01"].owner, theirs["Bk01"].colour) == (41, 0, "Black")
    assert all(lv.characters is None for lv in view(state, None).legions)


def test_errata_20_0_without_record_keeping_nothing_is_remembered():
    state = pos(THREE)
    assert seen(state, GOLD)["Bk02"].known == ()
    keeping = replace(state, options=Options(record_keeping=True))
    assert seen(keeping, GOLD)["Bk02"].known == ("Angel",)
    assert seen(keeping, None)["Bk02"].characters is None


def test_rule_5_2_an_engagement_shows_both_legions_to_its_two_players_only():
    state, events = act(pos(THREE), BLACK, a.Engage(41))
    for seat in (BLACK, RED):
        legions = seen(state, seat)
        assert legions["Bk01"].characters == ("Titan", "Troll", "Troll")
        assert legions["Rd01"].characters == ("Lion", "Ogre")
        assert legions["Bk02"].characters == (None if seat == RED else ("Angel", "Ogre"))
    for seat in (GOLD, None):
        assert seen(state, seat)["Rd01"].characters is None
        assert not of_type(events_for(events, seat), Revealed)


def test_rule_5_4_proposals_reach_the_two_players_only():
    state, _ = act(pos(THREE), BLACK, a.Engage(41))
    state, events = act(state, RED, a.Propose((Proposal(Side.ATTACKER, ()),)))
    assert events_for(events, GOLD) == [] and events_for(events, None) == []
    assert of_type(events_for(events, BLACK), ProposalsMade)
    assert view(state, BLACK).engagement.proposals == state.engagement.proposals
    assert view(state, GOLD).engagement.proposals == ()


def test_rule_5_7_a_battle_shows_both_legions_to_everyone():
    state, _ = act(pos(THREE), BLACK, a.Engage(41))
    battling = replace(state, engagement=replace(state.engagement, stage=Stage.BATTLE))
    for seat in (GOLD, None):
        assert seen(battling, seat)["Rd01"].characters == ("Lion", "Ogre")
        assert seen(battling, seat)["Bk02"].characters is None


def test_sop_the_winning_legion_is_hidden_again_after_the_engagement():
    state, _ = act(pos(THREE), BLACK, a.Engage(41))
    state, _ = act(state, RED, a.Concede())
    state, _ = act(state, BLACK, a.Decline())
    assert state.engagement is None
    assert seen(state, RED)["Bk01"].characters is None


def test_rule_12_5_the_winners_legions_are_shown_at_the_end():
    state = pos("Bk01@41:Titan,Troll Bk02@5:Ogre Rd01@41:Titan | turn=Bk phase=engage")
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 1, a.Concede())
    legions = seen(state, None)
    assert legions["Bk02"].characters == ("Ogre",)
    assert view(state, None).result == state.result


def test_events_for_keeps_private_contents_with_their_owner():
    state, _ = act(pos(THREE), BLACK, a.Engage(41))
    state, events = act(state, RED, a.Concede())
    state, events = act(state, BLACK, a.Summon("Bk02", "Angel"))
    private = of_type(events, LegionContents)
    assert private and all(e.audience == frozenset({BLACK}) for e in private)
    assert not of_type(events_for(events, RED), LegionContents)
    assert of_type(events_for(events, BLACK), LegionContents) == private


def test_view_of_players_moves_and_piles():
    state = pos(THREE.replace("scores=Gd:250", "scores=Gd:250 dead=Troll*3"))
    shown = view(state, GOLD)
    gold = shown.players[GOLD]
    assert (gold.score, gold.titan_power, gold.legions, gold.markers_left) == (250, 8, 1, 11)
    assert shown.moves[1].kind is MoveKind.TOWER_TELEPORT and shown.moves[1].lord == "Angel"
    assert shown.moves[0].entry_side == 5
    assert shown.dead == {"Troll": 3} and shown.caretaker["Troll"] == 28 - 5
    assert (shown.phase, shown.active, shown.to_act, shown.engagements) == (
        state.phase,
        BLACK,
        BLACK,
        (41,),
    )


def test_view_of_an_unknown_seat_is_refused():
    with pytest.raises(InvalidNotation):
        view(pos(THREE), 7)
