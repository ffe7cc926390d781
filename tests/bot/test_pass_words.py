"""A chance the rules offer that none of one's legions can take is still offered (passing it
at once would tell the others what they may not know, RULES §1.7); its private step says why
only passing is left, instead of "Nothing more to do here."."""

from __future__ import annotations

from bot.offers import step
from bot.offers.battle_steps import NO_DONOR
from engine.game import actions as a
from tests.engine.game.helpers import act, pos

#: Black attacks Red in 41; Red concedes, so Black may summon (RULES §7.2c).
WON = "Bk01@41:Titan,Troll*2 Bk02@20:{} Rd01@41:Lion,Ogre Rd02@600:Titan | turn=Bk phase=engage"


def conceded(donor: str):
    state, _ = act(pos(WON.format(donor)), 0, a.Engage(41))
    state, _ = act(state, 1, a.Concede())
    return state


def test_a_summon_no_legion_can_answer_says_so_and_offers_only_passing():
    found = step(conceded("Ogre"), 0, "aftermath")
    assert found.text == NO_DONOR and "RULES §7.2" in NO_DONOR
    assert [o.label for o in found.choices.offers()] == ["No summon"]


def test_a_summon_a_donor_can_answer_offers_it():
    found = step(conceded("Angel,Ogre"), 0, "aftermath")
    assert found.text == "After the engagement:"
    assert [o.label for o in found.choices.offers()] == ["Summon the Angel of Bk02", "No summon"]
