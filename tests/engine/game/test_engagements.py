"""Engagements before battle: order, examination, flight, negotiation, concession (RULES §5).

The negotiation follows the SoP's complete sequence step by step.
"""

from __future__ import annotations

import pytest

from engine.battle.position import Side
from engine.errors import IllegalEngagement, NotYourTurn
from engine.game import actions as a
from engine.game.events import (
    BattleBegun,
    CharactersSlain,
    EngagementResolved,
    Fled,
    PointsScored,
    ProposalsMade,
    Revealed,
)
from engine.game.legal import legal_actions, to_act
from engine.game.state import Phase, Proposal, Stage
from engine.game.view import events_for
from tests.engine.game.helpers import act, of_type, pos

ATT, DEF = Side.ATTACKER, Side.DEFENDER
KILL_DEF, KILL_ATT, BOTH = Proposal(DEF), Proposal(ATT), Proposal(None)
#: Black attacks Red in 41; Black also holds an Angel in 20 (a summon donor).
DUEL = (
    "Bk01@41:Titan,Troll*2 Bk02@20:Angel,Ogre Rd01@41:Lion,Ogre Rd02@600:Titan "
    "| turn=Bk phase=engage"
)


#: Black's whole-legion reveals in DUEL (errata 4.5).
MINE = [a.Reveal("Bk01"), a.Reveal("Bk02")]


def engaged(text: str = DUEL, land: int = 41):
    state, events = act(pos(text), 0, a.Engage(land))
    return state, events


def test_errata_9_1_engagements_one_at_a_time_in_the_movers_order():
    state = pos(
        "Bk01@41:Titan,Troll Bk02@3:Ogre*2 Rd01@41:Ogre Rd02@3:Lion Rd03@600:Titan "
        "| turn=Bk phase=engage"
    )
    mine = [a.Reveal("Bk01"), a.Reveal("Bk02")]
    assert legal_actions(state, 0) == [a.Engage(3), a.Engage(41), *mine, a.Withdraw()]
    state, _ = act(state, 0, a.Engage(3))
    with pytest.raises(IllegalEngagement, match="finish the engagement in 3 first"):
        act(state, 0, a.Engage(41))
    state, _ = act(state, 1, a.Concede())
    # No summon: Black's only other legion is engaged (RULES §7.2); the right is still
    # asked, so that Red learns nothing of Black's other legions (RULES §1.7).
    assert legal_actions(state, 0) == [a.Decline(), *mine, a.Withdraw()]
    state, _ = act(state, 0, a.Decline())
    assert state.phase is Phase.ENGAGE and state.engagement is None
    assert legal_actions(state, 0) == [a.Engage(41), *mine, a.Withdraw()]
    with pytest.raises(IllegalEngagement, match="no engagement in 3"):
        act(state, 0, a.Engage(3))
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 1, a.Concede())
    state, _ = act(state, 0, a.Decline())  # Bk02 is engaged no more, but holds no lord
    assert state.phase is Phase.MUSTER


def test_sop_engagement_shows_each_legion_to_the_other_player_only():
    text = DUEL.replace("Rd02@600:Titan", "Rd02@600:Titan Gd01@300:Titan")
    state, events = engaged(text)
    shown = of_type(events, Revealed)
    assert {(e.marker, e.characters) for e in shown} == {
        ("Bk01", ("Titan", "Troll", "Troll")),
        ("Rd01", ("Lion", "Ogre")),
    }
    assert all(e.audience == frozenset({0, 2}) for e in shown)  # Black and Red
    gold = 1
    assert not of_type(events_for(events, gold), Revealed)
    assert not of_type(events_for(events, None), Revealed)
    assert state.engagement is not None and to_act(state) == 2  # the defender first


def test_v10_flee_gives_half_points_and_no_summon():
    """V10: a fleeing Lion + Ogre (27) gives the attacker 13."""
    state, _ = engaged()
    assert a.Flee() in legal_actions(state, 1)
    state, events = act(state, 1, a.Flee())
    assert of_type(events, Fled) == [Fled("Rd01")]
    assert of_type(events, PointsScored)[0].points == 13
    assert state.player(0).score == 13 and "Rd01" not in state.legions
    assert state.engagement is None and state.phase is Phase.MUSTER  # no summon offered
    assert state.dead == {"Lion": 1, "Ogre": 1}


