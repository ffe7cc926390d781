"""After an engagement: summon, reinforcement, points, acquisitions, regeneration.

RULES §6.6, §7, §11.3, §11.4; rules 19.1, 19.2; errata 8.0, 15.0, 17.3, 18.1.
"""

from __future__ import annotations

import pytest

from engine.battle.position import Side
from engine.errors import IllegalSummon
from engine.game import actions as a
from engine.game.events import (
    CharactersReturned,
    LegionEliminated,
    LordAcquired,
    LordSummoned,
    Mustered,
    PointsScored,
)
from engine.game.legal import legal_actions, to_act
from engine.game.outcome import summon_donors
from engine.game.state import Phase, Proposal
from engine.game.view import view
from tests.engine.game.helpers import act, of_type, pos, reveals

BLACK_WINS = Proposal(Side.DEFENDER)


def won(text: str, land: int = 41, defender: int = 1):
    """Black engages in ``land`` and the defender concedes.

    A summon right with no donor is still asked, so that nobody learns the attacker's
    other legions hold no Angel (RULES §1.7); Black declines it here.
    """
    state, _ = act(pos(text), 0, a.Engage(land))
    state, events = act(state, defender, a.Concede())
    engagement = state.engagement
    asked = engagement and engagement.aftermath and engagement.aftermath.may_summon
    if asked and not summon_donors(state):
        assert legal_actions(state, 0) == [a.Decline(), *reveals(state, 0), a.Withdraw()]
        state, more = act(state, 0, a.Decline())
        events += more
    return state, events


def test_rule_7_2_summon_after_a_win_by_concession():
    state, _ = won(
        "Bk01@41:Titan,Troll*2 Bk02@20:Angel,Ogre Rd01@41:Lion,Ogre Rd02@600:Titan "
        "| turn=Bk phase=engage"
    )
    mine = [a.Reveal("Bk01"), a.Reveal("Bk02")]
    assert legal_actions(state, 0) == [a.Summon("Bk02", "Angel"), a.Decline(), *mine, a.Withdraw()]
    state, events = act(state, 0, a.Summon("Bk02", "Angel"))
    assert of_type(events, LordSummoned) == [LordSummoned("Bk02", "Bk01", "Angel")]
    assert events[0].audience is None
    assert state.legion("Bk01").characters == ("Angel", "Titan", "Troll", "Troll")
    assert state.legion("Bk01").revealed == ("Angel",)
    assert state.legion("Bk02").characters == ("Ogre",)
    assert state.turn.summoned and state.phase is Phase.MUSTER


def test_errata_15_0_one_summon_per_engagement_phase():
    text = (
        "Bk01@41:Titan,Troll Bk02@3:Ogre*2 Bk03@20:Angel,Archangel,Ogre Rd01@41:Ogre "
        "Rd02@3:Lion Rd03@600:Titan | turn=Bk phase=engage"
    )
    state, _ = won(text, land=3)
    state, _ = act(state, 0, a.Summon("Bk03", "Archangel"), a.Engage(41))
    state, _ = act(state, 1, a.Concede())
    assert state.engagement is None  # no second summon, not even the Angel
    assert state.legion("Bk03").characters == ("Angel", "Ogre")


def test_errata_18_1_lone_angel_summoned_away():
    """E22: a lone Angel moved into a Tower and summoned away cannot muster there."""
    text = (
        "Bk01@41:Titan,Troll*2 Bk02@100:Angel Rd01@41:Lion,Ogre Rd02@600:Titan "
        "| turn=Bk phase=engage moves=Bk02:3>100"
    )
    state, _ = won(text)
    state, events = act(state, 0, a.Summon("Bk02", "Angel"))
    assert LegionEliminated("Bk02", 0) in events
    assert "Bk02" not in state.legions and "Bk02" in state.free_markers(0)
    assert state.phase is Phase.MUSTER
    assert not [
        x for x in legal_actions(state, 0) if isinstance(x, a.Muster) and x.legion == "Bk02"
    ]


