"""The muster phase (RULES §6.1–§6.4; rule 18)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMuster, WrongPhase
from engine.game import actions as a
from engine.game.events import Mustered
from engine.game.legal import legal_actions
from engine.game.state import Options, Phase
from engine.game.view import view
from tests.engine.game.helpers import act, of_type, pos


def musters(state, seat=0):
    return [x for x in legal_actions(state, seat) if isinstance(x, a.Muster)]


def test_rule_18_1_only_legions_that_moved_muster():
    state = pos(
        "Bk01@41:Titan,Ogre*2 Bk02@40:Ogre*2 Rd01@600:Titan | turn=Bk phase=muster "
        "moves=Bk01:100>41"
    )
    assert {x.legion for x in musters(state)} == {"Bk01"}
    with pytest.raises(IllegalMuster, match="did not move"):
        act(state, 0, a.Muster("Bk02", "Ogre"))


def test_rule_18_0_one_muster_per_legion_and_turn():
    state = pos("Bk01@41:Titan,Ogre*2 Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:100>41")
    state, events = act(state, 0, a.Muster("Bk01", "Troll", ("Ogre", "Ogre")))
    assert of_type(events, Mustered) == [Mustered("Bk01", "Troll", ("Ogre", "Ogre"))]
    assert events[0].audience is None
    assert state.legion("Bk01").characters == ("Ogre", "Ogre", "Titan", "Troll")
    assert musters(state) == []
    with pytest.raises(IllegalMuster, match="mustered already"):
        act(state, 0, a.Muster("Bk01", "Ogre"))


def test_rule_18_1_a_full_legion_cannot_muster():
    state = pos("Bk01@41:Titan,Ogre*6 Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:100>41")
    assert musters(state) == []
    with pytest.raises(IllegalMuster):
        act(state, 0, a.Muster("Bk01", "Ogre"))


def test_rule_18_4_reveal_any_sufficient_set():
    """Two Ogres and a Troll muster a Troll by showing both Ogres or the Troll."""
    state = pos(
        "Bk01@41:Titan,Ogre*2,Troll Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:100>41"
    )
    state, events = act(state, 0, a.Muster("Bk01", "Troll", ("Troll",)))
    assert of_type(events, Mustered)[0].revealed == ("Troll",)
    state = pos(
        "Bk01@41:Titan,Ogre*2,Troll Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:100>41"
    )
    state, events = act(state, 0, a.Muster("Bk01", "Troll", ("Ogre", "Ogre")))
    assert of_type(events, Mustered)[0].revealed == ("Ogre", "Ogre")
    one_ogre = pos("Bk01@41:Titan,Ogre Rd01@600:Titan | phase=muster turn=Bk moves=Bk01:40>41")
    with pytest.raises(IllegalMuster):
        act(one_ogre, 0, a.Muster("Bk01", "Troll", ("Ogre",)))


def test_rule_18_5_tower_musters():
    """V11: Titan + 3 Gargoyles in a Tower → Centaur, Gargoyle, Ogre, Warlock or Guardian;
    in Brush → Gargoyle or Cyclops."""
    tower = pos("Bk01@200:Titan,Gargoyle*3 Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:10>200")
    assert sorted({x.recruit for x in musters(tower)}) == [
        "Centaur",
        "Gargoyle",
        "Guardian",
        "Ogre",
        "Warlock",
    ]
    brush = pos("Bk01@3:Titan,Gargoyle*3 Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:100>3")
    assert sorted({x.recruit for x in musters(brush)}) == ["Cyclops", "Gargoyle"]


def test_rule_6_2_no_muster_from_an_empty_stack():
    state = pos(
        "Bk01@41:Titan,Ogre*2 Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:100>41 dead=Troll*28"
    )
    assert [x.recruit for x in musters(state)] == ["Ogre"]
    with pytest.raises(IllegalMuster):
        act(state, 0, a.Muster("Bk01", "Troll", ("Ogre", "Ogre")))


def test_rule_4_1_end_turn_after_mustering():
    state = pos("Bk01@41:Titan Rd01@600:Titan | turn=Bk phase=muster")
    assert legal_actions(state, 0) == [a.EndTurn(), a.Reveal("Bk01"), a.Withdraw()]
    assert legal_actions(state, 1) == [a.Reveal("Rd01"), a.Withdraw()]
    state, _ = act(state, 0, a.EndTurn())
    assert (state.active, state.phase) == (1, Phase.SPLIT)
    with pytest.raises(WrongPhase):
        act(state, 1, a.Muster("Rd01", "Ogre"))


def test_errata_20_0_record_keeping_remembers_recruiters():
    text = "Bk01@41:Titan,Ogre*2,Lion Rd01@600:Titan | turn=Bk phase=muster moves=Bk01:100>41"
    for keeping in (False, True):
        state = pos(text, options=Options(record_keeping=keeping))
        state, _ = act(state, 0, a.Muster("Bk01", "Troll", ("Ogre", "Ogre")))
        legion = next(lv for lv in view(state, 1).legions if lv.marker == "Bk01")
        assert legion.characters is None
        assert legion.known == (("Ogre", "Ogre", "Troll") if keeping else ())