def test_rule_5_3_no_flight_with_a_lord_but_demilords_may_flee():
    with_angel = DUEL.replace("Rd01@41:Lion,Ogre", "Rd01@41:Angel,Ogre")
    state, _ = engaged(with_angel)
    assert a.Flee() not in legal_actions(state, 1)
    with pytest.raises(IllegalEngagement, match="holds a lord"):
        act(state, 1, a.Flee())
    with_guardian = DUEL.replace("Rd01@41:Lion,Ogre", "Rd01@41:Guardian,Ogre")
    state, _ = engaged(with_guardian)
    state, _ = act(state, 1, a.Flee())
    assert state.player(0).score == (24 + 12) // 2


def test_rule_5_3_flight_is_the_defenders_first_decision_only():
    state, _ = engaged()
    state, _ = act(state, 1, a.Propose((KILL_ATT,)))
    state, _ = act(state, 0, a.Propose((BOTH,)))
    assert a.Flee() not in legal_actions(state, 1)
    with pytest.raises(IllegalEngagement, match="first decision"):
        act(state, 1, a.Flee())


def test_sop_negotiation_sets_of_proposals_alternate_defender_first():
    state, _ = engaged()
    with pytest.raises(NotYourTurn, match="defender decides"):
        act(state, 0, a.Propose((KILL_DEF,)))
    state, events = act(state, 1, a.Propose((KILL_ATT, BOTH)))
    assert of_type(events, ProposalsMade)[0].numbered == ((1, KILL_ATT), (2, BOTH))
    assert to_act(state) == 0
    with pytest.raises(IllegalEngagement, match="accept it instead"):
        act(state, 0, a.Propose((KILL_DEF, BOTH)))
    assert a.Propose((BOTH,)) not in legal_actions(state, 0)
    state, _ = act(state, 0, a.Propose((KILL_DEF,)))
    with pytest.raises(IllegalEngagement, match="at least one new"):
        act(state, 1, a.Propose((KILL_ATT,)))
    with pytest.raises(
        IllegalEngagement, match=r"^your opponent made no proposal #1 \(theirs: #3\)$"
    ):
        act(state, 1, a.Accept(1))  # his own
    assert [x for x in legal_actions(state, 1) if isinstance(x, a.Accept)] == [a.Accept(3)]


def test_sop_accepting_an_earlier_proposal_of_the_opponent():
    state, _ = engaged()
    state, _ = act(state, 1, a.Propose((BOTH,)))
    state, _ = act(state, 0, a.Propose((KILL_DEF,)))
    state, _ = act(state, 1, a.Propose((KILL_ATT,)))
    state, events = act(state, 0, a.Accept(1))  # the defender's first proposal
    assert of_type(events, EngagementResolved)[0].how == "agreement"
    assert "Bk01" not in state.legions and "Rd01" not in state.legions
    assert state.player(0).eliminated  # Black's Titan was in Bk01 (RULES §12.1)
    assert state.result is not None and state.result.winners == (1,)


def test_sop_after_no_more_proposals_only_accept_concede_or_fight():
    state, _ = engaged()
    state, _ = act(state, 1, a.Propose((KILL_ATT,)))
    state, _ = act(state, 0, a.Propose((KILL_DEF,)))
    state, _ = act(state, 1, a.NoMoreProposals())
    assert to_act(state) == 0
    assert legal_actions(state, 0) == [a.Accept(1), a.Concede(), a.Fight(), *MINE, a.Withdraw()]
    with pytest.raises(IllegalEngagement, match="proposals are over"):
        act(state, 0, a.Propose((BOTH,)))
    with pytest.raises(IllegalEngagement, match="declared already"):
        act(state, 0, a.NoMoreProposals())
    with pytest.raises(NotYourTurn):
        act(state, 1, a.Concede())


def test_sop_battle_only_after_the_opponent_declared_no_more_proposals():
    state, _ = engaged()
    assert a.Fight() not in legal_actions(state, 1)
    with pytest.raises(IllegalEngagement, match="once your opponent has declared"):
        act(state, 1, a.Fight())
    state, _ = act(state, 1, a.NoMoreProposals())
    assert legal_actions(state, 0) == [a.Concede(), a.Fight(), *MINE, a.Withdraw()]


def test_rule_5_7_fight_starts_a_public_battle():
    state, _ = engaged()
    state, _ = act(state, 1, a.NoMoreProposals())
    state, events = act(state, 0, a.Fight())
    assert of_type(events, BattleBegun)[0].land == 41
    shown = [e for e in of_type(events, Revealed) if e.reason == "battle"]
    assert {e.marker for e in shown} == {"Bk01", "Rd01"}
    assert all(e.audience is None for e in shown)