def test_errata_8_0_a_lord_may_teleport_and_be_summoned_in_one_turn():
    text = (
        "Bk01@41:Titan,Troll*2 Bk02@5:Angel,Ogre Rd01@41:Lion,Ogre Rd02@600:Titan "
        "| turn=Bk phase=engage moves=Bk02:100>5+tower(Angel)"
    )
    state, _ = won(text)
    state, _ = act(state, 0, a.Summon("Bk02", "Angel"))
    assert "Angel" in state.legion("Bk01").characters


def test_rule_7_2_no_summon_of_a_titan_or_from_an_engaged_legion():
    text = (
        "Bk01@41:Angel,Troll*2 Bk02@20:Titan,Ogre Bk03@3:Angel,Ogre Rd01@41:Lion,Ogre "
        "Rd02@3:Troll Rd03@600:Titan | turn=Bk phase=engage"
    )
    state, _ = won(text)
    assert state.engagement is None  # Bk02 has only a Titan; Bk03 faces an enemy
    text = text.replace("Bk02@20:Titan,Ogre", "Bk02@20:Titan,Angel")
    state, _ = won(text)
    mine = [a.Reveal("Bk01"), a.Reveal("Bk02"), a.Reveal("Bk03")]
    assert legal_actions(state, 0) == [a.Summon("Bk02", "Angel"), a.Decline(), *mine, a.Withdraw()]
    with pytest.raises(IllegalSummon, match="cannot send a Angel"):
        act(state, 0, a.Summon("Bk03", "Angel"))
    with pytest.raises(IllegalSummon):
        act(state, 0, a.Summon("Bk02", "Titan"))


def test_rule_6_6_reinforcement_after_winning_an_agreement():
    text = "Bk01@41:Troll*2 Bk02@20:Titan Rd01@41:Ogre*2,Lion Rd02@600:Titan | turn=Bk phase=engage"
    state, _ = act(pos(text), 0, a.Engage(41))
    state, _ = act(state, 1, a.Propose((Proposal(Side.ATTACKER),)))
    state, _ = act(state, 0, a.Accept(1))
    assert to_act(state) == 1
    options = [x for x in legal_actions(state, 1) if isinstance(x, a.Reinforce)]
    assert [x.recruit for x in options] == ["Ogre", "Troll"]
    state, events = act(state, 1, a.Reinforce("Troll", ("Ogre", "Ogre")))
    assert of_type(events, Mustered) == [Mustered("Rd01", "Troll", ("Ogre", "Ogre"), True)]
    assert state.legion("Rd01").characters == ("Lion", "Ogre", "Ogre", "Troll")
    assert state.engagement is None and state.phase is Phase.MUSTER


def test_rule_7_1_acquisition_at_each_hundred_after_the_summon():
    text = (
        "Bk01@41:Titan,Troll*2 Bk02@20:Angel,Ogre Rd01@41:Lion,Ogre Rd02@600:Titan "
        "| turn=Bk phase=engage scores=Bk:90"
    )
    state, _ = won(text)
    assert state.player(0).score == 117
    with pytest.raises(IllegalSummon, match="before acquiring"):
        act(state, 0, a.Acquire("Angel"))
    state, _ = act(state, 0, a.Decline())
    mine = [a.Reveal("Bk01"), a.Reveal("Bk02")]
    assert legal_actions(state, 0) == [a.Acquire("Angel"), a.Decline(), *mine, a.Withdraw()]
    angels = state.caretaker["Angel"]
    state, events = act(state, 0, a.Acquire("Angel"))
    assert of_type(events, LordAcquired) == [LordAcquired("Bk01", "Angel")]
    assert state.caretaker["Angel"] == angels - 1
    assert state.legion("Bk01").characters == ("Angel", "Titan", "Troll", "Troll")


def test_errata_17_3_e24_archangel_or_still_an_angel():
    """E24: 480 + 40 = 520 gives one acquisition, Archangel or Angel."""
    text = "Bk01@41:Titan,Troll Rd01@41:Colossus Rd02@600:Titan | turn=Bk phase=engage"
    state, _ = won(text + " scores=Bk:480")
    assert state.player(0).score == 520
    assert legal_actions(state, 0) == [
        a.Acquire("Archangel"),
        a.Acquire("Angel"),
        a.Decline(),
        a.Reveal("Bk01"),
        a.Withdraw(),
    ]
    state, _ = act(state, 0, a.Acquire("Angel"))
    assert state.engagement is None and "Angel" in state.legion("Bk01").characters


