"""Findings of a rules review of the game flow and scoring (second pair of eyes).

Each test names the rule it checks and fails against the engine as reviewed; see the
review report for the analysis. RULES = /work/shared/RULES.md; SoP, errata = the seeds.
"""

from __future__ import annotations

import pytest

from engine.battle.position import Side
from engine.errors import IllegalEngagement
from engine.game import actions as a
from engine.game import battle_actions as b
from engine.game import events as ev
from engine.game.legal import legal_actions
from engine.game.state import GameState, Proposal
from engine.game.view import view
from tests.engine.battle.helpers import battle_game, fight, legal, loaded
from tests.engine.game.helpers import act, pos


# --- 1. SoP negotiation: "no proposals previously made by the opponent", "one new" ---------
def test_sop_negotiation_a_reordered_copy_of_the_opponents_proposal_is_not_new():
    """A proposal is a deal: which legion dies and which characters the survivor gives up.
    The order in which the characters are named is not part of the deal, so repeating the
    opponent's proposal with the losses listed in another order is still the opponent's
    proposal (SoP complete sequence; RULES §5.4) and must be refused (accept it instead)."""
    state = pos(
        "Bk01@41:Titan,Troll,Ogre,Centaur Rd01@41:Lion,Ogre Rd02@600:Titan | turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 1, a.Propose((Proposal(Side.DEFENDER, ("Ogre", "Troll")),)))
    with pytest.raises(IllegalEngagement):
        act(state, 0, a.Propose((Proposal(Side.DEFENDER, ("Troll", "Ogre")),)))


# --- 2. RULES §1.7: the aftermath must not reveal hidden contents ---------------------------
def _after_defender_concedes(donor: str) -> GameState:
    state = pos(
        f"Bk01@41:Titan,Troll*2 Bk02@20:{donor} Rd01@41:Lion,Ogre Rd02@600:Titan "
        "| turn=Bk phase=engage"
    )
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, 1, a.Concede())
    return state


def test_rule_1_7_the_summon_right_does_not_reveal_an_unengaged_legions_angel():
    """Bk02 (height 2) holds an Angel or not: that is hidden from Red (RULES §1.7). The
    AftermathView hides ``may_summon`` from Red for that reason, but the game itself moves
    on at once when Black has no Angel to summon and waits for Black when he has one, so
    Red's view (phase, who acts, the engagement) tells him what Bk02 holds."""
    with_angel = _after_defender_concedes("Angel,Ogre")
    without = _after_defender_concedes("Centaur,Ogre")
    seen_angel, seen_without = view(with_angel, 1), view(without, 1)
    assert (seen_angel.phase, seen_angel.to_act, seen_angel.engagement is None) == (
        seen_without.phase,
        seen_without.to_act,
        seen_without.engagement is None,
    ), "Red learns whether Bk02 holds an Angel"


# --- 3. Errata 20.0 / RULES §1.7 record keeping: a battle shows both legions to all ---------
def test_errata_20_0_record_keeping_remembers_what_a_battle_showed():
    """With record keeping on, ``known`` is what the rules revealed to everyone (RULES
    §1.7). A battle shows both legions to everyone (SoP, §5.7): after the battle every
    player may recall the surviving legion's contents."""
    state = pos(
        "Bk01@41:Titan,Troll*2,Ogre Rd01@41:Lion Rd02@600:Titan Gd01@300:Titan "
        "| turn=Bk phase=engage options=record_keeping"
    )
    red = state.legion("Rd01").owner
    gold = next(p.seat for p in state.players if p.seat not in (0, red))
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, red, a.NoMoreProposals())
    state, _ = act(state, 0, a.Fight())
    state, _ = act(state, 0, a.Decline())  # Black does not concede as the battle begins
    state, _ = act(state, red, a.Concede())  # Red does: outright (SoP)
    state, _ = act(state, 0, a.Decline())  # the summon right is always asked (§1.7)
    assert "Rd01" not in state.legions and state.engagement is None
    [seen] = [lv for lv in view(state, gold).legions if lv.marker == "Bk01"]
    assert seen.known == ("Ogre", "Titan", "Troll", "Troll")