def test_rule_5_5_agreement_eliminating_the_defender():
    state, _ = engaged()
    state, _ = act(state, 1, a.Propose((KILL_DEF,)))
    state, events = act(state, 0, a.Accept(1))
    assert state.player(0).score == 15 + 12
    assert of_type(events, CharactersSlain) == [
        CharactersSlain("Rd01", ("Lion", "Ogre"), "engagement")
    ]
    engagement = state.engagement
    assert engagement is not None and engagement.stage is Stage.AFTERMATH
    assert engagement.aftermath is not None and engagement.aftermath.may_summon  # §7.2c
    assert legal_actions(state, 0) == [a.Summon("Bk02", "Angel"), a.Decline(), *MINE, a.Withdraw()]


def test_rule_5_5_agreement_eliminating_the_attacker_earns_a_reinforcement():
    text = DUEL.replace("Bk01@41:Titan,Troll*2", "Bk01@41:Troll*2").replace(
        "Bk02@20:Angel,Ogre", "Bk02@20:Angel,Titan"
    )
    state, _ = engaged(text)
    state, _ = act(state, 1, a.Propose((KILL_ATT,)))
    state, _ = act(state, 0, a.Accept(1))
    assert state.player(1).score == 32
    engagement = state.engagement
    assert engagement is not None and engagement.aftermath is not None
    assert engagement.aftermath.may_reinforce and to_act(state) == 1
    # Marsh (41): Lion, Ogre → Ogre or Troll (two Ogres needed for a Troll: only Ogre).
    assert [x for x in legal_actions(state, 1) if isinstance(x, a.Reinforce)] == [
        a.Reinforce("Ogre", ("Ogre",))
    ]


def test_rule_5_5_mutual_elimination_scores_nothing():
    text = DUEL.replace("Bk01@41:Titan,Troll*2", "Bk01@41:Troll*2").replace(
        "Bk02@20:Angel,Ogre", "Bk02@20:Angel,Titan"
    )
    state, _ = engaged(text)
    state, _ = act(state, 1, a.Propose((BOTH,)))
    state, events = act(state, 0, a.Accept(1))
    assert not of_type(events, PointsScored)
    assert "Bk01" not in state.legions and "Rd01" not in state.legions
    assert state.engagement is None and state.dead == {"Lion": 1, "Ogre": 1, "Troll": 2}


def test_rule_5_5_what_the_winner_gives_up_scores_for_nobody():
    state, _ = engaged()
    deal = Proposal(DEF, ("Troll",))
    state, _ = act(state, 1, a.Propose((deal,)))
    state, _ = act(state, 0, a.Accept(1))
    assert state.legion("Bk01").characters == ("Titan", "Troll")
    assert state.player(0).score == 27 and state.player(1).score == 0


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (Proposal(DEF, ("Dragon",)), "has no Dragon"),
        (Proposal(DEF, ("Titan",)), "cannot give up its Titan"),
        (Proposal(DEF, ("Titan", "Troll", "Troll")), "mutual elimination"),
        (Proposal(None, ("Troll",)), "no survivor"),
    ],
)
def test_rule_5_4_impossible_deals_are_refused(deal, message):
    state, _ = engaged()
    with pytest.raises(IllegalEngagement, match=message):
        act(state, 1, a.Propose((deal,)))


def test_errata_9_4_defender_concedes_attacker_scores_all_and_may_summon():
    state, _ = engaged()
    state, events = act(state, 1, a.Concede())
    assert state.player(0).score == 27
    assert of_type(events, EngagementResolved)[0].how == "concession"
    assert a.Summon("Bk02", "Angel") in legal_actions(state, 0)


def test_errata_9_4_attacker_concedes_defender_scores_all_without_reinforcement():
    text = DUEL.replace("Bk01@41:Titan,Troll*2", "Bk01@41:Troll*2").replace(
        "Bk02@20:Angel,Ogre", "Bk02@20:Angel,Titan"
    )
    state, _ = engaged(text)
    state, _ = act(state, 1, a.Propose((BOTH,)))
    state, _ = act(state, 0, a.Concede())
    assert state.player(1).score == 32
    assert state.engagement is None and state.phase is Phase.MUSTER  # nothing to decide


def test_rule_12_1_a_titan_legion_eliminated_by_agreement_eliminates_its_player():
    text = (
        "Bk01@41:Titan,Troll*2 Rd01@41:Titan,Ogre Gd01@300:Titan Rd02@600:Troll "
        "| turn=Bk phase=engage"
    )
    state, _ = act(pos(text), 0, a.Engage(41))
    state, _ = act(state, 2, a.Propose((KILL_DEF,)))
    state, _ = act(state, 0, a.Accept(1))
    red = state.player(2)
    assert red.eliminated and not list(state.legions_of(2))
    assert "Rd05" in state.player(0).markers  # Black eliminated Red (errata 4.6)
    assert state.player(0).score == 24 + 12 + 16 // 2  # Titan 24 + Ogre, half the Troll