def test_v10_375_plus_150_gives_an_angel_then_an_archangel_or_angel():
    """V10: 375 + 150 → an Angel at 400, an Archangel or Angel at 500."""
    text = (
        "Bk01@41:Titan,Troll Rd01@41:Colossus*3,Hydra Rd02@600:Titan "
        "| turn=Bk phase=engage scores=Bk:375"
    )
    state, _ = won(text)
    assert state.player(0).score == 525
    assert [x for x in legal_actions(state, 0) if isinstance(x, a.Acquire)] == [a.Acquire("Angel")]
    state, _ = act(state, 0, a.Acquire("Angel"))
    acquire = [x for x in legal_actions(state, 0) if isinstance(x, a.Acquire)]
    assert acquire == [a.Acquire("Archangel"), a.Acquire("Angel")]
    state, _ = act(state, 0, a.Acquire("Archangel"))
    assert state.legion("Bk01").characters == ("Angel", "Archangel", "Titan", "Troll")


def test_rule_7_1_acquisitions_need_counters_left():
    angels = "Bk02@20:Angel*7 Bk03@21:Angel*7 Bk04@22:Angel*4"
    text = (
        f"Bk01@41:Titan,Troll {angels} Rd01@41:Colossus Rd02@600:Titan "
        "| turn=Bk phase=engage scores=Bk:80"
    )
    state, _ = won(text)
    state, _ = act(state, 0, a.Decline())  # the summon
    assert state.engagement is None and state.player(0).score == 120
    archangels = "Gd01@300:Archangel*6,Titan"
    text = (
        f"Bk01@41:Titan,Troll {archangels} Rd01@41:Colossus Rd02@600:Titan "
        "| turn=Bk phase=engage scores=Bk:480"
    )
    state, _ = won(text, defender=2)
    assert [x for x in legal_actions(state, 0) if isinstance(x, a.Acquire)] == [a.Acquire("Angel")]


def test_rule_7_1_no_acquisition_into_a_full_legion():
    text = (
        "Bk01@41:Titan,Troll*6 Rd01@41:Colossus Rd02@600:Titan | turn=Bk phase=engage scores=Bk:80"
    )
    state, _ = won(text)
    assert state.player(0).score == 120 and state.engagement is None


def test_rule_7_1_half_points_for_an_eliminated_player_give_no_acquisition():
    text = (
        "Bk01@41:Titan,Troll Rd01@41:Titan Rd02@600:Colossus*2 Gd01@300:Titan "
        "| turn=Bk phase=engage scores=Bk:60"
    )
    state, events = won(text, defender=2)
    assert [e.points for e in of_type(events, PointsScored)] == [24, 40]
    assert state.player(0).score == 124
    assert state.engagement is None  # 100 was crossed by the half points only


def test_rule_11_3_slain_lords_regenerate_creatures_die():
    text = (
        "Bk01@41:Titan,Troll*2 Bk02@20:Angel,Ogre Rd01@41:Angel,Guardian,Troll "
        "Rd02@600:Titan | turn=Bk phase=engage"
    )
    before = pos(text)
    state, _ = won(text)
    # Summon first (step 1); the slain return only at step 6.
    assert state.caretaker["Angel"] == before.caretaker["Angel"]
    state, events = act(state, 0, a.Decline())
    assert of_type(events, CharactersReturned) == [
        CharactersReturned(("Angel", "Guardian"), ("Troll",))
    ]
    assert state.caretaker["Angel"] == before.caretaker["Angel"] + 1
    assert state.caretaker["Guardian"] == before.caretaker["Guardian"] + 1
    assert state.dead == {"Troll": 1}


def test_rule_19_1_e23_titan_power_and_value_follow_the_score():
    """E23: a score of 327 makes a Titan of Power 9, worth 36."""
    text = (
        "Bk01@41:Titan,Troll Rd01@41:Titan,Ogre Gd01@300:Titan | turn=Bk phase=engage scores=Rd:327"
    )
    state = pos(text)
    assert [p.titan_power for p in view(state, None).players] == [6, 6, 9]
    state, events = won(text, defender=2)
    assert of_type(events, PointsScored)[0].points == 36 + 12
    assert state.dead["Titan"] == 1 and state.player(2).eliminated
