"""A player shows his own legion to everyone, in whole or in part, at any time (errata 4.5,
RULES §1.7); what he shows is recorded like every reveal (errata 20.0)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, InvalidNotation, NotYourTurn, WrongPhase
from engine.game import actions as a
from engine.game.apply import new_game
from engine.game.events import SHOWN_BY_OWNER, Revealed
from engine.game.legal import legal_actions
from engine.game.state import Options
from engine.game.view import view
from tests.engine.game.helpers import act, pos

MOVING = "Bk01@41:Ogre*2,Titan,Troll Bk02@5:Angel,Lion Rd01@600:Titan,Wyvern | turn=Bk roll=3"


def shown(events):
    return [e for e in events if isinstance(e, Revealed)]


def test_errata_4_5_a_whole_legion_shown_to_everyone():
    state = pos(MOVING, options=Options(record_keeping=True))
    after, events = act(state, 0, a.Reveal("Bk01"))
    assert events == [Revealed("Bk01", ("Ogre", "Ogre", "Titan", "Troll"), SHOWN_BY_OWNER)]
    assert events[0].audience is None
    assert after.legion("Bk01").revealed == ("Ogre", "Ogre", "Titan", "Troll")
    assert (after.legion("Bk01").characters, after.turn, after.phase) == (
        state.legion("Bk01").characters,
        state.turn,
        state.phase,
    )
    red = {lv.marker: lv for lv in view(after, 1).legions}
    assert red["Bk01"].known == ("Ogre", "Ogre", "Titan", "Troll")
    assert red["Bk01"].characters is None  # shown once, not kept open (RULES §1.7)
    assert red["Bk02"].known == ()


def test_errata_4_5_part_of_a_legion_and_then_more_of_it():
    state = pos(MOVING)
    state, events = act(state, 0, a.Reveal("Bk01", ("Troll", "Ogre")))
    assert shown(events) == [Revealed("Bk01", ("Ogre", "Troll"), SHOWN_BY_OWNER)]
    assert state.legion("Bk01").revealed == ("Ogre", "Troll")
    assert a.Reveal("Bk01") in legal_actions(state, 0)  # the Titan and an Ogre are unseen
    with pytest.raises(IllegalAction, match="everyone has seen Ogre in Bk01 already"):
        act(state, 0, a.Reveal("Bk01", ("Ogre",)))
    state, events = act(state, 0, a.Reveal("Bk01", ("Ogre", "Ogre")))
    assert state.legion("Bk01").revealed == ("Ogre", "Ogre", "Troll")
    state, _ = act(state, 0, a.Reveal("Bk01", ()))  # empty: the whole legion
    assert state.legion("Bk01").revealed == ("Ogre", "Ogre", "Titan", "Troll")
    assert a.Reveal("Bk01") not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="everyone has seen all of it in Bk01 already"):
        act(state, 0, a.Reveal("Bk01"))


def test_errata_4_5_at_any_time_not_only_on_ones_turn():
    state = pos(MOVING)
    assert legal_actions(state, 1) == [a.Reveal("Rd01"), a.Withdraw()]
    after, events = act(state, 1, a.Reveal("Rd01", ("Wyvern",)))
    assert shown(events) == [Revealed("Rd01", ("Wyvern",), SHOWN_BY_OWNER)]
    assert after.active == 0 and after.turn == state.turn


def test_only_ones_own_legion_and_only_what_it_holds():
    state = pos(MOVING)
    with pytest.raises(NotYourTurn, match="Rd01 is not your legion"):
        act(state, 0, a.Reveal("Rd01"))
    with pytest.raises(IllegalAction, match="Bk01 holds no Troll to show"):
        act(state, 0, a.Reveal("Bk01", ("Troll", "Troll")))
    with pytest.raises(IllegalAction, match="holds no Angel"):
        act(state, 0, a.Reveal("Bk01", ("Angel",)))
    with pytest.raises(InvalidNotation):
        act(state, 0, a.Reveal("Bk01", ("Dodo",)))
    with pytest.raises(InvalidNotation):
        act(state, 0, a.Reveal("Bk07"))


def test_rule_5_7_nothing_to_show_of_a_legion_in_battle():
    text = "Bk01@41:Ogre*2,Titan Bk02@5:Angel,Lion Rd01@41:Troll Rd02@600:Titan | turn=Bk"
    state, _ = act(pos(f"{text} phase=engage"), 0, a.Engage(41))
    state, _ = act(state, 1, a.NoMoreProposals())
    state, _ = act(state, 0, a.Fight())
    assert a.Reveal("Bk01") not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="fighting the battle"):
        act(state, 0, a.Reveal("Bk01"))
    assert a.Reveal("Bk02") in legal_actions(state, 0)
    act(state, 0, a.Reveal("Bk02"))
    act(state, 1, a.Reveal("Rd02"))


def test_errata_4_5_an_engaged_legion_may_be_shown_to_all_before_battle():
    """Before a battle only the two engaged players see the legions (RULES §5.2)."""
    text = "Bk01@41:Ogre*2,Titan Rd01@41:Troll Rd02@600:Titan | turn=Bk phase=engage"
    state, _ = act(pos(text), 0, a.Engage(41))
    _, events = act(state, 1, a.Reveal("Rd01"))
    assert shown(events) == [Revealed("Rd01", ("Troll",), SHOWN_BY_OWNER)]


def test_not_before_the_game_is_played_nor_after_it():
    state, _ = new_game(["Ann", "Bob"], 3)
    chooser = state.player(state.active).name
    with pytest.raises(
        WrongPhase,
        match=f"once the turns have begun .*; the game waits for {chooser} to choose a colour$",
    ):
        act(state, 1 - state.active, a.Reveal("Bk01"))
    over = pos("Bk01@41:Titan Rd01@600:Titan | winners=Bk")
    with pytest.raises(
        WrongPhase, match=r"^you can show a legion only while the game is being played$"
    ):
        act(over, 0, a.Reveal("Bk01"))
    assert legal_actions(over, 0) == []


def test_a_split_forgets_what_was_shown():
    """A split gives two new stacks: nobody knows which went where (RULES §3.2)."""
    state = pos("Bk01@41:Ogre*2,Titan,Troll Rd01@600:Titan | turn=Bk")
    state, _ = act(state, 0, a.Reveal("Bk01"), a.Split("Bk01", "Bk02", ("Ogre", "Ogre")))
    assert state.legion("Bk01").revealed == () and state.legion("Bk02").revealed == ()
    assert legal_actions(state, 0)[-3:] == [a.Reveal("Bk01"), a.Reveal("Bk02"), a.Withdraw()]