# --- 4. Errata 14.2 / RULES §6.6, §14 C13: "before placing any of his characters" -----------
def test_errata_14_2_an_attacker_who_placed_characters_then_conceded_leaves_the_reinforcement():
    """Errata 14.2 (RULES §6.6, chosen by §14 C13): the defender loses his reinforcement
    only if the attacker concedes *before placing any of his characters* on the board.
    Here the attacker placed a Troll, then conceded in the same maneuver phase: the
    defender (a Centaur in the Plains) may still muster a Centaur after the battle."""
    state = battle_game(
        "Plains t1 attacker maneuver: Bk01 Centaur@C3 | Rd01 Troll@off Ogre@off",
        others="Rd02@41:Titan Bk02@30:Titan",
    )
    state, _ = fight(state, b.Maneuver("Troll", "A1"), a.Concede(), b.AcceptConcession())
    assert state.legion("Bk01").characters == ("Centaur",)
    aftermath = state.engagement.aftermath if state.engagement else None
    assert aftermath is not None and aftermath.may_reinforce
    assert a.Reinforce("Centaur", ("Centaur",)) in legal(state)


# --- 5. SoP: "Both legions may now be looked at... The attacker may concede." ----------------
def test_sop_the_attacker_may_concede_when_the_battle_begins():
    """SoP complete sequence, after negotiation fails: "Both legions may now be looked at
    by all remaining players. The attacker may concede. The defender may concede." Then
    the battle turns begin. The attacker has no such window: his first decision is his
    own first maneuver phase, after the defender has entered (which matters for errata
    14.2's forced-loss reinforcement)."""
    state = pos("Bk01@41:Titan,Troll*2 Rd01@41:Ogre*2 Rd02@600:Titan | turn=Bk phase=engage")
    red = state.legion("Rd01").owner
    state, _ = act(state, 0, a.Engage(41))
    state, _ = act(state, red, a.Propose((Proposal(Side.ATTACKER),)))
    state, _ = act(state, 0, a.NoMoreProposals())
    state, events = act(state, red, a.Fight())
    assert any(isinstance(e, ev.BattleBegun) for e in events)
    assert a.Concede() in legal_actions(state, 0), "no concession window at the battle start"


# --- 6. Rule 19.3 / RULES §11.2: the slain Titan's survivors leave the board -----------------
def test_rule_19_3_the_removal_of_a_slain_titans_survivors_is_announced():
    """The survivors of a slain Titan's legion are removed with their player (19.3,
    RULES §11.2, §12.2). Every other removal is announced (CharactersSlain and
    LegionEliminated, as for the player's other legions); this one is silent, so anyone
    following the events still sees Bk01 (an Ogre) on the board."""
    state = battle_game(
        "Plains t2 attacker strike: Bk01 Titan@C3:5 Ogre@A1 Centaur@slain | Rd01 Troll@C2",
        others="Bk02@41:Centaur,Ogre",
        dice=loaded(6, 1, 1, 1, 1, 1, 1, 1, *([1] * 6)),
    )
    black = state.legion("Bk01").owner
    state, events = fight(state, b.Strike("C2", "C3"), b.Strike("C3", "C2"))
    assert "Bk01" not in state.legions and state.player(black).eliminated
    assert ev.LegionEliminated("Bk01", black) in events
    assert any(
        isinstance(e, ev.CharactersSlain) and e.marker == "Bk01" and "Ogre" in e.characters
        for e in events
    )


# --- 7. Rule 18.4 / RULES §6.6: the reinforcement after a win reveals a default set ---------
def test_rule_18_4_a_reinforcement_after_the_battle_reveals_the_first_sufficient_set():
    """``Reinforce`` without ``revealed`` works during the battle (turn 4) and ``Muster``
    without ``revealed`` works in the muster phase: both show the first sufficient set
    (rule 18.4). After a won engagement the same action is refused, although the handler
    means to default too (``action.revealed or option.recruiters[0]``)."""
    text = "Bk01@41:Troll*2 Bk02@20:Titan Rd01@41:Ogre*2,Lion Rd02@600:Titan | turn=Bk phase=engage"
    state, _ = act(pos(text), 0, a.Engage(41))
    state, _ = act(state, 1, a.Propose((Proposal(Side.ATTACKER),)))
    state, _ = act(state, 0, a.Accept(1))
    state, events = act(state, 1, a.Reinforce("Troll"))
    assert state.legion("Rd01").characters == ("Lion", "Ogre", "Ogre", "Troll")
    assert ev.Mustered("Rd01", "Troll", ("Ogre", "Ogre"), True) in events
